"""``make publish``: every edition of the site deployed to the local gh-pages branch, once it validates.

Each edition is one version (2026.1 as published, 2026.2 current, alias ``latest``, and ``latest`` as the
default the site root redirects to), deployed by the site engine (``render/site/engine.py``). A version that
fails to build or verify is not committed: the engine commits only after a build succeeds, and the rulebook
plugin verifies the site at the end of every build.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from .build import held_folder, render_pdfs
from .checks import run_checks
from .errors import BuildError, Location, SourceError, SourceErrors
from .library import edition_key, load_library
from .progress import Report, quiet
from .render.site import engine

ALIAS = "latest"


TEMP_PREFIX = "rulebook-publish-"  # the temporary folder, in the system's: the next publish removes one a stop left


def refusals(root: Path) -> list[SourceError]:
    """The errors that stop a publish: every error the current edition's validation reports."""
    lib = load_library(root)
    return [SourceError(Location(f.path, f.line), f"{f.check}: {f.message}")
            for f in run_checks(lib) if f.severity == "error"]


def publish(root: Path, branch: str = "gh-pages", progress: Report = quiet) -> list[str]:
    """Deploy every edition to ``branch`` (local only; pushing is the workflow's job); return the versions.

    Validation comes first: on any error nothing is built and ``branch`` is left as it was. ``progress`` is told
    each edition's stages as they run (``progress.py``): its book's pages, its score sheets, its site.
    """
    progress("validate")
    refused = refusals(root)
    progress("validate", final=True)
    if refused:
        raise SourceErrors(refused)
    lib = load_library(root)
    editions = sorted(lib.book.editions, key=lambda e: edition_key(e.id))
    env = engine.versioned(dict(os.environ))
    # The engine commits to gh-pages; a fresh machine (CI) may have no git identity configured.
    try:
        known = subprocess.run(["git", "-C", str(root), "config", "user.email"], capture_output=True, text=True).stdout
    except FileNotFoundError:
        raise BuildError("git: not found: publish commits each edition to a git branch; install git (or put it on "
                         "PATH), then publish again") from None
    if not known.strip():
        for who in ("AUTHOR", "COMMITTER"):
            env.setdefault(f"GIT_{who}_NAME", "rulebook publisher")
            env.setdefault(f"GIT_{who}_EMAIL", "rulebook-publisher@localhost")
    deployed = []
    # Removed however the publish ends: an error, Ctrl-C or SIGTERM (rulebook's own handler unwinds it); one
    # a kill -9 left is removed by the next publish.
    with held_folder(Path(tempfile.gettempdir()), TEMP_PREFIX) as tmp:
        for edition in editions:
            ed_lib = load_library(root, edition.id)
            pdf_dir = Path(tmp) / edition.id / "pdf"
            anchors = render_pdfs(ed_lib, pdf_dir, progress=lambda stage, *args, ed=edition.id, **kw:
                                  progress(f"{ed}: {stage}", *args, **kw))
            pages = Path(tmp) / edition.id / "book-pages.json"
            pages.write_text(json.dumps(anchors, sort_keys=True), encoding="utf-8")
            progress(f"{edition.id}: site built, checked and committed")
            engine.deploy(root, env, branch, edition.id, f"{edition.id} – {edition.label}",
                          (ALIAS,) if edition.id == lib.book.current else (), downloads=pdf_dir, pages=pages,
                          generated=Path(tmp) / edition.id / "generated")
            progress(f"{edition.id}: site built, checked and committed", final=True)
            deployed.append(edition.id)
            shutil.rmtree(Path(tmp) / edition.id, ignore_errors=True)
        engine.set_default(root, env, branch, ALIAS)
    return deployed

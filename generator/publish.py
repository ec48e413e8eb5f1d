"""``make publish``: every edition of the site deployed with mike to the local gh-pages branch, once it validates.

Each edition is one mike version (2026.1 as published, 2026.2 current, alias ``latest``, and
``latest`` as the default the site root redirects to). mike runs ``mkdocs`` from PATH, so the
project's own environment is put first on PATH. A version that fails to build or verify is not
committed: mike commits only after a build succeeds, and the rulebook plugin verifies the site
at the end of every build.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .build import held_folder, render_pdfs
from .checks import run_checks
from .errors import BuildError, Location, SourceError, SourceErrors
from .library import edition_key, load_library
from .progress import Report, quiet
from .render.process import die_with_parent

ALIAS = "latest"


TEMP_PREFIX = "rulebook-publish-"  # the temporary folder, in the system's: the next publish removes one a stop left


def _mike(args: list[str], root: Path, env: dict[str, str]) -> None:
    mike = Path(sys.executable).with_name("mike")
    parent = os.getpid()
    result = subprocess.run([str(mike), *args, "--config-file", str(root / "mkdocs.yml")], cwd=root, env=env,
                            capture_output=True, text=True, preexec_fn=lambda: die_with_parent(parent))
    if result.returncode != 0:
        raise BuildError(f"mike {' '.join(args)} failed:\n{result.stderr.strip()[-3000:]}")


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
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["RULEBOOK_VERSIONED"] = "1"
    # mike commits to gh-pages; a fresh machine (CI) may have no git identity configured.
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
            env.update(RULEBOOK_EDITION=edition.id, RULEBOOK_DOWNLOADS=str(pdf_dir), RULEBOOK_PAGES=str(pages),
                       RULEBOOK_GENERATED=str(Path(tmp) / edition.id / "generated"))
            args = ["deploy", "--branch", branch, "--title", f"{edition.id} – {edition.label}", edition.id]
            if edition.id == lib.book.current:
                args += [ALIAS, "--update-aliases"]
            progress(f"{edition.id}: site built, checked and committed")
            _mike(args, root, env)
            progress(f"{edition.id}: site built, checked and committed", final=True)
            deployed.append(edition.id)
            shutil.rmtree(Path(tmp) / edition.id, ignore_errors=True)
        for name in ("RULEBOOK_EDITION", "RULEBOOK_DOWNLOADS", "RULEBOOK_PAGES", "RULEBOOK_GENERATED"):
            env.pop(name, None)
        _mike(["set-default", "--branch", branch, ALIAS], root, env)
    return deployed

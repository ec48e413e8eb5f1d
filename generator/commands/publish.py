"""``make publish``: every edition of the site deployed to the local gh-pages branch, once it validates.

Each edition is one version (2026.1 as published, 2026.2 current, alias ``latest``, and ``latest`` as the
default the site root redirects to), deployed by the site engine (``render/site/engine.py``). A version that
fails to build or verify is not committed: the engine commits only after a build succeeds, and the rulebook
plugin verifies the site at the end of every build.

Only what was committed is published: uncommitted changes to the book's sources (``SOURCES``) refuse the publish
unless it is told otherwise (``allow_dirty``), and each deploy's commit message names the commit built. An edition
whose build would read exactly what its deployed version's build read (``build_digest``: the code, the templates,
the versions, and the edition's sources as assembled, later changes and later editions left out) is kept as
deployed, not built again: a correction to the current edition rebuilds the current edition alone, and opening an
edition builds the new one alone (the alias ``latest`` moves to it), so long as the branch still holds the folder
its deploy committed (``TREE``: a later commit that removed or changed a file of it has the edition built again).
What is deployed is read where mike will commit: the local branch, or ``origin``'s when the local one is missing or
behind (a CI checkout has only that). Each edition is built in publish's own temporary folder, never in the book's
folder (its ``site/`` may be the user's own).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..book import git
from ..book.library import Library, edition_key, load_library
from ..book.words import _
from ..checks import run_checks
from ..errors import Problem, Problems, RulebookError
from ..progress import Report, quiet
from ..render.output import held_folder
from ..render.pdf.worker import render_pdfs
from ..render.site import engine
from .build import code_digest

ALIAS = "latest"
# What a build of the book reads besides the installed code: a change to any of them not yet committed would be
# published under a commit that does not hold it.
SOURCES = ("rules_data", "content", "templates", engine.CONFIG, "generator", "pyproject.toml", "requirements.lock")
DIGEST = "rulebook-build"  # the property of a deployed version (mike's versions.json) holding its build's digest
# ... and the id of the folder its deploy committed (git's tree): a later commit on the branch that removed or changed
# one of its files (by hand, another tool) shows, and the edition is built again
TREE = "rulebook-tree"


TEMP_PREFIX = "rulebook-publish-"  # the temporary folder, in the system's: the next publish removes one a stop left


def refusals(root: Path) -> list[Problem]:
    """The errors that stop a publish: every error the current edition's validation reports."""
    return [f for f in run_checks(load_library(root)) if f.severity == "error"]


def built_commit(root: Path, allow_dirty: bool = False) -> str:
    """The commit a publish builds, as its deploy messages name it: "<sha>", or "<sha> + uncommitted changes" when
    ``allow_dirty`` lets it build changes to the book's sources that are not committed (else they refuse it)."""
    sha = git.commit(root, "HEAD")
    if sha is None:
        raise RulebookError(_("publish builds a commit, and %(root)s has none: commit the book (git add -A; git "
                              "commit), then publish again", root=root))
    changed = git.uncommitted(root, SOURCES)
    if changed and not allow_dirty:
        more = _(" and %(value)s more", value=len(changed) - 1) if len(changed) > 1 else ""
        raise RulebookError(_("%(changed)s%(more)s: not committed, and publish deploys a commit: commit them (or "
                              "stash them) and publish again, or publish them as they are with --allow-dirty",
                              changed=changed[0], more=more))
    return sha + (" + uncommitted changes" if changed else "")


def build_digest(lib: Library, code: hashlib._Hash | None = None) -> str:
    """A digest of everything the build of ``lib``'s edition reads: the code, templates, dependencies, versions and
    text libraries (``render/pdf/cache.py``), the site's configuration and the edition's sources as assembled
    (``Library.printed_sources``). Equal digests build the same version."""
    digest = (code or code_digest(lib.root, "publish")).copy()
    digest.update(json.dumps(lib.printed_sources(), sort_keys=True, ensure_ascii=False, default=str).encode())
    return digest.hexdigest()


@dataclass
class Published:
    """What a publish did: the editions it built and deployed, and those it kept as deployed (unchanged)."""

    deployed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    commit: str = ""


def publish(root: Path, branch: str = "gh-pages", progress: Report = quiet, allow_dirty: bool = False) -> Published:
    """Deploy every edition that changed to ``branch`` (local only; pushing is the workflow's job).

    Validation comes first: on any error nothing is built and ``branch`` is left as it was; so do uncommitted changes
    to the book's sources, unless ``allow_dirty``. An edition whose deployed version was built from what its build
    would read now (``build_digest``) is kept. ``progress`` is told each edition's stages as they run
    (``progress.py``): its book's pages, its score sheets, its site.
    """
    commit = built_commit(root, allow_dirty)
    there = engine.versions(root, branch)  # first: a branch mike would refuse refuses the publish before any work
    progress("validate")
    refused = refusals(root)
    progress("validate", final=True)
    if refused:
        raise Problems(refused)
    lib = load_library(root)
    editions = sorted(lib.book.editions, key=lambda e: edition_key(e.id))
    env = engine.versioned(dict(os.environ))
    # The engine commits to gh-pages; a fresh machine (CI) may have no git identity configured.
    if git.setting(root, "user.email") is None:
        for who in ("AUTHOR", "COMMITTER"):
            env.setdefault(f"GIT_{who}_NAME", "rulebook publisher")
            env.setdefault(f"GIT_{who}_EMAIL", "rulebook-publisher@localhost")
    done = Published(commit=commit)
    code = code_digest(root, "publish")
    # Removed however the publish ends: an error, Ctrl-C or SIGTERM (rulebook's own handler unwinds it); one
    # a kill -9 left is removed by the next publish.
    with held_folder(Path(tempfile.gettempdir()), TEMP_PREFIX) as tmp:
        for edition in editions:
            ed_lib = load_library(root, edition.id)
            digest = build_digest(ed_lib, code)
            aliases = (ALIAS,) if edition.id == lib.book.current else ()
            entry = there.get(edition.id)
            if entry is not None and entry.properties.get(DIGEST) == digest and entry.properties.get(TREE) == \
                    git.tree(root, engine.deployed_ref(root, branch) or branch, edition.id):
                done.kept.append(edition.id)  # built from what it would read now: as deployed, byte for byte
                if not set(aliases) <= set(entry.aliases):  # opened before: the alias moves to it, as it is
                    engine.alias(root, env, branch, edition.id, aliases,
                                 _("%(aliases)s now %(id)s (%(label)s), deployed before", aliases=', '.join(aliases),
                                   id=edition.id, label=edition.label))
                continue  # an alias it has and no longer should moves when the edition that should is deployed
            pdf_dir = Path(tmp) / edition.id / "pdf"
            anchors = render_pdfs(ed_lib, pdf_dir, progress=lambda stage, *args, ed=edition.id, **kw:
                                  progress(f"{ed}: {stage}", *args, **kw))
            progress(f"{edition.id}: site built, checked and committed")
            engine.deploy(root, env, branch, edition.id, f"{edition.id} – {edition.label}", aliases,
                          downloads=pdf_dir, pages=anchors, generated=Path(tmp) / edition.id / "generated",
                          message=f"Deployed {edition.id} ({edition.label}) built from commit {commit}",
                          properties={DIGEST: digest}, site=Path(tmp) / edition.id / "site")
            engine.set_properties(root, env, branch, edition.id, {TREE: git.tree(root, branch, edition.id) or ""})
            progress(f"{edition.id}: site built, checked and committed", final=True)
            done.deployed.append(edition.id)
            shutil.rmtree(Path(tmp) / edition.id, ignore_errors=True)
        engine.set_default(root, env, branch, ALIAS)
    return done


def run(root: Path, branch: str = "gh-pages", allow_dirty: bool = False) -> int:
    """``rulebook publish``: deploy, then say what was deployed and kept, from which commit."""
    from ..progress import shown

    with shown() as progress:
        done = publish(root, branch, progress, allow_dirty=allow_dirty)
    deployed, kept = ", ".join(done.deployed), ", ".join(done.kept)
    where = {"branch": branch, "commit": done.commit}
    if done.deployed and done.kept:
        print(_("deployed %(deployed)s; kept %(kept)s as deployed (unchanged since) to the local '%(branch)s' branch, "
                "built from commit %(commit)s (push it to publish)", deployed=deployed, kept=kept, **where))
    elif done.deployed:
        print(_("deployed %(deployed)s to the local '%(branch)s' branch, built from commit %(commit)s (push it to "
                "publish)", deployed=deployed, **where))
    elif done.kept:
        print(_("deployed nothing; kept %(kept)s as deployed (unchanged since) to the local '%(branch)s' branch, built "
                "from commit %(commit)s (push it to publish)", kept=kept, **where))
    else:
        print(_("deployed nothing to the local '%(branch)s' branch, built from commit %(commit)s (push it to publish)",
                **where))
    return 0

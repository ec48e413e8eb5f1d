"""The site engine, run: MkDocs builds and serves the site, mike deploys it as one version per edition.

The rest of the project asks for a site by these functions and never names the engine: ``commands/build.py`` calls
``render_site``, ``commands/serve.py`` ``serve``, ``commands/publish.py`` ``versions``, ``deploy``, ``alias`` and
``set_default``. What MkDocs calls back while it builds (the pages generated, sanitized and checked) is the plugin's
(``plugin.py``). docs/site-engine.md says what a port to another engine would touch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ...book.files import MAX_ASSET_BYTES, read_source
from ...errors import BuildError, RulebookError
from ...progress import Report, quiet
from ..process import die_with_parent

if TYPE_CHECKING:
    from ...book.library import Library

CONFIG = "mkdocs.yml"  # the site's configuration, at the project's root
REMOTE = "origin"  # the remote whose copy of the branch mike deploys on (given to mike, read by ``deployed_ref``)


def render_site(lib: Library, site_dir: Path, staging: Path, downloads: Path | None,
                book_pages: dict[str, int] | None = None, progress: Report = quiet) -> None:
    """Build the MkDocs site (strict) for the library's edition into ``site_dir``."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    from .plugin import SITE_PAGES
    from .verify import check_site, shipped_scripts

    config = load_config(config_file=str(lib.root / CONFIG), site_dir=str(site_dir), strict=True)
    plugin = config.plugins["rulebook"]
    plugin.config.edition = lib.edition.id
    plugin.config.generated = str(staging / "generated")
    plugin.config.downloads = str(downloads) if downloads else None
    plugin.progress = progress
    progress(SITE_PAGES)  # from MkDocs's start: the pages are counted as they are written
    if book_pages is not None:
        pages_file = staging / "book-pages.json"
        pages_file.write_text(json.dumps(book_pages, sort_keys=True), encoding="utf-8")
        plugin.config.pages = str(pages_file)
    # The theme's own templates (mkdocs.yml's custom_dir) are read by MkDocs, not by the door every other file
    # passes: each is put through it first, so that a link among them to a secret is one line, never a page.
    overrides = lib.root / "templates" / "site" / "overrides"
    for path in sorted(overrides.rglob("*")) if overrides.is_dir() else []:
        if path.is_symlink() or not path.is_dir():
            read_source(path, path.relative_to(lib.root).as_posix(), lib.root / "templates", MAX_ASSET_BYTES)
    try:
        mkdocs_build(config)
    except (MkDocsException, SystemExit) as exc:
        raise BuildError(f"mkdocs build failed: {exc}") from exc
    except (OSError, KeyboardInterrupt, RulebookError):
        raise  # a full disk, a stop, a source refused: the build says what and where
    except Exception as exc:  # noqa: BLE001 - Markdown or MkDocs gave up on something validate passed
        first = (str(exc).splitlines() or [""])[0][:200]
        raise BuildError(f"the site could not be built: {plugin.building_page()} failed ({type(exc).__name__}: "
                         f"{first}); please report it, with that page") from None
    if plugin.verified != str(site_dir):  # the plugin checks every page after building
        check_site(site_dir, shipped_scripts(config))


def serve(root: Path, addr: str, edition: str | None = None) -> None:
    """Serve the site of ``edition`` (the current one if None) at ``addr``, built again when a source changes."""
    from mkdocs.commands.serve import serve as mkdocs_serve

    if edition:
        os.environ["RULEBOOK_EDITION"] = edition  # read by the plugin, as mike's builds give it
    mkdocs_serve(config_file=str(root / CONFIG), dev_addr=addr, livereload=True)


def versioned(env: dict[str, str]) -> dict[str, str]:
    """``env`` for deploying versions: this environment's commands first on PATH (mike runs ``mkdocs`` from PATH),
    and the site told it is one version among several (the theme's version selector)."""
    return {**env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
            "RULEBOOK_VERSIONED": "1"}


def deploy(root: Path, env: dict[str, str], branch: str, edition: str, title: str, aliases: tuple[str, ...],
           downloads: Path, pages: Path, generated: Path, message: str, properties: dict[str, str]) -> None:
    """Build the site of ``edition`` (its PDFs in ``downloads``, their pages in ``pages``, its generated pages in
    ``generated``) and commit it to ``branch`` as the version ``edition``, titled ``title``, with ``aliases``, the
    commit message ``message`` and ``properties`` kept with the version (in versions.json, read by ``versions``).
    Nothing is committed unless the build succeeds and its check passes (the plugin checks every build)."""
    given = {"RULEBOOK_EDITION": edition, "RULEBOOK_DOWNLOADS": str(downloads), "RULEBOOK_PAGES": str(pages),
             "RULEBOOK_GENERATED": str(generated)}
    args = ["deploy", "--branch", branch, "--title", title, "--message", message, "--prop-delete-all",
            *(arg for key, value in sorted(properties.items()) for arg in ("--prop-set-string", f"{key}={value}")),
            edition]
    if aliases:
        args += [*aliases, "--update-aliases"]
    _mike(args, root, {**env, **given})


@dataclass(frozen=True)
class Version:
    """A version deployed on the branch: its aliases and the properties its deploy kept with it."""

    aliases: tuple[str, ...]
    properties: dict[str, str]


def _commit(root: Path, rev: str) -> str | None:
    shown = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                           capture_output=True, text=True)
    return shown.stdout.strip() if shown.returncode == 0 and shown.stdout.strip() else None


def deployed_ref(root: Path, branch: str) -> str | None:
    """The revision holding what is deployed: the one mike's next commit to ``branch`` goes on top of (None when
    neither ``branch`` nor ``REMOTE``'s copy of it exists).

    Before it commits, mike takes ``REMOTE/branch`` when the local branch is missing or behind it (CI fetches only the
    remote's: its checkout has no local gh-pages), keeps a local branch that is even or ahead (deploys not pushed
    yet), and refuses two that diverged: so does this, in one line, before anything is built."""
    here, remote = _commit(root, branch), f"{REMOTE}/{branch}"
    there = _commit(root, remote)
    if there is None or here == there:
        return branch if here else None
    if here is None:
        return remote
    base = subprocess.run(["git", "-C", str(root), "merge-base", here, there], capture_output=True, text=True)
    if base.returncode == 0 and base.stdout.strip() == here:
        return remote  # behind the remote: mike moves the branch up to it first
    if base.returncode == 0 and base.stdout.strip() == there:
        return branch  # ahead: deploys not pushed yet
    raise BuildError(f"{branch}: the local branch and {remote} have diverged (each has deploys the other lacks), "
                     f"and mike deploys on neither: take the remote's (git branch -f {branch} {remote}; what only "
                     "the local branch had is built again), then publish again")


def versions(root: Path, branch: str) -> dict[str, Version]:
    """The versions deployed on ``branch`` as mike will find it (``deployed_ref``: the local branch or the remote's),
    by version (none if there is no such branch, or it lists none)."""
    try:
        ref = deployed_ref(root, branch)
        if ref is None:
            return {}
        shown = subprocess.run(["git", "-C", str(root), "show", f"{ref}:versions.json"], capture_output=True,
                               text=True)
    except FileNotFoundError:
        return {}
    try:
        entries = json.loads(shown.stdout) if shown.returncode == 0 else []
    except json.JSONDecodeError:
        return {}  # not mike's: every version is built again
    return {e["version"]: Version(tuple(e.get("aliases") or ()), e["properties"] if isinstance(e.get("properties"), dict)
                                  else {})
            for e in entries if isinstance(e, dict) and isinstance(e.get("version"), str)}


def set_default(root: Path, env: dict[str, str], branch: str, version: str) -> None:
    """Make ``version`` (a version or an alias) the one the site's root address opens (unless it is already: a mike
    run and a commit spared when a publish keeps the editions as they are)."""
    ref = deployed_ref(root, branch)
    shown = subprocess.run(["git", "-C", str(root), "show", f"{ref or branch}:index.html"], capture_output=True,
                           text=True)
    if shown.returncode == 0 and f'href="{version}/"' in shown.stdout and f'url={version}/' in shown.stdout:
        return
    _mike(["set-default", "--branch", branch, version], root, env)


def alias(root: Path, env: dict[str, str], branch: str, version: str, aliases: tuple[str, ...], message: str) -> None:
    """Point ``aliases`` at ``version``, deployed as it is (taken from the version that had them): no build."""
    _mike(["alias", "--branch", branch, "--message", message, version, *aliases, "--update-aliases"], root, env)


def _mike(args: list[str], root: Path, env: dict[str, str]) -> None:
    mike = Path(sys.executable).with_name("mike")
    parent = os.getpid()
    result = subprocess.run([str(mike), *args, "--remote", REMOTE, "--config-file", str(root / CONFIG)], cwd=root,
                            env=env, capture_output=True, text=True, preexec_fn=lambda: die_with_parent(parent))
    if result.returncode != 0:
        raise BuildError(f"mike {' '.join(args)} failed:\n{result.stderr.strip()[-3000:]}")

"""The site engine, run: MkDocs builds and serves the site, mike deploys it as one version per edition.

The rest of the project asks for a site by these functions and never names the engine: ``commands/build.py`` calls
``render_site``, ``commands/serve.py`` ``serve``, ``commands/publish.py`` ``versions``, ``deploy``, ``alias`` and
``set_default``. What MkDocs calls back while it builds (the pages generated, sanitized and checked) is the plugin's
(``plugin.py``). docs/site-engine.md says what a port to another engine would touch.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ... import settings
from ...book import git
from ...book.files import MAX_ASSET_BYTES, read_source
from ...book.git import GitMissing
from ...book.words import _
from ...errors import BuildError, EngineErrors, RulebookError, SourceError
from ...progress import Report, quiet
from ..process import PAGES, Request, die_with_parent

if TYPE_CHECKING:
    from ...book.library import Library
    from .log import Said

CONFIG = "mkdocs.yml"  # the site's configuration, at the project's root
PLUGIN = "rulebook"  # the plugin's name in it (pyproject.toml's entry point)
REMOTE = "origin"  # the remote whose copy of the branch mike deploys on (given to mike, read by ``deployed_ref``)


def render_site(lib: Library, site_dir: Path, staging: Path, downloads: Path | None,
                book_pages: dict[str, int] | None = None, progress: Report = quiet) -> None:
    """Build the MkDocs site (strict) for the library's edition into ``site_dir``: its pages generated in ``staging``
    (held to the sources the library was validated from, if any), linking the PDFs in ``downloads`` and printing the
    book's page of each anchor (``book_pages``)."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    from .log import kept
    from .plugin import SITE_PAGES, overrides
    from .verify import check_site, shipped_scripts

    with kept(lambda: None) as log:  # a configuration MkDocs refuses: its words, at mkdocs.yml's line
        try:
            config = load_config(config_file=str(lib.root / CONFIG), site_dir=str(site_dir), strict=True)
        except (MkDocsException, SystemExit) as exc:
            raise refused(exc, log.take(), {}, lib.root) from None
    plugin = config.plugins[PLUGIN]
    plugin.request = Request(PAGES, str(lib.root), lib.edition.id, str(staging / "generated"), validated=lib.validated,
                             downloads=str(downloads) if downloads else None, pages=book_pages)
    plugin.progress = progress
    progress(SITE_PAGES)  # from MkDocs's start: the pages are counted as they are written
    # The theme's own templates (mkdocs.yml's custom_dir) are read by MkDocs, not by the door every other file
    # passes: each is put through it first, so that a link among them to a secret is one line, never a page.
    for folder in overrides(lib.root):
        for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
            if path.is_symlink() or not path.is_dir():
                read_source(path, f"templates/{path.relative_to(folder.parents[1]).as_posix()}", folder.parents[1],
                            MAX_ASSET_BYTES)
    try:
        with kept(lambda: getattr(plugin, "building", None)) as log:
            try:
                mkdocs_build(config)
            except (MkDocsException, SystemExit) as exc:
                said = log.take()  # the engine's own words first, each at its source; else what stopped the plugin
                failure = getattr(plugin, "failure", None)
                if failure and not said:
                    raise BuildError(failure) from None
                raise refused(exc, said, plugin.edit_urls, lib.root) from None
    except (OSError, KeyboardInterrupt, RulebookError):
        raise  # a full disk, a stop, a source refused: the build says what and where
    except Exception as exc:  # noqa: BLE001 - Markdown or MkDocs gave up on something validate passed
        first = (str(exc).splitlines() or [""])[0][:200]
        raise BuildError(f"the site could not be built: {plugin.building_page()} failed ({type(exc).__name__}: "
                         f"{first}); please report it, with that page") from None
    if plugin.verified != str(site_dir):  # the plugin checks every page after building
        check_site(site_dir, shipped_scripts(config))


def refused(exc: BaseException, said: list[Said], sources: dict[str, str], root: Path) -> RulebookError:
    """The error a failed engine run (``exc``, having logged ``said``) is reported as: the book's own error where the
    plugin raised one; else each warning and error the engine logged, in its words, at the source of the page it is
    about (``sources``: each page's, by its path in the docs); else the engine's last word."""
    from mkdocs.exceptions import Abort, PluginError

    from .log import located, one_line

    cause = exc.__context__ if isinstance(exc, Abort) and exc.__context__ is not None else exc
    if isinstance(cause, PluginError) and isinstance(cause.__cause__, RulebookError):
        return cause.__cause__  # the book's own error (a source the pages are made from), as validate says it
    ours = str(cause) if isinstance(cause, PluginError) else None  # the plugin's own words (its site check)
    problems = [SourceError(located(s, sources, root), f"MkDocs: {one_line(s.message)}")
                for s in said if s.message != ours]
    if not problems:
        return BuildError(ours or f"the site engine (MkDocs) stopped: {one_line(str(exc))}")
    # The site check (the plugin's) finds the same slips again in the pages built: its first words, after MkDocs's
    also = f" (the built site's check: {'; '.join(ours.splitlines()[1:3] or [ours])})" if ours else ""
    return EngineErrors(problems, f"the site was not built: MkDocs refused what the lines above say{also}; "
                                  "nothing was changed")


def serve(root: Path, addr: str, edition: str | None = None) -> None:
    """Serve the site of ``edition`` (the current one if None) at ``addr``, built again when a source changes."""
    from mkdocs.commands.serve import serve as mkdocs_serve
    from mkdocs.exceptions import MkDocsException

    from .log import address_told, kept

    def told(url: str) -> None:
        print(_("serving the site at %(address)s (built again when a source changes; Ctrl-C stops)", address=url),
              flush=True)

    # The pages are generated into a folder of the preview's own, removed when it stops: never into build/, where a
    # build refuses what it did not make (and a preview and a build may run at once).
    # What MkDocs logs is kept from the start (a configuration it refuses); the plugin tells it at each build.
    with tempfile.TemporaryDirectory(prefix="rulebook-serve-") as generated, address_told(told), \
            kept(lambda: None) as log, _ends_when_stopped(generated):
        asked = Path(generated) / "request.json"
        asked.write_text(Request(PAGES, str(root), edition, generated).to_json(), encoding="utf-8")
        try:
            # Not strict: a warning is printed (at its source) and the preview goes on showing the book
            mkdocs_serve(config_file=str(root / CONFIG), dev_addr=addr, livereload=True, strict=False,
                         plugins=_plugins_asked(root, asked))
        except (MkDocsException, SystemExit) as exc:  # refused before serving (what the plugin told is not kept)
            raise refused(exc, log.take(), {}, root) from None
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            raise BuildError(f"{addr} is in use (another preview, or another server): stop it, or give another "
                             "address with --addr, such as 127.0.0.1:8001") from None


STOP_GRACE = 10  # seconds the preview has to shut its server down once stopped, before it ends regardless


@contextlib.contextmanager
def _ends_when_stopped(generated: str) -> Iterator[None]:
    """SIGTERM (or SIGHUP) stops the preview for certain: the signal interrupts it as Ctrl-C does, which MkDocs's
    server takes as its cue to shut down; and should that shutdown wait forever (its server thread, a rebuild, the
    file watcher), the process ends ``STOP_GRACE`` seconds later all the same, its generated pages removed. A
    preview stopped so ends as stopped, not as if it had finished."""
    import shutil
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stopped: list[str] = []

    def stop(signum: int, frame: object) -> None:
        if not stopped:
            stopped.append(signal.Signals(signum).name)

            def end() -> None:
                shutil.rmtree(generated, ignore_errors=True)
                os._exit(130)
            threading.Thread(target=lambda: (threading.Event().wait(STOP_GRACE), end()), daemon=True).start()
        raise KeyboardInterrupt(stopped[0])
    before = {signum: signal.signal(signum, stop) for signum in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
    if stopped:  # MkDocs's server takes the interrupt as the end of serving, and returns
        raise KeyboardInterrupt(stopped[0])


def _plugins_asked(root: Path, request: Path) -> Any:
    """The plugins mkdocs.yml lists, the rulebook plugin's options naming ``request`` (a file): how a run of MkDocs
    in this process is given its request (load_config's options replace the file's). As a mapping, which MkDocs
    reads without taking it apart: the preview loads it again at every build."""
    import io

    from mkdocs.utils.yaml import yaml_load

    stream = io.BytesIO(read_source(root / CONFIG, CONFIG, root, MAX_ASSET_BYTES))
    stream.name = str(root / CONFIG)  # an INHERIT in it is found from there, as MkDocs finds it
    listed = yaml_load(stream).get("plugins", ["search"])
    if not isinstance(listed, (dict, list)):
        return listed  # MkDocs refuses it, in its words
    entries = listed.items() if isinstance(listed, dict) else [
        (entry, None) if isinstance(entry, str) else next(iter(entry.items())) for entry in listed if entry]
    return {name: {**(options or {}), "request": str(request)} if name == PLUGIN else options
            for name, options in entries}


def versioned(env: dict[str, str]) -> dict[str, str]:
    """``env`` for mike, which deploys the versions: this environment's commands first on PATH (mike runs ``mkdocs``
    from PATH)."""
    return {**env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"}


def deploy(root: Path, env: dict[str, str], branch: str, edition: str, title: str, aliases: tuple[str, ...],
           downloads: Path, pages: dict[str, int], generated: Path, message: str, properties: dict[str, str],
           site: Path) -> None:
    """Build the site of ``edition`` (its PDFs in ``downloads``, the book's page of each anchor ``pages``, its
    generated pages in ``generated``) and commit it to ``branch`` as the version ``edition``, titled ``title``, with
    ``aliases``, the commit message ``message`` and ``properties`` kept with the version (in versions.json, read by
    ``versions``). Nothing is committed unless the build succeeds and its check passes (the plugin checks every
    build). mike's build of the site is given its request in a file beside ``generated``, named in mike's
    environment (settings.REQUEST). The site is built into ``site``, a folder of the caller's: never the book's own
    ``site/``, which MkDocs would empty first."""
    asked = generated.parent / "request.json"
    asked.parent.mkdir(parents=True, exist_ok=True)
    asked.write_text(Request(PAGES, str(root), edition, str(generated), downloads=str(downloads), pages=pages,
                             versioned=True, site=str(site)).to_json(), encoding="utf-8")
    args = ["deploy", "--branch", branch, "--title", title, "--message", message, "--prop-delete-all",
            *(arg for key, value in sorted(properties.items()) for arg in ("--prop-set-string", f"{key}={value}")),
            edition]
    if aliases:
        args += [*aliases, "--update-aliases"]
    _mike(args, root, {**env, settings.REQUEST: str(asked)})


@dataclass(frozen=True)
class Version:
    """A version deployed on the branch: its aliases and the properties its deploy kept with it."""

    aliases: tuple[str, ...]
    properties: dict[str, str]


def deployed_ref(root: Path, branch: str) -> str | None:
    """The revision holding what is deployed: the one mike's next commit to ``branch`` goes on top of (None when
    neither ``branch`` nor ``REMOTE``'s copy of it exists).

    Before it commits, mike takes ``REMOTE/branch`` when the local branch is missing or behind it (CI fetches only the
    remote's: its checkout has no local gh-pages), keeps a local branch that is even or ahead (deploys not pushed
    yet), and refuses two that diverged: so does this, in one line, before anything is built."""
    here, remote = git.commit(root, branch), f"{REMOTE}/{branch}"
    there = git.commit(root, remote)
    if there is None or here == there:
        return branch if here else None
    if here is None:
        return remote
    base = git.merge_base(root, here, there)
    if base == here:
        return remote  # behind the remote: mike moves the branch up to it first
    if base == there:
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
        shown = git.show(root, ref, "versions.json")
    except GitMissing:
        return {}
    try:
        entries = json.loads(shown) if shown is not None else []
    except json.JSONDecodeError:
        return {}  # not mike's: every version is built again
    return {e["version"]: Version(tuple(e.get("aliases") or ()), e["properties"] if isinstance(e.get("properties"), dict)
                                  else {})
            for e in entries if isinstance(e, dict) and isinstance(e.get("version"), str)}


def set_default(root: Path, env: dict[str, str], branch: str, version: str) -> None:
    """Make ``version`` (a version or an alias) the one the site's root address opens (unless it is already: a mike
    run and a commit spared when a publish keeps the editions as they are)."""
    ref = deployed_ref(root, branch)
    shown = git.show(root, ref or branch, "index.html")
    if shown is not None and f'href="{version}/"' in shown and f'url={version}/' in shown:
        return
    _mike(["set-default", "--branch", branch, version], root, env)


def set_properties(root: Path, env: dict[str, str], branch: str, version: str, properties: dict[str, str]) -> None:
    """Add ``properties`` to those kept with ``version`` (mike's versions.json): its files are not touched."""
    _mike(["props", "--branch", branch, "--message", f"{version}: {', '.join(sorted(properties))} recorded",
           *(arg for key, value in sorted(properties.items()) for arg in ("--set-string", f"{key}={value}")), version],
          root, env)


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


def main(argv: list[str]) -> int:
    """``python -m generator.render.site.engine REQUEST``: the site a request (``process.Request``, a SITE) asks for,
    built into its ``out`` folder; the answer on what was standard output (``process.Answer``)."""
    from ...book.library import load_library
    from ..process import SITE, Answer, Result, failure

    answer = Answer()
    request: Request | None = None
    try:
        request = Request.read(Path(argv[0]))
        if request.task != SITE or request.staging is None:
            raise RulebookError(f"the site builder builds a site in a staging folder, not the {request.task!r} asked")
        lib = load_library(Path(request.root), request.edition, validated=request.validated)
        render_site(lib, Path(request.out), Path(request.staging),
                    Path(request.downloads) if request.downloads else None, request.pages)
        result = Result()
    except Exception as exc:  # noqa: BLE001 - the library's own error, a full disk, memory: the answer says which
        result = Result(failure=failure(exc, Path(request.out) if request is not None else None))
    answer.result(result)
    return 0 if result.failure is None else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

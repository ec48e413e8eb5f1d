"""The MkDocs plugin: generates the pages from rules_data/ and content/, and sanitizes every page.

Registered as ``rulebook`` (see pyproject.toml), so ``mkdocs build``, ``mkdocs serve`` and
``mike deploy`` all build the book from its sources. What to build (the edition, where its pages are
generated, the PDFs and page numbers the site links, whether it is one version among several) is the
build's request (``process.Request``): the one ``engine.render_site`` gives it, or the file its
``request`` option names (``engine.serve``), or the file the setting ``RULEBOOK_REQUEST`` names (the
site builds mike runs for ``engine.deploy``); a plain ``mkdocs build`` makes one from the plugin's options.
"""

from __future__ import annotations

import contextlib
import html
import json
import logging
import os
import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from markupsafe import escape
from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority

from ... import settings
from ...book.files import read_file_text, template_folders
from ...errors import RulebookError, problem_line
from ..process import PAGES, Request
from ..views.markup import PROSE_EXTENSIONS, sanitize
from . import offline
from .language import book_language, book_words, follow

SITE_PAGES = "site pages written and checked"  # the stage a build's site reports (progress.py)
# The script that joins the editions when mike deploys them (an earlier edition's banner links the same page in the
# newest; the version selector keeps the page): shipped with a versioned build only, as the theme's version selector.
EDITIONS_SCRIPT = "assets/editions.js"


class RulebookConfig(Config):
    edition = c.Optional(c.Type(str))
    generated = c.Type(str, default="build/generated")
    downloads = c.Optional(c.Type(str))
    pages = c.Optional(c.Type(str))  # a JSON file: the book's page of each anchor
    repo = c.Type(str, default="")
    request = c.Optional(c.Type(str))  # a request file (process.Request): what to build, in place of the above


class RulebookPlugin(BasePlugin[RulebookConfig]):
    """Generate the docs from data on every build; sanitize every page body."""

    verified: str | None = None  # the site folder whose every page passed verify_site after the last build
    check: Any = None  # the running site check (verify.SiteCheck) during a build
    last_page: str | None = None  # the page MkDocs is writing: told to the check once the next page begins
    worker: Any = None  # the process generating the pages (worker.SiteWorker) until MkDocs lists the files
    progress: Any = None  # told how many pages are written of how many (progress.py), set by engine.render_site
    request: Request | None = None  # what to build, given by engine.render_site (``_request``)
    versioned = False  # this build is one version among several (mike deploys it): its request says so
    pages_written, pages_listed = 0, 0

    def __init__(self) -> None:
        super().__init__()
        from .worker import SiteWorker

        self.failure: str | None = None  # what stopped the build, in the plugin's words (_failed)

        # Started now, so that its imports and the pages are made while MkDocs reads the rest of its
        # configuration and lists the theme's files (worker.py). Asked once, at the first on_config.
        try:
            self.worker = SiteWorker() if SiteWorker.available() else None
        except OSError:  # no process to be had: the pages are generated here
            self.worker = None
        self.asked = False  # the worker is generating this build's pages
        self.serving = False  # `mkdocs serve`: an error is shown in the served pages, never a dead preview
        self.problems: list[str] = []  # serving: the errors `rulebook validate` finds, shown atop every page
        self.edit_urls: dict[str, str] = {}
        self.generated_files: list[str] = []  # the generated files, in the order MkDocs is to read them
        self.repo = ""  # the repository the sources are kept in, as configured (repository.py); '' for none
        self.edition: str | None = None  # the edition built (None: the page saying the book cannot be built)
        self.name = ""  # the site's name and description as typed (config's are escaped for the theme): the app's
        self.description: str | None = None
        self.accent: str | None = None  # the book's colour (book.yaml), None on the page saying it cannot be built
        self.pages: set[str] = set()  # the pages built, and what they load: the book's service worker keeps them
        self.loads: set[str] = set()  # (offline.py)
        # serving: each build told in one line (``_told``): what changed since the last, how long it took, and
        # what is wrong with the book; what MkDocs logged, each at its source, before it
        self.log: Any = None  # what MkDocs logs while serving (log.Kept), kept until MkDocs shuts down (held)
        self.held = contextlib.ExitStack()
        self.sources: dict[str, tuple[int, int]] | None = None  # the watched files as the last build saw them
        self.changed: list[str] = []
        self.started = 0.0
        self.rebuilt = False  # a build after the first
        self.failed = ""  # the error the last build failed with (serving), told already
        self.told_failure = False  # serving: the failing build was told (on_build_error)
        self.broken: str | None = None  # serving: why the last build failed, shown by the build after (``_keep_serving``)
        self.status = ""
        self.root = Path.cwd()  # the book's folder (serving: set at each build)

    def _request(self, config: Any) -> Request:
        """What to generate (``worker.generate``): the request this build was given (by ``engine.render_site``), or
        the one in the file the ``request`` option or the setting RULEBOOK_REQUEST names, or one made of the plugin's
        options; its repository is the ``repo`` option's."""
        given = self.request
        named = self.config.request or settings.read().request
        if given is None and named:
            given = Request.read(Path(named))
        if given is None:
            root = Path(config["config_file_path"]).resolve().parent
            pages = json.loads(read_file_text(Path(self.config.pages))) if self.config.pages else None
            given = Request(PAGES, str(root), self.config.edition or None, str(root / self.config.generated),
                            downloads=self.config.downloads, pages=pages)
        return replace(given, repo=self.config.repo)

    def _use(self, answer: dict[str, Any], config: Any) -> None:
        config["docs_dir"], config["nav"] = answer["docs"], answer["nav"]
        # The site's name, description and author are the book's (book.yaml), whatever mkdocs.yml says. The theme
        # prints them into HTML as they are, and once more through its escape filter (the logo's tooltip): escaped
        # here once and marked so, each prints as typed in both.
        self.name, self.description, self.accent = answer["site_name"], answer.get("site_description"), answer.get("accent")
        for key in ("site_name", "site_description", "site_author"):
            config[key] = escape(answer[key]) if answer.get(key) is not None else None
        self.edit_urls, self.generated_files = answer["edit"], answer["files"]
        self.edition, self.repo = answer.get("edition"), answer.get("repo", "")

    def _failed(self, problem: str) -> PluginError:
        """The error that stops MkDocs, kept: MkDocs itself says only 'Aborted with a BuildError!' (engine.py)."""
        self.failure = problem
        return PluginError(problem)

    def _generate(self, config: Any) -> None:
        from .worker import generate

        request = self._request(config)
        if self.broken is not None:  # the page saying why the last build failed (``_keep_serving``)
            self.problems = []
            self._use(_error_site(Path(request.out), self.broken), config)
            return
        try:
            self._use(generate(request), config)
        except RulebookError as exc:
            if not self.serving:
                raise self._failed(str(exc)) from exc
            # The preview shows why the book cannot be built, and builds it again when the file is saved.
            self.problems = []
            self._use(_error_site(Path(request.out), str(exc)), config)
            self.status = f"the book cannot be built (the preview says so): {_first(str(exc))}"
            return
        if self.serving:
            self.problems = _errors(request.root, request.edition)
            self.status = (f"{len(self.problems)} error{'s' if len(self.problems) != 1 else ''}, shown atop every "
                           f"page: {_first(self.problems[0])}" if self.problems else "")

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # `mkdocs serve` builds on every save: each build is made here (no worker), so that a slip in a
        # file becomes a page saying so instead of a failed build and a preview that stops changing. mike reads the
        # configuration and builds nothing itself (it runs `mkdocs build`): no pages are wanted of it.
        self.serving = command == "serve"
        if command in ("serve", "mike") and self.worker is not None:
            self.worker.stop()
            self.worker = None
        if self.serving:
            from .log import kept

            self.log = self.held.enter_context(kept(lambda: getattr(self, "building", None)))

    def on_shutdown(self) -> None:
        self.held.close()  # what MkDocs logs is no longer kept here
        self.log = None

    @event_priority(50)  # before the search's: it takes its language from the theme's, which is the book's
    def on_config(self, config: Any) -> Any:
        theme_overrides(config, own=self.broken is None)  # the page saying a build failed: not by what may fail it
        follow(config, book_language(Path(config["config_file_path"]).resolve().parent))
        self.started = time.monotonic()
        # Prose reads the same on the site as in print: the print book's Markdown extensions, added here.
        config["markdown_extensions"] += [e for e in PROSE_EXTENSIONS if e not in config["markdown_extensions"]]
        request = self._request(config)
        self.versioned = request.versioned
        if request.site:  # mike's build and mike's own reading of the configuration: publish's folder, never the
            config["site_dir"] = request.site  # book's site/, which may be the user's own (MkDocs empties it)
        if self.versioned:
            config["extra"]["version"] = {"provider": "mike"}
            config["extra_javascript"].append(EDITIONS_SCRIPT)
        if self.worker is not None:
            self.worker.ask(request)
            self.asked = True
            # MkDocs lists this empty folder and the theme; the pages join the list at on_files.
            pending = Path(request.out) / ".pending"
            pending.mkdir(parents=True, exist_ok=True)
            config["docs_dir"] = str(pending)
        return config

    def on_pre_build(self, config: Any) -> None:
        if self.serving:
            from .log import changed, snapshot

            root = Path(config["config_file_path"]).resolve().parent
            now = snapshot(root, [*config["watch"], config["config_file_path"]])
            self.rebuilt = self.sources is not None
            self.changed = changed(self.sources, now) if self.rebuilt else []
            self.sources, self.status, self.root = now, "", root
        # A later build with this plugin (the live preview): generated here, from the sources as they are now.
        if not self.asked:
            self._generate(config)

    def on_files(self, files: Any, config: Any) -> Any:
        from mkdocs.structure.files import File, Files, set_exclusions

        from .verify import SiteCheck, shipped_scripts

        # The site check reads each page in a second process once it is written (verify.SiteCheck); started
        # before the wait for the worker's list of files.
        self.check, self.last_page = SiteCheck(Path(config["site_dir"]), shipped_scripts(config)), None
        self.pages, self.loads = set(), set()
        if self.asked:
            try:
                listing = self.worker.listing()
            except RulebookError as exc:
                raise self._failed(str(exc)) from exc
            if listing is None:
                self._without_worker(config)
            else:
                self._use(listing, config)
        # The generated files as MkDocs lists a docs folder (docs.reading_order), then the theme's files they do not
        # replace: listed from the worker's answer, as some pages are still being written.
        docs = [File(rel, config["docs_dir"], config["site_dir"], config["use_directory_urls"])
                for rel in self.generated_files if self.versioned or rel != EDITIONS_SCRIPT]
        set_exclusions(docs, config)
        listed = Files(docs)
        theme = [f for f in files if not (f.abs_src_path or "").startswith(config["docs_dir"] + os.sep)]
        for file in theme:
            if listed.get_file_from_path(file.src_uri) is None:
                listed.append(file)
        self.pages_written, self.pages_listed = 0, len(listed.documentation_pages())
        return listed

    def on_page_read_source(self, page: Any, config: Any) -> None:
        self.building = page.file.src_uri  # named should the engine fail on it (render_site)
        # MkDocs reads the pages in the order listed, while the worker writes them in that order.
        if self.asked and not self.worker.wait_for(page.file.src_uri):
            self._without_worker(config)

    def on_env(self, env: Any, config: Any, files: Any) -> Any:
        # The theme's pages the tool adds to (404.html, the earlier edition's banner) write the book's words
        env.globals["_"] = book_words(Path(config["config_file_path"]).resolve().parent)
        # Every page is read: the worker has ended, or is about to.
        if self.asked:
            if self.worker.finish():
                self.worker, self.asked = None, False
            else:  # it wrote every page MkDocs read, but failed after
                self._without_worker(config)
        return env

    def _without_worker(self, config: Any) -> None:
        """The worker failed (it has ended): every page is made here, the same pages, and its error, if the
        sources cause it, raised here where it belongs."""
        self.worker, self.asked = None, False
        self._generate(config)

    def on_serve(self, server: Any, config: Any, builder: Any) -> Any:
        # MkDocs watches the docs folder, which every build writes anew: watched, each build started the next, for
        # ever. The sources the pages are generated from are watched instead (mkdocs.yml's `watch`).
        server.unwatch(config["docs_dir"])
        server.builder = self._keep_serving(server.builder)  # patches.py: mkdocs-serve-builder
        return server

    def _keep_serving(self, builder: Any) -> Any:
        """MkDocs's rebuild (``builder``), for its server: a failure (a template of the book's that does not parse, an
        exception in Markdown) told in one line, where it is, and the site then the page saying so, instead of
        MkDocs's traceback and a preview left half-written."""

        def rebuild() -> None:
            self.building, self.changed = None, []  # told by this build's on_pre_build: none if it fails before
            try:
                builder()
            except Exception as exc:  # noqa: BLE001 - whatever stopped it is told, and the preview goes on
                if not self.told_failure:  # MkDocs failed before building (its configuration): told here
                    self._told(f"not built: {self._failure(exc)}; the preview says so until it is corrected")
                self.told_failure, self.broken = False, self._failure(exc)
                try:
                    builder()  # the page saying so (_generate), with the tool's theme templates (on_config)
                except Exception:  # noqa: BLE001 - told already; the site stays as the failed build left it
                    pass
                finally:
                    self.broken = None

        return rebuild

    def _failure(self, error: BaseException) -> str:
        """A failed build in one line: where (the last line of the book's own files it passed through, a template's
        line; else the page being built) and what, in the engine's words."""
        import traceback

        from mkdocs.exceptions import Abort

        from .log import one_line

        cause = error.__context__ if isinstance(error, Abort) and error.__context__ is not None else error
        if isinstance(cause, PluginError) and isinstance(cause.__cause__, RulebookError):
            return one_line(str(cause.__cause__))  # the book's own error, as validate says it
        root = str(self.root.resolve()) + os.sep
        frames = [f for f in traceback.extract_tb(cause.__traceback__) if os.path.abspath(f.filename).startswith(root)]
        what = one_line(str(cause)) or type(cause).__name__
        quoted = re.search(rf'"{re.escape(root)}([^"]+)", line (\d+)', what)  # a file the message names (YAML's)
        if frames:
            where = f"{os.path.relpath(frames[-1].filename, root)}:{frames[-1].lineno}"
        elif quoted:
            where = f"{quoted[1]}:{quoted[2]}"
        else:
            where = self.building_page() if getattr(self, "building", None) else "mkdocs.yml"
        return f"{where}: {what} ({type(cause).__name__})"[:400]

    def _told(self, what: str) -> None:
        """Serving: what MkDocs logged during this build, each at its source, then the build in one line (``what``,
        after what changed)."""
        from ...errors import clean
        from .log import located, one_line

        if self.broken is not None:  # the page saying the last build failed: that build told why
            if self.log is not None:
                self.log.take()
            return
        for said in self.log.take() if self.log is not None else []:
            if said.message == self.failed:
                continue
            print(clean(f"{located(said, self.edit_urls, self.root)}: MkDocs: {one_line(said.message)}"), flush=True)
        shown = ", ".join(self.changed[:3]) + (f" and {len(self.changed) - 3} more" if len(self.changed) > 3 else "")
        print(clean(f"{shown} changed: {what}" if shown else what), flush=True)

    def building_page(self) -> str:
        """The page being built, as a failure names it: its path on the site, and the source it is made from."""
        page = getattr(self, "building", None)
        if page is None:
            return "before any page"
        source = self.edit_urls.get(page)
        return f"the page {page}" + (f" (made from {source})" if source else "")

    def on_page_markdown(self, markdown: str, page: Any, config: Any, files: Any) -> str:
        self.building = page.file.src_uri
        # "Edit this page" opens the source a contributor should change, not the generated page.
        source = self.edit_urls.get(page.file.src_uri)
        if source and self.repo:  # the configured repository (repository.py); none: no edit button
            page.edit_url = f"{self.repo.rstrip('/')}/edit/main/{source}"
        return markdown

    def on_page_content(self, html: str, page: Any, config: Any, files: Any) -> str:
        # Second line of defence: whatever the Markdown produced, only allow-listed HTML survives.
        return _banner(self.problems) + sanitize(html)

    def on_post_page(self, output: str, page: Any, config: Any) -> str:
        # MkDocs writes a page after this event: the page before this one is on disk now.
        if self.last_page is not None:
            self.check.written(self.last_page)
        self.last_page = page.file.dest_uri
        self.pages_written += 1
        if self.progress is not None:
            self.progress(SITE_PAGES, self.pages_written, self.pages_listed)
        self.pages.add(page.file.dest_uri)
        self.loads |= offline.page_loads(page.file.dest_uri, output)
        return offline.mark_edition(output, self.edition)

    def on_build_error(self, error: Exception) -> None:
        if self.serving and self.broken is None:
            if self.log is not None:  # MkDocs's own words on the failure ('Error building page …'): said below, once
                self.log.said = [s for s in self.log.said if s.level < logging.ERROR]
            self._told(f"not built: {self._failure(error)}; the preview says so until it is corrected")
            self.failed, self.told_failure = str(error), True  # MkDocs logs it next, and raises it: told once
        if self.worker is not None:
            self.worker.stop()
        self.worker, self.asked = None, False
        if self.check is not None:
            self.check.stop()
            self.check = None

    def on_post_build(self, config: Any) -> None:
        # Links, anchors and safety are verified before anything (a build folder, a mike commit) uses the site.
        if self.last_page is not None:
            self.check.written(self.last_page)
        # Written before the check lists the site's files (every page links the manifest).
        offline.write_offline(Path(config["site_dir"]), self.edition, self.name, self.pages, self.loads,
                              description=self.description, accent=self.accent)
        try:
            problems = self.check.problems()
        except RulebookError as exc:
            raise self._failed(str(exc)) from exc
        finally:
            self.check = None
        if problems and self.serving:  # the preview shows the pages as built, and says what their check found
            self.status = "; ".join(filter(None, (self.status, "the built site failed its checks: "
                                                  + _first("\n".join(map(problem_line, problems))))))
        elif problems:
            raise self._failed("the built site failed its checks:\n" + "\n".join(map(problem_line, problems[:50])))
        else:
            self.verified = config["site_dir"]  # engine.render_site need not read every page again
        if self.serving:
            took = f"{'rebuilt' if self.rebuilt else 'built'} in {time.monotonic() - self.started:.1f} s"
            self._told(f"{took}; {self.status}" if self.status else took)
        if self.progress is not None:
            self.progress(SITE_PAGES, self.pages_written, self.pages_listed, final=True)


def overrides(root: Path | None) -> list[Path]:
    """The theme's templates the book adds to (its pages link the web app manifest): the book's own
    (templates/site/overrides beside mkdocs.yml) before the tool's."""
    return [folder / "site" / "overrides" for folder in template_folders(root)]


def theme_overrides(config: Any, own: bool = True) -> None:
    """Put the theme's overrides (``overrides``) first among the theme's folders, whatever mkdocs.yml's custom_dir
    names: a book started by `rulebook init` names none, and gets the tool's. ``own`` false: the tool's alone."""
    found = [str(p) for p in overrides(Path(config.config_file_path).parent if own else None) if p.is_dir()]
    seen = {os.path.realpath(p) for p in found}
    theme = config["theme"]
    theme.dirs[:] = [*found, *(d for d in theme.dirs if os.path.realpath(d) not in seen)]


def _errors(root: str, edition: str | None) -> list[str]:
    """The errors `rulebook validate` reports, one line each (the preview shows them)."""
    from ...book.library import load_library
    from ...checks import run_checks

    lib = load_library(Path(root), edition)
    return [problem_line(f) for f in run_checks(lib) if f.severity == "error"]


def _first(text: str) -> str:
    """The first line of a message, saying how many more it has."""
    lines = text.strip().splitlines() or [""]
    return lines[0] + (f" (and {len(lines) - 1} more lines)" if len(lines) > 1 else "")


def _banner(problems: list[str]) -> str:
    """The errors atop a served page, escaped (they quote contributors' words)."""
    if not problems:
        return ""
    items = "".join(f"<li><code>{html.escape(p)}</code></li>" for p in problems)
    return (f'<div class="admonition danger rulebook-errors"><p class="admonition-title">'
            f"The book has {len(problems)} error{'s' if len(problems) != 1 else ''} "
            f"(<code>make validate</code> says the same)</p><ul>{items}</ul></div>")


def _error_site(generated: Path, problem: str) -> dict[str, Any]:
    """A one-page site saying why the book cannot be built (the preview while a file has a slip)."""
    import shutil

    from ...book.files import MAX_ASSET_BYTES, copy_tree, template_bounds
    from ..views.markup import TEMPLATES
    from .docs import SITE_ASSETS

    docs = generated / "cannot-build" / "docs"
    shutil.rmtree(docs, ignore_errors=True)
    # the theme's stylesheet, as every page of the book has it
    copy_tree(SITE_ASSETS, docs / "assets", "templates/site/assets", template_bounds(TEMPLATES), MAX_ASSET_BYTES)
    lines = "\n".join(f"    {line}" for line in problem.splitlines())  # an indented block: shown as written
    (docs / "index.md").write_text("# The book cannot be built\n\nCorrect the file named below and save it: "
                                   f"this page turns back into the book.\n\n{lines}\n", encoding="utf-8")
    return {"docs": str(docs), "nav": [{"The book cannot be built": "index.md"}], "site_name": "The book cannot be built",
            "edit": {}, "files": ["index.md", *sorted(f"assets/{p.name}" for p in (docs / "assets").iterdir())]}

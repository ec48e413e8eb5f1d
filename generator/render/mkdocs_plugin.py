"""The MkDocs plugin: generates the pages from rules_data/ and content/, and sanitizes every page.

Registered as ``rulebook`` (see pyproject.toml), so ``mkdocs build``, ``mkdocs serve`` and
``mike deploy`` all build the book from its sources. The edition comes from the plugin's
``edition`` option or the ``RULEBOOK_EDITION`` environment variable (mike sets it per version).
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

from ..errors import RulebookError
from .markup import PROSE_EXTENSIONS, sanitize


class RulebookConfig(Config):
    edition = c.Optional(c.Type(str))
    generated = c.Type(str, default="build/generated")
    downloads = c.Optional(c.Type(str))
    pages = c.Optional(c.Type(str))
    repo = c.Type(str, default="")


class RulebookPlugin(BasePlugin[RulebookConfig]):
    """Generate the docs from data on every build; sanitize every page body."""

    verified: str | None = None  # the site folder whose every page passed verify_site after the last build
    check: Any = None  # the running site check (verify.SiteCheck) during a build
    last_page: str | None = None  # the page MkDocs is writing: told to the check once the next page begins

    def _generate(self, config: Any) -> None:
        from ..library import load_library
        from .site import write_docs

        root = Path(config["config_file_path"]).resolve().parent
        edition = self.config.edition or os.environ.get("RULEBOOK_EDITION") or None
        try:
            lib = load_library(root, edition)
        except RulebookError as exc:
            raise PluginError(str(exc)) from exc
        generated = os.environ.get("RULEBOOK_GENERATED") or self.config.generated
        docs = root / generated / lib.edition.id / "docs"
        downloads_dir = self.config.downloads or os.environ.get("RULEBOOK_DOWNLOADS")
        downloads = Path(downloads_dir) if downloads_dir else None
        pages_file = self.config.pages or os.environ.get("RULEBOOK_PAGES")
        book_pages = json.loads(Path(pages_file).read_text(encoding="utf-8")) if pages_file else None
        result = write_docs(lib, docs, downloads, book_pages, self.config.repo)
        if os.environ.get("RULEBOOK_VERSIONED"):
            config["extra"]["version"] = {"provider": "mike"}
        config["docs_dir"] = str(docs)
        config["nav"] = result["nav"]
        config["site_name"] = html.escape(f"{lib.book.title} · {lib.edition.id}")  # printed raw by the theme
        self.edit_urls = result.get("edit", {})
        self.lib = lib

    def on_config(self, config: Any) -> Any:
        # Prose reads the same on the site as in print: the print book's Markdown extensions, added here.
        config["markdown_extensions"] += [e for e in PROSE_EXTENSIONS if e not in config["markdown_extensions"]]
        self._generate(config)
        return config

    def on_pre_build(self, config: Any) -> None:
        # Live preview: regenerate from the sources on every rebuild.
        if getattr(self, "_built_once", False):
            self._generate(config)
        self._built_once = True
        from .verify import SiteCheck

        # The site check reads each page in a second process once it is written (verify.SiteCheck).
        self.check, self.last_page = SiteCheck(Path(config["site_dir"])), None

    def on_page_markdown(self, markdown: str, page: Any, config: Any, files: Any) -> str:
        # "Edit this page" opens the source a contributor should change, not the generated page.
        source = self.edit_urls.get(page.file.src_uri)
        if source and self.config.repo:
            page.edit_url = f"{self.config.repo.rstrip('/')}/edit/main/{source}"
        return markdown

    def on_page_content(self, html: str, page: Any, config: Any, files: Any) -> str:
        # Second line of defence: whatever the Markdown produced, only allow-listed HTML survives.
        return sanitize(html)

    def on_post_page(self, output: str, page: Any, config: Any) -> str:
        # MkDocs writes a page after this event: the page before this one is on disk now.
        if self.last_page is not None:
            self.check.written(self.last_page)
        self.last_page = page.file.dest_uri
        return output

    def on_build_error(self, error: Exception) -> None:
        if self.check is not None:
            self.check.stop()
            self.check = None

    def on_post_build(self, config: Any) -> None:
        # Links, anchors and safety are verified before anything (a build folder, a mike commit) uses the site.
        if self.last_page is not None:
            self.check.written(self.last_page)
        try:
            problems = self.check.problems()
        except RulebookError as exc:
            raise PluginError(str(exc)) from exc
        finally:
            self.check = None
        if problems:
            raise PluginError("the built site failed its checks:\n" + "\n".join(problems[:50]))
        self.verified = config["site_dir"]  # build.render_site need not read every page again

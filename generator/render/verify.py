"""After the site is built and before it replaces the last good one: links and safety, checked.

Every page's content must be free of scripts, event handlers, frames, styles and unsafe URLs
(whatever got past escaping and sanitizing), and every relative link and anchor in any page,
raw HTML included, must resolve to a built file and an existing id.
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

from ..errors import BuildError

# The theme draws its icons as inline <svg> inside the article, so svg itself is allowed; scripts are not.
UNSAFE_TAGS = {"script", "iframe", "object", "embed", "style", "link", "meta", "base", "frame", "frameset", "foreignobject"}
UNSAFE_URL = re.compile(r"^\s*(javascript|data|vbscript|file):", re.I)
# The theme's own inline scripts (Material for MkDocs); any other inline script is an injection.
THEME_SCRIPTS = ("__md_scope=", "var palette=__md_get(", "var target=document.getElementById(location.hash")


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, int]] = []
        self.problems: list[str] = []
        self.depth = 0  # >0 inside the page's own content (not the theme's frame)
        self.script: dict[str, str | None] | None = None
        self.script_text = ""
        # <title> and <textarea> hold text only (RCDATA): a browser reads '<script>' there as words.
        self.rcdata: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.rcdata:
            return
        if tag in ("title", "textarea"):
            self.rcdata = tag
            return
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"] or "")
        if a.get("name") and tag == "a":
            self.ids.add(a["name"] or "")
        if tag == "article" and "md-content__inner" in (a.get("class") or ""):
            self.depth = 1
        elif self.depth and tag not in ("br", "hr", "img", "input", "col", "meta", "link", "wbr"):
            self.depth += 1
        for key in ("href", "src", "action", "formaction", "xlink:href", "poster"):
            value = a.get(key)
            if value and UNSAFE_URL.match(value):
                self.problems.append(f"unsafe URL in <{tag} {key}>: {value[:60]}")
        if tag in ("a", "link") and a.get("href"):
            self.links.append((a["href"] or "", self.getpos()[0]))
        if tag == "script":
            self.script, self.script_text = a, ""
            src = a.get("src")
            if src and (urlparse(src).scheme or urlparse(src).netloc or "assets/" not in src):
                self.problems.append(f"script from outside the site's assets: {src[:80]}")
        if self.depth:
            if tag in UNSAFE_TAGS:
                self.problems.append(f"<{tag}> in page content")
            for key in a:
                if key.lower().startswith("on"):
                    self.problems.append(f"event handler {key} on <{tag}> in page content")
            if tag == "img" and a.get("src") and urlparse(a["src"] or "").scheme:
                self.problems.append(f"remote image {a['src']}")

    def handle_endtag(self, tag: str) -> None:
        if self.rcdata:
            if tag == self.rcdata:
                self.rcdata = None
            return
        if tag == "script" and self.script is not None:
            text = self.script_text.strip()
            is_config = self.script.get("type") == "application/json" and self.script.get("id") == "__config"
            if text and not is_config and not text.startswith(THEME_SCRIPTS):
                self.problems.append(f"inline script that is not the theme's: {text[:60]}")
            if is_config and "<" in text:
                self.problems.append("markup inside the theme's configuration")
            self.script = None
        if self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.script is not None:
            self.script_text += data


def verify_site(site: Path) -> list[str]:
    """Problems found in a built site (empty when all is well)."""
    pages: dict[Path, _Page] = {}
    # Every built file and folder, listed once: looking each link's target up on disk (resolve,
    # exists, is_dir per link, thousands of them) was a fifth of the check. A built site has no
    # symbolic links, so a normalised path names the same file that resolve() would.
    site = Path(os.path.abspath(site))
    files, folders = set(), {site}
    for path in site.rglob("*"):
        (folders if path.is_dir() else files).add(path)
    for html in sorted(p for p in files if p.suffix == ".html"):
        parser = _Page()
        parser.feed(html.read_text(encoding="utf-8"))
        pages[html] = parser
    problems = []
    for html, parser in pages.items():
        rel = html.relative_to(site).as_posix()
        problems += [f"{rel}: {p}" for p in parser.problems]
        if rel == "404.html":  # MkDocs writes the 404 page with site-absolute links by design
            continue
        for href, line in parser.links:
            url = urlparse(href)
            if url.scheme or url.netloc or href.startswith("mailto:"):
                continue
            target = html if not url.path else Path(os.path.normpath(html.parent / unquote(url.path)))
            if url.path.endswith("/") or target in folders:
                target = target / "index.html"
            if target not in files:
                problems.append(f"{rel}:{line}: broken link {href}")
                continue
            if url.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else set()
                if url.fragment not in ids:
                    problems.append(f"{rel}:{line}: broken anchor {href}")
    return problems


def check_site(site: Path) -> None:
    """Raise BuildError listing every problem in a built site."""
    problems = verify_site(site)
    if problems:
        raise BuildError("the built site failed its checks:\n" + "\n".join(problems[:50]))

"""The book offline and installable: the service worker and the web app manifest the build writes into an edition.

Families play at cottages and campsites without a network. Every page loads assets/offline.js, which registers the
edition's service worker (``sw.js`` at the edition's root, so its scope is the whole edition). Once a reader opens
any page of the edition with a network, the worker keeps the whole edition on the device: every page, and every file
the pages load as they open (the theme's stylesheets and scripts, the search worker and its index, the project's
scripts, the icon, the manifest and its icons). A PDF is big and most readers never open one: it is kept once opened.
The worker answers from the network when there is one (a corrected edition is seen at once) and from what it kept
when there is none.

The worker's cache is named by the edition and a digest of everything it keeps, so a corrected edition published at
the same address (/latest/, or a rebuilt /2026.2/) is a new worker: it keeps the new files and removes the old copy.
The worker takes what it keeps from the server itself, never from the browser's HTTP cache (GitHub Pages lets a
browser keep a file for 10 minutes: at /latest/, the edition published before), and keeps no page another edition
served: every page names its edition in its head (``EDITION_MARK``, written by ``mark_edition``), which the worker reads.
The worker is written after the pages are built (the MkDocs plugin), as only then are the theme's files (hashed
names) known. The manifest (``manifest.webmanifest``) lets a phone install the site on its home screen, opening at
the edition; every page links it (templates/site/overrides/main.html).
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import posixpath
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ...book.addresses import OFFLINE, opened_at
from ...book.colour import SHADES, shade
from ...book.files import MAX_OUTPUT_BYTES, TOOL_TEMPLATES, read_file, read_file_text
from ..views.markup import environment
from .verify import WORKER, attributes

MANIFEST = "manifest.webmanifest"  # the web app manifest, beside the worker
ICONS = {192: "assets/icons/icon-192.png", 512: "assets/icons/icon-512.png"}  # the sizes a phone installs from
FALLBACK = OFFLINE.url  # the page shown offline for a page never kept (a PDF never opened)
NOT_KEPT = ("404.html",)  # a page the server shows for a missing address (its links are from the site's root)
TAGS = re.compile(r"<(?:script|link)\b[^>]*>", re.I)  # what a page loads: its scripts, stylesheets and icons
LOADS = {"stylesheet", "icon", "shortcut", "manifest", "apple-touch-icon"}  # <link rel> values fetched on load
# What the theme's script loads as a page opens, named in the page's configuration (Material's __config): the
# search worker ("search") and the index it reads (MkDocs' search plugin writes it at search/search_index.json
# under "base"). Without them offline, the search worker fails with an error on the page.
THEME_CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.S)
SEARCH_INDEX = "search/search_index.json"
# The mark of a page's edition, first in its head, read by the service worker (sw.js.j2's MARK) before it keeps a page.
EDITION_MARK = '<meta name="rulebook-edition" content="{}">'
_HEAD = re.compile(r"<head(?:\s[^<>]{0,200})?>", re.I)
# The book's colours, as the site's stylesheet sets them (their one home): the manifest's theme colour and the icon.
STYLESHEET = TOOL_TEMPLATES / "site" / "assets" / "rulebook.css"


def page_loads(rel: str, page_html: str) -> set[str]:
    """The site's own files a built page loads as it opens (scripts, stylesheets, icon), by path in the site."""
    here, found = posixpath.dirname(rel), set()
    for tag in TAGS.findall(page_html):
        attrs = attributes(tag[tag.index(" "):-1] if " " in tag else "")
        if tag[1:].lower().startswith("script"):
            target = attrs.get("src")
        else:
            target = attrs.get("href") if LOADS & set(attrs.get("rel", "").lower().split()) else None
        found |= _own(here, target)
    config = THEME_CONFIG.search(page_html)
    if config:
        named = json.loads(config[1])
        found |= _own(here, named.get("search"))
        if named.get("search") and isinstance(named.get("base"), str):
            found |= _own(here, posixpath.join(named["base"], SEARCH_INDEX))
    return found


def mark_edition(page_html: str, edition: str | None) -> str:
    """``page_html`` with its edition's mark (``EDITION_MARK``) first in its head; as it is for no edition."""
    head = _HEAD.search(page_html)
    if edition is None or head is None:
        return page_html
    mark = EDITION_MARK.format(html.escape(edition, quote=True))
    return page_html[:head.end()] + mark + page_html[head.end():]


def _own(here: str, target: object) -> set[str]:
    """The site's file a page in folder ``here`` names by ``target``, if it names one of the site's own."""
    url = urlsplit(target if isinstance(target, str) else "")
    if url.scheme or url.netloc or not url.path or url.path.startswith("/"):
        return set()
    return {posixpath.normpath(posixpath.join(here, url.path))}


def kept_page(rel: str) -> bool:
    """Whether the worker keeps the built page at ``rel`` (every page of the edition but the server's 404 page)."""
    return rel.endswith(".html") and rel not in NOT_KEPT


def colours(css: str | None = None, accent: str | None = None) -> dict[str, str]:
    """The book's colour (``accent``, book.yaml's; else the site's stylesheet's primary colour) and the colour set on
    it, from the site's stylesheet (its :root)."""
    text = css if css is not None else read_file_text(STYLESHEET)
    root = re.search(r":root\s*\{([^}]*)\}", text)
    found = dict(re.findall(r"--md-(primary-(?:fg|bg)-color)\s*:\s*(#[0-9a-fA-F]{3,8})\s*;", root[1] if root else ""))
    return {"theme": accent or found.get("primary-fg-color", "#000000"),
            "on_theme": found.get("primary-bg-color", "#ffffff")}


# Where the site's stylesheet sets each shade: (its block, the property).
SHADE_PROPERTIES = {"primary": (":root", "--md-primary-fg-color"), "light": (":root", "--md-primary-fg-color--light"),
                    "dark": (":root", "--md-primary-fg-color--dark"), "link": (":root", "--md-typeset-a-color"),
                    "link_on_dark": ('[data-md-color-scheme="slate"]', "--md-typeset-a-color")}


def palette(accent: str, shades: Any = None) -> dict[str, str]:
    """The book's colour and its shades on the site: book.yaml's ``accent`` and ``accent_shades`` (an object with the
    attributes ``SHADES`` names, each None where it is to be worked out)."""
    return {"primary": accent.lower(), **{name: shade(accent, name, getattr(shades, name, None)) for name in SHADES}}


def in_colour(css: str, colours: dict[str, str]) -> str:
    """The site's stylesheet in the book's ``colours`` (``palette``): each colour its blocks set for a shade is replaced
    wherever the stylesheet uses it (the page open in the navigation is in the links' colour)."""
    own = {}
    for name, (block, prop) in SHADE_PROPERTIES.items():
        found = re.search(re.escape(block) + r"\s*\{([^}]*)\}", css)
        value = re.search(rf"(?<![\w-]){re.escape(prop)}\s*:\s*(#[0-9a-fA-F]{{6}})\s*;", found[1]) if found else None
        if value:
            own[value[1].lower()] = colours[name]
    return re.sub(r"#[0-9a-fA-F]{6}\b", lambda m: own.get(m[0].lower(), m[0]), css)


def manifest(name: str, description: str | None = None, accent: str | None = None) -> str:
    """The web app manifest of an edition titled ``name`` (as typed: JSON, not HTML), described by ``description`` (the
    book's, if given), in the book's colour ``accent``: it installs at, and opens, the edition's home page."""
    theme = colours(accent=accent)
    icons = [{"src": path, "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
             for size, path in sorted(ICONS.items()) for purpose in ("any", "maskable")]
    described = {"description": description} if description else {}
    return json.dumps({"name": name, **described, "start_url": "./", "scope": "./", "display": "standalone",
                       "theme_color": theme["theme"], "background_color": theme["on_theme"], "icons": icons},
                      indent=1, ensure_ascii=False) + "\n"


def icon(size: int, accent: str | None = None) -> bytes:
    """The book's icon, ``size`` pixels square, as PNG: a spade in the colour set on the book's colour, small enough to
    stay whole inside the circle a phone may cut a maskable icon to (the same bytes on every build)."""
    from PIL import Image, ImageDraw, ImageFont

    theme = colours(accent=accent)
    fonts = TOOL_TEMPLATES / "print" / "fonts"
    picture = Image.new("RGB", (size, size), theme["theme"])
    draw = ImageDraw.Draw(picture)
    font = ImageFont.truetype(str(fonts / "DejaVuSans.ttf"), round(size * 0.55))
    draw.text((size / 2, size / 2), "\u2660", font=font, fill=theme["on_theme"], anchor="mm")
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue()


def worker_script(edition: str, kept: Iterable[str], version: str) -> str:
    """The edition's service worker: it keeps ``kept`` (addresses relative to the edition's root) when installed,
    in a cache named by ``edition`` and ``version`` (a digest of what it keeps)."""
    template = environment().get_template("site/sw.js.j2")  # values only through |tojson
    return template.render(edition=edition, version=version, precache=sorted(set(kept)), fallback=FALLBACK)


def write_offline(site: Path, edition: str | None, name: str, pages: Iterable[str], loads: Iterable[str],
                  description: str | None = None, accent: str | None = None) -> None:
    """Write into the built ``site`` the manifest, its icons and (for an edition) the service worker, which keeps
    ``pages`` (built pages, by path in the site) and ``loads`` (what they load) that the site has: a file missing
    would make the worker fail to install, and nothing work offline."""
    for size, path in ICONS.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_bytes(icon(size, accent))
    (site / MANIFEST).write_text(manifest(name, description, accent), encoding="utf-8")
    if edition is None:
        return
    files = sorted({rel for rel in pages if kept_page(rel)} | {rel for rel in loads if (site / rel).is_file()}
                   | set(ICONS.values()) | {MANIFEST, OFFLINE.built})
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0" + read_file(site / rel, MAX_OUTPUT_BYTES) + b"\0")
    kept = [opened_at(rel) for rel in files]
    (site / WORKER).write_text(worker_script(edition, kept, digest.hexdigest()[:16]), encoding="utf-8")

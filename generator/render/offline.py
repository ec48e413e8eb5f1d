"""The score keeper offline: the service worker the build writes beside the keeper pages.

A family opens a game's keeper once with a network; at the table without one, a reload must still show the
scores. The keeper pages (keep/<game>/) register ``keep/sw.js`` (assets/keeper.js), whose scope is keep/: it
keeps the pages it answers and the files they load, and answers from them when the network does not. It is
written after the pages are built (the MkDocs plugin), as only then are the theme's files (hashed names) known.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

KEEP = "keep/"  # the folder of the keeper pages (site.keeper_path): the worker's scope
WORKER = KEEP + "sw.js"  # the worker, by path in the site (assets/keeper.js registers it by this path)
FALLBACK = KEEP + "_offline/"  # the page shown offline for a keeper never opened (no game id starts with '_')
FALLBACK_DOC = KEEP + "_offline.md"  # the Markdown file it is built from
TAGS = re.compile(r"<(?:script|link)\b[^>]*>", re.I)  # what a page loads: its scripts, stylesheets and icons
LOADS = {"stylesheet", "icon", "shortcut", "manifest"}  # <link rel> values the browser fetches on load
# What the theme's script loads as a page opens, named in the page's configuration (Material's __config): the
# search worker ("search") and the index it reads (MkDocs' search plugin writes it at search/search_index.json
# under "base"). Without them offline, the search worker fails with an error on the page.
THEME_CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.S)
SEARCH_INDEX = "search/search_index.json"


def page_loads(rel: str, page_html: str) -> set[str]:
    """The site's own files a built page loads as it opens (scripts, stylesheets, icon), by path in the site."""
    from .verify import attributes

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


def _own(here: str, target: object) -> set[str]:
    """The site's file a page in folder ``here`` names by ``target``, if it names one of the site's own."""
    url = urlsplit(target if isinstance(target, str) else "")
    if url.scheme or url.netloc or not url.path:
        return set()
    return {posixpath.normpath(posixpath.join(here, url.path))}


def worker_script(edition: str, loads: Iterable[str]) -> str:
    """The keeper's service worker for ``edition``: it caches ``loads`` (paths in the site) when installed."""
    from .markup import environment  # here: the site check's process imports this module for WORKER alone

    template = environment().get_template("site/keeper-sw.js.j2")  # values only through |tojson
    # Paths as the worker's own folder sees them (it resolves them against its URL, whatever the version folder).
    precache = sorted(posixpath.relpath(path, KEEP.rstrip("/")) for path in set(loads))
    return template.render(edition=edition, precache=precache, fallback=posixpath.relpath(FALLBACK, KEEP) + "/")


def write_worker(site: Path, edition: str, loads: Iterable[str]) -> None:
    """Write the keeper's service worker into the built ``site``: it caches what the keeper pages load that the
    site has (a file that failed to be written would make the worker fail to install, and nothing work offline)."""
    (site / WORKER).write_text(worker_script(edition, [path for path in loads if (site / path).is_file()]),
                               encoding="utf-8")

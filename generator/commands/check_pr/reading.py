"""A book's site read as a browser shows it, for the released editions' comparison and the open edition's pages
(``render/site/reading.py``): built from each side by the running code, when the two sides make the site otherwise
(``site_made_from``), and never when the change's mkdocs.yml names hooks (its code: ``hooks_named``).

What one side reads is kept in the user's cache (``files.store``: each entry sealed, one that does not prove itself
read again) under a digest of everything its build and its reading read: the code, the templates, the site's
settings, the lock file and Python's version, the edition's sources, the repository its pages link, Playwright's
version and the browser's. The same base, checked against several changes, is built and read once;
inputs that differ in anything are another entry, never the kept one.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import sys
from pathlib import Path

from ...book.files import read_file_text, store, stored, user_cache
from ...book.library import Library
from ...render.site.engine import CONFIG

SITE_MADE_FROM = ("templates", CONFIG)  # what makes a site's pages of their Markdown, beside the code: styles, scripts
PRINT_ONLY = "print"  # the folder of templates/ that only the printed book reads (its styles, fonts, templates)
HOOKS = re.compile(r"^[ \t]*hooks[ \t]*:", re.M)  # mkdocs.yml's Python hooks: code of the book's, run by MkDocs
KEPT = "released-read"  # the folder of the user's cache that keeps each side's site as read


def digest_of(root: Path, names: tuple[str, ...]) -> str:
    """A digest of the files ``names`` under ``root`` (by path and bytes; a link by its target's name)."""
    from ...render.pdf.cache import add_files

    digest = hashlib.sha256()
    add_files(digest, root, names)
    return digest.hexdigest()


def site_made_from(root: Path) -> str:
    """A digest of what a book's site is made with beside its Markdown and the code (``SITE_MADE_FROM``), the
    templates that only the printed book reads aside (a print font or style changes no page of the site)."""
    top = root / SITE_MADE_FROM[0]
    names = [f"{SITE_MADE_FROM[0]}/{p.name}" for p in sorted(top.iterdir()) if p.name != PRINT_ONLY] \
        if top.is_dir() and not top.is_symlink() else [SITE_MADE_FROM[0]]
    return digest_of(root, (*names, *SITE_MADE_FROM[1:]))


def hooks_named(root: Path) -> bool:
    """Whether the book's mkdocs.yml names hooks: Python of the book's own, which MkDocs runs as it builds."""
    config = root / CONFIG
    return config.is_file() and not config.is_symlink() and bool(HOOKS.search(read_file_text(config)))


@functools.cache
def _made_with() -> hashlib._Hash:
    """A digest of what every side's reading reads besides its book: the tool's code, templates and lock file, Python's,
    Playwright's and the browser's versions (worked out once a process: none of them changes while a check runs)."""
    from importlib.metadata import version

    from ...render.pdf.cache import CODE, CODE_FILES, add_files
    from ...render.site.pictures import CHROMIUM

    browser = Path(CHROMIUM)
    seen = f"{browser.stat().st_size} {browser.stat().st_mtime_ns}" if browser.is_file() else "playwright's own"
    digest = hashlib.sha256("\0".join(("released read", sys.version, version("playwright"), seen)).encode())
    add_files(digest, CODE, CODE_FILES)
    return digest


def _read_from(lib: Library) -> Path:
    """Where the user's cache keeps ``lib``'s edition's site as read: named by a digest of all its reading reads (the
    book's settings, templates and sources, the repository its pages link, and ``_made_with``)."""
    from ...render.pdf.cache import add_files
    from ...render.site.repository import repository

    digest = _made_with().copy()
    digest.update(f"\0{lib.edition.id}\0{repository(lib.root)}\0".encode())
    add_files(digest, lib.root, (CONFIG, "templates", "rules_data", "content"))
    return user_cache() / KEPT / f"{digest.hexdigest()}.json"


def _kept(path: Path) -> dict[str, str] | None:
    """A side's site as read, kept at ``path`` (None: not kept, or not as it was stored)."""
    body = stored(path)
    try:
        pages = json.loads(body) if body is not None else None
    except ValueError:
        return None
    ok = isinstance(pages, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in pages.items())
    return pages if ok else None


def sites_read(old: Library, new: Library, out: Path) -> tuple[dict[str, str], dict[str, str]] | None:
    """Every page of the site of ``old`` and of ``new`` (their editions, from their roots) as a browser shows it
    (``render/site/reading.py``), each side built by the running code into ``out`` unless the user's cache keeps it
    read from the same inputs; None when both sides make the site alike (the same templates, styles, scripts and
    settings: their Markdown pages, compared already, say it all)."""
    from ...render.site.engine import render_site
    from ...render.site.pictures import need_playwright
    from ...render.site.reading import pages_read

    if site_made_from(old.root) == site_made_from(new.root):
        return None
    need_playwright()  # (before two sites are built for nothing; and a kept reading is no reason to pass without it)
    places = [_read_from(old), _read_from(new)]
    read = [_kept(place) for place in places]
    todo = [n for n, side in enumerate(read) if side is None]
    sites = []
    for n in todo:
        side = ("base", "change")[n]
        (out / f"{side}-staging").mkdir(parents=True)
        render_site((old, new)[n], out / side, out / f"{side}-staging", None)
        sites.append(out / side)
    for n, pages in zip(todo, pages_read(sites) if sites else [], strict=True):
        read[n] = pages
        store(places[n], json.dumps(pages, sort_keys=True, ensure_ascii=False))
    return read[0] or {}, read[1] or {}  # (each read now, or kept)

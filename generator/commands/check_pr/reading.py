"""A book's site read as a browser shows it, for the released editions' comparison and the open edition's pages
(``render/site/reading.py``): built from each side by the running code, when the two sides make the site otherwise
(``site_made_from``), and never when the change's mkdocs.yml names hooks (its code: ``hooks_named``).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from ...book.files import read_file_text
from ...book.library import Library
from ...render.site.engine import CONFIG

SITE_MADE_FROM = ("templates", CONFIG)  # what makes a site's pages of their Markdown, beside the code: styles, scripts
PRINT_ONLY = "print"  # the folder of templates/ that only the printed book reads (its styles, fonts, templates)
HOOKS = re.compile(r"^[ \t]*hooks[ \t]*:", re.M)  # mkdocs.yml's Python hooks: code of the book's, run by MkDocs


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


def sites_read(old: Library, new: Library, out: Path) -> tuple[dict[str, str], dict[str, str]] | None:
    """Every page of the site of ``old`` and of ``new`` (their editions, from their roots) as a browser shows it
    (``render/site/reading.py``), both built by the running code into ``out``; None when both sides make the site
    alike (the same templates, styles, scripts and settings: their Markdown pages, compared already, say it all)."""
    from ...render.site.engine import render_site
    from ...render.site.pictures import need_playwright
    from ...render.site.reading import pages_read

    if site_made_from(old.root) == site_made_from(new.root):
        return None
    need_playwright()  # (before two sites are built for nothing)
    sites = []
    for side, lib in (("base", old), ("change", new)):
        (out / f"{side}-staging").mkdir(parents=True)
        render_site(lib, out / side, out / f"{side}-staging", None)
        sites.append(out / side)
    before, after = pages_read(sites)
    return before, after

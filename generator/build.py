"""The build: validate, render into a staging folder, check the result, then swap it in.

A failed build (bad data, a refused resource, a broken link, a crash, a kill) leaves the last
good ``build/site`` and ``build/pdf`` exactly as they were: nothing is written in place.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from pathlib import Path

from .checks import run_checks
from .errors import BuildError
from .library import Library, load_library

log = logging.getLogger("rulebook")


def default_out(root: Path, lib: Library) -> Path:
    """build/ for the current edition, build/editions/<id>/ for the others."""
    return root / "build" if lib.is_current else root / "build" / "editions" / lib.edition.id


def render_pdfs(lib: Library, pdf_dir: Path, paper: str = "letter", duplex: bool = False) -> dict[str, int]:
    """The book PDF and one score-sheet PDF per game into ``pdf_dir``; return the book's anchors."""
    from .render.pdf import game_pages, render_book, render_sheet
    from .render.site import pdf_name

    (pdf_dir / "score-sheets").mkdir(parents=True, exist_ok=True)
    anchors = render_book(lib, pdf_dir / pdf_name(lib), paper=paper, duplex=duplex)
    for page in game_pages(lib):
        render_sheet(lib, page, pdf_dir / "score-sheets" / f"{page.id}.pdf", paper=paper)
    return anchors


def render_site(lib: Library, site_dir: Path, staging: Path, downloads: Path | None,
                book_pages: dict[str, int] | None = None) -> None:
    """Build the MkDocs site (strict) for the library's edition into ``site_dir``."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    from .render.verify import check_site

    config = load_config(config_file=str(lib.root / "mkdocs.yml"), site_dir=str(site_dir), strict=True)
    plugin = config.plugins["rulebook"]
    plugin.config.edition = lib.edition.id
    plugin.config.generated = str(staging / "generated")
    plugin.config.downloads = str(downloads) if downloads else None
    if book_pages is not None:
        pages_file = staging / "book-pages.json"
        pages_file.write_text(json.dumps(book_pages, sort_keys=True), encoding="utf-8")
        plugin.config.pages = str(pages_file)
    try:
        mkdocs_build(config)
    except (MkDocsException, SystemExit) as exc:
        raise BuildError(f"mkdocs build failed: {exc}") from exc
    check_site(site_dir)


def _swap(staged: Path, final: Path) -> None:
    """Replace ``final`` with ``staged`` (same file system, so each rename is atomic)."""
    old = final.with_name(f".old-{final.name}-{os.getpid()}")
    if final.exists():
        final.rename(old)
    staged.rename(final)
    if old.exists():
        shutil.rmtree(old)


def build(root: Path, edition_id: str | None = None, out: Path | None = None, site: bool = True,
          pdf: bool = True, paper: str = "letter", duplex: bool = False) -> Path:
    """Validate and build one edition; return the output folder."""
    lib = load_library(root, edition_id)
    if lib.is_current:
        errors = [f for f in run_checks(lib) if f.severity == "error"]
        if errors:
            listing = "\n".join(f"{f.path}:{f.line}: {f.check}: {f.message}" for f in errors)
            raise BuildError(f"validation failed; nothing was built:\n{listing}")
    out = (out or default_out(root, lib)).resolve()
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=out))
    try:
        anchors = render_pdfs(lib, staging / "pdf", paper=paper, duplex=duplex) if pdf else None
        if site:
            render_site(lib, staging / "site", staging, staging / "pdf" if pdf else None, anchors)
        if pdf:
            _swap(staging / "pdf", out / "pdf")
        if site:
            _swap(staging / "site", out / "site")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out

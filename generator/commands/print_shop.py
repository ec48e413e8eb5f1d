"""``rulebook print-shop --trim WxH``: the files a print-on-demand service takes, checked as it checks them.

It writes ``interior.pdf`` and ``cover.pdf`` (``render/pdf/printshop.py``) into a folder of their own, default
``build/print-shop/<trim>/``, then runs the preflight (``render/pdf/preflight.py``) on both and prints one line an
item, each a problem as every command prints one (``errors.problem_line``: a passed item after ``ok:``); any item
that fails (an error) makes the command exit 1. docs/printing.md says what a service asks for and what the
command does about each.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ..book.library import Library, load_library
from ..errors import BuildError, OutputError, Problem, RulebookError, os_problem, problem_line

FILES = ("interior.pdf", "cover.pdf")


def default_out(root: Path, lib: Library, trim: str) -> Path:
    """build/print-shop/<trim>/ for the current edition, build/editions/<id>/print-shop/<trim>/ for the others."""
    base = root / "build" if lib.is_current else root / "build" / "editions" / lib.edition.id
    return base / "print-shop" / trim


def make(lib: Library, out: Path, trim: str, stock: str = "white") -> int:
    """Write the interior and the cover into ``out`` (each whole or not at all); return the interior's page count."""
    from ..render.pdf import printshop

    if trim not in printshop.TRIMS:
        raise RulebookError(f"--trim {trim}: choose one of {', '.join(printshop.TRIMS)}")
    if stock not in printshop.PAPER_STOCK:
        raise RulebookError(f"--paper-stock {stock}: choose one of {', '.join(printshop.PAPER_STOCK)}")
    size = printshop.TRIMS[trim]
    try:
        out.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=".print-shop-", dir=out))
    except OSError as exc:
        raise OutputError(f"cannot write the print files: {os_problem(exc, out, lib.root)}") from None
    try:
        pages, _ = printshop.render_interior(lib, scratch / FILES[0], size)
        printshop.render_cover(lib, scratch / FILES[1], size, pages, stock)
        for name in FILES:  # both files made: each replaces the last one whole
            (scratch / name).replace(out / name)
    except OSError as exc:
        raise OutputError(f"the print files were not written: {os_problem(exc, out, lib.root)}") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return pages


def preflight(out: Path, trim: str, stock: str) -> list[Problem]:
    """The preflight of the files in ``out``: each item of each file, passed or an error (``preflight.item``)."""
    from ..render.pdf import preflight as checks
    from ..render.pdf.printshop import TRIMS, page_count

    size = TRIMS[trim]
    interior, cover = out / FILES[0], out / FILES[1]
    pages = page_count(interior)
    return checks.check_interior(interior, size) + checks.check_cover(cover, size, pages, stock)


def run(root: Path, trim: str, edition: str | None = None, stock: str = "white", out: Path | None = None) -> int:
    """``rulebook print-shop``: write the files, print the preflight, exit 1 if any item failed."""
    lib = load_library(root, edition)
    if lib.is_current:  # as a build: a book with errors is not printed (an earlier edition is printed as published)
        from ..checks import run_checks

        errors = [f for f in run_checks(lib) if f.severity == "error"]
        if errors:
            listing = "\n".join(problem_line(f) for f in errors)
            raise BuildError(f"validation failed; nothing was written:\n{listing}")
    out = (out or default_out(root, lib, trim)).resolve()
    pages = make(lib, out, trim, stock)
    print(f"wrote {out / FILES[0]} ({pages} pages) and {out / FILES[1]}")
    items = preflight(out, trim, stock)
    failed = [item for item in items if item.severity == "error"]
    for item in items:
        print(problem_line(item))
    print(f"preflight: {len(failed)} of {len(items)} items failed" if failed
          else f"preflight: all {len(items)} items pass")
    return 1 if failed else 0

"""``rulebook print-shop --service S --trim WxH``: the files a print-on-demand service takes, checked as it checks them.

It writes ``interior.pdf`` and ``cover.pdf`` (``render/pdf/printshop.py``) into a scratch folder beside their own,
default ``build/print-shop/<service>/<trim>/``, runs the preflight (``render/pdf/preflight.py``) on both and prints
one line an item, each a problem as every command prints one (``errors.problem_line``: a passed item after ``ok:``).
Only when every item passes do the two files replace the last ones; any item that fails (an error) leaves the last
good pair where it was and makes the command exit 1. ``--check INTERIOR COVER`` runs the preflight alone, on files
made anywhere. docs/printing.md says what each service asks for and what the command does about each.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

from ..book.library import Library, load_library
from ..book.words import _
from ..errors import BuildError, OutputError, Problem, RulebookError, os_problem, problem_line

FILES = ("interior.pdf", "cover.pdf")


def default_out(root: Path, lib: Library, service: str, trim: str) -> Path:
    """build/print-shop/<service>/<trim>/ for the current edition, build/editions/<id>/print-shop/... for the others."""
    base = root / "build" if lib.is_current else root / "build" / "editions" / lib.edition.id
    return base / "print-shop" / service / trim


def _choices(service: str, trim: str, stock: str) -> tuple:
    """The service, the trim and the paper, or one line naming the one that is not known."""
    from ..render.pdf import printshop

    if service not in printshop.SERVICES:
        raise RulebookError(f"--service {service}: choose one of {', '.join(printshop.SERVICES)}")
    if trim not in printshop.TRIMS:
        raise RulebookError(f"--trim {trim}: choose one of {', '.join(printshop.TRIMS)}")
    if stock not in printshop.STOCKS:
        raise RulebookError(f"--paper-stock {stock}: choose one of {', '.join(printshop.STOCKS)}")
    chosen = printshop.SERVICES[service]
    printshop.spine_width(chosen.least_pages, stock, chosen)  # a service whose spine is not known: refused first
    return chosen, printshop.TRIMS[trim]


def make(lib: Library, folder: Path, trim: str, stock: str = "white", service: str = "kdp", grey: bool = True) -> int:
    """Write the interior (in greys, or in colour) and the cover into ``folder``; return the interior's page count."""
    from ..render.pdf import printshop

    chosen, size = _choices(service, trim, stock)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        pages, _layout = printshop.render_interior(lib, folder / FILES[0], size, chosen, grey)
        printshop.render_cover(lib, folder / FILES[1], size, pages, stock, chosen)
    except OSError as exc:
        raise OutputError(_("the print files were not written: %(problem)s",
                            problem=os_problem(exc, folder, lib.root))) from None
    return pages


def preflight(interior: Path, cover: Path, trim: str, stock: str, service: str, barcode: bool = True,
              grey: bool = True) -> list[Problem]:
    """The preflight of an interior and its cover: each item of each file, passed or an error (``preflight.item``)."""
    from ..render.pdf import preflight as checks

    chosen, size = _choices(service, trim, stock)
    items = checks.check_interior(interior, size, chosen, stock, grey)
    pages = checks.pages_in(interior)
    if pages is None:  # the interior's own item says why it cannot be read
        return items + [Problem(str(cover), 0, "preflight.file", "not checked: the interior's page count, which "
                                "sizes its spine, cannot be read", "error")]
    return items + checks.check_cover(cover, size, pages, stock, chosen, barcode)


def _report(items: list[Problem]) -> int:
    """Print the items, a line each, and the count of those that failed; return the exit status."""
    failed = [item for item in items if item.severity == "error"]
    for item in items:
        print(problem_line(item))
    print(_("preflight: %(failed)s of %(items)s items failed", failed=len(failed), items=len(items)) if failed
          else _("preflight: all %(items)s items pass", items=len(items)))
    return 1 if failed else 0


def check(interior: Path, cover: Path, trim: str, service: str, stock: str = "white", barcode: bool = True,
          grey: bool = True) -> int:
    """``rulebook print-shop --check INTERIOR COVER``: the preflight alone, on files made anywhere."""
    return _report(preflight(interior, cover, trim, stock, service, barcode, grey))


def run(root: Path, trim: str, edition: str | None = None, stock: str = "white", out: Path | None = None,
        service: str = "kdp", barcode: bool = True, grey: bool = True) -> int:
    """``rulebook print-shop``: make the files, print the preflight; replace the last files only if every item
    passed, else exit 1."""
    from ..render.pdf import printshop

    _choices(service, trim, stock)
    lib = load_library(root, edition)
    if lib.is_current:  # as a build: a book with errors is not printed (an earlier edition is printed as published)
        from ..checks import run_checks

        errors = [f for f in run_checks(lib) if f.severity == "error"]
        if errors:
            listing = "\n".join(problem_line(f) for f in errors)
            raise BuildError(_("validation failed; nothing was written:") + f"\n{listing}")
    out = (out or default_out(root, lib, service, trim)).resolve()
    try:
        out.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=".print-shop-", dir=out))
    except OSError as exc:
        raise OutputError(_("cannot write the print files: %(problem)s", problem=os_problem(exc, out, lib.root))) from None
    try:
        pages = make(lib, scratch, trim, stock, service, grey)
        items = preflight(scratch / FILES[0], scratch / FILES[1], trim, stock, service, barcode, grey)
        items = [_moved(item, out) for item in items]
        status = _report(items)
        chosen, size = _choices(service, trim, stock)
        print(_("the cover: %(spine)s", spine=printshop.spine_words(lib, size, pages, stock, chosen)[2]))
        if status:
            print(_("the files failed the preflight: %(folder)s keeps the last files that passed", folder=out))
            return status
        for name in FILES:  # both passed: each replaces the last one whole
            (scratch / name).replace(out / name)
    except OSError as exc:
        raise OutputError(_("the print files were not written: %(problem)s",
                            problem=os_problem(exc, out, lib.root))) from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(_("wrote %(interior)s (%(pages)s pages) and %(cover)s", interior=out / FILES[0], pages=pages,
            cover=out / FILES[1]))
    return 0


def _moved(item: Problem, out: Path) -> Problem:
    """The item as said of the file where it will be, not of the scratch copy it was checked in."""
    return replace(item, path=str(out / Path(item.path).name))

"""A released edition's printed files are the same files: every PDF publish makes of an edition published at the base
(its book, each game's score sheet and the score pad: ``render/pdf/pair.py``'s ``BOOK`` and ``SHEETS``), laid out
from the base's sources, templates, styles and fonts and from the change's, both by the running code, and compared
file by file and page by page, by what each page reads and by what it inks (``render/pdf/prints.py``), and by what
the file says of itself (its title, author, subject and keywords: the book's description among them). Only what a
side's inputs make otherwise is laid out: two sides whose book has the same HTML, print styles and fonts
(``layout_inputs``) lay out the same book, two whose sheets have the same HTML (``sheet_inputs``) the same sheets and
pad; the book first, and the sheets and pad only when it is the same (``printed_changed``); the summary says which
were laid out."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ...book.library import Library
from ...errors import Problem
from ...render.pdf.pair import BOOK, SHEETS, laid_out_exactly, layout_inputs, sheet_inputs
from ...render.pdf.prints import Printed, page_prints

PAGES_SAID = 12  # pages of one edition's printed files named one by one, each in a line; the rest counted in one
# What a PDF says of itself that a reader's viewer shows (its document properties), compared; its dates and producer
# are the build's, not the book's.
SAID_OF_ITSELF = ("Title", "Author", "Subject", "Keywords")


def prints_to_compare(base_root: Path, root: Path, edition: str) -> tuple[str, ...]:
    """Which of ``edition``'s PDFs the two sides make otherwise from their inputs (``BOOK``, ``SHEETS``): only those
    are laid out; equal inputs, laid out by the same code, make the same files."""
    return tuple(what for what, inputs in ((BOOK, layout_inputs), (SHEETS, sheet_inputs))
                 if inputs(base_root, edition) != inputs(root, edition))


def _metadata(pdf: Path) -> dict[str, str]:
    """What ``pdf`` says of itself (``SAID_OF_ITSELF``), as a viewer's document properties show it."""
    import pypdfium2 as pdfium

    from ...book.files import MAX_OUTPUT_BYTES, read_file

    document = pdfium.PdfDocument(read_file(pdf, MAX_OUTPUT_BYTES))
    try:
        said = document.get_metadata_dict(skip_empty=True)
    finally:
        document.close()
    return {key: said[key] for key in SAID_OF_ITSELF if key in said}


def _file_name(edition: str, rel: str) -> str:
    """How an error names one of the edition's PDFs: the book, a score sheet or the score pad, by its file name."""
    from ...render.views.sheets import score_pad_name

    name = Path(rel).name
    if rel.startswith("score-sheets/"):
        return f"its score sheet {name}"
    return f"its score pad {name}" if name == score_pad_name(edition) else f"its printed book {name}"


def printed_changed(base_root: Path, new: Library, edition: str, games: int, out: Path,
                    first_change: Callable[[str, str], str]) -> tuple[list[Problem], tuple[str, ...], tuple[str, ...]]:
    """An error for each page of each PDF of ``edition`` that reads or inks otherwise from the change's sources,
    templates, styles and fonts than from the base's (at most ``PAGES_SAID`` a file named, the rest counted in one
    more), for each file one side makes and the other does not, and for what a file says of itself that differs;
    which of its PDFs were laid out to tell, and which were not though their inputs differ: the book is laid out
    first, and when it differs the edition has failed already, each page named, so its sheets and pad (as costly
    again) are laid out only when its book is the same, where nothing else would tell."""
    prints = prints_to_compare(base_root, new.root, edition)
    found: list[Problem] = []
    laid_out = []
    for what in prints:
        if found:
            break
        before_dir, after_dir = laid_out_exactly(base_root, new.root, edition, games, out / what, (what,))
        laid_out.append(what)
        found += _files_changed(edition, new, before_dir, after_dir, first_change)
    return found, tuple(laid_out), tuple(what for what in prints if what not in laid_out)


def _files_changed(edition: str, new: Library, before_dir: Path, after_dir: Path,
                   first_change: Callable[[str, str], str]) -> list[Problem]:
    """The errors of ``printed_changed`` for the PDFs in two folders, one a side, compared by name."""
    files = sorted({p.relative_to(side).as_posix() for side in (before_dir, after_dir) for p in side.rglob("*.pdf")})
    found = []
    for rel in files:
        was_file, now_file = before_dir / rel, after_dir / rel
        what = _file_name(edition, rel)
        if not was_file.is_file() or not now_file.is_file():
            found.append(_error(edition, new, f"{what} ({'new' if not was_file.is_file() else 'gone'}): its readers "
                                              "got the edition's files as publish made them"))
            continue
        said_was, said_now = _metadata(was_file), _metadata(now_file)
        for key in sorted(set(said_was) | set(said_now)):
            if said_was.get(key) != said_now.get(key):
                found.append(_error(edition, new, (
                    f"{what}, what the file says of itself (its {key}, as a viewer's document properties show it): "
                    f"“{said_was.get(key, '')}” → “{said_now.get(key, '')}”")))
        found += _pages_changed(edition, new, what, page_prints(was_file), page_prints(now_file), first_change)
    return found


def _error(edition: str, new: Library, said: str) -> Problem:
    return Problem("", 0, "released.pdf_changed", (
        f"this change changes what the readers of {edition}, published, read in {said}: a published edition never "
        f"changes; put it back, or make the change in {new.book.current} (an erratum or a decision)"), "error")


def _pages_changed(edition: str, new: Library, what: str, before: list[Printed], after: list[Printed],
                   first_change: Callable[[str, str], str]) -> list[Problem]:
    """The errors of the pages of one file that differ (``printed_changed``)."""
    blank = Printed("", b"", (0, 0))
    differ = [n for n in range(max(len(before), len(after)))
              if (before[n] if n < len(before) else blank) != (after[n] if n < len(after) else blank)]
    found = []
    for n in differ[:PAGES_SAID]:
        was, now = (before[n] if n < len(before) else None), (after[n] if n < len(after) else None)
        state = "new" if was is None else "gone" if now is None else "changed"
        if was is not None and now is not None and was.text == now.text:
            said = ("its words read the same, and the page's ink differs: a font, a style or a picture draws "
                    "other marks than the published book's")
        else:
            said = f"“{first_change(was.text if was else '', now.text if now else '')}”"
        found.append(_error(edition, new, f"{what}: page {n + 1} ({state}): {said}"))
    if len(differ) > PAGES_SAID:
        rest = differ[PAGES_SAID:]
        found.append(Problem("", 0, "released.pdf_changed", (
            f"this change changes {len(rest)} more pages of {what.removeprefix('its ')} of {edition}, published: "
            f"pages {', '.join(str(n + 1) for n in rest[:30])}{', …' if len(rest) > 30 else ''}"), "error"))
    return found

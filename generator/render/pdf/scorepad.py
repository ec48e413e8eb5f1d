"""Stage 4c, score sheets on their own and the score pad: every sheet fillable, one page per part.

Each sheet is laid out, then measured: a part whose cells come out narrower than a pencil needs
(12 mm) is turned to landscape, and a block whose rows the data does not list gets as many blank
hand rows as fit above its total row. Every cell is a PDF form field (WeasyPrint renders the
sheet's ``<input>`` elements as fields), so a sheet can be kept on a tablet as well as on paper.
A sheet with a filled-in sample in its source gets the sample on the page after it. The score
pad is every sheet of the edition in book order, after a contents page, in one PDF.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import accumulate
from pathlib import Path
from typing import Any

from ...book.files import copy_file, read_file_text
from ...book.library import Library
from ...errors import BuildError
from ...progress import Report, quiet
from ..views.pages import BodyView, GamePage
from ..views.sheets import SheetFile, fills_page, generic_sheet, sheet_parts
from .book import _env, names_sheets
from .weasy import Engine, without_cycle_collector

# The first layout of a page-filling sheet has two blank rows: where they start, how far apart they
# are and how much the page holds below them tell how many fit (``rows_that_fit``), so one more
# layout sets the sheet (it used to take a 60-row trial and two more layouts; the same rows result).
TRIAL_ROWS = 2
MIN_CELL_MM = 12  # narrower than this, a score cannot be written in by hand
PX_PER_MM = 96 / 25.4
STYLES = ("", "tight")  # a listed sheet that does not fit one page is set with shorter rows


@dataclass
class SheetRender:
    """One sheet laid out: its documents (blank pages, then any sample) and what the layout chose."""

    file: SheetFile
    documents: list[Any]
    rows: int  # blank hand rows of a page-filling block (0 if the data lists every row)
    landscape: tuple[bool, ...]  # per part
    pages: int = 0  # how many pages it printed (the score pad lets its documents go once they are written)
    blank_rows: int | None = None  # what its blank pages were laid out with (sheet_html): the layout chosen
    style: str = ""

    def __post_init__(self) -> None:
        self.pages = self.pages or sum(len(d.pages) for d in self.documents)

    @property
    def chosen(self) -> dict:
        """What its layout chose, as kept beside its PDF (``lay_out_as_before``)."""
        return {"blank_rows": self.blank_rows, "landscape": list(self.landscape), "style": self.style,
                "rows": self.rows, "pages": self.pages}


def sheet_view(page: GamePage, variant_id: str | None) -> tuple[str, BodyView]:
    """The heading and view a sheet is printed from; a game without a sheet of its own gets a generic one."""
    view, heading = page.main, page.heading()
    if variant_id is not None:
        variant, view = next((v, bv) for v, bv in page.variants if v.id == variant_id)
        heading = f"{page.heading()} – {variant.title}"
    if view.body.score_sheet is None:
        sheet = generic_sheet(heading, view.body)
        view = replace(view, body=view.body.model_copy(update={"score_sheet": sheet}))
    return heading, view


def sheet_html(lib: Library, file: SheetFile, heading: str, view: BodyView, blank_rows: int | None,
               landscape: tuple[bool, ...], style: str = "") -> str:
    """The blank pages of one sheet (one per part) as a printable, fillable HTML document."""
    parts = sheet_parts(view)
    return _env(lib).get_template("print/sheet.html.j2").render(
        heading=heading, view=view, blank_rows=blank_rows, parts=list(zip(parts, landscape, strict=True)),
        key=file.key, style=style, samples=False, number=file.number)


def samples_html(lib: Library, heading: str, view: BodyView, number: int) -> str | None:
    """The page of filled-in samples, if the sheet's source has one (``number``: the sheet's in the pad)."""
    if not any(b.sample for b in view.body.score_sheet.blocks):
        return None
    return _env(lib).get_template("print/sheet.html.j2").render(
        heading=heading, view=view, blank_rows=None, parts=[], key="", style="", samples=True, number=number)


def _boxes(box: Any, part: int | None = None) -> Iterator[tuple[Any, int | None]]:
    """Every box under ``box`` with the sheet part (``data-part``) it is in."""
    element = getattr(box, "element", None)
    if element is not None and element.get("data-part") is not None and getattr(box, "element_tag", "") == "section":
        part = int(element.get("data-part"))
    yield box, part
    for child in getattr(box, "children", ()):
        yield from _boxes(child, part)


def narrow_parts(document: Any) -> set[int]:
    """The parts with a form field narrower than MIN_CELL_MM (the field is the input's content box)."""
    narrow = set()
    for page in document.pages:
        for box, part in _boxes(page._page_box):
            is_input = getattr(box, "is_input", None)
            if is_input is not None and is_input() and box.width < MIN_CELL_MM * PX_PER_MM:
                narrow.add(part or 0)
    return narrow


def _fill_rows(page: Any) -> list[Any]:
    """The laid-out blank hand rows (``fill-row``) of a page, top to bottom."""
    from weasyprint.formatting_structure import boxes

    return [box for box, _ in _boxes(page._page_box) if isinstance(box, boxes.TableRowBox)
            and "fill-row" in ((getattr(box, "element", None) is not None and box.element.get("class")) or "").split()]


def rows_that_fit(document: Any) -> int:
    """How many blank hand rows of a page-filling block fit on the first page, worked out from a layout
    with TRIAL_ROWS of them: the page's room below the first row, less what follows the last one
    (the total row, later blocks, the footer), in whole rows. ``render_sheet_documents`` confirms it."""
    from .weasy import content_bottom, lowest_content

    page = document.pages[0]
    rows = _fill_rows(page)
    if len(rows) < 2:  # not even the trial rows fit under what comes before them
        return 0
    pitch = rows[1].position_y - rows[0].position_y
    below = lowest_content(page) - (rows[-1].position_y + pitch)  # what follows the last row
    return max(int((content_bottom(page) - rows[0].position_y - below) // pitch), 0)


def render_sheet_documents(lib: Library, page: GamePage, file: SheetFile, engine: Engine) -> SheetRender:
    """Lay out one sheet: orientation from its cell widths, blank rows down to its total row."""
    heading, view = sheet_view(page, file.variant_id)
    parts = sheet_parts(view)
    fills = any(fills_page(view, b) for b in view.body.score_sheet.blocks)
    landscape = tuple(False for _ in parts)
    rows = TRIAL_ROWS if fills else None
    document = engine.document(sheet_html(lib, file, heading, view, rows, landscape))
    narrow = narrow_parts(document)
    if narrow:
        landscape = tuple(i in narrow for i in range(len(parts)))
        document = engine.document(sheet_html(lib, file, heading, view, rows, landscape))
    style = STYLES[0]
    if fills:
        # If even the trial rows push something to another page, try as few as will do.
        rows = rows_that_fit(document) if len(document.pages) <= len(parts) else TRIAL_ROWS - 1
        while True:
            document = engine.document(sheet_html(lib, file, heading, view, rows, landscape))
            if len(document.pages) <= len(parts) or rows == 0:
                break
            rows -= 1
    else:
        for tighter in STYLES[1:]:
            if len(document.pages) <= len(parts):
                break
            style = tighter
            document = engine.document(sheet_html(lib, file, heading, view, rows, landscape, style))
    return SheetRender(file, _with_sample(lib, heading, view, file, engine, document), rows or 0, landscape,
                       blank_rows=rows, style=style)


def _with_sample(lib: Library, heading: str, view: BodyView, file: SheetFile, engine: Engine, blank: Any) -> list[Any]:
    """The sheet's documents: its blank pages, then its page of samples if it has one."""
    sample = samples_html(lib, heading, view, file.number)
    return [blank] if sample is None else [blank, engine.document(sample)]


def lay_out_as_before(lib: Library, page: GamePage, file: SheetFile, engine: Engine, chosen: dict) -> SheetRender:
    """Lay one sheet out once more as a layout before chose (``SheetRender.chosen``): its final layout alone, the
    same pages, without the trials that chose it."""
    heading, view = sheet_view(page, file.variant_id)
    landscape = tuple(chosen["landscape"])
    blank = engine.document(sheet_html(lib, file, heading, view, chosen["blank_rows"], landscape, chosen["style"]))
    result = SheetRender(file, _with_sample(lib, heading, view, file, engine, blank), chosen["rows"], landscape,
                         blank_rows=chosen["blank_rows"], style=chosen["style"])
    if result.pages != chosen["pages"]:
        raise BuildError(f"{file.filename}: laid out again as before, it took {result.pages} pages, not {chosen['pages']}")
    return result


def render_sheet(lib: Library, page: GamePage, target: Path, paper: str = "letter", variant: Any = None,
                 engine: Engine | None = None) -> SheetRender:
    """Write one score sheet PDF (the game's, or a variant's); return how it was laid out."""
    from ..views.sheets import sheet_files

    engine = engine or Engine(paper, lib.root)
    file = next(f for f in sheet_files([page]) if f.variant_id == (variant.id if variant is not None else None))
    with without_cycle_collector():
        result = render_sheet_documents(lib, page, file, engine)
        engine.write(result.documents, target)
    return result


def sheet_digests(lib: Library, pages: list[GamePage], paper: str, start: Any = None) -> tuple[dict[str, str], str]:
    """A digest of everything each score sheet is made from, by its key, and one of the score pad's
    (``render/pdf/cache.py``).

    Each sheet is laid out from its HTML, which the template makes from the sheet's data and a few
    settings the layout chooses (blank rows, orientation, tighter rows). A sheet's digest takes its
    data, its HTML in both orientations and both styles, its sample page, the paper, and the code and
    templates, so that an edit to a game's prose or to any part of a game no sheet prints leaves it
    unchanged, and an edit to one sheet changes that sheet's alone. The pad's takes every sheet's
    and the book's and the edition's data, which its contents page prints. With ``start`` (a hashlib digest), each is
    started from it instead of the code and templates (two books' sheets compared, laid out by the same code).
    """
    from ..views.sheets import sheet_files
    from .cache import new_digest

    # The code's files are read once, not once a sheet
    base = start.copy() if start is not None else new_digest("score sheet", paper, book=lib.root)
    pad = base.copy()
    pad.update(f"\0score pad\0{lib.edition.model_dump_json()}\0{lib.book.model_dump_json()}".encode())
    by_id, digests = {p.id: p for p in pages}, {}
    for file in sheet_files(pages):
        heading, view = sheet_view(by_id[file.game_id], file.variant_id)
        parts = len(sheet_parts(view))
        digest = base.copy()
        digest.update(f"\0{file!r}\0{heading}\0{view.body.model_dump_json()}\0{view.prefix}".encode())
        for landscape, style in ((False, ""), (True, ""), (False, STYLES[-1])):
            digest.update(sheet_html(lib, file, heading, view, TRIAL_ROWS, (landscape,) * parts, style).encode())
        digest.update((samples_html(lib, heading, view, file.number) or "").encode())
        digests[file.key] = digest.hexdigest()[:32]
        pad.update(f"\0{file.filename}\0{digests[file.key]}".encode())
    return digests, pad.hexdigest()[:32]


@dataclass
class SheetKeeper:
    """Where score sheets are kept one by one (``render/pdf/cache.py``): each sheet's PDF and what its layout chose,
    under its digest, and the score pad under a digest of all of them. A build keeps its own beside it (``evict``:
    only the entries of its last render of each edition and paper stay)."""

    folder: Path
    edition: str
    paper: str
    evict: bool = True
    staging: Path | None = None  # where an entry is made before it is renamed into place (the build's own)

    def name(self, kind: str, digest: str) -> str:
        return f"{kind}-{self.edition}-{self.paper}-{digest}"

    def get(self, name: str) -> Path | None:
        """The entry, if it is kept (renamed into place whole) and proves itself (``cache.proven``: one damaged or
        edited is made again)."""
        from .cache import proven

        entry = self.folder / name
        return entry if entry.is_dir() and proven(entry) else None

    def put(self, name: str, files: list[Path], chosen: dict | None = None) -> None:
        """Keep copies of ``files`` (and what the layout chose) as the entry ``name``."""
        import json

        from .cache import kept

        def make(staged: Path) -> None:
            for path in files:
                copy_file(path, staged / path.name)
            if chosen is not None:
                (staged / "layout.json").write_text(json.dumps(chosen, sort_keys=True), encoding="utf-8")

        kept(self.folder, name, make, staging=self.staging)

    def keep_only(self, names: set[str]) -> None:
        """With ``evict``, remove this edition's and paper's other entries (an older set of whole sheets too)."""
        import shutil

        if not self.evict or not self.folder.is_dir():
            return
        ours = tuple(f"{kind}-{self.edition}-{self.paper}-" for kind in ("sheet", "pad", "sheets"))
        for entry in self.folder.iterdir():
            if entry.name.startswith(ours) and entry.name not in names:
                shutil.rmtree(entry, ignore_errors=True)


SHEETS = "score sheets"  # the stage the score pad reports (progress.py)


def render_score_pad(lib: Library, pages: list[GamePage], out_dir: Path, engine: Engine,
                     keeper: SheetKeeper | None = None, progress: Report = quiet) -> list[SheetRender]:
    """Write every sheet on its own into ``out_dir/score-sheets`` and all of them, after a contents
    page, into the score pad; return how each was laid out.

    Each sheet is written to its own file and to the score pad as soon as it is laid out, and let go
    (``writer.py``); the contents, which lists the page each sheet starts on, is laid out last and
    put first. Sheets print no page numbers, so their pages do not depend on the contents' length.

    With ``keeper``, a sheet whose digest is kept is copied, and laid out only for the score pad, once, as
    its layout chose before; the pad, if it is kept, is copied and no sheet kept is laid out at all.
    ``progress`` is told each sheet as it is done, of how many (``progress.py``)."""
    import json

    from ..views.sheets import score_pad_name, sheet_files
    from .writer import PdfWriter

    by_id = {p.id: p for p in pages}
    results: list[SheetRender] = []
    digests, pad_digest = sheet_digests(lib, pages, engine.paper) if keeper else ({}, "")
    kept_pad = keeper.get(keeper.name("pad", pad_digest)) if keeper else None
    names = {keeper.name("pad", pad_digest)} if keeper else set()
    pad = None if kept_pad else PdfWriter(engine.fonts)
    template = _env(lib).get_template("print/score-pad.html.j2")
    files = sheet_files(pages)
    progress(SHEETS, 0, len(files))
    with without_cycle_collector():
        for file in files:
            target = out_dir / "score-sheets" / file.filename
            name = keeper.name("sheet", digests[file.key]) if keeper else ""
            names.add(name)
            entry = keeper.get(name) if keeper else None
            chosen = json.loads(read_file_text(entry / "layout.json")) if entry else None
            if entry and pad is None:  # copied, and the pad too: nothing to lay out
                copy_file(entry / file.filename, target)
                results.append(SheetRender(file, [], chosen["rows"], tuple(chosen["landscape"]), chosen["pages"],
                                           chosen["blank_rows"], chosen["style"]))
                progress(SHEETS, len(results), len(files))
                continue
            if entry:
                result = lay_out_as_before(lib, by_id[file.game_id], file, engine, chosen)
                copy_file(entry / file.filename, target)
            else:
                result = render_sheet_documents(lib, by_id[file.game_id], file, engine)
                engine.write(result.documents, target)
                if keeper:
                    keeper.put(name, [target], result.chosen)
            if pad is not None:
                for document in result.documents:
                    for page in document.pages:
                        pad.add(page)
            results.append(SheetRender(result.file, [], result.rows, result.landscape, result.pages,
                                       result.blank_rows, result.style))
            progress(SHEETS, len(results), len(files))
        target = out_dir / score_pad_name(lib.edition.id)
        if pad is None:
            copy_file(kept_pad / target.name, target)
        else:
            length = 1  # the contents' pages: each sheet's page number counts them
            for _ in range(4):
                # each sheet's first page (a book with no game yet has none)
                starts = list(accumulate([length + 1] + [r.pages for r in results]))[:len(results)]
                contents = engine.document(template.render(sheets=list(zip([r.file for r in results], starts,
                                                                           strict=True)), named=names_sheets(lib)))
                if len(contents.pages) == length:
                    break
                length = len(contents.pages)
            else:
                raise BuildError("the score pad's contents did not settle on a length")
            for page in contents.pages:
                pad.add(page, first=True)
            pad.write(target, contents.metadata)
            if keeper:
                keeper.put(keeper.name("pad", pad_digest), [target])
    if keeper:
        keeper.keep_only(names)
    progress(SHEETS, len(results), len(files), final=True)
    return results

"""Stage 4b, the print book: Jinja to HTML, WeasyPrint to PDF, one layout pass for page numbers.

The book is cut into parts that each start on a new page: the cover and contents, each front prose
page, each section (its title, its games run on one after another as in the published book, and the
prose pages that follow it), and the index with the errata. Each part is laid out on its own, starting at the page number the parts before it reached, and the
pages are written together as one PDF. The contents and index are laid out with placeholders
first, then again with the real numbers; only those two small parts are laid out twice (unless
a page number grows so much that the contents needs another page). Nothing is typed by hand.

Copy-fitting: a game's heading, its floated summary box and its first line stay on one page by CSS
(``break-after: avoid``, ``break-inside: avoid``, which weasy.py makes WeasyPrint honour for floats);
a game they would still part starts a page instead. A part whose last page would be less than a
quarter full has its last pages set again with tighter leading until it takes a page less
(``copyfit.py``), or, failing that, the whole part (``Layout._fitted``).

The book prints the score sheets its prose places only where the published book printed them
(``book_prints_sheet``); every game's sheet is also its own PDF, with as many blank rows as fit.

Every sheet is also printed on its own and in the score pad (``scorepad.py``); each game's page
names its sheets there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from markupsafe import escape

from ..errors import BuildError
from ..library import Library
from ..model import ScoreSheet, SheetBlock
from ..prose import expand, format_value
from . import copyfit, describe
from .markup import Markup, demote_headings, environment, prose_html
from .pages import BodyView, GamePage, game_page
from .sheets import SheetFile, score_pad_name, sheet_files, template_globals
from .weasy import Engine, page_fill, without_cycle_collector

# Copy-fitting: a part whose last page would be less than a quarter full is set again tighter, one
# step at a time, until that page is gone; the type size never changes. Each step is a leading and a
# table-cell padding (mm) below print.css's own (1.25 and 0.5-1 mm), the last still easy to read.
SPARSE = 0.25
FIT_STEPS = ((1.22, 0.6), (1.19, 0.45), (1.16, 0.3))
BASE_LEADING = 1.25  # print.css's html line-height
TAIL_MARGINS = (1.5, 3.0)  # how much more text a tail holds than its leading must save, first try and second
MAX_REBALANCE = 3  # rounds of page breaks put before games whose opening would be split
MAX_LAYOUTS = 4  # placeholders, real numbers, and two more in case the contents grows a page
FILLER = Markup('<div class="verso-filler" aria-hidden="true"></div>')


def _md(text: str, levels: int = 1) -> Any:
    return prose_html(demote_headings(text, levels))


FIRST_TEXT = re.compile(r"<(?:p|li|h[1-6]|caption|th|td)(?:\s[^>]*)?>")


def mark_opening(html: str, opening: str) -> Markup:
    """``html`` with an anchor ``opened-<opening>`` in its first element that holds text: where the
    reader starts reading a game or variant, below its heading and summary box."""
    text = str(html)  # already-escaped template output: plain text here, so the anchor is not escaped
    found = FIRST_TEXT.search(text)
    at = found.end() if found else 0
    return Markup(f'{text[:at]}<span class="opened" id="opened-{escape(opening)}"></span>{text[at:]}')  # noqa: S704


def _env(lib: Library):
    return environment(fmt=format_value, opened=mark_opening, **template_globals(), describe=describe,
                       book=lib.book, edition=lib.edition, md=_md)


def generic_sheet(heading: str, body: Any) -> ScoreSheet:
    """A score sheet for a game that has none of its own: one column per player, a row per round."""
    rounds = body.rounds
    listed = bool(rounds and (rounds.items or rounds.ranks))
    counted = body.goal.rounds if body.goal and body.goal.rounds and not listed else None
    block = SheetBlock(title=None, player_columns=True, rows_from="rounds" if listed else None,
                       rows=[f"Round {i}" for i in range(1, counted + 1)] if counted else [], total="Total")
    return ScoreSheet(title=f"{heading} score sheet", fields=["Date"], blocks=[block])


def book_prints_sheet(lib: Library, page: GamePage, view: BodyView) -> bool:
    """Whether the book prints the score sheet the prose places: a worked example always, a blank sheet
    only for a game of the first edition (the published book printed those); the rest are in the score pad."""
    sheet = view.body.score_sheet
    if sheet is None:
        return False
    return any(block.sample for block in sheet.blocks) or page.game.introduced == lib.book.editions[0].id


@dataclass(frozen=True)
class Part:
    """A run of the book that starts on a new page and is laid out on its own."""

    body: str  # an HTML fragment for <body>
    recto: bool = False  # printed two-sided, it starts on a right-hand (odd) page


class BookParts:
    """The book's parts in order. Only the contents and the index depend on page numbers, so the
    other parts are made once, however many times the numbers are laid out."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib
        self.templates = _env(lib).get_template("print/book.html.j2").module
        self.games = [game_page(lib, gs, book=True) for gs in lib.ordered_games()]
        self.by_section = {s.id: [p for p in self.games if p.id in s.games] for s in lib.book.sections}
        self.front_pages = [p for p in lib.book.pages if p.after is None]
        self.after_pages = {s.id: [p for p in lib.book.pages if p.after == s.id] for s in lib.book.sections}
        self.errata = [e for e in lib.errata if lib.in_edition(e.edition)]
        self.pad = score_pad_name(lib.edition.id)
        self.sheets: dict[str, list[SheetFile]] = {}  # each game's sheets in the score pad, named on its page
        for sheet in sheet_files(self.games):
            self.sheets.setdefault(sheet.game_id, []).append(sheet)
        self.middle = self._middle()

    def _prose_html(self, p: Any) -> Any:
        return _md(expand(self.lib.pages[p.id].text, self.lib.scope()))

    def _prose(self, p: Any, level: int) -> Part:
        return Part(self.templates.prose_page(p, self._prose_html(p), level), recto=True)

    def _middle(self) -> list[Part]:
        t, out = self.templates, [self._prose(p, 1) for p in self.front_pages]
        for section in self.lib.book.sections:
            prints = partial(book_prints_sheet, self.lib)
            after = [(p, self._prose_html(p)) for p in self.after_pages[section.id]]
            out.append(Part(t.section(section, self.by_section[section.id], prints, after, self.sheets, self.pad),
                            recto=True))
        return out

    def numbered(self, pages: dict[str, int] | None) -> list[Part]:
        """Every part, with ``pages`` printed in the contents and the index (placeholders if None)."""
        t, pages = self.templates, pages or {}

        def page_range(game_id: str) -> str:
            # Before the first layout, a placeholder about as wide as a real number.
            return describe.page_range(pages, game_id, unknown="00")

        def index_rows(section_id: str) -> list[GamePage]:
            return sorted(self.by_section[section_id], key=lambda p: p.heading().lower())

        sections, printed = self.lib.book.sections, self.lib.index_rows()
        note = describe.printed_index_note(self.lib)
        front = t.front(self.games, sections, self.by_section, self.front_pages, self.after_pages, self.errata, pages,
                        page_range, note)
        # The errata run on after the index: one part, so that neither ends on a page of its own.
        end = t.index(sections, index_rows, page_range, printed) + (
            t.errata_page(self.errata, note) if self.errata or note else "")
        return [Part(front), *self.middle, Part(end, recto=True)]


def document_maker(lib: Library, duplex: bool) -> Callable[[str], str]:
    """A function that puts a body fragment into the book's HTML document (head, edition, paper)."""
    template = _env(lib).get_template("print/document.html.j2")
    return lambda body: template.render(body=Markup(body), duplex=duplex)  # noqa: S704 - our own templates' output


def book_html(lib: Library, pages: dict[str, int] | None = None, duplex: bool = False) -> str:
    """The whole book as one HTML document (for reading and for the hostile-input tests)."""
    return document_maker(lib, duplex)("\n".join(p.body for p in BookParts(lib).numbered(pages)))


@dataclass
class Layout:
    """Lays out the book's parts, remembering each by its HTML and first page number.

    Within one render, the second layout (with real page numbers) reuses every part that did
    not change. Kept between renders in one process, it re-lays out only the parts a change
    touched, and the parts after them if the change moved their page numbers.
    """

    engine: Engine
    duplex: bool = False
    cache: dict[tuple[str, int], Any] = field(default_factory=dict)
    used: set[tuple[str, int]] = field(default_factory=set)  # keys the current layout of the book used
    pages: dict[str, int] | None = None  # page numbers found last time: the next layout starts from them
    laid_out: int = 0  # parts actually laid out (not taken from the cache), for the benchmark
    fitted: int = 0  # extra layouts tried to fit a part a page shorter, for the benchmark

    def forget_unused(self) -> None:
        """Drop parts the last layout did not use, so that a long preview session does not grow."""
        self.cache = {key: doc for key, doc in self.cache.items() if key in self.used}

    def part(self, make_document: Callable[[str], str], part: Part, first_page: int) -> Any:
        """The laid-out part whose first page is numbered ``first_page``."""
        body = part.body
        if self.duplex and part.recto and first_page % 2 == 0:
            body = FILLER + body  # an empty left-hand page, so that the part opens on the right
        html = make_document(body)
        key = (html, first_page)
        self.used.add(key)
        if key not in self.cache:
            self.cache[key] = self._fitted(html, first_page)
        return self.cache[key]

    def _counter(self, first_page: int) -> Any:
        return self.engine.css(f"@page :first {{ counter-reset: page {first_page}; }}")

    def _fitted(self, html: str, first_page: int) -> Any:
        """The part laid out with no game's opening split across pages and, if its last page would be
        nearly empty, its last pages set tighter until it takes a page less."""
        document = self._unsplit(html, [self._counter(first_page)])
        self.laid_out += 1
        if len(document.pages) < 2 or page_fill(document.pages[-1]) >= SPARSE:
            return document
        fill = page_fill(document.pages[-1])
        # First only the part's last pages are set again (copyfit.py), the shortest tail first.
        for cut, (leading, padding) in copyfit.tail_tries(document, FIT_STEPS, BASE_LEADING, TAIL_MARGINS):
            tail = self._unsplit(html, [self._counter(first_page + cut - 1), self._tighter(leading, padding)],
                                 copyfit.tail_edit(document, cut))
            self.fitted += 1
            if page_fill(tail.pages[0]) or tail.pages[0].anchors:
                raise BuildError(f"copy-fitting: the first page of a part's tail from page {cut + 1} holds text")
            fitted = document.copy(document.pages[:cut] + tail.pages[1:])  # the tail's first page is the strings'
            if len(fitted.pages) < len(document.pages) and not copyfit.split_openings(fitted):
                return fitted
        # No tail saved the page: the whole part, tighter. A step that cannot shorten the text by the
        # last page's worth is skipped: each try lays out the whole part again.
        need = fill / (len(document.pages) - 1 + fill)
        for leading, padding in [step for step in FIT_STEPS if 1 - step[0] / BASE_LEADING >= need] or FIT_STEPS[-1:]:
            # Tighter leading moves every page break, so an opening it splits is kept together again
            # (a page break before that game) before the page count is compared.
            tighter = self._unsplit(html, [self._counter(first_page), self._tighter(leading, padding)])
            self.fitted += 1
            if len(tighter.pages) < len(document.pages) and not copyfit.split_openings(tighter):
                return tighter
        return document  # nothing fits it a page shorter; the sparse-page test names the page

    def _tighter(self, leading: float, padding: float) -> Any:
        return self.engine.css(f"html {{ line-height: {leading}; }} "
                               f"td, th, .glance-table th, .glance-table td, table.data th, table.data td {{ padding-top: {padding}mm; padding-bottom: {padding}mm; }}")

    def _unsplit(self, html: str, sheets: list[Any], edit: Callable[[Any], None] | None = None) -> Any:
        """The part laid out with ``sheets``, a page break put before each game whose heading and
        box would end one page and whose text start the next (a few rounds at most)."""
        sheets = list(sheets)
        document = self.engine.document(html, sheets, edit)
        for _ in range(MAX_REBALANCE):
            split = copyfit.split_openings(document)
            if not split:
                break
            sheets.append(self.engine.css(" ".join(f'[id="{name}"] {{ break-before: page; }}' for name in split)))
            document = self.engine.document(html, sheets, edit)
            self.fitted += 1
        return document


def paginate(lib: Library, layout: Layout) -> tuple[list[Any], dict[str, int]]:
    """Lay out every part until the page numbers the contents and index print are the real ones."""
    make_document, parts = document_maker(lib, layout.duplex), BookParts(lib)
    pages = layout.pages
    for _ in range(MAX_LAYOUTS):
        documents, found, next_page = [], {}, 1
        layout.used.clear()
        for part in parts.numbered(pages):
            document = layout.part(make_document, part, next_page)
            for offset, page in enumerate(document.pages):
                for anchor in page.anchors:
                    found.setdefault(anchor, next_page + offset)
            documents.append(document)
            next_page += len(document.pages)
        if found == pages:
            layout.pages = found
            layout.forget_unused()
            return documents, found
        pages = found
    raise BuildError(f"the book's page numbers did not settle after {MAX_LAYOUTS} layouts")


def render_book(lib: Library, target: Path, paper: str = "letter", duplex: bool = False,
                layout: Layout | None = None) -> dict[str, int]:
    """Write the book PDF to ``target``; return the page of every anchor (games, pages, index)."""
    layout = layout or Layout(Engine(paper), duplex)
    with without_cycle_collector():
        documents, pages = paginate(lib, layout)
        layout.engine.write(documents, target)
    return pages


def game_pages(lib: Library) -> list[GamePage]:
    """Every game page of the edition, in book order."""
    return [game_page(lib, gs) for gs in lib.ordered_games()]

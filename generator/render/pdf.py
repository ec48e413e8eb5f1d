"""Stage 4b, the print book: Jinja to HTML, WeasyPrint to PDF, one layout pass for page numbers.

The book is cut into parts that each start on a new page: the cover and contents, each prose
page, each section's title page, each game with its score sheet, the index and the errata. Each
part is laid out on its own, starting at the page number the parts before it reached, and the
pages are written together as one PDF. The contents and index are laid out with placeholders
first, then again with the real numbers; only those two small parts are laid out twice (unless
a page number grows so much that the contents needs another page). Nothing is typed by hand.

Score sheets are printed after their game and, separately, one PDF per game with as many blank
rows as fit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import BuildError
from ..library import Library
from ..model import ScoreSheet, SheetBlock
from ..prose import expand, format_value
from . import describe
from .markup import Markup, demote_headings, environment, prose_html
from .pages import BodyView, GamePage, game_page
from .sheets import sample_cells, sheet_columns, sheet_round, sheet_rows
from .weasy import Engine, without_cycle_collector

TRIAL_ROWS = 60
MAX_LAYOUTS = 4  # placeholders, real numbers, and two more in case the contents grows a page
FILLER = Markup('<div class="verso-filler" aria-hidden="true"></div>')


def _md(text: str, levels: int = 1) -> Any:
    return prose_html(demote_headings(text, levels))


def _env(lib: Library):
    return environment(fmt=format_value, sheet_columns=sheet_columns, sheet_rows=sheet_rows, sheet_round=sheet_round,
                       sample_cells=sample_cells, describe=describe,
                       book=lib.book, edition=lib.edition, md=_md)


def generic_sheet(heading: str, body: Any) -> ScoreSheet:
    """A score sheet for a game that has none of its own: one column per player, a row per round."""
    rounds = body.rounds
    listed = bool(rounds and rounds.items)
    counted = body.goal.rounds if body.goal and body.goal.rounds and not listed else None
    block = SheetBlock(title=None, player_columns=True, rows_from="rounds" if listed else None,
                       rows=[f"Round {i}" for i in range(1, counted + 1)] if counted else [], total="Total")
    return ScoreSheet(title=f"{heading} score sheet", fields=["Date"], blocks=[block])


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
        self.middle = self._middle()

    def _prose(self, p: Any, level: int, section: Any = None) -> Part:
        html = _md(expand(self.lib.pages[p.id].text, self.lib.scope()))
        return Part(self.templates.prose_page(p, html, level, section), recto=True)

    def _middle(self) -> list[Part]:
        t, out = self.templates, [self._prose(p, 1) for p in self.front_pages]
        for section in self.lib.book.sections:
            out.append(Part(t.section_title(section), recto=True))
            out += [Part(t.game(page, section), recto=True) for page in self.by_section[section.id]]
            out += [self._prose(p, 2, section) for p in self.after_pages[section.id]]
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
        end = [Part(t.index(sections, index_rows, page_range, printed), recto=True)]
        if self.errata or note:
            end.append(Part(t.errata_page(self.errata, note), recto=True))
        return [Part(front), *self.middle, *end]


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
            counter = self.engine.css(f"@page :first {{ counter-reset: page {first_page}; }}")
            self.cache[key] = self.engine.document(html, [counter])
            self.laid_out += 1
        return self.cache[key]


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


def sheet_html(lib: Library, heading: str, view: BodyView, blank_rows: int | None) -> str:
    """One score sheet (a game's, or a variant's) as a printable HTML page."""
    env = _env(lib)
    if view.body.score_sheet is None:
        sheet = generic_sheet(heading, view.body)
        view = replace(view, body=view.body.model_copy(update={"score_sheet": sheet}))
    return env.get_template("print/sheet.html.j2").render(heading=heading, view=view, blank_rows=blank_rows)


def render_sheet(lib: Library, page: GamePage, target: Path, paper: str = "letter", variant: Any = None,
                 engine: Engine | None = None) -> int:
    """Write a score sheet PDF (the game's, or a variant's), with as many blank rows as fit; return the rows."""
    engine = engine or Engine(paper)
    view = page.main
    heading = page.heading()
    if variant is not None:
        view = next(v for var, v in page.variants if var.id == variant.id)
        heading = f"{page.heading()} – {variant.title}"
    sheet = view.body.score_sheet
    with without_cycle_collector():
        if sheet is not None and len([b for b in sheet.blocks if not b.sample_only]) > 1:
            document = engine.document(sheet_html(lib, heading, view, None))  # a designed sheet prints as designed
            engine.write([document], target)
            return 0
        # Lay out a sheet with more rows than can fit, see how many landed on page one, then print that many.
        document = engine.document(sheet_html(lib, heading, view, TRIAL_ROWS))
        first = set(document.pages[0].anchors)
        rows = sum(1 for i in range(TRIAL_ROWS) if f"{view.prefix}row-{i}" in first) - 1  # room for the total row
        while True:
            document = engine.document(sheet_html(lib, heading, view, max(rows, 0)))
            if len(document.pages) == 1 or rows <= 0:
                break
            rows -= 1
        engine.write([document], target)
    return rows


def game_pages(lib: Library) -> list[GamePage]:
    """Every game page of the edition, in book order."""
    return [game_page(lib, gs) for gs in lib.ordered_games()]

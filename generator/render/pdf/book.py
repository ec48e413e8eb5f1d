"""Stage 4b, the print book: Jinja to HTML, WeasyPrint to PDF, one layout pass for page numbers.

The book is cut into parts that each start on a new page: the cover and contents, each front prose
page, each section (its title, its games run on one after another as in the published book, and the
prose pages that follow it), and the index with the errata. Each part is laid out on its own,
starting at the page number the parts before it reached, and its pages are written into the PDF as
soon as it is laid out (``writer.py``), so a build holds one part's layout at a time; a section of
more than RUN_HTML characters is laid out a run of games at a time (``Layout.runs``). The contents is laid
out first with placeholders, to know where the parts after it start, and again last with the real
numbers; the index once, with the games' real numbers (``write_book``). Nothing is typed by hand.

Copy-fitting: a game's heading, its floated summary box and its first line stay on one page by CSS
(``break-after: avoid``, ``break-inside: avoid``, which patches.py makes WeasyPrint honour for floats);
a game they would still part starts a page instead. A part whose last page would be less than a
quarter full has its last pages set again with tighter leading until it takes a page less
(``copyfit.py``), or, failing that, the whole part (``Layout._fitted``).

The book prints the score sheets its prose places only where the published book printed them
(``book_prints_sheet``); every game's sheet is also its own PDF, with as many blank rows as fit.

An edition laid out as printed (``pages_as_printed``, 2026.1) is not copy-fitted: ``write_printed_book`` puts its
front matter first and each game on the page its printed index names (``PrintedParts``).

Every sheet is also printed on its own and in the score pad (``scorepad.py``); each game's page
names its sheets there.
"""

from __future__ import annotations

import functools
import gc
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from markupsafe import escape

from ...book import addresses
from ...book import index as book_index
from ...book.library import Library
from ...book.links import book_pages, printed_target
from ...book.prose import expand, format_value
from ...errors import BuildError
from ...progress import Report, quiet
from ..views import describe
from ..views.changes import edition_changes, line_html
from ..views.markup import Markup, demote_headings, environment, print_links, prose_html
from ..views.pages import BodyView, GamePage, game_page
from ..views.sheets import SheetFile, sheet_files, template_globals
from . import booklet, copyfit
from .weasy import BOOKLET_PAGE, Engine, page_fill, without_cycle_collector
from .writer import PdfWriter

# Copy-fitting: a part whose last page would be less than a quarter full is set again tighter, one
# step at a time, until that page is gone; the type size never changes. Each step is a leading and a
# table-cell padding (mm) below print.css's own (1.25 and 0.5-1 mm), the last still easy to read.
SPARSE = 0.25
FIT_STEPS = ((1.22, 0.6), (1.19, 0.45), (1.16, 0.3))
BASE_LEADING = 1.25  # print.css's html line-height
TAIL_MARGINS = (1.5, 3.0)  # how much more text a tail holds than its leading must save, first try and second
MAX_REBALANCE = 3  # rounds of page breaks put before games whose opening would be split
MAX_LAYOUTS = 4  # placeholders, real numbers, and two more in case the contents grows a page
# A section of more HTML than this (characters, about 4,000 a page) is laid out a run of games of about this
# much at a time by a build, so that it holds one run's layout (a 1000-game book's cards section, held whole,
# took 4 GB). The real book's sections are shorter.
RUN_HTML = 250_000
RUN_MARGIN = 2  # pages a run's layout goes past the page the next run starts from
FILLER = '<div class="verso-filler" aria-hidden="true"></div>'  # our own markup: a plain string, never escaped


def _md(text: str, levels: int = 1, here: str | None = None, pages: Callable[[], dict] | None = None) -> Any:
    """Prose as print's HTML; with ``here`` (the site page it is on) its links go where the PDF has their pages."""
    html = prose_html(demote_headings(text, levels))
    if here is None or pages is None or "<a" not in html:
        return html
    return Markup(print_links(str(html), here, lambda target, at: printed_target(target, at, pages())))  # noqa: S704


FIRST_TEXT = re.compile(r"<(?:p|li|h[1-6]|caption|th|td)(?:\s[^>]*)?>")


def mark_opening(html: str, opening: str) -> Markup:
    """``html`` with an anchor ``opened-<opening>`` in its first element that holds text: where the
    reader starts reading a game or variant, below its heading and summary box."""
    text = str(html)  # already-escaped template output: plain text here, so the anchor is not escaped
    found = FIRST_TEXT.search(text)
    at = found.end() if found else 0
    return Markup(f'{text[:at]}<span class="opened" id="opened-{escape(opening)}"></span>{text[at:]}')  # noqa: S704


def _env(lib: Library):
    pages = functools.cache(lambda: book_pages(lib))  # worked out when a link is first printed (most books have none)

    def md(text: str, levels: int = 1, game: str | None = None) -> Any:
        return _md(text, levels, None if game is None else addresses.game(game).doc, pages)

    return environment(lib.root, fmt=format_value, opened=mark_opening, **template_globals(), describe=describe,
                       book=lib.book, edition=lib.edition, md=md, colours=print_colours(lib.book.accent))


# The cover's cream, which its words are printed in on the book's colour; the line of games is that cream at 85 % on
# the colour, as one colour (an opacity is painted as a group that PDF/UA finds outside any marked content).
COVER_CREAM = (0xfd, 0xf8, 0xec)


def print_colours(accent: str) -> Markup:
    """The book's colour as print.css reads it (``var(--accent)``), from book.yaml's ``accent`` ('#rrggbb', checked by
    the model), and the cover's line of games mixed from it: a stylesheet for a page's <head>."""
    rgb = [int(accent[i:i + 2], 16) for i in (1, 3, 5)]
    faded = " ".join(f"{0.85 * c + 0.15 * a:.2f}".rstrip("0").rstrip(".") for c, a in zip(COVER_CREAM, rgb, strict=True))
    return Markup(f":root {{ --accent: {accent.lower()}; --accent-faded: rgb({faded}); }}")  # noqa: S704 - checked


def book_prints_sheet(lib: Library, page: GamePage, view: BodyView) -> bool:
    """Whether the book prints the score sheet the prose places: a worked example always, a blank sheet
    only for a game of the first edition (the published book printed those); the rest are in the score pad."""
    sheet = view.body.score_sheet
    if sheet is None:
        return False
    return any(block.sample for block in sheet.blocks) or page.game.introduced == lib.book.editions[0].id


@dataclass(frozen=True)
class Part:
    """A run of the book that starts on a new page and is laid out on its own.

    A section's body is its start, its pieces (each game, each prose page after it: one element each)
    and its end, so that a long section can be laid out a run of pieces at a time (``Layout.pages``)."""

    body: str  # an HTML fragment for <body>
    recto: bool = False  # printed two-sided, it starts on a right-hand (odd) page
    start: str = ""
    pieces: tuple[str, ...] = ()
    end: str = ""

    @classmethod
    def section(cls, start: str, pieces: list[str], end: str) -> Part:
        """A section: ``start`` (its element's start tag and its title), ``pieces``, ``end``."""
        return cls(start + "".join(pieces) + end, recto=True, start=start, pieces=tuple(pieces), end=end)


class BookParts:
    """The book's parts in order. Only the contents and the index depend on page numbers, so the
    other parts are made once, however many times the numbers are laid out."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib
        self.links = functools.cache(lambda: book_pages(lib))
        self.templates = _env(lib).get_template("print/book.html.j2").module
        self.games = [game_page(lib, gs, book=True) for gs in lib.ordered_games()]
        self.by_section = {s.id: [p for p in self.games if p.id in s.games] for s in lib.book.sections}
        self.front_pages = [p for p in lib.book.pages if p.after is None]
        self.after_pages = {s.id: [p for p in lib.book.pages if p.after == s.id] for s in lib.book.sections}
        self.errata = describe.errata_groups(lib)
        # What changed since the edition before; an edition laid out as printed prints what the family printed.
        self.changes = None if book_index.printed_pages(lib) else edition_changes(lib)
        if self.changes is None:  # nor does a game say what it does not print (its decisions link there)
            for page in self.games:
                page.decisions = []
        self.sheets: dict[str, list[SheetFile]] = {}  # each game's sheets in the score pad, named on its page
        for sheet in sheet_files(self.games):
            self.sheets.setdefault(sheet.game_id, []).append(sheet)
        self.middle = self._middle()

    def _prose_html(self, p: Any, level: int = 2) -> Any:
        """A prose page's text under its title, a heading of ``level``: its '##' one level below the title."""
        return _md(expand(self.lib.pages[p.id].text, self.lib.scope()), level - 1, addresses.page(p.id).doc, self.links)

    def _prose(self, p: Any, level: int) -> Part:
        return Part(self.templates.prose_page(p, self._prose_html(p, level), level), recto=True)

    def _middle(self) -> list[Part]:
        t, out = self.templates, [self._prose(p, 1) for p in self.front_pages]
        prints = partial(book_prints_sheet, self.lib)
        for section in self.lib.book.sections:
            pieces = [str(t.game(page, section, prints, self.sheets.get(page.id, [])))
                      for page in self.by_section[section.id]]
            pieces += [str(t.prose_page(p, self._prose_html(p), 2)) for p in self.after_pages[section.id]]
            out.append(Part.section(str(t.section_start(section)), pieces, str(t.section_end())))
        return out

    def numbered(self, pages: dict[str, int] | None) -> list[Part]:
        """Every part, with ``pages`` printed in the contents and the index (placeholders if None)."""
        t, pages = self.templates, pages or {}

        def page_range(game_id: str) -> str:
            # Before the first layout, a placeholder about as wide as a real number.
            return book_index.page_range(pages, game_id, unknown="00")

        def index_rows(section_id: str) -> list[GamePage]:
            return sorted(self.by_section[section_id], key=lambda p: p.heading().lower())

        sections, printed = self.lib.book.sections, book_index.index_rows(self.lib)
        note = book_index.printed_index_note(self.lib)
        front = t.front(self.games, sections, self.by_section, self.front_pages, self.after_pages, self.errata, pages,
                        page_range, note, self.changes)
        # The errata and what changed run on after the index: one part, so that none ends on a page of its own.
        end = t.index(sections, index_rows, page_range, printed) + (
            t.errata_page(self.errata, pages, note) if self.errata or note else "") + (
            t.changes_page(self.changes, line_html, pages) if self.changes else "")
        return [Part(front), *self.middle, Part(end, recto=True)]


@dataclass(frozen=True)
class PrintedPart:
    """A part of an edition laid out as printed: the page it must start on and how many it may take."""

    part: Part
    first: int  # the page number the printed book gives it
    pages: int  # how many pages it may take before the next part's page
    name: str  # what a warning calls it
    at: str  # where the data puts it there (its printed index row, or its page in book.yaml): file:line


def names_sheets(lib: Library) -> bool:
    """Whether the edition's book names each game's sheets by their number in the score pad: every book but one laid
    out as printed (the published book named none, and an edition as printed prints what it printed)."""
    return not book_index.printed_pages(lib)


class PrintedParts:
    """An edition laid out as printed (``book/index.py``'s ``printed_pages``): its front matter (title page, the index
    with its printed page numbers, the prose pages before the games), then each game on the page the
    index names and each prose page after a section on the page after that section's last game."""

    def __init__(self, parts: BookParts) -> None:
        lib, t = parts.lib, parts.templates
        self.lib, spans = lib, book_index.printed_pages(lib)
        printed = book_index.index_rows(lib)
        index = t.index(lib.book.sections, None, partial(book_index.index_page, lib, {}), printed)
        self.front = Part('<div class="prelims">' + str(t.title_page()) + str(index)
                          + "".join(parts._prose(p, 1).body for p in parts.front_pages) + "</div>")
        self.body: list[PrintedPart] = []
        where = lib.book_doc.where
        rows = {e.game: where(("printed_index", "sections", sid, i))
                for sid, entries in lib.book.printed_index.sections.items() for i, e in enumerate(entries)}
        for section in lib.book.sections:
            for n, page in enumerate(parts.by_section[section.id]):
                if page.id not in spans:
                    raise BuildError(f"{where(('printed_index',))}: {page.heading()}: the printed index gives it no page; "
                                     "an edition laid out as printed (pages_as_printed) holds only the games it lists")
                first, last = spans[page.id]
                # The section's first game carries its anchor and its bookmark (the printed book has no section
                # title page), so that the outline lists the games under their section, not under General Rules.
                opening = (f' id="section-{escape(section.id)}" data-section-title="{escape(section.title)}"'
                           if n == 0 else "")
                # No score-pad references: the printed book had no score pad.
                html = str(t.game(page, section, partial(book_prints_sheet, lib)))
                self.body.append(PrintedPart(Part(f'<div class="printed-part"{opening}>{html}</div>'), first,
                                             last - first + 1, page.heading(), str(rows[page.id])))
            after = max((spans[g.id][1] for g in parts.by_section[section.id]), default=0) + 1
            for p in parts.after_pages[section.id]:
                html = str(t.prose_page(p, parts._prose_html(p), 2))
                self.body.append(PrintedPart(Part(f'<div class="printed-part">{html}</div>'), after, 1, p.title,
                                             str(where(("pages", lib.book.pages.index(p))))))
                after += 1


def document_maker(lib: Library, duplex: bool) -> Callable[[str], str]:
    """A function that puts a body fragment into the book's HTML document (head, edition, paper)."""
    template = _env(lib).get_template("print/document.html.j2")
    return lambda body: template.render(body=Markup(body), duplex=duplex)  # noqa: S704 - our own templates' output


def book_html(lib: Library, pages: dict[str, int] | None = None, duplex: bool = False) -> str:
    """The whole book as one HTML document (for reading and for the hostile-input tests)."""
    parts = BookParts(lib)
    if book_index.printed_pages(lib):
        printed = PrintedParts(parts)
        return document_maker(lib, duplex)("\n".join([printed.front.body, *(p.part.body for p in printed.body)]))
    return document_maker(lib, duplex)("\n".join(p.body for p in parts.numbered(pages)))


@dataclass
class Layout:
    """Lays out the book's parts; with ``keep``, remembers each by its HTML and first page number.

    Kept between renders in one process (``rulebook preview``), it re-lays out only the parts a
    change touched, and the parts after them if the change moved their page numbers. A build lays
    each part out once and lets it go as soon as its pages are written (``keep=False``).
    """

    engine: Engine
    duplex: bool = False
    keep: bool = True
    cache: dict[tuple[str, int], Any] = field(default_factory=dict)
    used: set[tuple[str, int]] = field(default_factory=set)  # keys the current layout of the book used
    pages: dict[str, int] | None = None  # page numbers found last time: the next layout starts from them
    laid_out: int = 0  # parts actually laid out (not taken from the cache), for the benchmark
    fitted: int = 0  # extra layouts tried to fit a part a page shorter, for the benchmark
    warnings: list[str] = field(default_factory=list)  # what the printed layout could not keep (write_printed_book)
    least_pages: int = 0  # a bound book (printshop.py): pages at the end make an even count of at least this
    filler: str = ""  # the markup of one such page (printshop.py's ruled note page); empty: a blank page (BLANK)

    def forget_unused(self) -> None:
        """Drop parts the last layout did not use, so that a long preview session does not grow."""
        self.cache = {key: doc for key, doc in self.cache.items() if key in self.used}

    def part(self, make_document: Callable[[str], str], part: Part, first_page: int) -> Any:
        """The laid-out part whose first page is numbered ``first_page``."""
        html = make_document(self._opening(part, first_page, part.body))
        key = (html, first_page)
        if not self.keep:
            return self._fitted(html, first_page)
        self.used.add(key)
        if key not in self.cache:
            self.cache[key] = self._fitted(html, first_page)
        return self.cache[key]

    def runs(self, make_document: Callable[[str], str], part: Part, first_page: int) -> Iterator[list[Any]]:
        """The part's laid-out pages, first page numbered ``first_page``: all at once, or, for a section of more
        than RUN_HTML characters when the layout is not kept, a run of its games at a time, so that the layout
        of no more than a run is held in memory (``copyfit.next_run``: the runs give the pages one layout would)."""
        # A part of no games (a prose page) has no runs to cut it into, however long: laid out whole, not empty.
        if self.keep or len(part.body) <= RUN_HTML or not part.pieces:
            yield self.part(make_document, part, first_page).pages
            self.let_go()
            return
        start, resume, size, page = 0, None, RUN_HTML, first_page
        while True:
            stop, held = start, 0
            while stop < len(part.pieces) and held < size:
                held, stop = held + len(part.pieces[stop]), stop + 1
            # The last run takes what is left when that is not two runs' worth: it holds the pages copy-fitting
            # may set again (at most a few), which it can do only within one run.
            if sum(map(len, part.pieces[start:])) <= 2 * size:
                stop = len(part.pieces)
            body = part.start + "".join(part.pieces[start:stop]) + part.end
            if resume is None:
                body = self._opening(part, first_page, body)
            html, edit = make_document(body), copyfit.resume_edit(*resume) if resume else None
            drop = 1 if resume else 0  # a run that resumes opens with the running strings' page, not printed
            if stop == len(part.pieces):  # the section's last run: copy-fitted as a whole part would be
                yield self._fitted(html, page - drop, edit).pages[drop:]
                self.let_go()
                return
            document = self._unsplit(html, [self._counter(page - drop)], edit)
            self.laid_out += 1
            found = copyfit.next_run(document, RUN_MARGIN)
            if found is None:  # no page to start the next run from: a longer run
                size *= 2
                continue
            size = RUN_HTML
            cut, game, inner, strings = found
            pages = document.pages[drop:cut]
            del document  # before the pages are written, so that the caller can free the rest of the run
            yield pages
            del pages
            self.let_go()
            page += cut - drop
            start += game
            resume = ([1, 0, 1, *inner], strings)  # <html>'s <body>, its section, the game after the title

    def fit(self, make_document: Callable[[str], str], part: Part, first_page: int, pages: int,
            folios: list[str] | None = None) -> Any:
        """The part laid out from page ``first_page`` in at most ``pages`` pages if it can be: set tighter a step
        at a time (FIT_STEPS) while it takes more; the tightest try if none fits. ``folios``: what the pages after
        the ``pages`` print as their number (an inserted leaf's '30a')."""
        html = make_document(part.body)
        sheets = [self._counter(first_page)]
        steps = FIT_STEPS
        if folios:  # the part did not fit at any step: laid out again at the tightest, its extra pages numbered
            sheets.append(self.engine.css(" ".join(
                f'@page :nth({pages + n + 1}) {{ @bottom-right {{ content: "{folio}"; }} }}'
                for n, folio in enumerate(folios))))
            sheets += [self._tighter(*step) for step in FIT_STEPS[-1:]]  # none when fitting is off (the bench)
            steps = ()
        document = self._unsplit(html, sheets)
        self.laid_out += 1
        for leading, padding in steps:
            if len(document.pages) <= pages:
                break
            document = self._unsplit(html, [*sheets, self._tighter(leading, padding)])
            self.fitted += 1
        return document

    def _opening(self, part: Part, first_page: int, body: str) -> str:
        """``body``, behind an empty left-hand page if the book is two-sided and the part, which opens on the
        right, would start on the left."""
        return FILLER + str(body) if self.duplex and part.recto and first_page % 2 == 0 else str(body)

    def let_go(self) -> None:
        """Free the pages the caller has written and let go: WeasyPrint's boxes hold reference cycles, and
        the cycle collector is paused while the book is laid out (weasy.without_cycle_collector)."""
        if not self.keep:
            gc.collect()

    def _counter(self, first_page: int) -> Any:
        return self.engine.css(f"@page :first {{ counter-reset: page {first_page}; }} {self.engine.side_css(first_page)}")

    def _fitted(self, html: str, first_page: int, edit: Callable[[Any], None] | None = None) -> Any:
        """The part (its HTML changed by ``edit``, if given) laid out with no game's opening split across
        pages and, if its last page would be nearly empty, its last pages set tighter until it takes a page less."""
        document = self._unsplit(html, [self._counter(first_page)], edit)
        self.laid_out += 1
        if len(document.pages) < 2 or page_fill(document.pages[-1]) >= SPARSE:
            return document
        fill = page_fill(document.pages[-1])
        # First only the part's last pages are set again (copyfit.py), the shortest tail first.
        for cut, (leading, padding) in copyfit.tail_tries(document, FIT_STEPS, BASE_LEADING, TAIL_MARGINS):
            tail = self._unsplit(html, [self._counter(first_page + cut - 1), self._tighter(leading, padding)],
                                 copyfit.then(edit, copyfit.tail_edit(document, cut)))
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
            tighter = self._unsplit(html, [self._counter(first_page), self._tighter(leading, padding)], edit)
            self.fitted += 1
            if len(tighter.pages) < len(document.pages) and not copyfit.split_openings(tighter):
                return tighter
        return document  # nothing fits it a page shorter; the sparse-page test names the page

    def _tighter(self, leading: float, padding: float) -> Any:
        return self.engine.css(f"html {{ line-height: {leading}; }} "
                               f"td, th, .glance-table th, .glance-table td, table.data th, table.data td {{ padding-top: {padding}mm; padding-bottom: {padding}mm; }}")

    def _unsplit(self, html: str, sheets: list[Any], edit: Callable[[Any], None] | None = None) -> Any:
        """The part laid out with ``sheets``, a page break put before each game whose heading and
        box would end one page and whose text start the next (a few rounds at most); then a tall table
        that, kept whole, left the page before it short, let break between its rows, if the part comes out
        no longer and with no nearly empty last page it did not have."""
        document = self._rebalanced(html, list(sheets), edit)
        tall = copyfit.pushed_tables(document)
        if not tall:
            return document
        release = self.engine.css(" ".join(f'table.data[id="{name}"] {{ break-inside: auto; }}' for name in tall))
        trial = self._rebalanced(html, [*sheets, release], edit)
        self.fitted += 1
        shorter = len(trial.pages) < len(document.pages)
        if shorter or (len(trial.pages) == len(document.pages)
                       and (page_fill(trial.pages[-1]) >= SPARSE or page_fill(document.pages[-1]) < SPARSE)):
            return trial
        return document

    def _rebalanced(self, html: str, sheets: list[Any], edit: Callable[[Any], None] | None) -> Any:
        document = self.engine.document(html, sheets, edit)
        for _ in range(MAX_REBALANCE):
            split = copyfit.split_openings(document)
            if not split:
                break
            sheets.append(self.engine.css(" ".join(f'[id="{name}"] {{ break-before: page; }}' for name in split)))
            document = self.engine.document(html, sheets, edit)
            self.fitted += 1
        return document


def _anchors(pages: list[Any], first_page: int, found: dict[str, int] | None = None) -> dict[str, int]:
    """``found`` (a new dict if None) with the page number of every anchor on ``pages`` that it does not
    have yet: the first page of a name is where a link to it goes."""
    found = {} if found is None else found
    for offset, page in enumerate(pages):
        for anchor in page.anchors:
            found.setdefault(anchor, first_page + offset)
    return found


def write_book(lib: Library, layout: Layout, target: Path, progress: Report = quiet) -> dict[str, int]:
    """Lay out the book part by part, each part's pages written as soon as it is laid out (``writer.py``).

    Only the contents (the first part) and the index (the last) print page numbers. The contents is
    laid out first with the numbers of the last layout, or placeholders as wide, to know where the
    parts after it start; each part after it is laid out and written in turn; the index is laid out
    with the games' real numbers (again, until the pages it prints of its own, the errata's, are
    those it has); then the contents with every real number, and put first. Should
    the real numbers move anything the contents' first layout decided (its length, its own
    anchors), the book is laid out again from them. Returns the page of every anchor.
    """
    make_document, parts = document_maker(lib, layout.duplex), BookParts(lib)
    printed = layout.pages
    layout.used.clear()
    for _ in range(MAX_LAYOUTS):
        writer = PdfWriter(layout.engine.fonts, **layout.engine.writer_options)
        add = _Counted(writer, progress)
        front = layout.part(make_document, parts.numbered(printed)[0], 1)
        front_anchors, front_length = _anchors(front.pages, 1), len(front.pages)
        del front  # only its length and anchors are needed: the contents is laid out again at the end
        layout.let_go()
        found, next_page = dict(front_anchors), 1 + front_length
        for part in parts.middle:
            for pages in layout.runs(make_document, part, next_page):
                _anchors(pages, next_page, found)
                for page in pages:
                    add(page)
                next_page += len(pages)
                del pages  # written: the run's layout can go (Layout.runs collects it)
        # The index prints the games' pages, which are known now, and the end's own (the errata's page, what
        # changed's): the end alone is laid out again until it prints the pages it has. Only it moves with them;
        # laying the whole book out again for them doubled every build.
        known = {**(printed or {}), **found}
        for _ in range(MAX_LAYOUTS):
            index = parts.numbered(known)[-1]
            end = layout.part(make_document, index, next_page)
            with_end = _anchors(end.pages, next_page, dict(found))
            if parts.numbered(with_end)[-1].body == index.body:
                break
            known = {**known, **with_end}
        found = with_end
        for page in end.pages:
            add(page)
        if layout.least_pages:  # the contents, put first, is as long as its first layout when the numbers settle
            total = add.written + front_length
            _blank(layout, make_document, add, max(layout.least_pages - total, total % 2), total + 1)
        final = parts.numbered(found)
        contents = layout.part(make_document, final[0], 1)
        settled = len(contents.pages) == front_length and _anchors(contents.pages, 1) == front_anchors
        if settled and final[-1].body == index.body:  # the index printed the real numbers
            for page in contents.pages:
                add(page, first=True)
            metadata = contents.metadata
            del contents
            layout.let_go()
            writer.write(target, metadata)
            add.done()
            layout.pages = found
            layout.forget_unused()
            return found
        printed = {**found, **_anchors(contents.pages, 1)}
    raise BuildError(f"the book's page numbers did not settle after {MAX_LAYOUTS} layouts")


BLANK = '<div class="blank-page" aria-hidden="true"></div>'  # our own markup: a page the printed book left empty


def write_printed_book(lib: Library, layout: Layout, target: Path, progress: Report = quiet) -> dict[str, int]:
    """Lay out an edition as it was printed (``PrintedParts``): the front matter numbered in roman, each game
    from the page its printed index names, a page its game leaves empty before the next left blank. A game
    longer than its printed pages is set tighter (``Layout.fit``); still too long, its extra pages are numbered
    after its last as a printer numbers inserted leaves ('30a', '30b'), so that the games after it keep their
    pages, and ``layout.warnings`` names it. The PDF's page labels are the printed numbers. Returns the
    page of every anchor after the front matter."""
    make_document, parts = document_maker(lib, layout.duplex), PrintedParts(BookParts(lib))
    writer = PdfWriter(layout.engine.fonts)
    add = _Counted(writer, progress)
    front = layout.engine.document(make_document(parts.front.body))
    metadata = front.metadata
    for page in front.pages:
        add(page)
    del front
    if layout.duplex and writer.pages % 2:  # page 1 is a right-hand page
        _blank(layout, make_document, add, 1)
    labels: list[tuple[int, str, int | str]] = [(0, "r", 1)]
    found: dict[str, int] = {}
    next_page = 1
    for printed in parts.body:
        if printed.first > next_page:
            next_page += _blank(layout, make_document, add, printed.first - next_page)
        if printed.first < next_page:  # the data's pages overlap (index.page_order names them): nothing to keep
            raise BuildError(f"{printed.at}: {printed.name} is printed on page {printed.first}, which the part before it takes")
        labels.append((writer.pages, "D", next_page))
        document = layout.fit(make_document, printed.part, next_page, printed.pages)
        extra = len(document.pages) - printed.pages
        # Two-sided, a leaf has two sides: an odd number of extra pages gets a blank one, so that every page
        # after it keeps its side (odd numbers on the right).
        leaves = extra + extra % 2 if layout.duplex and extra > 0 else extra
        inserted = [f"{printed.first + printed.pages - 1}{chr(ord('a') + n)}" for n in range(max(leaves, 0))]
        if inserted:
            layout.warnings.append(f"{printed.at}: {printed.name} takes {len(document.pages)} pages set as tight as the book allows; "
                                   f"the printed book gives it {printed.pages} from page {printed.first}: its extra "
                                   f"pages are numbered {', '.join(inserted[:extra])}")
            document = layout.fit(make_document, printed.part, next_page, printed.pages, folios=inserted[:extra])
            labels += [(writer.pages + printed.pages + n, "", label) for n, label in enumerate(inserted)]
            labels.append((writer.pages + printed.pages + len(inserted), "D", printed.first + printed.pages))
        _anchors(document.pages[:printed.pages], next_page, found)
        for page in document.pages:
            add(page)
        _blank(layout, make_document, add, len(inserted) - max(extra, 0))
        next_page += min(len(document.pages), printed.pages)
        del document
        layout.let_go()
    writer.page_labels = labels
    writer.write(target, metadata)
    add.done()
    return found


def _blank(layout: Layout, make_document: Callable[[str], str], add: Callable[..., None], count: int,
           first_page: int = 0) -> int:
    """Add ``count`` pages of the layout's filler, blank by default (``add``: the writer's, counted), the first
    numbered ``first_page`` (its side's margins) when given; return ``count``."""
    if count <= 0:
        return 0
    extra = [layout._counter(first_page)] if first_page else []
    for page in layout.engine.document(make_document((layout.filler or BLANK) * count), extra).pages:
        add(page)
    return count


PAGES = "book pages laid out"  # the stage the book reports (progress.py)


@dataclass
class _Counted:
    """``writer.add``, reporting how many pages have been written so far."""

    writer: PdfWriter
    progress: Report
    written: int = 0

    def __call__(self, page: Any, **kwargs: Any) -> None:
        self.writer.add(page, **kwargs)
        self.written += 1
        self.progress(PAGES, self.written)

    def done(self) -> None:
        """The book is written: the stage ends with its number of pages."""
        self.progress(PAGES, self.written, self.written, final=True)


def render_book(lib: Library, target: Path, paper: str = "letter", duplex: bool = False,
                layout: Layout | None = None, warn: Callable[[str], None] | None = None,
                progress: Report = quiet) -> dict[str, int]:
    """Write the book PDF to ``target``; return the page of every anchor (games, pages, index).
    A ``layout`` kept by the caller keeps the laid-out parts for the next render (``rulebook preview``);
    ``warn`` is told what the layout could not do as the data asks (a game too long for its printed pages);
    ``progress`` how many pages are laid out and written, as they are."""
    layout = layout or Layout(Engine(paper, lib.root), duplex, keep=False)
    layout.warnings.clear()
    with without_cycle_collector():
        write = write_printed_book if book_index.printed_pages(lib) else write_book
        found = write(lib, layout, target, progress)
    for message in layout.warnings:
        (warn or (lambda _: None))(message)
    return found


def render_booklet(lib: Library, target: Path, paper: str, scratch: Path, progress: Report = quiet) -> None:
    """Write the book imposed as a booklet to ``target`` (``booklet.py``), its pages laid out in ``scratch``."""
    # The booklet's pages are the book laid out again at half the paper, not its pages shrunk.
    pages = scratch / "booklet-pages.pdf"
    render_book(lib, pages, paper=BOOKLET_PAGE[paper],
                progress=lambda stage, *args, **kw: progress(f"booklet: {stage}", *args, **kw))
    progress("booklet imposed")
    booklet.impose(pages, target, paper)
    progress("booklet imposed", final=True)


def game_pages(lib: Library) -> list[GamePage]:
    """Every game page of the edition, in book order."""
    return [game_page(lib, gs) for gs in lib.ordered_games()]

"""The printed book read back as text boxes (`pdftotext -bbox-layout`): each page's body lines, in order.

The running header and footer sit in the page margins and are left out, so that a page's lines are
only what the page prints in its text area. The margins are read from print.css (its last `@page`
margin), where they are set.
"""

from __future__ import annotations

import functools
import html
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import pypdf

T = TypeVar("T")

MM = 72 / 25.4
PRINT_CSS = Path(__file__).resolve().parents[1] / "templates" / "print" / "print.css"


def _page_margins() -> tuple[float, float]:
    """The top and bottom margin of the book's pages, in points, as print.css last sets them."""
    found = re.findall(r"@page\s*\{[^}]*?margin:\s*([\d.]+)mm\s+[\d.]+mm\s+([\d.]+)mm", PRINT_CSS.read_text())
    top, bottom = found[-1]
    return float(top) * MM, float(bottom) * MM


TOP, BOTTOM = _page_margins()

_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
_LINE = re.compile(r'<line xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</line>', re.S)
_WORD = re.compile(r"<word[^>]*>([^<]*)</word>")


@dataclass(frozen=True)
class Line:
    """One line of text as pdftotext found it: where it is and what it says."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str


@dataclass(frozen=True)
class Page:
    """A page's size and the lines printed in its text area, top to bottom."""

    number: int
    width: float
    height: float
    lines: tuple[Line, ...]

    @property
    def fill(self) -> float:
        """How far down the text area the lowest line reaches, 0 (empty) to 1 (full)."""
        if not self.lines:
            return 0.0
        area = self.height - TOP - BOTTOM
        return (max(line.y1 for line in self.lines) - TOP) / area

    @property
    def last(self) -> Line | None:
        """The line printed lowest on the page (the rightmost of those level with it)."""
        return max(self.lines, key=lambda line: (round(line.y1), line.x0), default=None)


def once_per_file(read: Callable[[Path], T]) -> Callable[[Path], T]:
    """``read(pdf)``, worked out once per file as it is now (path, size, time stamp): many tests read
    the same book. What it returns is shared between the tests: read it, do not change it."""
    @functools.cache
    def as_it_is(pdf: Path, size: int, mtime: int) -> T:
        return read(pdf)

    @functools.wraps(read)
    def cached(pdf: Path) -> T:
        stat = pdf.stat()
        return as_it_is(pdf.resolve(), stat.st_size, stat.st_mtime_ns)

    return cached


@once_per_file
def bbox_layout(pdf: Path) -> str:
    """`pdftotext -bbox-layout` of ``pdf``: every page, block, line and word with its box."""
    return subprocess.run(["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


@once_per_file
def pdf_reader(pdf: Path) -> pypdf.PdfReader:
    """The file opened with pypdf, once: parsing a book's objects takes 0.5 s, and several tests read
    the same book (its outline, its structure tree). Read it, do not change it."""
    import pypdf

    return pypdf.PdfReader(pdf)


@once_per_file
def page_count(pdf: Path) -> int:
    """How many pages ``pdf`` has, as `pdfinfo` reads it (10 ms; pypdf parsed a sheet's whole font for it)."""
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)$", out, re.M)[1])


_DEST = re.compile(r'\s*(\d+) \[\s*XYZ\s+\S+\s+(\S+)[^\]]*\] "(.*)"|\s*(\d+) \[[^\]]*\] "(.*)"')


@once_per_file
def anchor_places(pdf: Path) -> dict[str, tuple[int, float | None]]:
    """The page (from 1) and the height from the page's top (points; None where the PDF gives none) of
    every anchor (element id) the PDF keeps as a named destination.

    Read by `pdfinfo -dests` (40 ms a book): pypdf parsed every object of the book to find them, the
    structure tree's thousands included (0.5 s a book, seven books a test file). tests/test_pdf.py
    shows the two agree on the whole book."""
    out = subprocess.run(["pdfinfo", "-dests", str(pdf)], capture_output=True, text=True, check=True).stdout
    heights = {n: float(h) for n, (_w, h, _body) in enumerate(_PAGE.findall(bbox_layout(pdf)), 1)}
    found = {}
    for line in out.splitlines()[1:]:  # under the heading 'Page  Destination  Name'
        m = _DEST.fullmatch(line)
        assert m, f"pdfinfo -dests: a line not read: {line!r}"
        if m[1]:
            page, y = int(m[1]), m[2]
            found[m[3]] = page, (heights[page] - float(y) if y != "null" else None)
        else:
            found[m[5]] = int(m[4]), None
    return found


def anchor_pages(pdf: Path) -> dict[str, int]:
    """The page (from 1) of every anchor (element id) the PDF keeps as a named destination."""
    return {name: page for name, (page, _top) in anchor_places(pdf).items()}


def read_pages(pdf: Path) -> list[Page]:
    """Every page of ``pdf`` with its body lines, sorted top to bottom, left to right."""
    out = bbox_layout(pdf)
    pages = []
    for n, (width, height, body) in enumerate(_PAGE.findall(out), 1):
        lines = []
        for x0, y0, x1, y1, words in _LINE.findall(body):
            text = " ".join(html.unescape(w) for w in _WORD.findall(words))
            if float(y1) <= TOP or float(y0) >= float(height) - BOTTOM:
                continue  # the running header or footer
            lines.append(Line(float(x0), float(y0), float(x1), float(y1), text))
        lines.sort(key=lambda line: (round(line.y0), line.x0))
        pages.append(Page(n, float(width), float(height), tuple(lines)))
    return pages


# ---- What must not end a page, read from the book's HTML ------------------------------------------

_BULLET = re.compile(r"^(?:[•–-]|\d+[.)])\s+")
OPENER_CLASSES = ("sheet-title", "score-list-title", "variant-source")  # lines that introduce what follows


def clean(text: str) -> str:
    """Whitespace folded to single spaces and a list marker ('•', '1.') taken off the front."""
    return _BULLET.sub("", " ".join(text.split()))


class _Openers(HTMLParser):
    """Collects the texts that introduce something: headings, captions, titled lines, lists' first items."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, collecting) of the open elements
        self.current: list[str] | None = None
        self.headings: set[str] = set()
        self.first_items: list[tuple[str, bool]] = []  # (first item's text, the list has more items)
        self.box_cells: set[str] = set()  # the summary boxes' cells: their lines are no list's
        self.lists: list[int] = []  # items seen in each open list
        self.in_box = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "img", "meta", "col", "input"):
            return
        classes = (dict(attrs).get("class") or "").split()
        collect = self.current is None and (tag in ("h1", "h2", "h3", "h4", "h5", "caption")
                                            or any(c in OPENER_CLASSES for c in classes))
        if tag == "table" and "glance-table" in classes:
            self.in_box = True
        collect = collect or (self.current is None and self.in_box and tag == "td")
        if tag in ("ul", "ol"):
            self.lists.append(0)
        elif tag == "li" and self.lists:
            self.lists[-1] += 1
            collect = collect or (self.current is None and self.lists[-1] == 1)
        if collect:
            self.current = []
        self.stack.append((tag, collect))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            open_tag, collecting = self.stack.pop()
            if collecting and self.current is not None:
                text = clean("".join(self.current))
                if open_tag == "li":
                    self.first_items.append((text, False))
                elif open_tag == "td":
                    self.box_cells.add(text)
                elif text:
                    self.headings.add(text)
                self.current = None
            if open_tag == "table":
                self.in_box = False
            if open_tag in ("ul", "ol") and self.lists:
                items = self.lists.pop()
                if items > 1 and self.first_items:
                    self.first_items[-1] = (self.first_items[-1][0], True)
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.current is not None:
            self.current.append(data)


def openers(book_html: str) -> _Openers:
    """The headings, captions and lists' first items of the book's HTML."""
    parser = _Openers()
    parser.feed(book_html)
    return parser


def stranded(pages: list[Page], found: _Openers) -> list[str]:
    """Pages (all but the last) whose last line is a heading, a caption or the first line of a list."""
    out = []
    for page in pages[:-1]:
        last = page.last
        if last is None:
            continue
        above = [line for line in page.lines if line.y1 < last.y0 and abs(line.x0 - last.x0) < 2]
        texts = {clean(last.text)}
        if above:  # a heading that wraps ends the page with its second line
            texts.add(clean(above[-1].text + " " + last.text))
        # A heading stands alone on its line; a line beside others is a table row's cell, whatever its words (an
        # erratum's "Alphabetical Index of Games", wrapped in its cell, is no heading).
        beside = [line for line in page.lines if line is not last and line.y0 < last.y1 and line.y1 > last.y0]
        if texts & found.headings and not beside:
            out.append(f"page {page.number}: ends on the heading '{min(texts & found.headings)}'")
            continue
        line = clean(last.text)
        if len(line.split()) < 2 or any(cell.endswith(line) for cell in found.box_cells):
            continue  # a number or a word alone is a table cell's, and a summary box's line is no list's
        for item, more in found.first_items:
            if item.startswith(line) and (len(item) > len(line) or more):
                out.append(f"page {page.number}: ends on the first line of a list, '{last.text}'")
                break
    return out


def reaches(pdf: Path, pages: list[Page]) -> dict[int, float]:
    """How far down its text area each page (from 1) reaches: its lowest line of text or its lowest anchored table row
    (a blank score sheet's rows hold no text)."""
    reach = {p.number: p.fill for p in pages}
    for _name, (page, top) in anchor_places(pdf).items():
        if top is not None and page in reach:
            area = pages[page - 1].height - TOP - BOTTOM
            reach[page] = max(reach[page], (top - TOP) / area)
    return reach


def sparse(pages: list[Page], exempt: set[int], least: float = 0.25, reach: dict[int, float] | None = None) -> list[str]:
    """Pages (not in ``exempt``) that reach less than ``least`` of the way down the page: by their text, or as
    ``reach`` (``reaches``) measures them."""
    reach = reach or {p.number: p.fill for p in pages}
    return [f"page {p.number}: {reach[p.number]:.0%} full ({len(p.lines)} lines)" for p in pages
            if p.number not in exempt and reach[p.number] < least]


def early_ends(pdf: Path, least: float = 0.75) -> list[str]:
    """Pages that end above ``least`` of their text area while the same game goes on overleaf (its heading
    ``game-<id>`` before the page's end, its end mark ``end-<id>`` after it). How far a page reaches is its
    lowest line of text or its lowest anchored table row (a blank score sheet's rows hold no text)."""
    places, pages = anchor_places(pdf), read_pages(pdf)
    reach = reaches(pdf, pages)
    found = []
    for name, (start, _top) in places.items():
        ident = name[len("game-"):]
        if name.startswith("game-") and f"end-{ident}" in places:
            found += [f"page {n}: {reach[n]:.0%} full, {ident} goes on overleaf"
                      for n in range(start, places[f"end-{ident}"][0]) if reach[n] < least]
    return sorted(found, key=lambda f: int(f.split()[1].rstrip(":")))


def split_rows(pdf: Path, book_html: str) -> str | None:
    """Whether a table row is printed in two pieces: WeasyPrint tags each piece of a row on its own
    page as a row of its own (TR), so a split row makes more body rows than the HTML has. (A header
    row repeated on a table's next page is tagged again too, inside THead, so header rows are not counted.)"""
    heads = "".join(re.findall(r"<thead[\s>].*?</thead>", book_html, re.S))
    rows = len(re.findall(r"<tr[\s>]", book_html)) - len(re.findall(r"<tr[\s>]", heads))
    tagged = 0
    stack = [(pdf_reader(pdf).trailer["/Root"]["/StructTreeRoot"], "")]
    while stack:
        element, parent = stack.pop()
        element = element.get_object() if hasattr(element, "get_object") else element
        if not isinstance(element, dict):
            continue
        kind = element.get("/S", "")
        tagged += kind == "/TR" and parent != "/THead"
        kids = element.get("/K")
        kids = kids if isinstance(kids, list) else [kids] if kids is not None else []
        stack.extend((kid, kind) for kid in kids)
    return None if tagged == rows else f"{rows} table rows are printed in {tagged} pieces: a row is split"


def split_openings(pdf: Path) -> list[str]:
    """Games and variants whose heading (the anchor of their id) and first line of text (the anchor
    `opened-<id>` that generator/render/pdf/book.py puts there) are printed on different pages."""
    page_of = anchor_pages(pdf)
    return [f"{name[7:]}: heading on page {page_of.get(name[7:])}, text from page {n}"
            for name, n in sorted(page_of.items()) if name.startswith("opened-") and page_of.get(name[7:]) != n]


def split_boxes(pdf: Path) -> list[str]:
    """Summary boxes not printed whole on their game's (or variant's) heading page: the box's anchor
    `box-<id>` and the anchor `box-end-<id>` at the end of its last row (templates/blocks.html.j2),
    read back from the PDF's named destinations, on another page than the heading `<id>`."""
    page_of = anchor_pages(pdf)
    found = []
    for name, start in sorted(page_of.items()):
        if name.startswith("box-") and not name.startswith("box-end-"):
            owner = name[4:]
            end, heading = page_of.get(f"box-end-{owner}"), page_of.get(owner)
            if not start == end == heading:
                found.append(f"{owner}: heading on page {heading}, box from page {start} to page {end}")
    return found


def running_heads(pdf: Path) -> list[tuple[str, str]]:
    """The running header of every page: (its left-hand side, the game or page it names; its right-hand side, the
    section), '' where a side prints nothing."""
    heads = []
    for width, _height, body in _PAGE.findall(bbox_layout(pdf)):
        lines = [(float(x0), " ".join(html.unescape(w) for w in _WORD.findall(words)))
                 for x0, _y0, _x1, y1, words in _LINE.findall(body) if float(y1) <= TOP]
        half = float(width) / 2
        heads.append((" ".join(t for x, t in lines if x < half), " ".join(t for x, t in lines if x >= half)))
    return heads


def running_titles(pdf: Path) -> list[str]:
    """The left-hand running header of every page (the game or page it names), '' where there is none."""
    return [left for left, _ in running_heads(pdf)]


def section_head_mismatches(pdf: Path, sections: dict[str, str]) -> list[str]:
    """Pages whose section head (the header's right-hand side) is not the section of the part the header names:
    ``sections`` maps each game heading to its section's title; a part that is no game (a prose page, the index,
    the errata) belongs to no section and carries no section head."""
    found = []
    for page, (left, right) in enumerate(running_heads(pdf), 1):
        left, right = " ".join(left.split()), " ".join(right.split())
        if left and right != sections.get(left, ""):
            found.append(f"page {page}: {left!r} under the section head {right!r}, expected {sections.get(left, '')!r}")
    return found


def header_mismatches(pdf: Path, headings: dict[str, str]) -> list[str]:
    """Pages whose running header does not name the game the reader is in at the top of the page: the game
    whose heading (anchor ``id`` -> title in ``headings``) opens the page, else the last one before it. A page whose
    header names something else and that holds no game heading (a prose page, the index) ends the run."""
    starts: dict[int, list[str]] = {}
    for name, page in anchor_pages(pdf).items():
        if name in headings:
            starts.setdefault(page, []).append(name)
    order, titles = {name: n for n, name in enumerate(headings)}, set(headings.values())
    found, current = [], None
    first_lines = [" ".join(p.lines[0].text.split()) if p.lines else "" for p in read_pages(pdf)]
    for page, header in enumerate(running_titles(pdf), 1):
        header = " ".join(header.split())
        here = sorted(starts.get(page, []), key=order.__getitem__)
        if not header:  # a section's title page prints no head: it names no game, right or wrong
            current = headings[here[-1]] if here else current
            continue
        if not here and header and header not in titles:
            current = None  # a prose page, the index: their own titles
            continue
        opens = bool(here) and first_lines[page - 1] == " ".join(headings[here[0]].split())
        expected = headings[here[0]] if here and (opens or current is None) else current
        if expected is not None and header != expected:
            found.append(f"page {page}: header {header!r}, expected {expected!r}")
        current = headings[here[-1]] if here else current
    return found


def lone_trailers(pdf: Path) -> list[str]:
    """Games whose trailer (their score-sheet lines and sources, from the anchor ``trailer-<id>`` to ``end-<id>``,
    templates/print/book.html.j2) is split across pages, or opens a page with none of the game's lines above it: a
    reader takes it for the next game's, and the running head names the game before the page's."""
    places, pages = anchor_places(pdf), read_pages(pdf)
    found = []
    for name, (page, top) in sorted(places.items()):
        if not name.startswith("trailer-"):
            continue
        ident = name[len("trailer-"):]
        end = places.get(f"end-{ident}", (None, None))[0]
        if end != page:
            found.append(f"{ident}: trailer from page {page} to page {end}")
        elif top is not None and not any(line.y1 <= top + 1 for line in pages[page - 1].lines):
            found.append(f"page {page}: opens with the trailer of {ident}")
    return found


HEADING_TAGS = {"/H1", "/H2", "/H3", "/H4", "/H5", "/H6", "/Caption"}


def _marked(pdf: Path) -> list[tuple[tuple[str, ...], int | None]]:
    """Each piece of marked content of ``pdf``'s structure tree in reading order: (the structure types from the root
    down to it, the index of the page it is on)."""
    reader = pdf_reader(pdf)
    pages = {page.indirect_reference.idnum: i for i, page in enumerate(reader.pages)}
    out: list[tuple[tuple[str, ...], int | None]] = []
    stack: list[tuple[Any, int | None, tuple[str, ...]]] = [(reader.trailer["/Root"]["/StructTreeRoot"], None, ())]
    while stack:
        element, page, path = stack.pop()
        element = element.get_object() if hasattr(element, "get_object") else element
        if isinstance(element, int):  # a marked-content id on the element's page
            out.append((path, page))
            continue
        if not isinstance(element, dict) or element.get("/Type") == "/OBJR":
            continue
        own = element.get("/Pg")
        page = pages.get(own.idnum, page) if own is not None else page
        if element.get("/Type") == "/MCR":
            out.append((path, page))
            continue
        kids = element.get("/K")
        kids = kids if isinstance(kids, list) else [kids] if kids is not None else []
        stack.extend((kid, page, path + (str(element.get("/S", "")),)) for kid in reversed(kids))
    return out


def lone_headings(pdf: Path) -> list[str]:
    """Headings (H1-H6) and table captions whose next content, the first that is not the heading's own, is on a later
    page: a heading that ends a page, read from the PDF's structure tree (every PDF of the book is tagged)."""
    marked, found = _marked(pdf), []
    for i, (path, page) in enumerate(marked):
        depths = [d for d, kind in enumerate(path) if kind in HEADING_TAGS]
        if not depths or page is None:
            continue
        own = path[:depths[-1] + 1]
        after = next((p for q, p in marked[i + 1:] if q[:len(own)] != own), None)
        if after is not None and after > page:
            message = f"page {page + 1}: a {own[-1][1:]} ends the page, what it heads is on page {after + 1}"
            if message not in found:
                found.append(message)
    return found

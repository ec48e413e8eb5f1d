"""What a reader sees: the words of each site page and of each game's PDF pages, in reading order.

Site: the text of a page's article, with the list depth of every word (a sub-item's words sit
in an <li> inside an <li>). PDF: `pdftotext -bbox-layout` read once; the running header and
footer (outside the narrowest page margin) are left out, a floated box's row that pdftotext puts
beside the prose of its block is read after that block, a word the layout hyphenated at a line
end is joined again, list markers are dropped, and every word keeps its x position (a sub-item
is indented further than its parent). A page of the book is found by its named destinations:
`game-<id>` to `end-<id>` (or `sheet-end-<id>`), `page-<id>`, `book-index`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pypdf

from tests.fidelity_source import words
from tests.pagetext import bbox_layout, once_per_file, pdf_reader

BLOCKS = {"p", "li", "ul", "ol", "div", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "tr", "table", "br", "hr",
          "pre", "section", "article", "header", "footer", "nav", "figure", "figcaption", "blockquote", "dt", "dd",
          "dl", "summary", "details", "caption", "thead", "tbody", "img"}
VOID = {"br", "hr", "img", "input", "col", "wbr", "meta", "link", "source"}
MM = 72 / 25.4
ROW = 3.0  # points: words whose tops lie this close stand on one row
HEADING_ROOM = 12 * MM  # more than a title's top margin (9 mm in print.css) kept after a page break


@dataclass
class Text:
    """The words of one output page in reading order, each with where it stands."""

    tokens: list[str] = field(default_factory=list)
    depth: list[float] = field(default_factory=list)  # site: <li> depth; PDF: x of the word

    def add(self, text: str, depth: float) -> None:
        for w in words(text):
            self.tokens.append(w)
            self.depth.append(depth)

    def find(self, expected: list[str]) -> list[int]:
        """Every index where the expected words stand together, in order."""
        n = len(expected)
        return [i for i, t in enumerate(self.tokens) if t == expected[0] and self.tokens[i:i + n] == expected]


class _Site(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.inside = 0  # depth of the article in the stack, 0 outside it
        self.lis = 0
        self.buf = ""
        self.text = Text()

    def flush(self) -> None:
        self.text.add(self.buf, self.lis)
        self.buf = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in BLOCKS:
            self.flush()
        if tag in VOID:
            return
        self.stack.append(tag)
        if tag == "article" and "md-content__inner" in (a.get("class") or ""):
            self.inside = len(self.stack)
        if tag == "li":
            self.lis += 1

    def handle_endtag(self, tag):
        if tag in BLOCKS:
            self.flush()
        if tag in VOID or tag not in self.stack:
            return
        while self.stack:
            top = self.stack.pop()
            if top == "li":
                self.lis -= 1
            if len(self.stack) < self.inside:
                self.inside = 0
            if top == tag:
                break

    def handle_data(self, data):
        if self.inside:
            self.buf += data


def site_text(html: str) -> Text:
    """The words of a built page's article, with the list depth of each."""
    parser = _Site()
    parser.feed(html)
    parser.flush()
    return parser.text


def site_page(site: Path, target: str) -> Path:
    """The built page that must print a target ('game:golf', 'page:about', 'index', 'cover')."""
    kind, _, name = target.partition(":")
    path = {"game": f"games/{name}/index.html", "page": f"{name}/index.html",
            "index": "book-index/index.html", "cover": "index.html"}[kind]
    return site / path


def margin_band(css: Path) -> float:
    """The narrowest nonzero page margin of the print stylesheet, in points: the running header
    and footer are drawn inside it on every page, and no body text is."""
    margins = [float(m) for m in re.findall(r"@page[^{]*\{[^{}]*?margin:\s*([\d.]+)mm", css.read_text(encoding="utf-8"))]
    return min(m for m in margins if m > 0) * MM


def pdf_pages(pdf: Path, band: float) -> list[list[tuple[str, float, float]]]:
    """(word, x, y) of every page's body text in reading order, hyphenated line ends joined again.

    List markers (bullets, an ordered list's numbers) stay: a sentence is found after them."""
    return bbox_pages(bbox_layout(pdf), band)


def bbox_pages(xml: str, band: float) -> list[list[tuple[str, float, float]]]:
    """`pdf_pages` from the XHTML that `pdftotext -bbox-layout` writes."""
    ns = {"x": "http://www.w3.org/1999/xhtml"}
    pages: list[list[tuple[str, float, float]]] = []
    carry, carried_at = "", (0.0, 0.0)
    for page in ET.fromstring(xml).iter(f"{{{ns['x']}}}page"):
        height = float(page.get("height"))
        out: list[tuple[str, float, float]] = []
        for line in _reading_lines(page, ns["x"]):
            ws = [w for w in line.iter(f"{{{ns['x']}}}word")
                  if float(w.get("yMax")) > band and float(w.get("yMin")) < height - band]
            for k, w in enumerate(ws):
                text, x, y = w.text or "", float(w.get("xMin")), float(w.get("yMin"))
                if carry and not out and pages:
                    # A word hyphenated at the foot of the last page ends here: it is read where it starts.
                    pages[-1].append((carry + text, *carried_at))
                    carry = ""
                    continue
                if carry:
                    text, carry = carry + text, ""
                if k == len(ws) - 1 and text.endswith("\u2010"):  # the layout's hyphen (U+2010), not the text's
                    carry, carried_at = text[:-1], (x, y)
                    continue
                out.append((text, x, y))
        pages.append(out)
    if carry:
        pages[-1].append((carry, *carried_at))
    return pages


def _reading_lines(page: ET.Element, x: str) -> list[ET.Element]:
    """The page's lines in reading order: pdftotext's, except that a line standing beside another
    line of its block (a floated box's row next to the prose it runs beside) is read after that
    block, so that the box's words do not cut into a sentence."""
    out = []
    for block in page.iter(f"{{{x}}}block"):
        lines = list(block.iter(f"{{{x}}}line"))
        box = [_extent(list(ln.iter(f"{{{x}}}word"))) for ln in lines]
        beside = [any(m[1] < b[0] and m[2] < b[3] and b[2] < m[3] for m in box) for b in box]
        pairs = list(zip(lines, beside, strict=True))
        out += [ln for ln, side in pairs if not side] + [ln for ln, side in pairs if side]
    return out


def _extent(ws: list[ET.Element]) -> tuple[float, float, float, float]:
    """(left, right, top, bottom) of a line's words."""
    if not ws:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(float(w.get("xMin")) for w in ws), max(float(w.get("xMax")) for w in ws),
            min(float(w.get("yMin")) for w in ws), max(float(w.get("yMax")) for w in ws))


@once_per_file
def pdf_ranges(pdf: Path) -> dict[str, range]:
    """The 1-based pages of each target, from the book's named destinations."""
    reader = pdf_reader(pdf)
    named = reader.named_destinations
    dest = {k: reader.get_destination_page_number(v) + 1 for k, v in named.items()}
    starts: dict[int, float] = {}  # page -> how far down its first part starts, in points
    for k, p in dest.items():
        if re.match(r"(game|page|section)-|book-index$|errata$", k):
            down = float(reader.pages[p - 1].mediabox.height) - float(named[k].top or 0)
            starts[p] = min(starts.get(p, down), down)
    top = margin_top(reader)

    def until_next(first: int) -> int:
        # Parts run on (the errata after the index): a target whose successor starts down its page
        # ends on that page.
        return next((p if starts[p] > top else p - 1 for p in sorted(starts) if p > first), len(reader.pages))

    out = {"cover": range(1, 2)}
    for k, first in dest.items():
        if k.startswith("game-"):
            name = k[5:]
            last = max(dest.get(f"end-{name}", first), dest.get(f"sheet-end-{name}", first))
            out[f"game:{name}"] = range(first, last + 1)
        elif k.startswith("page-"):
            out[f"page:{k[5:]}"] = range(first, until_next(first) + 1)
        elif k == "book-index":
            out["index"] = range(first, until_next(first) + 1)
    return out


def margin_top(reader: pypdf.PdfReader) -> float:
    """How far down a part that opens a page may begin: where the sections begin (each opens a page)
    plus a heading's own top margin; a part that begins lower has text above it on its page."""
    tops = [float(reader.pages[reader.get_destination_page_number(v)].mediabox.height) - float(v.top or 0)
            for k, v in reader.named_destinations.items() if k.startswith("section-")]
    return min(tops, default=0.0) + HEADING_ROOM


def pdf_text(pages: list[list[tuple[str, float, float]]], span: range, rows: bool = False) -> Text:
    """The words of a run of pages in reading order, or (rows) line by line across the page: a
    table row is read left to right even where pdftotext reads the cells in another order."""
    text = Text()
    for p in span:
        for word, x, _y in (_by_rows(pages[p - 1]) if rows else pages[p - 1]):
            text.add(word, x)
    return text


def _by_rows(ws: list[tuple[str, float, float]]) -> list[tuple[str, float, float]]:
    out: list[tuple[str, float, float]] = []
    row: list[tuple[str, float, float]] = []
    for w in sorted(ws, key=lambda w: w[2]):
        if row and w[2] - row[0][2] > ROW:
            out += sorted(row, key=lambda w: w[1])
            row = []
        row.append(w)
    return out + sorted(row, key=lambda w: w[1])

"""The book for a print-on-demand service: an interior at a trim size with bleed, and a cover of back, spine and front.

The interior is the book laid out again at the trim (as the booklet is at half its paper: ``book.Layout`` on an
engine of its own), two-sided (a section opens on a right-hand page, a blank before it if need be), with mirrored
margins whose inside one, the gutter, follows the page count (``GUTTERS``), padded with blank pages to an even count
of at least ``LEAST_PAGES``, and written as PDF/X-4 with an sRGB output intent and no links (``writer.PdfWriter``).
Each page is the trim plus ``BLEED`` on every side; WeasyPrint's ``@page { bleed }`` makes the writer give it its
TrimBox and BleedBox. The cover is one page: back, spine (page count x the paper's thickness) and front, with bleed.

Where the figures come from is docs/printing.md's: Amazon KDP's published paperback requirements (as the guides it
names quote them), the strictest of the services it compares.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from markupsafe import escape

from ...book import index as book_index
from ...book.files import MAX_OUTPUT_BYTES, read_file
from ...book.library import Library
from ...errors import BuildError
from ...progress import Report, quiet
from .book import Layout, render_book
from .weasy import Engine, without_cycle_collector
from .writer import PdfWriter

BLEED = 0.125  # in, each side of the trim
SAFE = 0.375  # in: text keeps this far from the trim's outside, top and bottom edges when the page has bleed
# The least inside margin (in) by page count: (up to this many pages, gutter); KDP's paperback table.
GUTTERS = ((150, 0.375), (300, 0.5), (500, 0.625), (700, 0.75), (828, 0.875))
LEAST_PAGES = 24  # a bound paperback's minimum
# What the layout adds to the least margins: room for the running heads and folios, which sit in the margins
# and must stay in the safe area too, and a gutter a little wider than the least a reader can still open to.
HEAD, OUTSIDE, GUTTER_EXTRA = 0.85, 0.5, 0.125  # in
SMALL_TRIM = 7.0  # in: a narrower trim takes the booklet's smaller type and narrower boxes (booklet.css)
# Paper thickness per page (in), for the spine: KDP's black-and-white interior stocks.
PAPER_STOCK = {"white": 0.002252, "cream": 0.0025}
SPINE_TEXT_PAGES = 79  # KDP: fewer pages than this, no text on the spine
# And a spine narrower than this (in) has, between the folds' clearances, room for type under 6 pt: left blank too.
SPINE_TEXT_WIDTH = 0.25
SPINE_CLEARANCE = 0.0625  # in: spine text keeps this far from each fold
COVER_SAFE = 0.125  # in: cover text keeps this far inside the trim
BARCODE = (2.0, 1.2)  # in (width, height): the zone KDP prints its barcode in, at the back cover's foot
BARCODE_INSET = 0.25  # in: from the back cover's bottom edge and from the spine
COVER_CREAM = "#fdf8ec"  # the cover's words, on the book's colour (book.yaml's accent), as print.css prints them
PDF_OPTIONS = {"variant": "pdf/x-4", "links": False, "output_intent": "srgb"}


@dataclass(frozen=True)
class Trim:
    """A trim size: its name as the command takes it, width and height in inches."""

    name: str
    width: float
    height: float


TRIMS = {t.name: t for t in (Trim("5.5x8.5", 5.5, 8.5), Trim("6x9", 6.0, 9.0), Trim("7x10", 7.0, 10.0),
                              Trim("8.5x11", 8.5, 11.0), Trim("A5", 148 / 25.4, 210 / 25.4))}


def gutter(pages: int) -> float:
    """The least inside margin (in) for a book of ``pages`` pages (``GUTTERS``)."""
    for most, inches in GUTTERS:
        if pages <= most:
            return inches
    raise BuildError(f"the book has {pages} pages; a paperback has at most {GUTTERS[-1][0]}")


def spine_width(pages: int, stock: str) -> float:
    """The spine's width (in): the page count times the paper's thickness per page."""
    return pages * PAPER_STOCK[stock]


def spine_has_text(pages: int, stock: str) -> bool:
    """Whether the spine carries the title and author: from ``SPINE_TEXT_PAGES`` pages (KDP's rule), on a spine at
    least ``SPINE_TEXT_WIDTH`` wide (room for legible type)."""
    return pages >= SPINE_TEXT_PAGES and spine_width(pages, stock) >= SPINE_TEXT_WIDTH


class TrimEngine(Engine):
    """The book's engine at a trim size: bleed, mirrored margins whose inside one is ``inside`` (in), PDF/X-4."""

    writer_options = PDF_OPTIONS

    def __init__(self, trim: Trim, inside: float, book: Path | None) -> None:
        super().__init__("letter", book)
        self.trim, self.inside = trim, inside
        if trim.width < SMALL_TRIM:
            self.stylesheets.append(self.asset_css("booklet.css"))
        size = f"{trim.width}in {trim.height}in"
        text_height = trim.height - 2 * HEAD
        self.stylesheets.append(self.css(
            f"@page {{ size: {size}; bleed: {BLEED}in; marks: none; margin-top: {HEAD}in; margin-bottom: {HEAD}in;"
            " @top-left { vertical-align: bottom; padding-bottom: 2mm; } @top-right { vertical-align: bottom; padding-bottom: 2mm; }"
            " @bottom-left { vertical-align: top; padding-top: 2mm; } @bottom-right { vertical-align: top; padding-top: 2mm; } }"
            f" @page sheet-wide {{ size: {size}; }}"
            # The title page is the book's cover without its green: a colour to the edge wants bleed the page box
            # does not give an element, and the real cover is cover.pdf.
            f" @page cover {{ margin: {HEAD}in {OUTSIDE}in; }}"
            f" .cover {{ height: {text_height}in; background: none; color: #111; padding: 0; }}"
            f" .cover-games {{ color: #444; }}"))

    def side_css(self, first_page: int) -> str:
        """Mirrored margins: the gutter inside (left on a right-hand, odd page), the folio outside."""
        recto, verso = (":right", ":left") if first_page % 2 else (":left", ":right")
        inside = f"{self.inside + GUTTER_EXTRA}in"
        folio = 'content: counter(page); font: bold 9pt "Book Sans"; color: #111;'
        edition = 'content: "Edition " string(edition); font: 7pt "Book Sans"; color: #777;'
        return (f"@page {recto} {{ margin-left: {inside}; margin-right: {OUTSIDE}in; @bottom-right {{ {folio} }}"
                f" @bottom-left {{ {edition} }} }}"
                f" @page {verso} {{ margin-left: {OUTSIDE}in; margin-right: {inside}; @bottom-left {{ {folio} }}"
                f" @bottom-right {{ {edition} }} }}")


def page_count(pdf: Path) -> int:
    """How many pages ``pdf`` has."""
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(read_file(pdf, MAX_OUTPUT_BYTES))).pages)


def render_interior(lib: Library, target: Path, trim: Trim, progress: Report = quiet) -> tuple[int, float]:
    """Write the interior to ``target``; return its page count and the gutter (in) it was laid out with.

    The gutter depends on the page count and the page count on the gutter: laid out first with the narrowest, then
    again with the gutter the count asks for, until the gutter it was laid out with is at least that (a wider one
    than the least is still right, so this ends)."""
    if book_index.printed_pages(lib):
        raise BuildError(f"edition {lib.edition.id} is laid out as it was printed (pages_as_printed), on the letter "
                         "book's pages; a print shop's trim lays out an edition that is not")
    inside = GUTTERS[0][1]
    for _ in range(len(GUTTERS)):
        layout = Layout(TrimEngine(trim, inside, lib.root), duplex=True, keep=False, least_pages=LEAST_PAGES)
        render_book(lib, target, layout=layout, progress=progress)
        pages = page_count(target)
        if gutter(pages) <= inside:
            return pages, inside
        inside = gutter(pages)
    raise BuildError("the interior's gutter did not settle")  # each round widens it: cannot happen


def cover_html(lib: Library, trim: Trim, pages: int, stock: str) -> str:
    """The cover as one HTML page: back (edition, the book's description, the barcode's clear zone), spine, front."""
    book, edition = lib.book, lib.edition
    width, height, spine = trim.width, trim.height, spine_width(pages, stock)
    total = 2 * width + spine
    title, author = escape(book.title), escape(book.author)
    about = "".join(f"<p>{escape(paragraph.strip())}</p>" for paragraph in (book.description or "").split("\n\n")
                    if paragraph.strip())
    panel = f"position: absolute; top: 0; height: {height}in; box-sizing: border-box; padding: {SAFE}in;"
    barcode = (f"position: absolute; left: {width - BARCODE_INSET - BARCODE[0]}in; top: {height - BARCODE_INSET - BARCODE[1]}in;"
               f" width: {BARCODE[0]}in; height: {BARCODE[1]}in; background: #fff;")
    spine_html = ""
    if spine_has_text(pages, stock):
        room = spine - 2 * SPINE_CLEARANCE  # across the spine
        length = height - 2 * SAFE  # along it
        size = min(11.0, room * 72 * 0.6)  # the type's size: three fifths of the room across the spine
        spine_html = (f'<div class="spine-text" style="position: absolute; left: {width + spine / 2 - length / 2}in;'
                      f' top: {height / 2 - room / 2}in; width: {length}in; height: {room}in; line-height: {room}in;'
                      f' font-size: {size:.2f}pt; transform: rotate(90deg);">'
                      f'<b>{title}</b> &#160;·&#160; {author}</div>')
    return f"""<!DOCTYPE html>
<html lang="{escape(book.language)}"><head><meta charset="utf-8">
<title>{title}: cover, {escape(edition.label)}</title>
<meta name="author" content="{author}">
<meta name="dcterms.created" content="{escape(edition.date)}T00:00:00Z">
<meta name="dcterms.modified" content="{escape(edition.date)}T00:00:00Z">
<style>
@page {{ size: {total}in {height}in; bleed: {BLEED}in; marks: none; margin: 0; background: {book.accent.lower()};
  @top-left {{ content: none; }} @top-right {{ content: none; }} @bottom-left {{ content: none; }} @bottom-right {{ content: none; }} }}
html, body {{ margin: 0; color: {COVER_CREAM}; font-family: "Book Sans", "Book Symbols", sans-serif; }}
.front h1 {{ font: bold 26pt/1.15 "Book Serif", serif; margin: 1.2in 0 0.3in; }}
.front .author {{ font-size: 13pt; }}
.front .edition, .back .edition {{ font-size: 11pt; }}
.back p {{ font: 10.5pt/1.4 "Book Serif", serif; margin: 0 0 3mm; }}
.spine-text {{ white-space: nowrap; text-align: center; font-family: "Book Sans"; }}
</style></head>
<body>
<div class="back" style="{panel} left: 0; width: {width}in;">
<p class="edition"><b>{title}</b><br>{escape(edition.label)}</p>
{about}
</div>
<div class="barcode-zone" aria-hidden="true" style="{barcode}"></div>
{spine_html}
<div class="front" style="{panel} left: {width + spine}in; width: {width}in; text-align: center;">
<h1>{title}</h1>
<p class="author">{author}</p>
<p class="edition">{escape(edition.label)}</p>
</div>
</body></html>"""


def render_cover(lib: Library, target: Path, trim: Trim, pages: int, stock: str) -> float:
    """Write the cover for an interior of ``pages`` pages on ``stock`` paper to ``target``; return its spine width (in)."""
    if stock not in PAPER_STOCK:
        raise BuildError(f"paper stock {stock!r}: choose one of {', '.join(PAPER_STOCK)}")
    engine = Engine("letter", lib.root)
    with without_cycle_collector():
        document = engine.document(cover_html(lib, trim, pages, stock))
        if len(document.pages) != 1:
            raise BuildError(f"the cover took {len(document.pages)} pages; it is one")
        writer = PdfWriter(engine.fonts, **PDF_OPTIONS)
        writer.add(document.pages[0])
        writer.write(target, document.metadata)
    return spine_width(pages, stock)

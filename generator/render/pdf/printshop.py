"""The book for a print-on-demand service: an interior at a trim size, and a cover of back, spine and front.

Every figure a service states (its interior's bleed, its spine formula per paper, its least pages, its limits on blank
pages and type, its barcode zone) is data in one table, ``SERVICES``, each with the page that states it. The interior
is the book laid out again at the trim (as the booklet is at half its paper: ``book.Layout`` on an engine of its own),
two-sided (a section opens on a right-hand page, a blank before it if need be), with mirrored margins whose inside
one, the gutter, follows the page count (``GUTTERS``), brought to the service's least pages with ruled note pages
(never a long run of blanks), written as PDF/X-4 with no links (``writer.PdfWriter``). A page is the trim alone where
the service takes that when nothing bleeds (KDP), else the trim plus ``BLEED`` on every side; WeasyPrint's
``@page { bleed }`` makes the writer give it its TrimBox and BleedBox. The cover is one page: back, spine (the
service's formula for the page count and paper) and front, with bleed. docs/printing.md gives the table.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import escape

from ...book import index as book_index
from ...book.files import MAX_OUTPUT_BYTES, read_file
from ...book.library import Library
from ...book.words import _
from ...errors import BuildError
from ...progress import Report, quiet
from .book import Layout, render_book
from .fetcher import ASSET_ROOT
from .weasy import Engine, css_string, without_cycle_collector
from .writer import PdfWriter

BLEED = 0.125  # in, each side of the trim that bleeds
# What the layout adds to the least margins: room for the running heads and folios, which sit in the margins
# and must stay in the safe area too, and a gutter a little wider than the least a reader can still open to.
HEAD, OUTSIDE, GUTTER_EXTRA = 0.85, 0.5, 0.125  # in
SMALL_TRIM = 7.0  # in: a narrower trim takes the booklet's smaller type and narrower boxes (booklet.css)
GUTTERS = ((150, 0.375), (300, 0.5), (500, 0.625), (700, 0.75), (828, 0.875))  # KDP's table
POINT = 72.0  # points an inch
SPINE_TYPE_SHARE, SPINE_TYPE_MOST = 0.6, 11.0  # the spine's type: three fifths of its room, 11 pt at most
NOTE_LINE = 0.3  # in between the note pages' rules
RULE = 0.75  # pt on the page: the least rule KDP's guidance says prints (docs/printing.md); 0 (a hairline) too
# Every word the print shop's files print that is not the book's: one place, for the message catalogue.


def words() -> dict[str, str]:
    """The words the interior prints of its own (the notes pages' heading, the footer's 'Edition'), in the book's
    language (book/words.py)."""
    return {"notes": _("Notes"), "edition": _("Edition")}


LIGHTEST = 0.9  # the lightest grey tint a black-and-white page fills with (10 % grey): lighter prints faint or not at all
# The output intent: a printer's characterisation, as PDF/X asks (a display profile, sRGB's, is refused by a strict
# PDF/X-4 validator). Ghostscript's is a CMYK press's (SWOP-like); DeviceGray pages print as black ink on it.
PRINTER_PROFILE = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
PRINTER_CONDITION = "Artifex CMYK SWOP Profile (Ghostscript's default_cmyk.icc)"
SPINE_FONT = "LinBiolinum_RB.otf"  # the spine's face (Book Sans bold), measured to fit the title along it
COVER_PADDING = 0.375  # in: the cover's panels keep their text this far in (more where the service asks)
COVER_CREAM = "#fdf8ec"  # the cover's words, on the book's colour (book.yaml's accent), as print.css prints them
# The writer's sRGB profile defines the ICC-based space (/srgb) the cover's colours are drawn in; its output intent
# is replaced by the printer's (``finish``).
PDF_OPTIONS = {"variant": "pdf/x-4", "links": False, "output_intent": "srgb"}

# Where each figure below is stated. A service's own page where one was found; otherwise the guide that quotes it,
# and docs/printing.md says which figures could not be confirmed on the service's own pages.
KDP_BLEED = "https://kdp.amazon.com/help?topicId=GVBQ3CMEQW3W2VL6"  # Set Trim Size, Bleed, and Margins
KDP_SUBMISSION = "https://kdp.amazon.com/help?topicId=G201857950"  # Paperback Submission Guidelines
KDP_REVIEW = "https://kdp.amazon.com/help?topicId=GYEKAVKMSE23PFTM"  # Paperback Manual Review Checklist
KDP_PAGES_QUOTED = "https://publishing.co.uk/guides/kdp-error-page-count-rules/"
KDP_SPINE_QUOTED = "https://pubscout.app/pages/glossary/spine-width"
KDP_SPINE_TEXT_QUOTED = "https://print.ymirtool.com/guides/kdp-spine-text-requirements/"
KDP_GUTTER_QUOTED = "https://simplelifecalc.com/guides/kdp-bleed-trim-margins-2026"
KDP_COVER_QUOTED = "https://thefastfingers.com/specification-requirements-for-a-createspace-book-cover/"
KDP_BARCODE_QUOTED = "https://www.eenfach.de/gitblit/blame/RedHatTraining!pyramid.git/bostrick-patch-throw_401_for_unauthenticated/docs!coversizing.py"
LULU_BLEED = "https://help.lulu.com/en/support/solutions/articles/64000255584"  # full bleed, safety margin
LULU_SPINE = "https://help.api.lulu.com/en/support/solutions/articles/64000254616"  # how is spine width calculated
LULU_COLOUR = "https://help.lulu.com/en/support/solutions/articles/64000255590"  # interior formatting FAQ
LULU_PAGES = "https://www.scribd.com/document/513281500/lulu-spine-width-calculator"  # Lulu's spine width PDF
LULU_TRIMS = "https://blog.lulu.com/choosing-the-right-book-size/"
INGRAM_FILES = "https://www.ingramspark.com/blog/file-requirements-for-print-books"


@dataclass(frozen=True)
class Service:
    """A print-on-demand service's figures for a black-and-white paperback (in inches unless named otherwise).

    ``interior_bleed``: "none" (the page is the trim: KDP's when nothing bleeds) or "all" (``BLEED`` round every
    side). The spine is ``pages * per_page[stock] + spine_extra``, or ``pages / ppi[stock] + spine_extra``;
    ``spine_text_pages`` None: the service states no page count, the 7 pt rule alone decides. ``barcode`` (width,
    height, inset from the back's foot and the spine), None where the service states no zone. ``sources``: each
    figure's page."""

    name: str
    label: str
    interior_bleed: str
    safe: float  # text keeps this far inside the trim (outside, top and bottom; the gutter inside)
    least_pages: int
    most_pages: dict[str, int] | None
    per_page: dict[str, float] | None
    ppi: dict[str, float] | None
    spine_extra: float
    blank_run_inside: int | None  # blank pages in a row before the last page with ink
    blank_run_end: int | None  # blank pages in a row at the end
    least_type: float  # pt
    spine_text_pages: int | None
    spine_clearance: float
    cover_safe: float
    barcode: tuple[float, float, float] | None
    sources: dict[str, str]


SERVICES = {s.name: s for s in (
    Service("kdp", "Amazon KDP", interior_bleed="none", safe=0.25, least_pages=24,
            most_pages={"white": 828, "cream": 776}, per_page={"white": 0.002252, "cream": 0.0025}, ppi=None,
            spine_extra=0.0, blank_run_inside=2, blank_run_end=10, least_type=7.0, spine_text_pages=79,
            spine_clearance=0.0625, cover_safe=0.125, barcode=(2.0, 1.2, 0.25),
            sources={"interior bleed (none, or the outside edge only)": KDP_BLEED,
                     "least pages": KDP_SUBMISSION, "spine per page, white": KDP_SUBMISSION,
                     "spine per page, cream": KDP_SPINE_QUOTED, "most pages": KDP_PAGES_QUOTED,
                     "blank pages in a row, text at least 7 pt, one title": KDP_REVIEW,
                     "spine text from 79 pages": KDP_SPINE_TEXT_QUOTED, "gutter by page count": KDP_GUTTER_QUOTED,
                     "safe margins (0.25 in without bleed)": KDP_BLEED,
                     "spine clearance, cover text inside the trim": KDP_COVER_QUOTED,
                     "barcode zone": KDP_BARCODE_QUOTED}),
    Service("lulu", "Lulu", interior_bleed="all", safe=0.5, least_pages=32, most_pages=None, per_page=None,
            ppi={"white": 444, "cream": 444}, spine_extra=0.06, blank_run_inside=None, blank_run_end=None,
            least_type=7.0, spine_text_pages=None, spine_clearance=0.0625, cover_safe=0.5, barcode=None,
            sources={"interior bleed all round, safety margin 0.5 in": LULU_BLEED,
                     "spine: pages / 444 + 0.06 in": LULU_SPINE, "least pages (paperback)": LULU_PAGES,
                     "black and white in greyscale": LULU_COLOUR, "trims": LULU_TRIMS}),
    Service("ingram", "IngramSpark", interior_bleed="all", safe=0.5, least_pages=24, most_pages=None,
            per_page=None, ppi=None, spine_extra=0.0, blank_run_inside=None, blank_run_end=None, least_type=7.0,
            spine_text_pages=None, spine_clearance=0.0625, cover_safe=0.5, barcode=None,
            sources={"margins 0.5 in inside the trim, no marks, single pages": INGRAM_FILES}),
)}


STOCKS = ("white", "cream")  # the black-and-white papers every service here offers


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


def spine_width(pages: int, stock: str, service: Service) -> float:
    """The spine's width (in) by the service's formula for ``pages`` pages on ``stock`` paper."""
    if service.per_page is not None:
        return pages * service.per_page[stock] + service.spine_extra
    if service.ppi is not None:
        return pages / service.ppi[stock] + service.spine_extra
    raise BuildError(f"{service.label}'s spine width per paper could not be confirmed from its own pages: take it "
                     "from its cover template generator (docs/printing.md)")


def print_title(lib: Library) -> str:
    """The book's one title in print: as its title page prints it (templates/print/book.html.j2), which the cover,
    the spine and both files' metadata say too; the edition's label goes apart, as the subtitle."""
    return f"{lib.book.title} {lib.edition.year}"


@functools.cache
def _advances() -> tuple[dict[int, str], dict[str, tuple[int, int]], int]:
    """The spine's bold face's character map, its advance widths and its units an em (read through the door)."""
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(read_file(ASSET_ROOT / "fonts" / SPINE_FONT)))
    return font.getBestCmap(), font["hmtx"].metrics, font["head"].unitsPerEm


def text_length(text: str, size: float) -> float:
    """How long ``text`` is (in) set in the spine's bold face at ``size`` pt (a character it lacks counted as an em)."""
    cmap, metrics, em = _advances()
    units = sum(metrics[cmap[ord(c)]][0] if ord(c) in cmap else em for c in text)
    return units / em * size / POINT


def spine_words(lib: Library, trim: Trim, pages: int, stock: str, service: Service) -> tuple[str, float, str]:
    """What the spine says, at what size (pt), and a line saying which: the title and author, the title alone, the
    title shortened by its last words, or nothing (a spine too thin or short for type of ``least_type``)."""
    size = spine_type(pages, stock, service)
    if size is None:
        reason = (_("under %(pages)s pages", pages=service.spine_text_pages) if service.spine_text_pages is not None
                  and pages < service.spine_text_pages
                  else _("too thin for %(size)s pt type", size=f"{service.least_type:g}"))
        return "", 0.0, _("no spine text: the spine is %(reason)s", reason=reason)
    room = trim.height - 2 * max(service.cover_safe, COVER_PADDING)
    title, author = print_title(lib), lib.book.author
    if text_length(f"{title}  ·  {author}", size) <= room:
        return f"{title}  ·  {author}", size, _("the title and author on the spine at %(size)s pt", size=f"{size:g}")
    words = title.split()
    for keep in range(len(words), 0, -1):
        shortened = " ".join(words[:keep]) + ("" if keep == len(words) else "…")
        if text_length(shortened, size) <= room:
            if keep == len(words):
                return shortened, size, _("the title on the spine at %(size)s pt", size=f"{size:g}")
            return shortened, size, _("the title shortened to %(title)s on the spine at %(size)s pt",
                                      title=repr(shortened), size=f"{size:g}")
    return "", 0.0, _("no spine text: not one word of the title fits along it")


def spine_type(pages: int, stock: str, service: Service) -> float | None:
    """The size (pt) the spine's title is set at, or None when the spine carries none: fewer pages than the service
    allows text at, or a spine whose room between the folds' clearances holds type under ``least_type``."""
    if service.spine_text_pages is not None and pages < service.spine_text_pages:
        return None
    room = spine_width(pages, stock, service) - 2 * service.spine_clearance
    size = min(SPINE_TYPE_MOST, room * POINT * SPINE_TYPE_SHARE)
    return round(size, 2) if size >= service.least_type else None


class TrimEngine(Engine):
    """The book's engine at a trim size: ``bleed`` (in) round the trim, mirrored margins whose inside one is
    ``inside`` (in), PDF/X-4."""

    writer_options = PDF_OPTIONS

    def __init__(self, trim: Trim, inside: float, book: Path | None, bleed: float = BLEED, safe: float = 0.0) -> None:
        super().__init__("letter", book)
        # A margin is the service's safe one and GUTTER_EXTRA more, at least OUTSIDE: text never sits on the line.
        self.trim, self.inside, self.outside = trim, max(inside, safe), max(OUTSIDE, safe + GUTTER_EXTRA)
        if trim.width < SMALL_TRIM:
            self.stylesheets.append(self.asset_css("booklet.css"))
        size = f"{trim.width}in {trim.height}in"
        text_height = trim.height - 2 * HEAD
        self.stylesheets.append(self.css(
            f"@page {{ size: {size}; bleed: {bleed}in; marks: none; margin-top: {HEAD}in; margin-bottom: {HEAD}in;"
            " @top-left { vertical-align: bottom; padding-bottom: 2mm; } @top-right { vertical-align: bottom; padding-bottom: 2mm; }"
            " @bottom-left { vertical-align: top; padding-top: 2mm; } @bottom-right { vertical-align: top; padding-top: 2mm; } }"
            f" @page sheet-wide {{ size: {size}; }}"
            # The title page is the book's cover without its green: a colour to the edge wants bleed the page box
            # does not give an element, and the real cover is cover.pdf.
            f" @page cover {{ margin: {HEAD}in {self.outside}in; }}"
            f" .cover {{ height: {text_height}in; background: none; color: #111; padding: 0; }}"
            f" .cover-games {{ color: #444; }}"
            # A ruled note page fills one page: its lines stop short of the foot, whatever the trim.
            f" .notes-page {{ page: blank; height: {text_height}in; overflow: hidden; }}"
            " .notes-page + .notes-page { break-before: page; }"
            f" .notes-page p {{ font: bold 11pt \"Book Sans\"; margin: 0 0 {NOTE_LINE}in; }}"
            f" .notes-page div {{ height: {NOTE_LINE}in; border-bottom: {RULE}pt solid #808080; }}"))

    def notes_page(self) -> str:
        """One ruled page for the reader's notes (our own markup): what a bound book is brought to its least pages
        with, in place of blanks."""
        lines = int((self.trim.height - 2 * HEAD) / NOTE_LINE) - 3
        return f'<section class="notes-page"><p>{escape(words()["notes"])}</p>{"<div></div>" * lines}</section>'

    def side_css(self, first_page: int) -> str:
        """Mirrored margins: the gutter inside (left on a right-hand, odd page), the folio outside."""
        recto, verso = (":right", ":left") if first_page % 2 else (":left", ":right")
        inside = f"{self.inside + GUTTER_EXTRA}in"
        folio = 'content: counter(page); font: bold 9pt "Book Sans"; color: #111;'
        edition = f'content: "{css_string(words()["edition"])} " string(edition); font: 7pt "Book Sans"; color: #666;'
        return (f"@page {recto} {{ margin-left: {inside}; margin-right: {self.outside}in; @bottom-right {{ {folio} }}"
                f" @bottom-left {{ {edition} }} }}"
                f" @page {verso} {{ margin-left: {self.outside}in; margin-right: {inside}; @bottom-left {{ {folio} }}"
                f" @bottom-right {{ {edition} }} }}")


def page_count(pdf: Path) -> int:
    """How many pages ``pdf`` has."""
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(read_file(pdf, MAX_OUTPUT_BYTES))).pages)


def render_interior(lib: Library, target: Path, trim: Trim, service: Service, grey: bool = True,
                    progress: Report = quiet) -> tuple[int, float]:
    """Write the interior for ``service`` to ``target``; return its page count and the gutter (in) it was laid out
    with.

    The gutter depends on the page count and the page count on the gutter: laid out first with the narrowest, then
    again with the gutter the count asks for, until the gutter it was laid out with is at least that (a wider one
    than the least is still right, so this ends)."""
    if book_index.printed_pages(lib):
        raise BuildError(f"edition {lib.edition.id} is laid out as it was printed (pages_as_printed), on the letter "
                         "book's pages; a print shop's trim lays out an edition that is not")
    bleed = BLEED if service.interior_bleed == "all" else 0.0  # nothing in the interior bleeds
    inside = GUTTERS[0][1]
    for _attempt in range(len(GUTTERS)):
        engine = TrimEngine(trim, inside, lib.root, bleed, service.safe)
        layout = Layout(engine, duplex=True, keep=False, least_pages=service.least_pages, filler=engine.notes_page())
        render_book(lib, target, layout=layout, progress=progress)
        pages = page_count(target)
        if gutter(pages) <= inside:
            finish(target, grey, print_title(lib))
            return pages, inside
        inside = gutter(pages)
    raise BuildError("the interior's gutter did not settle")  # each round widens it: cannot happen


def cover_html(lib: Library, trim: Trim, pages: int, stock: str, service: Service) -> str:
    """The cover as one HTML page: back (the title, the book's description), spine, front. The barcode's zone is left
    clear by the back's text ending above it (the service prints the barcode; nothing is painted there)."""
    book, edition = lib.book, lib.edition
    width, height, spine = trim.width, trim.height, spine_width(pages, stock, service)
    total = 2 * width + spine
    title, author = escape(print_title(lib)), escape(book.author)
    about = "".join(f"<p>{escape(paragraph.strip())}</p>" for paragraph in (book.description or "").split("\n\n")
                    if paragraph.strip())
    safe = max(service.cover_safe, COVER_PADDING)
    panel = f"position: absolute; top: 0; height: {height}in; box-sizing: border-box; padding: {safe}in;"
    back_bottom = safe if service.barcode is None else max(safe, service.barcode[1] + service.barcode[2] + 0.1)
    spine_html = ""
    words, size, _ = spine_words(lib, trim, pages, stock, service)
    if words:
        room = spine - 2 * service.spine_clearance  # across the spine
        length = height - 2 * safe  # along it
        spine_html = (f'<div class="spine-text" style="position: absolute; left: {width + spine / 2 - length / 2}in;'
                      f' top: {height / 2 - room / 2}in; width: {length}in; height: {room}in; line-height: {room}in;'
                      f' font-size: {size:.2f}pt; transform: rotate(90deg);">{escape(words)}</div>')
    return f"""<!DOCTYPE html>
<html lang="{escape(book.language)}"><head><meta charset="utf-8">
<title>{title}</title>
<meta name="author" content="{author}">
<meta name="description" content="{escape(edition.label)}">
<meta name="dcterms.created" content="{escape(edition.date)}T00:00:00Z">
<meta name="dcterms.modified" content="{escape(edition.date)}T00:00:00Z">
<style>
@page {{ size: {total}in {height}in; bleed: {BLEED}in; marks: none; margin: 0; background: {book.accent.lower()};
  @top-left {{ content: none; }} @top-right {{ content: none; }} @bottom-left {{ content: none; }} @bottom-right {{ content: none; }} }}
html, body {{ margin: 0; color: {COVER_CREAM}; font-family: "Book Sans", "Book Symbols", sans-serif; }}
.front h1 {{ font: bold 26pt/1.15 "Book Serif", serif; margin: 1.2in 0 0.3in; }}
.front .author {{ font-size: 13pt; }}
.front .edition, .back .edition {{ font-size: 11pt; }}
.back {{ padding-bottom: {back_bottom}in !important; overflow: hidden; }}
.back p {{ font: 10.5pt/1.4 "Book Serif", serif; margin: 0 0 3mm; }}
.spine-text {{ white-space: pre; text-align: center; font-family: "Book Sans"; font-weight: bold; }}
</style></head>
<body>
<div class="back" style="{panel} left: 0; width: {width}in;">
<p class="edition"><b>{title}</b><br>{escape(edition.label)}</p>
{about}
</div>
{spine_html}
<div class="front" style="{panel} left: {width + spine}in; width: {width}in; text-align: center;">
<h1>{title}</h1>
<p class="author">{author}</p>
<p class="edition">{escape(edition.label)}</p>
</div>
</body></html>"""


def render_cover(lib: Library, target: Path, trim: Trim, pages: int, stock: str, service: Service) -> float:
    """Write the cover for an interior of ``pages`` pages on ``stock`` paper to ``target``; return its spine width (in)."""
    if service.per_page is not None and stock not in service.per_page or service.ppi is not None and stock not in service.ppi:
        raise BuildError(f"paper stock {stock!r}: {service.label} offers {', '.join(service.per_page or service.ppi or ())}")
    spine_width(pages, stock, service)  # a service whose spine is not known is refused before anything is laid out
    engine = Engine("letter", lib.root)
    with without_cycle_collector():
        document = engine.document(cover_html(lib, trim, pages, stock, service))
        if len(document.pages) != 1:
            raise BuildError(f"the cover took {len(document.pages)} pages; it is one")
        writer = PdfWriter(engine.fonts, **PDF_OPTIONS)
        writer.add(document.pages[0])
        writer.write(target, document.metadata)
    finish(target, False, print_title(lib))
    return spine_width(pages, stock, service)


def _grey(r: float, g: float, b: float) -> float:
    """The grey of an sRGB colour's lightness (its relative luminance, coded back as sRGB is): a colour that printed
    darker than another stays darker. A tint lighter than ``LIGHTEST`` but not paper white is made ``LIGHTEST``."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    y = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    grey = 12.92 * y if y <= 0.0031308 else 1.055 * y ** (1 / 2.4) - 0.055
    grey = round(min(1.0, max(0.0, grey)), 4)
    return LIGHTEST if LIGHTEST < grey < 1.0 else grey


def scale_of(operands: Any) -> float:
    """How much a ``cm`` with these operands scales a length (the square root of its determinant)."""
    a, b, c, d = (float(v) for v in operands[:4])
    return abs(a * d - b * c) ** 0.5


def _repaint(pdf: Any, content: Any, resources: Any, grey: bool, seen: set[tuple[int, int]],
             scale: float = 1.0) -> None:
    """Rewrite one content stream and the forms it draws: every DeviceRGB colour a grey (``grey``) or the same
    colour in the ICC-based sRGB space the writer defines (``/srgb``), every rule at least ``RULE`` pt wide on the
    page (a line width is in the units of the transformation it is drawn under: WeasyPrint's are CSS pixels)."""
    import pikepdf

    out, stack = [], []
    for operands, operator in pikepdf.parse_content_stream(content):
        op = str(operator)
        if op == "q":
            stack.append(scale)
        elif op == "Q" and stack:
            scale = stack.pop()
        elif op == "cm":
            scale *= scale_of(operands)
        if op in ("rg", "RG"):
            r, g, b = (float(v) for v in operands)
            if grey:
                out.append(([_grey(r, g, b)], pikepdf.Operator("g" if op == "rg" else "G")))
            else:
                out.append(([pikepdf.Name("/srgb")], pikepdf.Operator("cs" if op == "rg" else "CS")))
                out.append(([r, g, b], pikepdf.Operator("sc" if op == "rg" else "SC")))
            continue
        if op == "w" and float(operands[0]) * scale < RULE:
            operands = [round(RULE / scale, 4)]
        elif op == "Do" and resources is not None:
            xobject = (resources.get("/XObject") or {}).get(str(operands[0]))
            if xobject is not None and xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                seen.add(xobject.objgen)
                matrix = scale_of(xobject.get("/Matrix", [1, 0, 0, 1, 0, 0]))
                _repaint(pdf, xobject, xobject.get("/Resources") or resources, grey, seen, scale * matrix)
        out.append((operands, operator))
    data = pikepdf.unparse_content_stream(out)
    if isinstance(content, pikepdf.Page):
        content.obj.Contents = pdf.make_stream(data)  # one stream for the page's several
    else:
        content.write(data)


def printer_profile() -> bytes:
    """The printer's characterisation the files' output intent carries: Ghostscript's CMYK profile (device class
    ``prtr``), read from the installed ghostscript package, never shipped in ours (its licence is Ghostscript's)."""
    try:
        return read_file(PRINTER_PROFILE, MAX_OUTPUT_BYTES)
    except BuildError as exc:
        raise BuildError(f"{exc}: the print files' output intent is Ghostscript's printer profile; install the "
                         "ghostscript package (.ci/system-packages)") from None


def finish(path: Path, grey: bool, title: str) -> None:
    """Make the PDF the writer wrote at ``path`` a print file: its colours greys (``grey``: a black-and-white
    interior) or colour-managed sRGB, its rules ``RULE`` wide at least, its output intent a printer's, and its
    metadata's title ``title`` (the book's one title, ``print_title``)."""
    import pikepdf

    profile = printer_profile()
    with pikepdf.open(io.BytesIO(read_file(path, MAX_OUTPUT_BYTES))) as pdf:
        seen: set[tuple[int, int]] = set()
        for page in pdf.pages:
            _repaint(pdf, page, page.obj.get("/Resources"), grey, seen)
        stream = pdf.make_stream(profile, N=4)
        pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String("Custom"), RegistryName=pikepdf.String("http://www.color.org"),
            Info=pikepdf.String(PRINTER_CONDITION), DestOutputProfile=stream))])
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
            meta["dc:title"] = title
        pdf.docinfo["/Title"] = pikepdf.String(title)
        pdf.remove_unreferenced_resources()
        pdf.save(path, deterministic_id=True, compress_streams=True,
                 stream_decode_level=pikepdf.StreamDecodeLevel.generalized)

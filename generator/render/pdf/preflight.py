"""A print shop's preflight, run on the files ``rulebook print-shop`` wrote: read back as a service reads them.

Each check is a named item (``preflight.<item>``) that passes or fails with one line, as a problem (``errors.Problem``)
that passed or is an error. The interior: every page's boxes (TrimBox at the trim, BleedBox), its bleed, the PDF/X identification, the output intent, every font embedded,
every word inside the safe area (the trim less ``SAFE``, less the gutter the page count asks for on the inside),
an even count of at least ``LEAST_PAGES``, no annotation and no form field. The cover: the same, its safe areas
(back and front ``COVER_SAFE`` inside the trim, the spine's text clear of the folds, nothing in the barcode's zone,
no text on a spine too thin for it), and one page as wide as two trims and the spine the interior's page count
makes. The files are read with pypdf (the objects) and PDFium (where the text is drawn), not with what wrote them.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...book.files import MAX_OUTPUT_BYTES, read_file
from ...errors import Problem
from .printshop import (
    BARCODE,
    BARCODE_INSET,
    BLEED,
    COVER_SAFE,
    LEAST_PAGES,
    SAFE,
    SPINE_CLEARANCE,
    SPINE_TEXT_PAGES,
    SPINE_TEXT_WIDTH,
    Trim,
    gutter,
    spine_has_text,
    spine_width,
)

POINT = 72.0  # points an inch
TOLERANCE = 0.5  # pt: how far a box may be from where it should be (rounding in the writer)
ITEMS = ("boxes", "bleed", "pdfx", "output-intent", "fonts", "safe-area", "pages", "annotations", "spine")


def _passed(item: str, message: str) -> Problem:
    """An item of the preflight that passed (``preflight.<item>``), with what was found; its file is set by
    ``check_interior`` or ``check_cover``."""
    return Problem("", 0, f"preflight.{item}", message, "passed")


def _failed(item: str, message: str) -> Problem:
    """An item of the preflight that failed: an error, saying what was found."""
    return Problem("", 0, f"preflight.{item}", message, "error")


def _box(page: Any, key: str) -> tuple[float, float, float, float] | None:
    """The page's ``key`` box as (x0, y0, x1, y1), or None if the page has none of its own."""
    if key not in page:
        return None
    x0, y0, x1, y1 = (float(v) for v in page[key])
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE


def boxes(reader: Any, width: float | None, height: float) -> Problem:
    """Every page has a TrimBox of ``width`` (None: any; the cover's is the spine's item) x ``height`` inches and a
    BleedBox."""
    size = (0.0, 0.0)
    for n, page in enumerate(reader.pages, 1):
        trim = _box(page, "/TrimBox")
        if trim is None or _box(page, "/BleedBox") is None:
            return _failed("boxes", f"page {n} has no {'TrimBox' if trim is None else 'BleedBox'}: a service "
                                          "cannot tell where it is cut")
        found = ((trim[2] - trim[0]) / POINT, (trim[3] - trim[1]) / POINT)
        if not ((width is None or _near(found[0] * POINT, width * POINT)) and _near(found[1] * POINT, height * POINT)):
            want = f"{width:.3f}" if width is not None else f"{found[0]:.3f}"
            return _failed("boxes", f"page {n}'s TrimBox is {found[0]:.3f} x {found[1]:.3f} in, not "
                                          f"{want} x {height:.3f} in")
        size = found
    return _passed("boxes", f"TrimBox {size[0]:.3f} x {size[1]:.3f} in and BleedBox on all "
                                 f"{len(reader.pages)} pages")


def bleed(reader: Any) -> Problem:
    """Every page's BleedBox is its TrimBox and BLEED on each side, inside its MediaBox."""
    for n, page in enumerate(reader.pages, 1):
        trim, bleeds, media = _box(page, "/TrimBox"), _box(page, "/BleedBox"), _box(page, "/MediaBox")
        if trim is None or bleeds is None or media is None:
            return _failed("bleed", f"page {n} has no TrimBox or BleedBox to measure its bleed from")
        sides = (trim[0] - bleeds[0], trim[1] - bleeds[1], bleeds[2] - trim[2], bleeds[3] - trim[3])
        if not all(_near(side, BLEED * POINT) for side in sides):
            return _failed("bleed", f"page {n}'s bleed is {', '.join(f'{s / POINT:.3f}' for s in sides)} in "
                                          f"(left, bottom, right, top), not {BLEED} in on each side")
        if not (media[0] <= bleeds[0] + TOLERANCE and media[1] <= bleeds[1] + TOLERANCE
                and media[2] >= bleeds[2] - TOLERANCE and media[3] >= bleeds[3] - TOLERANCE):
            return _failed("bleed", f"page {n}'s MediaBox does not hold its BleedBox: the bleed is not drawn")
    return _passed("bleed", f"{BLEED} in on each side of every page")


def pdfx(reader: Any) -> Problem:
    """The file says it is PDF/X-4 (its XMP's GTS_PDFXVersion), is PDF 1.6 or later, and says whether it is trapped."""
    root = reader.trailer["/Root"]
    xmp = root["/Metadata"].get_data().decode("utf-8", "replace") if "/Metadata" in root else ""
    found = re.search(r"GTS_PDFXVersion>([^<]*)<", xmp) or re.search(r'GTS_PDFXVersion="([^"]*)"', xmp)
    if found is None:
        return _failed("pdfx", "the XMP metadata names no PDF/X version (pdfxid:GTS_PDFXVersion)")
    if not found[1].startswith("PDF/X-4"):
        return _failed("pdfx", f"the file says it is {found[1]}, not PDF/X-4")
    version = reader.pdf_header.removeprefix("%PDF-")
    if tuple(int(v) for v in version.split(".")[:2]) < (1, 6):
        return _failed("pdfx", f"PDF {version}: PDF/X-4 is PDF 1.6")
    if (reader.trailer.get("/Info") or {}).get("/Trapped") not in ("/True", "/False"):
        return _failed("pdfx", "the document information does not say whether the file is trapped (/Trapped)")
    return _passed("pdfx", f"{found[1]}, PDF {version}")


def output_intent(reader: Any) -> Problem:
    """The catalog has a PDF/X output intent carrying an ICC profile."""
    intents = reader.trailer["/Root"].get("/OutputIntents") or []
    for intent in intents:
        intent = intent.get_object()
        if intent.get("/S") != "/GTS_PDFX":
            continue
        profile = intent.get("/DestOutputProfile")
        data = profile.get_object().get_data() if profile is not None else b""
        if data[36:40] != b"acsp":
            return _failed("output-intent", "the PDF/X output intent's DestOutputProfile is not an ICC profile")
        return _passed("output-intent", f"{intent.get('/OutputConditionIdentifier', '')} (ICC profile embedded)")
    return _failed("output-intent", "no PDF/X output intent (/OutputIntents with /S /GTS_PDFX)")


def _fonts(resources: Any, seen: set[int]) -> Iterator[Any]:
    """The fonts ``resources`` uses, and those of the forms it draws, each once."""
    if resources is None:
        return
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        yield font.get_object()
    for xobject in (resources.get("/XObject") or {}).values():
        ref = getattr(xobject, "idnum", None)
        if ref in seen:
            continue
        seen.add(ref)
        form = xobject.get_object()
        if form.get("/Subtype") == "/Form":
            yield from _fonts(form.get("/Resources"), seen)


def _embedded(font: Any) -> bool:
    if font.get("/Subtype") == "/Type3":  # drawn by its own glyph procedures: nothing to embed
        return True
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(key in descriptor.get_object()
                                          for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def fonts(reader: Any) -> Problem:
    """Every font any page uses has its font file in the PDF."""
    seen: set[int] = set()
    names = set()
    for n, page in enumerate(reader.pages, 1):
        for font in _fonts(page.get("/Resources"), seen):
            name = str(font.get("/BaseFont", "?"))
            if not _embedded(font):
                return _failed("fonts", f"page {n} uses {name.lstrip('/')}, which is not embedded")
            names.add(name)
    return _passed("fonts", f"{len(names)} fonts, all embedded")


def page_count(reader: Any) -> Problem:
    """An even number of pages, at least LEAST_PAGES."""
    count = len(reader.pages)
    if count % 2 or count < LEAST_PAGES:
        return _failed("pages", f"{count} pages: a bound book has an even number, at least {LEAST_PAGES}")
    return _passed("pages", f"{count} pages")


def annotations(reader: Any) -> Problem:
    """No page has an annotation (a link, a form field's widget) and the document has no form."""
    for n, page in enumerate(reader.pages, 1):
        annots = page.get("/Annots")
        annots = annots.get_object() if annots is not None else []  # an array, or a reference to one
        if annots:
            kinds = sorted({str(a.get_object().get("/Subtype", "?")).lstrip("/") for a in annots})
            return _failed("annotations", f"page {n} has {len(annots)} annotations ({', '.join(kinds)}): "
                                                "a printed page has none")
    form = reader.trailer["/Root"].get("/AcroForm")
    if form is not None and form.get_object().get("/Fields"):
        return _failed("annotations", "the document has form fields: a printed book has none")
    return _passed("annotations", "no annotations, no form fields")


def text_boxes(path: Path) -> Iterator[tuple[int, tuple[float, float], str, tuple[float, float, float, float]]]:
    """Every run of text PDFium finds: (page number, the page's TrimBox origin, its text, its box in points)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        for n in range(len(document)):
            page = document[n]
            trim = page.get_trimbox()
            text = page.get_textpage()
            for i in range(text.count_rects()):
                left, bottom, right, top = text.get_rect(i)
                words = text.get_text_bounded(left, bottom, right, top).strip()
                if words:
                    yield n + 1, (trim[0], trim[1]), words, (left, bottom, right, top)
            text.close()
            page.close()
    finally:
        document.close()


def _outside(box: tuple[float, float, float, float], area: tuple[float, float, float, float]) -> str:
    """Which edge of ``area`` the ``box`` crosses, and by how much (in); empty if it is inside."""
    crossed = [(area[0] - box[0], "left"), (area[1] - box[1], "bottom"), (box[2] - area[2], "right"),
               (box[3] - area[3], "top")]
    over, edge = max(crossed)
    return f"{over / POINT:.3f} in past the safe area's {edge} edge" if over > TOLERANCE else ""


def interior_safe_area(path: Path, trim: Trim, pages: int) -> Problem:
    """Every word inside the trim less SAFE at the top, bottom and outside, less the gutter on the inside."""
    inside, outside = gutter(pages) * POINT, SAFE * POINT
    width, height = trim.width * POINT, trim.height * POINT
    words = 0
    for n, (x, y), text, box in text_boxes(path):
        left, right = (inside, outside) if n % 2 else (outside, inside)  # an odd page is a right-hand one
        area = (x + left, y + outside, x + width - right, y + height - outside)
        words += 1
        if where := _outside(box, area):
            return _failed("safe-area", f"page {n}: {_quote(text)} is {where} (trim less {SAFE} in, "
                                              f"{gutter(pages)} in on the inside)")
    return _passed("safe-area", f"{words} lines of text inside the safe area (trim less {SAFE} in, gutter "
                                     f"{gutter(pages)} in)")


def _quote(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def cover_safe_area(path: Path, trim: Trim, pages: int, stock: str) -> Problem:
    """Every word on the back or the front COVER_SAFE inside the trim, or on the spine clear of its folds (and only
    on a spine wide enough for text), and none in the barcode's zone."""
    spine = spine_width(pages, stock) * POINT
    width, height, safe, clear = trim.width * POINT, trim.height * POINT, COVER_SAFE * POINT, SPINE_CLEARANCE * POINT
    words = 0
    for _, (x, y), text, box in text_boxes(path):
        words += 1
        panels = {"back": (x + safe, y + safe, x + width - safe, y + height - safe),
                  "front": (x + width + spine + safe, y + safe, x + 2 * width + spine - safe, y + height - safe)}
        if spine_has_text(pages, stock):
            panels["spine"] = (x + width + clear, y + safe, x + width + spine - clear, y + height - safe)
        if not any(not _outside(box, area) for area in panels.values()):
            centre = (box[0] + box[2]) / 2 - x
            panel = "back" if centre < width else "spine" if centre < width + spine else "front"
            if panel == "spine" and "spine" not in panels:
                return _failed("safe-area", f"{_quote(text)} is on the spine of a {pages}-page book on {stock} "
                                                  f"paper: too thin for text (at least {SPINE_TEXT_PAGES} pages and "
                                                  f"{SPINE_TEXT_WIDTH} in)")
            return _failed("safe-area", f"{_quote(text)} is {_outside(box, panels[panel])} of the {panel}")
        zone = (x + width - (BARCODE_INSET + BARCODE[0]) * POINT, y + BARCODE_INSET * POINT,
                x + width - BARCODE_INSET * POINT, y + (BARCODE_INSET + BARCODE[1]) * POINT)
        if box[0] < zone[2] and box[2] > zone[0] and box[1] < zone[3] and box[3] > zone[1]:
            return _failed("safe-area", f"{_quote(text)} is in the barcode's zone ({BARCODE[0]} x {BARCODE[1]} in)")
    return _passed("safe-area", f"{words} lines of text inside the cover's safe areas, the barcode's zone clear")


def spine(reader: Any, trim: Trim, pages: int, stock: str) -> Problem:
    """The cover is one page whose trim is two trims and the spine the interior's page count makes wide, a trim high."""
    if len(reader.pages) != 1:
        return _failed("spine", f"the cover has {len(reader.pages)} pages: it is one, back, spine and front")
    box = _box(reader.pages[0], "/TrimBox")
    if box is None:
        return _failed("spine", "the cover has no TrimBox to measure its spine from")
    want = spine_width(pages, stock)
    found = (box[2] - box[0]) / POINT - 2 * trim.width
    if abs(found - want) > TOLERANCE / POINT or not _near(box[3] - box[1], trim.height * POINT):
        return _failed("spine", f"the spine is {found:.4f} in wide and the cover {(box[3] - box[1]) / POINT:.3f} "
                                      f"in high; {pages} pages on {stock} paper make {want:.4f} in, "
                                      f"the trim {trim.height:.3f} in")
    return _passed("spine", f"{want:.4f} in ({pages} pages x {stock} paper), "
                                 f"{'with' if spine_has_text(pages, stock) else 'no'} spine text")


def check_interior(path: Path, trim: Trim) -> list[Problem]:
    """Every item of the preflight on the interior at ``path``."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(read_file(path, MAX_OUTPUT_BYTES)))
    pages = len(reader.pages)
    return [replace(item, path=str(path)) for item in (
        boxes(reader, trim.width, trim.height), bleed(reader), pdfx(reader), output_intent(reader), fonts(reader),
        interior_safe_area(path, trim, pages), page_count(reader), annotations(reader))]


def check_cover(path: Path, trim: Trim, pages: int, stock: str) -> list[Problem]:
    """Every item of the preflight on the cover at ``path``, for an interior of ``pages`` pages on ``stock`` paper."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(read_file(path, MAX_OUTPUT_BYTES)))
    return [replace(item, path=str(path)) for item in (
        boxes(reader, None, trim.height), bleed(reader), pdfx(reader), output_intent(reader), fonts(reader),
        cover_safe_area(path, trim, pages, stock), annotations(reader), spine(reader, trim, pages, stock))]

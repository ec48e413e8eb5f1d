"""A print shop's preflight: an interior and a cover read back as a service reads them, wherever they were made.

Each check is a named item (``preflight.<item>``) that passes or fails with one line, as a problem (``errors.Problem``)
that passed or is an error. The files are read with pikepdf (the objects: boxes, metadata, output intents, fonts,
annotations, what the pages paint with) and PDFium (where the text is drawn, and each page rendered at ``DPI`` to see
where the ink is), never with what wrote them. A file that cannot be read, or is encrypted, is one failed item and the
rest are not run on it. ``ITEMS`` names them; docs/printing.md says what each measures against which service's figure.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ...book.files import MAX_OUTPUT_BYTES, read_file
from ...book.words import N_, _, n_
from ...errors import Problem, RulebookError
from .printshop import BLEED, GUTTERS, POINT, Service, Trim, gutter, spine_type, spine_width

DPI = 150  # the ink is measured on pages rendered this fine: a pixel is under 0.5 pt
TOLERANCE = 0.5  # pt: how far a box may be from where it should be (rounding in the writer)
INK = 24  # a pixel this much darker than paper white (of 255) is ink; lighter is the renderer's anti-aliasing
COLOUR = 12  # a pixel whose channels differ by more than this (of 255) is coloured, not grey
LIGHTEST_TINT = 0.9  # a grey fill lighter than this (10 % grey) prints faint or not at all; 1.0 (paper) is no ink
THINNEST_RULE = 0.5  # pt on the page: a stroke thinner than this prints faint or breaks up
STROKES = {"S", "s", "B", "B*", "b", "b*"}
ITEMS = ("file", "boxes", "bleed", "pdfx", "output-intent", "fonts", "type", "safe-area", "ink", "pages", "blanks",
         "colour", "annotations", "spine", "barcode")
INTERIOR_ITEMS = ("file", "boxes", "bleed", "pdfx", "output-intent", "fonts", "type", "safe-area", "ink", "pages",
                  "blanks", "colour", "annotations")
COVER_ITEMS = ("file", "boxes", "bleed", "pdfx", "output-intent", "fonts", "type", "safe-area", "ink", "annotations",
               "spine", "barcode")
TYPE_TOLERANCE = 0.05  # pt: rounding in the writer's text matrices
Box = tuple[float, float, float, float]


def _passed(item: str, message: str) -> Problem:
    """An item of the preflight that passed (``preflight.<item>``), with what was found."""
    return Problem("", 0, f"preflight.{item}", message, "passed")


def _failed(item: str, message: str) -> Problem:
    """An item of the preflight that failed: an error, saying what was found."""
    return Problem("", 0, f"preflight.{item}", message, "error")


@dataclass
class Opened:
    """A PDF read for the preflight: pikepdf's document and PDFium's; ``inset``: where the service would cut a page
    that has no TrimBox, this far (in) inside its MediaBox, so that the text and the ink are measured all the same."""

    path: Path
    pdf: Any
    pdfium: Any
    inset: float = 0.0

    def trim(self, n: int) -> Box:
        """Page ``n``'s (from 0) TrimBox in points, or where the service would cut it."""
        page = self.pdf.pages[n]
        box = _box(page, "/TrimBox")
        if box is not None:
            return box
        x0, y0, x1, y1 = _box(page, "/MediaBox") or (0.0, 0.0, 0.0, 0.0)
        cut = self.inset * POINT
        return x0 + cut, y0 + cut, x1 - cut, y1 - cut

    def close(self) -> None:
        self.pdfium.close()
        self.pdf.close()


ENCRYPTED = N_("the file is encrypted: a service prints no file it cannot open and change")


def _open(path: Path) -> Opened | Problem:
    """The file opened, or the one item that says why it cannot be checked (unreadable, not a PDF, encrypted)."""
    import pikepdf
    import pypdfium2 as pdfium

    try:
        data = read_file(path, MAX_OUTPUT_BYTES)
    except RulebookError as exc:
        return _failed("file", str(exc))
    try:
        pdf = pikepdf.open(io.BytesIO(data))
    except pikepdf.PasswordError:
        return _failed("file", _(ENCRYPTED))
    except pikepdf.PdfError as exc:
        said = re.sub(r"^stream <[^>]*>: ", "", str(exc).splitlines()[0])  # the in-memory stream's address: noise
        return _failed("file", _("not a PDF a service can read: %(said)s", said=said[:120]))
    if pdf.is_encrypted:
        pdf.close()
        return _failed("file", _(ENCRYPTED))
    if not len(pdf.pages):
        pdf.close()
        return _failed("file", _("the file has no pages"))
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        pdf.close()
        return _failed("file", _("PDFium cannot read the file: %(problem)s", problem=exc))
    return Opened(path, pdf, document)


def pages_in(path: Path) -> int | None:
    """How many pages the PDF at ``path`` has, or None if it cannot be opened (its ``file`` item says why)."""
    opened = _open(path)
    if isinstance(opened, Problem):
        return None
    try:
        return len(opened.pdf.pages)
    finally:
        opened.close()


def _safety(opened: Opened) -> Problem:
    """No JavaScript, no attached file, nothing that runs when the file is opened."""
    root = opened.pdf.Root
    names = root.get("/Names")
    if names is not None and "/JavaScript" in names or "/OpenAction" in root and _is_script(root.OpenAction) \
            or "/AA" in root:
        return _failed("file", "the file runs JavaScript or an action when opened: a print file runs nothing")
    if names is not None and "/EmbeddedFiles" in names or "/AF" in root:
        return _failed("file", "the file has an attached file: a print file is the pages alone")
    for n, page in enumerate(opened.pdf.pages, 1):
        if "/AA" in page.obj:
            return _failed("file", f"page {n} runs an action when shown: a print file runs nothing")
        for annot in page.obj.get("/Annots") or []:
            if annot.get("/Subtype") == "/FileAttachment" or _is_script(annot.get("/A")):
                return _failed("file", f"page {n} has an attached file or a script: a print file has neither")
    return _passed("file", n_("%(count)s page, not encrypted, no script, no attached file",
                              "%(count)s pages, not encrypted, no script, no attached file", len(opened.pdf.pages)))


def _is_script(action: Any) -> bool:
    return action is not None and hasattr(action, "get") and action.get("/S") == "/JavaScript"


def _box(page: Any, key: str) -> Box | None:
    """The page's ``key`` box as (x0, y0, x1, y1), or None if the page has none of its own."""
    if key not in page.obj:
        return None
    x0, y0, x1, y1 = (float(v) for v in page.obj[key])
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE


def boxes(opened: Opened, width: float | None, height: float) -> Problem:
    """Every page has a TrimBox of ``width`` (None: any; the cover's is the spine's item) x ``height`` inches and a
    BleedBox."""
    size = (0.0, 0.0)
    for n, page in enumerate(opened.pdf.pages, 1):
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
    return _passed("boxes", _("TrimBox %(width)s x %(height)s in and BleedBox on all %(pages)s pages",
                              width=f"{size[0]:.3f}", height=f"{size[1]:.3f}", pages=len(opened.pdf.pages)))


def _bleeds(opened: Opened) -> Iterator[tuple[int, tuple[float, float, float, float] | None, bool]]:
    """Each page's bleed (left, bottom, right, top, in points), None if it has no boxes to measure it from, and
    whether the MediaBox holds the BleedBox."""
    for n, page in enumerate(opened.pdf.pages, 1):
        trim, bleeds, media = _box(page, "/TrimBox"), _box(page, "/BleedBox"), _box(page, "/MediaBox")
        if trim is None or bleeds is None or media is None:
            yield n, None, False
            continue
        sides = (trim[0] - bleeds[0], trim[1] - bleeds[1], bleeds[2] - trim[2], bleeds[3] - trim[3])
        holds = (media[0] <= bleeds[0] + TOLERANCE and media[1] <= bleeds[1] + TOLERANCE
                 and media[2] >= bleeds[2] - TOLERANCE and media[3] >= bleeds[3] - TOLERANCE)
        yield n, sides, holds


def bleed(opened: Opened, kind: str, bleed_in: float) -> Problem:
    """Every page's bleed is what the service takes: ``kind`` "all" (``bleed_in`` round every side), "none" (the
    page is the trim; KDP also takes the outside edge, top and bottom alone, a page that bleeds) or "cover"
    (``bleed_in`` round every side of one page)."""
    for n, sides, holds in _bleeds(opened):
        if sides is None:
            return _failed("bleed", f"page {n} has no TrimBox or BleedBox to measure its bleed from")
        said = ", ".join(f"{s / POINT:.3f}" for s in sides)
        if kind == "none":
            inside, outside = (sides[0], sides[2]) if n % 2 else (sides[2], sides[0])  # odd: a right-hand page
            none = all(_near(s, 0) for s in sides)
            edge = _near(inside, 0) and all(_near(s, bleed_in * POINT) for s in (outside, sides[1], sides[3]))
            if not (none or edge):
                return _failed("bleed", f"page {n}'s bleed is {said} in (left, bottom, right, top): this service "
                                        f"takes the trim alone, or {bleed_in} in on the outside, top and bottom "
                                        "and none in the gutter")
        elif not all(_near(s, bleed_in * POINT) for s in sides):
            return _failed("bleed", f"page {n}'s bleed is {said} in (left, bottom, right, top), not {bleed_in} in "
                                    "on each side")
        if not holds:
            return _failed("bleed", f"page {n}'s MediaBox does not hold its BleedBox: the bleed is not drawn")
    return _passed("bleed", _("the trim alone on every page") if kind == "none" and all(
        s is not None and all(_near(v, 0) for v in s) for _n, s, _b in _bleeds(opened))
        else _("%(bleed)s in on each side of every page", bleed=bleed_in) if kind != "none"
        else _("%(bleed)s in on the outside, top and bottom of the pages that bleed", bleed=bleed_in))


def pdfx(opened: Opened) -> Problem:
    """The file says it is PDF/X-4 (its XMP's GTS_PDFXVersion), is PDF 1.6 or later, and says whether it is trapped."""
    root = opened.pdf.Root
    xmp = bytes(root.Metadata.get_stream_buffer()).decode("utf-8", "replace") if "/Metadata" in root else ""
    found = re.search(r"GTS_PDFXVersion>([^<]{0,80})<", xmp) or re.search(r'GTS_PDFXVersion="([^"]{0,80})"', xmp)
    if found is None:
        return _failed("pdfx", "the XMP metadata names no PDF/X version (pdfxid:GTS_PDFXVersion)")
    if not found[1].startswith("PDF/X-4"):
        return _failed("pdfx", f"the file says it is {found[1]}, not PDF/X-4")
    version = opened.pdf.pdf_version
    if tuple(int(v) for v in version.split(".")[:2]) < (1, 6):
        return _failed("pdfx", f"PDF {version}: PDF/X-4 is PDF 1.6")
    info = opened.pdf.trailer.get("/Info")
    if info is None or str(info.get("/Trapped", "")) not in ("/True", "/False"):
        return _failed("pdfx", "the document information does not say whether the file is trapped (/Trapped)")
    return _passed("pdfx", f"{found[1]}, PDF {version}")


def _profile(intent: Any) -> bytes:
    profile = intent.get("/DestOutputProfile")
    return bytes(profile.get_stream_buffer()) if profile is not None else b""


def output_intent(opened: Opened, painted: set[str]) -> Problem:
    """The catalog has one PDF/X output intent carrying a printer's ICC profile (device class ``prtr``) whose colour
    space the pages' device colours may be printed in: ``painted`` is the device spaces the pages use."""
    for intent in opened.pdf.Root.get("/OutputIntents") or []:
        if intent.get("/S") != "/GTS_PDFX":
            continue
        data = _profile(intent)
        if data[36:40] != b"acsp":
            return _failed("output-intent", "the PDF/X output intent's DestOutputProfile is not an ICC profile")
        device, space = data[12:16].decode("latin-1"), data[16:20].decode("latin-1").strip()
        name = str(intent.get("/Info") or intent.get("/OutputConditionIdentifier", ""))
        if device != "prtr":
            return _failed("output-intent", f"the output intent {name!r} is a {device!r} profile, not a printer's "
                                            "('prtr'): PDF/X prints to a press's characterisation")
        allowed = {"CMYK": {"DeviceGray", "DeviceCMYK"}, "GRAY": {"DeviceGray"}, "RGB": {"DeviceGray", "DeviceRGB"}}
        wrong = sorted(painted - allowed.get(space, set()))
        if wrong:
            return _failed("output-intent", f"the pages paint in {', '.join(wrong)} under a {space} output intent "
                                            f"({name}): the printer would guess those colours")
        return _passed("output-intent", _("%(name)s (%(space)s printer profile embedded)", name=name, space=space))
    return _failed("output-intent", "no PDF/X output intent (/OutputIntents with /S /GTS_PDFX)")


def _fonts(resources: Any, seen: set[tuple[int, int]]) -> Iterator[Any]:
    """The fonts ``resources`` uses, and those of the forms it draws, each once."""
    if resources is None:
        return
    yield from (resources.get("/Font") or {}).values()
    for xobject in (resources.get("/XObject") or {}).values():
        if xobject.objgen in seen:
            continue
        seen.add(xobject.objgen)
        if xobject.get("/Subtype") == "/Form":
            yield from _fonts(xobject.get("/Resources"), seen)


def _embedded(font: Any) -> bool:
    if font.get("/Subtype") == "/Type3":  # drawn by its own glyph procedures: nothing to embed
        return True
    if font.get("/Subtype") == "/Type0":
        font = font.DescendantFonts[0]
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def fonts(opened: Opened) -> Problem:
    """Every font any page uses has its font file in the PDF."""
    seen: set[tuple[int, int]] = set()
    names = set()
    for n, page in enumerate(opened.pdf.pages, 1):
        for font in _fonts(page.obj.get("/Resources"), seen):
            name = str(font.get("/BaseFont", "?"))
            if not _embedded(font):
                return _failed("fonts", f"page {n} uses {name.lstrip('/')}, which is not embedded")
            names.add(name)
    return _passed("fonts", n_("%(count)s font, embedded", "%(count)s fonts, all embedded", len(names)))


def annotations(opened: Opened) -> Problem:
    """No page has an annotation (a link, a form field's widget) and the document has no form."""
    for n, page in enumerate(opened.pdf.pages, 1):
        annots = page.obj.get("/Annots") or []
        if len(annots):
            kinds = sorted({str(a.get("/Subtype", "?")).lstrip("/") for a in annots})
            return _failed("annotations", f"page {n} has {len(annots)} annotations ({', '.join(kinds)}): "
                                          "a printed page has none")
    form = opened.pdf.Root.get("/AcroForm")
    if form is not None and len(form.get("/Fields") or []):
        return _failed("annotations", "the document has form fields: a printed book has none")
    return _passed("annotations", _("no annotations, no form fields"))


# --- what the pages paint: their colour spaces and the tints they fill with -----------------------------------------

COLOUR_OPS = {"g": "DeviceGray", "G": "DeviceGray", "rg": "DeviceRGB", "RG": "DeviceRGB", "k": "DeviceCMYK",
              "K": "DeviceCMYK"}


def _painting(content: Any, resources: Any, seen: set[tuple[int, int]], found: dict[str, Any],
              scale: float = 1.0) -> None:
    """Walk a content stream and the forms it draws: the device spaces it paints in (``found['spaces']``), the
    lightest grey tint it fills with below paper white (``found['tint']``) and the thinnest line it strokes, in
    points on the page (``found['rule']``: its width times the scale of the transformation it is drawn under)."""
    import pikepdf

    from .printshop import scale_of

    stack: list[tuple[float, float]] = []
    width = 1.0
    for operands, operator in pikepdf.parse_content_stream(content):
        op = str(operator)
        if op == "q":
            stack.append((scale, width))
        elif op == "Q" and stack:
            scale, width = stack.pop()
        elif op == "cm":
            scale *= scale_of(operands)
        elif op == "w":
            width = float(operands[0])
        elif op in STROKES:
            found["rule"] = min(found["rule"], width * scale)
        if op in COLOUR_OPS:
            found["spaces"].add(COLOUR_OPS[op])
            if op == "g" and LIGHTEST_TINT < float(operands[0]) < 1:
                found["tint"] = max(found["tint"] or 0.0, float(operands[0]))
        elif op in ("cs", "CS"):
            name = str(operands[0]).lstrip("/")
            if name.startswith("Device"):
                found["spaces"].add(name)
        elif op == "Do" and resources is not None:
            xobject = (resources.get("/XObject") or {}).get(str(operands[0]))
            if xobject is None or xobject.objgen in seen:
                continue
            seen.add(xobject.objgen)
            if xobject.get("/Subtype") == "/Form":
                matrix = scale_of(xobject.get("/Matrix", [1, 0, 0, 1, 0, 0]))
                _painting(xobject, xobject.get("/Resources") or resources, seen, found, scale * matrix)
            elif xobject.get("/Subtype") == "/Image":
                space = xobject.get("/ColorSpace")
                if space is not None and str(space).startswith("/Device"):
                    found["spaces"].add(str(space).lstrip("/"))


def painting(opened: Opened) -> dict[str, Any]:
    """What every page paints with: ``spaces`` (device colour spaces), ``tint`` (the lightest grey fill under
    paper white, or None) and ``rule`` (the thinnest stroke, pt)."""
    found: dict[str, Any] = {"spaces": set(), "tint": None, "rule": float("inf")}
    seen: set[tuple[int, int]] = set()
    for page in opened.pdf.pages:
        _painting(page.obj, page.obj.get("/Resources"), seen, found)
    return found


# --- the ink: each page rendered, and where it is dark ----------------------------------------------------------------

@dataclass
class Rendered:
    """A page rendered at ``DPI``: the image, and its TrimBox's corners in pixels from the image's top left."""

    image: Any
    trim: Box  # left, top, right, bottom, pixels
    scale: float  # pixels a point


def rendered(opened: Opened, text_only: bool = False) -> Iterator[Rendered]:
    """Each page rendered at ``DPI`` whole (its MediaBox), with the TrimBox placed on it; ``text_only``: the text
    alone, in black, every path painted paper white (the glyphs' own ink, whatever colour they are on)."""
    import pypdfium2 as pdfium

    scale = DPI / POINT
    white, black = (255, 255, 255, 255), (0, 0, 0, 255)
    scheme = pdfium.PdfColorScheme(white, white, black, black) if text_only else None
    for n in range(len(opened.pdfium)):
        page = opened.pdfium[n]
        try:
            image = page.render(scale=scale, crop=(0, 0, 0, 0), may_draw_forms=False,
                                color_scheme=scheme).to_pil().convert("RGB")
            media, trim = page.get_mediabox(), opened.trim(n)
        finally:
            page.close()
        top = media[3]
        yield Rendered(image, ((trim[0] - media[0]) * scale, (top - trim[3]) * scale, (trim[2] - media[0]) * scale,
                               (top - trim[1]) * scale), scale)


def ink_box(image: Any, background: tuple[int, int, int] | None = None) -> Box | None:
    """The box (pixels) of what differs from paper white (or from ``background``) by more than ``INK``."""
    from PIL import Image, ImageChops

    base = Image.new("RGB", image.size, background or (255, 255, 255))
    diff = ImageChops.difference(image, base).convert("L").point(lambda v: 255 if v > INK else 0)
    return diff.getbbox()


def interior_ink(opened: Opened, trim: Trim, service: Service, grey: bool = True) -> tuple[Problem, Problem, Problem]:
    """The interior's ink: inside the safe area of every page (the trim less ``service.safe``, less the gutter the
    page count asks for on the inside); runs of pages with no ink within the service's limits; no colour."""
    pages = len(opened.pdf.pages)
    inside = max(gutter(pages), service.safe) if pages <= GUTTERS[-1][0] else service.safe
    run, longest, blanks_at, inked = 0, 0, 0, 0
    strayed: str | None = None
    coloured: str | None = None
    for n, page in enumerate(rendered(opened), 1):
        s = page.scale * POINT
        left, right = (inside, service.safe) if n % 2 else (service.safe, inside)  # odd: a right-hand page
        area = (page.trim[0] + left * s, page.trim[1] + service.safe * s, page.trim[2] - right * s,
                page.trim[3] - service.safe * s)
        box = ink_box(page.image)
        if box is None:
            run += 1
            continue
        inked += 1
        if run > longest:
            longest, blanks_at = run, n - run
        run = 0
        over, edge = _stray(page, box, area)
        if strayed is None and over > 1:  # a pixel, for the renderer's rounding
            side = {"left": "inside" if n % 2 else "outside", "right": "outside" if n % 2 else "inside"}.get(edge, edge)
            limit = f"the gutter, {inside:g} in" if side == "inside" else f"{service.safe:g} in inside the trim"
            strayed = f"page {n}: ink {over / s:.3f} in past the safe area's {side} edge ({limit})"
        if grey and coloured is None:
            coloured = _coloured(page.image, n)
    ink = _failed("ink", strayed) if strayed else _passed(
        "ink", _("the ink of all %(pages)s pages inside the safe area (%(safe)s in inside the trim, %(gutter)s in on "
                 "the gutter)", pages=pages, safe=f"{service.safe:g}", gutter=f"{inside:g}"))
    blanks = _blank_runs(service, longest, blanks_at, run, inked)
    if coloured is not None:
        colour = _failed("colour", coloured)
    else:
        colour = _passed("colour", _("no colour on any page") if grey
                         else _("a colour interior: its colours colour-managed"))
    return ink, blanks, colour


def _stray(page: Rendered, box: Box, area: Box) -> tuple[float, str]:
    """How far (pixels) and past which edge the ink ``box`` crosses the safe ``area``, the farthest; art that runs
    on into the page's bleed on that side (the page has bleed there, and the ink reaches the page's edge) is a
    picture that bleeds, not a stray mark, and counts as inside."""
    width, height = page.image.size
    bleeds = {"left": page.trim[0] > 1, "top": page.trim[1] > 1, "right": page.trim[2] < width - 1,
              "bottom": page.trim[3] < height - 1}
    reaches = {"left": box[0] <= 1, "top": box[1] <= 1, "right": box[2] >= width - 1, "bottom": box[3] >= height - 1}
    crossed = [(area[0] - box[0], "left"), (area[1] - box[1], "top"), (box[2] - area[2], "right"),
               (box[3] - area[3], "bottom")]
    return max([(over, edge) for over, edge in crossed if not (bleeds[edge] and reaches[edge])] or [(0.0, "")])


def _coloured(image: Any, n: int) -> str | None:
    """What is coloured on a black-and-white page, or None."""
    r, g, b = image.split()
    from PIL import ImageChops

    spread = ImageChops.lighter(ImageChops.difference(r, g), ImageChops.difference(g, b))
    if spread.point(lambda v: 255 if v > COLOUR else 0).getbbox() is not None:
        return f"page {n} prints in colour on a black-and-white interior: the printer would choose its greys"
    return None


def _blank_runs(service: Service, longest: int, at: int, end: int, inked: int) -> Problem:
    if inked == 0:
        return _failed("blanks", "no page has any ink")
    if service.blank_run_inside is not None and longest > service.blank_run_inside:
        return _failed("blanks", f"{longest} blank pages in a row from page {at}: {service.label} takes at most "
                                 f"{service.blank_run_inside} before the last page")
    if service.blank_run_end is not None and end > service.blank_run_end:
        return _failed("blanks", f"{end} blank pages in a row at the end: {service.label} takes at most "
                                 f"{service.blank_run_end}")
    return _passed("blanks", _("at most %(longest)s blank pages in a row, %(end)s at the end", longest=longest,
                               end=end))


def colour_objects(opened: Opened, grey: bool, found: dict[str, Any] | None = None) -> Problem | None:
    """A black-and-white interior paints in DeviceGray; no page fills a tint lighter than 10 % grey or strokes a rule
    thinner than ``THINNEST_RULE``: the failure, or None. ``found``: ``painting(opened)``, if worked out already."""
    found = found or painting(opened)
    if grey and found["spaces"] - {"DeviceGray"}:
        return _failed("colour", f"the pages paint in {', '.join(sorted(found['spaces'] - {'DeviceGray'}))}: a "
                                 "black-and-white interior is written in DeviceGray")
    if found["tint"] is not None:
        return _failed("colour", f"a fill of {(1 - found['tint']) * 100:.0f} % grey: lighter than 10 % prints faint "
                                 "or not at all")
    if found["rule"] < THINNEST_RULE:
        return _failed("colour", f"a rule {found['rule']:.2f} pt wide: thinner than {THINNEST_RULE} pt prints faint "
                                 "or breaks up")
    return None


# --- the text, where PDFium finds it -----------------------------------------------------------------------------------

def text_boxes(opened: Opened) -> Iterator[tuple[int, tuple[float, float], str, Box]]:
    """Every run of text PDFium finds: (page number, the page's TrimBox origin, its text, its box in points)."""
    for n in range(len(opened.pdfium)):
        page = opened.pdfium[n]
        trim = opened.trim(n)
        text = page.get_textpage()
        try:
            for i in range(text.count_rects()):
                left, bottom, right, top = text.get_rect(i)
                words = text.get_text_bounded(left, bottom, right, top).strip()
                if words:
                    yield n + 1, (trim[0], trim[1]), words, (left, bottom, right, top)
        finally:
            text.close()
            page.close()


def type_size(opened: Opened, service: Service) -> Problem:
    """No character is set smaller than the service's least type: its font size times the scale of the
    transformation it is drawn under (PDFium's character matrix), so a size in CSS pixels is measured in points."""
    import ctypes

    import pypdfium2.raw as pdfium_c

    matrix = pdfium_c.FS_MATRIX()
    smallest, where = float("inf"), ""
    for n in range(len(opened.pdfium)):
        page = opened.pdfium[n]
        text = page.get_textpage()
        try:
            for i in range(text.count_chars()):
                if pdfium_c.FPDFText_GetUnicode(text, i) <= 32 or not pdfium_c.FPDFText_GetMatrix(
                        text, i, ctypes.byref(matrix)):
                    continue
                size = pdfium_c.FPDFText_GetFontSize(text, i) * abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
                if size < smallest:
                    smallest, where = size, f"page {n + 1}: {_quote(text.get_text_range(i, min(20, text.count_chars() - i)))}"
        finally:
            text.close()
            page.close()
    if smallest < service.least_type - TYPE_TOLERANCE:
        return _failed("type", f"{where} is set at {smallest:.1f} pt: {service.label} prints type of at least "
                               f"{service.least_type:g} pt")
    return _passed("type", _("the smallest type is %(size)s pt", size=f"{smallest:.1f}") if smallest != float("inf")
                   else _("no text"))


def _outside(box: Box, area: Box) -> str:
    """Which edge of ``area`` the ``box`` crosses, and by how much (in); empty if it is inside."""
    crossed = [(area[0] - box[0], "left"), (area[1] - box[1], "bottom"), (box[2] - area[2], "right"),
               (box[3] - area[3], "top")]
    over, edge = max(crossed)
    return f"{over / POINT:.3f} in past the safe area's {edge} edge" if over > TOLERANCE else ""


def _quote(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def interior_safe_area(opened: Opened, trim: Trim, service: Service) -> Problem:
    """Every word inside the trim less the service's safe margin, less the gutter on the inside."""
    pages = len(opened.pdf.pages)
    inside, outside = max(gutter(min(pages, 828)), service.safe) * POINT, service.safe * POINT
    width, height = trim.width * POINT, trim.height * POINT
    words = 0
    for n, (x, y), text, box in text_boxes(opened):
        left, right = (inside, outside) if n % 2 else (outside, inside)  # an odd page is a right-hand one
        area = (x + left, y + outside, x + width - right, y + height - outside)
        words += 1
        if where := _outside(box, area):
            return _failed("safe-area", f"page {n}: {_quote(text)} is {where} (trim less {service.safe:g} in, "
                                        f"{inside / POINT:g} in on the inside)")
    return _passed("safe-area", _("%(lines)s lines of text inside the safe area (trim less %(safe)s in, gutter "
                                  "%(gutter)s in)", lines=words, safe=f"{service.safe:g}", gutter=f"{inside / POINT:g}"))


def page_count(opened: Opened, service: Service, stock: str) -> Problem:
    """An even number of pages, at least the service's least, at most its most for the paper."""
    count = len(opened.pdf.pages)
    most = (service.most_pages or {}).get(stock)
    if count % 2 or count < service.least_pages or most is not None and count > most:
        upto = f" and at most {most} on {stock} paper" if most is not None else ""
        return _failed("pages", f"{count} pages: {service.label} binds an even number, at least "
                                f"{service.least_pages}{upto}")
    return _passed("pages", n_("%(count)s page", "%(count)s pages", count))


# --- the cover ---------------------------------------------------------------------------------------------------------

def cover_safe_area(opened: Opened, trim: Trim, pages: int, stock: str, service: Service) -> Problem:
    """Every word on the back or the front ``cover_safe`` inside the trim, or on the spine clear of its folds (and
    only on a spine the service allows text on, in type it can print)."""
    spine = spine_width(pages, stock, service) * POINT
    width, height = trim.width * POINT, trim.height * POINT
    safe, clear = service.cover_safe * POINT, service.spine_clearance * POINT
    texted = spine_type(pages, stock, service) is not None
    words = 0
    for _page, (x, y), text, box in text_boxes(opened):
        words += 1
        panels = {"back": (x + safe, y + safe, x + width - safe, y + height - safe),
                  "front": (x + width + spine + safe, y + safe, x + 2 * width + spine - safe, y + height - safe)}
        if texted:
            panels["spine"] = (x + width + clear, y + safe, x + width + spine - clear, y + height - safe)
        if not any(not _outside(box, area) for area in panels.values()):
            centre = (box[0] + box[2]) / 2 - x
            panel = "back" if centre < width else "spine" if centre < width + spine else "front"
            if panel == "spine" and "spine" not in panels:
                return _failed("safe-area", f"{_quote(text)} is on the spine of a {pages}-page book on {stock} "
                                            f"paper: too thin for type of {service.least_type:g} pt between its "
                                            "folds" + (f", or under {service.spine_text_pages} pages"
                                                       if service.spine_text_pages else ""))
            return _failed("safe-area", f"{_quote(text)} is {_outside(box, panels[panel])} of the {panel}")
    if where := _cover_text_ink(opened, trim, spine / POINT, service, texted):
        return _failed("safe-area", where)
    return _passed("safe-area", _("%(lines)s lines of text inside the cover's safe areas, on their ink too",
                                  lines=words))


def _cover_text_ink(opened: Opened, trim: Trim, spine: float, service: Service, texted: bool) -> str:
    """Where the cover's text, rendered alone (``rendered(text_only=True)``), inks outside its panel's safe area;
    empty if nowhere. The panels: back, spine (clear of the folds), front, each from bleed edge to bleed edge."""
    page = next(rendered(opened, text_only=True))
    left, top, right, bottom = page.trim
    s = page.scale * POINT
    safe, clear = service.cover_safe * s, service.spine_clearance * s
    back_end, front_start = left + trim.width * s, left + (trim.width + spine) * s
    panels = {"back": ((0, 0, back_end, page.image.height), (left + safe, top + safe, back_end - safe, bottom - safe)),
              "spine": ((back_end, 0, front_start, page.image.height),
                        (back_end + clear, top + safe, front_start - clear, bottom - safe) if texted else None),
              "front": ((front_start, 0, page.image.width, page.image.height),
                        (front_start + safe, top + safe, right - safe, bottom - safe))}
    for name, (region, area) in panels.items():
        region = tuple(int(round(v)) for v in region)
        box = ink_box(page.image.crop(region))
        if box is None:
            continue
        box = (box[0] + region[0], box[1] + region[1], box[2] + region[0], box[3] + region[1])
        if area is None:
            return f"text is inked on the spine, too thin for type of {service.least_type:g} pt between its folds"
        over, edge = max((area[0] - box[0], "left"), (area[1] - box[1], "top"), (box[2] - area[2], "right"),
                         (box[3] - area[3], "bottom"))
        if over > 1:  # a pixel, for the renderer's rounding
            return f"the {name}'s text inks {over / s:.3f} in past its safe area's {edge} edge"
    return ""


def _background(image: Any, box: Box) -> tuple[int, int, int]:
    """The colour most of ``box`` (pixels) is painted in."""
    region = image.crop(tuple(int(v) for v in box)).quantize(colors=8, method=2)
    palette = region.getpalette() or []
    counts = sorted(region.getcolors() or [(0, 0)], reverse=True)
    index = counts[0][1]
    return tuple(palette[3 * index:3 * index + 3]) if len(palette) >= 3 * index + 3 else (255, 255, 255)


def cover_ink(opened: Opened, trim: Trim, pages: int, stock: str, service: Service,
              barcode: bool) -> tuple[Problem, Problem]:
    """The cover's ink: what reaches an edge of the trim goes on into the bleed (art cut back at the trim shows a
    white sliver when the cut wanders); and the barcode's zone holds nothing but the back's own background."""
    page = next(rendered(opened))
    image, (left, top, right, bottom), scale = page.image, page.trim, page.scale
    s = scale * POINT
    step = max(1, int(0.02 * s))  # a line of pixels just inside the trim, and the outermost of the bleed
    strips = {"left": ((left + step, top, left + 2 * step, bottom), (0, top, step, bottom)),
              "right": ((right - 2 * step, top, right - step, bottom), (image.width - step, top, image.width, bottom)),
              "top": ((left, top + step, right, top + 2 * step), (left, 0, right, step)),
              "bottom": ((left, bottom - 2 * step, right, bottom - step), (left, image.height - step, right, image.height))}
    ink = _passed("ink", _("what reaches the trim goes on into the bleed on every side"))
    for edge, (inner, outer) in strips.items():
        if left < step or top < step:
            ink = _failed("ink", "the cover has no bleed to measure its art in")
            break
        inside_ink, outside_ink = (_inked_share(image.crop(tuple(int(v) for v in b))) for b in (inner, outer))
        if inside_ink - outside_ink > 0.1:
            ink = _failed("ink", f"the art stops at the trim on the {edge} edge ({inside_ink:.0%} of the edge inked, "
                                 f"{outside_ink:.0%} of the bleed): a white sliver shows where the cut wanders")
            break
    if not barcode or service.barcode is None:
        return ink, _passed("barcode", _("no barcode zone kept: %(service)s states none", service=service.label)
                            if service.barcode is None else _("no barcode zone kept (--barcode none)"))
    zw, zh, inset = service.barcode
    zone = (left + (trim.width - inset - zw) * s, bottom - (inset + zh) * s, left + (trim.width - inset) * s,
            bottom - inset * s)
    back = _background(image, (left, top, left + trim.width * s, bottom))
    marks = ink_box(image.crop(tuple(int(v) for v in zone)), back)
    if marks is not None:
        return ink, _failed("barcode", f"something is drawn in the barcode's zone ({zw:g} x {zh:g} in, {inset:g} in "
                                       "from the foot and the spine): the service prints the barcode there")
    return ink, _passed("barcode", _("the barcode's zone (%(width)s x %(height)s in) holds the back's background "
                                     "alone", width=f"{zw:g}", height=f"{zh:g}"))


def _inked_share(image: Any) -> float:
    """The share of ``image``'s pixels that are ink (darker than paper white)."""
    grey = image.convert("L").point(lambda v: 255 if v < 255 - INK else 0)
    histogram = grey.histogram()
    return histogram[255] / max(1, image.width * image.height)


def spine(opened: Opened, trim: Trim, pages: int, stock: str, service: Service) -> Problem:
    """The cover is one page whose trim is two trims and the service's spine wide, a trim high."""
    if len(opened.pdf.pages) != 1:
        return _failed("spine", f"the cover has {len(opened.pdf.pages)} pages: it is one, back, spine and front")
    box = _box(opened.pdf.pages[0], "/TrimBox")
    if box is None:
        return _failed("spine", "the cover has no TrimBox to measure its spine from")
    want = spine_width(pages, stock, service)
    found = (box[2] - box[0]) / POINT - 2 * trim.width
    if abs(found - want) > SPINE_TOLERANCE or not _near(box[3] - box[1], trim.height * POINT):
        return _failed("spine", f"the spine is {found:.4f} in wide and the cover {(box[3] - box[1]) / POINT:.3f} "
                                f"in high; {pages} pages on {stock} paper make {want:.4f} in at {service.label}, "
                                f"the trim {trim.height:.3f} in")
    size = spine_type(pages, stock, service)
    short = service.spine_text_pages is not None and pages < service.spine_text_pages
    why = (_("under %(pages)s pages", pages=service.spine_text_pages) if short
           else _("too thin for %(size)s pt type", size=f"{service.least_type:g}"))
    allowed = (_("text on it allowed, at %(size)s pt", size=f"{size:g}") if size
               else _("no spine text: %(why)s", why=why))
    return _passed("spine", _("%(width)s in (%(pages)s pages, %(stock)s paper, %(service)s), %(text)s",
                              width=f"{want:.4f}", pages=pages, stock=stock, service=service.label, text=allowed))


SPINE_TOLERANCE = 0.01  # in: the "within 0.01 in"; KDP's own check allows more


def _checked(path: Path, items: tuple[str, ...], run: Any) -> list[Problem]:
    """``run(opened)``'s items for the file at ``path``, or its one ``file`` item when it cannot be read."""
    opened = _open(path)
    if isinstance(opened, Problem):
        return [replace(opened, path=str(path))]
    try:
        found = run(opened)
    finally:
        opened.close()
    assert [_name(p) for p in found] == list(items), "every item, in order"
    return [replace(item, path=str(path)) for item in found]


def _name(problem: Problem) -> str:
    return problem.check.removeprefix("preflight.")


def check_interior(path: Path, trim: Trim, service: Service, stock: str = "white", grey: bool = True) -> list[Problem]:
    """Every item of the preflight on the interior at ``path``, for ``service``: a black-and-white one (``grey``),
    or a colour one, whose pages may carry colour but still no faint tint."""
    def run(opened: Opened) -> list[Problem]:
        opened.inset = BLEED if service.interior_bleed == "all" else 0.0
        ink, blanks, colour = interior_ink(opened, trim, service, grey)
        painted = painting(opened)
        colour = colour_objects(opened, grey, painted) or colour
        return [_safety(opened), boxes(opened, trim.width, trim.height),
                bleed(opened, service.interior_bleed, BLEED), pdfx(opened), output_intent(opened, painted["spaces"]),
                fonts(opened), type_size(opened, service), interior_safe_area(opened, trim, service), ink,
                page_count(opened, service, stock), blanks, colour, annotations(opened)]

    return _checked(path, INTERIOR_ITEMS, run)


def check_cover(path: Path, trim: Trim, pages: int, stock: str, service: Service,
                barcode: bool = True) -> list[Problem]:
    """Every item of the preflight on the cover at ``path``, for an interior of ``pages`` pages on ``stock`` paper."""
    def run(opened: Opened) -> list[Problem]:
        opened.inset = BLEED
        ink, zone = cover_ink(opened, trim, pages, stock, service, barcode)
        return [_safety(opened), boxes(opened, None, trim.height), bleed(opened, "all", BLEED), pdfx(opened),
                output_intent(opened, painting(opened)["spaces"]), fonts(opened), type_size(opened, service),
                cover_safe_area(opened, trim, pages, stock, service), ink, annotations(opened),
                spine(opened, trim, pages, stock, service), zone]

    return _checked(path, COVER_ITEMS, run)

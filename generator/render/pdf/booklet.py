"""The book imposed as a saddle-stitched booklet: two pages a side of a landscape sheet.

Printed double-sided (flip on the short edge), folded down the middle and stapled, the sheets
make a half-size booklet: half-letter from letter paper, A5 from A4 (docs/booklet.md).
Its pages are the book laid out again at that size (booklet.css; commands/build.py), not the book's
pages shrunk: its contents and index print its own page numbers, its folios sit on the outer
edges (``side_css``), and each page is drawn at full size on its half of the sheet.

Sheet k (from 0) of a book padded with blank pages to N, a multiple of four, carries on its front
pages N-2k (left) and 2k+1 (right), and on its back 2k+2 (left) and N-2k-1 (right).

The booklet stays a tagged PDF (PDF/UA-1, docs/accessibility.md) as its book is: ``_Carry`` copies the book's
structure tree, links, bookmarks and named destinations onto the sheets (ISO 32000-1, 14.7.4). A book page's marked
contents are now inside its form XObject: the form takes the page's /StructParents, and each marked-content
reference names the form (/Stm) and the sheet that draws it (/Pg). The tree keeps the book's order, which is how
the booklet reads once folded.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Any

from pypdf import PageObject, PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    IndirectObject,
    NameObject,
    NullObject,
    NumberObject,
    StreamObject,
)

from ...book.files import MAX_OUTPUT_BYTES, read_file

# Paper sizes in points, portrait (width, height); the booklet sheet is the same paper turned.
PAPER = {"letter": (612.0, 792.0), "a4": (595.276, 841.89)}


FOLD, OUTER = 14, 11  # the booklet page's side margins (mm): the wider at the fold, where the staples are


def side_css(first_page: int) -> str:
    """The booklet's page sides for a part whose first page is book page ``first_page``: a right-hand page
    (odd number) has its folio at the bottom right and the fold on its left, a left-hand page the reverse.
    WeasyPrint counts :left and :right from each part's own first page, so a part starting on an even
    page has them swapped."""
    recto, verso = (":right", ":left") if first_page % 2 else (":left", ":right")
    folio = 'content: counter(page); font: bold 9pt "Book Sans"; color: #111;'
    edition = 'content: "Edition " string(edition); font: 7pt "Book Sans"; color: #777;'
    return (f"@page {recto} {{ margin-left: {FOLD}mm; margin-right: {OUTER}mm; @bottom-right {{ {folio} }}"
            f" @bottom-left {{ {edition} }} }}"
            f" @page {verso} {{ margin-left: {OUTER}mm; margin-right: {FOLD}mm; @bottom-left {{ {folio} }}"
            f" @bottom-right {{ {edition} }} }}")


def sides(pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) book page numbers (1-based; None for a blank) of each printed side, in print order."""
    total = -(-pages // 4) * 4

    def page(n: int) -> int | None:
        return n if n <= pages else None

    out = []
    for k in range(total // 4):
        out.append((page(total - 2 * k), page(2 * k + 1)))  # front of sheet k
        out.append((page(2 * k + 2), page(total - 2 * k - 1)))  # back of sheet k
    return out


def _form(writer: PdfWriter, page: PageObject) -> IndirectObject:
    """The page as a form XObject in ``writer``: drawn by reference, its fonts copied once per book."""
    contents = page.get_contents()
    form = DecodedStreamObject()
    form.set_data(contents.get_data() if contents is not None else b"")
    form.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject([FloatObject(float(v)) for v in page.mediabox]),
        NameObject("/Resources"): page["/Resources"].clone(writer) if "/Resources" in page else DictionaryObject(),
    })
    return writer._add_object(form.flate_encode())


def _place(page: PageObject, slot: int, half_width: float, height: float) -> tuple[float, float, float]:
    """(scale, dx, dy) drawing ``page`` into the left (0) or right (1) half of the sheet, centred."""
    box = page.mediabox
    width, tall = float(box.width), float(box.height)
    scale = min(half_width / width, height / tall)
    dx = slot * half_width + (half_width - width * scale) / 2 - float(box.left) * scale
    dy = (height - tall * scale) / 2 - float(box.bottom) * scale
    return scale, dx, dy


def _draw(slot: int, scale: float, dx: float, dy: float) -> str:
    """PDF operators drawing form /P{slot} at ``scale``, moved by (dx, dy)."""
    return f"q {scale:.6f} 0 0 {scale:.6f} {dx:.4f} {dy:.4f} cm /P{slot} Do Q\n"


class _Carry:
    """The book's structure tree, links, bookmarks and destinations, copied into the booklet's ``writer``: each
    reference to a book page made one to the sheet that draws it, and each position on it one on the sheet."""

    # The kinds of explicit destination and which of their numbers are x (0) or y (1) (ISO 32000-1, 12.3.2.2).
    AXES = {"/XYZ": (0, 1), "/FitH": (1,), "/FitBH": (1,), "/FitV": (0,), "/FitBV": (0,), "/FitR": (0, 1, 0, 1),
            "/Fit": (), "/FitB": ()}

    def __init__(self, writer: PdfWriter, reader: PdfReader) -> None:
        self.writer = writer
        self.number = {page.indirect_reference.idnum: n for n, page in enumerate(reader.pages, 1)}
        # book page number -> (its sheet, its form XObject, scale, dx, dy)
        self.placed: dict[int, tuple[IndirectObject, IndirectObject, float, float, float]] = {}
        self.copied: dict[int, IndirectObject] = {}
        self.annotations: dict[int, IndirectObject] = {}  # book annotation -> its copy (a link's, for its OBJR)

    def page(self, reference: Any) -> int | None:
        """The book page number ``reference`` points to, or None."""
        return self.number.get(reference.idnum) if isinstance(reference, IndirectObject) else None

    def point(self, number: int, x: float, y: float) -> tuple[float, float]:
        _, _, scale, dx, dy = self.placed[number]
        return x * scale + dx, y * scale + dy

    def copy(self, value: Any, number: int | None = None) -> Any:
        """``value`` copied into the writer; ``number``: the book page of the structure element it is in."""
        if isinstance(value, IndirectObject):
            if (page := self.page(value)) is not None:
                return self.placed[page][0]
            if value.idnum in self.copied:
                return self.copied[value.idnum]
            target = value.get_object()
            if not isinstance(target, (DictionaryObject, ArrayObject)):  # a leaf: no cycle can lead back to it
                self.copied[value.idnum] = reference = self.writer._add_object(self.copy(target, number))
                return reference
            # An empty one of its kind first, filled in place once copied: a cycle (/P, /Parent) finds it.
            shell = DictionaryObject() if isinstance(target, DictionaryObject) else ArrayObject()
            reference = self.writer._add_object(shell)
            self.copied[value.idnum] = reference
            copied = self.copy(target, number)
            shell.update(copied) if isinstance(shell, DictionaryObject) else shell.extend(copied)
            return reference
        if isinstance(value, StreamObject):  # none in a structure tree or an outline WeasyPrint writes
            return value.clone(self.writer)
        if isinstance(value, ArrayObject):
            if len(value) >= 2 and (page := self.page(value[0])) is not None and value[1] in self.AXES:
                return self.destination(value, page)
            return ArrayObject(self.copy(item, number) for item in value)
        if isinstance(value, DictionaryObject):
            if "/S" in value and value.get("/Type", "/StructElem") == "/StructElem":
                return self.element(value)
            if value.get("/Type") == "/MCR":
                page = self.page(value.raw_get("/Pg")) if "/Pg" in value else number
                return self.reference(int(value["/MCID"]), page)
            if value.get("/Type") == "/OBJR":  # an annotation the booklet does not keep is no kid
                copied = self.annotations.get(value.raw_get("/Obj").idnum)
                page = self.page(value.raw_get("/Pg")) if "/Pg" in value else number
                return None if copied is None or page is None else DictionaryObject({
                    NameObject("/Type"): NameObject("/OBJR"), NameObject("/Obj"): copied,
                    NameObject("/Pg"): self.placed[page][0]})
            return DictionaryObject({key: self.copy(item, number) for key, item in value.items()})
        return value

    def reference(self, mcid: int, number: int | None) -> DictionaryObject:
        """A marked-content reference to ``mcid`` of book page ``number``, now in its form on its sheet."""
        sheet, form = self.placed[number][:2]
        return DictionaryObject({NameObject("/Type"): NameObject("/MCR"), NameObject("/Pg"): sheet,
                                 NameObject("/Stm"): form, NameObject("/MCID"): NumberObject(mcid)})

    def element(self, element: DictionaryObject) -> DictionaryObject:
        """A structure element: its marked contents referenced in their forms, its annotations in their copies."""
        number = self.page(element.raw_get("/Pg")) if "/Pg" in element else None
        out = DictionaryObject()
        for key, item in element.items():
            if key == "/K":
                kids = item if isinstance(item, ArrayObject) else ArrayObject([item])
                copied = [self.reference(int(kid), number) if isinstance(kid, int) else self.copy(kid, number)
                          for kid in kids]
                out[NameObject("/K")] = ArrayObject(kid for kid in copied if kid is not None)
            else:
                out[NameObject(key)] = self.copy(item, number)
        return out

    def destination(self, destination: ArrayObject, number: int) -> ArrayObject:
        """An explicit destination on book page ``number``, as the same place on its sheet."""
        out = ArrayObject([self.placed[number][0], destination[1]])
        scale, dx, dy = self.placed[number][2:]
        for axis, item in zip(self.AXES[destination[1]], destination[2:], strict=False):
            if isinstance(item, NullObject) or item is None:
                out.append(NullObject())
            else:
                out.append(FloatObject(round(float(item) * scale + (dy if axis else dx), 4)))
        return out

    def annotations_of(self, page: PageObject, number: int) -> list[IndirectObject]:
        """The book page's annotations (links), copied and placed where the page is drawn on its sheet."""
        out = []
        for annotation in page.get("/Annots", ()):
            copied = self.copy(annotation)
            x0, y0, x1, y1 = (float(v) for v in annotation.get_object()["/Rect"])
            (a, b), (c, d) = self.point(number, x0, y0), self.point(number, x1, y1)
            copied.get_object()[NameObject("/Rect")] = ArrayObject(FloatObject(round(v, 4)) for v in (a, b, c, d))
            self.annotations[annotation.idnum] = copied
            out.append(copied)
        return out


def impose(source: Path, target: Path, paper: str = "letter") -> int:
    """Write ``source`` as a booklet to ``target``; return the number of printed sides."""
    body = read_file(source, MAX_OUTPUT_BYTES)  # the book PDF, read once through the door
    reader = PdfReader(io.BytesIO(body))
    short, long = PAPER[paper]
    half = long / 2
    writer = PdfWriter()
    carry = _Carry(writer, reader)
    for left, right in sides(len(reader.pages)):
        sheet = PageObject.create_blank_page(width=long, height=short)
        xobjects, ops = DictionaryObject(), ""
        placed = []
        for slot, number in enumerate((left, right)):
            if number is not None:
                page = reader.pages[number - 1]
                form = _form(writer, page)
                if "/StructParents" in page:  # its marked contents, found through the parent tree
                    form.get_object()[NameObject("/StructParents")] = NumberObject(page["/StructParents"])
                xobjects[NameObject(f"/P{slot}")] = form
                place = _place(page, slot, half, short)
                ops += _draw(slot, *place)
                placed.append((number, form, place))
        sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
        content = DecodedStreamObject()
        content.set_data(ops.encode("ascii"))
        sheet[NameObject("/Contents")] = writer._add_object(content.flate_encode())
        if "/StructTreeRoot" in reader.root_object:
            sheet[NameObject("/Tabs")] = NameObject("/S")  # tab order: the structure's
        reference = writer.add_page(sheet).indirect_reference
        for number, form, place in placed:
            carry.placed[number] = (reference, form, *place)
    _tag(reader, writer, carry)
    # Same book, same booklet: the file identifier comes from the book's bytes, not the clock.
    digest = hashlib.md5(body, usedforsecurity=False).digest()
    writer._ID = ArrayObject([ByteStringObject(digest), ByteStringObject(digest)])
    writer.add_metadata({"/Title": _title(reader)})
    with target.open("wb") as out:
        writer.write(out)
    return len(writer.pages)


def _title(reader: PdfReader) -> str:
    return str((reader.metadata or {}).get("/Title", "")) + " (booklet)"


def _tag(reader: PdfReader, writer: PdfWriter, carry: _Carry) -> None:
    """Carry the book's structure tree and what a reader navigates by (links, bookmarks) into the booklet, and
    its catalog's declarations (marked, language, title shown, PDF/UA metadata); a book without a tree, nothing."""
    book = reader.root_object
    if "/StructTreeRoot" not in book:
        return
    for number, page in enumerate(reader.pages, 1):  # the links first: their elements' OBJR point to the copies
        annotations = carry.annotations_of(page, number)
        if annotations:
            sheet = carry.placed[number][0].get_object()
            sheet.setdefault(NameObject("/Annots"), ArrayObject()).extend(annotations)
    catalog = writer.root_object
    for key in ("/StructTreeRoot", "/MarkInfo", "/Lang", "/ViewerPreferences", "/Outlines", "/Names", "/PageMode"):
        if key in book:
            catalog[NameObject(key)] = carry.copy(book.raw_get(key))
    if "/Metadata" in book:  # the XMP's title is the booklet's, as the document information's is
        xmp = book["/Metadata"].get_data().decode("utf-8")
        title = str((reader.metadata or {}).get("/Title", ""))
        xmp = xmp.replace(f">{_xml(title)}</rdf:li></rdf:Alt></dc:title>", f">{_xml(_title(reader))}</rdf:li></rdf:Alt></dc:title>")
        metadata = DecodedStreamObject()
        metadata.set_data(xmp.encode("utf-8"))
        metadata.update({NameObject("/Type"): NameObject("/Metadata"), NameObject("/Subtype"): NameObject("/XML")})
        catalog[NameObject("/Metadata")] = writer._add_object(metadata)


def _xml(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(text)

"""The book imposed as a saddle-stitched booklet: two pages a side of a landscape sheet.

Printed double-sided (flip on the short edge), folded down the middle and stapled, the sheets
make a half-size booklet: half-letter from letter paper, A5 from A4 (README: Printing the booklet).
Its pages are the book laid out again at that size (booklet.css; build.py), not the book's
pages shrunk: its contents and index print its own page numbers, its folios sit on the outer
edges (``side_css``), and each page is drawn at full size on its half of the sheet.

Sheet k (from 0) of a book padded with blank pages to N, a multiple of four, carries on its front
pages N-2k (left) and 2k+1 (right), and on its back 2k+2 (left) and N-2k-1 (right).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pypdf import PageObject, PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    IndirectObject,
    NameObject,
)

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


def _draw(page: PageObject, slot: int, half_width: float, height: float) -> str:
    """PDF operators drawing form /P{slot} scaled into the left (0) or right (1) half, centred."""
    box = page.mediabox
    width, tall = float(box.width), float(box.height)
    scale = min(half_width / width, height / tall)
    dx = slot * half_width + (half_width - width * scale) / 2 - float(box.left) * scale
    dy = (height - tall * scale) / 2 - float(box.bottom) * scale
    return f"q {scale:.6f} 0 0 {scale:.6f} {dx:.4f} {dy:.4f} cm /P{slot} Do Q\n"


def impose(source: Path, target: Path, paper: str = "letter") -> int:
    """Write ``source`` as a booklet to ``target``; return the number of printed sides."""
    reader = PdfReader(source)
    short, long = PAPER[paper]
    half = long / 2
    writer = PdfWriter()
    forms: dict[int, IndirectObject] = {}
    for left, right in sides(len(reader.pages)):
        sheet = PageObject.create_blank_page(width=long, height=short)
        xobjects, ops = DictionaryObject(), ""
        for slot, number in enumerate((left, right)):
            if number is not None:
                page = reader.pages[number - 1]
                if number not in forms:
                    forms[number] = _form(writer, page)
                xobjects[NameObject(f"/P{slot}")] = forms[number]
                ops += _draw(page, slot, half, short)
        sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
        content = DecodedStreamObject()
        content.set_data(ops.encode("ascii"))
        sheet[NameObject("/Contents")] = writer._add_object(content.flate_encode())
        writer.add_page(sheet)
    # Same book, same booklet: the file identifier comes from the book's bytes, not the clock.
    digest = hashlib.md5(source.read_bytes(), usedforsecurity=False).digest()
    writer._ID = ArrayObject([ByteStringObject(digest), ByteStringObject(digest)])
    writer.add_metadata({"/Title": str((reader.metadata or {}).get("/Title", "")) + " (booklet)"})
    with target.open("wb") as out:
        writer.write(out)
    return len(writer.pages)

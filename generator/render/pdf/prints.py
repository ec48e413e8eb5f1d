"""What each page of a PDF gives its reader: the words its text layer reads, and the ink it lays down (the page drawn
small in grey). Two PDFs whose pages read the same may still ink other marks (a font whose digits 3 and 8 are swapped
inks "18" over a text layer that reads "13"), so a page is the same only when both are.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...book.files import MAX_OUTPUT_BYTES, read_file
from ...errors import BuildError

INK_DPI = 50  # the resolution a page's ink is compared at: a digit of body text is some 7 pixels high, its strokes seen


@dataclass(frozen=True)
class Printed:
    """One page as its reader gets it: its words, and its ink (grey pixels, row by row, and the picture's size)."""

    text: str
    ink: bytes
    size: tuple[int, int]


def page_prints(pdf: Path, dpi: int = INK_DPI) -> list[Printed]:
    """Every page of ``pdf``, in order: the text its text layer reads, and its ink drawn at ``dpi`` in grey."""
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(read_file(pdf, MAX_OUTPUT_BYTES))
    except pdfium.PdfiumError as exc:
        raise BuildError(f"{pdf.name}: not a PDF that can be read ({exc})") from None
    pages = []
    try:
        for page in document:
            textpage = page.get_textpage()
            text = textpage.get_text_range()
            drawn = page.render(scale=dpi / 72, grayscale=True).to_pil()
            pages.append(Printed(text.replace("\r\n", "\n"), drawn.tobytes(), drawn.size))
            textpage.close()
            page.close()
    finally:
        document.close()
    return pages

"""WeasyPrint, set up once: bundled fonts, the print stylesheet, the locked fetcher, PDF/UA output.

Every PDF the project makes goes through an ``Engine``. It parses the stylesheet and registers
the fonts once, however many documents it lays out, so the book's parts share one set of fonts
and are embedded once when their pages are written together.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .fetcher import ASSET_ROOT, ProjectFetcher, RefusedResource

PAPER = {"letter": "letter", "a4": "A4"}


def _weasy() -> Any:
    import weasyprint  # imported late: it is slow to import and only the PDF needs it

    _cache_page_references()
    return weasyprint


def _cache_page_references() -> None:
    """Make pydyf's ``PDF.page_references`` a cached list instead of one rebuilt on every call.

    pydyf 0.13 rebuilds the tuple of all page references each time it is read, and WeasyPrint
    reads it once per tagged element (PDF/UA), so writing grows with pages x elements: a
    2,600-page book spent most of its write time there. The cache is keyed by the length of
    ``Kids``, which pydyf only ever appends to, so the answer is always the one pydyf would give
    (tests/test_pdf.py compares them).
    """
    import pydyf

    original = pydyf.PDF.__dict__.get("page_references")
    if not isinstance(original, property) or getattr(original.fget, "rulebook_cached", False):
        return

    def page_references(pdf: Any) -> tuple[bytes, ...]:
        kids = pdf.pages["Kids"]
        cached = pdf.__dict__.get("_rulebook_page_references")
        if cached is None or cached[0] != len(kids):
            cached = (len(kids), original.fget(pdf))
            pdf.__dict__["_rulebook_page_references"] = cached
        return cached[1]

    page_references.rulebook_cached = True  # type: ignore[attr-defined]
    page_references.original = original.fget  # type: ignore[attr-defined]
    pydyf.PDF.page_references = property(page_references)


@contextmanager
def without_cycle_collector() -> Iterator[None]:
    """Pause Python's cycle collector while WeasyPrint lays out and writes.

    A layout allocates millions of small objects that live until the PDF is written; the
    collector keeps rescanning them and frees almost nothing (the book's peak memory grows by
    5 %), which cost about 15 % of the render time. Reference counting still frees everything else.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Engine:
    """Lays out HTML with the print stylesheet and bundled fonts, and writes tagged PDFs."""

    def __init__(self, paper: str = "letter") -> None:
        weasyprint = _weasy()
        from weasyprint.text.fonts import FontConfiguration

        self.paper = paper
        self.fonts = FontConfiguration()  # the bundled @font-face fonts, not the system's
        self.stylesheets = [weasyprint.CSS(filename=str(ASSET_ROOT / "print.css"), url_fetcher=ProjectFetcher(),
                                           font_config=self.fonts)]
        if paper != "letter":
            self.stylesheets.append(self.css(f"@page {{ size: {PAPER[paper]}; }} @page sheet-wide {{ size: {PAPER[paper]} landscape; }}"
                                              " .cover { height: 297mm; }"))

    def css(self, text: str) -> Any:
        """A stylesheet of the project's own making (never contributor text)."""
        return _weasy().CSS(string=text, font_config=self.fonts)

    def document(self, html: str, extra: Sequence[Any] = ()) -> Any:
        """Lay out ``html``; a resource outside the print assets stops the render."""
        from weasyprint.urls import FatalURLFetchingError

        fetcher = ProjectFetcher()
        doc = _weasy().HTML(string=html, base_url=str(ASSET_ROOT) + "/", url_fetcher=fetcher)
        try:
            return doc.render(stylesheets=[*self.stylesheets, *extra], font_config=self.fonts, pdf_tags=True)
        except FatalURLFetchingError as exc:  # a BaseException in WeasyPrint: turn it into a build error
            raise RefusedResource(fetcher.refused[-1] if fetcher.refused else str(exc)) from None

    @staticmethod
    def write(documents: Sequence[Any], target: Path) -> None:
        """Write the pages of ``documents``, in order, as one PDF/UA file (metadata from the first)."""
        pages = [page for document in documents for page in document.pages]
        combined = documents[0] if len(documents) == 1 else documents[0].copy(pages)
        combined.write_pdf(str(target), pdf_variant="pdf/ua-1", uncompressed_pdf=False, custom_metadata=False)


def page_fill(page: Any) -> float:
    """How far down its text area a laid-out page's lowest line or table row reaches: 0 empty, 1 full."""
    from weasyprint.formatting_structure import boxes

    page_box = page._page_box  # WeasyPrint keeps the laid-out boxes here; the public Page has no extent
    top, height = page_box.content_box_y(), page_box.height
    lowest = top
    for child in page_box.children:
        if isinstance(child, boxes.MarginBox):
            continue  # the running header and footer
        for box in child.descendants():
            if isinstance(box, (boxes.LineBox, boxes.TableRowBox, boxes.ReplacedBox)):
                lowest = max(lowest, box.position_y + box.margin_height())
    return (lowest - top) / height if height else 0.0


def document(html: str, paper: str = "letter") -> Any:
    """Lay out one HTML document with a fresh engine."""
    return Engine(paper).document(html)

"""WeasyPrint, set up once: bundled fonts, the print stylesheet, the locked fetcher, PDF/UA output.

Every PDF the project makes goes through an ``Engine``. It parses the stylesheet and registers
the fonts once, however many documents it lays out, so the book's parts share one set of fonts
and are embedded once when their pages are written together.
"""

from __future__ import annotations

import gc
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ...book.words import _
from .. import patches
from .fetcher import ASSET_ROOT, ProjectFetcher, RefusedResource

PAPER = {"letter": "letter", "a4": "A4", "half-letter": "5.5in 8.5in", "a5": "A5"}  # name -> CSS page size
PAGE_HEIGHT = {"letter": "279.4mm", "a4": "297mm", "half-letter": "215.9mm", "a5": "210mm"}  # the cover fills it
# The booklet's page, half its sheet of paper: the book is laid out again at this size (booklet.css).
BOOK_CSS = "book.css"  # a book's own print stylesheet, in its templates/print/: added to the tool's (``book_css``)


def css_string(text: str) -> str:
    """``text`` as the inside of a CSS string: its quotes and backslashes escaped, a line break a space."""
    return re.sub(r"[\r\n]+", " ", text).replace("\\", "\\\\").replace('"', '\\"')


BOOKLET_PAGE = {"letter": "half-letter", "a4": "a5"}


def _weasy() -> Any:
    import weasyprint  # imported late: it is slow to import and only the PDF needs it

    patches.apply()  # the register of what this project changes in WeasyPrint (patches.py)
    return weasyprint


@contextmanager
def without_cycle_collector() -> Iterator[None]:
    """Pause Python's cycle collector while WeasyPrint lays out and writes.

    A layout allocates millions of small objects that live until the PDF is written; the
    collector keeps rescanning them and frees almost nothing (the book's peak memory grows by
    5 %), which cost about 15 % of the render time. Reference counting still frees everything else.
    The objects alive before (the data model, the modules, fonts) are frozen out of the collections
    the book asks for between parts (``Layout.let_go``): each full collection walked them all again,
    about 45 ms, six times a book (time in those collections 0.5 -> 0.3 s).
    """
    enabled = gc.isenabled()
    gc.disable()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


class EngineWarnings(logging.Handler):
    """WeasyPrint's own warnings and errors (a stylesheet or image it could not use, CSS it ignored), kept to be told
    in its words (``tell``): WeasyPrint gives its logger a handler that drops them. Each kind once, the first of its
    kind, and how many more there were."""

    def __init__(self, say: Callable[[str], None]) -> None:
        super().__init__(logging.WARNING)
        self.say = say
        self.said: dict[str, tuple[str, int]] = {}  # by the message less what it quotes: the first, and how many

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = " ".join(record.getMessage().split())
        except Exception:  # noqa: BLE001 - a message that cannot be formatted is still told
            message = " ".join(str(record.msg).split())
        kind = re.sub(r"'[^']*'|`[^`]*`|\d+", "…", message)
        first, n = self.said.get(kind, (message, 0))
        self.said[kind] = (first, n + 1)

    def tell(self) -> None:
        """Say each kind of message kept since the last ``tell``, once, with how many more like it."""
        for first, n in self.said.values():
            self.say(f"WeasyPrint: {first}" + (f" (and {n - 1} more like it)" if n > 1 else ""))
        self.said.clear()


@contextmanager
def engine_warnings(say: Callable[[str], None]) -> Iterator[EngineWarnings]:
    """Within this block, what WeasyPrint warns of is kept, and told to ``say`` at its end (``EngineWarnings``)."""
    logger, handler = logging.getLogger("weasyprint"), EngineWarnings(say)
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        handler.tell()


class Engine:
    """Lays out HTML with the print stylesheet and bundled fonts, and writes tagged PDFs."""

    # What the book's PDF writer is told beyond the fonts (writer.PdfWriter's keywords): a print-shop engine writes
    # PDF/X-4 without links (printshop.py).
    writer_options: dict[str, Any] = {}

    def side_css(self, first_page: int) -> str:
        """The page sides' margins and folios for a part whose first page is ``first_page``: the booklet's, outside
        it none (a right-hand and a left-hand page are alike)."""
        from . import booklet

        return booklet.side_css(first_page) if self.paper in BOOKLET_PAGE.values() else ""

    def __init__(self, paper: str = "letter", book: Path | None = None) -> None:
        # ``book``: the book's folder, whose templates/print/ overrides the tool's stylesheets and fonts file by file
        # (None: the tool's alone, for HTML of our own making). Every engine the generator makes is given it
        # (tests/test_own_print.py reads every call).
        _weasy()  # patched (patches.py) before anything of it is made
        from weasyprint.text.fonts import FontConfiguration

        self.paper, self.book = paper, book
        self.fonts = FontConfiguration()  # the bundled @font-face fonts, not the system's
        self.stylesheets = [self.asset_css("print.css")]
        if paper in BOOKLET_PAGE.values():
            self.stylesheets.append(self.asset_css("booklet.css"))
        if paper != "letter":
            self.stylesheets.append(self.css(f"@page {{ size: {PAPER[paper]}; }} @page sheet-wide {{ size: {PAPER[paper]} landscape; }}"
                                              f" .cover {{ height: {PAGE_HEIGHT[paper]}; }}"))
        edition = _("Edition")
        if edition != "Edition":  # print.css's footer says it in English; the book's language says it so
            self.stylesheets.append(self.css(
                f'@page {{ @bottom-left {{ content: "{css_string(edition)} " string(edition); }} }}'))
        self.stylesheets += self.book_css()

    def book_css(self) -> list[Any]:
        """The book's own stylesheet (templates/print/book.css), added after the tool's: every output prints with
        it, the print shop's interior too; none when the book has none."""
        if self.book is None or not (self.book / "templates" / "print" / BOOK_CSS).is_file():
            return []
        return [self.asset_css(BOOK_CSS)]

    def asset_css(self, name: str) -> Any:
        """The print stylesheet ``name``, the book's own or the tool's, read (with what it loads) by the fetcher."""
        from weasyprint.urls import FatalURLFetchingError

        fetcher = ProjectFetcher(self.book)
        try:
            return _weasy().CSS(url=fetcher.stylesheet(name), url_fetcher=fetcher, font_config=self.fonts)
        except FatalURLFetchingError as exc:  # a BaseException in WeasyPrint: turn it into a build error
            raise RefusedResource(fetcher.refused[-1] if fetcher.refused else str(exc)) from None

    def css(self, text: str) -> Any:
        """A stylesheet of the project's own making (never contributor text)."""
        return _weasy().CSS(string=text, font_config=self.fonts)

    def document(self, html: str, extra: Sequence[Any] = (), edit: Callable[[Any], None] | None = None) -> Any:
        """Lay out ``html`` (its parsed tree changed by ``edit`` first, if given); a resource outside
        the print assets stops the render."""
        from weasyprint.urls import FatalURLFetchingError

        fetcher = ProjectFetcher(self.book)
        doc = _weasy().HTML(string=html, base_url=str(ASSET_ROOT) + "/", url_fetcher=fetcher)
        if edit is not None:
            edit(doc.etree_element)
        try:
            return doc.render(stylesheets=[*self.stylesheets, *extra], font_config=self.fonts, pdf_tags=True)
        except FatalURLFetchingError as exc:  # a BaseException in WeasyPrint: turn it into a build error
            raise RefusedResource(fetcher.refused[-1] if fetcher.refused else str(exc)) from None

    @staticmethod
    def write(documents: Sequence[Any], target: Path) -> None:
        """Write the pages of ``documents``, in order, as one PDF/UA file (metadata from the first)."""
        from .writer import PdfWriter

        writer = PdfWriter(documents[0].font_config)
        for document in documents:
            for page in document.pages:
                writer.add(page)
        writer.write(target, documents[0].metadata)


def lowest_content(page: Any) -> float:
    """How far down a laid-out page its lowest line, table row or image reaches (CSS px from the top)."""
    from weasyprint.formatting_structure import boxes

    page_box = page._page_box  # WeasyPrint keeps the laid-out boxes here; the public Page has no extent
    lowest = page_box.content_box_y()
    for child in page_box.children:
        if isinstance(child, boxes.MarginBox):
            continue  # the running header and footer
        for box in child.descendants():
            if isinstance(box, (boxes.LineBox, boxes.TableRowBox, boxes.ReplacedBox)):
                lowest = max(lowest, box.position_y + box.margin_height())
    return lowest


def content_bottom(page: Any) -> float:
    """Where a laid-out page's text area ends (CSS px from the top)."""
    return page._page_box.content_box_y() + page._page_box.height


def page_fill(page: Any) -> float:
    """How far down its text area a laid-out page's lowest line or table row reaches: 0 empty, 1 full."""
    top, height = page._page_box.content_box_y(), page._page_box.height
    return (lowest_content(page) - top) / height if height else 0.0


def document(html: str, paper: str = "letter", book: Path | None = None) -> Any:
    """Lay out one HTML document with a fresh engine (``book``'s print assets over the tool's)."""
    return Engine(paper, book).document(html)

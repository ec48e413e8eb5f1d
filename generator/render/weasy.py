"""WeasyPrint, set up once: bundled fonts, the print stylesheet, the locked fetcher, PDF/UA output.

Every PDF the project makes goes through an ``Engine``. It parses the stylesheet and registers
the fonts once, however many documents it lays out, so the book's parts share one set of fonts
and are embedded once when their pages are written together.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .fetcher import ASSET_ROOT, ProjectFetcher, RefusedResource

PAPER = {"letter": "letter", "a4": "A4", "half-letter": "5.5in 8.5in", "a5": "A5"}  # name -> CSS page size
PAGE_HEIGHT = {"letter": "279.4mm", "a4": "297mm", "half-letter": "215.9mm", "a5": "210mm"}  # the cover fills it
# The booklet's page, half its sheet of paper: the book is laid out again at this size (booklet.css).
BOOKLET_PAGE = {"letter": "half-letter", "a4": "a5"}


def _weasy() -> Any:
    import weasyprint  # imported late: it is slow to import and only the PDF needs it

    _cache_page_references()
    _deflate_large_streams_once()
    _keep_unbreakable_floats_whole()
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


# Payloads between these sizes (bytes: whole fonts and the like) are deflated once per process; a larger
# one (a long book's object stream, written once) is not kept.
LARGE_STREAM, HUGE_STREAM = 64 * 1024, 4 * 1024 * 1024


class _Deflater:
    """One of pydyf's compressors: a large payload's deflated bytes are remembered by the payload."""

    remembered: dict[bytes, bytes] = {}

    def __init__(self, zlib: Any, args: tuple, kwargs: dict) -> None:
        self.zlib, self.args, self.kwargs = zlib, args, kwargs
        self.payload: bytes | None = None
        self.small: Any = None

    def compress(self, data: bytes) -> bytes:
        if not LARGE_STREAM <= len(data) < HUGE_STREAM or self.payload is not None or self.small is not None:
            self.small = self.small or self.zlib.compressobj(*self.args, **self.kwargs)
            return self.small.compress(data)
        self.payload = data
        return b""

    def flush(self, *mode: int) -> bytes:
        if self.small is not None:
            return self.small.flush(*mode)
        key = (self.payload, self.args, tuple(sorted(self.kwargs.items())))
        if key not in self.remembered:
            if len(self.remembered) >= 16:  # a few fonts at most; never grows with the book
                self.remembered.clear()
            deflate = self.zlib.compressobj(*self.args, **self.kwargs)
            self.remembered[key] = deflate.compress(self.payload) + deflate.flush(*mode)
        return self.remembered[key]


def _deflate_large_streams_once() -> None:
    """Deflate each large PDF stream once per process, not once per file it is written into.

    pydyf deflates every stream at level 9 each time a PDF is written, and every score sheet embeds
    the same whole font for its form fields (about 380 KB: a fillable field must show any letter
    typed), which was a fifth of writing a sheet. The bytes are the ones zlib would give again
    (tests/test_pdf.py compares them).
    """
    import types
    import zlib

    import pydyf

    if isinstance(pydyf.zlib, types.SimpleNamespace):
        return
    shim = types.SimpleNamespace(**{name: getattr(zlib, name) for name in dir(zlib) if not name.startswith("__")})
    shim.compressobj = lambda *args, **kwargs: _Deflater(zlib, args, kwargs)
    pydyf.zlib = shim


AVOID = ("avoid", "avoid-page")


class _CancelBox(Exception):
    """Raised out of a box's layout when nothing of it may end this page (WeasyPrint's own "abort")."""

    def __init__(self, parent: Any, page: Any) -> None:
        super().__init__()
        self.parent, self.page = parent, page


def _keep_unbreakable_floats_whole() -> None:
    """Make WeasyPrint honour ``break-inside: avoid`` on a float, as CSS Fragmentation asks.

    WeasyPrint 70 lays a float out as if it opened an empty page, so a float that reaches the foot
    of a page is split there whatever its ``break-inside`` says: a game's floated "At a glance" box
    printed its caption on one page and its rows on the next. Here a float that came back split and
    may not be is taken off the page, and the page breaks before it by the rules WeasyPrint applies
    to a block that does not fit: where ``break-after: avoid`` forbids the break (a heading just
    above the box), at an earlier break; where the box holds no allowed break at all (a game's
    heading, its marks, its box), before the whole box, as WeasyPrint's own ``abort`` does for an
    in-flow block. A float that opens an empty page still splits, so that one taller than a page is
    not lost. Proven on fixtures in tests/test_floats.py, one per case.
    """
    from weasyprint.layout import block

    if getattr(block._out_of_flow_layout, "rulebook_patched", False):
        return
    original, original_container = block._out_of_flow_layout, block.block_container_layout
    for function, names in ((original, ("context", "box", "index", "child", "new_children", "page_is_empty",
                                        "absolute_boxes", "fixed_boxes", "adjoining_margins", "bottom_space")),
                            (original_container, ("context", "box", "bottom_space", "skip_stack", "page_is_empty",
                                                  "absolute_boxes", "fixed_boxes", "adjoining_margins",
                                                  "first_letter_style", "first_line_style", "discard", "max_lines"))):
        if function.__code__.co_varnames[:len(names)] != names:  # a WeasyPrint this was not written for
            raise RuntimeError(f"weasyprint.layout.block.{function.__name__} changed; see render/weasy.py")

    def out_of_flow_layout(context: Any, box: Any, index: int, child: Any, new_children: list, page_is_empty: bool,
                           absolute_boxes: list, fixed_boxes: list, adjoining_margins: list, bottom_space: float):
        opens_page = page_is_empty and not new_children
        result = original(context, box, index, child, new_children, page_is_empty, absolute_boxes, fixed_boxes,
                          adjoining_margins, bottom_space)
        stop, resume_at, new_child, float_resume_at = result
        if not child.is_floated() or opens_page or box.is_monolithic():
            return result
        split = float_resume_at is not None and child.style["break_inside"] in AVOID
        # Did not fit at all: WeasyPrint breaks before it, having found no earlier break it may take.
        pushed = stop and resume_at == {index: None} and all(c is not new_child for c in new_children)
        if not (split or pushed):
            return result

        def take_back() -> None:
            if split:
                new_children.remove(new_child)
                block.remove_placeholders(context, [new_child], absolute_boxes, fixed_boxes)  # its shape too

        others = [c for c in new_children if c is not new_child]
        if others:
            page_break = block.block_level_page_break(block.find_last_class_a_break_point_child(others), child)
            if not block.avoid_page_break(page_break, context):
                take_back()
                return True, {index: None}, None, None
            earlier = block.find_earlier_page_break(context, others, absolute_boxes, fixed_boxes) if split else None
            if earlier:
                take_back()
                new_children[:], resume_at = earlier
                return True, resume_at, None, None
        if page_is_empty:  # the box opens the page, so moving it gains nothing: WeasyPrint's layout stands
            return result
        take_back()
        block.remove_placeholders(context, new_children, absolute_boxes, fixed_boxes)
        raise _CancelBox(box, child.page_values()[0])

    def block_container_layout(context: Any, box: Any, bottom_space: float, skip_stack: Any, page_is_empty: bool,
                               absolute_boxes: list, fixed_boxes: list, adjoining_margins: Any,
                               first_letter_style: Any, first_line_style: Any, discard: bool, max_lines: Any):
        try:
            return original_container(context, box, bottom_space, skip_stack, page_is_empty, absolute_boxes,
                                      fixed_boxes, adjoining_margins, first_letter_style, first_line_style,
                                      discard, max_lines)
        except _CancelBox as cancel:
            if cancel.parent is not box:
                raise
            if box.establishes_formatting_context():
                context.finish_block_formatting_context()
            return None, None, {"break": "any", "page": cancel.page}, [], False, max_lines

    out_of_flow_layout.rulebook_patched = True  # type: ignore[attr-defined]
    block._out_of_flow_layout, block.block_container_layout = out_of_flow_layout, block_container_layout


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


class Engine:
    """Lays out HTML with the print stylesheet and bundled fonts, and writes tagged PDFs."""

    def __init__(self, paper: str = "letter") -> None:
        weasyprint = _weasy()
        from weasyprint.text.fonts import FontConfiguration

        self.paper = paper
        self.fonts = FontConfiguration()  # the bundled @font-face fonts, not the system's
        self.stylesheets = [weasyprint.CSS(filename=str(ASSET_ROOT / "print.css"), url_fetcher=ProjectFetcher(),
                                           font_config=self.fonts)]
        if paper in BOOKLET_PAGE.values():
            self.stylesheets.append(weasyprint.CSS(filename=str(ASSET_ROOT / "booklet.css"), url_fetcher=ProjectFetcher(),
                                                   font_config=self.fonts))
        if paper != "letter":
            self.stylesheets.append(self.css(f"@page {{ size: {PAPER[paper]}; }} @page sheet-wide {{ size: {PAPER[paper]} landscape; }}"
                                              f" .cover {{ height: {PAGE_HEIGHT[paper]}; }}"))

    def css(self, text: str) -> Any:
        """A stylesheet of the project's own making (never contributor text)."""
        return _weasy().CSS(string=text, font_config=self.fonts)

    def document(self, html: str, extra: Sequence[Any] = (), edit: Callable[[Any], None] | None = None) -> Any:
        """Lay out ``html`` (its parsed tree changed by ``edit`` first, if given); a resource outside
        the print assets stops the render."""
        from weasyprint.urls import FatalURLFetchingError

        fetcher = ProjectFetcher()
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


def document(html: str, paper: str = "letter") -> Any:
    """Lay out one HTML document with a fresh engine."""
    return Engine(paper).document(html)

"""The register: every place this project changes, re-does or reads the internals of WeasyPrint, pydyf, pypdf or MkDocs.

Each ``Entry`` says what it reaches into, where in this project, the upstream issue or pull request it works
around (or, where none exists, what one would ask for), and why no design of this project avoids it. Its canary,
tests/test_patches.py's ``CANARIES[entry.name]``, runs the unpatched upstream code on a tiny case and asserts the
behaviour the entry works around: when upstream changes it, the canary fails and says to revisit the entry.
tests/test_patches.py also reads every module of generator/ and fails on a reach into those projects that no entry
names. Upstream versions read: WeasyPrint 70.0, pydyf 0.13.0, pypdf 7.1.0, MkDocs 1.6.1 (requirements.lock).

The code the entries need is here, so that the register moves as one module: ``apply()`` puts the one patch
that replaces upstream code in place, ``new_pdf`` and ``stream_data`` are what the PDF writer uses instead of the two
pydyf patches it once had. It imports nothing of this project.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

KINDS = {
    "patch": "replaces upstream code in place, for the whole process (applied by apply())",
    "subclass": "a subclass of an upstream class, used by this project only, overrides what upstream does",
    "around": "this project's code around upstream's public API undoes what upstream does",
    "copy": "this project does again what upstream code does, differently",
    "private": "calls or reads upstream names that are not upstream's public API",
}


@dataclass(frozen=True)
class Entry:
    """One reach into another project's internals."""

    name: str  # its canary's key in tests/test_patches.py
    kind: str  # one of KINDS
    reaches: tuple[str, ...]  # the upstream names it patches, overrides, re-does, calls or reads
    where: tuple[str, ...]  # the modules of this project that hold it (paths under generator/)
    does: str  # what it does, in a sentence
    upstream: str  # the upstream issue or pull request, or "none: ..." and what an upstream issue would ask for
    unavoidable: str  # why no design of this project avoids it
    apply: Callable[[], None] | None = None  # a patch: puts it in place (once; again is a no-op)


# --- float-break-inside: WeasyPrint lays out a float as if it opened a page --------------------------------------

AVOID = ("avoid", "avoid-page")
_ORIGINALS: dict[tuple[Any, str], Any] = {}  # (module, name) -> the upstream function a patch replaced


class _CancelBox(Exception):
    """Raised out of a box's layout when nothing of it may end this page (WeasyPrint's own "abort")."""

    def __init__(self, parent: Any, page: Any) -> None:
        super().__init__()
        self.parent, self.page = parent, page


def keep_unbreakable_floats_whole() -> None:
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
            raise RuntimeError(f"weasyprint.layout.block.{function.__name__} changed; see render/patches.py")

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
    _ORIGINALS[block, "_out_of_flow_layout"], _ORIGINALS[block, "block_container_layout"] = original, original_container
    block._out_of_flow_layout, block.block_container_layout = out_of_flow_layout, block_container_layout


# --- page-references: pydyf rebuilds the list of every page each time it is read ---------------------------------

@functools.cache
def _page_list_pdf() -> type:
    import pydyf

    class PageListPDF(pydyf.PDF):
        """pydyf's PDF, its page references rebuilt only once a page has been added since they were last read.

        pydyf 0.13 rebuilds the tuple of all page references each time it is read, and WeasyPrint reads it once
        per tagged element (PDF/UA), so writing grew with pages x elements: a 2,600-page book spent most of its
        write time there. Keyed by the length of ``Kids``, which pydyf only appends to, the answer is the one
        pydyf gives (tests/test_patches.py compares them); ``reordered`` forgets it when the writer reorders
        the pages.
        """

        _references: tuple[int, tuple[bytes, ...]] | None = None

        @property
        def page_references(self) -> tuple[bytes, ...]:
            count = len(self.pages["Kids"])
            if self._references is None or self._references[0] != count:
                self._references = (count, super().page_references)
            return self._references[1]

        def reordered(self) -> None:
            """Forget the page references: the pages have been put in another order."""
            self._references = None

    return PageListPDF


def new_pdf() -> Any:
    """A new pydyf PDF that reads its page references once per page added (entry ``page-references``)."""
    return _page_list_pdf()()


# --- deflate-once: pydyf deflates every stream again each time a file is written ---------------------------------

# Payloads between these sizes (bytes: whole fonts, a score sheet's page) are deflated once per process; a smaller one
# is cheap to deflate again, a larger one too big to keep.
LARGE_STREAM, HUGE_STREAM = 64 * 1024, 4 * 1024 * 1024
_DEFLATED: dict[tuple[bytes, bytes], bytes] = {}  # (a stream's dictionary, its payload) -> what pydyf writes


def stream_data(stream: Any) -> bytes:
    """What pydyf writes for ``stream`` (its ``data``), a large payload deflated once per process.

    pydyf deflates every stream at level 9 each time its bytes are asked for, and every score sheet embeds the same
    whole font for its form fields (about 380 KB: a fillable field must show any letter typed), which was a fifth of
    writing a sheet; the score pad repeats each sheet's pages. The payload is joined once, as pydyf joins it, read
    from the stream written undeflated (PDF's syntax: the dictionary, "stream", the bytes, "endstream", each on its
    own line), and deflated by pydyf as a stream of that one payload with the same dictionary: the same bytes
    (tests/test_patches.py compares them), kept by the dictionary and the payload.
    """
    import pydyf

    if not stream.compress:
        return stream.data
    plain = pydyf.Stream(stream.stream).data
    start = plain.index(b">>\nstream\n") + len(b">>\nstream\n")
    payload = plain[start:len(plain) - len(b"\nendstream")]
    deflated = pydyf.Stream([payload], stream.extra, compress=True)
    if not LARGE_STREAM <= len(payload) < HUGE_STREAM:
        return deflated.data
    key = (pydyf.Dictionary(stream.extra).data, payload)
    if key not in _DEFLATED:
        if len(_DEFLATED) >= 16:  # a few fonts and pages at most; never grows with the book
            _DEFLATED.clear()
        _DEFLATED[key] = deflated.data
    return _DEFLATED[key]


# --- the register ---------------------------------------------------------------------------------------------------

WEASYPRINT_WRITER = ("weasyprint.pdf.generate_pdf", "weasyprint.pdf.tags.add_tags",
                     "weasyprint.pdf.tags._build_box_tree", "weasyprint.pdf._use_references",
                     "weasyprint.pdf._w3c_date_to_pdf", "weasyprint.pdf.VARIANTS", "weasyprint.pdf.anchors.add_forms",
                     "weasyprint.pdf.anchors.add_links", "weasyprint.pdf.anchors.add_outlines",
                     "weasyprint.pdf.fonts.build_fonts_dictionary", "weasyprint.pdf.stream.Stream",
                     "weasyprint.anchors.make_page_bookmark_tree", "weasyprint.matrix.Matrix", "pydyf.PDF.objects",
                     "weasyprint.css.ColorProfile")

REGISTER: tuple[Entry, ...] = (
    Entry(
        name="float-break-inside", kind="patch",
        reaches=("weasyprint.layout.block._out_of_flow_layout", "weasyprint.layout.block.block_container_layout"),
        where=("render/patches.py",),
        does="A float with break-inside: avoid that would be split at the page foot goes whole to the next page, "
             "and with it a heading that may not end the page above it (keep_unbreakable_floats_whole).",
        upstream="none asks for this. Nearest: Kozea/WeasyPrint#1629 (closed; the maintainer: 'we force to draw the "
                 "beginning of a float when we reach the bottom of the page') and #2856 (closed 2026-08: float "
                 "pagination needs real css-break support); #2728 (merged) honours forced breaks around floats, not "
                 "break-inside. An issue would ask: float_layout lays a float out with page_is_empty=True, so "
                 "break-inside: avoid on a float that reaches the page foot is ignored; push it to the next page "
                 "(with the content that break-after: avoid ties to it) unless it opens the page.",
        unavoidable="The published book floats each game's 'At a glance' box beside its rules, and its pages are "
                    "frozen (edition 2026.1 reproduces it): text can flow around a box only if the box floats (no "
                    "flex or grid layout wraps text, WeasyPrint has no CSS exclusions), and a float's layout is "
                    "WeasyPrint's own, reachable only by replacing its functions.",
        apply=keep_unbreakable_floats_whole),
    Entry(
        name="page-references", kind="subclass", reaches=("pydyf.PDF.page_references",), where=("render/patches.py",),
        does="The writer's PDF (new_pdf) keeps its page references until a page is added or the pages reordered.",
        upstream="none found in CourtBouillon/pydyf (page_references unchanged since pydyf 0.5). An issue would ask "
                 "pydyf to keep the references as add_page adds pages (or WeasyPrint's tags.py to read them once per "
                 "page rather than once per tagged element).",
        unavoidable="WeasyPrint's tagging (weasyprint.pdf.tags) reads pdf.page_references once per tagged element; "
                    "PDF/UA needs every element tagged, so the only free choice is what that property costs, and only "
                    "the PDF object's class decides it. It was a patch of pydyf.PDF for the whole process until the "
                    "writer made its own PDF; now it is a subclass that only this project's files use.",
    ),
    Entry(
        name="deflate-once", kind="around", reaches=("pydyf.Stream.data",), where=("render/patches.py",),
        does="The writer serialises each stream through stream_data, which deflates a large payload once per process.",
        upstream="none found in CourtBouillon/pydyf or Kozea/WeasyPrint. An issue would ask pydyf to deflate a stream "
                 "once however often its data is read (or WeasyPrint to reuse a font's deflated file between "
                 "documents that share a FontConfiguration).",
        unavoidable="Every score sheet must embed the whole form font (a field shows any letter typed) and every file "
                    "is written by pydyf, which deflates at level 9 each time. Keeping the bytes by the stream's "
                    "dictionary and payload needs only pydyf's public API; it was a replacement of pydyf's zlib for "
                    "the whole process until the writer serialised the streams itself.",
    ),
    Entry(
        name="page-writer", kind="copy", reaches=WEASYPRINT_WRITER,
        where=("render/pdf/writer.py",),
        does="writer.py re-does WeasyPrint's generate_pdf and add_tags a page at a time, calling the same internal "
             "functions (a PDF/X file's sRGB output intent as generate_pdf adds it, with WeasyPrint's ColorProfile), and "
             "replaces each finished page's pydyf objects with their final bytes.",
        upstream="Kozea/WeasyPrint#1824 (closed: 'the last steps of the PDF generation require the whole document to "
                 "be available in memory'), #671 (closed), #416 (open: stream the PDF). An issue would ask for a "
                 "writer that draws and tags each page as it is given and keeps only its serialised objects.",
        unavoidable="WeasyPrint's write_pdf draws and tags the pages only once every page is laid out, so the whole "
                    "layout stays in memory (about 2 MB a page, 4 GB for a 1000-game book), and its public API "
                    "offers no other writer. Laying the book out in parts needs a writer that takes pages as they "
                    "come; calling WeasyPrint's own drawing and tagging keeps the file WeasyPrint's "
                    "(tests/test_writer.py compares them).",
    ),
    Entry(
        name="form-fields", kind="around", reaches=("weasyprint.pdf.anchors.add_forms",), where=("render/pdf/writer.py",),
        does="The writer gives each empty text field that add_forms made an appearance of its own and sets "
             "NeedAppearances false, and gives a sheet's totals a calculate action and a place in /CO.",
        upstream="none found in Kozea/WeasyPrint (searched: appearance streams, NeedAppearances, calculated fields). "
                 "An issue would ask add_forms to give each text field an appearance stream (and leave NeedAppearances "
                 "false), and for a way to make a field the sum of others.",
        unavoidable="Fields are made inside WeasyPrint's add_forms with no option for either; without appearances "
                    "poppler took 3.0 s to read the score pad's text (0.36 s with them), and a total that adds itself "
                    "up is the score sheet's promise. The writer post-processes the dictionaries add_forms returns.",
    ),
    Entry(
        name="table-scope", kind="around",
        reaches=("weasyprint.pdf.tags._build_box_tree", "weasyprint.formatting_structure.boxes"),
        where=("render/pdf/tagging.py",),
        does="After WeasyPrint tags a page, each header cell (TH) gets the /Scope of its HTML scope attribute and each "
             "data cell (TD) the /Headers of every header cell that heads it (associate_headers), read from the cells' "
             "boxes and the structure elements WeasyPrint keeps on them (box.mark).",
        upstream="Kozea/WeasyPrint#2508 (open: 'PDF/UA: Tags for header cells in tables are missing', the /Scope of "
                 "th scope), #1784 (open: PDF/UA table bug). WeasyPrint 70 writes no /Scope, gives a data cell only "
                 "the header anchored in its first column (a column group's header over two columns heads one), and "
                 "counts a header with no text.",
        unavoidable="PDF/UA-1 (ISO 14289-1 7.5, Matterhorn 15-003) asks each TH for a Scope or each cell for its "
                    "Headers, and no HTML makes WeasyPrint write them; the elements exist only inside its tagging, "
                    "which the writer calls a page at a time (page-writer), so they are mended right after it.",
    ),
    Entry(
        name="margin-artifacts", kind="subclass",
        reaches=("weasyprint.pdf.stream.Stream", "weasyprint.pdf.stream.Stream._tags",
                 "weasyprint.pdf.tags._build_box_tree", "weasyprint.formatting_structure.boxes.MarginBox"),
        where=("render/pdf/tagging.py",),
        does="The writer's page stream (tagging.stream_class) paints the content of the page-margin boxes (running "
             "heads, page numbers) as /Artifact /Pagination (/Header or /Footer) sequences, and the writer tags only "
             "the page's other boxes (tagging.content_boxes).",
        upstream="Kozea/WeasyPrint#1836 (open, 'PDF/UA page header and footer': the maintainer, 2025-11: margin "
                 "content is marked but kept out of the tree; marking it as artifacts 'is not possible easily in "
                 "WeasyPrint'), #2829 (closed).",
        unavoidable="The book's running heads and page numbers are CSS margin boxes (the published pages), which "
                    "WeasyPrint paints as tagged content whose elements it leaves out of the tree; PDF/UA asks for "
                    "them as artifacts (ISO 14289-1 7.8, Matterhorn 18), and only the stream that paints them can.",
    ),
    Entry(
        name="empty-elements", kind="around", reaches=("weasyprint.pdf.tags._build_box_tree",),
        where=("render/pdf/tagging.py",),
        does="Structure elements that hold nothing (no content, no child, no /Alt), but a table's rows and cells, are "
             "taken out of the tree WeasyPrint builds for a page and freed (tagging.prune_empty).",
        upstream="Kozea/WeasyPrint#2482 (open, PDF/UA support improvement: 'Remove useless PDF Span tags that PAC "
                 "complains about'); PR #2471's notes: 'empty anonymous blocks are created sometimes'.",
        unavoidable="The book marks places for its layout's measures with empty spans (a game's end, its box's end: "
                    "their ids are anchors the tests and copyfit read); any element WeasyPrint lays out becomes a "
                    "structure element, and only the tree it returns can be pruned.",
    ),
    Entry(
        name="link-print-flag", kind="around", reaches=("weasyprint.pdf.anchors.add_links",),
        where=("render/pdf/tagging.py",),
        does="Each link annotation add_links makes gets the Print flag (/F 4), as its form fields have.",
        upstream="none found in Kozea/WeasyPrint (searched: link annotation print flag, /F). An issue would ask "
                 "add_links to set /F 4 on the annotations it makes (PDF/A requires it, PDF/UA checkers warn).",
        unavoidable="add_links makes the annotation dictionaries with no option for flags; a link has no border "
                    "(/BS /W 0), so the flag only says that print and screen agree.",
    ),
    Entry(
        name="page-box", kind="private",
        reaches=("weasyprint.document.Page._page_box", "weasyprint.formatting_structure.boxes"),
        where=("render/pdf/weasy.py", "render/pdf/copyfit.py", "render/pdf/scorepad.py", "render/pdf/writer.py"),
        does="Reads a laid-out page's box tree: how full a page is (copyfit), which rows fit (scorepad), and the "
             "tree WeasyPrint's own tagging walks (writer).",
        upstream="Kozea/WeasyPrint#265 (closed; the maintainer: page._page_box 'is an implementation detail that is "
                 "deliberately not documented'). An issue would ask for a documented read-only view of where a "
                 "page's content ends and of its table rows.",
        unavoidable="The public Page has its size, anchors, links, bookmarks and forms, never where its content "
                    "ends; measuring through anchors would add ids, which become named destinations in the PDF. "
                    "Copyfitting the published pages needs the measure.",
    ),
    Entry(
        name="pango-version", kind="private", reaches=("weasyprint.text.ffi.pango",), where=("render/pdf/cache.py",),
        does="The render cache's digest includes Pango's version and the text libraries' files, opened by the names "
             "WeasyPrint's binding opens them by (cache.TEXT_LIBRARY_NAMES), and through that binding where they "
             "cannot be opened so (tests/test_build.py holds the two to the same files).",
        upstream="none. An issue would ask WeasyPrint to expose the versions of the text libraries it loaded "
                 "(its --info option prints them, its Python API does not).",
        unavoidable="A Pango upgrade may set text differently, so it must invalidate kept renders; WeasyPrint "
                    "loads Pango itself, and its binding is the one that says which Pango it loaded.",
    ),
    Entry(
        name="pypdf-add-object", kind="private", reaches=("pypdf.PdfWriter._add_object",), where=("render/pdf/booklet.py",),
        does="The booklet adds each page as a form XObject, and each sheet's content stream, as indirect objects.",
        upstream="none found in py-pdf/pypdf. An issue would ask for a public PdfWriter method that adds an "
                 "indirect object (pypdf's own code and docs use _add_object).",
        unavoidable="A form XObject must be an indirect object, and pypdf 7.1 adds one only through _add_object; "
                    "merging pages instead (merge_transformed_page) copies each page's content into every sheet "
                    "and changes the booklet's bytes.",
    ),
    Entry(
        name="pypdf-file-id", kind="private", reaches=("pypdf.PdfWriter._ID",), where=("render/pdf/booklet.py",),
        does="The booklet's file identifier is the book's digest, set on the writer.",
        upstream="none found in py-pdf/pypdf. An issue would ask generate_file_identifiers to take the identifier "
                 "(it draws random bytes) or for a public setter.",
        unavoidable="The same book must give the same booklet (output is deterministic), and pypdf's only public "
                    "way to give a file an identifier draws it at random.",
    ),
    Entry(
        name="mkdocs-file-order", kind="copy", reaches=("mkdocs.structure.files._file_sort_key",),
        where=("render/site/docs.py",),
        does="site/docs.py's reading_order lists the generated pages as MkDocs lists a docs folder (an index first).",
        upstream="none: the order is MkDocs's own (get_files); an issue would ask for it as public API.",
        unavoidable="The pages are handed to MkDocs while they are still being written, so MkDocs cannot list the "
                    "folder itself; importing MkDocs's private function into the site worker would be a private "
                    "reach in its place.",
    ),
    Entry(
        name="mkdocs-serve-builder", kind="around", reaches=("mkdocs.livereload.LiveReloadServer.builder",),
        where=("render/site/plugin.py",),
        does="The plugin's on_serve wraps the server's rebuild (server.builder, which the server calls on each "
             "change): a rebuild that raises is told in one line at its file and line, and the site then built as "
             "the page saying so (plugin._keep_serving), instead of MkDocs's traceback and 'Aborted with a "
             "BuildError!'.",
        upstream="none found in mkdocs/mkdocs. An issue would ask LiveReloadServer to log a failed rebuild through "
                 "its logger (or a plugin event for it) instead of traceback.print_exc(), or on_serve to take the "
                 "builder back.",
        unavoidable="The exception leaves MkDocs's build (a template of the book's, Markdown, the configuration) "
                    "outside any plugin event: on_build_error is told of it but cannot stop it, and the server's "
                    "build loop prints it to stderr, not through a logger log.py could read.",
    ),
)

# Upstream classes whose documentation says to subclass them: not reaches into internals.
EXTENSION_POINTS = {
    "weasyprint.urls.URLFetcher": "WeasyPrint docs, first_steps.rst 'URL Fetchers': class MyFetcher(URLFetcher)",
    "mkdocs.plugins.BasePlugin": "MkDocs docs, dev-guide/plugins.md 'Developing Plugins'",
    "mkdocs.config.base.Config": "MkDocs docs, dev-guide/plugins.md 'config_scheme' (a Config subclass)",
}
# WeasyPrint's documented API (its docs/api_reference.rst): any other module of WeasyPrint is an internal one.
WEASYPRINT_PUBLIC = {"weasyprint": {"HTML", "CSS", "Attachment", "DEFAULT_OPTIONS", "VERSION", "Document", "Page"},
                     "weasyprint.document": {"Document", "DocumentMetadata", "Page"},
                     "weasyprint.urls": {"URLFetcher", "URLFetcherResponse", "FatalURLFetchingError"},
                     "weasyprint.text.fonts": {"FontConfiguration"}, "weasyprint.css.counters": {"CounterStyle"}}


def apply() -> None:
    """Put every patch in place (once per process)."""
    for entry in REGISTER:
        if entry.apply is not None:
            entry.apply()


@contextmanager
def unpatched() -> Iterator[None]:
    """Run upstream's own code for a while (a canary), the patches put back after."""
    apply()
    patched = {key: getattr(*key) for key in _ORIGINALS}
    try:
        for (module, name), original in _ORIGINALS.items():
            setattr(module, name, original)
        yield
    finally:
        for (module, name), function in patched.items():
            setattr(module, name, function)

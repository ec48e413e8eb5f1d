"""A tagged PDF written a page at a time: each page is drawn, tagged and serialised as it is added.

WeasyPrint's own writer (``weasyprint.pdf.generate_pdf``) draws the pages only once every page of
the document is laid out, so the whole layout stays in memory until the PDF is written: about 2 MB
a page, 4 GB for a 1000-game book. This writer does the same work page by page, in the order the
pages are laid out, and keeps of a page only its serialised objects and what the end of the file
needs (its bookmarks, its anchors, its place in the page order). The caller may then let the
page's layout go.

What differs from WeasyPrint's writer, and why:

- Pages may be added out of order (the book's contents is laid out last, when every page number is
  known) and are put in their places when the file is written.
- The structure tree's keys (``StructParents``, ``StructParent``) are numbered as pages and their
  link and form annotations are added, so that a page's objects are complete, and can be
  serialised, as soon as it is drawn. WeasyPrint numbers the annotations after the last page.
- A link to an anchor the document does not have is an error, not a warning and a dropped link.
- An empty text field (every cell of a score sheet) has an empty appearance of its own, and the form
  says viewers need not make appearances (``NeedAppearances`` false) when every field has one.
  WeasyPrint leaves text fields without one and asks every viewer to make them all: poppler took
  3.0 s to read the 37-page score pad's text (4,481 fields), 0.36 s with them. Each field owns its
  appearance stream: tools that fill a field write its value into that stream (pypdf does), so one
  stream shared by every box showed one player's name in all of them.
- A field the page's HTML marks ``data-sum`` (a sheet's Total box: the names of the fields it adds up) gets
  the calculate action viewers run (``SUM_SCRIPT``) and a place in the form's calculation order (``/CO``). It
  shows nothing until a box it waits for is written: ``data-show-when`` (a running total: its own hand's box),
  else any box it adds. The script is plain AcroForm JavaScript, a loop over ``getField(name).value``, as each
  viewer runs it (read in their sources):
  PDF.js (5.4.624, src/scripting_api): a Calculate action is evaluated globally (Field._runActions, globalEval),
  so ``this`` is the global object, on which initialization.js binds every Doc method (getField); Field.value is
  the text, a number when the text is one; EventDispatcher.runCalculate sets the field to event.value.
  PDFium (fxjs): the Document is the global object (CJS_Document, FXJSOBJTYPE_GLOBAL); CJS_Field::get_value gives a
  text field's text (a number when it is one, "" kept); CPDFSDK_InteractiveForm::OnCalculate runs /CO's actions
  and sets each field to what CJS_Event::set_value made of event.value.
  Acrobat (its Forms JavaScript Object Specification, Technical Note 5186; not run here): ``this`` in a field's
  script is the Doc, getField(name).value and a Calculate event's event.value are its API's.
  Not AFSimple_Calculate("SUM", ...): PDF.js's asks each term for getArray(), which scans every field name of the
  document for a field without kids (Doc._getTerminalChildren): the score pad's first entry took PDF.js 20-28 s.
  Each term is read by ``readScore``, the score keeper's own function (templates/site/assets/keeper.js, its text
  carried into each script: ``SCORE_READER``), so an entry reads the same on the site and in the PDF: "1,000" is
  1000, what is no number (``1e3``, ``12.5``) makes the total show ``UNREAD``, never a misread sum, NaN or Infinity.
  A sheet scored in halves (its boxes' ``data-halves``: the book's decimal sign) reads them with the keeper's
  ``readHalves`` instead, and adds "12.5" exactly.
- A score box (an ``inputmode="numeric"`` input that is no total) gets a validate action (``/AA /V``,
  ``READ_SCRIPT``): when an entry is committed, a number is written back as its digits (PDF.js reads a field's text
  as a number only its own way, "1,000" as 1), and what is no number is marked with ``UNREAD`` before it.

Everything else (drawing, fonts, forms, links, bookmarks, metadata, PDF/UA) is WeasyPrint 70's
code, called as ``generate_pdf`` calls it; tests/test_writer.py compares the two writers' files.
What this reaches into (WeasyPrint's internal functions, pydyf's object list) is in the register,
patches.py (``page-writer``, ``form-fields``, ``page-box``), with the pydyf PDF it writes into
(``page-references``) and how it deflates large streams once (``deflate-once``).
"""

from __future__ import annotations

import functools
import io
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ...book.files import TOOL_TEMPLATES, read_file, read_file_text
from ...errors import BuildError
from ..patches import new_pdf, stream_data
from . import tagging

_OUTSIDE = re.compile(r"(?i)(https?|mailto):")  # the addresses a link of the PDF may lead to (markup.URL_SCHEMES)
PDF_VARIANT = "pdf/ua-1"
# The time a font subset made by fontTools records as its 'head' table's modification date (WeasyPrint subsets with
# fontTools where HarfBuzz's subsetter, libharfbuzz-subset, is not installed; HarfBuzz keeps the font's own date).
# fontTools stamps the time it saves the font unless SOURCE_DATE_EPOCH names one (reproducible-builds.org): without
# it two renders of the same book differed in every embedded font, and so did every PDF. 2026-01-01, UTC.
FONT_TIME = "1767225600"

KEEPER_SCRIPT = TOOL_TEMPLATES / "site" / "assets" / "keeper.js"
UNREAD = "?"  # what a total shows, and what marks a box, when a box holds no number (keeper.js's words: unread)


def score_reader(script: str) -> str:
    """The text of ``readScore`` in the score keeper's ``script`` (between its 'score-box reader' marks), its comment
    lines dropped and its lines unindented: the one reader of a score box, on the site and in the PDF."""
    begin, end = "// score-box reader: begin", "// score-box reader: end"
    if begin not in script or end not in script:
        raise BuildError(f"{KEEPER_SCRIPT}: the score-box reader's marks ({begin!r}, {end!r}) are missing")
    lines = script[script.index(begin):script.index(end)].splitlines()
    return " ".join(line.strip() for line in lines if line.strip() and not line.strip().startswith("//"))


@functools.cache
def _scripts(group: str = ",") -> dict[str, str]:
    """The form's scripts, reading a score box as a book whose language groups thousands with ``group`` writes it
    (words.number_group), made once when a form is first written: read at import, keeper.js would be a file every
    command needs (a checkout without the tool's templates, as a pull request's code is run, could not even start)."""
    reader = score_reader(read_file_text(KEEPER_SCRIPT))
    sign = json.dumps(group[:1] or ",")  # one character, quoted: what readScore is given on the site (data-group)
    # The group sign is the same in both scripts, %-escaped: each is filled in (%s) where it is written.
    grouped = sign.replace("%", "%%")
    # A total's calculate action (tests/test_sheets.py's SUM_ACTION allows this text and READ_SCRIPT, nothing else),
    # filled in (%s) with the quoted names of the fields it adds and of those it waits for, and the sheet's decimal
    # sign where it is scored in halves (else null).
    total = ('(function (doc, terms, awaited, point) { ' + reader.replace("%", "%%") + ' var sum = 0, shown = false, '
             'unread = false, value, i, read = point ? function (text) { return readHalves(text, point, ' + grouped
             + '); } : function (text) { return readScore(text, ' + grouped + '); }; '
             'for (i = 0; i < awaited.length; i++) { value = doc.getField(awaited[i]).value; '
             'if (value !== "" && value !== null && value !== undefined) shown = true; } '
             'for (i = 0; i < terms.length; i++) { value = read(doc.getField(terms[i]).value); '
             'if (value === "") continue; if (isNaN(value)) unread = true; else sum += value; } '
             'event.value = shown ? (unread ? ' + json.dumps(UNREAD) + ' : (point ? String(sum).replace(".", point) '
             ': sum)) : ""; })(this, [%s], [%s], %s);')
    # A score box's validate action: the entry committed is read by readScore (readHalves on a sheet scored in
    # halves, %s its decimal sign, else null), grouped as the book's language groups thousands; a number is written
    # back as its digits, what is no number is kept, marked by UNREAD before it.
    read = ('(function (point) { ' + reader.replace("%", "%%") + ' var text = String(event.value === null || '
            'event.value === undefined ? "" : event.value), value = point ? readHalves(text, point, ' + grouped
            + ') : readScore(text, ' + grouped + '), mark = ' + json.dumps(UNREAD + " ") + '; '
            'if (value === "") return; if (!isNaN(value)) event.value = String(value).replace(".", point || "."); '
            'else if (text.indexOf(mark) !== 0) event.value = mark + text; })(%s);')
    return {"SCORE_READER": reader, "SUM_SCRIPT": total, "READ_SCRIPT": read}


def _book_scripts() -> dict[str, str]:
    """The form's scripts for the loaded book's language (words.current)."""
    from ...book.words import number_group

    return _scripts(number_group())


def __getattr__(name: str) -> str:
    """SCORE_READER, SUM_SCRIPT and READ_SCRIPT, made when first asked for (``_scripts``)."""
    if name in ("SCORE_READER", "SUM_SCRIPT", "READ_SCRIPT"):
        return _scripts()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _point(element: Any) -> str | None:
    """The decimal sign a box of a sheet scored in halves reads (its ``data-halves``), or None: '.' or ',' only, as
    the sheet's view makes it (a script quotes it)."""
    point = element.get("data-halves")
    if point is None:
        return None
    if point not in (".", ","):
        raise BuildError(f"the score box {element.get('name')!r} is scored in halves with the decimal sign {point!r}: "
                         "only '.' or ','")
    return point


@contextmanager
def _fonts_dated() -> Iterator[None]:
    """While the fonts are subset and embedded: SOURCE_DATE_EPOCH set to ``FONT_TIME``, then as it was."""
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = FONT_TIME
    try:
        yield
    finally:
        if before is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before


class _Serialised:
    """A PDF object whose bytes are final: it stands in for the object in the file's object list."""

    __slots__ = ("number", "offset", "generation", "free", "data", "compressible")

    def __init__(self, obj: Any, stream: bool) -> None:
        self.number, self.offset, self.generation, self.free = obj.number, obj.offset, obj.generation, obj.free
        self.data, self.compressible = stream_data(obj) if stream else obj.data, obj.compressible

    @property
    def indirect(self) -> bytes:
        return f"{self.number} {self.generation} obj\n".encode() + self.data + b"\nendobj"

    @property
    def reference(self) -> bytes:
        return f"{self.number} {self.generation} R".encode()


class _Null(_Serialised):
    """An object taken out of the file (an empty structure element): its number stays, its value is null."""

    __slots__ = ()

    def __init__(self, obj: Any) -> None:
        self.number, self.offset, self.generation, self.free = obj.number, obj.offset, obj.generation, obj.free
        self.data, self.compressible = b"null", True


class _OutlinePage:
    """What the outline needs of a page once its layout is gone."""

    def __init__(self, page: Any) -> None:
        self.bookmarks, self.height = page.bookmarks, page.height


def _calculation_order(calculated: list[tuple[bytes, str, list[str]]]) -> list[bytes]:
    """The totals' references (each: reference, name, the fields it reads) in the order a viewer runs them: each
    after the totals it reads (a grand total after the games' totals), else as they were added. PDF.js and
    Acrobat run /CO once, in its order, on every change: a total run before one it adds would show its old value."""
    by_name = {name: (reference, terms) for reference, name, terms in calculated}
    order: list[bytes] = []
    placed: set[str] = set()

    def place(name: str, path: tuple[str, ...]) -> None:
        if name in path:
            raise BuildError(f"the total {name!r} adds itself up: {' -> '.join(path[path.index(name):] + (name,))}")
        if name in placed:
            return
        reference, terms = by_name[name]
        for term in terms:
            if term in by_name:
                place(term, path + (name,))
        placed.add(name)
        order.append(reference)

    for _, name, _ in calculated:
        place(name, ())
    return order


class PdfWriter:
    """One PDF/UA-1 file, its pages added one at a time (see the module's docstring)."""

    def __init__(self, font_config: Any, accessible: bool = True, variant: str = PDF_VARIANT, links: bool = True,
                 output_intent: str | None = None) -> None:
        import pydyf
        from tinycss2.color5 import D50, D65
        from weasyprint import DEFAULT_OPTIONS
        from weasyprint.pdf import VARIANTS

        # ``variant``: PDF/UA-1, or PDF/X-4 for a print shop (printshop.py), which also asks for no links (no
        # annotation inside the trim) and an output intent: "srgb", WeasyPrint's own sRGB IEC61966-2.1 profile.
        self.variant, self.links, self.output_intent = variant, links, output_intent
        self.options = {**DEFAULT_OPTIONS, "pdf_variant": variant, "uncompressed_pdf": False,
                        "custom_metadata": False}
        _, properties = VARIANTS[variant]
        self.options.update({key: value for key, value in properties.items() if self.options.get(key) is None})
        self.compress = not self.options["uncompressed_pdf"]
        self.color_profiles: dict[str, Any] = {}
        # What PDF/UA needs beyond WeasyPrint's tagging (tagging.py); False: WeasyPrint's own file (tests/test_writer.py)
        self.accessible = accessible
        self.font_config = font_config
        self.pdf = pdf = new_pdf()  # pydyf's PDF, its page references read once per page (patches.py)
        self.fonts: dict[str, Any] = {}
        self.images: dict[str, Any] = {}
        # As generate_pdf sets them up: the colour spaces and the resources every page shares.
        lab = {name: pydyf.Array(("/Lab", pydyf.Dictionary({"WhitePoint": pydyf.Array(point),
                                                             "Range": pydyf.Array((-125, 125, -125, 125))})))
               for name, point in (("lab-d50", D50), ("lab-d65", D65))}
        color_space = pydyf.Dictionary(lab)
        if output_intent == "srgb":  # as generate_pdf adds it: the profile, and the colour space drawing in it
            from importlib.resources import files

            from weasyprint.css import ColorProfile

            icc = io.BytesIO(read_file(Path(str(files("weasyprint.pdf") / "sRGB2014.icc"))))  # through the door
            self.color_profiles["srgb"] = profile = ColorProfile(icc, "sRGB2014.icc", "relative-colorimetric",
                                                                 (["r"], ["g"], ["b"]))
            stream = pydyf.Stream([profile.content], pydyf.Dictionary({"N": 3}), compress=self.compress)
            pdf.add_object(stream)
            profile.pdf_reference = stream.reference
            color_space["srgb"] = pydyf.Array(("/ICCBased", stream.reference))
        pdf.add_object(color_space)
        self.resources = pydyf.Dictionary({"ExtGState": pydyf.Dictionary(), "XObject": pydyf.Dictionary(),
                                           "Pattern": pydyf.Dictionary(), "Shading": pydyf.Dictionary(),
                                           "ColorSpace": color_space.reference})
        pdf.add_object(self.resources)
        # As add_tags sets them up: the structure tree's root and its one Document element.
        self.parent_tree = pydyf.Dictionary({"Nums": pydyf.Array()})
        pdf.add_object(self.parent_tree)
        self.structure_root = pydyf.Dictionary({"Type": "/StructTreeRoot", "ParentTree": self.parent_tree.reference})
        pdf.add_object(self.structure_root)
        self.structure_document = pydyf.Dictionary({"Type": "/StructElem", "S": "/Document", "K": pydyf.Array(),
                                                    "P": self.structure_root.reference})
        pdf.add_object(self.structure_document)
        self.structure_root["K"] = pydyf.Array([self.structure_document.reference])
        pdf.catalog["StructTreeRoot"] = self.structure_root.reference
        self.names: list[list[Any]] = []  # named destinations: [anchor, destination]
        self.anchors: set[str] = set()
        self.link_targets: dict[str, int] = {}  # internal link target -> the position of a page linking to it
        self.outline: list[tuple[tuple[int, int], _OutlinePage]] = []  # (place in the file, page) of every page
        self.calculated: list[tuple[bytes, str, list[str]]] = []  # each total: (reference, name, the fields it reads)
        self.field_names: set[str] = set()
        self.without_appearance = 0  # form fields left for a viewer to draw (a text field with a value)
        self.keys = 0  # the next structure parent tree key
        self.elements: list[list[bytes]] = []  # each page's top structure elements, the Document's in page order
        # (first page's place in the file, style: "D" decimal, "r" roman, and its number; or "" and its label,
        # '30a') of each run of labels; empty: none written, the viewer numbers the pages from 1
        self.page_labels: list[tuple[int, str, int | str]] = []

    @property
    def pages(self) -> int:
        """How many pages have been added."""
        return len(self.outline)

    def add(self, page: Any, first: bool = False) -> None:
        """Draw, tag and serialise one laid-out page. The file has the pages in the order they were added,
        those added ``first`` (the book's contents, laid out last) before all the others."""
        import pydyf
        from weasyprint.matrix import Matrix
        from weasyprint.pdf.anchors import add_forms, add_links
        from weasyprint.pdf.tags import _build_box_tree

        pdf, index, first_object = self.pdf, self.pages, len(self.pdf.objects)
        scale = 0.75  # 72 PDF points per inch / 96 CSS pixels per inch, as generate_pdf at zoom 1
        matrix = Matrix(scale, 0, 0, -scale, 0, page.height * scale)
        page_width = scale * (page.width + page.bleed["left"] + page.bleed["right"])
        page_height = scale * (page.height + page.bleed["top"] + page.bleed["bottom"])
        left, top = -scale * page.bleed["left"], -scale * page.bleed["top"]
        right, bottom = left + page_width, top + page_height
        page_rectangle = (left / scale, top / scale, (right - left) / scale, (bottom - top) / scale)
        tags: dict = {}
        stream = tagging.stream_class()(self.fonts, page_rectangle, self.resources, self.images, tags,
                                        self.color_profiles, self.output_intent, compress=self.compress)
        if self.accessible:  # running heads and feet: artifacts (tagging.py)
            stream.furniture = tagging.furniture(page._page_box)
        stream.transform(d=-1, f=(page.height * scale))
        pdf.add_object(stream)
        pdf_page = pydyf.Dictionary({"Type": "/Page", "Parent": pdf.pages.reference,
                                     "MediaBox": pydyf.Array([left, top, right, bottom]),
                                     "Contents": stream.reference, "Resources": self.resources.reference,
                                     "Tabs": "/S", "StructParents": self.keys})
        page_key = self.keys
        self.keys += 1
        pdf.add_page(pdf_page)

        # Anchors and links: the first anchor of a name is the one a link goes to (as resolve_links).
        anchors = []
        for name, (x, y, _, _) in page.anchors.items():
            if name not in self.anchors:
                self.anchors.add(name)
                anchors.append((name, x, y))
        for link_type, target, _, _ in page.links:
            if link_type == "internal":
                self.link_targets.setdefault(target, index)
            elif link_type == "external" and not _OUTSIDE.match(str(target)):
                # A relative link WeasyPrint resolved against the print assets' folder: a file: address of this
                # machine, dead for every reader (prose links are made the book's own in render/views/markup.py).
                raise BuildError(f"page {index + 1} links to {str(target)[:80]!r}: a PDF links only to its own pages "
                                 "and to http, https and mailto addresses")
        if any(link_type == "attachment" for link_type, *_ in page.links):
            raise BuildError(f"page {index + 1} has a file attachment, which this writer does not embed")
        add_links((page.links if self.links else [], anchors), matrix, pdf, pdf_page, self.names, tags)
        if self.accessible:
            tagging.flag_links(pdf_page, {obj.reference: obj for obj in pdf.objects[first_object:]})
        add_forms(page.forms, matrix, pdf, pdf_page, self.resources, stream, self.font_config.font_map)
        sums = {box.element.get("name"): (box.element.get("data-sum").split(),
                                          (box.element.get("data-show-when") or box.element.get("data-sum")).split(),
                                          _point(box.element))
                for inputs in page.forms.values() for box, _ in inputs if box.element.get("data-sum")}
        scores = {box.element.get("name"): _point(box.element) for inputs in page.forms.values() for box, _ in inputs
                  if box.element.get("inputmode") == "numeric" and not box.element.get("data-sum")}
        self._give_appearances(pdf.objects[first_object:], sums, scores)
        page.paint(stream, scale)

        bleed = {key: value * 0.75 for key, value in page.bleed.items()}
        trim = (left + bleed["left"], top + bleed["top"], right - bleed["right"], bottom - bleed["bottom"])
        pdf_page["TrimBox"] = pydyf.Array(trim)
        pdf_page["BleedBox"] = pydyf.Array([trim[0] - min(10, bleed["left"]), trim[1] - min(10, bleed["top"]),
                                            trim[2] + min(10, bleed["right"]), trim[3] + min(10, bleed["bottom"])])

        # The page's part of the structure tree, as add_tags builds it, keyed as the page is added.
        # The margin boxes are left out: their content is painted as artifacts (tagging.py). Then each table's
        # headers are associated with their cells, and elements that hold nothing are taken out.
        page_nums: dict[int, bytes] = {}
        annotations: list[tuple[bytes, Any]] = []
        tree_start = len(pdf.objects)
        roots = tagging.content_boxes(page._page_box) if self.accessible else [page._page_box]
        elements = [element for child in roots for element in _build_box_tree(
            child, self.structure_document, pdf, index, page_nums, annotations, tags)]
        if self.accessible:
            tagging.associate_headers(page._page_box)
            made = {obj.reference: obj for obj in pdf.objects[tree_start:]
                    if isinstance(obj, pydyf.Dictionary) and obj.get("Type") == "/StructElem"}
            elements, pruned = tagging.prune_empty(elements, made)
            for element in pruned:  # no element refers to it now: written as null, its number kept
                pdf.objects[element.number] = _Null(element)
        self.elements.append([element.reference for element in elements])
        if tags:
            raise BuildError(f"page {index + 1}: {len(tags)} marked contents are missing from the structure tree")
        self.parent_tree["Nums"].extend([page_key, pydyf.Array(ref for _, ref in sorted(page_nums.items()))])
        for reference, annotation in annotations:
            annotation["StructParent"] = self.keys
            self.parent_tree["Nums"].extend([self.keys, reference])
            self.keys += 1

        # Every object this page made is final now (the form dictionary, which grows, is the catalog's own).
        for number in range(first_object, len(pdf.objects)):
            obj = pdf.objects[number]
            pdf.objects[number] = _Serialised(obj, isinstance(obj, pydyf.Stream))
        self.outline.append(((0 if first else 1, index), _OutlinePage(page)))

    def _give_appearances(self, objects: list[Any], sums: dict[str, tuple[list[str], list[str], str | None]],
                          scores: dict[str, str | None]) -> None:
        """Give each empty text field among ``objects`` (a page's, just made) an empty appearance of its own,
        each total in ``sums`` (its name: the fields it adds up, the fields it waits for, the decimal sign of a sheet
        scored in halves) its calculation, and each score box in ``scores`` (its name: that sign) the reading of what
        is written in it (``READ_SCRIPT``)."""
        import pydyf

        for obj in objects:
            if not isinstance(obj, pydyf.Dictionary) or obj.get("Subtype") != "/Widget":
                continue
            name = obj["T"].string
            self.field_names.add(name)
            if name in sums:
                self._calculate(obj, name, *sums[name])
            elif name in scores:
                obj["AA"] = pydyf.Dictionary({"V": pydyf.Dictionary({"S": "/JavaScript",
                                                                     "JS": pydyf.String(_book_scripts()["READ_SCRIPT"]
                                                                                        % json.dumps(scores[name]))})})
            if "AP" in obj:
                continue
            value = obj.get("V")
            if obj.get("FT") != "/Tx" or not isinstance(value, pydyf.String) or value.string != "":
                self.without_appearance += 1  # a value to show: the viewer draws it (NeedAppearances stays true)
                continue
            rect = [float(v) for v in obj["Rect"]]
            blank = pydyf.Stream(extra={"Type": "/XObject", "Subtype": "/Form",
                                        "BBox": pydyf.Array((0, 0, abs(rect[2] - rect[0]), abs(rect[3] - rect[1])))})
            self.pdf.add_object(blank)
            obj["AP"] = pydyf.Dictionary({"N": blank.reference})

    def _calculate(self, field: Any, name: str, terms: list[str], awaited: list[str], point: str | None) -> None:
        """Make ``field`` the sum of the fields named ``terms``, shown once a field of ``awaited`` is written: a
        calculate action (``/AA /C``) running ``SUM_SCRIPT``, which Acrobat, PDF.js and PDFium all run.

        The field stays editable: in a viewer that runs no scripts it is an empty box the family adds up and
        writes in, as on paper. The action runs only if the field is in the form's calculation order (``/CO``,
        which ``write`` fills in the order the totals were added, each after every calculated field it reads)."""
        import pydyf

        for term in terms + awaited:  # names go into a script: only the names the sheet macro makes (letters, digits, _ -)
            if not term.replace("_", "").replace("-", "").isalnum():
                raise BuildError(f"the total {name!r} reads a field named {term!r}, which is not a field name")
        script = _book_scripts()["SUM_SCRIPT"] % (", ".join(f'"{t}"' for t in terms),
                                                  ", ".join(f'"{t}"' for t in awaited), json.dumps(point))
        field["AA"] = pydyf.Dictionary({"C": pydyf.Dictionary({"S": "/JavaScript", "JS": pydyf.String(script)})})
        self.calculated.append((field.reference, name, terms + [t for t in awaited if t not in terms]))

    def write(self, target: Path, metadata: Any) -> None:
        """Put the pages in their places and write the file, with ``metadata`` (a laid-out WeasyPrint document's:
        title, authors, language, dates)."""
        import pydyf
        from weasyprint import VERSION
        from weasyprint.anchors import make_page_bookmark_tree
        from weasyprint.matrix import Matrix
        from weasyprint.pdf import VARIANTS, _use_references, _w3c_date_to_pdf
        from weasyprint.pdf.anchors import add_outlines
        from weasyprint.pdf.fonts import build_fonts_dictionary

        missing = sorted(set(self.link_targets) - self.anchors)
        if missing:
            raise BuildError(f"page {self.link_targets[missing[0]] + 1} links to #{missing[0]}, which no page has")
        pdf = self.pdf
        if "AcroForm" in pdf.catalog and not self.without_appearance:  # every field has its appearance
            pdf.catalog["AcroForm"]["NeedAppearances"] = "false"
        for _, name, terms in self.calculated:
            if missing_terms := [term for term in terms if term not in self.field_names]:
                raise BuildError(f"the total {name!r} reads {missing_terms[0]!r}, which the form does not have")
        if self.calculated:  # the order in which viewers run the totals' calculations
            pdf.catalog["AcroForm"]["CO"] = pydyf.Array(_calculation_order(self.calculated))
        order = sorted(range(self.pages), key=lambda i: self.outline[i][0])
        kids = pdf.pages["Kids"]
        kids[:] = [item for i in order for item in kids[3 * i:3 * i + 3]]
        pdf.reordered()
        self.structure_document["K"].extend(reference for i in order for reference in self.elements[i])

        # The outline, as Document.make_bookmark_tree and generate_pdf make it, from the pages in order.
        root: list = []
        skipped: list = []
        last_by_depth = [root]
        previous = 0
        for number, i in enumerate(order):
            page = self.outline[i][1]
            previous = make_page_bookmark_tree(page, skipped, last_by_depth, previous, number,
                                               Matrix(a=0.75, d=-0.75, f=page.height * 0.75))
        add_outlines(pdf, root)

        pdf.info["Producer"] = pydyf.String(f"WeasyPrint {VERSION}")
        for key, value in (("Title", metadata.title), ("Author", ", ".join(metadata.authors or ())),
                           ("Subject", metadata.description), ("Keywords", ", ".join(metadata.keywords or ())),
                           ("Creator", metadata.generator)):
            if value:
                pdf.info[key] = pydyf.String(value)
        for key, value, name in (("CreationDate", metadata.created, "created"),
                                 ("ModDate", metadata.modified, "modified")):
            if value:
                pdf.info[key] = pydyf.String(_w3c_date_to_pdf(value, name))
        if self.page_labels:  # the numbers the pages print, for the viewer's page box
            pdf.catalog["PageLabels"] = pydyf.Dictionary({"Nums": pydyf.Array(
                item for first, style, start in self.page_labels
                for item in (first, pydyf.Dictionary({"S": f"/{style}", "St": start} if style else
                                                     {"P": pydyf.String(str(start))})))})
        if metadata.lang:
            pdf.catalog["Lang"] = pydyf.String(metadata.lang)
        if metadata.attachments:
            raise BuildError("the book has file attachments, which this writer does not embed")

        subset = not self.options["full_fonts"]
        with _fonts_dated():
            pdf_fonts = build_fonts_dictionary(pdf, self.fonts, self.compress, subset, self.options)
        pdf.add_object(pdf_fonts)
        self.resources["Font"] = pdf_fonts.reference
        _use_references(pdf, self.resources, self.images, self.color_profiles)
        if self.names:
            name_array = pydyf.Array()
            for anchor in sorted(self.names):
                name_array.append(pydyf.String(anchor[0]))
                name_array.append(anchor[1])
            pdf.catalog["Names"] = pydyf.Dictionary({"Dests": pydyf.Dictionary({"Names": name_array})})

        # The rest of add_tags: what the structure tree's catalog entries must say.
        pdf.catalog["ViewerPreferences"] = pydyf.Dictionary({"DisplayDocTitle": "true"})
        pdf.catalog["MarkInfo"] = pydyf.Dictionary({"Marked": "true"})
        if "Lang" not in pdf.catalog:
            pdf.catalog["Lang"] = pydyf.String()
        if "srgb" in self.color_profiles:  # the condition the colours are meant for, as generate_pdf says it
            profile = self.color_profiles["srgb"]
            pdf.catalog["OutputIntents"] = pydyf.Array([pydyf.Dictionary({
                "Type": "/OutputIntent", "S": "/GTS_PDFX", "OutputConditionIdentifier": pydyf.String("sRGB IEC61966-2.1"),
                "Info": pydyf.String("sRGB IEC61966-2.1"), "RegistryName": pydyf.String("http://www.color.org"),
                "DestOutputProfile": profile.pdf_reference})])
        variant_function, _ = VARIANTS[self.variant]
        variant_function(pdf, SimpleNamespace(metadata=metadata), [], [], self.compress)  # the variant's XMP metadata
        if "Metadata" in pdf.catalog:  # PDF/X-4's XMP names the document by a random UUID: the same book, the same id
            _steady_document_id(pdf, metadata)
        for number, obj in enumerate(pdf.objects):  # the fonts and the like, a large one deflated once (patches.py)
            if isinstance(obj, pydyf.Stream):
                pdf.objects[number] = _Serialised(obj, True)
        with open(target, "wb") as output:
            pdf.write(output, self.options["pdf_version"], self.options["pdf_identifier"], self.compress)


def _steady_document_id(pdf: Any, metadata: Any) -> None:
    """Replace the random ``xmpMM:DocumentID`` WeasyPrint's PDF/X metadata writes with one made from the document's
    title and dates, so that the same book makes the same bytes."""
    import re
    import uuid

    number = int(bytes(pdf.catalog["Metadata"]).split()[0])
    stream = pdf.objects[number]
    steady = uuid.uuid5(uuid.NAMESPACE_URL, f"rulebook:{metadata.title}:{metadata.created}:{metadata.modified}")
    stream.stream = [re.sub(rb"xmp\.did:[0-9a-f-]{36}", f"xmp.did:{steady}".encode(), bytes(chunk))
                     for chunk in stream.stream]

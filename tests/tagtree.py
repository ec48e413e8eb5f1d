"""A tagged PDF's structure tree read back, and what a screen reader would stumble on in it (issue 41).

``Tree`` holds every structure element reachable from the root, in reading (tree) order, with the text of its
marked contents (read through pypdf's text extraction, one marked content at a time). The tree itself is walked with
pikepdf (qpdf parses the file's object streams in C++; pypdf parsed every object of them in Python, the structure
tree's tens of thousands included, before it gave the first page); pypdf reads the text from a copy of the file that
keeps only what a page draws (pages, their content, resources and fonts), so that it parses no more than that. Three
readings of it:

- ``heading_problems``: the outline starts at H1, never skips a level (H1 then H3) and has no empty heading,
  ISO 14289-1 7.4.2 (pdfua's check of empty headings, UA-14-001, does not run with pikepdf 10: docs/accessibility.md).
- ``table_problems``: every TH says which way it heads (/Scope), every TD's /Headers name header cells of its own
  table that hold text, and every row spans as many columns as the others (ISO 14289-1 7.5).
- ``field_problems``: every form field's tooltip (/TU, what a screen reader announces) starts with the page's
  title and holds the text of each header cell the field's cell names: what a person sees beside the box.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pikepdf
import pypdf
from pypdf.generic import DictionaryObject


@dataclass
class Element:
    """One structure element: its role, where it is, its children and marked contents."""

    obj: Any
    role: str
    path: str
    parent: Element | None
    page: int | None
    kids: list[Element] = field(default_factory=list)
    # (page index, the form XObject holding it or None for the page's own stream, MCID): a booklet's sheet draws
    # two book pages, each a form XObject numbering its marked contents from 0 (ISO 32000-1, 14.7.4.3)
    mcids: list[tuple[int, int | None, int]] = field(default_factory=list)
    widgets: list[Any] = field(default_factory=list)  # annotations it holds (OBJR)

    def attribute(self, name: str) -> Any:
        attributes = self.obj.get("/A")
        items = attributes if isinstance(attributes, pikepdf.Array) else [] if attributes is None else [attributes]
        for item in items:
            if isinstance(item, pikepdf.Dictionary) and name in item:
                return item[name]
        return None

    def descendants(self) -> list[Element]:
        out: list[Element] = []
        stack = self.kids[::-1]
        while stack:  # depth first, in reading order
            element = stack.pop()
            out.append(element)
            stack += element.kids[::-1]
        return out


FORM = -1  # on the stack of marked contents: a form XObject's own begins here
# What pypdf's text extraction reads of a content stream (ISO 32000-1's text, text state and graphics state stack
# operators, Do for a form XObject; pypdf 7.1, PageObject._extract_text and TextExtraction.operation_handlers) and the
# marked content that says whose text it is: the copy pypdf reads keeps these alone. The rest (paths, colours, clips:
# a score sheet's ruled boxes are most of its operators) would be parsed by pypdf to no effect.
READ = frozenset({"BT", "ET", "q", "Q", "cm", "Tz", "Tc", "Tw", "TL", "Tf", "Td", "TD", "Tm", "T*", "Tj", "TJ", "'", '"',
                  "Do", "BDC", "BMC", "EMC"})


def _key(obj: Any) -> tuple[int, int]:
    """An indirect object's number and generation: what names it in the file."""
    return obj.objgen


class Tree:
    """The structure tree of ``path`` (see the module's docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.pdf = pikepdf.open(self.path)
        self.page_index = {_key(page.obj): n for n, page in enumerate(self.pdf.pages)}
        self.elements: list[Element] = []
        root = self.pdf.Root.get("/StructTreeRoot")
        if root is not None:
            self._walk(root, None, "", None)
        self._texts: dict[tuple[int, tuple[int, int] | None, int], str] | None = None
        self._read: dict[int, str] = {}  # id(element) -> its text

    def _walk(self, node: Any, parent: Element | None, path: str, page: int | None) -> None:
        kids = node.get("/K", [])
        for obj in kids if isinstance(kids, pikepdf.Array) else [kids]:
            if isinstance(obj, (int, Decimal)) and not isinstance(obj, bool):  # pikepdf gives numbers as Python's
                if parent is not None:
                    parent.mcids.append((page, None, int(obj)))
                continue
            if not isinstance(obj, pikepdf.Dictionary):
                continue
            kind = obj.get("/Type")
            if kind == "/MCR":
                mcr_page = self.page_index.get(_key(obj.Pg), page) if "/Pg" in obj else page
                stream = _key(obj.Stm) if "/Stm" in obj else None
                if parent is not None:
                    parent.mcids.append((mcr_page, stream, int(obj.MCID)))
            elif kind == "/OBJR":
                if parent is not None:
                    parent.widgets.append(obj.Obj)
            elif "/S" in obj:
                role = str(obj.S)[1:]
                own = self.page_index.get(_key(obj.Pg), page) if "/Pg" in obj else page
                element = Element(obj, role, f"{path}/{role}", parent, own)
                if parent is not None:
                    parent.kids.append(element)
                self.elements.append(element)
                self._walk(obj, element, element.path, own)

    def _drawn(self) -> tuple[pypdf.PdfReader, list[dict[str, tuple[int, int]]]]:
        """pypdf's reader of a copy of the file that keeps what its pages draw as text (see ``READ``; no structure
        tree, annotations or fields, no object streams), and each page's form XObjects as the file names them (the
        copy numbers its objects anew)."""
        with pikepdf.open(self.path) as pdf:
            forms, done = [], set()

            def text_only(stream: Any) -> bytes:
                return pikepdf.unparse_content_stream(
                    [i for i in pikepdf.parse_content_stream(stream) if str(i.operator) in READ])

            def drawn_forms(resources: Any) -> dict[str, tuple[int, int]]:
                """The form XObjects ``resources`` names, theirs too, each left with its text only (once)."""
                xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
                named = {}
                for name, xobject in xobjects.items() if isinstance(xobjects, pikepdf.Dictionary) else ():
                    if not xobject.is_indirect:
                        continue
                    named[str(name)] = _key(xobject)
                    if xobject.get("/Subtype") == "/Form" and _key(xobject) not in done:
                        done.add(_key(xobject))
                        drawn_forms(xobject.get("/Resources"))
                        xobject.write(text_only(xobject))
                return named

            for page in pdf.pages:
                forms.append(drawn_forms(page.obj.get("/Resources")))
                page.obj.Contents = pdf.make_stream(text_only(page.obj))
                if "/Annots" in page.obj:
                    del page.obj["/Annots"]
            for name in ("/StructTreeRoot", "/AcroForm", "/Outlines", "/Names"):
                if name in pdf.Root:
                    del pdf.Root[name]
            copy = io.BytesIO()
            pdf.save(copy, object_stream_mode=pikepdf.ObjectStreamMode.disable, compress_streams=False,
                     stream_decode_level=pikepdf.StreamDecodeLevel.none)
        copy.seek(0)
        return pypdf.PdfReader(copy), forms

    def texts(self) -> dict[tuple[int, tuple[int, int] | None, int], str]:
        """The text of each marked content, by (page index, its form XObject or None, MCID)."""
        if self._texts is None:
            self._texts = _marked_texts(*self._drawn())
        return self._texts

    def texts_from_the_whole_file(self) -> dict[tuple[int, tuple[int, int] | None, int], str]:
        """``texts`` as pypdf reads them from the file itself, every object and operator in it (what the copy that
        ``texts`` reads must give)."""
        return _marked_texts(pypdf.PdfReader(self.path), self._drawn()[1])

    def text(self, element: Element) -> str:
        """What ``element`` reads aloud: the text of its marked contents and its descendants', in order."""
        # Its own marked contents' text, then each kid's as read (whitespace is collapsed either way, so reading a kid
        # once and joining its reading is the same as joining every marked content beneath it): each element once.
        read = self._read.get(id(element))
        if read is None:
            texts = self.texts()
            read = " ".join(" ".join([*(texts.get(m, "") for m in element.mcids),
                                      *(self.text(kid) for kid in element.kids)]).split())
            self._read[id(element)] = read
        return read

    def of(self, role: str) -> list[Element]:
        return [e for e in self.elements if e.role == role]


def _marked_texts(reader: pypdf.PdfReader, names: list[dict[str, tuple[int, int]]]
                  ) -> dict[tuple[int, tuple[int, int] | None, int], str]:
    """The text pypdf reads in each marked content of ``reader``'s pages, by (page index, the form XObject it is drawn
    in, as ``names`` names each page's, or None, MCID)."""
    texts: dict[tuple[int, tuple[int, int] | None, int], str] = {}
    for n, page in enumerate(reader.pages):
        stack: list[int | None] = []
        streams: list[tuple[int, int] | None] = [None]  # the form with its own /StructParents being drawn
        forms = page.get("/Resources", {}).get("/XObject", {})

        def entered(operands: list, forms: Any = forms, named: dict = names[n]) -> tuple[int, int] | None:
            form = forms.get(operands[0]) if operands else None
            return named.get(str(operands[0])) if "/StructParents" in (form or {}) else None

        def before(operator: bytes, operands: list, cm: Any, tm: Any, stack: list = stack,
                   streams: list = streams) -> None:
            if operator == b"BDC":
                properties = operands[1] if len(operands) > 1 else None
                mcid = properties.get("/MCID") if isinstance(properties, DictionaryObject) else None
                stack.append(int(mcid) if mcid is not None else None)
            elif operator == b"BMC":
                stack.append(None)
            elif operator == b"EMC" and stack:
                stack.pop()
            elif operator == b"Do" and (form := entered(operands)) is not None:
                # (pypdf reports the text shown before a Do after this: a sheet shows none of its own)
                streams.append(form)
                stack.append(FORM)  # the page's marked content does not reach into the form's

        def after(operator: bytes, operands: list, cm: Any, tm: Any, stack: list = stack,
                  streams: list = streams) -> None:
            if operator == b"Do" and entered(operands) is not None:
                streams.pop()
                stack.pop()

        def text(content: str, cm: Any, tm: Any, font: Any, size: Any, stack: list = stack, n: int = n,
                 streams: list = streams) -> None:
            mcid = None
            for m in reversed(stack):
                if m is not None:
                    mcid = None if m == FORM else m
                    break
            if mcid is not None:
                key = (n, streams[-1], mcid)
                texts[key] = texts.get(key, "") + content

        page.extract_text(visitor_operand_before=before, visitor_operand_after=after, visitor_text=text)
    return texts


HEADINGS = {f"H{n}": n for n in range(1, 7)}


def heading_problems(tree: Tree) -> list[str]:
    """The headings that are empty or skip a level (or a first heading that is not H1), in reading order."""
    problems, previous = [], 0
    for element in tree.elements:
        level = HEADINGS.get(element.role)
        if level is None:
            continue
        if not tree.text(element):
            problems.append(f"page {element.page + 1 if element.page is not None else '?'}: an empty H{level}")
        if level > previous + 1:
            problems.append(f"page {element.page + 1 if element.page is not None else '?'}: H{level} after "
                            f"{'H' + str(previous) if previous else 'the start'} ({element.path})")
        previous = level
    return problems


def _rows(table: Element) -> list[Element]:
    rows = []
    for kid in table.kids:
        if kid.role == "TR":
            rows.append(kid)
        elif kid.role in ("THead", "TBody", "TFoot"):
            rows += [row for row in kid.kids if row.role == "TR"]
    return rows


def _span(cell: Element, name: str) -> int:
    value = cell.attribute(name)
    return int(value) if value is not None else 1


def table_problems(tree: Tree) -> list[str]:
    """Each table's header cells without a scope, data cells whose headers are not its own table's header cells
    with text, and rows that do not close the grid (see the module's docstring)."""
    problems = []
    for table in tree.of("Table"):
        where = f"page {table.page + 1 if table.page is not None else '?'} {table.path}"
        rows = _rows(table)
        cells = [cell for row in rows for cell in row.kids if cell.role in ("TH", "TD")]
        headers = {str(cell.obj["/ID"]): cell for cell in cells if cell.role == "TH" and "/ID" in cell.obj}
        for cell in cells:
            if cell.role == "TH" and str(cell.attribute("/Scope")) not in ("/Row", "/Column", "/Both"):
                problems.append(f"{where}: a header cell with no /Scope ({tree.text(cell)!r})")
            if cell.role == "TD":
                for name in cell.attribute("/Headers") or []:
                    header = headers.get(str(name))
                    if header is None:
                        problems.append(f"{where}: a cell names {name!r}, no header cell of its table")
                    elif not tree.text(header):
                        problems.append(f"{where}: a cell names a header cell with no text")
        widths, carried = [], {}  # column -> rows a cell above still spans
        for row in rows:
            column = 0
            for cell in (c for c in row.kids if c.role in ("TH", "TD")):
                while carried.get(column, 0) > 0:
                    column += 1
                for c in range(column, column + _span(cell, "/ColSpan")):
                    carried[c] = _span(cell, "/RowSpan")
                column += _span(cell, "/ColSpan")
            widths.append(max([column, *(c + 1 for c, left in carried.items() if left > 0)]))
            carried = {c: left - 1 for c, left in carried.items() if left > 1}
        if len(set(widths)) > 1:
            problems.append(f"{where}: rows span {sorted(set(widths))} columns: the grid does not close")
    return problems


def field_problems(tree: Tree) -> list[str]:
    """Each form field whose tooltip (/TU) is missing, does not start with its page's title (its first H1), or
    leaves out a header cell its table cell names."""
    problems = []
    titles: dict[int, str] = {}
    cells_of: dict[int, dict[str, Element]] = {}
    for heading in tree.of("H1"):
        titles.setdefault(heading.page, tree.text(heading))
    for form in tree.of("Form"):
        for widget in form.widgets:
            tooltip = str(widget.get("/TU", ""))
            name = f"page {form.page + 1 if form.page is not None else '?'} field {widget.get('/T')}"
            if not tooltip:
                problems.append(f"{name}: no /TU")
                continue
            title = titles.get(form.page, "")
            if title and not tooltip.startswith(title):
                problems.append(f"{name}: {tooltip!r} does not start with the page's title {title!r}")
            cell = form.parent
            while cell is not None and cell.role not in ("TD", "TH"):
                cell = cell.parent
            if cell is None:
                continue
            table = cell.parent
            while table is not None and table.role != "Table":
                table = table.parent
            if id(table) not in cells_of:  # (a table's fields share its header cells: read them once)
                cells_of[id(table)] = {str(c.obj["/ID"]): c for c in (table.descendants() if table else [])
                                       if "/ID" in c.obj}
            headers = cells_of[id(table)]
            for header_id in cell.attribute("/Headers") or []:
                header = headers.get(str(header_id))
                label = tree.text(header) if header is not None else ""
                if label and label.casefold() not in tooltip.casefold():
                    problems.append(f"{name}: {tooltip!r} leaves out {label!r}, which heads its box")
    return problems

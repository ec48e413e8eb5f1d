"""What a tagged page needs beyond WeasyPrint 70's tagging, for PDF/UA-1 (issue 41; docs/accessibility.md).

The writer (``writer.py``) draws and tags each page with WeasyPrint's own functions, then this module mends what
they leave short, each mend registered in render/patches.py with its upstream issue and a canary:

- ``table-scope``: a header cell (TH) gets the /Scope its HTML ``scope`` gives it, and each data cell (TD) the
  /Headers of every header cell that heads it, spans and column groups included. WeasyPrint writes no /Scope, and
  its /Headers give a data cell only the header anchored in the cell's first column (a column group's header
  spanning two columns heads only the first) and count a header with no text.
- ``margin-artifacts``: the running heads and feet (CSS page-margin boxes) are painted as pagination artifacts, not
  as content: WeasyPrint marks them as content and leaves their elements out of the tree.
- ``empty-elements``: a structure element that holds nothing (an empty ``<span>`` that only marks a place for the
  layout's measures) is taken out of the tree; a table's rows and cells stay, so that its grid stays whole.
- ``link-print-flag``: link annotations carry the Print flag (PDF 1.7, 12.5.3), as WeasyPrint's form fields do; a
  link has no border (/BS /W 0), so nothing more prints.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# HTML's scope attribute -> PDF's /Scope (ISO 32000-1, 14.8.5.7, table 384). A group's header heads its group's
# columns or rows, which the /Headers of each cell say; /Scope says only the direction.
SCOPES = {"col": "/Column", "colgroup": "/Column", "row": "/Row", "rowgroup": "/Row"}
PRINT_FLAG = 1 << 2  # annotation flag bit 3, Print (ISO 32000-1, 12.5.3, table 165)
KEPT_EMPTY = {"/TR", "/TH", "/TD", "/THead", "/TBody", "/TFoot", "/Table", "/Form"}  # a table's grid, a form field


def furniture(page_box: Any) -> dict[int, str]:
    """The boxes of a laid-out page's margin boxes (running heads, page numbers), by id: /Header or /Footer."""
    from weasyprint.formatting_structure import boxes

    found: dict[int, str] = {}
    for margin in page_box.children:
        if isinstance(margin, boxes.MarginBox):
            kind = "/Header" if margin.at_keyword.startswith("@top") else "/Footer"
            found.update((id(box), kind) for box in margin.descendants())
    return found


@functools.cache
def stream_class() -> type:
    """WeasyPrint's page stream, painting the boxes in its ``furniture`` as pagination artifacts."""
    import pydyf
    from weasyprint.pdf.stream import Stream

    class FurnitureStream(Stream):
        """A page's content stream whose running heads and feet are artifacts (ISO 14289-1, 7.8; Matterhorn 18)."""

        furniture: dict[int, str] = {}

        @contextmanager
        def marked(self, box: Any, tag: str) -> Iterator[None]:
            kind = self.furniture.get(id(box)) if self._tags is not None else None
            if kind is None:
                with super().marked(box, tag):
                    yield
                return
            pydyf.Stream.begin_marked_content(self, "Artifact", pydyf.Dictionary(
                {"Type": "/Pagination", "Subtype": kind}))
            try:
                yield
            finally:
                pydyf.Stream.end_marked_content(self)

        def clone(self, **kwargs: Any) -> Any:
            clone = super().clone(**kwargs)  # a group (opacity, a pattern) painted inside the page
            clone.__class__, clone.furniture = type(self), self.furniture
            return clone

    return FurnitureStream


def content_boxes(page_box: Any) -> Iterator[Any]:
    """The page box's children that the structure tree holds: all but the margin boxes (artifacts)."""
    from weasyprint.formatting_structure import boxes

    return (child for child in page_box.children if not isinstance(child, boxes.MarginBox))


def _tables(box: Any) -> Iterator[Any]:
    from weasyprint.formatting_structure import boxes

    if isinstance(box, boxes.TableBox):
        yield box
    for child in getattr(box, "children", ()):
        yield from _tables(child)


def _grid(table: Any) -> list[tuple[Any, int, int, bool]]:
    """Every cell box of a laid-out table that WeasyPrint tagged: (cell, first row, first column, in a head)."""
    cells: list[tuple[Any, int, int, bool]] = []
    taken: set[tuple[int, int]] = set()
    row = 0
    for group in table.children:
        head = getattr(group, "element_tag", None) == "thead"
        for tr in group.children:
            column = 0
            for cell in tr.children:
                while (row, column) in taken:
                    column += 1
                if hasattr(cell, "mark"):
                    cells.append((cell, row, column, head))
                taken.update((row + r, column + c) for r in range(cell.rowspan) for c in range(cell.colspan))
                column += cell.colspan
            row += 1
    return cells


def _text(box: Any) -> str:
    from weasyprint.formatting_structure import boxes

    if isinstance(box, boxes.TextBox):
        return box.text
    return "".join(_text(child) for child in getattr(box, "children", ()))


def associate_headers(page_box: Any) -> None:
    """Give each tagged table cell of a laid-out page its /Scope (a header) or its /Headers (a data cell).

    A data cell's headers are the header cells to its left that head a row and those above it that head a column,
    as HTML's table model assigns them (a header spanning columns heads each of them; a row group's header heads
    the rows of its group below it), but for two things: a header with no text heads nothing, and a header heads a
    cell that spans several columns (or rows) only if it spans them all: a player's name box under 'Player 1' spans
    its 'Score' and 'Total' columns, and is neither a score nor a total."""
    import pydyf

    for table in _tables(page_box):
        cells = _grid(table)
        groups: list[tuple[int, int]] = []  # the rows (first, last) of each row group, for a rowgroup header
        row = 0
        for group in table.children:
            groups.append((row, row + len(group.children) - 1))
            row += len(group.children)
        for cell, _, _, head in cells:
            if cell.element_tag == "th":
                scope = cell.element.get("scope")
                cell.mark["A"]["Scope"] = SCOPES.get(scope, "/Column" if head else "/Row")
        headers = [(cell, r, c, cell.element.get("scope") or ("col" if head else "row")) for cell, r, c, head in cells
                   if cell.element_tag == "th" and "ID" in cell.mark and _text(cell).strip()]
        for cell, r, c, _ in cells:
            if cell.element_tag != "td":
                continue
            rows, columns = range(r, r + cell.rowspan), range(c, c + cell.colspan)
            ids = []
            for header, hr, hc, scope in headers:
                header_rows, header_columns = range(hr, hr + header.rowspan), range(hc, hc + header.colspan)
                if scope in ("col", "colgroup"):
                    heads = hr < r and all(column in header_columns for column in columns)
                elif scope == "row":
                    heads = hc < c and all(row in header_rows for row in rows)
                else:  # rowgroup: the rows of its group from it down
                    first, last = next((a, b) for a, b in groups if a <= hr <= b)
                    heads = hr <= r <= last and hc <= c and first <= hr
                if heads:
                    ids.append(header.mark["ID"])
            cell.mark["A"]["Headers"] = pydyf.Array(ids)


def prune_empty(elements: list[Any], objects: dict[bytes, Any]) -> tuple[list[Any], list[Any]]:
    """``elements`` (structure elements just made, the page's top ones) less those that hold nothing, at any depth,
    and the elements taken out (the writer writes each as null: pydyf 0.13 numbers the objects of its object stream
    wrongly when one is freed). ``objects``: every element made for the page, by its reference."""
    pruned: list[Any] = []

    def holds(element: Any) -> bool:
        kids = element["K"]
        kept = []
        for kid in kids:
            child = objects.get(kid) if isinstance(kid, bytes) else None
            if child is None or holds(child):
                kept.append(kid)
            else:
                pruned.append(child)
        kids[:] = kept
        return bool(kept) or element["S"] in KEPT_EMPTY or "Alt" in element or "ActualText" in element

    kept = []
    for element in elements:
        (kept if holds(element) else pruned).append(element)
    return kept, pruned


def flag_links(pdf_page: Any, objects: dict[bytes, Any]) -> None:
    """Set the Print flag on the page's link annotations (``objects``: the page's, by reference)."""
    for reference in pdf_page.get("Annots", ()):
        annotation = objects.get(reference)
        if annotation is not None and annotation.get("Subtype") == "/Link":
            annotation["F"] = PRINT_FLAG

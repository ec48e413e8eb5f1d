"""WeasyPrint keeps an unbreakable float whole (the register's patch, generator/render/patches.py).

WeasyPrint 70 split a floated box with `break-inside: avoid` at the foot of a page, and left a heading
with `break-after: avoid` above a float it had pushed to the next page. Each case below puts a game's
heading, its floated summary box and its text lower and lower down a page, and reads the laid-out
pages back: the heading, the whole box and the first line of text must share a page, and the box
must be laid out once.
"""

from __future__ import annotations

import pytest

from generator.render.pdf.weasy import Engine

STYLE = """<style>@page { size: 150mm 120mm; margin: 10mm; @top-left { content: none; } @bottom-left { content: none; }
  @bottom-right { content: none; } @top-right { content: none; } }
.glance { float: right; width: 50mm; break-inside: avoid; margin: 0 0 3mm 4mm; }
h2 { break-after: avoid; } .marks { break-after: avoid; } p { orphans: 2; widows: 2; margin: 0 0 2mm; }</style>"""


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


def _game(space_mm: int, rows: int, marks: bool) -> str:
    cells = "".join(f"<tr><th>Row {i}</th><td>value</td></tr>" for i in range(rows))
    return (f"<html><head>{STYLE}</head><body><p>Text above.</p><div style='height: {space_mm}mm'></div>"
            f"<article id='game'><h2>Game</h2>{'<p class=marks>Updated rule</p>' if marks else ''}"
            f"<div class='glance' id='box'><table><caption>At a glance</caption>{cells}"
            f"<tr><th>Last</th><td>row<span id='box-end'></span></td></tr></table></div>"
            f"<p><span id='text'></span>First rule of the game. {'More words. ' * 40}</p><p>Second rule.</p></article>"
            "</body></html>")


def _pages(document) -> dict[str, int]:
    found: dict[str, int] = {}
    for n, page in enumerate(document.pages):
        for anchor in page.anchors:
            found.setdefault(anchor, n)
    return found


def _captions(document) -> int:
    return sum(box.element_tag == "caption" and type(box).__name__ == "TableCaptionBox"
               for page in document.pages for box in page._page_box.descendants())


CASES = [(space, rows, marks) for space in range(0, 96, 4) for rows, marks in ((2, False), (8, False), (8, True))]


@pytest.mark.parametrize(("space", "rows", "marks"), CASES)
def test_a_heading_its_floated_box_and_its_text_share_a_page(engine, space, rows, marks):
    document = engine.document(_game(space, rows, marks))
    page = _pages(document)
    assert page["game"] == page["box"] == page["box-end"] == page["text"], page
    assert _captions(document) == 1  # the box is laid out once, not once on each page


def test_a_float_taller_than_a_page_opens_a_page_with_its_heading_and_splits(engine):
    """Such a box cannot be kept whole: it moves with its heading to the next page and splits there.
    (What WeasyPrint 70 prints of a split float's rest is its own affair: it drops it, patched or not,
    which is one more reason the book's boxes must fit a page: `split_boxes` in tests/pagetext.py.)"""
    lines = "".join(f"<p>Line {i}</p>" for i in range(60))
    page = _pages(engine.document(_game(40, 2, False).replace("<table>", f"<div>{lines}</div><table>")))
    assert page["game"] == page["box"] == page["text"] == 1
    assert page.get("box-end") != 1


def test_a_float_that_may_break_still_breaks(engine):
    html = _game(60, 8, False).replace("break-inside: avoid;", "break-inside: auto;")
    page = _pages(engine.document(html))
    assert page["box"] < page["box-end"]  # the patch changes only floats that ask to be kept whole

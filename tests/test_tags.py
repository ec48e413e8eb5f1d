"""The PDFs' structure trees, read back (tests/tagtree.py: pikepdf, pypdf's text): what a screen reader is given
(issue 41).

Every PDF the shared builds make (the book, the score pad and each score sheet of both editions; of the published
edition one sheet on its own, its others in its pad: tests/conftest.py ``built_pdfs``): headings in order with
no level skipped, every table's headers scoped and associated with their cells, every form field's tooltip (/TU)
holding what a person sees beside its box; and the small project's booklet, whose tree is its book's carried onto
the imposed sheets. Each reading is proven on a small broken fixture first: a hand-made page
laid out and written as the build writes it, or a built file changed with pypdf.
"""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest
from pypdf.generic import NameObject

from generator.book.library import load_library
from generator.commands.build import booklet_name
from generator.render.pdf.booklet import impose
from generator.render.pdf.weasy import Engine
from generator.render.pdf.writer import PdfWriter
from tests.conftest import built_pdfs
from tests.tagtree import Tree, field_problems, heading_problems, table_problems

PAGE = '<!DOCTYPE html><html lang="en"><head><title>Fixture</title></head><body>{}</body></html>'
TABLE = ('<h1>Hearts</h1><table><thead><tr><th scope="col"></th><th scope="colgroup" colspan="2">Player 1</th></tr>'
         '<tr><th scope="col"></th><th scope="col">Hand</th><th scope="col">Total</th></tr></thead>'
         '<tbody><tr><th scope="row">Round 1</th><td>{}</td><td>{}</td></tr></tbody></table>')


def _write(tmp_path: Path, body: str, accessible: bool = True, name: str = "fixture.pdf") -> Path:
    """``body`` laid out by the build's engine and written by its writer (``accessible``: with tagging.py's mends)."""
    engine = Engine()
    document = engine.document(PAGE.format(body))
    writer = PdfWriter(document.font_config, accessible=accessible)
    for page in document.pages:
        writer.add(page)
    writer.write(tmp_path / name, document.metadata)
    return tmp_path / name


def _field(title: str, name: str) -> str:
    return f'<input type="text" name="{name}" title="{title}" style="appearance: auto; width: 2cm; height: 7mm">'


# --- each reading, on a fixture that passes and one that it must catch ------------------------------------------

def test_a_heading_that_skips_a_level_is_found(tmp_path):
    assert heading_problems(Tree(_write(tmp_path, "<h1>A</h1><h2>B</h2><h3>C</h3><h2>D</h2><p>.</p>"))) == []
    problems = heading_problems(Tree(_write(tmp_path, "<h1>General Rules</h1><h3>Players</h3><p>.</p>", name="b.pdf")))
    assert len(problems) == 1 and "H3 after H1" in problems[0]
    assert "H2 after the start" in heading_problems(Tree(_write(tmp_path, "<h2>Alone</h2>", name="c.pdf")))[0]


def test_table_headers_are_scoped_and_head_their_cells(tmp_path):
    good = Tree(_write(tmp_path, TABLE.format("1", "2")))
    assert table_problems(good) == []
    hand, total = good.of("TD")
    ids = {good.text(th): str(th.obj["/ID"]) for th in good.of("TH") if good.text(th)}
    # A column group's header heads both its columns (WeasyPrint's own /Headers give it to the first alone).
    assert {str(h) for h in hand.attribute("/Headers")} == {ids["Player 1"], ids["Hand"], ids["Round 1"]}
    assert {str(h) for h in total.attribute("/Headers")} == {ids["Player 1"], ids["Total"], ids["Round 1"]}
    assert [str(th.attribute("/Scope")) for th in good.of("TH")] == ["/Column"] * 5 + ["/Row"]


def test_a_header_without_scope_is_found(tmp_path):
    """WeasyPrint's own tagging (the writer without tagging.py) writes no /Scope; a built file with one removed."""
    assert any("no /Scope" in p for p in table_problems(Tree(_write(tmp_path, TABLE.format("1", "2"), False))))
    path = _write(tmp_path, TABLE.format("1", "2"), name="good.pdf")
    writer = pypdf.PdfWriter(clone_from=path)
    stack, row_headers = [writer.root_object["/StructTreeRoot"]], []
    while stack:
        node = stack.pop()
        kids = node.get("/K", [])
        for kid in kids if isinstance(kids, list) else [kids]:
            kid = kid.get_object() if hasattr(kid, "get_object") else kid
            if isinstance(kid, dict) and "/S" in kid:
                stack.append(kid)
                if kid["/S"] == "/TH" and kid["/A"].get("/Scope") == "/Row":
                    row_headers.append(kid)
    assert len(row_headers) == 1
    row_headers[0]["/A"].pop(NameObject("/Scope"))
    writer.write(tmp_path / "broken.pdf")
    assert [p for p in table_problems(Tree(tmp_path / "broken.pdf")) if "'Round 1'" in p]


def test_a_row_that_does_not_close_the_grid_is_found(tmp_path):
    body = ('<table><thead><tr><th scope="col">Meld</th><th scope="col">Points</th><th scope="col">Note</th></tr>'
            '</thead><tbody><tr><th scope="row">Set</th><td>5</td></tr></tbody></table>')
    assert any("does not close" in p for p in table_problems(Tree(_write(tmp_path, body))))


def test_a_field_whose_tooltip_is_not_its_label_is_found(tmp_path):
    good = TABLE.format(_field("Hearts, Round 1, Player 1 Hand", "a"), _field("Hearts, Round 1, Player 1 Total", "b"))
    assert field_problems(Tree(_write(tmp_path, good))) == []
    bad = Tree(_write(tmp_path, TABLE.format(_field("Name 1", "a"), _field("Hearts, Player 1 Total", "b")), name="b.pdf"))
    problems = field_problems(bad)
    assert any("'Name 1' does not start with the page's title 'Hearts'" in p for p in problems)
    assert any("leaves out 'Round 1'" in p for p in problems)
    # No title: WeasyPrint names the field by its name, an id no one sees.
    untitled = field_problems(Tree(_write(tmp_path, TABLE.format(_field("", "a_b1_r1_p1"), "2"), name="c.pdf")))
    assert any("'a_b1_r1_p1' does not start with the page's title" in p for p in untitled)


def test_a_row_group_header_heads_the_rows_of_its_group_only(tmp_path):
    """The printed index's section rows (scope="rowgroup"), each section a row group of its own."""
    body = ('<table><thead><tr><th scope="col">Page</th><th scope="col">Game</th></tr></thead>'
            '<tbody><tr><td>1</td><td>Hearts</td></tr></tbody>'
            '<tbody><tr><th scope="rowgroup" colspan="2">Dice</th></tr><tr><td>2</td><td>Sticks</td></tr></tbody></table>')
    tree = Tree(_write(tmp_path, body))
    assert table_problems(tree) == []
    ids = {tree.text(th): str(th.obj["/ID"]) for th in tree.of("TH")}
    headers = {tree.text(td): {str(h) for h in td.attribute("/Headers")} for td in tree.of("TD")}
    assert headers == {"1": {ids["Page"]}, "Hearts": {ids["Game"]}, "2": {ids["Page"], ids["Dice"]},
                       "Sticks": {ids["Game"], ids["Dice"]}}


def test_running_heads_are_artifacts_and_nothing_is_left_empty(tmp_path):
    """A page-margin box's text is painted in an /Artifact /Pagination sequence and has no element; an empty span
    has none either; a link carries the Print flag. WeasyPrint's own tagging does none of it (the writer without
    tagging.py)."""
    body = ('<style>@page { @top-center { content: "Running head" } @bottom-right { content: counter(page) } }'
            '</style><h1>Title</h1><p>One <span id="here"></span><a href="#end">two</a>.</p><p id="end">End</p>')
    for accessible in (True, False):
        path = _write(tmp_path, body, accessible, name=f"{accessible}.pdf")
        reader = pypdf.PdfReader(path)
        operations = pypdf.generic.ContentStream(reader.pages[0].get_contents(), reader).operations
        pagination = [operands[1] for operands, operator in operations if operator == b"BDC"
                      and operands[0] == "/Artifact"]
        tree = Tree(path)
        empty = [e for e in tree.elements if not e.kids and not e.mcids and not e.widgets]
        links = [a.get_object() for a in reader.pages[0]["/Annots"] if a.get_object()["/Subtype"] == "/Link"]
        if accessible:
            # (print.css's own running foot, "Edition", is painted beside this page's)
            assert {(p["/Type"], p["/Subtype"]) for p in pagination} == {("/Pagination", "/Header"),
                                                                       ("/Pagination", "/Footer")}
            assert "Running head" not in " ".join(tree.text(e) for e in tree.elements)
            assert empty == [] and [link["/F"] for link in links] == [4]
        else:
            assert pagination == [] and empty and links and "/F" not in links[0]


def test_the_text_is_what_pypdf_reads_in_the_whole_file(tmp_path):
    """Tree reads each marked content's text from a copy of the file with its text operators alone (tests/tagtree.py,
    READ): pypdf reads the same from the file itself, on a page of tables, fields, links and running heads, on its
    booklet (each book page a form XObject on a sheet), and on WeasyPrint's own tagging."""
    body = ('<style>@page { @top-center { content: "Running head" } @bottom-right { content: counter(page) } }'
            'h1 { break-before: page } td { border: 1px solid }</style>'
            + "".join(f'<h1>Game {n}</h1><p>Text of game {n}, <a href="#g{(n + 1) % 3}">next</a>.</p>'
                      + TABLE.format(_field(f"Game {n}, Round 1, Player 1 Hand", f"h{n}"), n).replace(
                          "<h1>Hearts</h1>", f'<h2 id="g{n}">Scoring</h2>') for n in range(3)))
    book = _write(tmp_path, body, name="book.pdf")
    impose(book, tmp_path / "booklet.pdf")
    for path in (book, tmp_path / "booklet.pdf", _write(tmp_path, body, False, name="untagged.pdf")):
        tree = Tree(path)
        assert tree.texts() == tree.texts_from_the_whole_file(), path.name
        assert len([text for text in tree.texts().values() if text.strip()]) > 20, path.name


def _references(catalog: pypdf.generic.DictionaryObject) -> list[pypdf.generic.DictionaryObject]:
    """Every marked-content reference (/MCR) of a file's structure tree (``catalog``: its /Root)."""
    found, stack = [], [catalog["/StructTreeRoot"]]
    while stack:
        kids = stack.pop().get("/K", [])
        for kid in kids if isinstance(kids, list) else [kids]:
            kid = kid.get_object() if hasattr(kid, "get_object") else kid
            if isinstance(kid, dict) and kid.get("/Type") == "/MCR":
                found.append(kid)
            elif isinstance(kid, dict) and "/S" in kid:
                stack.append(kid)
    return found


def test_the_booklet_carries_its_books_tree_onto_the_sheets(tmp_path):
    """Imposed, a tagged book reads as it did (every element, its role and text, in order), each marked content now
    referenced in the form XObject of its page (/Stm) on the sheet that draws it (/Pg); its links stay links, where
    their text is now printed. Without /Stm the references name nothing in the sheet's own stream."""
    body = ('<style>@page { @top-center { content: "Running head" } } h1 { break-before: page }</style>'
            + "".join(f'<h1>Game {n}</h1><h2>Players</h2><p>Text of game {n}, <a href="#g{(n + 1) % 5}">next</a>.</p>'
                      + TABLE.format(n, n + 1).replace("<h1>Hearts</h1>", f'<h2 id="g{n}">Scoring</h2>')
                      for n in range(5)))
    book = _write(tmp_path, body, name="book.pdf")
    assert impose(book, tmp_path / "booklet.pdf") == 4  # 5 pages, 3 blanks: two sheets
    before, after = Tree(book), Tree(tmp_path / "booklet.pdf")
    read = [(e.role, before.text(e)) for e in before.elements]
    assert [(e.role, after.text(e)) for e in after.elements] == read and len(read) > 40
    assert heading_problems(after) == table_problems(after) == field_problems(after) == []
    reader = pypdf.PdfReader(tmp_path / "booklet.pdf")
    references = _references(reader.trailer["/Root"])
    assert len(references) == sum(len(e.mcids) for e in before.elements)
    for reference in references:  # the form named is one its sheet draws, and has the page's /StructParents
        sheet, form = reference["/Pg"], reference.raw_get("/Stm")
        assert form in list(sheet["/Resources"]["/XObject"].values()) and "/StructParents" in form.get_object()
    assert all(page["/Tabs"] == "/S" for page in reader.pages)
    catalog = reader.trailer["/Root"]
    assert catalog["/MarkInfo"]["/Marked"] and catalog["/Lang"] == "en" and catalog["/ViewerPreferences"]["/DisplayDocTitle"]
    xmp = catalog["/Metadata"].get_data().decode()
    assert 'pdfuaid:part="1"' in xmp and "Fixture (booklet)</rdf:li>" in xmp and reader.metadata.title == "Fixture (booklet)"
    links = [a.get_object() for page in reader.pages for a in page.get("/Annots", ())]
    assert len(links) == 5 and all(link["/StructParent"] is not None and link["/F"] == 4 for link in links)
    for page in reader.pages:  # each link within a half of the sheet where a page is drawn
        half = float(page.mediabox.width) / 2
        for link in (a.get_object() for a in page.get("/Annots", ())):
            x0, x1 = sorted(float(v) for v in link["/Rect"][::2])
            y0, y1 = sorted(float(v) for v in link["/Rect"][1::2])
            slot = int(x0 >= half)
            assert slot * half <= x0 < x1 <= (slot + 1) * half and 0 <= y0 < y1 <= float(page.mediabox.height)
            assert f"/P{slot}" in page["/Resources"]["/XObject"]
    assert {str(w["/Subtype"]) for e in after.of("Link") for w in e.widgets} == {"/Link"}
    writer = pypdf.PdfWriter(clone_from=tmp_path / "booklet.pdf")  # broken: the references lose their forms
    for reference in _references(writer.root_object):
        del reference["/Stm"]
    writer.write(tmp_path / "broken.pdf")
    broken = Tree(tmp_path / "broken.pdf")
    assert [(e.role, broken.text(e)) for e in broken.elements] != read


# --- every PDF the shared builds make ------------------------------------------------------------------------------

@pytest.mark.slow
def test_every_pdf_reads_in_order_with_its_tables_and_fields_named(built):
    problems, seen = [], {"H1": 0, "TH": 0, "Form": 0}
    for edition, pdf in built_pdfs(built):
        tree = Tree(pdf)
        for role in seen:
            seen[role] += len(tree.of(role))
        problems += [f"{edition} {pdf.name}: {p}" for p in heading_problems(tree) + table_problems(tree)
                     + field_problems(tree)]
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems[:30])
    assert seen["H1"] >= 60 and seen["TH"] >= 1000 and seen["Form"] >= 4000, seen  # the readings had work to do


@pytest.mark.slow
def test_the_booklet_reads_in_order_with_its_tables_named(small_booklet):
    """The small book's booklet (the one build of it the suite shares): the same readings as every PDF's; and its
    smallest score sheet read as pypdf reads the whole file (tests/tagtree.py reads a copy of the text operators)."""
    project, pdfs = small_booklet
    sheet = Tree(min((pdfs / "score-sheets").glob("*.pdf"), key=lambda pdf: pdf.stat().st_size))
    assert sheet.texts() == sheet.texts_from_the_whole_file()  # a built file: the copy Tree reads gives the same
    assert len([text for text in sheet.texts().values() if text.strip()]) > 20
    tree = Tree(pdfs / booklet_name(load_library(project)))
    problems = heading_problems(tree) + table_problems(tree) + field_problems(tree)
    assert problems == [], "\n".join(problems[:30])
    assert len(tree.of("H1")) >= 5 and len(tree.of("TH")) >= 50, (len(tree.of("H1")), len(tree.of("TH")))
    assert all(tree.text(h) for h in tree.of("H1"))

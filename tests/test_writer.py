"""The page-at-a-time PDF writer (render/pdf/writer.py) against WeasyPrint's own: the same file for a reader.

The writer is compared with what PDF/UA needs beyond WeasyPrint's tagging left out (``accessible=False``: the
mends of render/pdf/tagging.py, which tests/test_tags.py and tests/test_accessibility.py read back).

Both writers are given the same laid-out pages; the files are compared as a reader and a screen
reader meet them (tests/pdffacts.py): pages and what is drawn on them, links, form fields, named
destinations, the outline, the structure tree and which element each marked content belongs to,
fonts, metadata.
"""

from __future__ import annotations

import gc
import hashlib
import weakref
from pathlib import Path

import pytest

from generator.book.library import load_library
from generator.errors import BuildError
from generator.render.pdf.book import BookParts, document_maker
from generator.render.pdf.weasy import Engine, without_cycle_collector
from generator.render.pdf.writer import PdfWriter
from tests.conftest import PUBLISHED
from tests.pdffacts import differences, pdf_facts


def _weasyprint(documents: list, target: Path) -> Path:
    pages = [page for document in documents for page in document.pages]
    documents[0].copy(pages).write_pdf(str(target), pdf_variant="pdf/ua-1", uncompressed_pdf=False,
                                       custom_metadata=False)
    return target


@pytest.fixture(scope="module")
def book_parts(small_built):
    """The parts of the small book's published edition (tests/conftest.py ``small_project``: contents, prose pages,
    three sections, index and errata), each laid out on its own: the writers are compared on the same pages, and
    what they write does not depend on how many games there are."""
    library = load_library(small_built[0], PUBLISHED)
    engine, make = Engine(), document_maker(library, False)
    with without_cycle_collector():
        return [engine.document(make(part.body)) for part in BookParts(library).numbered(None)]


@pytest.fixture(scope="module")
def weasyprints_book(book_parts, tmp_path_factory) -> dict:
    return pdf_facts(_weasyprint(book_parts, tmp_path_factory.mktemp("weasyprint") / "book.pdf"))


def test_the_book_reads_as_weasyprints_file(book_parts, weasyprints_book, tmp_path):
    """Links from the contents and index, the outline, tables with headers, lists, floats, running headers."""
    writer = PdfWriter(book_parts[0].font_config, accessible=False)
    for document in book_parts:
        for page in document.pages:
            writer.add(page)
    writer.write(tmp_path / "ours.pdf", book_parts[0].metadata)
    assert weasyprints_book["pages"] and weasyprints_book["/Outlines"] and weasyprints_book["/Names"]
    assert differences(weasyprints_book, pdf_facts(tmp_path / "ours.pdf")) == []


def test_pages_added_first_are_put_first(book_parts, weasyprints_book, tmp_path):
    """The book's contents is laid out last and added ``first``: the file is as if it had come first."""
    writer = PdfWriter(book_parts[0].font_config, accessible=False)
    for document in book_parts[1:]:
        for page in document.pages:
            writer.add(page)
    for page in book_parts[0].pages:  # as write_book adds the contents
        writer.add(page, first=True)
    writer.write(tmp_path / "ours.pdf", book_parts[0].metadata)
    assert differences(weasyprints_book, pdf_facts(tmp_path / "ours.pdf")) == []


def test_a_score_sheet_reads_as_weasyprints_file(library, tmp_path):
    """Form fields: every cell a text field, its widget in the structure tree."""
    from generator.render.pdf.book import game_pages
    from generator.render.pdf.scorepad import render_sheet_documents
    from generator.render.views.sheets import sheet_files

    page = next(p for p in game_pages(library) if p.id == "gin-rummy-tournament")
    with without_cycle_collector():
        documents = render_sheet_documents(library, page, sheet_files([page])[0], Engine()).documents
        writer = PdfWriter(documents[0].font_config, accessible=False)
        for document in documents:
            for page in document.pages:
                writer.add(page)
        writer.write(tmp_path / "ours.pdf", documents[0].metadata)
    theirs = pdf_facts(_weasyprint(documents, tmp_path / "weasyprint.pdf"))
    assert any(a.get("/FT") == "/Tx" for p in theirs["pages"] for a in p["annotations"])
    assert differences(theirs, _as_weasyprint_gives_fields(pdf_facts(tmp_path / "ours.pdf"))) == []


# An empty appearance, as pdffacts reads it: a form XObject the size of its box that draws nothing (an empty field
# looks as before).
EMPTY = hashlib.sha256(b"").hexdigest()


def _blank(appearance: dict | None) -> bool:
    normal = (appearance or {}).get("/N", {})
    return (normal.get("/Subtype"), normal.get("/Type"), normal.get("stream"), normal.get("/BBox", [])[:2]) == (
        "/Form", "/XObject", EMPTY, ["0", "0"])


def _as_weasyprint_gives_fields(facts: dict) -> dict:
    """Our file's facts less what the writer adds to WeasyPrint's forms (writer.py's docstring): every empty text
    field's empty appearance, wherever the field is met (its page, the form, the structure tree), a score box's
    reading of what is written in it (its validate action, READ_SCRIPT), and the form's NeedAppearances false.
    Asserts the appearances and NeedAppearances are there."""
    seen = []

    def walk(value):
        if isinstance(value, dict):
            if value.get("/FT") == "/Tx":
                seen.append(value.get("/V") == "" and _blank(value.pop("/AP", None)))
                if "/AA" in value and list(value["/AA"]) == ["/V"] and "readScore" in str(value["/AA"]):
                    del value["/AA"]
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(facts)
    assert seen and all(seen)
    assert facts["/AcroForm"]["/NeedAppearances"] == "False"
    facts["/AcroForm"]["/NeedAppearances"] = "True"
    return facts


def test_a_field_with_a_value_is_left_for_the_viewer_to_draw(tmp_path):
    """Only an empty text field gets the empty appearance; one with a value keeps the viewer drawing it."""
    field = "<input name='{}' title='{}' style='appearance: auto'{}>"  # appearance: auto, as the score sheets'
    for value, need in (" value='7'", "True"), ("", "False"):
        html = f"<html lang='en'><body><form>{field.format('a', 'A', '')}{field.format('b', 'B', value)}</form></body></html>"
        Engine.write([Engine().document(html)], tmp_path / "out.pdf")
        facts = pdf_facts(tmp_path / "out.pdf")
        appearances = {a["/T"]: a.get("/AP") for a in facts["pages"][0]["annotations"]}
        assert _blank(appearances["a"]) and (appearances["b"] is None if value else _blank(appearances["b"]))
        assert facts["/AcroForm"]["/NeedAppearances"] == need


def test_a_page_is_let_go_once_written(tmp_path):
    """The writer keeps nothing of a page's layout: the caller's last reference frees it."""
    document = Engine().document("<html lang='en'><body><h1>A</h1><p>Words.</p>"
                                 "<p style='break-before: page'>More words.</p></body></html>")
    writer = PdfWriter(document.font_config)
    boxes = [weakref.ref(page._page_box) for page in document.pages]
    for page in document.pages:
        writer.add(page)
    del page, document
    gc.collect()
    assert [box() for box in boxes] == [None, None]
    writer.write(tmp_path / "out.pdf", Engine().document("<html lang='en'><body></body></html>").metadata)
    assert len(pdf_facts(tmp_path / "out.pdf")["pages"]) == 2


def test_a_link_to_an_anchor_no_page_has_is_an_error(tmp_path):
    document = Engine().document("<html lang='en'><body><p><a href='#nowhere'>See there</a></p></body></html>")
    writer = PdfWriter(document.font_config)
    writer.add(document.pages[0])
    with pytest.raises(BuildError, match="page 1 links to #nowhere"):
        writer.write(tmp_path / "out.pdf", document.metadata)


def test_filling_one_field_fills_only_that_box(tmp_path):
    """Each field owns its appearance: a tool that writes a value into the field's appearance stream (pypdf
    does) changes that box alone. With one stream shared by every empty field, one name showed in all."""
    from pypdf import PdfReader, PdfWriter

    field = "<input name='{0}' title='{0}' style='appearance: auto; width: 3cm; height: 8mm'>"
    html = f"<html lang='en'><body><form>{''.join(field.format(n) for n in 'abc')}</form></body></html>"
    Engine.write([Engine().document(html)], tmp_path / "out.pdf")
    writer = PdfWriter(clone_from=PdfReader(tmp_path / "out.pdf"))
    writer.update_page_form_field_values(writer.pages[0], {"b": "Alice"}, auto_regenerate=False)
    writer.write(tmp_path / "filled.pdf")
    # The value is drawn in the font's own encoding: what shows is whether the box's stream draws text.
    shown = {a.get_object()["/T"]: b"Tj" in a.get_object()["/AP"]["/N"].get_object().get_data()
             for a in PdfReader(tmp_path / "filled.pdf").pages[0]["/Annots"]}
    assert shown == {"a": False, "b": True, "c": False}


def form_pdf(totals: dict[str, str], target: Path, waits: dict[str, str] | None = None) -> Path:
    """A one-page form written by the writer: a box for each field the ``totals`` add that is no total, then each
    total (``name: the fields it adds``, space-separated) in the order given, as a sheet marks its Total boxes;
    ``waits``: a total's data-show-when (the fields it waits for), as a sheet marks its running totals."""
    field = '<input type="text" name="{0}" title="{0}" style="appearance: auto; width: 3cm; height: 8mm"{1}>'
    boxes = sorted({term for terms in totals.values() for term in terms.split()} - set(totals))
    shows = {name: f' data-show-when="{fields}"' for name, fields in (waits or {}).items()}
    html = "".join([field.format(name, "") for name in boxes]
                   + [field.format(name, f' data-sum="{terms}"{shows.get(name, "")}') for name, terms in totals.items()])
    Engine.write([Engine().document(f"<html lang='en'><body><form>{html}</form></body></html>")], target)
    return target


# Totals as a page lays them out (name: the fields it adds), and the calculation order the writer gives them:
# each after the totals it adds, else in the page's order (or the error for totals that add each other up).
CALCULATION_ORDERS = {
    "a grand total above the games' totals it adds": ({"g": "t1 t2", "t1": "a", "t2": "b"}, ["t1", "t2", "g"]),
    "running totals, each adding the one above": ({"r1": "a", "r2": "r1 b", "r3": "r2 c"}, ["r1", "r2", "r3"]),
    "a running total above the one it adds": ({"r3": "r2 c", "r2": "r1 b", "r1": "a"}, ["r1", "r2", "r3"]),
    "totals adding each other up": ({"x": "a y", "y": "x"}, "the total 'x' adds itself up: x -> y -> x"),
}


@pytest.mark.parametrize("totals, order", CALCULATION_ORDERS.values(), ids=CALCULATION_ORDERS.keys())
def test_a_total_is_calculated_after_the_totals_it_adds(totals, order, tmp_path):
    """The form's calculation order (/CO), which PDF.js and Acrobat run once in its order on every change: a
    total that adds other totals comes after them, or it shows their old values (tests/test_pdfjs_calc.py
    types into such a form in PDF.js)."""
    from pypdf import PdfReader

    if isinstance(order, str):
        with pytest.raises(BuildError, match=order):
            form_pdf(totals, tmp_path / "form.pdf")
        return
    form = PdfReader(form_pdf(totals, tmp_path / "form.pdf")).trailer["/Root"]["/AcroForm"]
    assert [ref.get_object()["/T"] for ref in form["/CO"]] == order


# A total whose names would put something other than field names into its script (the writer writes them between
# quotes in SUM_SCRIPT), or that reads a field the form does not have: (totals, waits, the error).
BAD_TOTALS = {
    "a quote in a name it adds": ({"t": "a'b"}, {}, "the total 't' reads a field named \"a'b\", which is not a field name"),
    "a script in a name it waits for": ({"t": "a"}, {"t": "a);app.alert(1)"}, "reads a field named 'a\\);app"),
    "waits for a field the form does not have": ({"t": "a"}, {"t": "zz"}, "the total 't' reads 'zz', which the form"),
}


@pytest.mark.parametrize("totals, waits, error", BAD_TOTALS.values(), ids=BAD_TOTALS.keys())
def test_a_total_reads_only_fields_of_the_form(totals, waits, error, tmp_path):
    """Every name a total's script reads, added or waited for, is a field name of the form: no quote or bracket
    can end the script's list and run something else (tests/test_sheets.py checks the PDFs for any such script)."""
    with pytest.raises(BuildError, match=error):
        form_pdf(totals, tmp_path / "form.pdf", waits)

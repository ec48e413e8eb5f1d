"""A book's print template replaces one block of the tool's (issue 62): ``templates/print/<name>`` extends
``tool:print/<name>`` and the block it names is its own, the rest of the output the tool's, byte for byte.

Two books, each loaded or built once: the small book (tests/fixtures/books/small, as printed in 2026.1, with errata
and what changed in 2026.2) shows every block, row by row, in the HTML each template makes (cheap: no layout); the
German fixture book (three games) shows one block of each template in the PDFs themselves (pdftotext), laid out in
process once for the file.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from generator.book import words
from generator.book.files import TOOL_TEMPLATES
from generator.book.library import load_library
from generator.book.words import Words
from tests.conftest import FIXTURES, ROOT, small_project

OWN = '<p class="own-block">Eigener Block {block}</p>'


def extending(template: str, block: str, body: str) -> str:
    """A book's template that extends the tool's and replaces ``block`` with ``body``."""
    return f'{{% extends "tool:print/{template}" %}}\n{{% block {block} %}}{body}{{% endblock %}}\n'


def outputs(root: Path, template: str, edition: str | None = None) -> dict[str, str]:
    """The HTML ``template`` makes for the book at ``root``: the book (and its two-sided document), each sheet and its
    samples, or the score pad's contents."""
    from generator.render.pdf import book as print_book
    from generator.render.pdf import scorepad
    from generator.render.views.sheets import sheet_files, sheet_parts

    lib = load_library(root, edition)
    if template in ("book.html.j2", "document.html.j2"):
        return {"book": print_book.book_html(lib), "duplex": print_book.book_html(lib, {"book-index": 7}, duplex=True)}
    pages = print_book.game_pages(lib)
    by_id, files = {p.id: p for p in pages}, sheet_files(pages)
    if template == "score-pad.html.j2":
        pad = print_book._env(lib).get_template("print/score-pad.html.j2")
        return {f"pad {named}": pad.render(sheets=[(f, n + 2) for n, f in enumerate(files)], named=named)
                for named in (True, False)}
    made = {}
    for f in files:
        heading, view = scorepad.sheet_view(by_id[f.game_id], f.variant_id)
        landscape = tuple(False for _ in sheet_parts(view))
        made[f.key] = scorepad.sheet_html(lib, f, heading, view, 12, landscape)
        made[f"{f.key} samples"] = scorepad.samples_html(lib, heading, view, f.number) or ""
    return made


# Every block of the tool's print templates, with the edition of the small book that prints it (2026.1 is laid out
# as printed: its title page; 2026.2 has errata and what changed).
BLOCKS = [
    ("book.html.j2", "cover", None), ("book.html.j2", "contents", None), ("book.html.j2", "title_page", "2026.1"),
    ("book.html.j2", "page_title", None), ("book.html.j2", "section_title", None),
    ("book.html.j2", "game_title", None), ("book.html.j2", "status", None), ("book.html.j2", "decisions", None),
    ("book.html.j2", "glance", None), ("book.html.j2", "variant_title", None), ("book.html.j2", "sheet_refs", None),
    ("book.html.j2", "sources", None), ("book.html.j2", "index_title", None), ("book.html.j2", "errata_title", None),
    ("book.html.j2", "changes_title", None),
    ("document.html.j2", "head", None), ("document.html.j2", "body", None),
    ("sheet.html.j2", "head", None), ("sheet.html.j2", "sheet_title", None), ("sheet.html.j2", "sample_title", None),
    ("sheet.html.j2", "sheet_footer", None),
    ("score-pad.html.j2", "head", None), ("score-pad.html.j2", "pad_title", None),
    ("score-pad.html.j2", "pad_lead", None), ("score-pad.html.j2", "pad_contents", None),
]


@pytest.fixture(autouse=True)
def _english_after():
    """The words in use are the last loaded book's: each test leaves English, as a fresh process has."""
    yield
    words.use(Words())


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> tuple[Path, dict]:
    """The small book with the tool's templates, and what each template makes of it, once."""
    root = small_project(tmp_path_factory.mktemp("blocks") / "small", as_printed=True)
    plain = {}
    for template, _block, edition in BLOCKS:
        if (template, edition) not in plain:
            plain[template, edition] = outputs(root, template, edition)
    return root, plain


@pytest.mark.parametrize(("template", "block", "edition"), BLOCKS)
def test_a_books_template_replaces_one_block_and_keeps_the_rest(small, template, block, edition):
    root, plain = small
    own = OWN.format(block=block)
    path = root / "templates" / "print" / template
    path.write_text(extending(template, block, own + "{{ super() }}"), encoding="utf-8")
    try:
        made = outputs(root, template, edition)
    finally:
        shutil.copy(TOOL_TEMPLATES / "print" / template, path)  # the small book's copy of the tool's, as it was
    assert made.keys() == plain[template, edition].keys()
    assert any(own in html for html in made.values()), f"the block {block} is printed nowhere"
    # the book's words where the block was, and every other byte the tool's
    assert {k: html.replace(own, "") for k, html in made.items()} == plain[template, edition]


def test_every_block_of_the_tools_print_templates_is_in_the_table():
    import re

    named = {(t, b) for t, b, _ in BLOCKS}
    found = {(path.name, b) for path in (TOOL_TEMPLATES / "print").glob("*.j2")
             for b in re.findall(r"\{%-?\s*block\s+(\w+)", path.read_text(encoding="utf-8"))}
    assert found == named


# --- the PDFs: one block of each template, replaced without super(), in the German book's PDFs -------------------

PRINTED = {  # template -> (block, what the book's block prints, the PDF it is in)
    "book.html.j2": ("game_title", '<h2 class="game-title">Spiel: {{ page.heading() }}</h2>', "book"),
    "document.html.j2": ("body", '<p class="own-block">Vereinsausgabe</p>{{ super() }}', "book"),
    "sheet.html.j2": ("sheet_footer", '<p class="sheet-footer">Blatt {{ number }} aus dem Vereinsblock</p>', "sheet"),
    "score-pad.html.j2": ("pad_title", '<h1 class="sheet-heading">Unser Block</h1>', "pad"),
}
SHOWN = {"book.html.j2": "Spiel: Herzeln", "document.html.j2": "Vereinsausgabe",
         "sheet.html.j2": "Blatt 2 aus dem Vereinsblock", "score-pad.html.j2": "Unser Block"}


def _pdfs(root: Path, out: Path) -> dict[str, str]:
    from generator.render.pdf.book import game_pages, render_book
    from generator.render.pdf.scorepad import render_score_pad
    from generator.render.pdf.weasy import Engine

    lib = load_library(root)
    render_book(lib, out / "book.pdf")
    render_score_pad(lib, game_pages(lib), out, Engine("letter", lib.root))
    pads = list(out.glob("*score-pad*.pdf"))
    sheet = out / "score-sheets" / "herzeln.pdf"
    assert len(pads) == 1 and sheet.is_file(), sorted(p.name for p in out.rglob("*.pdf"))

    def text(pdf: Path) -> str:
        return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout

    return {"book": text(out / "book.pdf"), "sheet": text(sheet), "pad": text(pads[0])}


@pytest.fixture(scope="module")
def german_pdfs(tmp_path_factory) -> dict[str, str]:
    """The German book's PDFs, its print templates each replacing one block (``PRINTED``), laid out once."""
    root = tmp_path_factory.mktemp("german") / "book"
    shutil.copytree(FIXTURES / "books" / "german", root)
    shutil.copytree(ROOT / "schema", root / "schema")
    (root / "templates" / "print").mkdir(parents=True)
    for template, (block, body, _pdf) in PRINTED.items():
        (root / "templates" / "print" / template).write_text(extending(template, block, body), encoding="utf-8")
    (root / "out" / "score-sheets").mkdir(parents=True)
    return _pdfs(root, root / "out")


@pytest.mark.parametrize("template", PRINTED)
def test_a_books_block_is_printed_in_the_pdf(german_pdfs, template):
    _block, _body, pdf = PRINTED[template]
    assert SHOWN[template] in german_pdfs[pdf]


def test_a_books_block_leaves_the_rest_of_its_pdf_the_tools(german_pdfs):
    book, pad = german_pdfs["book"], german_pdfs["pad"]
    assert "Auf einen Blick" in book  # the tool's box, in the book's language, where no block was replaced
    assert Words("de")("Score pad") not in pad and "Unser Block" in pad  # the block replaced, not added to
    assert "Spiel: Mäxchen" in book  # every game's heading, the game's own title in it (the block's values)

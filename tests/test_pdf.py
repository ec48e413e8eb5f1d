"""The printed book read back: page numbers, fonts, metadata, tagging, margins, reproducibility."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest

from generator.book import index as book_index
from generator.book.library import load_library
from generator.render.pdf.book import game_pages, render_book
from generator.render.pdf.scorepad import render_sheet
from generator.render.pdf.worker import render_pdfs
from generator.render.views.describe import pdf_name
from tests.conftest import CURRENT, PUBLISHED
from tests.pagetext import pdf_reader
from tests.textmatch import normalise

poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")


@pytest.fixture(scope="session")
def book(built, library) -> Path:
    return built[CURRENT] / "pdf" / pdf_name(library)


@pytest.fixture(scope="session")
def reader(book) -> pypdf.PdfReader:
    return pdf_reader(book)


def _outline(reader: pypdf.PdfReader) -> list[tuple[int, str, int]]:
    """(level, title, 1-based page) of every bookmark."""
    out = []

    def walk(items, level):
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
            else:
                out.append((level, item.title, reader.get_destination_page_number(item) + 1))

    walk(reader.outline, 1)
    return out


def test_contents_and_index_point_to_where_each_game_starts(reader, library):
    starts = {}
    for _level, title, page in _outline(reader):
        starts.setdefault(normalise(title), page)
    texts = [page.extract_text() for page in reader.pages]  # each page's text extracted once
    text = "\n".join(texts)
    contents = normalise(" ".join(texts[1:4]))
    index_page = starts[normalise(library.book.index_title)] - 1
    index = normalise(" ".join(texts[index_page:index_page + 3]))
    for page in game_pages(library):
        heading = normalise(page.heading())
        assert heading in starts, f"{page.id}: no bookmark"
        first = starts[heading]
        assert normalise(page.game.title) in normalise(texts[first - 1]), page.id
        # Contents: "Canadian Salad (Whist) .......... 15"; index: "15 Canadian Salad ..." (as the book titles it)
        assert re.search(re.escape(heading) + rf"[ .]*{first}\b", contents), f"contents: {page.id} -> {first}"
        row = book_index.index_entry(library, page.id)
        listed = normalise(row.title) if row else heading
        assert re.search(rf"\b{first}(?: {first + 1}| \d+)? {re.escape(listed)}\b", index), f"index: {page.id} -> {first}"
    assert text


def test_games_run_on_in_book_order(reader, library):
    """Games follow each other under their headings (issue 12): in book order, several to a page."""
    pages = {}
    for _level, title, page in _outline(reader):
        pages.setdefault(normalise(title), page)
    starts = [pages[normalise(p.heading())] for p in game_pages(library)]
    assert starts == sorted(starts)
    assert len(set(starts)) < len(starts)  # some page holds the end of one game and the start of the next


def test_headings_are_in_order(reader):
    levels = [level for level, _, _ in _outline(reader)]
    assert levels[0] == 1
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False)), "a heading level is skipped"


def test_metadata_language_and_tagging(reader, library):
    meta = reader.metadata
    assert meta.title.startswith(library.book.title)
    assert meta.author == library.book.author
    root = reader.trailer["/Root"]
    assert root["/Lang"] == library.book.language
    assert bool(root["/MarkInfo"]["/Marked"])
    assert "/StructTreeRoot" in root
    xmp = root["/Metadata"].get_object().get_data().decode("utf-8")
    assert "pdfuaid:part" in xmp  # identified as PDF/UA


@poppler
def test_fonts_are_embedded(book):
    out = subprocess.run(["pdffonts", str(book)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert out
    for row in out:
        assert " yes " in row.split("Identity-H")[-1] or row.split()[-5] == "yes", row


@poppler
def test_no_text_runs_off_a_page(book, tmp_path):
    html = tmp_path / "bbox.html"
    subprocess.run(["pdftotext", "-bbox", str(book), str(html)], check=True)
    page_re = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
    word_re = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
    margin = 14  # points (5 mm): the page margins are 18-22 mm, text may not reach the paper's edge
    for n, (width, height, body) in enumerate(page_re.findall(html.read_text(encoding="utf-8")), 1):
        for x0, y0, x1, y1, word in word_re.findall(body):
            if n == 1:
                continue  # the cover is printed to the edge on purpose
            assert float(x0) >= margin and float(x1) <= float(width) - margin, f"page {n}: '{word}' at x {x0}-{x1}"
            assert float(y0) >= margin and float(y1) <= float(height) - margin, f"page {n}: '{word}' at y {y0}-{y1}"


@poppler
def test_score_sheets_are_one_page_each(built, library, published_library):
    """A blank sheet is one page (one per part, for Oh Hell!'s two sequences); a sample adds one. A sheet whose
    boxes are at the 7 mm handwriting minimum may run on: test_sheets checks that it runs on only then."""
    from generator.render.views.sheets import sheet_files
    from tests.pagetext import page_count
    from tests.test_sheets import expected_rows

    for edition, lib in ((CURRENT, library), (PUBLISHED, published_library)):
        for sheet in sheet_files(game_pages(lib)):
            pages = page_count(built[edition] / "pdf" / "score-sheets" / sheet.filename)
            body = lib.games[sheet.game_id].game
            if sheet.variant_id:
                body = next(v for v in body.variants if v.id == sheet.variant_id)
            parts = len(expected_rows(body))  # a page per sequence of hands that depends on the players
            samples = 1 if body.score_sheet and any(b.sample for b in body.score_sheet.blocks) else 0
            assert pages >= parts + samples, sheet.key  # more only at the 7 mm minimum: test_sheets


@pytest.fixture(scope="module")
def small_library():
    """The tests' own small book (tests/conftest.py ``SMALL_BOOK``), whose Court Whist card is eight games' blocks."""
    from tests.conftest import SMALL_BOOK

    return load_library(SMALL_BOOK)


def test_court_whist_score_card_from_data(small_library, tmp_path):
    page = next(p for p in game_pages(small_library) if p.id == "court-whist")
    render_sheet(small_library, page, tmp_path / "court-whist.pdf")
    sheet = pypdf.PdfReader(tmp_path / "court-whist.pdf")
    assert len(sheet.pages) == 1, "the card of eight games fits one page at 7 mm boxes"
    text = normalise(" ".join(page.extract_text() for page in sheet.pages))
    for rnd in small_library.games["court-whist"].game.rounds.items:
        assert normalise(rnd.name) in text
    assert "total possible 13 to 39" in text and "grand total" in text


def test_pdfs_are_byte_identical_across_builds(small_built, tmp_path, monkeypatch):
    """The small book's PDFs (tests/conftest.py ``small_project``: its parts, errata, and sheets of every kind:
    a variant's, a landscape one, one of two parts, one with a sample) rendered again in another folder, time
    zone and hash seed are the same bytes as its session build's."""
    project, out = small_built
    monkeypatch.setenv("TZ", "Pacific/Auckland")
    monkeypatch.setenv("PYTHONHASHSEED", "12345")
    render_pdfs(load_library(project), tmp_path / "again")
    first = out / "pdf"
    for path in sorted(first.rglob("*.pdf")):
        again = tmp_path / "again" / path.relative_to(first)
        assert again.read_bytes() == path.read_bytes(), path.name


def test_a4_paper(small_library, tmp_path):
    """A sheet on A4: the Court Whist card, which fits one page on letter, fits one on A4 (narrower) too."""
    page = next(p for p in game_pages(small_library) if p.id == "court-whist")
    render_sheet(small_library, page, tmp_path / "a4.pdf", paper="a4")
    pages = pypdf.PdfReader(tmp_path / "a4.pdf").pages
    box = pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)
    assert len(pages) == 1



@poppler
def test_the_tests_read_each_anchors_page_as_pypdf_does(book, reader):
    """tests/pagetext.py reads anchors with `pdfinfo -dests`: the same names and pages as pypdf's."""
    from tests.pagetext import anchor_pages

    named = {name: reader.get_destination_page_number(dest) + 1 for name, dest in reader.named_destinations.items()}
    assert len(named) > 100 and anchor_pages(book) == named

def _links(reader: pypdf.PdfReader, first: int, last: int) -> dict[str, int]:
    """Link target name -> 1-based page it lands on, for links on pages first..last."""
    named = {name: reader.get_destination_page_number(dest) + 1 for name, dest in reader.named_destinations.items()}
    found = {}
    for page in reader.pages[first - 1:last]:
        for annot in page.get("/Annots", []):
            dest = annot.get_object().get("/Dest")
            if isinstance(dest, str):
                found[dest] = named[dest]
    return found


def test_contents_and_index_entries_link_to_the_game(reader, library):
    starts = {}
    for _level, title, page in _outline(reader):
        starts.setdefault(normalise(title), page)
    index_page = starts[normalise(library.book.index_title)]
    contents, index = _links(reader, 2, index_page - 1), _links(reader, index_page, len(reader.pages))
    for page in game_pages(library):
        start = starts[normalise(page.heading())]
        assert contents.get(f"game-{page.id}") == start, f"contents link to {page.id}"
        assert index.get(f"game-{page.id}") == start, f"index link to {page.id}"


@pytest.fixture(scope="module")
def duplex(small_built, tmp_path_factory):
    """The small book (tests/conftest.py ``small_project``: every kind of part, three sections) printed two-sided:
    (its reader, its anchors, the one-sided book's reader, the library). Where blank pages go depends on the parts,
    not on how many games the book has."""
    project, out = small_built
    library = load_library(project)
    target = tmp_path_factory.mktemp("duplex") / "book.pdf"
    anchors = render_book(library, target, duplex=True)
    return pypdf.PdfReader(target), anchors, pypdf.PdfReader(out / "pdf" / pdf_name(library)), library


def test_duplex_opens_every_section_on_a_right_hand_page(duplex):
    book, anchors, reader, library = duplex
    opens = [anchors[f"section-{s.id}"] for s in library.book.sections] + [anchors["book-index"]]
    assert all(page % 2 == 1 for page in opens), opens
    # The pages added so that a part opens on the right carry nothing, not even a page number.
    blank = [n for n in range(1, len(book.pages) + 1) if not book.pages[n - 1].extract_text().strip()]
    assert len(blank) == len(book.pages) - len(reader.pages) > 0
    part_openings = {page for name, page in anchors.items()
                     if name.startswith(("game-", "section-", "page-", "book-index", "errata"))}
    assert all(n + 1 in part_openings for n in blank)

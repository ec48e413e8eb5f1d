"""The printed book read back: page numbers, fonts, metadata, tagging, margins, reproducibility."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest

from generator.build import render_pdfs
from generator.render.pdf import game_pages, render_sheet
from generator.render.site import pdf_name
from tests.conftest import CURRENT, PUBLISHED
from tests.textmatch import normalise

poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")


@pytest.fixture(scope="session")
def book(built, library) -> Path:
    return built[CURRENT] / "pdf" / pdf_name(library)


@pytest.fixture(scope="session")
def reader(book) -> pypdf.PdfReader:
    return pypdf.PdfReader(book)


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
    text = "\n".join(reader.pages[i].extract_text() for i in range(len(reader.pages)))
    contents = normalise(" ".join(reader.pages[i].extract_text() for i in range(1, 4)))
    index_page = starts[normalise(library.book.index_title)] - 1
    index = normalise(" ".join(reader.pages[i].extract_text() for i in range(index_page, index_page + 3)))
    for page in game_pages(library):
        heading = normalise(page.heading())
        assert heading in starts, f"{page.id}: no bookmark"
        first = starts[heading]
        assert normalise(page.game.title) in normalise(reader.pages[first - 1].extract_text()), page.id
        # Contents: "Canadian Salad (Whist) .......... 15"; index: "15 Canadian Salad (Whist) ..."
        assert re.search(re.escape(heading) + rf"[ .]*{first}\b", contents), f"contents: {page.id} -> {first}"
        assert re.search(rf"\b{first}(?: {first + 1}| \d+)? {re.escape(heading)}\b", index), f"index: {page.id} -> {first}"
    assert text


def test_every_game_starts_on_a_new_page(reader, library):
    pages = {}
    for _level, title, page in _outline(reader):
        pages.setdefault(normalise(title), page)
    starts = [pages[normalise(p.heading())] for p in game_pages(library)]
    assert len(set(starts)) == len(starts)


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


def test_score_sheets_are_one_page_each(built, library, published_library):
    for edition, lib in ((CURRENT, library), (PUBLISHED, published_library)):
        for gs in lib.ordered_games():
            assert len(pypdf.PdfReader(built[edition] / "pdf" / "score-sheets" / f"{gs.id}.pdf").pages) == 1, gs.id


def test_court_whist_score_card_from_data(built, library):
    sheet = pypdf.PdfReader(built[CURRENT] / "pdf" / "score-sheets" / "court-whist.pdf")
    text = normalise(sheet.pages[0].extract_text())
    for rnd in library.games["court-whist"].game.rounds.items:
        assert normalise(rnd.name) in text
    assert "total possible 13 to 39" in text and "grand total" in text


def test_pdfs_are_byte_identical_across_builds(library, built, tmp_path, monkeypatch):
    monkeypatch.setenv("TZ", "Pacific/Auckland")
    monkeypatch.setenv("PYTHONHASHSEED", "12345")
    render_pdfs(library, tmp_path / "again")
    first = built[CURRENT] / "pdf"
    for path in sorted(first.rglob("*.pdf")):
        again = tmp_path / "again" / path.relative_to(first)
        assert again.read_bytes() == path.read_bytes(), path.name


def test_a4_paper(library, tmp_path):
    page = game_pages(library)[0]
    render_sheet(library, page, tmp_path / "a4.pdf", paper="a4")
    box = pypdf.PdfReader(tmp_path / "a4.pdf").pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)

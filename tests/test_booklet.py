"""The saddle-stitched booklet: page order, every page once, blanks, sheet size, same bytes twice."""

from __future__ import annotations

import re
import shutil
import statistics
import subprocess
from pathlib import Path

import pypdf
import pytest

from generator.book.library import load_library
from generator.commands.build import booklet_name
from generator.render.pdf.booklet import PAPER, impose, sides
from generator.render.views.describe import pdf_name
from tests.pagetext import once_per_file

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

# (pages in the book, the printed sides in order: (left, right) of sheet 1 front, sheet 1 back, ...)
ORDERS = [
    (1, [(None, 1), (None, None)]),
    (4, [(4, 1), (2, 3)]),
    (5, [(None, 1), (2, None), (None, 3), (4, 5)]),
    (8, [(8, 1), (2, 7), (6, 3), (4, 5)]),
    (10, [(None, 1), (2, None), (10, 3), (4, 9), (8, 5), (6, 7)]),
]


@pytest.mark.parametrize(("pages", "expected"), ORDERS, ids=[f"{o[0]} pages" for o in ORDERS])
def test_sides_are_in_saddle_stitch_order(pages, expected):
    assert sides(pages) == expected


@pytest.mark.parametrize("pages", range(1, 41))
def test_every_page_once_and_blanks_pad_to_a_multiple_of_four(pages):
    order = sides(pages)
    total = 2 * len(order)
    assert total % 4 == 0 and pages <= total < pages + 4
    numbers = [n for side in order for n in side]
    assert sorted(n for n in numbers if n is not None) == list(range(1, pages + 1))
    assert numbers.count(None) == total - pages
    for k in range(total // 4):  # sheet k: front N-2k | 2k+1, back 2k+2 | N-2k-1
        front, back = order[2 * k], order[2 * k + 1]
        pad = [n if n is not None and n <= pages else None for n in (total - 2 * k, 2 * k + 1, 2 * k + 2, total - 2 * k - 1)]
        assert (front, back) == ((pad[0], pad[1]), (pad[2], pad[3]))


def _text(pdf: Path, *crop: float) -> list[list[str]]:
    """The words of every page in content order (-raw), optionally of a crop box (x, width) only."""
    args = ["pdftotext", "-raw"]
    if crop:
        args += ["-r", "72", "-x", str(int(crop[0])), "-y", "0", "-W", str(int(crop[1])), "-H", "2000"]
    out = subprocess.run([*args, str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return [page.split() for page in out.split("\f")[:-1]]


def _check_booklet(book: Path, booklet: Path, paper: str) -> None:
    """Each half of each side carries exactly the words of the book page ``sides`` puts there."""
    source = _text(book)
    short, long = PAPER[paper]
    halves = [_text(booklet, 0, long / 2), _text(booklet, long / 2, long / 2)]
    order = sides(len(source))
    reader = pypdf.PdfReader(booklet)
    assert len(reader.pages) == len(order)
    for i, side in enumerate(order):
        box = reader.pages[i].mediabox
        assert (round(float(box.width), 2), round(float(box.height), 2)) == (round(long, 2), round(short, 2))
        for slot, number in enumerate(side):
            assert halves[slot][i] == (source[number - 1] if number else []), f"side {i + 1}, half {slot}: page {number}"


def _synthetic(tmp_path: Path, pages: int, paper: str) -> Path:
    from weasyprint import HTML

    body = "".join(f'<p style="break-after: page">Page{n:02d} alpha{n} omega{n}</p>' for n in range(1, pages + 1))
    target = tmp_path / "book.pdf"
    HTML(string=f"<style>@page {{ size: {paper} }}</style>{body}").write_pdf(target)
    return target


@pytest.mark.parametrize(("pages", "paper"), [(1, "letter"), (6, "letter"), (8, "a4"), (13, "a4")])
def test_a_small_book_is_imposed_page_by_page(tmp_path, pages, paper):
    book = _synthetic(tmp_path, pages, paper)
    assert impose(book, tmp_path / "booklet.pdf", paper) == 2 * -(-pages // 4)
    _check_booklet(book, tmp_path / "booklet.pdf", paper)
    impose(book, tmp_path / "again.pdf", paper)  # same book, same bytes
    assert (tmp_path / "again.pdf").read_bytes() == (tmp_path / "booklet.pdf").read_bytes()


def test_a4_pages_fill_a5_halves_exactly(tmp_path):
    book = _synthetic(tmp_path, 4, "a4")
    impose(book, tmp_path / "booklet.pdf", "a4")
    ops = pypdf.PdfReader(tmp_path / "booklet.pdf").pages[0].get_contents().get_data().decode()
    scale = float(ops.split()[1])
    assert abs(scale - 2 ** -0.5) < 1e-4, ops  # A4 to A5 is exactly 1/sqrt(2)


@pytest.fixture(scope="module")
def booklet_build(small_booklet) -> tuple[Path, Path]:
    """The small book built with its booklet (tests/conftest.py ``small_booklet``): (the project, its PDF folder)."""
    return small_booklet


_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)


@once_per_file
def _words(pdf: Path) -> list[tuple[float, float, list[tuple[float, float, float, float, str]]]]:
    """(width, height, words) of every page: each word's box and text, as pdftotext -bbox reads it (once a file:
    the booklet's size and its folding read the same words)."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return [(float(w), float(h), [(*map(float, m[:4]), m[4]) for m in _WORD.findall(body)])
            for w, h, body in _PAGE.findall(out)]


def folded(booklet: Path) -> list[tuple[str | None, str | None]]:
    """What a reader finds folding the printed sheets: for each side, the folio printed at the foot of its
    left half's outer (left) edge and of its right half's outer (right) edge, upright; None where there is none."""
    out = []
    for width, height, words in _words(booklet):
        foot = [(x0, x1, text) for x0, y0, x1, y1, text in words if y0 > height * 0.93 and y1 > y0 and text.isdigit()]
        left = [t for x0, x1, t in foot if x1 < width * 0.1]
        right = [t for x0, x1, t in foot if x0 > width * 0.9]
        out.append((left[0] if left else None, right[0] if right else None))
    return out


def _median_height(pdf: Path) -> float:
    """The median height of the words of running text (a word of letters, of the size most words have)."""
    return statistics.median(y1 - y0 for _w, _h, words in _words(pdf) for _x0, y0, _x1, y1, t in words if t.isalpha())


@pytest.mark.parametrize(("pages", "folios", "expected"), [
    (8, {n: str(n) for n in range(2, 9)}, []),
    (8, {n: str(n) for n in range(2, 9) if n != 5}, []),  # a page without folio (a section's title page)
    (8, {**{n: str(n) for n in range(2, 9)}, 3: "6", 6: "3"}, ["side 3: left 3, right 6"]),  # two pages swapped
])
def test_folding_finds_pages_out_of_place(pages, folios, expected):
    read = [tuple(folios.get(n) if n else None for n in side) for side in sides(pages)]
    assert misplaced(read, pages) == expected


def misplaced(read: list[tuple[str | None, str | None]], pages: int) -> list[str]:
    """The sides whose printed folios are not the pages the saddle-stitch order puts there."""
    return [f"side {i}: left {left}, right {right}" for i, ((left, right), want) in enumerate(zip(read, sides(pages), strict=True), 1)
            if any(found is not None and found != str(n) for found, n in zip((left, right), want, strict=True))]


@pytest.mark.slow
def test_the_booklet_is_laid_out_at_its_own_size_and_folds_in_order(booklet_build):
    """The booklet is the book set again at half-letter (not its pages shrunk): its running text is at least
    85 % the book's size, and folded, each side holds the right pages, folios upright on the outer edges."""
    project, pdfs = booklet_build
    lib = load_library(project)
    book, booklet = pdfs / pdf_name(lib), pdfs / booklet_name(lib)
    assert _median_height(booklet) >= 0.85 * _median_height(book)
    reader = pypdf.PdfReader(booklet)
    short, long = PAPER["letter"]
    assert all((round(float(p.mediabox.width)), round(float(p.mediabox.height))) == (round(long), round(short))
               for p in reader.pages)
    read = folded(booklet)
    pages = 2 * len(read)  # the book laid out again, padded to a multiple of four
    assert misplaced(read, pages) == []
    numbered = [f for side in read for f in side if f is not None]
    assert len(numbered) >= 0.75 * pages, f"only {len(numbered)} of {pages} pages show a folio on the outer edge"
    assert sorted(map(int, numbered)) == sorted(set(map(int, numbered)))  # no page twice

"""The printed book fits its paper (issue 12), read back from the PDF's text boxes and tags.

Each edition, on letter and A4 paper: at most its page budget; no page less than a quarter full but
the cover, the contents and the errata's last page; no heading, caption or list's first line as the
last line of a page; no game whose heading and first line of text are on different pages; no table
row split across pages. Each rule is also shown to catch a small document broken on purpose.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdf
import pytest

from generator.render.pdf import book_html, render_book
from generator.render.site import pdf_name
from generator.render.weasy import Engine
from tests.conftest import CURRENT, PUBLISHED
from tests.pagetext import openers, read_pages, sparse, split_openings, split_rows, stranded

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

BUDGET = {PUBLISHED: 42, CURRENT: 56}  # pages at most, on either paper (issue 12)
CASES = [(edition, paper) for edition in (PUBLISHED, CURRENT) for paper in ("letter", "a4")]
BROKEN = Path(__file__).resolve().parent / "fixtures" / "print"


@pytest.fixture(scope="session")
def printed(built, library, published_library, tmp_path_factory):
    """(edition, paper) -> (the book's PDF, its HTML); letter is the build's, A4 is laid out once here."""
    libraries, cache = {CURRENT: library, PUBLISHED: published_library}, {}

    def get(edition: str, paper: str) -> tuple[Path, str]:
        if (edition, paper) not in cache:
            lib = libraries[edition]
            if paper == "letter":
                pdf = built[edition] / "pdf" / pdf_name(lib)
            else:
                pdf = tmp_path_factory.mktemp(f"book-{edition}-{paper}") / "book.pdf"
                render_book(lib, pdf, paper=paper)
            cache[edition, paper] = pdf, book_html(lib)
        return cache[edition, paper]

    return get


def _exempt(pdf: Path, has_errata: bool) -> set[int]:
    """Pages that may be nearly empty: the cover, the contents, the errata's last page."""
    reader = pypdf.PdfReader(pdf)
    marks = [(item.title, reader.get_destination_page_number(item) + 1)
             for item in reader.outline if not isinstance(item, list)]
    contents = next(n for title, n in marks if title == "Contents")
    after = min(n for _title, n in marks if n > contents)
    return {1, *range(contents, after)} | ({len(reader.pages)} if has_errata else set())


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_the_book_fits_its_page_budget(printed, edition, paper):
    pdf, _ = printed(edition, paper)
    assert len(pypdf.PdfReader(pdf).pages) <= BUDGET[edition]


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_no_page_is_less_than_a_quarter_full(printed, edition, paper, library, published_library):
    pdf, _ = printed(edition, paper)
    lib = library if edition == CURRENT else published_library
    has_errata = any(lib.in_edition(e.edition) for e in lib.errata)
    assert sparse(read_pages(pdf), _exempt(pdf, has_errata)) == []


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_no_page_ends_on_a_heading_caption_or_first_line_of_a_list(printed, edition, paper):
    pdf, html = printed(edition, paper)
    assert stranded(read_pages(pdf), openers(html)) == []


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_every_game_heading_is_on_the_page_its_text_starts(printed, edition, paper):
    pdf, html = printed(edition, paper)
    assert html.count('class="opened"') >= html.count('class="game"')  # every game is checked
    assert split_openings(pdf) == []


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_no_table_row_is_split_across_pages(printed, edition, paper):
    pdf, html = printed(edition, paper)
    assert split_rows(pdf, html) is None


# The rules above, each shown to catch a document broken on purpose (tests/fixtures/print/).
BROKEN_CASES = [
    ("heading-at-foot.html", lambda pdf, html: stranded(read_pages(pdf), openers(html)), "Lonely Heading"),
    ("caption-at-foot.html", lambda pdf, html: stranded(read_pages(pdf), openers(html)), "Lonely Caption"),
    ("list-first-line.html", lambda pdf, html: stranded(read_pages(pdf), openers(html)), "first line of a list"),
    ("sparse-page.html", lambda pdf, html: sparse(read_pages(pdf), set()), "page 2"),
    ("split-row.html", lambda pdf, html: [split_rows(pdf, html) or ""], "3 table rows are printed in 4 pieces"),
    ("opening-split.html", lambda pdf, html: split_openings(pdf), "game-lonely: heading on page 1, text from page 2"),
]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


@pytest.mark.parametrize(("fixture", "rule", "expected"), BROKEN_CASES, ids=[c[0] for c in BROKEN_CASES])
def test_each_rule_catches_a_broken_page(engine, tmp_path, fixture, rule, expected):
    html = (BROKEN / fixture).read_text(encoding="utf-8")
    pdf = tmp_path / "broken.pdf"
    engine.write([engine.document(html)], pdf)
    found = rule(pdf, html)
    assert any(expected in message for message in found), found


def test_copy_fitting_starts_from_the_stylesheets_leading():
    """pdf.BASE_LEADING (which fit steps can save a page) is print.css's leading for the body text."""
    import re

    from generator.render import pdf

    css = (Path(__file__).parent.parent / "templates" / "print" / "print.css").read_text(encoding="utf-8")
    leadings = re.findall(r"(?m)^html\s*\{[^}]*?line-height:\s*([\d.]+)", css)
    assert leadings and float(leadings[-1]) == pdf.BASE_LEADING  # the last html rule wins
    assert all(leading < pdf.BASE_LEADING for leading, _ in pdf.FIT_STEPS)

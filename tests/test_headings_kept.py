"""No heading ends a page (issue 60, item 7): in every PDF the build writes (the book, the score pad, each score sheet,
the booklet), the next thing after each heading or table caption is on the heading's page. Read from each PDF's
structure tree (pagetext.lone_headings); shown to catch pages broken on purpose (tests/fixtures/print/).

Cheap: the small project's PDFs, built once a session (conftest.small_built, small_booklet)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pagetext import lone_headings

BROKEN = Path(__file__).resolve().parent / "fixtures" / "print"


def test_no_heading_ends_a_page_of_any_pdf(small_built, small_booklet):
    _, out = small_built
    _, booklet = small_booklet
    pdfs = sorted((out / "pdf").rglob("*.pdf")) + sorted(booklet.glob("*booklet*.pdf"))
    assert len(pdfs) >= 4 and any("booklet" in p.name for p in pdfs) and any("score-pad" in p.name for p in pdfs)
    found = {str(pdf.relative_to(pdf.parents[1])): lone for pdf in pdfs if (lone := lone_headings(pdf))}
    assert found == {}


@pytest.mark.parametrize(("fixture", "expected"), [("heading-at-foot.html", "page 1: a H2 ends the page"),
                                                   ("caption-at-foot.html", "a Caption ends the page")])
def test_a_heading_that_ends_a_page_is_found(tmp_path, fixture, expected):
    from generator.render.pdf.weasy import Engine

    pdf = tmp_path / "broken.pdf"
    engine = Engine()
    engine.write([engine.document((BROKEN / fixture).read_text(encoding="utf-8"))], pdf)
    assert any(expected in message for message in lone_headings(pdf)), lone_headings(pdf)

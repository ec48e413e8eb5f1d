"""A word too long for its line is broken or hyphenated, never cut at the edge of the PDF page (issue 60, item 5): a
word of a data text in each kind of place the book prints one (a heading, a paragraph, a table's row label and cell,
a summary box, a caption), laid out with the book's stylesheet, printed whole within the page. Cheap: one page."""

from __future__ import annotations

import re
import subprocess

import pytest

from generator.book.files import TOOL_TEMPLATES, read_file_text
from generator.render.pdf.weasy import Engine

WORD = "Zyxwvutsrqponmlkjihgfedcba" * 4  # no dictionary's: hyphenation patterns alone would not place its breaks
PLACES = {
    "heading": f"<h2>{WORD}</h2>",
    "subheading": f"<h3>Play {WORD}</h3>",
    "paragraph": f"<p>Before {WORD} after.</p>",
    "row label": f"<table class='data score-table'><tbody><tr><th scope='row'>{WORD}</th><td>5 points</td></tr></tbody></table>",
    "summary box": f"<table class='glance-table'><tbody><tr><th scope='row'>Deal</th><td>{WORD}</td></tr></tbody></table>",
    "caption": f"<table class='data'><caption>{WORD}</caption><tbody><tr><th scope='row'>A</th><td>5</td></tr></tbody></table>",
}
BOX = re.compile(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>')


@pytest.mark.parametrize("place", PLACES, ids=PLACES.keys())
def test_a_long_word_is_printed_whole_within_the_page(tmp_path, place):
    css = read_file_text(TOOL_TEMPLATES / "print" / "print.css")
    pdf = tmp_path / "long.pdf"
    engine = Engine()
    engine.write([engine.document(f"<html lang='en'><head><style>{css}</style></head><body>{PLACES[place]}</body></html>")],
                 pdf)
    layout = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    width = float(re.search(r'<page width="([\d.]+)"', layout)[1])
    words = BOX.findall(layout)
    assert [text for _, right, text in words if float(right) > width] == [], "a word runs past the page's edge"
    text = re.sub(r"[\u2010-]\n?|\s", "", "".join(t for *_, t in words))  # the pieces joined, their hyphens dropped
    assert WORD in text, "a piece of the word is missing"

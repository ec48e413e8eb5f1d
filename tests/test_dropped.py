"""What Markdown drops, validate reports (issue 51, item 3): each word of a prose file that prints nowhere is one
line at its line, with why and what to write. Cheap: a one-game fixture book, no render; the page's words are
Markdown's own conversion, the one both outputs make (``book/rendered.py``)."""

from __future__ import annotations

import pytest

from generator.book.rendered import PROSE_EXTENSIONS, dropped, page_text
from tests.checkfix import DEMO_GAME, findings_with, make_project

GAME = DEMO_GAME + """\
variants:
  - {id: short, title: Short Demo, introduced: "2026.1", sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]}
"""


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    fixture = {"games": [GAME], "prose": {"demo": "## Rules\n\nPlay well.\n", "demo.short": "Play to 50.\n"}}
    return make_project(tmp_path_factory.mktemp("dropped") / "project", fixture)


# (the prose file, what is written after its text, the line's words that print nowhere, why)
DROPPED = [
    ("content/demo.md", "| Card | Points |\n|---|---|\n| Ace | 1 | or 11 going out |", "'or', '11', 'going', 'out'",
     "the cells past the header's are dropped"),
    ("content/demo.md", "Card | Points\n--- | ---\nKing | 10 | kept", "'kept'", "its header 2"),
    ("content/demo.md", '[//]: # "Deal nine cards when three play"', "'deal', 'nine', 'cards', 'when', 'three'",
     "link definition"),
    ("content/demo.md", "[Note]: misdeals-redeal", "'note', 'misdeals', 'redeal'", "link definition"),
    ("content/demo.md", '[^1]: <dealer> "scores nothing"', "'1', 'dealer', 'scores', 'nothing'", "link definition"),
    ("content/demo.md", 'As in [Gin](https://example.com/gin "knocking at ten or less").', "'knocking'",
     "a link's title"),
    ("content/demo.short.md", "| A | B |\n|---|---|\n| 1 | 2 | lost |", "'lost'", "cells past the header's"),
    ("content/about.md", '  [x]: # "an indented comment"', "'x', 'an', 'indented', 'comment'", "link definition"),
    # A reference is given its value before Markdown reads the line, as both outputs do: the value is what is lost.
    ("content/demo.md", "| Deal | |\n|---|---|\n| Each | gets | {deal.each} |", "'7'", "cells past the header's"),
    ("content/demo.short.md", "[//]: # \"Deal {deal.each} when two play\"", "'deal', '7', 'when', 'two', 'play'",
     "link definition"),
]


@pytest.mark.parametrize(("where", "text", "words", "why"), DROPPED, ids=[case[1][:40] for case in DROPPED])
def test_words_markdown_drops_are_one_line_at_their_line(book, where, text, words, why):
    found = findings_with(book, where, text, "prose.dropped")
    last = len(((book / where).read_text(encoding="utf-8") + "\n" + text).splitlines())
    assert [(f.path, f.line) for f in found] == [(where, last)], [(f.path, f.line, f.message) for f in found]
    assert found[0].message.startswith(words) and why in found[0].message, found[0].message


# What is markup by design, or shows as written: no word of it is lost.
KEPT = [
    "See [Gin](gin.md) and [the rules][r].\n\n[r]: https://example.com/rules",
    "![a picture](x.png)",  # prose.image says what happens to it
    "```python\nscore = 10\n```",
    "!!! note \"Dealing\"\n    Deal *seven* cards &amp; turn one up.",
    "1. First\n2. Second\n10. Tenth",
    "A <b>tag</b>, a <!-- comment -->, snake_case and _emphasis_ show as written.",
    "| A | B |\n|---|---|\n| 1 |",  # a row short of cells: nothing lost
    "Zwölfer, Bézique and Café (NFD: Cafe\u0301) and <https://example.com/a>.",
    "## Scoring ##\n\nSetext\n======",
]


@pytest.mark.parametrize("text", KEPT, ids=[t[:30] for t in KEPT])
def test_what_markdown_prints_is_not_reported(text):
    assert dropped(text) == [], page_text(text)


def test_the_outputs_convert_prose_with_the_markdown_validate_reads():
    from generator.render.views import markup

    assert markup.PROSE_EXTENSIONS is PROSE_EXTENSIONS
    for text, _, _, _ in [(case[1], 0, 0, 0) for case in DROPPED[:3]]:
        html = str(markup.prose_html(text))
        assert not any(word in html for word in ("going", "kept", "nine")), html

"""The errata page speaks to readers: where each correction is, what the book said and says now, and why.

(No page shows file paths, data paths or check ids: tests/test_reader_text.py reads every output.)
"""

from __future__ import annotations

import html
import re
import subprocess

import pytest

from generator.book.library import load_library
from generator.book.prose import expand
from generator.render.views.describe import pdf_name
from tests.conftest import CURRENT, ROOT


def _visible(page: str) -> str:
    """The words of a built page's article, tags dropped ('edit this page' links are the contributor's)."""
    body = page[page.index("<article"):page.index("</article>")]
    body = re.sub(r'<a [^>]*title="Edit this page".*?</a>', "", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def _pdf_errata(pdf) -> str:
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    # The errata close the book; the table may run onto a second page under a running head "Errata".
    opening = max(text.rfind("Corrections made since the book was published"), text.rfind("No corrections in this edition"))
    return text[text.rindex("Errata\n", 0, opening):]


def test_each_correction_says_where_what_and_why(built):
    lib = load_library(ROOT, CURRENT)
    site = _visible((built[CURRENT] / "site" / "errata" / "index.html").read_text(encoding="utf-8"))
    pdf = " ".join(_pdf_errata(built[CURRENT] / "pdf" / pdf_name(lib)).split())
    for e in lib.errata:
        game = lib.games.get(e.file.rsplit("/", 1)[-1].split(".")[0])
        scopes = ([game.doc.data] if game else []) + [lib.scope()]  # data text, as its page prints it
        for text in (site, pdf):
            flat = " ".join(text.split())
            assert expand(str(e.published), *scopes) in flat and expand(str(e.corrected), *scopes) in flat
        assert " ".join(e.evidence.why.split()[:4]) in " ".join(site.split())


# An erratum marks the words it changed, not the sentence: (what the book said, what it says now, the words marked in
# each). A slip inside a word marks the word; a number with its separators is one word.
MARKS = [
    ("a misspelling", "Shufle well.", "Shuffle well.", ["Shufle"], ["Shuffle"]),
    ("a real-word slip", "Pass to your opponents left.", "Pass to your opponent's left.", ["opponents"], ["opponent's"]),
    ("a slip inside a word", "3 4,s is 400", "3 4's is 400", ["4,s"], ["4's"]),
    ("a number", "A set scores 1,000 points.", "A set scores 1,500 points.", ["1,000"], ["1,500"]),
    ("words in two places", "Play 3+ cards of a heartJ run.", "Play five cards of a heart jack run.",
     ["3+", "heartJ"], ["five", "heart jack"]),
    ("the whole text", "Any", "2 to 8", ["Any"], ["2 to 8"]),
    ("words added", "Low score wins.", "Low score wins outright.", [], ["outright"]),
    ("words taken out", "Deal seven cards each, face down.", "Deal seven cards each.", [", face down"], []),
    ("punctuation alone", "Hearts, spades", "Hearts; spades", [","], [";"]),
]


@pytest.mark.parametrize("said,says,struck,bold", [m[1:] for m in MARKS], ids=[m[0] for m in MARKS])
def test_an_erratum_marks_only_the_words_it_changed(said, says, struck, bold):
    from generator.render.views.describe import ErratumRow

    row = ErratumRow("Trash", "game-trash", "games/trash.md", said, says, "Why.")
    assert [html.unescape(w) for w in re.findall(r"<del>(.*?)</del>", str(row.said))] == struck
    assert [html.unescape(w) for w in re.findall(r"<ins>(.*?)</ins>", str(row.says))] == bold
    # Read without the marks, each is the text as it was and as it is.
    assert html.unescape(re.sub(r"</?(del|ins)>", "", str(row.said))) == said
    assert html.unescape(re.sub(r"</?(del|ins)>", "", str(row.says))) == says


def test_the_marks_are_the_only_markup_an_erratum_adds():
    from generator.render.views.describe import ErratumRow

    row = ErratumRow("x", "game-x", "games/x.md", "<b>bold</b> & co", "<i>bold</i> & co", "Why.")
    assert str(row.said) == "&lt;<del>b</del>&gt;bold&lt;/<del>b</del>&gt; &amp; co"
    assert str(row.says) == "&lt;<ins>i</ins>&gt;bold&lt;/<ins>i</ins>&gt; &amp; co"


@pytest.mark.parametrize("pages,page", [({"errata": 40, "errata-2026-2": 41}, "page 41"),
                                        ({"errata": 40, "errata-2026-2": 40}, "page 40")])
def test_what_changed_in_print_names_the_page_of_its_own_corrections(pages, page):
    """The errata run over pages, newest edition first: What changed names the page where this edition's are."""
    from generator.render.pdf.book import BookParts
    from generator.render.views.changes import edition_changes, line_html

    lib = load_library(ROOT, CURRENT)
    changes = edition_changes(lib)
    assert changes.errata_anchor == "errata-2026-2"
    text = " ".join(re.sub(r"<[^>]+>", " ", str(BookParts(lib).templates.changes_page(changes, line_html, pages))).split())
    assert f"are listed under Errata, {page}," in text

"""The book says what the family wrote: fixed cases that must not come back, in the site and the PDF.

Each row names an edition, a page and the exact words of a source (a number the source spells out,
an alternate rule's own heading, a worked example's line) that must appear in that page's text and
in the book PDF's text. No number words are folded to digits and no punctuation is dropped: the
site text is compared with its runs of white space made one space, the PDF text with white space
removed altogether, because pdftotext spaces glyphs by their gaps, not by the text's spaces.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from generator.book.arith import ArithmeticError_, worked
from generator.book.library import load_library
from generator.book.model import CardEquipment, Example, GameBody
from generator.render.views.describe import pdf_name
from tests.conftest import CURRENT, PUBLISHED, ROOT
from tests.fidelity_output import pdf_ranges
from tests.textmatch import page_text

poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

# (edition, page, the source's words as it prints them)
SOURCE_WORDS = [
    # numbers the source spells out print as its words ({path:word}); digits stay digits
    (PUBLISHED, "ten-dime-rummy", "Each player begins the game with ten dimes"),
    (PUBLISHED, "oh-hell", "Round one – Ten (or 7 cards are dealt depending on the number of players) to each player."),
    (PUBLISHED, "five-hundred-rummy", 'Deal all cards out evenly to the four players except for 4 cards which are dealt into the "Kitty"'),
    (PUBLISHED, "five-hundred-rummy", 'picks up the four cards from the "kitty" and discards four cards from their hand'),
    (PUBLISHED, "dice-10000", "First player to get at least 10,000 and then back down to zero or less"),
    (PUBLISHED, "dice-10000", "First person to zero or less wins and game play stops."),
    (PUBLISHED, "honeymoon-whist", "Cut for deal – low card plays first (important due to the five hands)"),
    (PUBLISHED, "honeymoon-whist", "Deal 2 cards to each player; first player looks at their two cards and discards one."),
    (PUBLISHED, "five-in-a-row", "Five cards are dealt to each player."),
    (PUBLISHED, "fast-track", "Each player gets one full deck of cards including Jokers"),
    (PUBLISHED, "hand-and-foot", "you must have 4 matching cards in your hand, two to close the canasta"),
    (PUBLISHED, "horseshit-rummy", "(e.g. if the first card is a 5 they will receive four more cards face down)"),
    (PUBLISHED, "sweep", "4 are face up on top of the four blind cards"),
    (CURRENT, "golf", "The dealer deals four cards to each player, one at a time."),
    (CURRENT, "golf", "Some play that all four cards begin face down"),
    (CURRENT, "golf", "for example in a four-player game a player knocks with 3 points"),
    (CURRENT, "golf", "The player who has the lowest cumulative score after nine deals wins."),
    (CURRENT, "golf", "For example 3 Queens and a King have a value of zero"),
    (CURRENT, "golf", "Deal six cards to each player, one at a time."),
    (CURRENT, "golf", "At the end of play, turn each player's layout of six cards face-up."),
    (CURRENT, "hand-and-foot", "Four hands are played."),
    (CURRENT, "hand-and-foot", "After four hands, the highest score wins."),
    (CURRENT, "gin-rummy", "The dealer deals his opponent ten cards and himself ten cards"),
    (CURRENT, "gin-rummy", "You won six boxes, 150 points at 25 points each. He won two boxes worth 50 points to him."),
    # with four players opposites are partners: the count is data (partners_when), the words the source's
    (PUBLISHED, "five-in-a-row", "2 or 4 people can play, with four players opposites are partners"),
    (PUBLISHED, "jokers-wild", "2 or 4 people can play, with four players opposites are partners"),
    # alternate rules under the source's own heading and separator
    (PUBLISHED, "dice-10000", "Alternate Rule 1 –everyone gets one turn after a player gets to zero or less."),
    (PUBLISHED, "dice-10000", 'Alternate Rule 2 – Some people play to exactly zero, we do not as its monotonous and "no fun"'),
    (PUBLISHED, "dice-10000", "Alternate Rule 3 – The game ends when a person reaches 10,000. You do not play back to 0."),
    (PUBLISHED, "push", "Alternate Rule 1 - Each set can only have one of each suit."),
    (PUBLISHED, "thirty-one", "Alternate Rule 1 If somebody gets 31 and lays down only the lowest has to pay"),
    (CURRENT, "chase-the-ace", "Different versions: 1. Some play that kings are traded like any other card"),
    (CURRENT, "chase-the-ace", "3. Kings get flipped over when someone tries to trade with one"),
    # the About page's history is the family's and no erratum rewrites it: both editions print it as published
    (PUBLISHED, "about", "We update and reprint the book every few years and the 2025 version is the 6th Edition."),
    (CURRENT, "about", "We update and reprint the book every few years and the 2025 version is the 6th Edition."),
    (CURRENT, "about", "For the 2025 edition we have added several"),
    # slips the published book printed, as it printed them; 2026.2 prints them corrected (NOT_WORDS)
    (PUBLISHED, "gin-rummy-tournament", "Your oponent does not get a draw the first round"),
    (PUBLISHED, "rummoli", "ante the next rnd then they are out"),
    (CURRENT, "gin-rummy-tournament", "Your opponent does not get a draw the first round"),
    (CURRENT, "rummoli", "ante the next round then they are out"),
]

# (edition, page, words that must not appear: what the defects printed)
NOT_WORDS = [
    (PUBLISHED, "ten-dime-rummy", "with 10 dimes"),
    (PUBLISHED, "oh-hell", "Round one – 10"),
    (PUBLISHED, "dice-10000", "– –everyone"),
    (PUBLISHED, "dice-10000", "10,000 and then back down to 0 or less"),  # the sentence; the box writes digits
    (PUBLISHED, "thirty-one", "Alternate Rule 1 – If"),
    (CURRENT, "chase-the-ace", "Alternate Rule 1"),
    (CURRENT, "golf", "deals 4 cards"),
    (CURRENT, "about", "2026 version"),
    (CURRENT, "gin-rummy-tournament", "oponent"),
    (CURRENT, "rummoli", "rnd"),
]

# (edition, game, label, the working in numbers, the result): a worked example's line as the book words it
EXAMPLE_LINES = [
    (PUBLISHED, "horseshit-rummy", "more cards face down", "5 − 1", "4"),
    (PUBLISHED, "gin-rummy-tournament", "Guys – Game 1 – line 2", "5 + 10", "15"),
    (PUBLISHED, "gin-rummy-tournament", "get awarded", "6 × 2 + 25", "37"),
    (PUBLISHED, "oh-hell", "with a 1 in front", "10 + 1", "11"),
    (CURRENT, "basic-rummy", "A wins with", "9 + 1 + 15", "25"),
    (CURRENT, "gin-rummy", "Sixth hand – You total", "76 + 19", "95"),
    (CURRENT, "gin-rummy", "Box bonuses – You", "6 × 25", "150"),
    (CURRENT, "golf", "if this is lowest", "3 − 4", "-1"),
]

# (edition, game, glance words that must be there, glance words that must not)
GLANCES = [
    (PUBLISHED, "horseshit-rummy", "3-4 decks, no jokers; remove 2s", "with jokers"),
    (PUBLISHED, "five-in-a-row", "2 or 4 players (in partnerships when 4 play)", "without partners"),
    (PUBLISHED, "jokers-wild", "2 or 4 players (in partnerships when 4 play)", "without partners"),
    (PUBLISHED, "court-whist", "(in partnerships, except Game 3 – Conspiracy – no partners)", None),
]


def _site_page(built: dict[str, Path], edition: str, page: str) -> Path:
    site = built[edition] / "site"
    return site / page / "index.html" if page == "about" else site / "games" / page / "index.html"


def _one_space(text: str) -> str:
    return " ".join(text.split())


def _no_space(text: str) -> str:
    text = re.sub("\u2010\\s*\n", "", text)  # a word hyphenated at the line's end is one word
    return re.sub(r"\s+", "", text.replace("\u00ad", ""))


@cache
def _pdf_text(pdf: Path, layout: bool = False) -> str:
    args = ["pdftotext", "-layout"] if layout else ["pdftotext"]
    return subprocess.run([*args, str(pdf), "-"], check=True, capture_output=True, text=True).stdout


@cache
def _pdf_name(edition: str) -> str:
    return pdf_name(load_library(ROOT, edition))


def _pdf(built: dict[str, Path], edition: str) -> Path:
    return built[edition] / "pdf" / _pdf_name(edition)


def _pdf_page_text(built: dict[str, Path], edition: str, page: str) -> str:
    """The text of the PDF pages a game (or the About page) is printed on, found by the book's
    named destinations: games run on within a section, so a page need not start with its heading."""
    pdf = _pdf(built, edition)
    span = pdf_ranges(pdf).get("page:about" if page == "about" else f"game:{page}")
    assert span, f"no named destination for {page!r} in {pdf.name}"
    pages = _pdf_text(pdf).split("\f")
    return "\f".join(pages[p - 1] for p in span)


def _site_text(built, edition, page) -> str:
    return _one_space(page_text(_site_page(built, edition, page).read_text(encoding="utf-8")))


@pytest.mark.parametrize(("edition", "page", "words"), SOURCE_WORDS)
def test_source_words_in_the_site(built, edition, page, words):
    assert words in _site_text(built, edition, page)


@poppler
@pytest.mark.parametrize(("edition", "page", "words"), SOURCE_WORDS)
def test_source_words_in_the_pdf(built, edition, page, words):
    assert _no_space(words) in _no_space(_pdf_page_text(built, edition, page))


@pytest.mark.parametrize(("edition", "page", "words"), NOT_WORDS)
def test_defect_words_are_gone_from_the_site(built, edition, page, words):
    assert words not in _site_text(built, edition, page)


@poppler
@pytest.mark.parametrize(("edition", "page", "words"), NOT_WORDS)
def test_defect_words_are_gone_from_the_pdf(built, edition, page, words):
    assert _no_space(words) not in _no_space(_pdf_page_text(built, edition, page))


def _example_rows(html: str) -> list[list[str]]:
    """The cells of every worked-example row of a page, as text."""
    rows = []
    for table in re.findall(r'<table class="data example".*?</table>', html, re.S):
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
            cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
            rows.append([_one_space(re.sub(r"<[^>]+>", "", c)) for c in cells])
    return rows


@pytest.mark.parametrize(("edition", "game", "label", "working", "result"), EXAMPLE_LINES)
def test_example_line_reads_as_the_book_words_it(built, edition, game, label, working, result):
    rows = _example_rows(_site_page(built, edition, game).read_text(encoding="utf-8"))
    assert [label, working, result] in rows


@poppler
@pytest.mark.parametrize(("edition", "game", "label", "working", "result"), EXAMPLE_LINES)
def test_example_line_reads_as_the_book_words_it_in_the_pdf(built, edition, game, label, working, result):
    # -layout keeps a table's row on one line: label, working and result side by side
    lines = {_no_space(line) for line in _pdf_text(_pdf(built, edition), layout=True).splitlines()}
    assert _no_space(f"{label} {working} {result}") in lines


def _example_names(lib) -> set[str]:
    """Every name a worked example uses internally: its figures' names and the names in expressions."""
    names: set[str] = set()
    for gs in lib.ordered_games():
        for body in [gs.game, *gs.game.variants]:
            for ex in body.examples.values():
                names.update(ex.values)
    return names


WORKING = re.compile(r"^[0-9.,\s+−×÷()\-]*$")


@pytest.mark.parametrize("edition", [CURRENT, PUBLISHED])
def test_no_example_shows_a_name_in_the_site(built, edition):
    lib = load_library(ROOT, edition)
    shown = 0
    for gs in lib.ordered_games():
        for label, working, result in _example_rows(_site_page(built, edition, gs.id).read_text(encoding="utf-8")):
            shown += 1
            assert WORKING.match(working), f"{gs.id}: '{working}' is not numbers and signs"
            assert "_" not in label + working + result, f"{gs.id}: {label}"
            assert re.fullmatch(r"-?[0-9][0-9.,]*", result), f"{gs.id}: result '{result}'"
    assert shown > 20  # the scan saw the examples (a renamed table class would make it pass empty)


@poppler
@pytest.mark.parametrize("edition", [CURRENT, PUBLISHED])
def test_no_example_name_in_the_pdf(built, edition):
    lib = load_library(ROOT, edition)
    # The errata page lists data paths on purpose (file and field of each correction); the book's pages do not.
    pages = [p for p in _pdf_text(_pdf(built, edition)).split("\f") if not p.lstrip().startswith("Errata")]
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", "\n".join(pages)))
    leaked = {n for n in _example_names(lib) if "_" in n or re.search(r"\d", n)} & words
    assert not leaked


@pytest.mark.parametrize(("edition", "game", "present", "absent"), GLANCES)
def test_glance_says_what_the_source_says(built, edition, game, present, absent):
    html = _site_page(built, edition, game).read_text(encoding="utf-8")
    glance = _one_space(re.sub(r"<[^>]+>", " ", re.search(r'<div class="glance".*?</div>', html, re.S).group(0)))
    assert _one_space(present) in glance
    if absent:
        assert absent not in glance


# (model, data, what the error says): the data cannot say the things the defects said
BROKEN = [
    (CardEquipment, {"decks": "3-4", "jokers": True, "remove": ["2s", "jokers"]}, "write jokers: false"),
    (CardEquipment, {"decks": 1, "remove": ["2s, jokers"]}, "write jokers: false"),
    (GameBody, {"players": "2 or 4", "partnerships": "optional", "partners_when": 4}, "only with partnerships: partners"),
    (GameBody, {"players": "2 or 4", "partnerships": "partners", "partners_when": 3}, "not a number of players"),
    (Example, {"title": "x", "values": {"first_card": 5, "more": {"expr": "first_card - 1", "stated": 4}}},
     "values.more: give it a label"),
    (Example, {"title": "x", "values": {"spare": 3, "shown": {"stated": 4, "label": "shown"}}}, "values.spare"),
]


@pytest.mark.parametrize(("model", "data", "message"), BROKEN, ids=[b[2] for b in BROKEN])
def test_model_rejects_what_the_defects_said(model, data, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        model.model_validate(data)


def test_partners_when_four_play_is_accepted():
    body = GameBody.model_validate({"players": "2 or 4", "partnerships": "partners", "partners_when": 4})
    assert body.partners_when == 4


# (expression, figures, as the reader sees it)
WORKED = [
    ("first_card - 1", {"first_card": "5"}, "5 − 1"),
    ("ran_with * 2 + 25", {"ran_with": "6"}, "6 × 2 + 25"),
    ("(diff + boxes) / 10", {"diff": "20", "boxes": "60"}, "(20 + 60) ÷ 10"),
    ("total + minus", {"total": "462", "minus": "-100"}, "462 + (-100)"),
]


@pytest.mark.parametrize(("expr", "figures", "shown"), WORKED)
def test_working_shows_numbers_not_names(expr, figures, shown):
    assert worked(expr, figures) == shown


def test_working_never_prints_a_name_it_has_no_figure_for():
    with pytest.raises(ArithmeticError_, match="unknown name 'guys_2'"):
        worked("guys_game1_1 + guys_2", {"guys_game1_1": "5"})

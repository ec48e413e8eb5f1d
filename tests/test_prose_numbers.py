"""prose.number_mismatch reads numbers in prose, in digits or words, against the data field they name."""

from __future__ import annotations

import pytest

from generator.book.model import GameBody
from generator.checks.prose_numbers import PHRASES, number_findings

BODY = GameBody.model_validate({
    "players": "2-4", "equipment": {"cards": [{"decks": 2}]}, "deal": {"each": 10},
    "goal": {"winner": "high", "target": 500, "rounds": 9}})

CASES = [
    # (prose line, the number it is reported as stating, or None when it agrees or is not a claim)
    ("- Deal 10 cards to each player", None),
    ("- Deal ten cards to each player", None),
    ("- Deal {deal.each} cards to each player", None),
    ("- Deal {deal.each:word} cards to each player", None),
    ("- Deal 7 cards to each player", 7),
    ("- Deal seven cards to each player", 7),
    ("Each player receives eight cards.", 8),
    ("Deal one card at a time.", None),
    ("- Two decks of cards", None),
    ("- Three decks of cards", 3),
    ("Usually at hand are three decks of different backs.", None),
    ("- Played to 500 points.", None),
    ("- Played to five hundred points.", None),
    ("- First to 300 wins.", 300),
    ("- 9 rounds are played", None),
    ("- Twelve rounds are played", 12),
    ("In a 4-player game, pass three cards.", None),
    ("In a 6-player game, pass three cards.", 6),
    ("The 2 of clubs leads; 3 cards are passed.", None),
    ("- Four people can play", None),
    ("- Five people can play", 5),
    ("A standard 104-card pack is used.", None),
    ("A standard 52-card pack is used.", 52),
    ("The first player to reach 400 points wins.", 400),
    ("The first player to reach 500 points wins.", None),
    ("A game for six players.", 6),
    ("Give 11 cards to each player.", 11),
    ("Each player is dealt 10 cards.", None),
    ("Deals 12 cards.", 12),
    ("The dealer gives each player 7 cards.", 7),
    ("The dealer gives each player ten cards.", None),
    ("Everyone gets eight cards.", 8),
    ("Shuffle three decks together.", 3),
]


# A game with a bonus and its threshold (Yacht's upper bonus: 35 points if the upper section totals 63), stakes of
# three lives each, 5 cards dealt, 12 hands, played to 121 (pegged) for 2-4 players.
YACHT = GameBody.model_validate({
    "players": "2-4", "equipment": {"cards": [{"decks": 1}], "stakes": {"coin": "quarter", "start": 3}},
    "deal": {"each": 5}, "goal": {"winner": "high", "target": 121, "rounds": 12},
    "scoring": {"upper": {"kind": "events", "items": [
        {"label": "Upper bonus", "points": 35, "threshold": 63}, {"label": "Yacht", "points": 50}]}}})

# Sentences written by hand for this test, as a new book's prose might put them (not made from the check's patterns):
# (line, the number it is reported as stating, or None when it agrees or states nothing the data holds).
HAND_WRITTEN = [
    ("If your upper section adds up to 63 or more, you get a bonus of 35 points.", None),
    ("The upper bonus comes at 60, and is worth 35.", 60),
    ("There is a bonus of 30 points for an upper section of 63 or more.", 30),
    ("Score a 35-point bonus when the upper total reaches 63.", None),
    ("Score a 25-point bonus when the upper total reaches 63.", 25),
    ("Add 35 bonus points once the six upper boxes total 63.", None),
    ("Add 40 bonus points once the six upper boxes total 63.", 40),
    ("The bonus is 35 if the upper total is at least 70.", 70),
    ("A player with at least 62 in the upper boxes scores the bonus.", 62),
    ("Make 60 or more in the upper boxes and the bonus is yours.", 60),
    ("5 cards are dealt to each player.", None),
    ("6 cards are dealt to each player, one at a time.", 6),
    ("Seven cards dealt to each, face down.", 7),
    ("The dealer deals each player five cards.", None),
    ("The dealer deals each player four cards.", 4),
    ("Each person is given six cards.", 6),
    ("Players start from a hand of 5 cards.", None),
    ("Players start from a hand of 9 cards.", 9),
    ("Everyone plays a 6-card hand.", 6),
    ("The first to peg 121 wins.", None),
    ("Peg 120 points to win.", 120),
    ("The first team to score 100 points wins the game.", 100),
    ("Usually 150 points wins.", 150),
    ("Each player starts with three quarters.", None),
    ("Each player begins with 4 quarters in front of them.", 4),
    ("You have 5 lives.", 5),
    ("A game of 10 hands.", 10),
    ("The game is played over twelve hands.", None),
    ("8 hands are played.", 8),
    ("Roll 5 dice and keep any of them; 3 rolls a turn.", None),
    ("A full house scores 25 points.", None),
    ("The 7 of hearts is worth a bonus in some homes.", None),
]


@pytest.mark.parametrize(("line", "stated"), HAND_WRITTEN, ids=[c[0] for c in HAND_WRITTEN])
def test_prose_numbers_in_phrasings_the_check_was_not_written_from(line: str, stated: int | None) -> None:
    """Issue 60: a bonus and its threshold, cards dealt, a target, lives, rounds, in any phrasing."""
    found = list(number_findings("content/yacht.md", f"## Rules\n\n{line}\n", YACHT, ""))
    if stated is None:
        assert found == []
    else:
        assert [(w.path, w.line) for w, _ in found] == [("content/yacht.md", 3)], found
        assert f"says {stated}," in found[0][1]


@pytest.mark.parametrize(("line", "stated"), CASES, ids=[c[0] for c in CASES])
def test_prose_numbers(line: str, stated: int | None) -> None:
    found = list(number_findings("content/demo.md", f"## Rules\n\n{line}\n", BODY, ""))
    if stated is None:
        assert found == []
    else:
        assert [(w.path, w.line) for w, _ in found] == [("content/demo.md", 3)]
        assert f"says {stated}," in found[0][1]


@pytest.mark.parametrize(("kind", "words", "pattern"), PHRASES, ids=[p.pattern[:40] for _, _, p in PHRASES])
def test_every_phrase_has_a_case_that_disagrees(kind, words, pattern) -> None:
    """Each phrase (and the words a line needs before it is searched) is proven by a line it must report."""
    lines = [line for line, stated in CASES + HAND_WRITTEN if stated is not None and pattern.search(line)]
    assert lines, f"no case in CASES that {pattern.pattern[:60]} reads"
    assert all(any(w in line.lower() for w in group) for line in lines for group in words)

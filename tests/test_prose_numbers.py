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
]


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
    lines = [line for line, stated in CASES if stated is not None and pattern.search(line)]
    assert lines, f"no case in CASES that {pattern.pattern[:60]} reads"
    assert all(any(w in line.lower() for w in group) for line in lines for group in words)

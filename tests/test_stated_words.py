"""Generated words state only what the data states: no computed limit, no worked-out deal, no count
the program made up. Each row plants a number the sources do not give and shows the test catches it."""

from __future__ import annotations

import re

import pytest

from generator.phrases import parse_players
from generator.render import describe
from generator.render.pages import game_page
from generator.render.site import finder_record

NUMBER = re.compile(r"\d+")


def _numbers(text: object) -> set[str]:
    return set(NUMBER.findall(str(text)))


def _finder_unstated(lib, gs, record=None) -> set[str]:
    """Numbers the finder prints for a game's players that its stated player count does not give."""
    record = record or finder_record(game_page(lib, gs))
    spec = parse_players(gs.game.players)  # the stated count, number words read ("Four" is 4)
    stated = {spec.low, spec.high, *(spec.allowed or ())} | {int(n) for n in _numbers(gs.game.players)}
    return _numbers(record["players"]["text"]) - {str(n) for n in stated if n is not None}


def test_the_finder_prints_only_the_stated_player_count(library):
    for gs in library.ordered_games():
        assert _finder_unstated(library, gs) == set(), gs.id


@pytest.mark.parametrize("planted", ["Any (up to 50)", "2-4 (up to 27)"])
def test_a_planted_limit_in_the_finder_is_caught(library, planted):
    gs = library.games["hearts"]
    record = finder_record(game_page(library, gs))
    record["players"]["text"] = planted
    assert _finder_unstated(library, gs, record)


def test_a_deal_the_source_does_not_state_is_not_printed(library):
    implied = [gs for gs in library.ordered_games() if gs.game.deal is not None and gs.game.deal.implied]
    assert implied, "no game has an implied deal: the test would prove nothing"
    for gs in implied:
        assert describe.deal(gs.game) == [], gs.id
        assert all(label != "Deal" for label, _ in describe.glance(gs.game)), gs.id


def test_a_stated_deal_is_printed(library):
    gs = library.games["hearts"]
    assert not gs.game.deal.implied and describe.deal(gs.game)

"""Rounds and contracts: round counts agree with their sequences; each meld fits the hand."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.cards import parse_cards
from ..book.equipment import deal_for, doubles_played, each, top_double
from ..book.library import Library
from ..book.model import Rounds
from ..book.phrases import meld_cards, parse_players
from . import Body, Found, bodies, check

RANKS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]


def sequence_length(start: int, low: int, back_up: bool) -> int:
    """Hands in a down-and-up sequence: 10 to 1 and back is 19."""
    down = start - low + 1
    return down + (start - low if back_up else 0)


def round_count(b: Body) -> tuple[int, str] | None:
    """How many rounds the rounds data describe, and how that was counted."""
    r = b.rules.rounds
    if r is None:
        return None
    if r.ranks:
        pred = parse_cards(r.ranks)
        n = sum(1 for rank in RANKS if pred((rank, "spades")))
        return n, f"one round per rank {r.ranks} = {n}"
    if r.items:
        n = len(r.items) * (2 if r.then_reversed else 1)
        return n, f"{len(r.items)} rounds" + (" played forward and reversed" if r.then_reversed else "") + f" = {n}"
    top = top_double(b.rules)
    if r.doubles and top is not None:
        n = len(doubles_played(b.rules))
        return n, f"one hand per double of a double-{top} set, blank included = {n}"
    return None


def with_rounds(lib: Library) -> Iterator[tuple[Body, Rounds]]:
    """Every game and variant body that has rounds data, with those rounds."""
    for b in bodies(lib):
        if b.rules.rounds is not None:
            yield b, b.rules.rounds


@check("rounds.count_mismatch")
def count_mismatch(lib: Library) -> Iterator[Found]:
    """A stated number of rounds disagrees with the rounds listed or generated."""
    for b, r in with_rounds(lib):
        counted = round_count(b)
        if r.stated_count is not None and counted and counted[0] != r.stated_count:
            yield b.at("rounds", "stated_count"), f"{b.name}{counted[1]}, stated {r.stated_count}", b.game
        for i, s in enumerate(r.sequences):
            length = sequence_length(s.start, s.low, s.back_up)
            if s.stated_count is not None and length != s.stated_count:
                way = f"{s.start} down to {s.low}" + (f" and back up to {s.start}" if s.back_up else "")
                yield (b.at("rounds", "sequences", i, "stated_count"),
                       f"{b.name}{way} is {length} hands, stated {s.stated_count}", b.game)
        goal = b.rules.goal
        if goal and goal.rounds is not None and counted and r.items and counted[0] != goal.rounds:
            yield (b.at("goal", "rounds"), f"{b.name}the goal counts {goal.rounds} rounds, but {counted[1]}", b.game)


@check("rounds.meld_exceeds_hand")
def meld_exceeds_hand(lib: Library) -> Iterator[Found]:
    """A round's meld needs more cards than a player holds in that round."""
    for b, r in with_rounds(lib):
        counts = parse_players(b.rules.players).counts() if b.rules.players is not None else []
        deal = deal_for(b.rules, counts[0]) if counts else b.rules.deal
        default = each(deal) if deal is not None else None
        for i, rnd in enumerate(r.items):
            if rnd.meld is None:
                continue
            hand = rnd.each if rnd.each is not None else default
            if hand is None:
                continue
            need = meld_cards(rnd.meld)
            if need > hand + 1:  # a player draws before melding
                yield (b.at("rounds", "items", i, "meld"),
                       f"{b.name}{rnd.name}: '{rnd.meld}' needs {need} cards, but a hand has {hand} (+1 drawn)", b.game)


@check("rounds.doubles_without_set")
def doubles_without_set(lib: Library) -> Iterator[Found]:
    """Hands played down the doubles of a set whose top double the data does not state: there is no first hand."""
    for b, r in with_rounds(lib):
        if r.doubles and r.doubles.order == "down" and top_double(b.rules) is None:
            yield (b.at("rounds", "doubles", "order"),
                   f"{b.name}the hands go down from the set's top double, but equipment.dominoes.set states none: "
                   "state the set (12 for double-12), or play them up from the blank", b.game)

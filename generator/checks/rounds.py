"""Rounds and contracts: round counts agree with their sequences; each meld fits the hand."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.cards import parse_cards
from ..book.equipment import deal_for, doubles_played, each, top_double
from ..book.library import Library
from ..book.model import Rounds
from ..book.phrases import meld_cards, parse_players
from ..book.words import _
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
        return n, _("one round per rank %(ranks)s = %(count)s", ranks=r.ranks, count=n)
    if r.items:
        n = len(r.items) * (2 if r.then_reversed else 1)
        if r.then_reversed:
            return n, _("%(items)s rounds played forward and reversed = %(count)s", items=len(r.items), count=n)
        return n, _("%(items)s rounds = %(count)s", items=len(r.items), count=n)
    top = top_double(b.rules)
    if r.doubles and top is not None:
        n = len(doubles_played(b.rules))
        return n, _("one hand per double of a double-%(top)s set, blank included = %(count)s", top=top, count=n)
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
            yield b.at("rounds", "stated_count"), _("%(name)s%(counted)s, stated %(stated_count)s", name=b.name,
                                                    counted=counted[1], stated_count=r.stated_count), b.game
        for i, s in enumerate(r.sequences):
            length = sequence_length(s.start, s.low, s.back_up)
            if s.stated_count is not None and length != s.stated_count:
                way = (_("%(start)s down to %(low)s and back up to %(start)s", start=s.start, low=s.low) if s.back_up
                       else _("%(start)s down to %(low)s", start=s.start, low=s.low))
                yield (b.at("rounds", "sequences", i, "stated_count"),
                       _("%(name)s%(way)s is %(length)s hands, stated %(stated_count)s", name=b.name, way=way,
                         length=length, stated_count=s.stated_count), b.game)
        goal = b.rules.goal
        if goal and goal.rounds is not None and counted and r.items and counted[0] != goal.rounds:
            yield (b.at("goal", "rounds"), _("%(name)sthe goal counts %(rounds)s rounds, but %(counted)s", name=b.name,
                                             rounds=goal.rounds, counted=counted[1]), b.game)


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
                       _("%(name)s%(name2)s: '%(meld)s' needs %(need)s cards, but a hand has %(hand)s (+1 drawn)",
                         name=b.name, name2=rnd.name, meld=rnd.meld, need=need, hand=hand), b.game)


@check("rounds.doubles_without_set")
def doubles_without_set(lib: Library) -> Iterator[Found]:
    """Hands played down the doubles of a set whose top double the data does not state: there is no first hand."""
    for b, r in with_rounds(lib):
        if r.doubles and r.doubles.order == "down" and top_double(b.rules) is None:
            yield (b.at("rounds", "doubles", "order"),
                   _("%(name)sthe hands go down from the set's top double, but equipment.dominoes.set states none: "
                     "state the set (12 for double-12), or play them up from the blank", name=b.name), b.game)

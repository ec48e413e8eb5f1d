"""Specification gaps (warnings): rules that leave a case undefined, equipment too vague to check."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.equipment import card_config, top_double
from ..book.library import Library
from ..book.phrases import parse_players
from ..book.words import _
from . import Found, bodies, check, listing


@check("spec.vague_equipment", "warning")
def vague_equipment(lib: Library) -> Iterator[Found]:
    """The equipment is too vague for the deal to be checked (an unnamed domino set, no deck for some counts, a card
    game that names no deck at all)."""
    for b in bodies(lib):
        eq = b.rules.equipment
        if lib.book.kind_of(b.gs.game.category) == "cards" and b.rules.deal is not None and not (eq and eq.cards):
            yield (b.at("equipment") if eq else b.at("deal"),
                   _("%(name)sno deck is stated: the deal cannot be checked against the cards", name=b.name), b.game)
        if eq is None or b.rules.players is None:
            continue
        if eq.dominoes is not None and eq.dominoes.set is None:
            yield b.at("equipment", "dominoes"), _("%(name)sthe domino set is not named (double-6, -9, -12?)",
                                                   name=b.name), b.game
        if eq.cards:
            spec = parse_players(b.rules.players)
            uncovered = [n for n in spec.counts(horizon=12) if card_config(b.rules, n) is None]
            if uncovered:
                shown = listing(map(str, uncovered)) + ("" if spec.bounded else " ...")
                yield b.at("equipment", "cards"), _("%(name)sno cards are stated for %(shown)s players", name=b.name,
                                                    shown=shown), b.game
        for i, cfg in enumerate(eq.cards):
            if cfg.decks == "enough" and cfg.min_cards_each is None:
                yield b.at("equipment", "cards", i, "decks"), _("%(name)s'enough decks', but enough for what?",
                                                                name=b.name), b.game


@check("spec.undefined_end", "warning")
def undefined_end(lib: Library) -> Iterator[Found]:
    """The rules never say how the game is won, or when it ends."""
    for b in bodies(lib):
        goal = b.rules.goal
        if goal is None:
            yield b.at("title") if b.variant is None else b.at(), _("%(name)sno winner or end of the game is stated",
                                                                    name=b.name), b.game
            continue
        rounds = b.rules.rounds
        # Hands down (or up) a named set's doubles end with its last double: a set the rules do not name, never.
        has_rounds = rounds is not None and (rounds.items or rounds.sequences or rounds.ranks
                                             or (rounds.doubles and top_double(b.rules) is not None))
        if goal.winner in ("high", "low") and goal.target is None and goal.rounds is None and not has_rounds:
            yield (b.at("goal"), _("%(name)s%(winner)s score wins, but no target or number of rounds says when the "
                                   "game ends", name=b.name, winner=goal.winner), b.game)


@check("spec.deal_unstated", "warning")
def deal_unstated(lib: Library) -> Iterator[Found]:
    """The source never states the deal; the data records what its rules imply."""
    for b in bodies(lib):
        if b.rules.deal is not None and b.rules.deal.implied:
            yield b.at("deal", "implied"), _("%(name)sthe deal is not stated by the source, only implied", name=b.name), b.game

"""Card-value tables: every card in play scores, and scores once."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from ..book.cards import CardSet, card_name, parse_cards, rank_name
from ..book.equipment import tables, wild_names
from ..book.library import Library
from ..book.model import ScoreTable
from ..book.phrases import parse_players
from ..book.words import _
from . import Body, Found, bodies, check


def all_cards(b: Body) -> CardSet | None:
    """Every distinct card the game can have in play, over every player count and deck count."""
    if b.rules.equipment is None or not b.rules.equipment.cards:
        return None
    counts = parse_players(b.rules.players).counts() if b.rules.players is not None else [4]
    found: dict = {}
    for n in counts[:20]:
        for t in tables(b.rules, n, per_player_cards=10):
            for card in t.cards.counts:
                found[card] = 1
    return CardSet(Counter(found)) if found else None


def _group(cards: list) -> str:
    """'2♣ 2♦ 2♥ 2♠' reads better as 'all 2s'."""
    ranks: dict[int, list] = {}
    for c in cards:
        ranks.setdefault(c[0], []).append(c)
    parts = []
    for rank, cs in sorted(ranks.items()):
        parts.append(_("all %(rank_name)ss", rank_name=rank_name(rank)) if len(cs) == 4 or rank == 0 else ", ".join(card_name(c) for c in cs))
    return "; ".join(parts)


def _coverage(b: Body) -> list[tuple[str, ScoreTable, dict]]:
    """(table key, table, {card: [item indexes that match]}) for each value table (worked out once a body)."""
    if "coverage" not in b.memo:  # both checks below ask for it
        b.memo["coverage"] = list(_work_out_coverage(b))
    return b.memo["coverage"]


def _work_out_coverage(b: Body) -> Iterator[tuple[str, ScoreTable, dict]]:
    cards = all_cards(b)
    if cards is None:
        return
    names = wild_names(b.rules)
    for key, table in b.rules.scoring.items():
        if table.kind not in ("card_values", "counters"):
            continue
        matches: dict = {card: [] for card in cards.cards()}
        for i, item in enumerate(table.items):
            if not item.cards or item.unit != "card":
                continue
            if item.cards.strip().lower() in ("wild", "wilds") and not names:
                continue  # wild cards change from round to round (Arizona): a role, not a set of cards
            pred = parse_cards(item.cards, names)
            for card in matches:
                if pred(card):
                    matches[card].append(i)
        yield key, table, matches


@check("card_values.missing")
def missing(lib: Library) -> Iterator[Found]:
    """A card-value table leaves some card in play without a value."""
    for b in bodies(lib):
        for key, table, matches in _coverage(b):
            if table.kind != "card_values":
                continue
            uncovered = [c for c, hits in matches.items() if not hits]
            if uncovered:
                yield (b.at("scoring", key), _("%(name)s%(value)s: no value for %(group)s", name=b.name,
                                               value=table.title or key, group=_group(uncovered)), b.game)


@check("card_values.overlap")
def overlap(lib: Library) -> Iterator[Found]:
    """Two lines of a card-value table both give a value to the same card."""
    for b in bodies(lib):
        for key, table, matches in _coverage(b):
            pairs: dict[tuple, list] = {}
            for card, hits in matches.items():
                if len(hits) > 1:
                    pairs.setdefault(tuple(hits), []).append(card)
            for hits, cards in sorted(pairs.items()):
                labels = " and ".join(f"'{table.items[i].label}'" for i in hits)
                yield (b.at("scoring", key, "items", hits[1]),
                       _("%(name)s%(labels)s both value %(group)s", name=b.name, labels=labels, group=_group(cards)), b.game)


def _valued(b: Body) -> set:
    """The cards some value table of this body gives a value to."""
    return {card for _, _, matches in _coverage(b) for card, hits in matches.items() if hits}


@check("card_values.variant_drops")
def variant_drops(lib: Library) -> Iterator[Found]:
    """A variant's own value tables leave without a value a card (still in play) its game's tables value."""
    game_valued: dict[str, set] = {}
    for b in bodies(lib):  # each game comes before its variants
        if b.variant is None:
            game_valued[b.game] = _valued(b)
            continue
        if "scoring" not in b.variant.model_fields_set or not b.rules.scoring:
            continue
        in_play = all_cards(b)
        dropped = sorted(c for c in game_valued.get(b.game, set()) - _valued(b)
                         if in_play is not None and c in in_play.counts)
        if dropped:
            key = next(iter(b.rules.scoring))
            yield (b.at("scoring", key),
                   _("%(name)sno value for %(group)s, which the game's own table values: give them a value, or say "
                     "the variant removes them from play", name=b.name, group=_group(dropped)), b.game)

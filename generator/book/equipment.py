"""What is on the table for a given number of players: the cards (or tiles) a game's data implies.

The checks ask questions like "with 7 players, which decks, and how many cards are in play?";
this module answers them from a game's (or variant's) equipment, and says when it cannot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from .cards import CardSet, parse_cards
from .model import CardEquipment, Deal, GameBody, Removal
from .phrases import parse_players, parse_range
from .words import n_


@dataclass(frozen=True)
class Table:
    """The cards in play for one player count and one allowed number of decks."""

    players: int
    decks: int
    cards: CardSet
    config: CardEquipment

    def describe(self) -> str:
        """'2 decks with jokers (108 cards)'."""
        cards, altered = len(self.cards), bool(self.config.remove or self.config.keep)
        if self.config.jokers and altered:
            return n_("%(count)s deck with jokers after removals (%(cards)s cards)",
                      "%(count)s decks with jokers after removals (%(cards)s cards)", self.decks, cards=cards)
        if self.config.jokers:
            return n_("%(count)s deck with jokers (%(cards)s cards)", "%(count)s decks with jokers (%(cards)s cards)",
                      self.decks, cards=cards)
        if altered:
            return n_("%(count)s deck after removals (%(cards)s cards)",
                      "%(count)s decks after removals (%(cards)s cards)", self.decks, cards=cards)
        return n_("%(count)s deck (%(cards)s cards)", "%(count)s decks (%(cards)s cards)", self.decks, cards=cards)


def wild_names(body: GameBody) -> dict[str, str]:
    """Named card phrases a game defines: 'wild' when the game says which cards are wild."""
    return {"wild": body.wild} if body.wild else {}


def card_config(body: GameBody, players: int) -> CardEquipment | None:
    """The card equipment that applies to ``players`` (a line for that count, or the general line)."""
    if body.equipment is None:
        return None
    general = None
    for cfg in body.equipment.cards:
        if cfg.players is None:
            general = cfg
        elif parse_players(cfg.players).allows(players):
            return cfg
    return general


def deck_counts(cfg: CardEquipment, players: int, per_player_cards: int | None = None) -> list[int]:
    """Every number of decks the equipment allows for ``players`` (per game, table or couple)."""
    decks = cfg.decks
    if isinstance(decks, int):
        return [decks]
    if decks == "players + 1":
        return [players + 1]
    if decks == "players":
        return [players]
    if decks == "enough":
        need = cfg.min_cards_each or per_player_cards
        return [max(1, math.ceil(need * players / 52))] if need else []
    r = parse_range(decks)
    return list(range(int(r.low), int(r.high) + 1))


def _removal(item: str | Removal) -> tuple[str, int | None]:
    return (item, None) if isinstance(item, str) else (item.cards, item.copies)


def cards_in_play(cfg: CardEquipment, decks: int) -> CardSet:
    """The decks with their jokers, keeping and removing what the equipment says."""
    return _cards_in_play(_as_json(cfg), decks)


# Each configuration's JSON, by the object: the checks ask about the same few thousand times, and
# writing the JSON was most of the answer. The entry holds the object, so its id is not reused.
_JSON: dict[int, tuple[CardEquipment, str]] = {}


def _as_json(cfg: CardEquipment) -> str:
    kept = _JSON.get(id(cfg))
    if kept is None:
        if len(_JSON) >= 4096:  # a long preview session loads the book again and again
            _JSON.clear()
        kept = _JSON[id(cfg)] = (cfg, cfg.model_dump_json())
    return kept[1]


@lru_cache(maxsize=1024)
def _cards_in_play(cfg_json: str, decks: int) -> CardSet:
    # Keyed by the configuration's JSON: equal configurations (every copy of "1 deck") share one CardSet.
    cfg = CardEquipment.model_validate_json(cfg_json)
    cards = CardSet.standard(decks, jokers=2 if cfg.jokers else 0)
    if cfg.keep:
        cards = cards.keep(parse_cards(cfg.keep))
    for item in cfg.remove:
        phrase, copies = _removal(item)
        cards = cards.remove(parse_cards(phrase), copies)
    return cards


# The players a deck counted per table, couple or player (CardEquipment.per) serves: a table of four.
SEATS = {"table": 4, "couple": 2, "player": 1}


def groups(per: str, players: int) -> int:
    """How many tables, couples or players (``per``) ``players`` make: one deck each ('game': one for them all)."""
    seats = SEATS.get(per)
    return -(-players // seats) if seats else 1


def tables(body: GameBody, players: int, per_player_cards: int | None = None) -> list[Table]:
    """Every table the equipment allows for ``players`` (one per allowed deck count)."""
    cfg = card_config(body, players)
    if cfg is None:
        return []
    seats = SEATS.get(cfg.per)
    group = seats if seats else players  # decks are counted per table, couple or player
    return [Table(players, n, cards_in_play(cfg, n), cfg) for n in deck_counts(cfg, group, per_player_cards)]


def each(deal: Deal, round_sizes: list[int] | None = None) -> int | None:
    """The most cards one player is dealt (None for 'all' or unknown)."""
    if isinstance(deal.each, int):
        return deal.each
    if isinstance(deal.each, str) and deal.each != "all":
        return int(parse_range(deal.each).high)
    if deal.hand is not None:
        return deal.hand + (deal.foot or 0) + (deal.blind or 0) + (deal.face_up or 0)
    if deal.composition:
        return sum(r.copies or 1 for r in deal.composition)
    if deal.by_round and round_sizes:
        return max(round_sizes)
    return None


def deal_for(body: GameBody, players: int) -> Deal | None:
    """The deal rule for ``players``: a line for that count, or the general one."""
    if body.deal is None:
        return None
    for d in body.deal.by_players:
        if d.players is not None and parse_players(d.players).allows(players):
            merged = body.deal.model_dump(exclude={"by_players"}, exclude_unset=True)
            merged.update(d.model_dump(exclude_unset=True))
            merged.pop("by_players", None)
            return Deal.model_validate(merged)
    return body.deal


def top_double(body: GameBody) -> int | None:
    """The domino set's top double (12 for double-12), where the data states it."""
    dominoes = body.equipment.dominoes if body.equipment else None
    return dominoes.set if dominoes else None


def doubles_played(body: GameBody) -> list[int]:
    """The doubles a game's hands are played with (``rounds.doubles``), in order: 12 down to 0, or 0 up to the top;
    none for a set the data does not name (which doubles it has, and the last, are not known)."""
    doubles, top = body.rounds.doubles if body.rounds else None, top_double(body)
    if doubles is None or top is None:
        return []
    return list(range(top, -1, -1)) if doubles.order == "down" else list(range(top + 1))

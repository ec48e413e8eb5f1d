"""Stated totals: every total the book states equals what the cards and the scoring rule give."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.cards import CardSet, parse_cards
from ..book.equipment import deal_for, each, tables, wild_names
from ..book.library import Library
from ..book.model import ScoreItem
from ..book.phrases import NumRange, parse_players, parse_range
from ..book.prose import format_value
from ..book.words import _
from . import Body, Found, bodies, check
from .values import face_value


def seats(b: Body) -> int | None:
    """Players at one table, when the rules fix it (4 for Court Whist's tables, 2 per couple)."""
    eq = b.rules.equipment
    if eq and eq.cards and eq.cards[0].per in ("table", "couple"):
        return {"table": 4, "couple": 2}[eq.cards[0].per]
    counts = parse_players(b.rules.players).counts() if b.rules.players is not None else []
    return counts[0] if len(counts) == 1 else None


def table_cards(b: Body) -> CardSet | None:
    """The cards in play, when that does not depend on the number of players."""
    n = seats(b) or 4
    found = tables(b.rules, n)
    return found[0].cards if len(found) == 1 else None


def tricks_per_hand(b: Body) -> int | None:
    """Tricks in one hand: the cards each player holds, when that is fixed."""
    n, cards = seats(b), table_cards(b)
    if n is None or b.rules.deal is None:
        return None
    deal = deal_for(b.rules, n)
    if deal is not None and deal.each == "all" and cards is not None:
        return len(cards) // n
    return each(deal) if deal is not None else None


def cards_worth(b: Body, item: ScoreItem, cards: CardSet) -> tuple[float, str] | None:
    """What the cards an item names are worth together, at its points or at face value, and how many
    at what ('36 at face value', '26 x 5'); None if a card has no value."""
    matching = cards.keep(parse_cards(item.cards or "", wild_names(b.rules)))
    n = len(matching)
    if item.points == "face":  # each card at its number, or at what the item's ranks give ('Ace=1')
        values = [(face_value(rank, item.ranks), copies) for (rank, _), copies in matching.counts.items()]
        if any(v is None for v, _ in values):
            return None  # a card with no number on its face and no value given: scoring.undefined_case's
        return sum(v * copies for v, copies in values), _("%(count)s at face value", count=n)
    if isinstance(item.points, (int, float)):
        return n * item.points, f"{n} x {format_value(item.points)}"
    return None


def item_total(b: Body, item: ScoreItem, cards: CardSet | None) -> tuple[float, str] | None:
    """What an item is worth over a whole hand, and how that was worked out; None if unknowable."""
    unit = item.unit
    if unit == "card" and item.cards and cards is not None:
        worth = cards_worth(b, item, cards)
        if worth is None:
            return None
        n, how = worth[1].split(" ", 1)  # '26 red cards x 5': the label after the count
        return worth[0], f"{n} {item.label.lower()} {how}"
    if not isinstance(item.points, (int, float)):
        return None
    points = item.points
    if unit == "trick":
        tricks = tricks_per_hand(b)
        if tricks is None:
            return None
        return tricks * points, _("%(tricks)s tricks x %(points)s", tricks=tricks, points=format_value(points))
    if unit == "event":
        return points, _("%(points)s once", points=format_value(points))
    return None


def _range(value: int | str) -> NumRange:
    return parse_range(value)


def _round_possible(b: Body, scoring: list[ScoreItem], cards: CardSet | None) -> tuple[float, float, str] | None:
    """(least, most, working) one hand of a round can score."""
    low = high = 0.0
    parts = []
    for item in scoring:
        worth = item_total(b, item, cards)
        if worth is None:
            return None
        value, how = worth
        if item.conditional:
            high += max(value, 0)
            low += min(value, 0)
            parts.append(_("up to %(how)s", how=how))
        else:
            high += value
            low += value
            parts.append(how)
    return low, high, " + ".join(parts)


def _compare_possible(stated: int | str, low: float, high: float) -> bool:
    r = _range(stated)
    return (r.low == r.high == high) or (r.low == low and r.high == high)


@check("scoring.total_mismatch")
def total_mismatch(lib: Library) -> Iterator[Found]:
    """A stated total (per round, per hand, a table's total, a score sheet's maximum) is not what the cards give."""
    for b in bodies(lib):
        cards = table_cards(b)
        for key, table in b.rules.scoring.items():
            for i, item in enumerate(table.items):
                if item.stated_total is not None:
                    worth = item_total(b, item, cards)
                    if worth and worth[0] != _range(item.stated_total).high:
                        yield (b.at("scoring", key, "items", i, "stated_total"),
                               _("%(name)s%(label)s: %(worth)s = %(worth2)s, stated %(stated_total)s", name=b.name,
                                 label=item.label, worth=worth[1], worth2=format_value(worth[0]),
                                 stated_total=item.stated_total), b.game)
            if table.stated_total is not None and cards is not None and table.kind in ("card_values", "counters"):
                total, counted, known = 0.0, [], True
                for item in table.items:
                    if item.cards and item.unit == "card":
                        worth = cards_worth(b, item, cards)
                        if worth is None:
                            known = False
                            continue
                        total += worth[0]
                        counted.append(worth[1])
                if known and total != table.stated_total:
                    yield (b.at("scoring", key, "stated_total"),
                           _("%(name)s%(value)s: %(counted)s = %(total)s, stated %(stated_total)s", name=b.name,
                             value=table.title or key, counted=' + '.join(counted), total=format_value(total),
                             stated_total=table.stated_total), b.game)
        rounds = b.rules.rounds.items if b.rules.rounds else []
        computed: dict[str, tuple[float, float, str]] = {}
        for r_index, rnd in enumerate(rounds):
            for i, item in enumerate(rnd.scoring):
                if item.stated_total is not None:
                    worth = item_total(b, item, cards)
                    if worth and worth[0] != _range(item.stated_total).high:
                        yield (b.at("rounds", "items", r_index, "scoring", i, "stated_total"),
                               _("%(name)s%(name2)s: %(worth)s = %(worth2)s, stated %(stated_total)s", name=b.name,
                                 name2=rnd.name, worth=worth[1], worth2=format_value(worth[0]),
                                 stated_total=item.stated_total), b.game)
            if rnd.scoring:
                possible = _round_possible(b, rnd.scoring, cards)
                if possible:
                    computed[rnd.name] = possible
                    if rnd.possible is not None and not _compare_possible(rnd.possible, possible[0], possible[1]):
                        shown = format_value(possible[1]) if possible[0] == possible[1] else \
                            _("%(possible)s to %(possible2)s", possible=format_value(possible[0]),
                              possible2=format_value(possible[1]))
                        yield (b.at("rounds", "items", r_index, "possible"),
                               _("%(name)s%(name2)s: %(possible)s gives a possible %(shown)s, stated %(possible2)s",
                                 name=b.name, name2=rnd.name, possible=possible[2], shown=shown,
                                 possible2=rnd.possible), b.game)
        sheet = b.rules.score_sheet
        for i, block in enumerate(sheet.blocks if sheet else []):
            if block.possible is not None and block.round in computed:
                low, high, how = computed[block.round]
                if not _compare_possible(block.possible, low, high):
                    shown = format_value(high) if low == high else _("%(low)s to %(high)s", low=format_value(low),
                                                                     high=format_value(high))
                    yield (b.at("score_sheet", "blocks", i, "possible"),
                           _("%(name)sscore sheet, %(round)s: %(how)s gives a possible %(shown)s, stated %(possible)s",
                             name=b.name, round=block.round, how=how, shown=shown, possible=block.possible), b.game)


@check("deck.size_mismatch")
def deck_size_mismatch(lib: Library) -> Iterator[Found]:
    """A deck size the source states ('a 50 card deck') is not what the decks and removals give."""
    for b in bodies(lib):
        eq = b.rules.equipment
        for i, cfg in enumerate(eq.cards if eq else []):
            if cfg.stated_cards is None:
                continue
            n = parse_players(cfg.players).counts()[0] if cfg.players is not None else (seats(b) or 4)
            found = [t for t in tables(b.rules, n) if t.config is cfg]
            sizes = sorted({len(t.cards) for t in found})
            if sizes and cfg.stated_cards not in sizes:
                yield (b.at("equipment", "cards", i, "stated_cards"),
                       _("%(name)s%(deck)s, stated %(stated_cards)s cards", name=b.name,
                         deck=found[0].describe(), stated_cards=cfg.stated_cards), b.game)

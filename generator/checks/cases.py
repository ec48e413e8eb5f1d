"""Rules hidden in a value's words, modelled as data, applied to every case they cover.

'Face value' gives a card its number: an Ace, a King or a joker has none, so the wording must give
it one (``ranks: {A: 1}``) or the rule leaves it undefined. '3 of a kind: x00' scores every die
face it names (``count: 3``, ``faces: 2-6``); a face no item of that count names has no value.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..book.cards import CardSet, parse_cards, rank_name
from ..book.equipment import wild_names
from ..book.library import Library
from ..book.phrases import parse_range
from ..book.words import _
from . import Found, bodies, check
from .card_values import all_cards
from .values import face_value, score_items

DIE_FACES = range(1, 7)
PLURAL = {0: "jokers", 1: "Aces", 11: "Jacks", 12: "Queens", 13: "Kings"}


def _faces(phrase: str) -> set[int]:
    r = parse_range(phrase)
    return set(range(int(r.low), int(r.high) + 1))


@check("scoring.undefined_case", "warning")
def undefined_case(lib: Library) -> Iterator[Found]:
    """A scoring rule in words ('face value', 'x00 for 3 of a kind') leaves some case it covers without a value."""
    for b in bodies(lib):
        # The cards in play; with none stated, any card the item's phrase names (jokers included).
        cards = all_cards(b) or CardSet.standard(1, jokers=1)
        names = wild_names(b.rules)
        for path, item in score_items(b):
            if item.points != "face" or not item.cards:
                continue
            matches = parse_cards(item.cards, names)
            ranks = sorted({c[0] for c in cards.cards() if matches(c)})
            missing = [r for r in ranks if face_value(r, item.ranks) is None]
            if missing:
                shown = ", ".join(PLURAL.get(r, rank_name(r) + "s") for r in missing)
                yield (b.at(*path, "points"),
                       _("%(name)s%(label)s: face value leaves %(shown)s without a value (no number on the face); "
                         "give it in ranks if the source does", name=b.name, label=item.label, shown=shown), b.game)
        for key, table in b.rules.scoring.items():
            combos = [(i, item) for i, item in enumerate(table.items) if item.count is not None]
            if table.kind != "dice" or not combos:
                continue
            for count in sorted({item.count for _count, item in combos}):
                covered: set[int] = set()
                for _count, item in combos:
                    if item.count == count:
                        covered |= _faces(item.faces) if item.faces else set(DIE_FACES)
                missing_faces = [f for f in DIE_FACES if f not in covered]
                if missing_faces:
                    first = next(i for i, item in combos if item.count == count)
                    yield (b.at("scoring", key, "items", first),
                           _("%(name)s%(count)s of a kind of %(faces)s: no item of %(table)s gives a value",
                             name=b.name, count=count, faces=", ".join(_("%(face)ss", face=f) for f in missing_faces),
                             table=table.title or key), b.game)

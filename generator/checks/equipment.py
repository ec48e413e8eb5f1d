"""Equipment that contradicts itself: jokers both included and removed, a card both kept and removed."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.cards import JOKER, CardSet, card_name, parse_cards
from ..book.library import Library
from ..book.words import _
from . import Found, bodies, check

JOKER_CARD = (JOKER, None)


@check("equipment.contradiction")
def contradiction(lib: Library) -> Iterator[Found]:
    """A deck line says two opposite things: jokers included and removed, or a card kept and removed."""
    for b in bodies(lib):
        eq = b.rules.equipment
        for i, cfg in enumerate(eq.cards if eq else []):
            every = CardSet.standard(1, jokers=1)
            kept = parse_cards(cfg.keep) if cfg.keep else None
            if kept is not None and kept(JOKER_CARD) and not cfg.jokers:
                yield (b.at("equipment", "cards", i, "keep"),
                       _("%(name)skeeps '%(keep)s', which includes jokers, but the deck has none (jokers: false)",
                         name=b.name, keep=cfg.keep), b.game)
            for j, item in enumerate(cfg.remove):
                phrase, copies = (item, None) if isinstance(item, str) else (item.cards, item.copies)
                if copies is not None:
                    continue  # removing some copies of what is there is no contradiction
                removed = parse_cards(phrase)
                where = b.at("equipment", "cards", i, "remove", j)
                if cfg.jokers and removed(JOKER_CARD):
                    yield (where, _("%(name)sjokers are included (jokers: true) and removed ('%(phrase)s'); say "
                                    "jokers: false", name=b.name, phrase=phrase), b.game)
                if kept is not None:
                    both = [c for c in every.cards() if c != JOKER_CARD and kept(c) and removed(c)]
                    if both:
                        shown = ", ".join(card_name(c) for c in both[:4]) + (" ..." if len(both) > 4 else "")
                        yield (where, _("%(name)s'%(phrase)s' is both kept (keep: %(keep)s) and removed: %(shown)s",
                                        name=b.name, phrase=phrase, keep=cfg.keep, shown=shown),
                               b.game)

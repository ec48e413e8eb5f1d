"""A variant's box leaves its reader with every row of its game's box: each one it does not state is declared."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.library import Library
from ..book.words import _
from . import Found, check


@check("variant.inherits_unsaid")
def inherits_unsaid(lib: Library) -> Iterator[Found]:
    """A variant leaves out a row of its game's box without saying what its source says of it (from_game), or
    declares a row it states itself or its game's box does not have.

    A reader takes the game's rows for the variant's: Family Four-Card Golf left out 'To win', so 'Low score wins;
    9 rounds' stood, where its source has the highest score pay a quarter until one player is left."""
    for gs in lib.ordered_games():
        game = gs.game.box_fields()
        for i, variant in enumerate(gs.game.variants):
            if not lib.includes(variant):
                continue
            own = variant.box_fields()
            for field in sorted(game - own - set(variant.from_game)):
                yield (gs.where(("variants", i, "title")),
                       _("variant %(title)s: the game's box has a row from its %(field)s that this variant does not "
                         "state: state it, or add 'from_game: {%(field)s: same}' if its source says the same, "
                         "'unstated' if it says nothing, 'in_rules' if it says otherwise in words the box cannot hold",
                         title=variant.title, field=field), gs.id)
            for field in sorted(set(variant.from_game) - (game - own)):
                why = _("states it itself") if field in own else _("has no such row in its game's box")
                yield (gs.where(("variants", i, "from_game", field)),
                       _("variant %(title)s: from_game names %(field)s, but the variant %(why)s: remove it",
                         title=variant.title, field=field, why=why), gs.id)

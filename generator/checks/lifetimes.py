"""Every edition a game, variant or rule names (``introduced:``, ``retired:``) is one the book lists.

A game introduced in an edition book.yaml does not list is printed in none of the editions it does list: before this
check it vanished without a word. So any edition not listed is an error, a typo or an edition never made alike; one
after every listed edition is told how the next edition is opened (``rulebook edition new``), after which a game is
added to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..book.library import BOOK_FILE, DATA_DIR, Library
from ..book.model import edition_key
from ..book.words import _
from ..errors import Location, echo
from . import Found, check

LIFETIME_KEYS = frozenset(("introduced", "retired"))


def _at(data: Any, loc: tuple) -> Any:
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _unlisted(lib: Library) -> Iterator[tuple[Location, str, str, bool, str]]:
    """(where, key, edition, after every listed one, game) for each lifetime naming an edition the book does not
    list."""
    listed = [e.id for e in lib.book.editions]
    last = max(map(edition_key, listed))
    for gid, gs in sorted(lib.every_game.items()):
        for loc in [loc for loc in gs.doc.marks if loc and loc[-1] in LIFETIME_KEYS]:  # every key has a mark
            value = _at(gs.doc.data, loc)
            if isinstance(value, str) and value not in listed:
                yield gs.where(loc), loc[-1], value, edition_key(value) > last, gid


@check("edition.unlisted")
def unlisted(lib: Library) -> Iterator[Found]:
    """introduced: or retired: names an edition that book.yaml does not list: the game would vanish from the book."""
    listed = ", ".join(e.id for e in lib.book.editions)
    for where, key, value, later, gid in _unlisted(lib):
        what = _("printed in no edition") if key == "introduced" else _("retired from no edition")
        how = (_("name one of those; for the next edition, open it first (`rulebook edition new %(value)s`), then "
                 "add to it", value=echo(value))) if later else _("name one of those")
        yield where, (_("%(key)s: %(value)s is not an edition of %(data_dir)s/%(book_file)s (it lists %(listed)s): "
                        "it is %(what)s: %(how)s", key=key, value=echo(value), data_dir=DATA_DIR, book_file=BOOK_FILE,
                        listed=listed, what=what, how=how)), gid

"""The book's alphabetical index, one home: its rows in an edition (the printed ones, corrected, and a row for each game
added since), the pages it gives, the player counts it states, and the note both outputs print about it.

The index is typed from the book as published (book.yaml's ``printed_index``); an edition that prints it lists its
games by it (``index_rows``), lays them out on its pages when it is laid out as printed (``printed_pages``), and tells
a reader choosing a game its counts (``stated_players``). The checks (``checks/index.py``), the game pages, the site's
index, home page and finder, and the book's index all ask here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .model import Game, PrintedIndex, edition_key
from .words import _

if TYPE_CHECKING:
    from .library import Library


def page_span(page: int | str) -> tuple[int, int]:
    """A printed index's page, '9-10' or 12, as (first, last)."""
    numbers = [int(n) for n in re.findall(r"\d+", str(page))]
    return numbers[0], numbers[-1]


@dataclass(frozen=True)
class IndexRow:
    """A line of an edition's alphabetical index."""

    section: str
    title: str
    game: str
    players: str | int
    entry: int | None  # its place in printed_index.sections[section]; None: derived from its page


def printed_index(lib: Library) -> PrintedIndex | None:
    """The index as typed from the book (errata of later editions undone), if this edition prints it."""
    printed = lib.book.printed_index
    return printed if printed is not None and lib.edition.id in printed.editions else None

def printed_pages(lib: Library) -> dict[str, tuple[int, int]]:
    """Game id -> (first, last) page the printed index gives it, in an edition laid out as printed (else empty)."""
    printed = printed_index(lib)
    if printed is None or not lib.edition.pages_as_printed:
        return {}
    return {e.game: page_span(e.page) for entries in printed.sections.values() for e in entries}

def index_rows(lib: Library) -> dict[str, list[IndexRow]]:
    """This edition's index, section by section: the printed rows, plus rows for games added since.

    The rows typed from the book keep their titles, counts and order. A game introduced after
    the edition the index was typed from has no typed row: its row is its page's heading and
    player count, placed after the row of the game before it in the book. The book's game order
    is its page order, which in the printed index is alphabetical ('10 Dime Rummy' first).
    """
    printed = printed_index(lib)
    if printed is None:
        return {}
    typed_in = min(printed.editions, key=edition_key)
    rows: dict[str, list[IndexRow]] = {}
    for section in lib.book.sections:
        # A game retired since the index was typed has no line in this edition (its entry keeps its place).
        out = [IndexRow(section.id, e.title, e.game, e.players, i)
               for i, e in enumerate(printed.sections.get(section.id, [])) if e.game in lib.games]
        for gid in section.games:
            gs = lib.games.get(gid)
            if gs is None or not edition_key(gs.game.introduced) > edition_key(typed_in):
                continue
            before = section.games[:section.games.index(gid)]
            at = max((i + 1 for i, r in enumerate(out) if r.game in before), default=0)
            out.insert(at, IndexRow(section.id, gs.game.heading(), gid, gs.game.players, None))
        if out:
            rows[section.id] = out
    return rows

def index_entry(lib: Library, game_id: str) -> IndexRow | None:
    """A game's line in this edition's index, if it prints one."""
    return next((r for rows in index_rows(lib).values() for r in rows if r.game == game_id), None)

def stated_players(lib: Library, game: Game) -> str | int | None:
    """The player count this edition tells a reader choosing a game: its index's, else the page's; None
    when no source states one (the page's count is worked out, ``players_implied``, and no index says).

    An edition with a printed index lists games by it, so its home page and finder repeat the
    index's counts (2026.1's mistakes included: they are errata of the next edition, not of it).
    """
    entry = index_entry(lib, game.id)
    if entry is not None and (entry.entry is not None or not game.players_implied):  # a derived row: the page's
        return entry.players
    return None if game.players_implied else game.players


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def printed_index_note(lib: Library) -> str | None:
    """The sentence on an index printed in the book's design, true of this edition (None when it prints none)."""
    rows = [r for section in index_rows(lib).values() for r in section]
    if not rows:
        return None
    book_file = f"{lib.book_doc.path}"
    fixed = {e.path for e in lib.errata if lib.in_edition(e.edition) and e.file == book_file and e.path}
    corrected = [r.title for r in rows if r.entry is not None
                 and any(p.startswith(f"printed_index.sections.{r.section}.{r.entry}.") for p in fixed)]
    added = [r.title for r in rows if r.entry is None]
    # The typed lines of games retired since: an edition prints no line for a game it does not have.
    typed = lib.book.printed_index.sections.values() if lib.book.printed_index else []
    retired = [e.title for entries in typed for e in entries if e.game not in lib.games]
    as_printed = bool(printed_pages(lib))
    if not corrected and not added and not retired:
        if as_printed:
            return _("The index is printed as published, with its titles, player counts, order and page numbers, "
                     "mistakes included; each game starts on the page it names.")
        return _("The index is printed as published, with its titles, player counts and order, mistakes included; "
                 "only its page numbers differ: they are this edition's own pages.")
    parts = [_("The index is printed as published, with its titles, order and page numbers") if as_printed else
             _("The index is printed as published, with its titles and order; its page numbers are this edition's "
               "own pages")]
    if corrected:
        parts.append(_("the lines the errata correct are printed corrected (%(games)s)", games=_listing(corrected)))
    if added:
        new = all(lib.games[r.game].game.introduced == lib.edition.id for r in rows if r.entry is None)
        parts.append(_("the games this edition adds have lines of their own, titled and counted as on their pages, "
                       "in the book's alphabetical order (%(games)s)", games=_listing(added)) if new else
                     _("the games added since the book was first printed have lines of their own, titled and counted "
                       "as on their pages, in the book's alphabetical order (%(games)s)", games=_listing(added)))
    if retired:
        parts.append(_("the games %(whose)s retired have no line (%(games)s)", whose=lib.book.decided_by,
                       games=_listing(retired)))
    return _("%(parts)s.", parts="; ".join(parts))


def index_page(lib: Library, pages: dict[str, int], game_id: str, unknown: str = "") -> str:
    """The page an index row prints: the printed index's own ('9-10') in an edition laid out as printed,
    else where the game is in this edition's PDF (``page_range``)."""
    span = printed_pages(lib).get(game_id)
    if span is None:
        return page_range(pages, game_id, unknown)
    return str(span[0]) if span[0] == span[1] else f"{span[0]}-{span[1]}"  # the book's hyphen, as typed


def page_range(pages: dict[str, int], game_id: str, unknown: str = "") -> str:
    """Where a game is printed: '15', or '7–8' when it runs over pages; ``unknown`` before layout."""
    start, end = pages.get(f"game-{game_id}"), pages.get(f"end-{game_id}")
    if start is None:
        return unknown
    return str(start) if end in (None, start) else f"{start}–{end}"

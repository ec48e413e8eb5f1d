"""The alphabetical index as printed agrees with the game pages, in every edition that prints it.

The checks read the rows typed from the book (with the edition's errata applied); rows derived
from a later game's page agree with it by construction, but count as listed for missing_game.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..book import index as book_index
from ..book.library import GameSource, Library
from ..book.phrases import parse_players
from ..book.words import _
from . import Found, check


def _entries(lib: Library):
    printed = book_index.printed_index(lib)
    if printed is None:
        return
    for section, entries in printed.sections.items():
        for i, entry in enumerate(entries):
            if entry.game in lib.every_game and entry.game not in lib.games:
                continue  # retired since the index was typed: this edition prints no line for it
            yield section, i, entry, lib.book_doc.where(("printed_index", "sections", section, i))


@check("index.players_mismatch")
def players_mismatch(lib: Library) -> Iterator[Found]:
    """The index gives a game a different number of players than the game's page."""
    for _section, _title, entry, where in _entries(lib):
        gs = lib.games.get(entry.game)
        if gs is None:
            continue
        if gs.game.players_implied:  # the page states no count to disagree with: the index's is the book's
            continue
        printed, page = parse_players(entry.players), parse_players(gs.game.players)
        if not printed.same_as(page):
            yield (where, _("%(title)s: the index says '%(players)s' (%(describe)s), the game page says "
                            "'%(players2)s' (%(describe2)s)", title=entry.title, players=entry.players,
                            describe=printed.describe(), players2=gs.game.players, describe2=page.describe()), entry.game)


# A count as a page's prose prints it: '2 to 8 players', '2, 4 or 6 people', 'Two people'.
_COUNT = re.compile(r"\b((?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
                    r"(?:\s*+(?:-|–|to|,|or)\s*+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)){0,12}+)"
                    r"\s++(?:players|people|persons)\b", re.I)  # bounded: a long list of numbers is no count


def page_states(gs: GameSource, players: str | int) -> bool:
    """Whether a game's page states ``players`` as its count: the count in its data, printed by its prose ({players}),
    or a count its prose prints in words of its own. A count worked out from a deal table (players_implied) is none."""
    try:
        wanted = parse_players(players)
    except ValueError:
        return False
    text = gs.prose.text if gs.prose else ""
    if not gs.game.players_implied and "{players}" in text and wanted.same_as(parse_players(gs.game.players)):
        return True
    for m in _COUNT.finditer(text):
        try:
            if parse_players(m.group(1)).same_as(wanted):
                return True
        except ValueError:
            continue
    return False


@check("index.correction_unstated")
def correction_unstated(lib: Library) -> Iterator[Found]:
    """An erratum corrects an index line's count to one its game's page (in the same edition) does not state: the
    index's count stands unless a page says otherwise (Mexican Train's page deals for 2 to 8, it states no limit)."""
    printed = book_index.printed_index(lib)
    if printed is None:
        return
    for i, e in enumerate(lib.errata):
        m = re.fullmatch(r"printed_index\.sections\.(\w+)\.(\d+)\.players", e.path or "")
        if not (m and e.file == lib.book_doc.path and lib.in_edition(e.edition)):
            continue
        entries = printed.sections.get(m[1], [])
        entry = entries[int(m[2])] if int(m[2]) < len(entries) else None
        gs = lib.games.get(entry.game) if entry is not None else None
        if gs is not None and not page_states(gs, e.corrected):
            yield (lib.errata_doc.where(("errata", i, "corrected")),
                   _("erratum '%(id)s': %(title)s: the %(title2)s page does not state '%(corrected)s' players: an "
                     "index line is corrected only to the count its page states; remove the erratum (the index's "
                     "'%(published)s' stands)", id=e.id, title=entry.title, title2=gs.game.title,
                     corrected=e.corrected, published=e.published), entry.game)


@check("index.unknown_game")
def unknown_game(lib: Library) -> Iterator[Found]:
    """The index lists a game the book does not have."""
    for _section, _title, entry, where in _entries(lib):
        if entry.game not in lib.games:
            yield where, _("%(title)s: no such game in this edition", title=entry.title), entry.game


@check("index.missing_game")
def missing_game(lib: Library) -> Iterator[Found]:
    """A game of the book is missing from the index."""
    listed = {row.game for rows in book_index.index_rows(lib).values() for row in rows}
    if not listed:
        return
    for gs in lib.ordered_games():
        if gs.id not in listed:
            yield gs.where(("title",)), _("%(title)s is not in the printed index", title=gs.game.title), gs.id


@check("index.section_mismatch")
def section_mismatch(lib: Library) -> Iterator[Found]:
    """The index files a game under another section than the book does."""
    section_of = {g: s.id for s in lib.book.sections for g in s.games}
    for section, _title, entry, where in _entries(lib):
        actual = section_of.get(entry.game)
        if actual and actual != section:
            yield where, _("%(title)s: indexed under '%(section)s', but the book places it under '%(actual)s'",
                           title=entry.title, section=section, actual=actual), entry.game


@check("index.page_order")
def page_order(lib: Library) -> Iterator[Found]:
    """Index page numbers do not follow the order of the games in the book."""
    order = [g for s in lib.book.sections for g in s.games]
    # An entry for a game the book does not list is index.unknown_game's: it has no place in the order to check
    # (counted first, it put every game after it out of order).
    entries = sorted((e for e in _entries(lib) if e[2].game in order), key=lambda e: order.index(e[2].game))
    last = 0
    for _section, _title, entry, where in entries:
        first = book_index.page_span(entry.page)[0]
        if first < last:
            yield where, _("%(title)s: page %(page)s comes before page %(last)s, the game before it",
                           title=entry.title, page=entry.page, last=last), entry.game
        last = max(last, first)


@check("index.title_mismatch", "warning")
def title_mismatch(lib: Library) -> Iterator[Found]:
    """An index entry's name does not begin with the game's title."""
    def norm(text: str) -> str:
        return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()

    for _section, _title, entry, where in _entries(lib):
        gs = lib.games.get(entry.game)
        if gs and not norm(entry.title).startswith(norm(gs.game.title)):
            yield where, _("the index calls it '%(title)s', the page '%(title2)s'", title=entry.title,
                           title2=gs.game.title), entry.game


@check("index.duplicate_entry")
def duplicate_entry(lib: Library) -> Iterator[Found]:
    """The index lists one game twice (its page numbers and counts would be stated twice)."""
    seen: dict[str, str] = {}
    for section, _title, entry, where in _entries(lib):
        if entry.game in seen:
            yield (where, _("%(title)s: the index lists '%(game)s' twice (also under %(seen)s): remove this line "
                            "instead", title=entry.title, game=entry.game, seen=seen[entry.game]), entry.game)
        seen.setdefault(entry.game, section)

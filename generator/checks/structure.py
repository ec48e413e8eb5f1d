"""The book's structure: what a page follows, and which section a game says it is in, name the book's own sections."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.library import Library, reserved
from ..book.model import EQUIPMENT_KINDS
from ..book.words import _
from . import Found, check


def _ids(lib: Library) -> str:
    return ", ".join(s.id for s in lib.book.sections) or "none"


@check("page.after_unknown")
def after_unknown(lib: Library) -> Iterator[Found]:
    """A page follows a section the book does not have (the site's navigation and the PDF would lose it)."""
    sections = {s.id for s in lib.book.sections}
    for i, page in enumerate(lib.book.pages):
        if page.after is not None and page.after not in sections:
            yield (lib.book_doc.where(("pages", i, "after")),
                   _("page '%(id)s' follows section '%(after)s', which the book does not have (its sections: "
                     "%(ids)s): name one of them, or leave after: out to put the page before the games", id=page.id,
                     after=page.after, ids=_ids(lib)), None)


@check("game.section_mismatch")
def section_mismatch(lib: Library) -> Iterator[Found]:
    """A game's category is not the section book.yaml lists it in."""
    listed = {g: s.id for s in lib.book.sections for g in s.games}
    for gs in lib.ordered_games():
        section = listed.get(gs.id)
        if section is not None and gs.game.category != section:
            yield (gs.where(("category",)), _("category: %(category)s, but book.yaml lists the game in section "
                                              "'%(section)s': write category: %(section)s (the id of its section)",
                                              category=gs.game.category, section=section), gs.id)


@check("game.kind_mismatch")
def kind_mismatch(lib: Library) -> Iterator[Found]:
    """A game's equipment_kind disagrees with its section's kind: a dice section's games are dice games, and a game
    in an equipment section names what it is played with."""
    for gs in lib.ordered_games():
        kind, has = lib.book.kind_of(gs.game.category), gs.game.equipment_kind
        if kind in EQUIPMENT_KINDS and has != kind:
            yield (gs.where(("equipment_kind",) if has else ("category",)),
                   _("the game is in a section of kind '%(kind)s', but its equipment_kind is '%(has)s': write "
                     "'equipment_kind: %(kind)s'", kind=kind, has=has) if has else
                   _("the game is in a section of kind '%(kind)s', but its equipment_kind is not given: write "
                     "'equipment_kind: %(kind)s'", kind=kind), gs.id)
        elif kind == "equipment" and has is None:
            yield (gs.where(("category",)), _("the game is in an equipment section but does not say what it is "
                                              "played with: add equipment_kind: (one of %(equipment_kinds)s)",
                                              equipment_kinds=', '.join(EQUIPMENT_KINDS)), gs.id)


def _repeated(ids: list[str]) -> Iterator[tuple[int, str, int]]:
    """(index, id, index of its first) of each id of ``ids`` given before."""
    seen: dict[str, int] = {}
    for i, given in enumerate(ids):
        if given in seen:
            yield i, given, seen[given]
        seen.setdefault(given, i)


@check("page.duplicate_id")
def duplicate_page(lib: Library) -> Iterator[Found]:
    """Two of the book's pages have one id (one file, one address): the site cannot hold both."""
    for i, given, first in _repeated([page.id for page in lib.book.pages]):
        yield (lib.book_doc.where(("pages", i, "id")), _("page '%(given)s' is listed twice (also item %(value)s of "
                                                         "pages): give each page an id of its own, or remove this one",
                                                         given=given, value=first + 1), None)


@check("page.reserved_id")
def reserved_page(lib: Library) -> Iterator[Found]:
    """A page of the book's own takes the name of one of the site's own pages (the finder, the index, the errata),
    or one Windows keeps for a device (con, nul, aux)."""
    for i, page in enumerate(lib.book.pages):
        why = reserved(page.id)
        if why:
            yield (lib.book_doc.where(("pages", i, "id")), _("page id %(why)s: give the page another id, and rename "
                                                             "content/%(id)s.md to match", why=why, id=page.id), None)


@check("game.reserved_id")
def reserved_game(lib: Library) -> Iterator[Found]:
    """A game's id is a name the site keeps for its own pages (its page would be one of them, and the build fails
    on broken links), or one Windows keeps for a device (no checkout there could hold its files)."""
    for gs in lib.ordered_games():
        why = reserved(gs.id)
        if why:
            yield (gs.where(("id",)), _("game id %(why)s: give the game another id (a longer name: 'Index Poker' "
                                        "rather than 'Index'), and rename rules_data/%(id)s.yaml and "
                                        "content/%(id)s.md to match", why=why, id=gs.id), gs.id)


@check("section.duplicate_id")
def duplicate_section(lib: Library) -> Iterator[Found]:
    """Two sections have one id: a game's category and a page's after: could not tell them apart."""
    for i, given, first in _repeated([section.id for section in lib.book.sections]):
        yield (lib.book_doc.where(("sections", i, "id")), _("section '%(given)s' is given twice (also item %(value)s "
                                                            "of sections): give each section an id of its own",
                                                            given=given, value=first + 1), None)

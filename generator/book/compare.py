"""What a change does to the rules, in words: one line per change, old → new.

Used by ``rulebook diff OLD NEW`` (``commands/diff.py``), the pull-request check's summary and the site's
"What changed" page. The models of both sides are walked field by field, generically, so a field added to
``model.py`` is compared with no new code (``LABELS`` only names fields nicely); prose is compared
sentence by sentence with the changed words marked (``textdiff.py``). The result is a list of
``Change`` records (game, data path, label, old, new), rendered as Markdown or plain lines.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from pydantic import BaseModel

from .library import GameSource, Library
from .prose import expand
from .textdiff import changed_sentences, escape, mark_words
from .words import N_, _, n_


def book_heading() -> str:
    """The heading of the changes to the book's own data and pages ('The book'), in the book's language."""
    return _("The book")

# Human names for fields, every field of a game and of the book (tests/test_changed_words.py): a field of the
# model without one reads as its name with spaces, in English whatever the book's language. Marked here and put
# into the book's words where a line is written (``label``).
LABELS = {
    "accent": N_("accent"), "accent_shades": N_("accent shades"), "after": N_("after"), "against": N_("against"),
    "alternate_rules": N_("alternate rules"), "ante": N_("ante"), "author": N_("author"), "back_up": N_("back up"),
    "because": N_("because"), "blank": N_("blank"), "blank_rows": N_("blank rows"), "blind": N_("blind"),
    "blocks": N_("blocks"), "board": N_("board"), "by_players": N_("by players"),
    "by_round": N_("hand size by round"), "cards": N_("cards"), "carries": N_("carries"), "category": N_("category"),
    "cents": N_("cents"), "coin": N_("coin"), "columns": N_("columns"), "composition": N_("composition"),
    "conditional": N_("conditional"), "contact": N_("contact"), "copies": N_("copies"), "corrected": N_("corrected"),
    "corrections": N_("corrections"), "count": N_("count"), "cover_line": N_("cover line"), "current": N_("current"),
    "dark": N_("dark"), "date": N_("date"), "deal": N_("deal"), "dealer_gets": N_("dealer gets"),
    "decided_by": N_("decided by"), "decks": N_("decks"), "description": N_("description"), "dice": N_("dice"),
    "dominoes": N_("dominoes"), "doubles": N_("doubles"), "each": N_("cards each"),
    "edition_number": N_("edition number"), "editions": N_("editions"), "editor_note": N_("editor note"),
    "equalize_by_removing": N_("equalize by removing"), "equipment": N_("equipment"),
    "equipment_kind": N_("equipment kind"), "example": N_("example"), "example_rows": N_("example rows"),
    "examples": N_("worked example"), "expr": N_("arithmetic"), "face_up": N_("face up"), "faces": N_("faces"),
    "fields": N_("fields"), "file": N_("file"), "finder": N_("finder"), "foot": N_("foot"),
    "from_game": N_("from game"), "game": N_("game"), "games": N_("games"), "goal": N_("goal"),
    "groups": N_("groups"), "hand": N_("hand"), "hands": N_("hands"), "heading": N_("heading"),
    "held_against": N_("held against"), "id": N_("id"), "implied": N_("implied"), "index_title": N_("index title"),
    "introduced": N_("introduced"), "jokers": N_("jokers"), "keep": N_("keep"), "keeps": N_("keeps"),
    "keywords": N_("keywords"), "kind": N_("kind"), "kitty": N_("kitty"), "label": N_("label"),
    "landscape": N_("landscape"), "language": N_("language"), "layout": N_("layout"), "light": N_("light"),
    "line": N_("line"), "link": N_("link colour"), "link_on_dark": N_("link colour on dark"), "lose_at": N_("loses at"),
    "low": N_("low"), "meld": N_("meld"), "messages": N_("messages"), "min_cards_each": N_("min cards each"),
    "min_meld": N_("minimum meld"), "min_remainder": N_("cards left undealt"), "name": N_("name"), "note": N_("note"),
    "number": N_("number"), "numbering": N_("numbering"), "opens": N_("opens"), "order": N_("order"),
    "other": N_("other"), "other_names": N_("other names"), "page": N_("page"), "pages": N_("pages"),
    "pages_as_printed": N_("pages as printed"), "partners": N_("partners"), "partners_when": N_("partners when"),
    "partnerships": N_("partnerships"), "path": N_("path"), "per": N_("per"), "player_columns": N_("player columns"),
    "players": N_("players"), "players_implied": N_("players implied"), "points": N_("points"),
    "possible": N_("possible"), "printed_index": N_("printed index"), "qualifiers": N_("qualifiers"),
    "ranks": N_("ranks"), "record": N_("record"), "remove": N_("remove"), "retired": N_("retired"),
    "revision": N_("revision"), "round": N_("round"), "rounds": N_("rounds"), "row_label": N_("row label"),
    "rows": N_("rows"), "rows_from": N_("rows from"), "sample": N_("sample"), "sample_only": N_("sample only"),
    "says": N_("says"), "says_each": N_("says each"), "score_sheet": N_("score sheet"), "scoring": N_("scoring"),
    "section": N_("section"), "sections": N_("sections"), "seed": N_("seed"), "sequences": N_("sequences"),
    "set": N_("set"), "set_by_first_card": N_("set by first card"), "sources": N_("sources"), "span": N_("span"),
    "stakes": N_("stakes"), "start": N_("start"), "stated": N_("stated"), "stated_cards": N_("stated deck size"),
    "stated_count": N_("stated count"), "stated_total": N_("stated total"), "status": N_("status"),
    "sticks": N_("sticks"), "subtitle": N_("subtitle"), "sums": N_("sums"), "target": N_("target"),
    "target_unit": N_("target unit"), "text": N_("text"), "then_back_to": N_("then back to"),
    "then_reversed": N_("then reversed"), "threshold": N_("threshold"), "tiles": N_("tiles"), "times": N_("times"),
    "title": N_("title"), "total": N_("total"), "transcribed_in": N_("transcribed in"), "trump": N_("trump"),
    "typically": N_("typically"), "uneven": N_("uneven"), "upcard": N_("upcards"), "value": N_("value"),
    "variants": N_("variants"), "widow": N_("widow"), "wild": N_("wild cards"), "winner": N_("winner"),
    "worked_out": N_("worked out"), "year": N_("year"),
}
CONTAINERS = {"values", "items", "rules"}  # their entries' own names say it
# List fields whose items read better with a word before their name: 'variant Oh Heck!'.
ITEM = {"variants": N_("variant %(name)s"), "sequences": N_("sequence %(name)s"), "blocks": N_("block %(name)s")}
# Fields of a list item that name it, in order of preference (a round's name, a score line's label).
IDENTITY = ("id", "name", "label", "title", "number", "players")
NAMES = ("title", "name", "label", "number", "id", "players")  # and, to show, the best first
_MISSING = object()
SHORT = 160  # characters: something added or removed is shown whole up to this long, else named


@dataclass(frozen=True)
class Change:
    """One change to the rules: where (game, data path, label) and the value before and after.

    ``path`` is the dotted data path in the new file (``scoring.cards.items.7.points``), or the
    prose file for a text change; ``old`` is None for something added, ``new`` None for removed.
    """

    game: str
    path: str
    label: str
    old: Any
    new: Any
    game_id: str = ""  # the game's id ("" for the book's own data and pages)

    def text(self, markdown: bool = False, with_game: bool = True) -> str:
        """The change in words: ``Golf, scoring, Block of 4 cards, points: −10 → −20``."""
        lit = escape if markdown else (lambda s: s)
        head = f"{self.game}, {self.label}" if with_game and self.game else self.label
        head = lit(head[:1].upper() + head[1:])
        if not self.path:  # a whole game
            return head
        if isinstance(self.old, str) and isinstance(self.new, str) and _is_prose(self):
            return f"{head}: “{mark_words(self.old, self.new, markdown)}”"
        if self.old is None or self.new is None:
            removed = self.new is None
            shown = show(_unnamed(self.old if removed else self.new))
            if len(shown) <= SHORT and shown != show(None):
                return (_("%(what)s: removed (%(value)s)", what=head, value=lit(shown)) if removed
                        else _("%(what)s: added (%(value)s)", what=head, value=lit(shown)))
            return _("%(what)s: removed", what=head) if removed else _("%(what)s: added", what=head)
        return f"{head}: {lit(show(self.old))} → {lit(show(self.new))}"


def _is_prose(change: Change) -> bool:
    return change.path.endswith(".md") or max(len(change.old.split()), len(change.new.split())) > 6


def _unnamed(value: Any) -> Any:
    """A record without the field that names it (the label already says it)."""
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k not in NAMES[:5]}
    return value


def show(value: Any) -> str:
    """A value as a reader writes it: −10, yes/no, a list joined with semicolons."""
    if value is None or value == "":
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, (int, float)):
        return f"−{-value:g}" if value < 0 else f"{value:g}"
    if isinstance(value, (list, tuple)):
        return "; ".join(show(v) for v in value) or _("none")
    if isinstance(value, dict):
        # (a container's label is empty: its entries' own names say it, with no space before them)
        return ", ".join(" ".join(filter(None, (label(k), show(v)))) for k, v in value.items()) or _("none")
    return str(value)


def label(name: str | int) -> str:
    """A field's human name, in the book's language ('' for a container, whose entries name themselves)."""
    if str(name) in CONTAINERS:
        return ""
    message = LABELS.get(str(name))
    return _(message) if message else str(name).replace("_", " ")


def _plain(value: Any) -> Any:
    """A model as plain data without its defaults (what the record holds, what ``show`` prints)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_defaults=True)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _name(item: Any, key: str | int) -> str:
    """What a list item or mapping entry is called: its name or label, else its key or position."""
    for attr in NAMES:
        value = getattr(item, attr, None)
        if value not in (None, "") and not callable(value):  # (a text's own methods: "up to".title is no name)
            if attr == "number":
                return _("rule %(number)s", number=value)
            if attr == "players":
                return n_("for %(count)s player", "for %(count)s players", value if type(value) is int else 2,
                          count=value)
            return str(value)
    return _("line %(number)s", number=key + 1) if isinstance(key, int) else label(key)


def _one_of(name: str, field_label: str) -> bool:
    """Whether a list item's name begins with its field's label in the singular: 'Round 1' of 'rounds', 'Runde 1' of
    'Runden' (a plural ending of up to two letters, as English and German write them)."""
    first, _space, rest = name.lower().partition(" ")
    whole = field_label.lower()
    return bool(rest) and whole.startswith(first) and len(whole) - len(first) <= 2


def _value_key(value: Any) -> str:
    """A plain value as a key that tells equal values (dicts and lists too) from others."""
    return json.dumps(_plain(value), sort_keys=True, default=str)


def _has_models(value: Any) -> bool:
    if isinstance(value, dict):
        value = list(value.values())
    return isinstance(value, BaseModel) or (isinstance(value, list) and any(isinstance(v, BaseModel) for v in value))


# Fields no edition prints: an edition's seal of its record (Edition.record), written when it is published.
BOOKKEEPING = {"record"}


def _identity(item: Any) -> Any:
    return next((getattr(item, a) for a in IDENTITY if getattr(item, a, None) not in (None, "")), None)


@dataclass
class _Walk:
    """One side-by-side walk of two models, collecting changes."""

    game: str
    old_lib: Library
    new_lib: Library
    out: list[Change] = field(default_factory=list)
    scopes: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])  # each side's, for data text
    game_id: str = ""

    def emit(self, path: tuple, names: list[str], old: Any, new: Any,
             local: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])) -> None:
        if isinstance(old, str) and isinstance(new, str):  # data text that refers to values: as printed
            old = as_printed(old, [*local[0], *self.scopes[0]])
            new = as_printed(new, [*local[1], *self.scopes[1]])
        parts: list[str] = []
        for n in filter(None, names):  # 'Scoring, Scoring' and 'rounds, Round 1' say one thing twice
            if parts and (n.lower() == parts[-1].lower() or _one_of(n, parts[-1])):
                parts.pop()
            parts.append(n)
        self.out.append(Change(self.game, ".".join(map(str, path)), ", ".join(parts),
                               None if old is _MISSING else _plain(old), None if new is _MISSING else _plain(new),
                               self.game_id))

    def walk(self, old: Any, new: Any, path: tuple = (), names: list[str] | None = None,
             local: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])) -> None:
        names = names or []
        if old == new and not _has_models(new):
            return  # models are walked even when equal: what is in each edition may differ
        if old is _MISSING or new is _MISSING:  # added or removed as a whole: one change
            self.emit(path, names, old, new, local)
            return
        if isinstance(old, BaseModel) and type(old) is type(new):
            for f in type(new).model_fields:
                if f in BOOKKEEPING:
                    continue
                self.walk(getattr(old, f), getattr(new, f), path + (f,), names + [label(f)], local)
        elif isinstance(old, dict) and isinstance(new, dict):
            for key in list(old) + [k for k in new if k not in old]:
                a, b = old.get(key, _MISSING), new.get(key, _MISSING)
                self.walk(a, b, path + (key,), names + [_name(b if b is not _MISSING else a, key)], local)
        elif isinstance(old, list) and isinstance(new, list) and any(isinstance(v, BaseModel) for v in old + new):
            self.walk_items(old, new, path, names, local)
        elif isinstance(old, list) and isinstance(new, list):
            self.walk_values(old, new, path, names, local)
        elif old is None or new is None:
            self.emit(path, names, _MISSING if old is None else old, _MISSING if new is None else new, local)
        else:
            self.emit(path, names, old, new, local)

    def walk_values(self, old: list, new: list, path: tuple, names: list[str],
                    local: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])) -> None:
        """A list of plain values (a section's games, other names): each item added, removed, changed or moved, one
        line each, never the whole list before and after (one game added to a section printed its 22 games twice)."""
        a, b = [_value_key(v) for v in old], [_value_key(v) for v in new]
        gone: list[int] = []  # positions in old of the values that are not where they were, and in new of those
        came: list[int] = []  # that came
        for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if op != "equal":
                gone += range(i1, i2)
                came += range(j1, j2)
        for i in list(gone):  # the same value elsewhere in the list: moved, not removed and added
            j = next((j for j in came if b[j] == a[i]), None)
            if j is not None:
                gone.remove(i)
                came.remove(j)
                self.emit(path + (j,), [*names, show(old[i])], _("place %(number)s", number=i + 1),
                          _("place %(number)s", number=j + 1), local)
        for i, j in zip(gone, came, strict=False):  # one value in place of another
            self.walk(old[i], new[j], path + (j,), names, local)
        for i in gone[len(came):]:
            self.emit(path + (i,), names, old[i], _MISSING, local)
        for j in came[len(gone):]:
            self.emit(path + (j,), names, _MISSING, new[j], local)

    def named(self, item: Any, key: str | int, side: int, local: list[dict[str, Any]]) -> str:
        """A list item's name as printed: '{count} of a kind' with the item's own count filled in."""
        return as_printed(_name(item, key), [*local, *self.scopes[side]]) or ""

    def walk_items(self, old: list, new: list, path: tuple, names: list[str],
                   local: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])) -> None:
        """Items matched by their name where every item has a distinct one, else by position."""
        old = [v for v in old if self.old_lib.includes(v)]
        new_index = [(i, v) for i, v in enumerate(new) if self.new_lib.includes(v)]
        keys_old, keys_new = [_identity(v) for v in old], [_identity(v) for _, v in new_index]
        by_name = None not in keys_old + keys_new and len(set(keys_old)) == len(old) and len(set(keys_new)) == len(new_index)
        item_of = "%(name)s"
        if by_name:  # 'Round 1' says more than 'rounds, items'; 'variant Oh Heck!' than 'variants'
            names = names[:-1]
            item_of = ITEM.get(path[-1], item_of) if path else item_of
        else:
            keys_old, keys_new = list(range(len(old))), [i for i, _ in new_index]
        old_by = dict(zip(keys_old, old, strict=True))

        def own(item: Any) -> list[dict[str, Any]]:  # an item's own fields come first: '{count} of a kind'
            return [item.model_dump(exclude_none=True)] if isinstance(item, BaseModel) else []

        for key, (i, item) in zip(keys_new, new_index, strict=True):
            before = old_by.pop(key, _MISSING)
            inner = ([*own(before), *local[0]] if before is not _MISSING else local[0], [*own(item), *local[1]])
            self.walk(before, item, path + (i,), names + [_item(item_of, self.named(item, i, 1, inner[1]))], inner)
        for key, item in old_by.items():
            inner = ([*own(item), *local[0]], local[1])
            at = keys_old.index(key)
            self.walk(item, _MISSING, path + (at,), names + [_item(item_of, self.named(item, at, 0, inner[0]))], inner)


def _item(message: str, name: str) -> str:
    """A list item's name with the word its list puts before it ('variant Oh Heck!'), in the book's language."""
    return name if message == "%(name)s" else _(message, name=name)


EMPHASIS = re.compile(r"(\*\*|__|\*(?=\S)|(?<=\S)\*)")


def as_printed(sentence: str | None, scopes: list[dict[str, Any]]) -> str | None:
    """A sentence or data text as the reader sees it: references resolved, emphasis marks dropped."""
    # Sentences are compared as written (a value changed in the data is its own line, not a changed
    # sentence too) and shown as the reader sees them: {deal.each} as its number, no emphasis marks.
    return None if sentence is None else EMPHASIS.sub("", expand(sentence, *scopes))


def _prose(walk: _Walk, where: str, name: str, old: str | None, new: str | None,
           old_scopes: list[dict[str, Any]], new_scopes: list[dict[str, Any]]) -> None:
    for a, b in changed_sentences(old, new):
        walk.out.append(Change(walk.game, where, name, as_printed(a, old_scopes), as_printed(b, new_scopes), walk.game_id))


def variant_text(title: str) -> str:
    """The label of a change to a variant's own prose: 'variant Ramsch, text'."""
    return f"{_(ITEM['variants'], name=title)}, {label('text')}"


def compare_game(old: GameSource, new: GameSource, old_lib: Library, new_lib: Library) -> list[Change]:
    """Every change between two versions of one game: each data field, then the prose."""
    old_data, new_data = old.doc.data, new.doc.data
    walk = _Walk(new.game.heading(), old_lib, new_lib, scopes=([old_data, old_lib.scope()], [new_data, new_lib.scope()]),
                 game_id=new.id)
    walk.walk(old.game, new.game)
    _prose(walk, new.prose.path if new.prose else "", "text",
           old.prose.text if old.prose else None, new.prose.text if new.prose else None,
           [old_data, old_lib.scope()], [new_data, new_lib.scope()])
    old_index = {v.id: i for i, v in enumerate(old.game.variants)}
    before = {v.id for v in old.game.variants if old_lib.includes(v)}
    for i, v in enumerate(new.game.variants):  # a variant added is one line ('variant X: added'), not all its sentences
        a, b = old.variant_prose.get(v.id), new.variant_prose.get(v.id)
        if new_lib.includes(v) and v.id in before and (a or b):
            old_v = old_data["variants"][old_index[v.id]]
            _prose(walk, (b or a).path, variant_text(v.title), a.text if a else None, b.text if b else None,
                   [old_v, old_data, old_lib.scope()], [new_data["variants"][i], new_data, new_lib.scope()])
    return walk.out


@dataclass
class Summary:
    """A whole change: every ``Change`` record, games in book order, the book's own last."""

    changes: list[Change] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.changes

    def games(self) -> dict[str, list[Change]]:
        """The changes grouped by game heading (unique in a book; the book's own under ``book_heading``), in order."""
        out: dict[str, list[Change]] = {}
        for c in self.changes:
            out.setdefault(c.game or book_heading(), []).append(c)
        return out


def compare(old: Library, new: Library) -> Summary:
    """Everything that changed between two libraries."""
    changes: list[Change] = []
    for gs in new.ordered_games():
        if gs.id in old.games:
            changes += compare_game(old.games[gs.id], gs, old, new)
        else:
            changes.append(Change(gs.game.heading(), "", _("game added"), None, gs.game.heading(), gs.id))
    for gs in old.ordered_games():
        if gs.id not in new.games:  # retired by the family's decision (retired:), or its file deleted
            retired = gs.id in new.every_game and new.every_game[gs.id].game.retired is not None
            what = _("game retired") if retired else _("game removed")
            changes.append(Change(gs.game.heading(), "", what, gs.game.heading(), None, gs.id))
    walk = _Walk("", old, new)
    walk.walk(old.book, new.book)
    for page in new.book.pages:
        a, b = old.pages.get(page.id), new.pages.get(page.id)
        _prose(walk, (b or a).path if (a or b) else "", _("page “%(title)s”", title=page.title), a.text if a else None,
               b.text if b else None, [old.scope()], [new.scope()])
    return Summary(changes + walk.out)


def lines(summary: Summary) -> list[str]:
    """The summary as plain text, one line per change (game first)."""
    return [c.text() for c in summary.changes]


def markdown(summary: Summary, heading: str) -> str:
    """The summary as Markdown, fit for a pull-request summary or a site page."""
    out = [f"## {heading}", ""]
    if summary.empty:
        return "\n".join(out + [_("No change to the rules."), ""])
    for game, changes in summary.games().items():
        out += [f"### {escape(game)}", ""] + [f"- {c.text(markdown=True, with_game=False)}" for c in changes] + [""]
    return "\n".join(out)

"""``rulebook new-game "Name" [--section S]``: a data and prose pair that validates and builds, ready to fill in.

The game's file is emitted and read back by the book's own loader before anything is written (``book/editor.py``): a
title is kept exactly as typed (quotes, ampersands, apostrophes), and a name whose id YAML would read as something
else (No, On, 1e3) is refused. The game is listed in its section of book.yaml by the editor's round trip, so the
file's comments and layout stay as they are.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import yaml

from ..book import words
from ..book.editor import BOOK_PATH, BookFile, emit
from ..book.files import control_characters, read_source_text, write_source
from ..book.library import BOOK_FILE, CONTENT_DIR, DATA_DIR, reserved
from ..book.loader import parse_yaml
from ..book.model import EQUIPMENT_KINDS
from ..book.words import Words, _
from ..errors import RulebookError, SourceError, echo

HEADER = "# yaml-language-server: $schema=../schema/game.schema.json\n"

# What a first game of each kind states, to be filled in: enough for it to validate and build. A dice, dominoes,
# sticks or board game is an equipment game of that kind (equipment_kind); a tournament is played with cards.
STARTS: dict[str, dict[str, Any]] = {
    "cards": {"players": "2-4", "equipment": {"cards": [{"decks": 1, "jokers": False}]},
              "deal": {"each": 7, "upcard": 1}, "goal": {"winner": "high", "target": 500}},
    "dice": {"players": "2-6", "equipment": {"dice": 5}, "goal": {"winner": "high", "target": 500}},
    "dominoes": {"players": "2-4", "equipment": {"dominoes": {"set": 6}}, "deal": {"tiles": 7},
                 "goal": {"winner": "low", "target": 100}},
    "sticks": {"players": "2-6", "equipment": {"sticks": True}, "goal": {"winner": "high", "target": 10}},
    "board": {"players": "2-4", "equipment": {"board": "the game's board"}, "goal": {"winner": "race"}},
}

# Not format strings: {name} is a reference to the game's data, filled in when the book is built. The words are the
# book's language's (book/words.py; a Words called as say): the scaffold is the book's first text, to be rewritten.
def tail(say: Words, goal: str) -> str:
    """The new game's page after its facts: its object and its play, to fill in."""
    heads = say("Object of the Game"), say("Game Play"), say("Describe a turn here.")
    return f"\n## {heads[0]}\n\n- {goal}\n\n## {heads[1]}\n\n- {heads[2]}\n"


def prose(kind: str, say: Words) -> tuple[str, str]:
    """A new game's facts (a page's first lines) and its goal, by its kind, in the book's language."""
    players = say("{players} people can play")
    lines = {
        "cards": lambda: (say("Players and Cards"), [say("{equipment.cards.0.decks} deck of cards, no jokers"), players,
                          say("{deal.each} cards are dealt to each player and one card is turned up")],
                          say("First player to {goal.target} wins.")),
        "dice": lambda: (say("Players and Equipment"), [say("{equipment.dice} dice"), players],
                         say("First player to {goal.target} points wins.")),
        "dominoes": lambda: (say("Players and Equipment"), [say("A double-{equipment.dominoes.set} set of dominoes"),
                             players, say("{deal.tiles} tiles are dealt to each player")],
                             say("The game ends when a player reaches {goal.target} points; the lowest score wins.")),
        "sticks": lambda: (say("Players and Equipment"), [say("A bundle of sticks"), players],
                           say("First player to {goal.target} points wins.")),
        "board": lambda: (say("Players and Equipment"), [say("The game's board"), players],
                          say("The first player to get every piece home wins.")),
    }
    heading, facts, goal = lines[kind]()
    return f"## {heading}\n\n" + "".join(f"- {fact}\n" for fact in facts), goal


def slugify(name: str, language: str | None = None) -> str:
    """'Oh Hell!' -> 'oh-hell'; 'Großer Schafkopf für Anfänger' -> 'grosser-schafkopf-fuer-anfaenger' in German (its
    letters written as the book's language writes them in plain Latin letters, none dropped)."""
    slug = words.slug(name, language)
    if not slug:
        raise RulebookError(_("%(name)s has no letters or digits to make a file name from: give the game a name with "
                              "some, such as 'Crazy Eights'", name=echo(name)))
    return slug


def _plain_text(slug: str) -> bool:
    """Whether ``slug`` written plain is read as that text, by the book's loader and by YAML 1.1 readers alike."""
    try:
        ours = parse_yaml(f"id: {slug}\n", "id").data["id"]
    except SourceError:
        return False
    return ours == slug and yaml.safe_load(io.StringIO(slug)) == slug


def game_data(slug: str, title: str, section: str, kind: str, edition: str, seed: str | None) -> dict[str, Any]:
    """The first data of a game in ``section`` (of ``kind``): what new-game writes."""
    data: dict[str, Any] = {"id": slug, "title": title, "category": section}
    if kind in EQUIPMENT_KINDS:
        data["equipment_kind"] = kind
    data["introduced"] = edition
    # A game is cited to the document it was given, and to none it was not: the editors' own game has no source,
    # and its addition is their decision (revisions.yaml, kind: game_added).
    data["sources"] = [{"seed": seed, "section": title}] if seed is not None else []
    return data | STARTS[kind]


def _game_kind(section: str, section_kind: str, kind: str | None) -> str:
    """What kind of game a new game of ``section`` is: its section's, or ``kind`` where the section holds several."""
    if kind is not None and kind != section_kind and section_kind != "equipment":
        raise RulebookError(_("section '%(section)s' holds %(section_kind)s games: leave --kind out, or choose "
                              "another section with --section", section=section, section_kind=section_kind))
    kind = kind or {"tournament": "cards"}.get(section_kind, section_kind)
    if kind == "equipment":
        raise RulebookError(_("section '%(section)s' holds games of several kinds: say which with --kind "
                              "(%(equipment_kinds)s)", section=section, equipment_kinds=', '.join(EQUIPMENT_KINDS)))
    if section_kind == "equipment" and kind not in EQUIPMENT_KINDS:
        raise RulebookError(_("section '%(section)s' holds equipment games: --kind is one of %(equipment_kinds)s",
                              section=section, equipment_kinds=', '.join(EQUIPMENT_KINDS)))
    return kind


def _title(root: Path, game: str) -> str:
    """A listed game's title as the book sorts it ('10 Dime Rummy'); its id if its file cannot be read."""
    from ..book.loader import read_yaml

    try:
        title = read_yaml(root / DATA_DIR / f"{game}.yaml", f"{DATA_DIR}/{game}.yaml", root).data.get("title")
    except (SourceError, AttributeError):
        return game
    return title if isinstance(title, str) else game


def _place(root: Path, games: list[str], title: str) -> int:
    """Where a game titled ``title`` goes among ``games``: the book orders its games by title, as its index does."""
    titles = [_title(root, g).lower() for g in games]
    return next((j for j, t in enumerate(titles) if t > title.lower()), len(games))


def new_game(root: Path, name: str, edition: str, section: str | None = None, seed: str | None = None,
             sources: list[str] | None = None, kind: str | None = None) -> list[Path]:
    """Create the two files and list the game in book.yaml's section (the first one if None), in the book's
    alphabetical order; return the files written. ``seed``: the document it comes from, one of ``sources``
    (book.yaml's); none given, it cites none. ``kind``: the game's kind, for a section holding several."""
    slug = slugify(name)
    title = name.strip()
    if not _plain_text(slug):
        raise RulebookError(_("%(name)s makes the id '%(slug)s', which YAML reads as %(as_read)s, not as a name: "
                              "give the game a longer name (for example 'No Thanks' rather than 'No', 'Game 1000' "
                              "rather than '1000')", name=echo(name), slug=slug, as_read=_as_read(slug)))
    try:  # the name is the game's title: what the loader refuses in a file is refused here, before one is written
        control_characters(title, "the name")
    except SourceError as exc:
        raise RulebookError(f"{echo(name)}: {exc.problem}") from None
    why = reserved(slug)
    if why:
        raise RulebookError(_("%(name)s makes an id the book cannot use: %(why)s: give the game a longer name (for "
                              "example %(longer)s or %(other)s)", name=echo(name), why=why,
                              longer=echo(title + " Rummy"), other=echo("House " + title)))
    sources = sources or []
    if seed is not None and seed not in sources:
        listed = ", ".join(sources) or "none"
        raise RulebookError(_("'%(seed)s' is not one of the documents %(data_dir)s/%(book_file)s lists under sources "
                              "(%(listed)s): add it there first (seed: and title:), then name it with --source",
                              seed=seed, data_dir=DATA_DIR, book_file=BOOK_FILE, listed=listed))
    data = root / DATA_DIR / f"{slug}.yaml"
    page = root / CONTENT_DIR / f"{slug}.md"
    for path in (data, page):
        if path.exists():
            raise RulebookError(_("%(file)s already exists", file=path.relative_to(root)))
    book = root / DATA_DIR / BOOK_FILE
    edited = BookFile(read_source_text(book, BOOK_PATH, root))
    sections = edited.data.get("sections") or []
    ids = [s.get("id") for s in sections]
    section = section if section is not None else (ids[0] if ids else None)
    if section not in ids:
        raise RulebookError(f"{BOOK_PATH} has no section '{section}': name one of its sections with "
                            f"--section ({', '.join(map(str, ids)) or 'it has none: add one under sections:'})")
    i = ids.index(section)
    section = str(section)  # as the loader reads it (the round trip's own string type is for writing back)
    section_kind = str(sections[i].get("kind") or section)
    game_kind = _game_kind(section, section_kind, kind)
    edited.list_game(i, slug, _place(root, list(sections[i].get("games") or []), title))
    listed = edited.text()
    body = HEADER + emit(game_data(slug, title, section, game_kind, edition, seed))
    if seed is None:
        body = body.replace("sources: []\n", "sources: []  # none given: the book's own game (cite a document of "
                                             "book.yaml's sources if it has one)\n", 1)
    facts, goal = prose(game_kind, words.current())
    # Each file whole or not at all, book.yaml last: stopped anywhere (a full disk), the new files are removed and
    # book.yaml is as it was, so the command can simply be run again
    written: list[Path] = []
    try:
        for path, text in ((data, body), (page, facts + tail(words.current(), goal))):
            write_source(path, text)
            written.append(path)
        write_source(book, listed)
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise
    return [data, page, book]


def _as_read(slug: str) -> str:
    """What YAML makes of ``slug`` written plain: 'a boolean (false)', 'a number (1000.0)'."""
    value = yaml.safe_load(io.StringIO(slug))  # a string, not a file: StringIO says so to the door's scan
    if isinstance(value, bool):
        return _("a boolean (%(value)s)", value=str(value).lower())
    if value is None:
        return "nothing (null)"
    if isinstance(value, (int, float)):
        return _("a number (%(value)s)", value=value)
    try:
        return _("a number (%(value)s)", value=float(slug))
    except ValueError:
        return "a YAML 1.1 boolean (y, n) or a number"


def run(root: Path, name: str, section: str | None = None, source: str | None = None, kind: str | None = None) -> int:
    """``rulebook new-game NAME``: write the game's two files and say what comes next."""
    from ..book.library import load_library

    book = load_library(root).book
    for path in new_game(root, name, book.current, section, source, [d.seed for d in book.sources], kind):
        print(_("wrote %(file)s", file=path.relative_to(root)))
    # A game of the book's first edition is the book as first made, not a decision; one added to a later edition is.
    first = book.current == book.editions[0].id
    if source or first:
        print(_("next: fill in the rules, then run `make validate`"))
    else:
        print(_("next: fill in the rules, record the decision of %(whose)s to add it in rules_data/revisions.yaml (kind: "
                "game_added, game: %(game)s, edition: \"%(edition)s\", why: …), then run `make validate`",
                whose=book.decided_by, game=slugify(name), edition=book.current))
    return 0

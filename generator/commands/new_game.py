"""``rulebook new-game "Name"``: a data and prose pair that validates and builds, ready to fill in."""

from __future__ import annotations

import re
from pathlib import Path

from ..book.files import read_source_text
from ..book.library import BOOK_FILE, CONTENT_DIR, DATA_DIR
from ..errors import RulebookError

GAME = """\
# yaml-language-server: $schema=../schema/game.schema.json
id: {slug}
title: {title}
category: cards
introduced: "{edition}"
{sources}players: 2-4
equipment:
  cards:
    - decks: 1
      jokers: false  # the prose says "no jokers"; leave it out where the source does not say
deal:
  each: 7
  upcard: 1
goal:
  winner: high
  target: 500
"""

# Not a format string: {name} is a reference to the game's data, filled in when the book is built.
PROSE = """\
## Players and Cards

- {equipment.cards.0.decks} deck of cards, no jokers
- {players} people can play
- {deal.each} cards are dealt to each player and one card is turned up

## Object of the Game

- First player to {goal.target} wins.

## Game Play

- Describe a turn here.
"""


def slugify(name: str) -> str:
    """'Oh Hell!' -> 'oh-hell'."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not slug:
        raise RulebookError(f"'{name}' has no letters or digits to make a file name from")
    return slug


def _title(path: Path) -> str:
    """A game file's title as the book sorts it ('10 Dime Rummy'), read without loading the book."""
    m = re.search(r"^title: *(.+?) *$", read_source_text(path, f"{DATA_DIR}/{path.name}"), re.M) if path.exists() else None
    return m.group(1).strip("'\"") if m else path.stem


def new_game(root: Path, name: str, edition: str, section: str = "cards", seed: str | None = None,
             sources: list[str] | None = None) -> list[Path]:
    """Create the two files and list the game in book.yaml's section, in the book's alphabetical order;
    return the files written. ``seed``: the document it comes from, one of ``sources`` (book.yaml's); none given,
    it cites none."""
    slug = slugify(name)
    sources = sources or []
    if seed is not None and seed not in sources:
        listed = ", ".join(sources) or "none"
        raise RulebookError(f"'{seed}' is not one of the documents {DATA_DIR}/{BOOK_FILE} lists under sources "
                            f"({listed}): add it there first (seed: and title:), then name it with --source")
    data = root / DATA_DIR / f"{slug}.yaml"
    prose = root / CONTENT_DIR / f"{slug}.md"
    for path in (data, prose):
        if path.exists():
            raise RulebookError(f"{path.relative_to(root)} already exists")
    book = root / DATA_DIR / BOOK_FILE
    lines = read_source_text(book, f"{DATA_DIR}/{BOOK_FILE}").splitlines(keepends=True)
    # Add the game to the section's games list where the book's alphabetical order puts it (the book
    # orders its games by title, as its index does), keeping the file's comments and layout.
    title = name.replace('"', "'").strip()
    in_section, insert_at, indent = False, None, "      "
    for i, line in enumerate(lines):
        if re.match(rf"\s*- id: {section}\s*$", line):
            in_section = True
        elif in_section and re.match(r"\s*- id: ", line):
            break
        elif in_section and (m := re.match(r"(\s+)- ([a-z0-9-]+)\s*$", line)):
            indent = m.group(1)
            if _title(root / DATA_DIR / f"{m.group(2)}.yaml").lower() > title.lower():
                insert_at = i if insert_at is None or insert_at > i else insert_at
                break
            insert_at = i + 1
    if insert_at is None:
        raise RulebookError(f"cannot find the games list of section '{section}' in {book.relative_to(root)}")
    quoted = title if re.fullmatch(r"[\w !&'-]+", title) else f'"{title}"'
    # A game is cited to the document it was given, and to none it was not: the family's own game has no source,
    # and its addition is their decision (revisions.yaml, kind: game_added).
    cited = (f"sources:\n  - seed: {seed}  # the document this game comes from, as book.yaml's sources list it\n"
             f"    section: {quoted}\n") if seed is not None else (
        "sources: []  # none given: the family's own game (cite a document of book.yaml's sources if it has one)\n")
    data.write_text(GAME.format(slug=slug, title=quoted, edition=edition, sources=cited), encoding="utf-8")
    prose.write_text(PROSE, encoding="utf-8")
    lines.insert(insert_at, f"{indent}- {slug}\n")
    book.write_text("".join(lines), encoding="utf-8")
    return [data, prose, book]


def run(root: Path, name: str, section: str = "cards", source: str | None = None) -> int:
    """``rulebook new-game NAME``: write the game's two files and say what comes next."""
    from ..book.library import load_library

    book = load_library(root).book
    for path in new_game(root, name, book.current, section, source, [d.seed for d in book.sources]):
        print(f"wrote {path.relative_to(root)}")
    print("next: fill in the rules" + ("" if source else ", record the family's decision to add it in "
          f"rules_data/revisions.yaml (kind: game_added, game: {slugify(name)}, edition: \"{book.current}\", "
          "why: …)") + ", then run `make validate`")
    return 0

"""``rulebook new-game "Name"``: a data and prose pair that validates and builds, ready to fill in."""

from __future__ import annotations

import re
from pathlib import Path

from .errors import RulebookError
from .library import BOOK_FILE, CONTENT_DIR, DATA_DIR

GAME = """\
# yaml-language-server: $schema=../schema/game.schema.json
id: {slug}
title: {title}
category: cards
introduced: "{edition}"
sources:
  - seed: 000_321aee1cc9de258a.txt  # change to the source this game comes from
    section: {title}
players: 2-4
equipment:
  cards:
    - decks: 1
deal:
  each: 7
  upcard: 1
goal:
  winner: high
  target: 500
"""

PROSE = """\
## Players and Cards

- {{equipment.cards.0.decks}} deck of cards, no jokers
- {{players}} people can play
- {{deal.each}} cards are dealt to each player and one card is turned up

## Object of the Game

- First player to {{goal.target}} wins.

## Game Play

- Describe a turn here.
"""


def slugify(name: str) -> str:
    """'Oh Hell!' -> 'oh-hell'."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not slug:
        raise RulebookError(f"'{name}' has no letters or digits to make a file name from")
    return slug


def new_game(root: Path, name: str, edition: str, section: str = "cards") -> list[Path]:
    """Create the two files and list the game in book.yaml's section; return the files written."""
    slug = slugify(name)
    data = root / DATA_DIR / f"{slug}.yaml"
    prose = root / CONTENT_DIR / f"{slug}.md"
    for path in (data, prose):
        if path.exists():
            raise RulebookError(f"{path.relative_to(root)} already exists")
    book = root / DATA_DIR / BOOK_FILE
    lines = book.read_text(encoding="utf-8").splitlines(keepends=True)
    # Add the game at the end of the section's games list, keeping the file's comments and layout.
    in_section, insert_at, indent = False, None, "      "
    for i, line in enumerate(lines):
        if re.match(rf"\s*- id: {section}\s*$", line):
            in_section = True
        elif in_section and re.match(r"\s*- id: ", line):
            break
        elif in_section and re.match(r"\s+- [a-z0-9-]+\s*$", line):
            insert_at, indent = i + 1, line[: len(line) - len(line.lstrip())]
    if insert_at is None:
        raise RulebookError(f"cannot find the games list of section '{section}' in {book.relative_to(root)}")
    title = name.replace('"', "'").strip()
    data.write_text(GAME.format(slug=slug, title=title if re.fullmatch(r"[\w !&'-]+", title) else f'"{title}"',
                                edition=edition), encoding="utf-8")
    prose.write_text(PROSE, encoding="utf-8")
    lines.insert(insert_at, f"{indent}- {slug}\n")
    book.write_text("".join(lines), encoding="utf-8")
    return [data, prose, book]

"""A tiny project built around one fixture game, for exercising one check at a time."""

from __future__ import annotations

from pathlib import Path

import yaml

# A one-game book's game: Demo Rummy, of the fixture's one source, for the tests that need any valid game.
DEMO_GAME = """\
id: demo
title: Demo Rummy
category: cards
introduced: "2026.1"
sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]
players: 2-4
equipment: {cards: [{decks: 1}]}
deal: {each: 7}
goal: {winner: low, target: 100}
"""

BOOK = """\
title: Fixture Book
author: Tests
description: A book of one fixture game.
accent: "{accent}"
editions:
  - {edition}
current: "{current}"
index_title: Index of Games
sources:
  - {{seed: 000_321aee1cc9de258a.txt, title: the fixture's source}}
pages:
  - {pages}
sections:
  - id: cards
    title: Cards required
    games: [{cards}]
  - id: equipment
    title: Equipment required
    games: [{equipment}]
  - id: tournament
    title: Tournament
    games: [{tournament}]
{more_sections}{extra}"""


def make_project(root: Path, fixture: dict) -> Path:
    """Write book.yaml, the fixture's games and prose, and an About page under ``root``."""
    data, content = root / "rules_data", root / "content"
    data.mkdir(parents=True)
    content.mkdir()
    sections: dict[str, list[str]] = {"cards": [], "equipment": [], "tournament": []}
    for game_text in fixture["games"]:
        game = yaml.safe_load(game_text)
        # listed in the section its category names, unless the fixture lists it elsewhere ({listed_in: {game: section}})
        sections[fixture.get("listed_in", {}).get(game["id"], game["category"])].append(game["id"])
        (data / f"{game['id']}.yaml").write_text(game_text, encoding="utf-8")
        prose = fixture.get("prose", {}).get(game["id"], "## Rules\n\nPlay well.\n")
        (content / f"{game['id']}.md").write_text(prose, encoding="utf-8")
    for key, prose in fixture.get("prose", {}).items():  # a variant's prose ('game.variant'), or a page's
        if "." in key or not (data / f"{key}.yaml").exists():
            (content / f"{key}.md").write_text(prose, encoding="utf-8")
    edition = fixture.get("edition", '{id: "2026.1", year: 2026, revision: 1, label: Revision 1 (Jan/2026), date: "2026-01-01"}')
    (data / "book.yaml").write_text(BOOK.format(extra=fixture.get("book", ""), edition=edition,
                                                current=fixture.get("current", "2026.1"), accent=fixture.get("accent", "#1f4d2b"),
                                                pages=fixture.get("pages", "{id: about, title: About}"),
                                                more_sections=fixture.get("sections", ""),
                                                **{k: ", ".join(v) for k, v in sections.items()}), encoding="utf-8")
    (content / "about.md").write_text(fixture.get("about", "A family book.\n"), encoding="utf-8")
    for name, text in fixture.get("templates", {}).items():  # the book's own templates: {path in templates/: text}
        (root / "templates" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "templates" / name).write_text(text, encoding="utf-8")
    if "accepted" in fixture:
        (data / "accepted.yaml").write_text(fixture["accepted"], encoding="utf-8")
    if "confusables" in fixture:
        (data / "confusables.txt").write_text(fixture["confusables"], encoding="utf-8")
    if "dictionary" in fixture:
        (data / "dictionary.txt").write_text(fixture["dictionary"], encoding="utf-8")
    if "freeze" in fixture:  # publish an edition as the files are now, then edit them: {freeze: ID, then: [[file, old, new]]}
        from generator.book.frozen import write
        from generator.book.library import load_library
        write(load_library(root, fixture["freeze"]))
        for file, old, new in fixture.get("then", []):  # old "": write the file whole
            text = (root / file).read_text(encoding="utf-8") if old else ""
            assert old in text, (file, old)
            (root / file).write_text(text.replace(old, new) if old else new, encoding="utf-8")
    return root


def findings_with(book: Path, where: str, text: str, check: str) -> list:
    """The findings of ``check`` in ``book`` with ``text`` written on lines of its own at the end of its file
    ``where``; the file is put back as it was."""
    from generator.book.library import load_library
    from generator.checks import run_checks

    path = book / where
    before = path.read_text(encoding="utf-8")
    path.write_text(before + "\n" + text + "\n", encoding="utf-8")
    try:
        return run_checks(load_library(book), only=[check])
    finally:
        path.write_text(before, encoding="utf-8")

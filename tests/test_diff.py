"""``rulebook diff``: every kind of edit reads as one line, old → new, and no field goes unseen."""

from __future__ import annotations

import copy
import re
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from generator.book.compare import as_printed, compare, compare_game, lines, markdown
from generator.book.library import GameSource, load_library
from generator.book.model import Game
from tests.conftest import ROOT

# (file, text before, text after, the line `rulebook diff` must print). One row per kind of change.
EDITS = [
    ("players", "rules_data/euchre.yaml", "players: 4\n", "players: 5\n", "Euchre, players: 4 → 5"),
    ("equipment", "rules_data/euchre.yaml", "keep: 9-A", "keep: 10-A", "Euchre, equipment, cards, line 1, keep: 9-A → 10-A"),
    ("deal", "rules_data/euchre.yaml", "  each: 5\n", "  each: 6\n", "Euchre, deal, cards each: 5 → 6"),
    ("goal", "rules_data/euchre.yaml", "target: 10", "target: 11", "Euchre, goal, target: 10 → 11"),
    ("scoring value", "rules_data/golf.yaml", "points: -10,", "points: -20,",
     "Golf, scoring, Block of 4 cards, points: −10 → −20"),
    ("round total", "rules_data/canadian-salad.yaml", "points: 5, stated_total: 130}", "points: 5, stated_total: 125}",
     "Canadian Salad, Round 1, Red cards, stated total: 130 → 125"),
    ("scoring line added", "rules_data/golf.yaml", "      - {label: Ace, cards: A, points: 1, value: \"{points}\"}\n",
     "      - {label: Ace, cards: A, points: 1, value: \"{points}\"}\n      - {label: Twos, per: combination, points: 2}\n",
     "Golf, scoring, Twos: added (per combination, points 2)"),
    ("variant", "rules_data/golf.yaml", "      each: 6\n", "      each: 7\n",
     "Golf, variant Six Card Golf, deal, cards each: 6 → 7"),
    ("alternate rule", "rules_data/dice-10000.yaml", "its monotonous", "its tedious",
     "Dice, alternate rules, rule 2, text: “– Some people play to exactly zero, we "
     "do not as its ~~monotonous~~ **tedious** and \"no fun\"”"),
    ("worked example", "rules_data/oh-hell.yaml", "stated: 11, label: with a 1 in front",
     "stated: 12, label: with a 1 in front", "Oh Hell!, worked example, Example, with a 1 in front, stated: 11 → 12"),
    ("prose", "content/euchre.md", "First team to {goal.target} wins the game", "First team to {goal.target} wins the match",
     "Euchre, text: “First team to 10 wins the ~~game~~ **match**”"),
    ("book page", "content/general-rules.md", "dramatically", "very dramatically",
     "Page “General Rules”: “This are not “Our Official Rules” but can change the way the game plays out "
     "**very** dramatically if used.”"),
    # A list of plain values: the item that changed, never the whole list before and after.
    ("list item added", "rules_data/horseshit-rummy.yaml", 'remove: ["2s"]', 'remove: ["2s", "3s"]',
     "Horseshit Rummy, equipment, cards, line 1, remove: added (3s)"),
    ("list item removed", "rules_data/horseshit-rummy.yaml", 'remove: ["2s"]', "remove: []",
     "Horseshit Rummy, equipment, cards, line 1, remove: removed (2s)"),
    ("list item changed", "rules_data/court-whist.yaml", "fields: [Name]", "fields: [Team]",
     "Court Whist, score sheet, fields: Name → Team"),
    ("list item moved", "rules_data/book.yaml", "      - dice-10000\n      - chicken-foot\n",
     "      - chicken-foot\n      - dice-10000\n", "Equipment required, games, chicken-foot: place 2 → place 1"),
]


@pytest.fixture(scope="module")
def before():
    return load_library(ROOT)


def _edited(tmp_path: Path, file: str, old: str, new: str) -> Path:
    for folder in ("rules_data", "content"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    path = tmp_path / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{file} no longer contains {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("kind", "file", "old", "new", "line"), EDITS, ids=[e[0] for e in EDITS])
def test_each_kind_of_edit_reads_as_one_line(before, tmp_path, kind, file, old, new, line):
    summary = compare(before, load_library(_edited(tmp_path, file, old, new)))
    text = markdown(summary, "x")
    book = line.startswith(("Page", "Equipment required"))  # the book's own pages and data
    game, _, rest = line.partition(", ") if not book else ("The book", "", line)
    assert f"### {game}" in text
    assert f"- {rest[:1].upper()}{rest[1:]}" in text.splitlines(), text
    assert len(summary.changes) == 1, lines(summary)


def test_the_record_names_game_path_old_and_new(before, tmp_path):
    summary = compare(before, load_library(_edited(tmp_path, "rules_data/golf.yaml", "points: -10,", "points: -20,")))
    [change] = summary.changes
    assert (change.game, change.path, change.old, change.new) == ("Golf", "scoring.cards.items.7.points", -10, -20)
    assert lines(summary) == ["Golf, Scoring, Block of 4 cards, points: −10 → −20"]


def test_plain_text_marks_changed_words_without_markdown(before, tmp_path):
    project = _edited(tmp_path, "content/euchre.md", "wins the game", "wins the match")
    assert lines(compare(before, load_library(project))) == [
        "Euchre, text: “First team to 10 wins the [-game-] {+match+}”"]


def test_no_change_says_so(before):
    assert "No change to the rules." in markdown(compare(before, before), "x")


def _leaves(data, path=()):
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _leaves(v, path + (i,))
    else:
        yield path, data


def _mutated(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    return value + " x" if isinstance(value, str) else None


def test_every_field_of_every_game_is_compared(before):
    """Each value in every game file, changed on its own, is reported at its path (or its item's)."""
    checked = 0
    for gs in before.games.values():
        for path, value in _leaves(gs.doc.data):
            if value is None:
                continue  # 'null' has no neighbour to change it to
            data = copy.deepcopy(gs.doc.data)
            node = data
            for part in path[:-1]:
                node = node[part]
            node[path[-1]] = _mutated(value)
            try:
                game = Game.model_validate(data)
            except ValidationError:
                continue  # the change is not valid data (a card phrase, an id): the loader refuses it
            changes = compare_game(gs, GameSource(game, gs.doc, gs.prose, gs.variant_prose), before, before)
            dotted = ".".join(map(str, path))
            assert changes, f"{gs.id}: {dotted} changed and diff saw nothing"
            exact = [c for c in changes if c.path == dotted]
            if exact:
                # Data text reads as printed: references resolved, an item's own fields first ('{count} of a kind').
                items, node = [], gs.doc.data
                for part in path[:-1]:
                    node = node[part]
                    if isinstance(part, int) and isinstance(node, dict):
                        items.insert(0, node)
                scope = [*items, gs.doc.data, before.scope()]
                shown = [as_printed(v, scope) if isinstance(v, str) else v for v in (value, _mutated(value))]
                assert [exact[0].old, exact[0].new] == shown, dotted
            else:  # a name changed: the item it names is reported removed and added
                assert any(dotted.startswith(c.path + ".") for c in changes), (dotted, changes)
            checked += 1
    assert checked > 1000


def test_what_changed_page_uses_the_same_lines():
    from generator.render.site.docs import changes_page

    page = changes_page(load_library(ROOT))
    assert "- Variant Four-Card Golf: added" in page
    assert "~~" not in page  # the theme has no strikethrough: removed words are <del>
    assert "the way the game plays out <del>dramitically</del> **dramatically** if used." in page
    assert "notallowed" not in page  # Four-Card Golf is new in 2026.2: one line, not its sentences
    assert "- Index title: Alphapetical Index of Games → Alphabetical Index of Games" in page
    # Each game under its own heading as the book prints it: the tournament's corrections are not Gin Rummy's.
    sections = dict(re.findall(r"^### (.+)\n\n((?:- .*\n)+)", page, re.M))
    assert sections["Gin Rummy"] == "- Game added\n"
    assert sections["Gin Rummy (Tournament Rules)"].count("<del>oponent") >= 5
    assert "Dice (10,000)" in sections and "Dice" not in sections
    # References read as printed (an item's own '{count} of a kind'); an edition's name has one pair of brackets.
    assert not re.search(r"\{[a-z_.0-9]+\}", page), re.findall(r".*\{[a-z_.0-9]+\}.*", page)
    assert "Rolled in one roll, 3 of a kind" in sections["Dice (10,000)"]
    assert "From 2026.1 – Revision 1 (Jan/2026) to 2026.2 – Revision 2 (Nov/2026)" in page
    assert not re.search(r"\([^()]*\([^()]*\)[^()]*\)", page)



def test_the_site_writes_the_what_changed_page_changes_page_makes(tmp_path):
    from generator.render.site.docs import changes_page, write_docs

    lib = load_library(ROOT)
    write_docs(lib, tmp_path / "docs")
    assert (tmp_path / "docs" / "changes.md").read_text(encoding="utf-8") == changes_page(lib)


def test_the_command_gives_records_as_json_and_lines_as_text(tmp_path):
    import json
    import subprocess
    import sys

    after = _edited(tmp_path / "after", "rules_data/golf.yaml", "points: -10,", "points: -20,")
    args = [sys.executable, "-m", "generator", "diff", str(ROOT), str(after), "--format"]
    records = json.loads(subprocess.run([*args, "json"], capture_output=True, text=True, check=True).stdout)
    assert records == [{"game": "Golf", "path": "scoring.cards.items.7.points",
                        "label": "Scoring, Block of 4 cards, points", "old": -10, "new": -20, "game_id": "golf"}]
    text = subprocess.run([*args, "text"], capture_output=True, text=True, check=True).stdout
    assert text == "Golf, Scoring, Block of 4 cards, points: −10 → −20\n"

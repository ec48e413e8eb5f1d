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
from tests.checkfix import make_project
from tests.conftest import ROOT

# A book of the tests' own (``checkfix.make_project``) with a field of every kind the rows below change: the
# Metzker book's values and sentences are never what a test of ``diff`` reads, so a correction to them breaks none.
GAMES = {
    "trumps": """\
id: trumps
title: Trumps
category: cards
introduced: "2026.1"
sources: [{seed: 000_321aee1cc9de258a.txt, section: Trumps}]
players: 4
equipment:
  cards:
    - decks: 1
      keep: 9-A
deal:
  each: 5
  upcard: 1
goal:
  winner: first_to_target
  target: 10
""",
    "golfish": """\
id: golfish
title: Golfish
category: cards
introduced: "2026.1"
sources: [{seed: 000_321aee1cc9de258a.txt, section: Golfish}]
players: 2-6
equipment:
  cards:
    - decks: 1
      remove: ["2s"]
deal: {each: 4}
goal: {winner: low}
scoring:
  cards:
    title: Scoring
    kind: card_values
    items:
      - {label: Kings, cards: K, points: 0, value: "{points:score}"}
      - {label: Ace, cards: A, points: 1, value: "{points}"}
      - {label: Block of 4 cards, per: combination, points: -10, value: "{points:score}"}
score_sheet:
  title: Golfish score card
  fields: [Name]
  blocks:
    - round: Hole
variants:
  - id: six-card
    title: Six Card Golfish
    introduced: "2026.1"
    sources: [{seed: 000_321aee1cc9de258a.txt, section: Six Card Golfish}]
    deal:
      each: 6
""",
    "salad": """\
id: salad
title: Salad Bowl
category: cards
introduced: "2026.1"
sources: [{seed: 000_321aee1cc9de258a.txt, section: Salad Bowl}]
players: 4
equipment: {cards: [{decks: 1}]}
deal: {each: all}
goal: {winner: low}
rounds:
  items:
    - name: Round 1
      scoring: [{label: Red cards, cards: red, points: 5, stated_total: 130}]
""",
    "bids": """\
id: bids
title: Bids
category: cards
introduced: "2026.1"
sources: [{seed: 000_321aee1cc9de258a.txt, section: Bids}]
players: 3-7
equipment: {cards: [{decks: 1}]}
deal: {each: 7}
goal: {winner: high, target: 500}
alternate_rules:
  rules:
    - number: 1
      text: – Some people play to {goal.target:word}.
    - number: 2
      text: – Some people play to exactly 100, we do not as its monotonous and "no fun"
examples:
  exact_bid:
    title: Example
    values:
      bid: {stated: 1, label: bid}
      score: {expr: "10 + bid", stated: 11, label: with a 1 in front}
""",
}
PROSE = {"trumps": "## Rules\n\n- Deal five cards each\n- First team to {goal.target} wins the game\n"}
ABOUT = "These are not the club's own rules, but they can change the way the game plays out dramatically if used.\n"

# (file, text before, text after, the line `rulebook diff` must print). One row per kind of change.
EDITS = [
    ("players", "rules_data/trumps.yaml", "players: 4\n", "players: 5\n", "Trumps, players: 4 → 5"),
    ("equipment", "rules_data/trumps.yaml", "keep: 9-A", "keep: 10-A", "Trumps, equipment, cards, line 1, keep: 9-A → 10-A"),
    ("deal", "rules_data/trumps.yaml", "  each: 5\n", "  each: 6\n", "Trumps, deal, cards each: 5 → 6"),
    ("goal", "rules_data/trumps.yaml", "target: 10", "target: 11", "Trumps, goal, target: 10 → 11"),
    ("scoring value", "rules_data/golfish.yaml", "points: -10,", "points: -20,",
     "Golfish, scoring, Block of 4 cards, points: −10 → −20"),
    ("round total", "rules_data/salad.yaml", "points: 5, stated_total: 130}", "points: 5, stated_total: 125}",
     "Salad Bowl, Round 1, Red cards, stated total: 130 → 125"),
    ("scoring line added", "rules_data/golfish.yaml", "      - {label: Ace, cards: A, points: 1, value: \"{points}\"}\n",
     "      - {label: Ace, cards: A, points: 1, value: \"{points}\"}\n      - {label: Twos, per: combination, points: 2}\n",
     "Golfish, scoring, Twos: added (per combination, points 2)"),
    ("variant", "rules_data/golfish.yaml", "      each: 6\n", "      each: 7\n",
     "Golfish, variant Six Card Golfish, deal, cards each: 6 → 7"),
    ("alternate rule", "rules_data/bids.yaml", "its monotonous", "its tedious",
     "Bids, alternate rules, rule 2, text: “– Some people play to exactly 100, we "
     "do not as its ~~monotonous~~ **tedious** and \"no fun\"”"),
    ("worked example", "rules_data/bids.yaml", "stated: 11, label: with a 1 in front",
     "stated: 12, label: with a 1 in front", "Bids, worked example, Example, with a 1 in front, stated: 11 → 12"),
    ("prose", "content/trumps.md", "First team to {goal.target} wins the game", "First team to {goal.target} wins the match",
     "Trumps, text: “First team to 10 wins the ~~game~~ **match**”"),
    ("book page", "content/about.md", "dramatically", "very dramatically",
     "Page “About”: “These are not the club's own rules, but they can change the way the game plays out **very** "
     "dramatically if used.”"),
    # A list of plain values: the item that changed, never the whole list before and after.
    ("list item added", "rules_data/golfish.yaml", 'remove: ["2s"]', 'remove: ["2s", "3s"]',
     "Golfish, equipment, cards, line 1, remove: added (3s)"),
    ("list item removed", "rules_data/golfish.yaml", 'remove: ["2s"]', "remove: []",
     "Golfish, equipment, cards, line 1, remove: removed (2s)"),
    ("list item changed", "rules_data/golfish.yaml", "fields: [Name]", "fields: [Team]",
     "Golfish, score sheet, fields: Name → Team"),
    ("list item moved", "rules_data/book.yaml", "games: [trumps, golfish,", "games: [golfish, trumps,",
     "Cards required, games, golfish: place 2 → place 1"),
]


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """The tests' book, as every row's change starts from."""
    return make_project(tmp_path_factory.mktemp("diff") / "book", {"games": list(GAMES.values()), "prose": PROSE,
                                                                   "about": ABOUT})


@pytest.fixture(scope="module")
def before(book):
    return load_library(book)


def _edited(book: Path, tmp_path: Path, file: str, old: str, new: str) -> Path:
    for folder in ("rules_data", "content"):
        shutil.copytree(book / folder, tmp_path / folder)
    path = tmp_path / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{file} no longer contains {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("kind", "file", "old", "new", "line"), EDITS, ids=[e[0] for e in EDITS])
def test_each_kind_of_edit_reads_as_one_line(book, before, tmp_path, kind, file, old, new, line):
    summary = compare(before, load_library(_edited(book, tmp_path, file, old, new)))
    text = markdown(summary, "x")
    whole_book = line.startswith(("Page", "Cards required"))  # the book's own pages and data
    game, _, rest = line.partition(", ") if not whole_book else ("The book", "", line)
    assert f"### {game}" in text
    assert f"- {rest[:1].upper()}{rest[1:]}" in text.splitlines(), text
    assert len(summary.changes) == 1, lines(summary)


def test_the_record_names_game_path_old_and_new(book, before, tmp_path):
    summary = compare(before, load_library(_edited(book, tmp_path, "rules_data/golfish.yaml", "points: -10,",
                                                   "points: -20,")))
    [change] = summary.changes
    assert (change.game, change.path, change.old, change.new) == ("Golfish", "scoring.cards.items.2.points", -10, -20)
    assert lines(summary) == ["Golfish, Scoring, Block of 4 cards, points: −10 → −20"]


def test_plain_text_marks_changed_words_without_markdown(book, before, tmp_path):
    project = _edited(book, tmp_path, "content/trumps.md", "wins the game", "wins the match")
    assert lines(compare(before, load_library(project))) == ["Trumps, text: “First team to 10 wins the [-game-] {+match+}”"]


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


def test_every_field_of_every_game_is_compared():
    """Each value in every game file, changed on its own, is reported at its path (or its item's). Run over the Metzker
    book, whose games hold a field of every kind the model has (more than a thousand values): no value of it is
    named here, each is changed to its neighbour, so a correction to the book changes what is compared, not the
    outcome."""
    before = load_library(ROOT)
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


@pytest.fixture(scope="module")
def editions(tmp_path_factory) -> Path:
    """The pull-request tests' book (``tests/pullrequests.py``: errata of a game's data, the book's data and a page of
    its own, a variant added), and a game its 2026.2 adds from a document it takes in."""
    from generator.cli import main
    from tests.pullrequests import pr_book

    book = pr_book(tmp_path_factory.mktemp("editions") / "book")
    assert main(["--root", str(book), "new-game", "Late Rummy", "--source", "002_blog.txt"]) == 0
    return book


def test_what_changed_page_uses_the_same_lines(editions):
    from generator.render.site.docs import changes_page

    page = changes_page(load_library(editions))
    assert "- Variant Late Sevens: added" in page
    assert "~~" not in page  # the theme has no strikethrough: removed words are <del>
    assert "these games on <del>Fridy</del> **Friday** nights since" in page
    assert "nine cards" not in page  # Late Sevens is new in 2026.2: one line, not its sentences
    assert "- Index title: Indx of Games → Index of Games" in page
    # Each game under its own heading as the book prints it: a game's corrections are under its own.
    sections = dict(re.findall(r"^### (.+)\n\n((?:- .*\n)+)", page, re.M))
    assert sections["Late Rummy"] == "- Game added\n"
    assert "Dice (Ten Thousand)" in sections and "Dice" not in sections
    assert sections["Dice (Ten Thousand)"].count("<del>Teh</del>") == 1 and "Teh" not in sections["Sevens"]
    # References read as printed (an item's own '{count} dice'); an edition's name has one pair of brackets.
    assert not re.search(r"\{[a-z_.0-9]+\}", page), re.findall(r".*\{[a-z_.0-9]+\}.*", page)
    assert "Rolled in one roll, Three of a kind, value: “<del>Teh</del> **The** face in hundreds, for 3 dice”" in \
        sections["Dice (Ten Thousand)"]
    assert "From 2026.1 – Revision 1 (Jan/2026) to 2026.2 – Revision 2 (Nov/2026)" in page
    assert not re.search(r"\([^()]*\([^()]*\)[^()]*\)", page)


def test_the_site_writes_the_what_changed_page_changes_page_makes(editions, tmp_path):
    from generator.render.site.docs import changes_page, write_docs

    lib = load_library(editions)
    write_docs(lib, tmp_path / "docs")
    assert (tmp_path / "docs" / "changes.md").read_text(encoding="utf-8") == changes_page(lib)


def test_the_command_gives_records_as_json_and_lines_as_text(book, tmp_path):
    import json
    import subprocess
    import sys

    after = _edited(book, tmp_path / "after", "rules_data/golfish.yaml", "points: -10,", "points: -20,")
    args = [sys.executable, "-m", "generator", "diff", str(book), str(after), "--format"]
    records = json.loads(subprocess.run([*args, "json"], capture_output=True, text=True, check=True).stdout)
    assert records == [{"game": "Golfish", "path": "scoring.cards.items.2.points",
                        "label": "Scoring, Block of 4 cards, points", "old": -10, "new": -20, "game_id": "golfish"}]
    text = subprocess.run([*args, "text"], capture_output=True, text=True, check=True).stdout
    assert text == "Golfish, Scoring, Block of 4 cards, points: −10 → −20\n"

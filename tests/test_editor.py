"""book.yaml is edited in one place, ``generator/book/editor.py`` (issue 58): a round trip that keeps the file's comments,
quotes, flow and block lists, and blank lines, and changes only what the edit is about.

A table of each kind of edit `rulebook init`, `new-game`, `edition new` and a record's seal make, each on a text
holding comments where a line editor loses or misplaces them, with the whole text it must give; then the commands
themselves on a book whose every comment must survive them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from generator.book.editor import BookFile, scalar
from generator.cli import main

# (book.yaml's text, the edit, the text it gives)
EDITS = {
    "new-game: into a list, between two games, comments on the lines around": (
        "sections:\n  - id: cards\n    # the card games, by title\n    games:\n      - alpha  # first\n"
        "      # then\n      - gamma\nother: 1  # kept\n",
        lambda b: b.list_game(0, "beta", 1),
        "sections:\n  - id: cards\n    # the card games, by title\n    games:\n      - alpha  # first\n"
        "      # then\n      - beta\n      - gamma\nother: 1  # kept\n"),
    "new-game: at the end of a list, the next section's comment after it": (
        "sections:\n  - id: c\n    games:\n      - alpha  # one\n  # the next section\n  - id: d\n",
        lambda b: b.list_game(0, "beta", 1),
        "sections:\n  - id: c\n    games:\n      - alpha  # one\n      - beta\n  # the next section\n  - id: d\n"),
    "new-game: into games: [] with a comment": (
        "sections:\n  - id: boards\n    games: []  # none yet\n",
        lambda b: b.list_game(0, "beta", 0),
        "sections:\n  - id: boards\n    games:     # none yet\n      - beta\n"),
    "new-game: into a flow list, written one a line": (
        "sections:\n  - id: f\n    games: [alpha, gamma]  # two\n",
        lambda b: b.list_game(0, "beta", 1),
        "sections:\n  - id: f\n    games:                 # two\n      - alpha\n      - beta\n      - gamma\n"),
    "new-game: a section with no games key, the file's last comment after it": (
        "sections:\n  - id: tiles\n    kind: dominoes  # tiles\n# the end\n\nx: 1\n",
        lambda b: b.list_game(0, "beta", 0),
        "sections:\n  - id: tiles\n    kind: dominoes  # tiles\n    games:\n      - beta\n# the end\n\nx: 1\n"),
    "new-game: a section written on one line": (
        "sections:\n  - {id: f, games: [alpha]}\n",
        lambda b: b.list_game(0, "beta", 1),
        "sections:\n  - {id: f, games: [alpha, beta]}\n"),
    "edition new: appended, made current, added to the printed index's editions": (
        'editions:\n  - id: "2026.1"\n    # as printed\n    pages_as_printed: true\n  - {id: "2026.2", year: 2026}\n'
        'current: "2026.2"  # now\nprinted_index:\n  editions: ["2026.1", "2026.2"]\n',
        lambda b: b.add_edition("2026.3", "Revision 3: Dec/2026", "2026-12-20", True),
        'editions:\n  - id: "2026.1"\n    # as printed\n    pages_as_printed: true\n  - {id: "2026.2", year: 2026}\n'
        '  - id: "2026.3"\n    year: 2026\n    revision: 3\n    label: "Revision 3: Dec/2026"\n    date: "2026-12-20"\n'
        'current: "2026.3"  # now\nprinted_index:\n  editions: ["2026.1", "2026.2", "2026.3"]\n'),
    "edition new: the comment before current: stays before it; a block list of editions": (
        'editions:\n  - id: "2026.1"\n    date: "2026-01-01"  # the day\n# the current edition, below\n\n'
        'current: "2026.1"\nprinted_index:\n  editions:\n    - "2026.1"\n',
        lambda b: b.add_edition("2026.2", "Revision 2 (Nov/2026)", "2026-11-21", True),
        'editions:\n  - id: "2026.1"\n    date: "2026-01-01"  # the day\n  - id: "2026.2"\n    year: 2026\n'
        '    revision: 2\n    label: Revision 2 (Nov/2026)\n    date: "2026-11-21"\n# the current edition, below\n\n'
        'current: "2026.2"\nprinted_index:\n  editions:\n    - "2026.1"\n    - "2026.2"\n'),
    "new-game: a file laid out as PyYAML writes it (lists not indented under their key) keeps its layout": (
        "sources:\n- seed: a\n  title: b  # kept\nsections:\n- id: c\n  games:\n  - alpha\n  - gamma\nx:\n    y: 1\n",
        lambda b: b.list_game(0, "beta", 1),
        "sources:\n- seed: a\n  title: b  # kept\nsections:\n- id: c\n  games:\n  - alpha\n  - beta\n  - gamma\nx:\n"
        "    y: 1\n"),
    "seal: a flow mapping": (
        'editions:\n  - {id: "2026.1", year: 2026}\n',
        lambda b: b.seal("2026.1", "sha256:aa"),
        'editions:\n  - {id: "2026.1", year: 2026, record: "sha256:aa"}\n'),
    "seal: a block mapping, its comment and the blank line after it kept": (
        'editions:\n  - id: "2026.1"\n    # a comment\n    pages_as_printed: true\n\n  - id: "2026.2"\n',
        lambda b: b.seal("2026.1", "sha256:aa"),
        'editions:\n  - id: "2026.1"\n    # a comment\n    pages_as_printed: true\n    record: "sha256:aa"\n\n'
        '  - id: "2026.2"\n'),
    "seal: a record sealed before, replaced where it is": (
        'editions:\n  - id: "2026.1"\n    record: "sha256:aa"  # sealed\n    year: 2026\n',
        lambda b: b.seal("2026.1", "sha256:bb"),
        'editions:\n  - id: "2026.1"\n    record: "sha256:bb"  # sealed\n    year: 2026\n'),
}


@pytest.mark.parametrize("case", sorted(EDITS))
def test_an_edit_of_book_yaml_keeps_its_comments_and_changes_only_what_it_is_about(case: str) -> None:
    text, edit, expected = EDITS[case]
    edited = BookFile(text)
    edit(edited)
    assert edited.text() == expected


# What init writes for a value it fills in (the title, the author, a label): read back as typed by a YAML reader.
VALUES = ["The Pine Street Book", "Rummy: the Sequel", 'Rummy "Deluxe"', "Grandma's Games", "No", "2026.1", "#1 Games",
          "- Dash", "@Home", "Null", "100% Games", "Ünïcödé"]


@pytest.mark.parametrize("value", VALUES)
def test_a_value_init_fills_in_reads_back_as_typed(value: str) -> None:
    assert yaml.safe_load(f"title: {scalar(value)}\n") == {"title": value}


def test_new_game_and_edition_new_keep_every_comment_of_the_book(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The commands themselves: a book made by init, commented by its editors, takes a game in two sections and opens
    its next edition, and every comment it had is still there, on the line it was written on or where it moved with
    its line."""
    book = tmp_path / "book"
    assert main(["init", str(book), "--title", "The Pine Street Book"]) == 0
    data = book / "rules_data" / "book.yaml"
    text = data.read_text(encoding="utf-8")
    text = text.replace("    games: []\n", "    games: []  # none yet\n", 1).replace(
        "current:", "# the edition being written\ncurrent:", 1) + "# the end of the book's data\n"
    data.write_text(text, encoding="utf-8")
    comments = [line.split("#", 1)[1] for line in text.splitlines() if "#" in line]
    assert main(["--root", str(book), "new-game", "Yacht", "--section", "dice"]) == 0
    assert main(["--root", str(book), "new-game", "Crazy Eights", "--section", "cards"]) == 0
    year = int(yaml.safe_load(text)["current"].split(".")[0])
    assert main(["--root", str(book), "edition", "new", f"{year}.2", "--label", f"Revision 2 (Dec/{year})",
                 "--date", f"{year}-12-20"]) == 0, capsys.readouterr().err
    after = data.read_text(encoding="utf-8")
    assert [c for c in comments if c not in after] == []
    assert after.endswith("# the end of the book's data\n")
    assert after.index("# the edition being written") < after.index("current:") and "- crazy-eights" in after

"""A bad edit gets `path:line: what is wrong; write ... instead`, exit 1, no traceback, no build.

On the tests' own small book (tests/conftest.py ``SMALL_BOOK``): a correction to the Metzker book moves no line here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SMALL_BOOK, copy_project

YAML = "rules_data/euchre.yaml"
PROSE = "content/euchre.md"

# (kind, file, text before, text after, text on the line the message must name, the message after `path:line[:col]: `)
CASES = [
    ("indentation deeper", YAML, "\n  each: 5\n", "\n    each: 5\n", "  upcard: 1",
     "wrong indentation: this line is indented 2 spaces and line 16 above it 4; keys of one block start in the same "
     "column, so write them with the same indentation instead"),
    ("indentation shallower", YAML, "\n  upcard: 1\n", "\n upcard: 1\n", " upcard: 1",
     "wrong indentation: this line is indented 1 space and line 16 above it 2;"),
    ("indented into a value", YAML, "\n  upcard: 1\n", "\n   upcard: 1\n", "   upcard: 1",
     "this line is indented more than line 16 ('each: 5'), so YAML reads it as part of that value; write it with "
     "2 spaces like line 16 instead"),
    ("tab", YAML, "\n  each: 5\n", "\n\teach: 5\n", "\teach: 5",
     "a tab character; YAML is indented with spaces only: write spaces instead of the tab"),
    ("missing colon", YAML, "\n  each: 5\n", "\n  each 5\n", "  each 5",
     "'each 5' has no colon after its key; write 'each: 5' instead"),
    ("missing colon, last key", YAML, "\n  upcard: 1\n", "\n  upcard 1\n", "  upcard 1",
     "'upcard 1' has no colon after its key; write 'upcard: 1' instead"),
    ("unclosed quote", YAML, "value: other team", "value: \"other team", "value: \"other team",
     "a quote opened on this line is never closed; write the closing quote at the end of the value instead"),
    ("unknown field", YAML, "\n  each: 5\n", "\n  eahc: 5\n", "  eahc: 5", "unknown key 'eahc'; write 'each' instead"),
    ("misspelt reference", PROSE, "{goal.target} wins", "{goal.targte} wins", "{goal.targte} wins",
     "reference.unknown: '{goal.targte}' does not name anything in the data; write '{goal.target}' instead"),
    ("number for a phrase", YAML, "keep: 9-A", "keep: 9", "keep: 9",
     "equipment.cards.0.keep: Input should be a valid string (found 9); write keep: \"9\" (in quotes) instead"),
    ("word for a number", YAML, "target: 10", "target: ten", "target: ten",
     "goal.target: Input should be a valid integer (found 'ten'); write target: 10 instead"),
    ("number word for a count", YAML, "\n  each: 5\n", "\n  each: seven\n", "  each: seven", "write each: 7 instead"),
    ("fraction for a whole number", YAML, "\n  each: 5\n", "\n  each: 3.5\n", "  each: 3.5",
     "write each: followed by a whole number instead"),
    ("doubled braces", PROSE, "{goal.target} wins", "{{goal.target}} wins", "{{goal.target}} wins",
     "reference.unknown: doubled braces print a brace around the value: write {goal.target} instead"),
    ("a game listed twice", "rules_data/book.yaml", "      - trash\n", "      - trash\n      - euchre  # again\n",
     "euchre  # again", "'euchre' is listed twice (also in section"),
    ("two games with one name", "rules_data/trash.yaml", "\ntitle: Trash\n", "\ntitle: Hearts\n", "title: Hearts",
     "'Hearts' is also the title of hearts"),
    ("not a player count", YAML, "\nplayers: 4\n", "\nplayers: four and more\n", "players: four",
     "players: 'four and more' is not a player count (found 'four and more'); write '2-4', '2 or 4', 'any' instead"),
    ("not a card phrase", YAML, "keep: 9-A", "keep: 9-Z", "keep: 9-Z",
     "equipment.cards.0.keep: card phrase '9-Z': '9-Z' is not a range of ranks (found '9-Z'); write a phrase such "
     "as 'K', 'red 7', '9-A'"),
    ("not one of the choices", YAML, "winner: first_to_target", "winner: first", "winner: first",
     "goal.winner: Input should be 'high', 'low', 'first_out', 'last_standing', 'first_to_target' or 'race' "
     "(found 'first'); write one of 'high',"),
    ("erratum at a wrong path", "rules_data/errata.yaml", "    path: index_title\n", "    path: index_titel\n",
     "path: index_titel", "erratum 'index-title-spelling': rules_data/book.yaml has no value at 'index_titel'"),
]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    return copy_project(tmp_path_factory.mktemp("pristine"), SMALL_BOOK)


def _project(pristine: Path, tmp_path: Path, file: str, old: str, new: str) -> Path:
    import shutil

    project = tmp_path / "p"
    shutil.copytree(pristine, project)
    path = project / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{file} no longer contains {old!r} once"
    path.write_text(text.replace(old, new), encoding="utf-8")
    site = project / "build" / "site"  # the last good build, which a failed one must leave alone
    site.mkdir(parents=True)
    (site / "index.html").write_text("last good build", encoding="utf-8")
    return project


@pytest.mark.parametrize(("kind", "file", "old", "new", "anchor", "message"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("command", ["validate", "build"])
def test_a_bad_edit_names_file_line_and_what_to_write(pristine, tmp_path, command, kind, file, old, new, anchor,
                                                      message):
    project = _project(pristine, tmp_path, file, old, new)
    line = next(n for n, text in enumerate((project / file).read_text(encoding="utf-8").splitlines(), 1)
                if anchor in text)
    args = ["build", "--site-only"] if command == "build" else ["validate"]
    result = subprocess.run([sys.executable, "-m", "generator", "--root", str(project), *args],
                            capture_output=True, text=True)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Traceback" not in output
    found = [text for text in output.splitlines() if text.startswith(f"{file}:{line}:")]
    assert found, f"no line starts with {file}:{line}:\n{output}"
    assert any(message in text and "instead" in text for text in found), found
    assert (project / "build" / "site" / "index.html").read_text(encoding="utf-8") == "last good build"
    assert sorted(p.name for p in (project / "build").iterdir()) == ["site"]


def test_a_file_that_is_not_utf8_says_how_to_save_it(pristine, tmp_path):
    project = _project(pristine, tmp_path, PROSE, "wins the game", "wins the game")
    path = project / PROSE
    path.write_bytes(path.read_bytes().replace(b"wins the game", b"wins the g\xe9me"))
    result = subprocess.run([sys.executable, "-m", "generator", "--root", str(project), "validate"],
                            capture_output=True, text=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{PROSE}:9:" in result.stderr and "save the file as UTF-8 instead" in result.stderr

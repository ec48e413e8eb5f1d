"""A character that prints nothing (a zero-width space, a soft hyphen, a joiner, a mark of direction, a tag) is refused
wherever the book's text is, prose, titles, values and ids, written or as a YAML escape, in one line at its place
(issue 59): "1\u200b50" shows 150 and is read as no number, a title with one is another title. The book is the tests'
own small one (``tests/pullrequests.py``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.cli import main
from tests.pullrequests import edit, pr_book


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    return pr_book(tmp_path_factory.mktemp("invisible") / "repo", games=("knock-golf",))


# case: (the file, the text there, what it becomes, the line and column the character is at, its name)
CASES = {
    "a zero-width space inside a number of the prose": (
        "content/knock-golf.md", "Keep the scoresheet", "Keep 1\u200b50 points and the scoresheet", (3, 57),
        "U+200B ZERO WIDTH SPACE"),
    "a soft hyphen in a word of the prose": (
        "content/knock-golf.md", "highest score", "high\u00adest score", (5, 9), "U+00AD SOFT HYPHEN"),
    "a joiner in a title": ("rules_data/knock-golf.yaml", "title: Knock Golf", "title: Knock\u2060Golf", (2, 13),
                            "U+2060 WORD JOINER"),
    "a mark of direction in an id": ("rules_data/knock-golf.yaml", "id: knock-golf", "id: knock-golf\u200e", (1, 15),
                                     "U+200E LEFT-TO-RIGHT MARK"),
    "a tag in a value": ("rules_data/knock-golf.yaml", "  each: 6", "  each: 6\U000e0031", (13, 10),
                         "U+E0031 TAG DIGIT ONE"),
    "a byte-order mark inside the text": ("rules_data/knock-golf.yaml", "players: Any", "players: An\ufeffy", (8, 12),
                                          "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    "a zero-width space as a YAML escape": ("rules_data/knock-golf.yaml", "title: Knock Golf",
                                            'title: "Knock\\u200bGolf"', (2, None), "U+200B ZERO WIDTH SPACE"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_character_that_prints_nothing_is_refused_where_it_is(book, tmp_path, capsys, case):
    file, old, new, (line, column), name = CASES[case]
    repo = tmp_path / "book"
    shutil.copytree(book, repo)
    edit(repo, file, old, new)
    assert main(["--root", str(repo), "validate"]) == 1
    out = capsys.readouterr()
    said = [row for row in (out.out + out.err).splitlines() if "invisible character" in row]
    assert len(said) == 1, out.out + out.err
    assert said[0].startswith(f"{file}:{line}:" + (f"{column}:" if column else "")), said[0]
    assert f"({name})" in said[0] and "delete it" in said[0]
    assert "Traceback" not in out.err


def test_a_suits_emoji_keeps_its_variation_selector(book, tmp_path, capsys):
    """The variation selector that makes ♥ an emoji (U+FE0F) prints as part of it: not refused."""
    repo = tmp_path / "book"
    shutil.copytree(book, repo)
    edit(repo, "content/knock-golf.md", "Keep the scoresheet", "Hearts (\u2665\ufe0f) are trumps. Keep the scoresheet")
    main(["--root", str(repo), "validate"])
    out = capsys.readouterr()
    assert "invisible character" not in out.out + out.err and "control character" not in out.out + out.err

"""Every changed word of the open edition is shown (issue 59): a changed word, number or negation is a line of its own
in the summary, however many typographic edits (quotes, dashes, spaces) surround it, which are said together in one
line. On the tests' own small book (``tests/pullrequests.py``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.commands.check_pr import check_pr
from tests.pullrequests import append, pr_book

RULES = 35  # lines alike: each has straight quotes a change makes curly


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """The book with a variant of the open edition (Late Sevens, 2026.2) of 35 lines alike, committed."""
    def lines(repo: Path) -> None:
        append(repo, "content/sevens.late-sevens.md", "\n" + "\n\n".join(
            f"Rule {n}: a player can't pass and doesn't draw -- on turn {n}." for n in range(1, RULES + 1)) + "\n")
    return pr_book(tmp_path_factory.mktemp("words") / "repo", first=lines)


def _curly(text: str) -> str:
    return text.replace("can't", "can’t").replace("doesn't", "doesn’t").replace(" -- ", " — ")


# case: (the one line's edit among the typographic ones, as (old, new) in line 17; the line the summary must show)
CASES = {
    "a negation flipped": ("a player can’t pass", "a player can pass",
                           "“Rule 17: a player ~~can't~~ **can** pass and doesn't draw - on turn 17.”"),
    "a number changed": ("on turn 17.", "on turn 71.", "“Rule 17: a player can't pass and doesn't draw - on turn "
                                                       "~~17.~~ **71.**”"),
    "a word changed": ("doesn’t draw", "doesn’t discard", "“Rule 17: a player can't pass and doesn't ~~draw~~ "
                                                          "**discard** - on turn 17.”"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_changed_word_is_a_line_of_its_own_among_typographic_edits(book, tmp_path, case):
    old, new, shown = CASES[case]
    repo = tmp_path / "pr"
    shutil.copytree(book, repo)
    path = repo / "content/sevens.late-sevens.md"
    text = _curly(path.read_text(encoding="utf-8"))
    line = next(row for row in text.splitlines() if row.startswith("Rule 17:"))
    path.write_text(text.replace(line, line.replace(old, new)), encoding="utf-8")
    code, _, summary = check_pr(repo, "HEAD")
    assert code == 0, summary
    edits = summary[summary.index("#### Sevens"):summary.index("## Every file")]
    rows = [row for row in edits.splitlines() if row.startswith("- ")]
    assert rows == [f"- Variant Late Sevens, text: {shown}",
                    f"- {RULES - 1} lines whose only edits are typographic (quotes, apostrophes, dashes, spaces): no "
                    "word, number or negation of them changes"], edits


def test_typographic_edits_alone_are_one_line(book, tmp_path):
    repo = tmp_path / "pr"
    shutil.copytree(book, repo)
    path = repo / "content/sevens.late-sevens.md"
    path.write_text(_curly(path.read_text(encoding="utf-8")), encoding="utf-8")
    code, _, summary = check_pr(repo, "HEAD")
    edits = summary[summary.index("#### Sevens"):summary.index("## Every file")]
    assert [row for row in edits.splitlines() if row.startswith("- ")] == [
        f"- {RULES} lines whose only edits are typographic (quotes, apostrophes, dashes, spaces): no word, number or "
        "negation of them changes"], edits


def test_a_changed_text_value_is_named_by_its_field(tmp_path):
    """A text value inside a mapping (a goal's qualifiers) is named by its key: a text's own methods are no name (it
    showed as “<built-in method title of str object>”)."""
    from tests.pullrequests import edit

    repo = pr_book(tmp_path / "repo", games=("ten-dice",), first=lambda r: edit(
        r, "rules_data/ten-dice.yaml", "  target: 10000\n", "  target: 10000\n  qualifiers: {target: at least}\n"))
    edit(repo, "rules_data/ten-dice.yaml", "qualifiers: {target: at least}", "qualifiers: {target: up to}")
    _, _, summary = check_pr(repo, "HEAD")
    assert "- Goal, qualifiers, target: at least → up to" in summary, summary
    assert "built-in" not in summary

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


def _section(summary: str, heading: str) -> str:
    """The summary's lines from ``heading`` to the next heading of its level or above."""
    level = heading.split()[0]
    rows = summary[summary.index(heading):].splitlines()
    end = next((n for n, row in enumerate(rows[1:], 1) if row.startswith("#") and len(row.split()[0]) <= len(level)),
               len(rows))
    return "\n".join(rows[:end])


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
    edits = _section(summary, "#### Sevens")
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
    edits = _section(summary, "#### Sevens")
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


# -- a game renamed or moved is matched to its old self ----------------------------------------------------------------

PUB = ('revisions:\n  - id: pub-rummy-added\n    edition: "2026.2"\n    date: "2026-11-20"\n    kind: game_added\n'
       '    game: pub-rummy\n    why: The club plays it.\n')


@pytest.fixture(scope="module")
def pub(tmp_path_factory) -> Path:
    """The book with Pub Rummy added in the open edition (play to 500), committed."""
    from generator.cli import main
    from tests.pullrequests import commit, edit

    repo = pr_book(tmp_path_factory.mktemp("pub") / "repo", games=("knock-golf",))
    assert main(["--root", str(repo), "new-game", "Pub Rummy"]) == 0
    edit(repo, "rules_data/revisions.yaml", "revisions: []\n", PUB)
    return commit(repo, "Pub Rummy")


def _renamed(repo: Path) -> None:
    """Pub Rummy made Tavern Rummy (its id, files and title), played to 50 on the way."""
    from tests.pullrequests import edit

    (repo / "rules_data/pub-rummy.yaml").rename(repo / "rules_data/tavern-rummy.yaml")
    (repo / "content/pub-rummy.md").rename(repo / "content/tavern-rummy.md")
    edit(repo, "rules_data/tavern-rummy.yaml", "id: pub-rummy\ntitle: Pub Rummy", "id: tavern-rummy\ntitle: Tavern Rummy")
    edit(repo, "rules_data/tavern-rummy.yaml", "target: 500", "target: 50")
    edit(repo, "rules_data/book.yaml", "- pub-rummy", "- tavern-rummy")


def _replaced(repo: Path) -> None:
    """Pub Rummy gone, and another game (Ten Thousand Dice's data and prose, under a new id) come."""
    from tests.pullrequests import BOOK, edit

    (repo / "rules_data/pub-rummy.yaml").unlink()
    (repo / "content/pub-rummy.md").unlink()
    text = (BOOK / "rules_data/ten-dice.yaml").read_text(encoding="utf-8")
    (repo / "rules_data/dice-pub.yaml").write_text(text.replace("id: ten-dice", "id: dice-pub"), encoding="utf-8")
    shutil.copy(BOOK / "content/ten-dice.md", repo / "content/dice-pub.md")
    edit(repo, "rules_data/book.yaml", "- pub-rummy", "- dice-pub")


# case: (the change; the lines its game's section must have, or None when no game is matched)
RENAMES = {
    "renamed, a value changed": (_renamed, ["#### Pub Rummy → Tavern Rummy (`rules_data/pub-rummy.yaml` → "
                                            "`rules_data/tavern-rummy.yaml`)", "- Goal, target: 500 → 50",
                                            "- Title: Pub Rummy → Tavern Rummy"]),
    "one game gone, another come": (_replaced, None),
}


@pytest.mark.parametrize("case", list(RENAMES))
def test_a_renamed_game_is_matched_to_its_old_self_and_its_values_said(pub, tmp_path, case):
    change, lines = RENAMES[case]
    repo = tmp_path / "pr"
    shutil.copytree(pub, repo)
    change(repo)
    _, _, summary = check_pr(repo, "HEAD")
    if lines is None:
        assert "### Games this change renames or moves" not in summary, summary
        assert "### Games this change adds" in summary
        return
    section = _section(summary, "### Games this change renames or moves")
    rows = section.splitlines()
    assert all(line in rows for line in lines), section
    assert "### Games this change adds" not in summary  # said with its old self, not as a game new to the book

"""A released edition's readers see the same book (issue 59): every page of the site of each edition published at the
base, as the site writes it (the words every page states, by the book's templates), is compared from the base and
from the change; a page that differs fails the check (released.changed), naming the edition, the page and the words.
The ways of the issue (goal words of a published game changed in place, a template that changes a rule only for the
editions before 2026.2) and others of the same kinds, and what the site says of the book on every page (its
description, in the meta tags); a change to the open edition alone is free, and so is what the published edition's
own record allows: a correction or a decision made by a later edition, which is undone for it (the same recorded as
made by the published edition itself is not). On the tests' own
small book (``tests/pullrequests.py``: 2026.1 published, 2026.2 current)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.commands.check_pr import check_pr
from tests.pullrequests import append, edit, pr_book


def _qualified(repo: Path) -> None:
    """Ten Thousand's goal as 2026.1 printed it: at least 10,000."""
    edit(repo, "rules_data/ten-dice.yaml", "  target: 10000\n", "  target: 10000\n  qualifiers: {target: at least}\n")


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return pr_book(tmp_path_factory.mktemp("released") / "repo", games=("knock-golf", "sevens", "ten-dice"),
                   first=_qualified)


def _older_only(repo: Path) -> None:
    """The book's own game page template, which adds a rule to the editions before 2026.2 alone."""
    from generator.book.files import TOOL_TEMPLATES

    (repo / "templates/site").mkdir(parents=True)
    text = (TOOL_TEMPLATES / "site/game.md.j2").read_text(encoding="utf-8")
    (repo / "templates/site/game.md.j2").write_text(
        text + '\n{% if edition.id < "2026.2" %}Hearts may be led at any time.{% endif %}\n', encoding="utf-8")


def _recorded(kind: str, edition: str):
    """A change of a published word or number, recorded as made by ``edition``: an erratum (the dealer's right, not
    left) or a decision (Ten Thousand played to 8,000). Made by the open edition, the record undoes it for the
    published one, which reads as printed; recorded as made by the published edition itself, it rewrites that."""
    def change(repo: Path) -> None:
        if kind == "erratum":
            edit(repo, "content/knock-golf.md", "dealer’s left", "dealer’s right")
            append(repo, "rules_data/errata.yaml", f"""  - id: golf-right
    edition: "{edition}"
    file: content/knock-golf.md
    published: dealer’s left
    corrected: dealer’s right
    check: proofread
    note: The other side.
    evidence:
      kind: usage
      why: "“left” is written for “right”."
""")
        else:
            edit(repo, "rules_data/ten-dice.yaml", "  target: 10000\n", "  target: 8000\n")
            edit(repo, "rules_data/revisions.yaml", "revisions: []", f"""revisions:
  - id: dice-to-eight
    edition: "{edition}"
    date: "2026-10-01"
    kind: target
    why: The club plays to 8,000.
    file: rules_data/ten-dice.yaml
    path: goal.target
    before: 10000
    after: 8000""")
    return change


# case: (the change; the page of 2026.1 named (None: what its site says of the book), and words of the error; or None:
# the change is free)
CASES = {
    "goal words flipped in place": (
        lambda r: edit(r, "rules_data/ten-dice.yaml", "{target: at least}", "{target: up to}"),
        ("games/ten-dice.md", "play to [-at least-] {+up to+} 10,000")),
    "a template that changes a rule before 2026.2 only": (
        _older_only, ("games/knock-golf.md", "{+Hearts may be led at any time.+}")),
    "the book's title": (
        lambda r: edit(r, "rules_data/book.yaml", "title: The Parlour Book of Games", "title: The Parlor Book of Games"),
        ("index.md", "# The [-Parlour-] {+Parlor+} Book of Games")),
    "who decides, said on the errata page": (
        lambda r: edit(r, "rules_data/book.yaml", "decided_by: the club", "decided_by: the committee"),
        ("errata.md", "committee")),
    "the book's description, which only the pages' meta tags and the app print": (
        lambda r: edit(r, "rules_data/book.yaml", "description: The games", "description: Games"),
        (None, "read of the book on every page of its site (its description, in the pages' meta tags and the "
               "installed app's): “The games the club plays")),
    # What the edition's record allows: a correction or a decision made by a later edition (it is undone for 2026.1);
    # the same recorded as made by 2026.1 itself rewrites what 2026.1 printed
    "an erratum of the open edition": (_recorded("erratum", "2026.2"), None),
    "an erratum recorded for the published edition": (
        _recorded("erratum", "2026.1"), ("games/knock-golf.md", "dealer's [-left.-] {+right.+}")),
    "a decision of the open edition": (_recorded("revision", "2026.2"), None),
    "a decision recorded for the published edition": (
        _recorded("revision", "2026.1"), ("games/ten-dice.md", '{+!!! info "Changed in 2026.1" The club plays to 8,000.')),
    "the open edition's variant alone": (
        lambda r: edit(r, "content/sevens.late-sevens.md", "nine cards each", "ten cards each"), None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_published_editions_pages_are_as_they_were(base, tmp_path, case):
    change, named = CASES[case]
    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    change(repo)
    code, annotations, summary = check_pr(repo, "HEAD")
    changed = [a for a in annotations if "title=released.changed::" in a]
    if named is None:
        assert changed == [], changed
        return
    page, words = named
    assert code == 1, summary
    [said] = [a for a in changed if (f"its site page {page} (changed)" if page else words) in a]
    assert "the readers of 2026.1, published" in said and words in said, said
    assert "released.changed" in summary.split("## What this change")[0]  # among the errors the summary leads with


def test_every_page_of_the_open_edition_a_change_alters_is_named_with_its_words(base, tmp_path):
    """Not only the pages the pictures draw: each page of the open edition's site the change alters, compared whole,
    with the first words it changes (its typographic edits aside)."""
    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    edit(repo, "content/sevens.late-sevens.md", "nine cards each", "ten cards each")
    edit(repo, "content/knock-golf.md", "dealer’s left", "dealer's left")  # typographic: 2026.1's too, though
    _, _, summary = check_pr(repo, "HEAD")
    section = summary[summary.index("### Every page of the open edition this change alters"):]
    rows = [row for row in section.split("\n\n## ")[0].splitlines() if row.startswith("- ")]
    assert rows == ["- `games/knock-golf.md` (changed): “its only edits are typographic (quotes, apostrophes, dashes, "
                    "spaces)”", "- `games/sevens.md` (changed): “Play the first hand with \\[-nine-\\] {+ten+} cards each, then one fewer "
                    "each hand.”"], rows

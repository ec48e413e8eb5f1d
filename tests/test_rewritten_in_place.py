"""What a change may not rewrite in place, and a list that licenses later changes shown with what it will let
through (issue 59): a published edition's own entry in book.yaml (its label and date, whether it is laid out as
printed, its number) is as it was published, the seal and the current edition's entry aside; a decision recorded is
never rewritten nor erased (a new decision changes it); a confusable pair added is shown with every place its words
stand. On the tests' own small book (``tests/pullrequests.py``: 2026.1 published, 2026.2 current)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.commands.check_pr import check_pr
from tests.pullrequests import edit, pr_book

ENTRY = '''  - id: "2026.1"
    year: 2026
    revision: 1
    label: Revision 1 (Jan/2026)
    date: "2026-01-01"
'''


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return pr_book(tmp_path_factory.mktemp("entry") / "repo", games=("knock-golf",))


# case: (the edit of book.yaml, as (old, new); the words the error has, or None when the change is free)
CASES = {
    "the label its cover prints": (("label: Revision 1 (Jan/2026)", "label: Revision 1 (Feb/2026)"),
                                   "label 'Revision 1 (Jan/2026)' → 'Revision 1 (Feb/2026)'"),
    "its date": (('date: "2026-01-01"', 'date: "2026-02-01"'), "date '2026-01-01' → '2026-02-01'"),
    "laid out as printed": (('    date: "2026-01-01"\n', '    date: "2026-01-01"\n    pages_as_printed: true\n'),
                            "pages_as_printed False → True"),
    "a number given": (('    date: "2026-01-01"\n', '    date: "2026-01-01"\n    edition_number: 3\n'),
                       "edition_number None → 3"),
    "the current edition's label": (("label: Revision 2 (Nov/2026)", "label: Revision 2 (Dec/2026)"), None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_published_editions_entry_is_as_it_was_published(base, tmp_path, case):
    (old, new), words = CASES[case]
    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    text = (repo / "rules_data/book.yaml").read_text(encoding="utf-8")
    assert ENTRY in text
    edit(repo, "rules_data/book.yaml", old, new)
    code, annotations, summary = check_pr(repo, "HEAD")
    errors = [a for a in annotations if "title=frozen.changed::" in a and "edits the entry of edition 2026.1" in a]
    if words is None:
        assert code == 0 and errors == [], summary
        return
    line = text.splitlines().index('  - id: "2026.1"') + 1
    assert code == 1 and len(errors) == 1 and words in errors[0], annotations
    assert errors[0].startswith(f"::error file=rules_data/book.yaml,line={line},"), errors[0]


NEXT = """  - id: "{id}"
    year: {year}
    revision: {revision}
    label: Revision {revision} ({year})
    date: "{year}-12-01"
"""
# case: (the edition made current, and the entry added for it, if any; the words the error has, or None: it is free)
CURRENT = {
    "the published edition opened again": ("2026.1", None, "2026.1 was published at its base"),
    "an edition before the open one": ("2025.9", dict(id="2025.9", year=2025, revision=9), "2025.9 comes before 2026.2"),
    "the next edition opened": ("2026.3", dict(id="2026.3", year=2026, revision=3), None),
}


@pytest.mark.parametrize("case", list(CURRENT))
def test_which_editions_are_published_is_the_bases_to_say(base, tmp_path, case):
    """The current edition a change names is the base's, or one it opens after it: never one the base published
    (the next change could rewrite it as the open edition), nor one before the base's current edition."""
    current, entry, words = CURRENT[case]
    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    if entry is not None:
        edit(repo, "rules_data/book.yaml", "editions:\n", "editions:\n" + NEXT.format(**entry))
    edit(repo, "rules_data/book.yaml", 'current: "2026.2"', f'current: "{current}"')
    code, annotations, summary = check_pr(repo, "HEAD")
    errors = [a for a in annotations if "title=frozen.changed::" in a and "the current edition in place of" in a]
    if words is None:
        assert errors == [], annotations
        return
    line = (repo / "rules_data/book.yaml").read_text(encoding="utf-8").splitlines().index(f'current: "{current}"') + 1
    assert code == 1 and len(errors) == 1 and words in errors[0], annotations
    assert errors[0].startswith(f"::error file=rules_data/book.yaml,line={line},"), errors[0]


DECISION = ('revisions:\n  - id: pub-rummy-added\n    edition: "2026.2"\n    date: "2026-11-20"\n    kind: game_added\n'
            '    game: pub-rummy\n    why: The club plays it at the pub.\n')


@pytest.fixture(scope="module")
def decided(tmp_path_factory) -> Path:
    """The book with a decision recorded (Pub Rummy added, in the open edition), committed: the base."""
    from generator.cli import main
    from tests.pullrequests import commit

    repo = pr_book(tmp_path_factory.mktemp("decided") / "repo", games=("knock-golf",))
    assert main(["--root", str(repo), "new-game", "Pub Rummy"]) == 0
    edit(repo, "rules_data/revisions.yaml", "revisions: []\n", DECISION)
    return commit(repo, "the club's decision: Pub Rummy")


# case: (the edit of revisions.yaml, as (old, new); the words the error has; its line: the decision's, or the list's)
DECISIONS = {
    "its reason rewritten": (("why: The club plays it at the pub.", "why: Nobody asked the club."),
                             "why 'The club plays it at the pub.' → 'Nobody asked the club.'", 2),
    "its date moved": (('date: "2026-11-20"', 'date: "2026-11-02"'), "date '2026-11-20' → '2026-11-02'", 2),
    "erased": ((DECISION, "revisions: []\n"), "removes the decision pub-rummy-added", 1),
}


@pytest.mark.parametrize("case", list(DECISIONS))
def test_a_recorded_decision_is_never_rewritten_in_place(decided, tmp_path, case):
    """Changing a decision is a new decision: one rewritten or erased fails the check at it, old and new said."""
    (old, new), words, line = DECISIONS[case]
    repo = tmp_path / "pr"
    shutil.copytree(decided, repo)
    edit(repo, "rules_data/revisions.yaml", old, new)
    code, annotations, summary = check_pr(repo, "HEAD")
    errors = [a for a in annotations if "title=decision.rewritten::" in a]
    assert code == 1 and len(errors) == 1 and words in errors[0], annotations
    assert errors[0].startswith(f"::error file=rules_data/revisions.yaml,line={line},"), errors[0]


def test_a_new_decision_beside_the_recorded_one_is_free(decided, tmp_path):
    repo = tmp_path / "pr"
    shutil.copytree(decided, repo)
    (repo / "rules_data/revisions.yaml").write_text(
        DECISION + '  - id: pub-rummy-retired\n    edition: "2026.2"\n    date: "2026-11-30"\n    kind: game_retired\n'
                   "    game: pub-rummy\n    why: The pub closed.\n", encoding="utf-8")
    code, annotations, summary = check_pr(repo, "HEAD")
    assert not [a for a in annotations if "decision.rewritten" in a], annotations


# -- a list that licenses later changes is shown with what it will let through -----------------------------------------

# case: (the group added to confusables.txt; the places the summary must name, as `file:line` “word”; how many)
GROUPS = {
    "a word the book has": ("lead led", ["`content/lady.md:3` “led”"], 1),
    "words the book does not have": ("loose lose", [], 0),
}


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    return pr_book(tmp_path_factory.mktemp("whole") / "repo")


@pytest.mark.parametrize("case", list(GROUPS))
def test_a_confusable_pair_is_shown_with_the_places_its_words_stand(whole, tmp_path, case):
    """Adding a confusable pair is a warning that lands; the next pull request may then call a swap of its words a
    usage fix. The summary names every place the pair's words stand in the book, where that swap could be made."""
    from tests.pullrequests import append

    group, places, count = GROUPS[case]
    repo = tmp_path / "pr"
    shutil.copytree(whole, repo)
    append(repo, "rules_data/confusables.txt", group + "\n")
    code, annotations, summary = check_pr(repo, "HEAD")
    [entry] = [line for line in summary.splitlines() if "adds the group of confusable words" in line
               and "list.changed" not in line]
    below = summary.split(entry, 1)[1].split("\n- ", 1)[0]
    if count:
        assert f"what it will let through: a later change that swaps its words, called a usage fix, at {count} " \
               f"place{'s' if count != 1 else ''} where they stand: " + ", ".join(places) in below, below
    else:
        assert "what it will let through" not in below, below

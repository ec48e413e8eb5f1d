"""The pull-request check on fixture pull requests (temporary git repositories, no network): validation
first and always, an annotation for every error and each new warning, the summary errors first."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from generator.cli import main
from tests.conftest import copy_project


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@localhost", *args],
                   check=True, capture_output=True)


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """The project as it is, committed: the base every fixture pull request starts from."""
    repo = copy_project(tmp_path_factory.mktemp("base") / "repo")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    return repo


def _edit(repo: Path, file: str, old: str, new: str) -> None:
    path = repo / file
    text = path.read_text(encoding="utf-8")
    assert old in text, (file, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _new_game(repo: Path) -> None:
    assert main(["--root", str(repo), "new-game", "Pub Rummy"]) == 0
    # the family's own game: its addition is their decision, recorded
    _edit(repo, "rules_data/revisions.yaml", "revisions: []", 'revisions:\n  - id: pub-rummy-added\n    edition: "2026.2"\n'
          '    date: "2026-11-20"\n    kind: game_added\n    game: pub-rummy\n    why: The family plays it at the pub.')


# name: (the change, exit code, annotations that must be there ("level file:line check"), words the summary has)
PRS = {
    "YAML typo": (lambda r: _edit(r, "rules_data/euchre.yaml", "\n  each: 5\n", "\n  each 5\n"), 1,
                  ["error rules_data/euchre.yaml:16 source.unreadable"], ["Not compared: this change does not load"]),
    "broken total": (lambda r: _edit(r, "rules_data/canadian-salad.yaml", "points: 5, stated_total: 130}",
                                     "points: 5, stated_total: 135}"), 1,
                     ["error rules_data/canadian-salad.yaml:25 scoring.total_mismatch",
                      "error rules_data/canadian-salad.yaml:25 edition.frozen"],
                     ["Round 1, Red cards, stated total: 130 → 135"]),
    "changed published word": (lambda r: _edit(r, "content/hearts.md", "Hearts may not be led", "Hearts may never be led"),
                               1, ["error content/hearts.md:27 edition.frozen"], ["may ~~not~~ **never** be led"]),
    "new game": (_new_game, 0, [], ["No errors.", "Pub Rummy"]),
    # the accepted warnings standing in the base are not annotated: only the new one is
    "a new warning": (
        lambda r: _edit(r, "content/basic-rummy.md", "Get rid of all the cards", "Get rid of all the cardz"), 0,
        ["warning content/basic-rummy.md:19 spelling.unknown_word"], ["1 new warning"]),
}


@pytest.mark.parametrize("name", PRS)
def test_the_check_reports_a_pull_request(base, tmp_path, capsys, name):
    change, code, expected, words = PRS[name]
    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    change(repo)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", name)
    summary = tmp_path / "summary.md"
    assert main(["--root", str(repo), "check-pr", "--base", "HEAD~1", "--summary", str(summary)]) == code
    out = capsys.readouterr()
    annotations = [line for line in out.out.splitlines() if line.startswith("::")]
    shown = {f"{a[2:a.index(' ')]} {a[a.index('file=') + 5:a.index(',line=')]}:{a[a.index('line=') + 5:a.index(',title=')]} "
             f"{a[a.index('title=') + 6:a.index('::', 2)]}" for a in annotations}
    assert shown == set(expected) if code == 0 else set(expected) <= shown, shown
    assert "Traceback" not in out.err
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("## Check of the book")
    for w in words:
        assert w in text, (w, text)
    errors_at, diff_at = text.find("error"), text.find("What this change does")
    assert diff_at > 0 and (errors_at < diff_at or code == 0)  # errors first, then the change in words
    assert f"accepted with a reason: {_accepted(base)}" in text or code == 1  # counted once, never annotated


def _accepted(root: Path) -> int:
    """How many findings the book's acceptances cover in ``root`` (the change leaves them as they are)."""
    from generator.checks import run_checks
    from generator.library import load_library

    return sum(f.severity == "accepted" for f in run_checks(load_library(root)))

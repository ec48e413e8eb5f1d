"""Corrections by pull request: what CI tells a contributor, and what a change does to the rules."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from generator.book.library import load_library
from generator.commands.build import build
from tests.conftest import ROOT, as_published, copy_project

BIN = Path(sys.executable).parent


def rulebook(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True)


def test_workflows_lint_clean_and_are_safe_for_forks():
    workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
    assert workflows
    result = subprocess.run([str(BIN / "actionlint"), *map(str, workflows)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    for path in workflows:
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        assert "pull_request_target" not in text, path.name
        # Read-only: contents read, or nothing at all (a workflow_run judge whose jobs each ask for what they need).
        assert data["permissions"] in ({"contents": "read"}, {}), f"{path.name}: top-level permissions must be read-only"
        assert "secrets." not in text, path.name
    publish = yaml.safe_load((ROOT / ".github" / "workflows" / "publish.yml").read_text(encoding="utf-8"))
    # PyYAML reads the key `on` as True; publish follows the check of a push to main, never a pull request
    assert set(publish[True]) <= {"workflow_run", "workflow_dispatch"}
    assert publish[True]["workflow_run"]["branches"] == ["main"]


def test_yaml_files_lint_clean():
    result = subprocess.run([str(BIN / "yamllint"), "-s", ".github", "rules_data", ".pre-commit-config.yaml"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_a_changed_total_is_annotated_at_its_file_and_line(tmp_path):
    project = copy_project(tmp_path)
    path = project / "rules_data" / "canadian-salad.yaml"
    text = path.read_text(encoding="utf-8")
    old = "{label: Red cards, cards: red, points: 5, stated_total: 130}"
    assert old in text
    path.write_text(text.replace(old, old.replace("130", "125")), encoding="utf-8")
    as_published(project)  # the book as printed with the mistake: the check finds it
    line = next(n for n, text_line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if "stated_total: 125" in text_line)
    result = rulebook("--root", str(project), "validate", "--format", "github")
    assert result.returncode == 1
    expected = (f"::error file=rules_data/canadian-salad.yaml,line={line},title=scoring.total_mismatch::"
                "scoring.total_mismatch: Round 1: 26 red cards x 5 = 130, stated 125")
    assert expected in result.stdout.splitlines()
    assert re.search(r"^1 error, \d+ warnings (\(\d+ more accepted\) )?in \d+ games$", result.stdout, re.M)


def test_diff_of_two_commits_says_what_changed(tmp_path):
    repo = copy_project(tmp_path / "repo")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "before"], check=True)
    path = repo / "rules_data" / "euchre.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("target: 10", "target: 11"), encoding="utf-8")
    subprocess.run(git + ["commit", "-qam", "play to 11"], check=True)
    result = rulebook("--root", str(repo), "diff", "HEAD~1", "HEAD")
    assert result.returncode == 0, result.stderr
    assert "### Euchre" in result.stdout
    assert "- Goal, target: 10 → 11" in result.stdout.splitlines()
    assert "### Hearts" not in result.stdout


def test_new_game_scaffold_validates_and_builds(tmp_path):
    project = copy_project(tmp_path)
    result = rulebook("--root", str(project), "new-game", "Crazy Eights")
    assert result.returncode == 0, result.stderr
    assert "record the decision of the family to add it in rules_data/revisions.yaml" in result.stdout
    lib = load_library(project)
    assert "crazy-eights" in lib.games
    # The family's own game (no --source): its addition is their decision, reported until it is recorded.
    check = rulebook("--root", str(project), "validate")
    assert check.returncode == 1 and "revision.missing: introduced: 2026.2 with no revision saying why the family added it (it cites no source" in check.stdout, check.stdout
    revisions = project / "rules_data" / "revisions.yaml"
    revisions.write_text(revisions.read_text(encoding="utf-8").replace("revisions: []", (
        'revisions:\n  - id: crazy-eights-added\n    edition: "2026.2"\n    date: "2026-11-20"\n    kind: game_added\n'
        "    game: crazy-eights\n    why: The grandchildren play it every visit.")), encoding="utf-8")
    check = rulebook("--root", str(project), "validate")
    assert check.returncode == 0, check.stdout
    out = build(project, out=tmp_path / "out", pdf=False)
    assert (out / "site" / "games" / "crazy-eights" / "index.html").exists()
    again = rulebook("--root", str(project), "new-game", "Crazy Eights")
    assert again.returncode == 1 and "already exists" in again.stderr
    # Filed in the book's alphabetical order ('Chase the Ace' < 'Crazy Eights' < 'Desert Rummy'), references
    # written as references (no doubled braces), and a document the book does not list refused in one line.
    cards = next(s for s in lib.book.sections if s.id == "cards").games
    assert cards[cards.index("crazy-eights") - 1:cards.index("crazy-eights") + 2] == ["chase-the-ace", "crazy-eights", "desert-rummy"]
    assert "{{" not in (project / "content" / "crazy-eights.md").read_text(encoding="utf-8")
    other = rulebook("--root", str(project), "new-game", "Pub Rummy", "--source", "grandmas-notes.txt")
    assert other.returncode == 1 and other.stderr.count("\n") == 1 and "--source" in other.stderr
    shutil.rmtree(tmp_path / "out")

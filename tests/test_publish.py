"""``rulebook publish`` validates first: on an error it builds nothing and leaves gh-pages as it was."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from generator.cli import main

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("book.yaml", "mkdocs.yml", "pyproject.toml", "rules_data", "content", "templates", "schema", "docs")

# (file, text as it is, text broken): each edit is an error `rulebook validate` reports.
BROKEN = {
    "stated-total": ("rules_data/canadian-salad.yaml", "cards: red, points: 5, stated_total: 130",
                     "cards: red, points: 5, stated_total: 135"),
    # a word 2026.1 printed, changed without an erratum: edition.frozen
    "published-word": ("content/hearts.md", "Hearts may not be led", "Hearts may never be led"),
}


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False).stdout


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_publish_refuses_what_does_not_validate(case: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    repo = tmp_path / "book"
    repo.mkdir()
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, repo / name)
        elif src.exists():
            shutil.copy2(src, repo / name)
    rel, before, after = BROKEN[case]
    text = (repo / rel).read_text(encoding="utf-8")
    assert before in text
    (repo / rel).write_text(text.replace(before, after, 1), encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-q", "-m", "broken")
    head = _git(repo, "rev-parse", "HEAD")
    assert main(["--root", str(repo), "publish"]) == 1
    err = capsys.readouterr().err
    assert f"{rel}:" in err and "Traceback" not in err
    assert not _git(repo, "branch", "--list", "gh-pages").strip()
    assert _git(repo, "rev-parse", "HEAD") == head and not _git(repo, "status", "--porcelain").strip()

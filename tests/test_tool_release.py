"""A release of the tool that a book can pin (issue 57): a version (`rulebook --version`), a CHANGELOG entry for it, the
README installing it, every `v*` tag naming a commit of that version, and `make release` (.ci/release) refusing what
would make a bad one."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.conftest import ROOT

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def test_the_version_has_its_changelog_entry_and_the_readme_installs_it():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(VERSION)} \((unreleased|\d{{4}}-\d{{2}}-\d{{2}})\)$", changelog, re.M), VERSION
    installs = re.findall(r'pip install "rulebook @ git\+ADDRESS@(v[^"]+)"', (ROOT / "README.md").read_text(encoding="utf-8"))
    assert installs == [f"v{VERSION}"], installs


def test_every_release_tag_names_a_commit_of_its_version():
    """A tag v1.2.3 is on a commit whose pyproject.toml says 1.2.3 (a book pinned to it gets that release)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tags = subprocess.run(["git", "-C", str(ROOT), "tag", "--list", "v*"], capture_output=True, text=True).stdout.split()
    for tag in tags:
        text = subprocess.run(["git", "-C", str(ROOT), "show", f"{tag}:pyproject.toml"], capture_output=True,
                              text=True, check=True).stdout
        assert tomllib.loads(text)["project"]["version"] == tag[1:], tag


def _repo(tmp_path: Path, entry: str) -> Path:
    repo = tmp_path / "repo"
    (repo / ".ci").mkdir(parents=True)
    shutil.copy(ROOT / ".ci" / "release", repo / ".ci" / "release")
    (repo / "pyproject.toml").write_text('[project]\nname = "rulebook"\nversion = "9.8.7"\n', encoding="utf-8")
    (repo / "CHANGELOG.md").write_text(f"# Changelog\n\n{entry}\n\n- a change\n", encoding="utf-8")
    (repo / "README.md").write_text('pip install "rulebook @ git+ADDRESS@v9.8.7"\n', encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "x"]):
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@localhost", *args], check=True)
    return repo


def _release(repo: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(repo / ".ci" / "release")], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(repo), "GIT_AUTHOR_NAME": "t",
                               "GIT_COMMITTER_NAME": "t", "GIT_AUTHOR_EMAIL": "t@localhost",
                               "GIT_COMMITTER_EMAIL": "t@localhost"})


@pytest.mark.parametrize("case, entry, edit, said", [
    ("an undated entry", "## 9.8.7 (unreleased)", None, "CHANGELOG.md: no dated entry for 9.8.7"),
    ("no entry", "## 9.8.6 (2026-01-01)", None, "CHANGELOG.md: no dated entry for 9.8.7"),
    ("a dirty tree", "## 9.8.7 (2026-12-07)", "CHANGELOG.md", "the tree has uncommitted changes"),
    ("the readme installs another", "## 9.8.7 (2026-12-07)", "README.md", None),
])
def test_make_release_refuses_in_one_line(tmp_path, case, entry, edit, said):
    repo = _repo(tmp_path, entry)
    if edit == "CHANGELOG.md":
        with open(repo / edit, "a", encoding="utf-8") as f:
            f.write("- one more\n")
    elif edit == "README.md":
        (repo / edit).write_text('pip install "rulebook @ git+ADDRESS@v9.8.6"\n', encoding="utf-8")
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qam",
                        "x"], check=True)
        said = "README.md: its install line does not name v9.8.7"
    done = _release(repo)
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1 and said in done.stderr, done.stderr
    assert not subprocess.run(["git", "-C", str(repo), "tag"], capture_output=True, text=True).stdout.strip()


def test_make_release_tags_once(tmp_path):
    repo = _repo(tmp_path, "## 9.8.7 (2026-12-07)")
    done = _release(repo)
    assert done.returncode == 0 and "tagged v9.8.7" in done.stdout, done.stderr
    assert subprocess.run(["git", "-C", str(repo), "tag"], capture_output=True, text=True).stdout.split() == ["v9.8.7"]
    again = _release(repo)
    assert again.returncode == 1 and "the tag v9.8.7 exists already" in again.stderr

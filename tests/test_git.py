"""Every call of git goes through one module, ``generator/book/git.py`` (issue 58): what goes wrong is one line of the
``GitError`` family, and the files of a commit are unpacked by one function that refuses a link out of the project.

A table of what can go wrong (a ref git does not have, a link out in the commit, a damaged archive, no git at all),
each with the function asked, the error it must raise and the words of its one line; then the rule itself: no other
module of generator/ names the program.
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import tarfile
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest

from generator.book import git
from generator.book.git import GitError, GitMissing, UnsafeArchive
from tests.conftest import ROOT


def _run(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
                   check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository of a small book's sources, one commit, with a file of the test's own beside it."""
    repo = tmp_path / "repo"
    (repo / "content").mkdir(parents=True)
    (repo / "rules_data").mkdir()
    (repo / "rules_data" / "book.yaml").write_text("title: A book\n", encoding="utf-8")
    (repo / "content" / "demo.md").write_text("Play well.\n", encoding="utf-8")
    (tmp_path / "outside.txt").write_text("not the book's\n", encoding="utf-8")
    _run(repo, "init", "-q")
    _run(repo, "add", "-A")
    _run(repo, "commit", "-qm", "the book")
    return repo


def _link_out(repo: Path, target: str) -> None:
    (repo / "content" / "demo.md").unlink()
    (repo / "content" / "demo.md").symlink_to(target)
    _run(repo, "add", "-A")
    _run(repo, "commit", "-qm", "a link out")


def _archive_of(member: tarfile.TarInfo | None) -> bytes:
    """A tar archive holding ``member`` (none: bytes that are no archive), as a damaged git could answer."""
    if member is None:
        return b"this is not a tar archive" * 40
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        tar.addfile(member)
    return buffer.getvalue()


def _hard_link_out() -> tarfile.TarInfo:
    info = tarfile.TarInfo("content/demo.md")  # git holds no hard link: a tar made by hand
    info.type, info.linkname = tarfile.LNKTYPE, "../../outside.txt"
    return info


def _answered(data: bytes) -> Callable:
    """git's archive answered with ``data`` (every other call as git answers it)."""
    real = subprocess.run

    def run(cmd, *args, **kwargs):
        if "archive" in cmd:
            return subprocess.CompletedProcess(cmd, 0, data, b"")
        return real(cmd, *args, **kwargs)

    return run


def _unpack(ref: str = "HEAD"):
    return lambda repo, out: git.unpack(repo, ref, ("rules_data", "content"), out)


# (what is done to the repository, what is asked of git, the error, words of its one line)
CASES = {
    "a ref git does not have, unpacked": (None, _unpack("no-such-ref"), GitError, "cannot read 'no-such-ref' from git"),
    "a ref git does not have, listed": (None, lambda repo, out: git.present(repo, "no-such-ref", ("content",)),
                                        GitError, "cannot read 'no-such-ref' from git"),
    "a base git does not have, for the files a change touches": (
        None, lambda repo, out: git.changed(repo, "no-such-base"), GitError,
        "could not list the files this change touches against no-such-base"),
    "a folder that is no repository": (lambda repo, tmp: subprocess.run(["rm", "-rf", str(repo / ".git")], check=True),
                                       _unpack(), GitError, "cannot read 'HEAD' from git"),
    "a symbolic link out, absolute": (lambda repo, tmp: _link_out(repo, str(tmp / "outside.txt")), _unpack(),
                                      UnsafeArchive, "content/demo.md: at HEAD: is a symbolic link to"),
    "a symbolic link out, relative": (lambda repo, tmp: _link_out(repo, "../../outside.txt"), _unpack(),
                                      UnsafeArchive, "content/demo.md: at HEAD: is a symbolic link to '../../outside"),
    "a hard link out": (lambda repo, tmp: _answered(_archive_of(_hard_link_out())), _unpack(), UnsafeArchive,
                        "content/demo.md: at HEAD: is a symbolic link to '../../outside.txt', out of the project"),
    "a damaged archive": (lambda repo, tmp: _answered(_archive_of(None)), _unpack(), GitError,
                          "the files of HEAD could not be unpacked"),
    "no git on the PATH": ("no git", _unpack(), GitMissing, "git: not found: cannot read 'HEAD' from git: install git"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_what_git_cannot_do_is_one_line_of_its_own_error(case: str, repo: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    before, asked, error, words = CASES[case]
    run = None
    if before == "no git":
        monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    elif before is not None:
        run = before(repo, tmp_path)
    out = tmp_path / "out"
    with mock.patch("subprocess.run", run) if callable(run) else contextlib.nullcontext(), pytest.raises(error) as raised:
        asked(repo, out)
    message = str(raised.value)
    assert type(raised.value) is error and words in message and "\n" not in message, message
    assert not (out / "content" / "demo.md").exists()  # nothing of a refused file, nor what it points to


def test_a_ref_unpacks_the_files_it_has_and_only_those(repo: Path, tmp_path: Path) -> None:
    (repo / "content" / "demo.md").write_text("Played better.\n", encoding="utf-8")  # not committed: not unpacked
    assert git.present(repo, "HEAD", ("content", "templates", "rules_data")) == ["content", "rules_data"]
    out = git.unpack(repo, "HEAD", ("content",), tmp_path / "out")
    assert (out / "content" / "demo.md").read_text(encoding="utf-8") == "Play well.\n"
    assert not (out / "rules_data").exists()
    assert git.changed(repo, "HEAD") == [("M", "content/demo.md")]
    assert git.commit(repo, "HEAD") == git.commit(repo, "HEAD^{commit}") and git.commit(repo, "no-such-ref") is None
    assert git.show(repo, "HEAD", "rules_data/book.yaml") == "title: A book\n" and git.show(repo, "HEAD", "x") is None


def test_git_runs_from_one_module() -> None:
    """No module of generator/ but book/git.py names the program (a call of its own would have a policy of its own)."""
    named = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "generator").rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"""["']git["']""", line) and path != ROOT / "generator" / "book" / "git.py"]
    assert named == []

"""Every call of git the tool makes, and what goes wrong with one said in one line (``GitError``).

The book's history is read from git (``rulebook diff`` of two refs, the pull-request check's base and its files, the
pictures' base as it is made), a book is made a repository (``rulebook init``), and its site is deployed to a branch
(``rulebook publish``, mike's versions read back from it). Each of those asks this module: one runner, one policy
for git missing or refusing, and one way of taking files out of a commit, ``unpack``: the paths at a ref archived and
unpacked with tarfile's data filter, a link leaving the folder refused in one line naming it.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
from collections.abc import Sequence
from pathlib import Path

from ..errors import RulebookError, clean, echo

VCS = "git"  # the program, and how a package's record of where it came from names it (PEP 610's vcs_info.vcs)


class GitError(RulebookError):
    """git could not do what was asked: one line saying what, and what git said."""


class GitMissing(GitError):
    """git is not installed (or not on PATH)."""


class UnsafeArchive(GitError):
    """A file of a commit is not a plain file or folder inside it (a link out of the project): nothing is read."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{clean(path)}: {problem}")
        self.path = path


def _git(root: Path | None, args: Sequence[str], what: str, text: bool = True,
         timeout: float | None = None) -> subprocess.CompletedProcess:
    """``git -C root ARGS``, run; GitMissing (``what`` it was for) when there is no git, GitError when it hangs."""
    cmd = [VCS, *(("-C", str(root)) if root is not None else ()), *args]
    try:
        return subprocess.run(cmd, capture_output=True, text=text, timeout=timeout)
    except FileNotFoundError:
        raise GitMissing(f"git: not found: {what}: install git (or put it on PATH)") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git gave no answer in {timeout:.0f} s: {what}") from None


def _said(done: subprocess.CompletedProcess) -> str:
    """What git said on stderr, as one line (its last words, which name the problem)."""
    err = done.stderr.decode("utf-8", errors="replace") if isinstance(done.stderr, bytes) else done.stderr or ""
    return clean(" ".join(err.split())[:300]) or f"exit {done.returncode}"


def _answer(root: Path | None, args: Sequence[str], what: str, text: bool = True,
            timeout: float | None = None) -> subprocess.CompletedProcess:
    """``_git``, and a GitError saying ``what`` could not be done and why when git refuses."""
    done = _git(root, args, what, text, timeout)
    if done.returncode != 0:
        raise GitError(f"{what}: {_said(done)}")
    return done


def _optional(root: Path, args: Sequence[str], what: str, timeout: float | None = None) -> str | None:
    """git's answer, stripped, or None when it has none (a ref, a setting or a file that is not there)."""
    done = _git(root, args, what, timeout=timeout)
    return done.stdout.strip() or None if done.returncode == 0 else None


# -- reading a commit --------------------------------------------------------------------------------------------

def commit(root: Path, rev: str) -> str | None:
    """The commit ``rev`` names in the repository at ``root`` (its full id), or None if it names none."""
    return _optional(root, ["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], f"read the commit {rev!r}")


def tree(root: Path, ref: str, path: str) -> str | None:
    """The id of the folder ``path`` as ``ref`` holds it (equal ids: the same files, byte for byte), or None."""
    return _optional(root, ["rev-parse", "--verify", "--quiet", f"{ref}:{path}"], f"read {path} at {ref}")


def merge_base(root: Path, one: str, other: str) -> str | None:
    """The best common ancestor of two commits, or None when they have none."""
    return _optional(root, ["merge-base", one, other], f"compare {one} with {other}")


def show(root: Path, ref: str, path: str) -> str | None:
    """The text of the file ``path`` at ``ref``, or None when the ref or the file is not there."""
    done = _git(root, ["show", f"{ref}:{path}"], f"read {path} at {ref}")
    return done.stdout if done.returncode == 0 else None


def present(root: Path, ref: str, paths: Sequence[str]) -> list[str]:
    """Which of ``paths`` (files or folders at the top of the project) ``ref`` has."""
    done = _answer(root, ["ls-tree", "--name-only", ref, "--", *paths], f"cannot read {ref!r} from git")
    return done.stdout.split()


def unpack(root: Path, ref: str, paths: Sequence[str], dest: Path) -> Path:
    """The files of ``paths`` at ``ref`` unpacked into ``dest``: archived by git, unpacked with tarfile's data filter.
    A file that is not a plain file or folder inside the project (a link out) is refused in one line naming it
    (``UnsafeArchive``), before anything it points to is read; a ref git cannot read is a GitError."""
    data = _answer(root, ["archive", "--format=tar", ref, "--", *paths], f"cannot read {ref!r} from git",
                   text=False).stdout

    def refuse_out(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo:
        try:
            return tarfile.data_filter(member, path)
        except tarfile.FilterError:
            what = (f"is a symbolic link to {echo(member.linkname)}, out of the project" if member.issym() or
                    member.islnk() else "is not a plain file or folder inside the project")
            raise UnsafeArchive(member.name, f"at {ref}: {what}: a source file is read only from inside it; put the "
                                             "file itself in its place") from None

    try:
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(dest, filter=refuse_out)
    except tarfile.TarError as exc:
        raise GitError(f"the files of {ref} could not be unpacked: {clean(str(exc))}") from None
    return dest


# -- the working tree ---------------------------------------------------------------------------------------------

def changed(root: Path, base: str) -> list[tuple[str, str]]:
    """(git's status letter, path) of every file the working tree at ``root`` changes from ``base`` (A, D, M, T...),
    and ("?", path) for each new file not yet committed (ignored files aside)."""
    what = f"git could not list the files this change touches against {base}"
    listed = [p for p in _answer(root, ["diff", "--name-status", "--no-renames", "-z", base, "--"], what,
                                 text=False).stdout.decode("utf-8", errors="replace").split("\0") if p]
    new = [p for p in _answer(root, ["ls-files", "--others", "--exclude-standard", "-z"], what,
                              text=False).stdout.decode("utf-8", errors="replace").split("\0") if p]
    return [(listed[i][:1], listed[i + 1]) for i in range(0, len(listed) - 1, 2)] + [("?", p) for p in new]


def uncommitted(root: Path, paths: Sequence[str]) -> list[str]:
    """The files under ``paths`` that differ from the last commit or are new (``git status``)."""
    done = _answer(root, ["status", "--porcelain", "--untracked-files=all", "--", *paths],
                   "git could not say what is not committed")
    return [line[3:] for line in done.stdout.splitlines() if line.strip()]


def setting(root: Path, key: str, timeout: float | None = 20) -> str | None:
    """git's setting ``key`` (``remote.origin.url``, ``user.email``) for the repository at ``root``, or None."""
    return _optional(root, ["config", "--get", key], f"read the setting {key}", timeout)


def top_level(folder: Path) -> str | None:
    """The top folder of the repository ``folder`` is in, or None when it is in none."""
    return _optional(folder, ["rev-parse", "--show-toplevel"], "ask whether the folder is in a repository", 20)


def init(folder: Path, branch: str = "main") -> None:
    """Make ``folder`` a new repository whose branch is ``branch``."""
    _answer(None, ["init", "-q", f"--initial-branch={branch}", str(folder)], "git could not make the folder a "
            "repository", timeout=30)


# -- a change handed over as data ---------------------------------------------------------------------------------

# What every command on a change handed over as data runs with: no hook (the judging checkout's or any other), no
# filter a .gitattributes of the change could name (git-lfs's, if installed).
NO_HOOKS = ("-c", "core.hooksPath=/dev/null", "-c", "filter.lfs.smudge=", "-c", "filter.lfs.process=",
            "-c", "filter.lfs.required=false")
CHANGE_REFS = "refs/rulebook-change/"  # where the refs of a bundle are fetched, apart from the repository's own


def fetch_bundle(root: Path, bundle: Path) -> None:
    """The commits of the git bundle ``bundle`` fetched into the repository at ``root`` (under ``CHANGE_REFS``), as
    data: no hook runs; a file that is not a bundle, or one whose commits it builds on the repository lacks, is a
    GitError."""
    _answer(root, [*NO_HOOKS, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", str(bundle),
                   f"+refs/*:{CHANGE_REFS}*"], f"could not read the change's bundle {clean(bundle.name)}", timeout=600)


def worktree(root: Path, rev: str, dest: Path) -> Path:
    """The files of the commit ``rev`` checked out at ``dest``, a working tree of the repository at ``root`` (so that
    the change's files are compared with any commit of it), no hook or filter run."""
    _answer(root, [*NO_HOOKS, "worktree", "add", "--quiet", "--detach", str(dest), rev],
            f"could not check out the change {clean(rev)}", timeout=600)
    return dest


def drop_worktree(root: Path, dest: Path) -> None:
    """The working tree at ``dest`` (made by ``worktree``) removed, and the repository's record of it."""
    _git(root, ["worktree", "remove", "--force", str(dest)], "remove the change's checkout", timeout=120)
    _git(root, ["worktree", "prune"], "forget the change's checkout", timeout=120)

"""Error types: every problem the pipeline reports names a file and, where it can, a line."""

from __future__ import annotations

import contextlib
import errno
import os
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class Location:
    """A place in a source file (1-based line and column; 0 when unknown)."""

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        path = clean(self.path)  # a file's name can hold anything but a slash
        if self.line and self.col:
            return f"{path}:{self.line}:{self.col}"
        if self.line:
            return f"{path}:{self.line}"
        return path


# What a terminal would act on instead of showing (ESC starts a command, BEL rings, CR writes the line over), and the
# controls that show text in another order than it is read: a message shows them as escapes, never as they are.
UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def clean(text: str) -> str:
    """``text`` with every control character written as an escape (``\\x1b``, ``\\u202e``): safe to print."""
    if not UNPRINTABLE.search(text):
        return text
    return UNPRINTABLE.sub(lambda m: repr(m.group())[1:-1], text)


def echo(value: object, limit: int = 60) -> str:
    """``value`` as a message quotes it (repr), cut at ``limit`` characters: a message is one line a person reads."""
    shown = repr(value)
    return shown if len(shown) <= limit else f"{shown[:limit]}... ({len(shown) - limit} more characters)"


class RulebookError(Exception):
    """Base class of every error the pipeline raises on purpose."""


class SourceError(RulebookError):
    """One problem in one source file, at a location."""

    MAX_PROBLEM = 500  # characters: a problem is one line a person reads, whatever text it quotes

    def __init__(self, where: Location, problem: str) -> None:
        problem = clean(" ".join(problem.splitlines()))
        if len(problem) > self.MAX_PROBLEM:
            problem = f"{problem[:self.MAX_PROBLEM]}... ({len(problem) - self.MAX_PROBLEM} more characters)"
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


class SourceErrors(RulebookError):
    """Several source problems, reported together (a run never stops at the first)."""

    def __init__(self, errors: list[SourceError], summary: str | None = None) -> None:
        self.errors = sorted(errors, key=lambda e: e.where)
        self.summary = summary or f"{len(self.errors)} problem(s) in the source files"  # the line after them
        super().__init__("\n".join(str(e) for e in self.errors))


class BuildError(RulebookError):
    """A build stage failed; the previous output was left in place."""


# What an operating-system error means to someone running the book's commands, and what to do. A full disk
# is said to be one: it was once reported as the PDF render running out of memory.
DISK_FULL = "the disk is full: free some space, then run it again"
_OS_PROBLEMS = {
    errno.ENOSPC: DISK_FULL,
    errno.EDQUOT: DISK_FULL,
    errno.EROFS: "the folder is read-only: give a folder you may write to, or make this one writable",
    errno.EACCES: "permission denied: give a folder you may write to, or ask for access",
    errno.EPERM: "not permitted: give a folder you may write to, or ask for access",
    errno.ENOENT: "no such file or folder",
    errno.EISDIR: "is a folder where a file should be: move the folder away",
    errno.ENOTDIR: "a file is where a folder should be: move the file away",
    errno.ENOTEMPTY: "a folder that is not empty is in the way: move it away",
    errno.EEXIST: "something is already there: move it away",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ELOOP: "a symbolic link leads round in a circle",
}


def os_problem(exc: OSError, where: str | os.PathLike | None = None, root: Path | None = None) -> str:
    """One line for an operating-system error: the path (the error's own, else ``where``), what went wrong, what to do.

    A path inside ``root`` is shown relative to it, as findings name files.
    """
    path = exc.filename if exc.filename is not None else where
    what = _OS_PROBLEMS.get(exc.errno, exc.strerror or str(exc))
    if path is None:
        return what
    shown = Path(os.fsdecode(path))
    if root is not None:
        with contextlib.suppress(ValueError):
            shown = shown.resolve().relative_to(root.resolve())
    return f"{shown}: {what}"


class OutputError(RulebookError):
    """Output could not be written or read (a full disk, a read-only folder): nothing already built was changed."""


class EngineErrors(SourceErrors, BuildError):
    """What an engine the build runs (MkDocs) refused, in its own words, each at the source it comes from."""

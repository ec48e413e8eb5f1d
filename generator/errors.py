"""What goes wrong, said in one line: every problem the pipeline reports names a file and, where it can, a line.

A problem has one shape, ``Problem`` (where, the check that found it, what is wrong, how severe), and is printed by
one function, ``problem_line``: a finding of validate, a source file that cannot be read, an item of the print
shop's preflight, a page of the built site that fails its check (and, for CI, as a GitHub annotation by
``problem_annotation``). Commands count problems as data, never their printed text.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal


def N_(message: str) -> str:
    """``message`` as it is: marks a message the catalogue holds (tests/messages.py reads it), said through
    ``translate`` where it is used."""
    return message


def _as_written(message: str, **values: object) -> str:
    return message % values if values else message


# The book's language, for the lines said here and by the modules words.py itself reads through (book/files.py):
# generator.book.words.use sets it as a book is loaded (this module is below every stage, and imports none); until
# then, and in a process that loads no book, the message as written, its placeholders (%(name)s) filled in.
translate: Callable[..., str] = _as_written


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


# How much a problem stops: an error stops the command, a warning is for a person to read, an accepted warning is one
# the editors let stand (rules_data/accepted.yaml), and a check that reports each item it looked at (the print shop's
# preflight) reports those that passed too.
Severity = Literal["error", "warning", "accepted", "passed"]


@dataclass(frozen=True, order=True)
class Problem:
    """One problem, at a file and line: the check that found it (``area.problem``; none for a file that cannot be
    read), what is wrong, and how severe it is. Every command reports these, each printed by ``problem_line``."""

    path: str
    line: int
    check: str
    message: str
    severity: Severity = "error"
    game: str | None = None
    because: str | None = None  # an accepted warning: the editors' reason
    col: int = 0

    def as_dict(self) -> dict:
        """The JSON form: check, severity, path, line, game, message (and, if accepted, because)."""
        found = {"check": self.check, "severity": self.severity, "path": self.path,
                 "line": self.line, "game": self.game, "message": self.message}
        return found | ({"because": self.because} if self.because is not None else {})


def problem_line(problem: Problem) -> str:
    """A problem as every command prints it: ``path:line: check: message``, the message of an item that passed after
    ``ok:``, a warning's followed by ``(warning)``; no check for a file that cannot be read, no place for none."""
    where = str(Location(problem.path, problem.line, problem.col))
    message = ("ok: " if problem.severity == "passed" else "") + problem.message
    text = ": ".join(part for part in (where, problem.check, message) if part)
    return text + (" (warning)" if problem.severity == "warning" else "")


def _workflow_escaped(value: str, prop: bool = False) -> str:
    # GitHub's workflow-command escaping; properties also escape ':' and ','.
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value.replace(":", "%3A").replace(",", "%2C") if prop else value


def problem_annotation(problem: Problem) -> str:
    """A problem as a GitHub workflow command, which CI shows at its file and line
    (``::error file=...,line=...,title=check::message``): how ``validate --format github`` and ``check-pr`` print it."""
    return (f"::{problem.severity} file={_workflow_escaped(problem.path, True)},line={problem.line},"
            f"title={_workflow_escaped(problem.check, True)}::"
            f"{_workflow_escaped(problem.check + ': ' + problem.message)}")


WORKFLOW_COMMAND = re.compile(r"^(\s*)(::|##\[)", re.MULTILINE)


def no_commands(text: str) -> str:
    """``text`` with no line a GitHub runner takes as a workflow command (``::error``, ``::stop-commands::``,
    ``##[``): each such line's first character escaped (Markdown shows ``\\:`` as ``:``)."""
    return WORKFLOW_COMMAND.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


class RulebookError(Exception):
    """Base class of every error the pipeline raises on purpose."""


class Problems(RulebookError):
    """Problems reported together (a run never stops at the first): each printed by ``problem_line``, then
    ``summary``."""

    def __init__(self, problems: list[Problem], summary: str | None = None) -> None:
        self.problems = list(problems)
        self.summary = summary or ""  # the line after them (none given: cli.py counts the problems, in the book's words)
        super().__init__("\n".join(problem_line(p) for p in self.problems))


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

    def found(self, check: str = "") -> Problem:
        """This error as a problem (found by ``check``, if one is named): printed as it is said."""
        return Problem(self.where.path, self.where.line, check, self.problem, col=self.where.col)


class SourceErrors(Problems):
    """Several source problems, reported together (a run never stops at the first)."""

    def __init__(self, errors: list[SourceError], summary: str | None = None) -> None:
        self.errors = sorted(errors, key=lambda e: e.where)
        super().__init__([e.found() for e in self.errors], summary)


class BuildError(RulebookError):
    """A build stage failed; the previous output was left in place."""


# What an operating-system error means to someone running the book's commands, and what to do. A full disk
# is said to be one, not taken for what it stopped (a PDF render running out of memory, say).
DISK_FULL = N_("the disk is full: free some space, then run it again")
_OS_PROBLEMS = {
    errno.ENOSPC: DISK_FULL,
    errno.EDQUOT: DISK_FULL,
    errno.EROFS: N_("the folder is read-only: give a folder you may write to, or make this one writable"),
    errno.EACCES: N_("permission denied: give a folder you may write to, or ask for access"),
    errno.EPERM: N_("not permitted: give a folder you may write to, or ask for access"),
    errno.ENOENT: N_("no such file or folder"),
    errno.EISDIR: N_("is a folder where a file should be: move the folder away"),
    errno.ENOTDIR: N_("a file is where a folder should be: move the file away"),
    errno.ENOTEMPTY: N_("a folder that is not empty is in the way: move it away"),
    errno.EEXIST: N_("something is already there: move it away"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.ELOOP: N_("a symbolic link leads round in a circle"),
}


def os_problem(exc: OSError, where: str | os.PathLike | None = None, root: Path | None = None) -> str:
    """One line for an operating-system error: the path (the error's own, else ``where``), what went wrong, what to do.

    A path inside ``root`` is shown relative to it, as findings name files.
    """
    path = exc.filename if exc.filename is not None else where
    what = translate(_OS_PROBLEMS[exc.errno]) if exc.errno in _OS_PROBLEMS else exc.strerror or str(exc)
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

"""Error types: every problem the pipeline reports names a file and, where it can, a line."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Location:
    """A place in a source file (1-based line and column; 0 when unknown)."""

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line and self.col:
            return f"{self.path}:{self.line}:{self.col}"
        if self.line:
            return f"{self.path}:{self.line}"
        return self.path


class RulebookError(Exception):
    """Base class of every error the pipeline raises on purpose."""


class SourceError(RulebookError):
    """One problem in one source file, at a location."""

    def __init__(self, where: Location, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


class SourceErrors(RulebookError):
    """Several source problems, reported together (a run never stops at the first)."""

    def __init__(self, errors: list[SourceError]) -> None:
        self.errors = sorted(errors, key=lambda e: e.where)
        super().__init__("\n".join(str(e) for e in self.errors))


class BuildError(RulebookError):
    """A build stage failed; the previous output was left in place."""

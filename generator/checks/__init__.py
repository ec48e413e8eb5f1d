"""The check registry: small functions named ``area.problem`` that yield findings.

A check receives the whole library (one edition) and yields findings. Every check runs; every
finding is reported; the order is stable (by file, line, check, message).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from ..errors import Location
from ..library import GameSource, Library

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Finding:
    """One inconsistency, at a file and line."""

    path: str
    line: int
    check: str
    message: str
    severity: Severity = "error"
    game: str | None = None

    def as_dict(self) -> dict:
        """The JSON form: check, severity, path, line, game, message."""
        return {"check": self.check, "severity": self.severity, "path": self.path,
                "line": self.line, "game": self.game, "message": self.message}


@dataclass(frozen=True)
class Check:
    """A registered check."""

    name: str
    severity: Severity
    func: Callable[[Library], Iterable[tuple[Location, str, str | None]]]
    doc: str


REGISTRY: dict[str, Check] = {}


def check(name: str, severity: Severity = "error") -> Callable:
    """Register a check function under ``name`` (``area.problem``) with a default severity."""
    if name.count(".") != 1:
        raise ValueError(f"check name '{name}' must be area.problem")

    def register(func: Callable) -> Callable:
        if name in REGISTRY:
            raise ValueError(f"check '{name}' registered twice")
        REGISTRY[name] = Check(name, severity, func, (func.__doc__ or "").strip().splitlines()[0])
        return func

    return register


def at(gs: GameSource, *loc: str | int) -> Location:
    """Shorthand: the location of a data path in a game's YAML."""
    return gs.where(tuple(loc))


def load_all() -> dict[str, Check]:
    """Import every check module so that its checks register."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return REGISTRY


def run_checks(lib: Library, only: Iterable[str] | None = None) -> list[Finding]:
    """Run every (or the named) registered check; return all findings in a stable order."""
    checks = load_all()
    names = sorted(only) if only is not None else sorted(checks)
    findings: set[Finding] = set()
    for name in names:
        chk = checks[name]
        for where, message, game in chk.func(lib):
            findings.add(Finding(where.path, where.line, name, message, chk.severity, game))
    return sorted(findings)


def iter_games(lib: Library) -> Iterator[GameSource]:
    """Games in book order."""
    return iter(lib.ordered_games())

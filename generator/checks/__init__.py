"""The check registry: small functions named ``area.problem`` that yield findings.

A check receives the whole library (one edition) and yields findings. Every check runs; every
finding is reported; the order is stable (by file, line, check, message).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from ..errors import Location
from ..library import GameSource, Library
from ..model import Game, GameBody, Variant

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


@dataclass(frozen=True)
class Body:
    """A game's rules, or a variant's (the game's, with the variant's own fields put in)."""

    gs: GameSource
    rules: GameBody
    variant: Variant | None = None
    index: int | None = None
    memo: dict = field(default_factory=dict, compare=False, hash=False)  # results shared between checks

    @property
    def game(self) -> str:
        return self.gs.id

    @property
    def name(self) -> str:
        """How a finding names it: '' for the game, 'variant X: ' for a variant."""
        return f"variant {self.variant.id}: " if self.variant else ""

    def at(self, *loc: str | int) -> Location:
        """The location of a data path, in the variant when the variant sets that field."""
        if self.variant is not None and loc and loc[0] in self.variant.model_fields_set:
            return self.gs.where(("variants", self.index, *loc))
        return self.gs.where(tuple(loc))


def effective(game: Game, variant: Variant) -> GameBody:
    """A variant's rules: the game's, with every field the variant sets replaced."""
    merged = {k: getattr(game, k) for k in GameBody.model_fields}
    merged.update({k: getattr(variant, k) for k in variant.model_fields_set if k in GameBody.model_fields})
    return GameBody.model_construct(**merged)


def bodies(lib: Library) -> list[Body]:
    """Every game and every variant of this edition, in book order (made once per library)."""
    cached = lib.__dict__.get("_bodies")
    if cached is None:
        cached = []
        for gs in lib.ordered_games():
            cached.append(Body(gs, gs.game))
            for i, variant in enumerate(gs.game.variants):
                if lib.in_edition(variant.introduced):
                    cached.append(Body(gs, effective(gs.game, variant), variant, i))
        lib.__dict__["_bodies"] = cached
    return cached

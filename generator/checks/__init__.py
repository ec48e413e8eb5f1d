"""The check registry: small functions named ``area.problem`` that yield findings.

A check receives the whole library (one edition) and yields findings. Every check runs; every
finding is reported; the order is stable (by file, line, check, message). A warning the editors
accepted (rules_data/accepted.yaml, with the reason) is still reported, as "accepted", so that
`rulebook validate` can say once what stands and why, and a new warning is not lost among old ones.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from ..book.library import ACCEPTED, GameSource, Library
from ..book.model import Game, GameBody, Variant
from ..book.words import _
from ..errors import Location, Problem, SourceError, SourceErrors, clean
from ..progress import Report, quiet

Severity = Literal["error", "warning"]  # a check's own: its findings may later be accepted (``accept``)
Found = tuple[Location, str, str | None]  # what a check yields: where, what is wrong, and the game it is about


@dataclass(frozen=True)
class Check:
    """A registered check."""

    name: str
    severity: Severity
    func: Callable[[Library], Iterable[tuple[Location, str, str | None]]]
    doc: str


REGISTRY: dict[str, Check] = {}

# A finding is one line a contributor reads: a list in it stops after MAX_LISTED items and says how many
# more there are, and no message runs past MAX_MESSAGE characters (a count of '4-1000000' players once
# made a warning of 7.9 MB).
MAX_LISTED = 8
MAX_MESSAGE = 500


def listing(items: Iterable[str], limit: int = MAX_LISTED) -> str:
    """``items`` joined by commas; past ``limit``, the first ones and how many more ('1, 2, 3 and 9 more')."""
    items = list(items)
    if len(items) <= limit:
        return ", ".join(items)
    return _("%(items)s and %(more)s more", items=", ".join(items[:limit]), more=len(items) - limit)


def capped(message: str, limit: int = MAX_MESSAGE) -> str:
    """``message``, cut at ``limit`` characters with how many more there were."""
    if len(message) <= limit:
        return message
    return _("%(text)s... (%(more)s more characters)", text=message[:limit].rstrip(), more=len(message) - limit)


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


def run_checks(lib: Library, only: Iterable[str] | None = None, progress: Report = quiet) -> list[Problem]:
    """Run every (or the named) registered check; return all findings in a stable order, accepted ones marked.
    ``progress`` is told each check as it ends (``rulebook validate`` on a terminal: a book of thousands of games)."""
    checks = load_all()
    names = sorted(only) if only is not None else sorted(checks)
    findings: set[Problem] = set()
    for done, name in enumerate(names):
        progress("checks", done, len(names))
        chk = checks[name]
        try:
            for where, message, game in chk.func(lib):
                findings.add(Problem(clean(where.path), where.line, name, capped(clean(message)), chk.severity, game))
        except SourceError as exc:  # a file the check reads (the dictionary, a frozen record) cannot be read: once
            findings.add(Problem(exc.where.path, max(1, exc.where.line), "source.refused", exc.problem, "error"))
        except SourceErrors as exc:  # an earlier edition the check reads cannot be made from the files: each, once
            findings.update(Problem(e.where.path, max(1, e.where.line), "edition.unloadable", e.problem, "error")
                            for e in exc.errors)
    progress("checks", len(names), len(names), final=True)
    return sorted(accept(lib, sorted(findings), set(names)))


def _reported_by_run_checks(name: str, severity: Severity, doc: str) -> None:
    # These findings are about the other checks' findings, which only run_checks sees; registered so
    # that they are listed, documented and proven by a fixture like every other check.
    REGISTRY[name] = Check(name, severity, lambda lib: (), doc)


_reported_by_run_checks("accepted.stale", "warning",
                        "An acceptance in rules_data/accepted.yaml matches no warning in one of its files any more.")
_reported_by_run_checks("source.refused", "error",
                        "A file a check reads (the house dictionary, a frozen record) is not a plain UTF-8 text file "
                        "inside the project.")
_reported_by_run_checks("edition.unloadable", "error",
                        "An earlier edition cannot be made from the files: a correction or decision that undoes a "
                        "change no longer matches the file it names.")
_reported_by_run_checks("accepted.not_a_warning", "error",
                        "An acceptance names an error check or no check: only warnings can be accepted.")


def _not_acceptable(name: str) -> str:
    if name not in REGISTRY:
        return _("'%(check)s' is not a check (rulebook validate names each finding's check): correct the name", check=name)
    if name.startswith("accepted."):
        return _("'%(check)s' is about the acceptances themselves: correct the acceptance instead", check=name)
    return _("'%(check)s' is an error: only a warning can be accepted; fix what it finds instead", check=name)


def accept(lib: Library, findings: list[Problem], ran: set[str]) -> list[Problem]:
    """Mark the warnings this edition's editors accepted; report acceptances that are wrong or stale."""
    out = list(findings)
    for i, acc in enumerate(lib.accepted):
        if not lib.in_edition(acc.edition):
            continue
        where = lib.accepted_doc.where(("accepted", i, "check")) if lib.accepted_doc else Location(ACCEPTED)
        known = REGISTRY.get(acc.check)
        if known is None or known.severity != "warning" or acc.check.startswith("accepted."):
            if "accepted.not_a_warning" in ran:
                out.append(Problem(where.path, where.line, "accepted.not_a_warning", _not_acceptable(acc.check), "error"))
            continue
        if acc.check not in ran:
            continue
        for j, path in enumerate(acc.files):
            stem = path.rsplit("/", 1)[-1].split(".")[0]
            if stem in lib.every_game and stem not in lib.games:
                continue  # a game this edition does not print (retired): its warnings stand where it is printed
            hits = [k for k, f in enumerate(out) if f.check == acc.check and f.path == path
                    and f.severity == "warning" and (acc.matching is None or acc.matching in f.message)]
            for k in hits:
                out[k] = replace(out[k], severity="accepted", because=acc.because)
            if not hits:
                at = lib.accepted_doc.where(("accepted", i, "files", j)) if lib.accepted_doc else where
                said = (_("%(check)s finds nothing with '%(words)s' in %(file)s any more: remove %(file)s from this "
                          "acceptance", check=acc.check, words=acc.matching, file=path) if acc.matching else
                        _("%(check)s finds nothing in %(file)s any more: remove %(file)s from this acceptance",
                          check=acc.check, file=path))
                out.append(Problem(at.path, at.line, "accepted.stale", said, "warning"))
    return out


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
        return _("variant %(id)s: ", id=self.variant.id) if self.variant else ""

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
                if lib.includes(variant):
                    cached.append(Body(gs, effective(gs.game, variant), variant, i))
        lib.__dict__["_bodies"] = cached
    return cached

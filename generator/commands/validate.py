"""``rulebook validate``: the findings printed as text (``errors.problem_line``: path:line: check: message), JSON, or
GitHub annotations (``errors.problem_annotation``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..book.library import ACCEPTED
from ..book.words import _, n_
from ..errors import Problem, no_commands, problem_annotation, problem_line
from ..progress import Progress, quiet

# What another verb may use: the findings as validate prints them (build, edition new and preview print theirs so).
__all__ = ["as_text", "run"]


def summary(findings: list[Problem], games: int) -> str:
    """A closing line such as '2 errors, 3 warnings in 41 games' (', 9 accepted' when some are)."""
    errors = sum(f.severity == "error" for f in findings)
    warnings = sum(f.severity == "warning" for f in findings)
    accepted = len(findings) - errors - warnings
    counts = {"errors": n_("%(count)s error", "%(count)s errors", errors),
              "warnings": n_("%(count)s warning", "%(count)s warnings", warnings)}
    if accepted:
        return n_("%(errors)s, %(warnings)s (%(accepted)s more accepted) in %(count)s game",
                  "%(errors)s, %(warnings)s (%(accepted)s more accepted) in %(count)s games", games,
                  accepted=accepted, **counts)
    return n_("%(errors)s, %(warnings)s in %(count)s game", "%(errors)s, %(warnings)s in %(count)s games", games,
              **counts)


def accepted(findings: list[Problem]) -> list[str]:
    """The accepted warnings, once per reason: how many, which check, and why they stand."""
    reasons: dict[tuple[str, str], int] = {}
    for f in findings:
        if f.severity == "accepted":
            reasons[(f.check, f.because or "")] = reasons.get((f.check, f.because or ""), 0) + 1
    # A reason is one line (reason.not_one_line refuses more): one written over several is still printed as one.
    return [_("accepted: %(count)s %(check)s: %(because)s", count=n, check=check, because=" ".join(because.split()))
            for (check, because), n in sorted(reasons.items())]


def accepted_count(findings: list[Problem]) -> list[str]:
    """The accepted warnings in one line, saying where they are listed (none: no line)."""
    reasons = len(accepted(findings))
    n = sum(f.severity == "accepted" for f in findings)
    if not n:
        return []
    return [n_("%(count)s accepted warning, for %(reasons)s given in %(file)s: `rulebook validate` lists them",
               "%(count)s accepted warnings, for %(reasons)s given in %(file)s: `rulebook validate` lists them", n,
               reasons=n_("%(count)s reason", "%(count)s reasons", reasons), file=ACCEPTED)]


def as_text(findings: list[Problem], games: int, listed: bool = True) -> str:
    """One line per error or warning, the accepted ones once per reason (``listed``) or counted in one line, then the
    summary."""
    lines = [problem_line(f) for f in findings if f.severity != "accepted"]
    return "\n".join(lines + (accepted(findings) if listed else accepted_count(findings)) + [summary(findings, games)])


def as_json(findings: list[Problem]) -> str:
    """A JSON list of findings."""
    return json.dumps([f.as_dict() for f in findings], indent=2, ensure_ascii=False)


def as_github(findings: list[Problem], games: int) -> str:
    """GitHub workflow annotations (::error file=...,line=...::message); every other line is text, never a command."""
    lines = [problem_annotation(f) for f in findings if f.severity != "accepted"]
    return "\n".join(lines + [no_commands(line) for line in accepted(findings) + [summary(findings, games)]])


def run(root: Path, edition: str | None = None, allow_missing: bool = False, form: str = "text") -> int:
    """``rulebook validate``: print the findings (text, JSON or GitHub annotations); 1 if any is an error."""
    from ..book.library import load_library
    from ..checks import run_checks
    from ..render.site.language import mismatches as site_language

    # On a terminal, what it is doing (a book of thousands of games takes a while); in a log or a pipe, nothing more.
    progress = Progress() if sys.stderr.isatty() else quiet
    try:
        progress("load")
        lib = load_library(root, edition, allow_missing=allow_missing)
        progress("load", len(lib.games), len(lib.games), final=True)
        findings = run_checks(lib, progress=progress)
        findings += site_language(root, lib.book.language)  # the site configured in another language
    finally:
        if isinstance(progress, Progress):
            progress.close(quietly=True)
    if form == "json":
        print(as_json(findings))
    elif form == "github":
        print(as_github(findings, len(lib.games)))
    else:
        print(as_text(findings, len(lib.games)))
    return 1 if any(f.severity == "error" for f in findings) else 0

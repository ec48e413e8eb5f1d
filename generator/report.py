"""Printing findings: text (path:line: check: message), JSON, and GitHub annotations."""

from __future__ import annotations

import json

from .checks import Finding


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(findings: list[Finding], games: int) -> str:
    """A closing line such as '2 errors, 3 warnings in 41 games'."""
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    return f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')} in {_plural(games, 'game')}"


def as_text(findings: list[Finding], games: int) -> str:
    """One line per finding, then the summary."""
    lines = [f"{f.path}:{f.line}: {f.check}: {f.message}" + (" (warning)" if f.severity == "warning" else "")
             for f in findings]
    return "\n".join(lines + [summary(findings, games)])


def as_json(findings: list[Finding]) -> str:
    """A JSON list of findings."""
    return json.dumps([f.as_dict() for f in findings], indent=2, ensure_ascii=False)


def _escape(value: str, prop: bool = False) -> str:
    # GitHub's workflow-command escaping; properties also escape ':' and ','.
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value.replace(":", "%3A").replace(",", "%2C") if prop else value


def as_github(findings: list[Finding], games: int) -> str:
    """GitHub workflow annotations (::error file=...,line=...::message)."""
    lines = [f"::{f.severity} file={_escape(f.path, True)},line={f.line},title={_escape(f.check, True)}::"
             f"{_escape(f.check + ': ' + f.message)}" for f in findings]
    return "\n".join(lines + [summary(findings, games)])

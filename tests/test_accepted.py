"""Accepted warnings: read against the sources, let stand with a reason printed once; stale ones caught."""

from __future__ import annotations

import json

import pytest

from generator.book.library import load_library
from generator.checks import run_checks
from generator.cli import main
from tests.checkfix import make_project

GAME = """\
id: demo
title: Demo Rummy
category: cards
introduced: "2026.1"
sources: [{{seed: 000_321aee1cc9de258a.txt, section: Demo}}]
players: {players}
equipment: {{cards: [{{decks: 1}}]}}
deal: {{each: 5, upcard: 1}}
goal: {{winner: high, target: 100}}
"""


def acceptance(matching: str | None = None, edition: str = "2026.1") -> str:
    words = f"\n    matching: {json.dumps(matching)}" if matching else ""
    return f"""accepted:
  - check: players.unbounded
    files: [rules_data/demo.yaml]{words}
    edition: "{edition}"
    because: The source sets no upper limit.
"""


CASES = {  # name: (players, accepted.yaml, the (check, severity) pairs validate reports)
    "no acceptance: a warning": ("Any", None, [("players.unbounded", "warning")]),
    "accepted: stands, with its reason": ("Any", acceptance(), [("players.unbounded", "accepted")]),
    "matching other words: still a warning, and stale":
        ("Any", acceptance("6 or more"), [("accepted.stale", "warning"), ("players.unbounded", "warning")]),
    "matching its words: accepted": ("Any", acceptance("'Any' players"), [("players.unbounded", "accepted")]),
    "accepted by a later edition's editors: not in this one":
        ("Any", acceptance(edition="2026.2"), [("players.unbounded", "warning")]),
    "nothing left to accept: stale": ("2-4", acceptance(), [("accepted.stale", "warning")]),
}


@pytest.mark.parametrize("players, accepted, expected", CASES.values(), ids=CASES.keys())
def test_acceptances(tmp_path, players, accepted, expected):
    fixture = {"games": [GAME.format(players=players)]} | ({"accepted": accepted} if accepted else {})
    findings = run_checks(load_library(make_project(tmp_path, fixture)))
    assert sorted((f.check, f.severity) for f in findings) == expected
    assert all(f.because == "The source sets no upper limit." for f in findings if f.severity == "accepted")


def test_validate_prints_each_reason_once_and_counts_what_it_covers(tmp_path, capsys):
    root = make_project(tmp_path, {"games": [GAME.format(players="Any")], "accepted": acceptance()})
    assert main(["--root", str(root), "validate"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["accepted: 1 players.unbounded: The source sets no upper limit.",
                   "0 errors, 0 warnings (1 more accepted) in 1 game"]
    assert main(["--root", str(root), "validate", "--format", "json"]) == 0
    (found,) = json.loads(capsys.readouterr().out)
    assert (found["severity"], found["because"]) == ("accepted", "The source sets no upper limit.")


def test_the_current_edition_has_no_unexplained_warning(library):
    """Every warning of the current edition is fixed, corrected by an erratum, or accepted with a reason."""
    unexplained = [f for f in run_checks(library) if f.severity != "accepted"]
    assert unexplained == [], "\n".join(f"{f.path}:{f.line}: {f.check}: {f.message}" for f in unexplained)

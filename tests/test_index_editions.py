"""The index checks run for every edition that prints the book's index, 2026.2's corrected rows included.

Each case edits a copy of the real project and says which index findings 2026.2 must then report:
a page that no longer agrees with its corrected index row, a typed row removed from a game the
book always had, and (no finding) a game 2026.2 adds, whose row is derived from its page.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.book import index as book_index
from generator.book.library import load_library
from generator.checks import run_checks
from tests.conftest import CURRENT, copy_project


def page_players(project: Path, game: str, players: str) -> None:
    path = project / "rules_data" / f"{game}.yaml"
    text, n = re.subn(r"(?m)^players: .*$", f"players: {players}", path.read_text(encoding="utf-8"))
    assert n == 1
    path.write_text(text, encoding="utf-8")


def drop_row(project: Path, game: str) -> None:
    path = project / "rules_data" / "book.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if f"game: {game}," not in line]
    assert len(kept) == len(lines) - 1
    path.write_text("".join(kept), encoding="utf-8")


CASES = [
    # (edit, expected index findings in 2026.2 as (check, game))
    ("unchanged", lambda p: None, []),
    ("page disagrees with a corrected row", lambda p: page_players(p, "rummoli", "2 to 6"),
     [("index.players_mismatch", "rummoli"), ("index.correction_unstated", "rummoli")]),
    ("page disagrees with a published row", lambda p: page_players(p, "euchre", "2"),
     [("index.players_mismatch", "euchre")]),
    ("a game the book always had lost its row", lambda p: drop_row(p, "hearts"), [("index.missing_game", "hearts")]),
    ("an added game's page changes: its row follows", lambda p: page_players(p, "trash", "4-8"), []),
]


@pytest.mark.parametrize("edit,expected", [(e, x) for _, e, x in CASES], ids=[c[0] for c in CASES])
def test_current_edition_index_is_checked(tmp_path, edit, expected):
    project = copy_project(tmp_path)
    edit(project)
    lib = load_library(project, CURRENT)
    found = [(f.check, f.game) for f in run_checks(lib) if f.check.startswith("index.")]
    assert found == expected
    trash = book_index.index_entry(lib, "trash")  # an added game: its row is its page's, whatever the page says
    assert (trash.title, str(trash.players)) == ("Trash", str(lib.games["trash"].game.players))

"""A game a change renames or moves (a new id, a new file) matched to its old self, so that the values it changes on
the way are said old → new: a game removed and one added, alike in their data and prose, are one game."""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any

from ...book.compare import compare_game
from ...book.library import GameSource, Library
from ...book.words import _
from .judge import Judgement
from .text import change_lines, code_span, literal

ALIKE = 0.6  # how alike (0 to 1) a game removed and one added are, at least, to be one game renamed or moved
NAMING = ("id", "title", "subtitle")  # what a rename changes: left out of how alike two games are


def _leaves(data: Any, path: str = "") -> dict[str, str]:
    """Every value of a game's data by its dotted path, as text."""
    if isinstance(data, dict):
        return {k: v for key, value in data.items() if not (not path and key in NAMING)
                for k, v in _leaves(value, f"{path}.{key}" if path else str(key)).items()}
    if isinstance(data, list):
        return {k: v for n, value in enumerate(data) for k, v in _leaves(value, f"{path}.{n}").items()}
    return {path: repr(data)}


def alike(old: GameSource, new: GameSource) -> float:
    """How alike two games are, 0 to 1: the share of data values they have in common (their names aside), and of
    their prose, each counted once."""
    a, b = _leaves(old.doc.data), _leaves(new.doc.data)
    data = sum(a.get(k) == v for k, v in b.items()) / max(len(a), len(b), 1)
    prose = SequenceMatcher(None, old.prose.text if old.prose else "", new.prose.text if new.prose else "",
                            autojunk=False).ratio() if old.prose or new.prose else 1.0
    return (data + prose) / 2


def matched(old: Library, new: Library) -> list[tuple[str, str]]:
    """(old id, new id) of each game the change removes that is one it adds under another id, the most alike first."""
    gone = [g for g in old.games if g not in new.games]
    came = [g for g in new.games if g not in old.games]
    scored = sorted(((alike(old.games[a], new.games[b]), a, b) for a in gone for b in came), reverse=True)
    pairs: list[tuple[str, str]] = []
    for score, a, b in scored:
        if score >= ALIKE and all(a != x and b != y for x, y in pairs):
            pairs.append((a, b))
    return pairs


def renamed_lines(judgement: Judgement) -> list[str]:
    """The summary's section on the games the change renames or moves: each with every value it changes, old → new
    (a game's scores changed under a new name are said, not only that a game came and one went)."""
    old, new = judgement.old.lib, judgement.head.lib
    pairs = matched(old, new)
    if not pairs:
        return []
    out = ["### " + _("Games this change renames or moves"), "", _("Each is the game of the base it is most like (a "
                                                                      "game removed and one added): what it changes on "
                                                                      "the way, old → new."), ""]
    for a, b in pairs:
        was, now = old.games[a], new.games[b]
        out += [f"#### {literal(was.game.heading())} → {literal(now.game.heading())} ({code_span(was.doc.path)} → "
                f"{code_span(now.doc.path)})", "", *change_lines(compare_game(was, now, old, new)), ""]
    return out

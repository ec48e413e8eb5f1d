"""Score-sheet layout from data: which columns and rows a block of a score sheet has."""

from __future__ import annotations

from typing import Any

from ..model import SheetBlock
from ..phrases import parse_players

DEFAULT_PLAYERS = 6  # columns for games that allow any number of players
MAX_PLAYER_COLUMNS = 8


def player_count(body: Any) -> int:
    """How many player columns a sheet gets: the most players allowed, within reason."""
    if body.players is None:
        return DEFAULT_PLAYERS
    spec = parse_players(body.players)
    if not spec.bounded:
        return DEFAULT_PLAYERS
    top = max(spec.counts())
    return max(2, min(top, MAX_PLAYER_COLUMNS))


def sheet_columns(view: Any, block: SheetBlock) -> list[str]:
    """Column headings: the block's own, or one (or several) per player."""
    if not block.player_columns:
        return list(block.columns)
    if getattr(view.body, "partnerships", None) in ("partners", "teams"):
        return ["Team 1", "Team 2"]  # partners score together: one column per side
    n = player_count(view.body)
    if len(block.columns) <= 1:
        return [f"Player {i}" for i in range(1, n + 1)]
    return [f"{i}: {c}" for i in range(1, n + 1) for c in block.columns]


def _sequence_rows(view: Any) -> list[str]:
    rounds = view.body.rounds
    if rounds is None or not rounds.sequences:
        return []
    s = rounds.sequences[0]
    sizes = list(range(s.start, s.low - 1, -1)) + (list(range(s.low + 1, s.start + 1)) if s.back_up else [])
    return [f"{n} cards" for n in sizes]


def sheet_rows(view: Any, block: SheetBlock, blank_rows: int | None = None) -> list[str]:
    """Row labels: listed, from the rounds, from the named round's hands; padded with blanks."""
    rows: list[str] = list(block.rows)
    rounds = view.body.rounds
    if block.round and rounds is not None and not rows:
        rnd = sheet_round(view, block)
        rows = list(rnd.hands) if rnd else []
    if block.rows_from == "rounds" and rounds is not None:
        # A round's label carries what the player must know while scoring: its meld or minimum.
        rows = [r.name + (f" – {r.meld}" if r.meld else f" – minimum meld {r.min_meld}" if r.min_meld else "")
                for r in rounds.items]
        if rounds.then_reversed:
            rows += [f"{r.name} (again)" for r in reversed(rounds.items)]
    elif block.rows_from == "sequence":
        rows = _sequence_rows(view)
    wanted = blank_rows if blank_rows is not None else block.blank_rows
    if wanted and len(rows) < wanted:
        rows += [""] * (wanted - len(rows))
    return rows


def sheet_round(view: Any, block: SheetBlock) -> Any:
    """The round a block keeps score for, if it names one."""
    rounds = view.body.rounds
    if block.round is None or rounds is None:
        return None
    return next((r for r in rounds.items if r.name == block.round), None)


def sample_cells(view: Any, sheet: Any, block: SheetBlock) -> list[list[str]]:
    """A sample block's cells: each names a figure of the sheet's worked example (or is literal)."""
    from ..prose import format_value

    figures = view.examples().get(sheet.example or "", {})
    rows = []
    for row in block.sample:
        cells = []
        for cell in row:
            if cell is None:
                cells.append("")
            elif cell in figures:
                computed, stated, _ = figures[cell]
                cells.append(format_value(stated if stated is not None else computed))
            else:
                cells.append(view.text(cell))
        rows.append(cells)
    return rows

"""What a long command is doing, stage by stage: validate, the site's pages, the book's pages, the score sheets.

A stage reports as it runs: ``report(stage, done, total, final)``, ``done`` of ``total`` (``total`` None while
the count is not known, as the book's pages are not until the book is laid out), ``final`` when it ends.
Stages may overlap (the book and the score sheets are laid out side by side). On a terminal each stage is a
tqdm bar that fills as it goes; anywhere else (CI, a pipe, a log) each stage prints one plain line when it
ends, with its count and its time, so a log says where the time went without a line per page.

A render in a process of its own sends its reports in its answer (``render/process.py``), which the process that
started it hands on here.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from . import settings

Report = Callable[..., None]  # (stage, done=0, total=None, final=False)


def quiet(stage: str, done: int = 0, total: int | None = None, final: bool = False) -> None:
    """A report that says nothing: the default wherever a stage can report."""


# A terminal that reports no size (a pseudo-terminal nobody sized: `script` run from a pipe, some CI runners) is
# taken to be the usual one; told 0 rows, tqdm would draw every bar as a blank line.
USUAL_SIZE = (80, 24)


def terminal_size(stream: IO[str]) -> tuple[int, int]:
    """(columns, rows) of the terminal ``stream`` writes to: COLUMNS and LINES first, as shells set them, then the
    terminal's own; the usual 80 x 24 for whichever is unknown or zero."""
    try:
        size = os.get_terminal_size(stream.fileno())
        found = [size.columns, size.lines]
    except (AttributeError, ValueError, OSError):  # not a file, closed, or not a terminal
        found = [0, 0]
    given = settings.read()
    for i, value in enumerate((given.columns, given.lines)):
        if value:
            found[i] = value
    return found[0] or USUAL_SIZE[0], found[1] or USUAL_SIZE[1]


@dataclass
class _Stage:
    started: float
    done: int = 0
    total: int | None = None
    bar: Any = None


@dataclass
class Progress:
    """Reports stages to a stream: bars on a terminal, one timed line a stage elsewhere."""

    stream: IO[str] = field(default_factory=lambda: sys.stderr)
    tty: bool | None = None
    stages: dict[str, _Stage] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.tty is None:
            self.tty = self.stream.isatty()

    def __call__(self, stage: str, done: int = 0, total: int | None = None, final: bool = False) -> None:
        now = self.stages.get(stage)
        if now is None:
            now = self.stages[stage] = _Stage(time.perf_counter())
            if self.tty:
                from tqdm import tqdm  # a terminal only: a plain log never loads it

                columns, rows = terminal_size(self.stream)
                now.bar = tqdm(total=total, desc=stage, file=self.stream, position=len(self.stages) - 1,
                               leave=True, ncols=min(columns, 100), nrows=rows,
                               bar_format=None if total else "{desc}: {n} ({elapsed})")
        now.done, now.total = done, total if total is not None else now.total
        if now.bar is not None:
            if now.total is not None and now.bar.total != now.total:
                now.bar.total = now.total
            now.bar.update(done - now.bar.n)
        if final:
            self.end(stage)

    def end(self, stage: str, quietly: bool = False) -> None:
        """Close a stage: its bar, or its plain line with the time it took (none ``quietly``: it did not finish)."""
        now = self.stages.pop(stage, None)
        if now is None:
            return
        if now.bar is not None:
            now.bar.close()
            return
        if quietly:
            return
        seconds = time.perf_counter() - now.started
        count = f" {now.done} of {now.total}" if now.total else (f" {now.done}" if now.done else "")
        print(f"{stage}:{count} ({seconds:.1f} s)", file=self.stream, flush=True)

    def close(self, quietly: bool = False) -> None:
        """End every stage still open; ``quietly`` when the command failed (its error says why, not a time)."""
        for stage in list(self.stages):
            self.end(stage, quietly)


@contextlib.contextmanager
def shown() -> Iterator[Progress]:
    """The stages of a long command, shown on stderr as they run; closed quietly if the command fails."""
    progress = Progress()
    try:
        yield progress
    except BaseException:
        progress.close(quietly=True)
        raise
    progress.close()

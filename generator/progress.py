"""What a long command is doing, stage by stage: validate, the site's pages, the book's pages, the score sheets.

A stage is reported as it runs: ``report(stage, done, total)``, ``done`` of ``total`` (``total`` None when the
count is not known ahead, as the book's pages are not). On a terminal each stage is a tqdm bar that fills as
it goes; anywhere else (CI, a pipe, a log) each stage prints one plain line when it ends, with its count and
its time, so a log says where the time went without a line per page.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import IO, Any

Report = Callable[[str, int, "int | None"], None]


def quiet(stage: str, done: int = 0, total: int | None = None) -> None:
    """A report that says nothing (the default of every stage that can report)."""


class Progress:
    """Reports stages to a stream: bars on a terminal, one line a stage with its time elsewhere."""

    def __init__(self, stream: IO[str] | None = None, tty: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.stage: str | None = None
        self.started = 0.0
        self.done, self.total = 0, None
        self.bar: Any = None

    def __call__(self, stage: str, done: int = 0, total: int | None = None) -> None:
        if stage != self.stage:
            self.end()
            self.stage, self.started = stage, time.perf_counter()
            if self.tty:
                from tqdm import tqdm  # a terminal only: a plain log never imports it

                self.bar = tqdm(total=total, desc=stage, file=self.stream, leave=True, dynamic_ncols=True,
                                unit=" pages" if "page" in stage else "")
        self.done, self.total = done, total if total is not None else self.total
        if self.bar is not None:
            if total is not None and self.bar.total != total:
                self.bar.total = total
            self.bar.update(done - self.bar.n)

    def end(self) -> None:
        """Close the stage under way: its bar, or its plain line with the time it took."""
        if self.stage is None:
            return
        seconds = time.perf_counter() - self.started
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        else:
            count = f" {self.done} of {self.total}" if self.total else (f" {self.done}" if self.done else "")
            print(f"{self.stage}:{count} ({seconds:.1f} s)", file=self.stream, flush=True)
        self.stage = None

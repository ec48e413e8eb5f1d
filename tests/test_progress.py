"""Long commands show their stages as they run (progress.py): bars on a terminal, a timed line each elsewhere."""

from __future__ import annotations

import fcntl
import io
import os
import re
import select
import struct
import sys
import termios

import pytest

from generator.progress import Progress

# (reports in the order they come, the plain lines expected, in order, as patterns)
STAGES = [
    ([("validate",), ("validate", 0, None, True)], [r"validate: \(\d+\.\d s\)"]),
    # the book and the sheets are laid out side by side: their reports interleave, each ends on its own
    ([("book pages laid out", 1), ("score sheets", 1, 3), ("book pages laid out", 2), ("score sheets", 3, 3, True),
      ("book pages laid out", 2, 2, True)],
     [r"score sheets: 3 of 3 \(\d+\.\d s\)", r"book pages laid out: 2 of 2 \(\d+\.\d s\)"]),
]


@pytest.mark.parametrize("reports,expected", STAGES, ids=["one stage", "two at once"])
def test_a_log_gets_one_line_a_stage_when_it_ends(reports, expected):
    out = io.StringIO()
    shown = Progress(out, tty=False)
    for report in reports:
        shown(*report)
    shown.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == len(expected) and all(re.fullmatch(p, got) for p, got in zip(expected, lines, strict=True)), lines


def test_a_failed_command_prints_no_time_for_what_did_not_finish():
    out = io.StringIO()
    shown = Progress(out, tty=False)
    shown("book pages laid out", 3)
    shown.close(quietly=True)
    assert out.getvalue() == ""


def test_a_terminal_gets_a_bar_that_fills():
    out = io.StringIO()
    shown = Progress(out, tty=True)
    for n in range(1, 4):
        shown("score sheets", n, 3)
    shown("score sheets", 3, 3, final=True)
    shown("book pages laid out", 5)
    shown.close()
    text = out.getvalue()
    assert "score sheets: 100%" in text and "3/3" in text and "book pages laid out: 5" in text


def _on_a_terminal(size: tuple[int, int] | None) -> str:
    """What the bars draw on a pseudo-terminal of ``size`` (columns, rows), or of none reported (0 x 0: a pty nobody
    sized, as `script` run from a pipe gives), the command's error stream as a command has it (tqdm asks the size of
    sys.stderr's terminal only)."""
    main, side = os.openpty()
    if size is not None:
        fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    with os.fdopen(side, "w", encoding="utf-8") as stream, pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stderr", stream)
        shown = Progress()
        assert shown.tty
        for n in range(1, 4):
            shown("score sheets", n, 3)
        shown("score sheets", 3, 3, final=True)
        shown("site pages written and checked", 12)
        shown.close()
        stream.flush()
        drawn = b""
        while True:
            if not select.select([main], [], [], 0.5)[0]:
                break
            drawn += os.read(main, 65536)
    os.close(main)
    return drawn.decode("utf-8", "replace")


@pytest.mark.parametrize("size,width", [(None, 80), ((0, 0), 80), ((50, 0), 50), ((0, 3), 80), ((200, 40), 100),
                                        ((50, 10), 50)],
                         ids=["no size", "zero size", "no rows", "no columns", "wide", "narrow"])
def test_a_terminal_that_reports_no_size_gets_bars_of_the_usual_width(monkeypatch, size, width):
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    drawn = _on_a_terminal(size)
    frames = [f for f in re.split(r"[\r\n]+", re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", drawn)) if f.strip()]
    assert any("score sheets: 100%" in f and "3/3" in f for f in frames), drawn
    assert any("site pages written and checked: 12" in f for f in frames), drawn
    bars = [f for f in frames if "%|" in f]
    assert max(len(f) for f in bars) == width, bars


def test_columns_and_lines_set_by_the_shell_win(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    monkeypatch.setenv("LINES", "30")
    from generator.progress import terminal_size

    assert terminal_size(io.StringIO()) == (60, 30)
    monkeypatch.setenv("COLUMNS", "0")
    monkeypatch.setenv("LINES", "wide")
    assert terminal_size(io.StringIO()) == (80, 24)

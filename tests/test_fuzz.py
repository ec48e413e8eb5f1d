"""Careless and hostile edits of the real data files: validate ends within seconds, with exit 0 or one line per
problem (`path:line: what is wrong...`), never a traceback.

Hypothesis edits one copy of the project, one to three edits at a time, each undone after the example: a file cut
short; a line deleted, duplicated or indented; a number replaced by an extreme or a non-numeric value; invalid
bytes put in; the file removed, or a folder put in its place. `rulebook validate` runs in this process
(``cli.main``), for the current or the published edition. `make test` runs a few examples with a fixed seed;
`make fuzz` runs a long random search (RULEBOOK_FUZZ_EXAMPLES, default there 3000).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from generator.cli import main
from tests import hostile
from tests.conftest import CURRENT, PUBLISHED, ROOT, copy_project

LONG_SEARCH = "RULEBOOK_FUZZ_EXAMPLES" in os.environ
EXAMPLES = int(os.environ.get("RULEBOOK_FUZZ_EXAMPLES", "25"))
# An edit validates in about 0.2 s of CPU. Over CPU_LIMIT it is a loop that never ends, over WALL_LIMIT a wait that
# never ends (a read of a pipe): limits in CPU time, so that a busy machine does not fail the test.
CPU_LIMIT, WALL_LIMIT = 5, 60
LINE_LIMIT = 1000  # characters in one line of output: a finding is a line a person reads

FILES = sorted(p.relative_to(ROOT).as_posix() for p in [*(ROOT / "rules_data").rglob("*.yaml"),
                                                       *(ROOT / "content").glob("*.md")])
NUMBER = re.compile(rb"(?<![\w.])-?\d+(?![\w.])")
EXTREMES = [b"-1", b"0", b"-0", b"99999999999999999999", b"4-99999999", b"2147483648", b"1.5", b"1e309", b".nan",
            b"x", b"~", b"''", b"[]", b"{}", b'"-1-4"', b"7-3", b"1" * 5000, b"0-0", b"multiples of 0", b"\"\"",
            b"-99999999", b"1.0000000000000000001", b"  ", b"!!python/object:os.system", b"&a", b"*a"]
BYTES = [b"\xff", b"\x00", b"\xc3", b"\xe2\x80", b"\r", b"\x1b[2J", b"\t", b"\xef\xbb\xbf", b"\\", b"\x85"]
# One line of output: a problem at its file (and line), an `error: ...` line, a finding, or validate's summary.
ONE_LINE = re.compile(r"[\w./-]+(:\d+){0,2}: \S.*|error: \S.*|accepted: \S.*|\d+ errors?, \d+ warnings?.* in \d+ games?")


@st.composite
def edits(draw) -> tuple[str, list[tuple]]:
    """A file and one to three edits of it: (kind, where, what)."""
    file = draw(st.sampled_from(FILES))
    ops = draw(st.lists(st.tuples(st.sampled_from(["cut", "delete", "duplicate", "indent", "number", "bytes"]),
                                  st.integers(0, 999).map(lambda n: n / 1000), st.integers(0, 64)),
                        min_size=1, max_size=3))
    gone = draw(st.sampled_from([None] * 18 + ["removed", "folder"]))
    return file, ops + ([(gone, 0.0, 0)] if gone else [])


def edited(raw: bytes, ops: list[tuple]) -> bytes | None:
    """``raw`` with the edits made (None: the file is removed, or a folder is put in its place)."""
    for kind, at, n in ops:
        lines = raw.split(b"\n")
        i = int(at * len(lines))
        if kind == "cut":
            raw = raw[: int(at * len(raw))]
        elif kind == "delete":
            raw = b"\n".join(lines[:i] + lines[i + 1 + n % 3:])
        elif kind == "duplicate":
            raw = b"\n".join(lines[: i + 1] + lines[i: i + 1 + n % 3] + lines[i + 1:])
        elif kind == "indent":
            line = lines[i].lstrip(b" ")
            lines[i] = b" " * (n % 9) + line
            raw = b"\n".join(lines)
        elif kind == "number":
            numbers = list(NUMBER.finditer(raw))
            if numbers:
                m = numbers[int(at * len(numbers))]
                raw = raw[: m.start()] + EXTREMES[n % len(EXTREMES)] + raw[m.end():]
        elif kind == "bytes":
            pos = int(at * len(raw))
            raw = raw[:pos] + BYTES[n % len(BYTES)] + raw[pos:]
        else:  # removed, or a folder
            return None
    return raw


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return copy_project(tmp_path_factory.mktemp("fuzz") / "project")


@contextlib.contextmanager
def time_limit(cpu: float = CPU_LIMIT, wall: float = WALL_LIMIT):
    """Raise TimeoutError in the block after ``cpu`` seconds of this process's CPU time, or ``wall`` seconds."""
    def hung(signum, frame):
        raise TimeoutError(f"validate took more than {cpu} s of CPU or {wall} s: it would never end")

    before = {s: signal.signal(s, hung) for s in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, cpu)
    signal.setitimer(signal.ITIMER_REAL, wall)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for s, handler in before.items():
            signal.signal(s, handler)


def validate(project: Path, edition: str) -> tuple[int, str, str]:
    """`rulebook validate` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_limit():
        code = main(["--root", str(project), "validate", "--edition", edition])
    return code, out.getvalue(), err.getvalue()


@settings(max_examples=EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(edit=edits(), edition=st.sampled_from([CURRENT, PUBLISHED]))
# Edits that ended in a traceback, never ended or printed a paragraph before issue 33, run every time: Trash for 4-2147483648 players
# (validate never ended), decks: -1 (ValueError), a number of 5,000 digits in prose (ValueError: Python reads
# 4,300), a control character in YAML (libyaml's three-line message), a line gone from a frozen record
# (AttributeError), a frozen record's text emptied (TypeError in edition.not_published), a paragraph in a frozen
# record made a key by a stray byte (a message quoting it whole: 1,805 characters), a byte-order mark in a frozen
# record's file name (a finding at "c\ufeffontent/honeymoon-whist.md").
@example(edit=("rules_data/frozen/2026.1/honeymoon-whist.yaml", [("bytes", 0.378, 7)]), edition=CURRENT)
@example(edit=("rules_data/frozen/2026.1/page-about.yaml", [("cut", 0.165, 0), ("delete", 0.75, 0)]), edition=CURRENT)
@example(edit=("rules_data/frozen/2026.1/page-about.yaml", [("bytes", 0.288, 54)]), edition=CURRENT)
@example(edit=("rules_data/trash.yaml", [("number", 0.071, 5)]), edition=CURRENT)
@example(edit=("rules_data/trash.yaml", [("number", 0.112, 0)]), edition=CURRENT)
@example(edit=("content/arizona-rummy.md", [("number", 0.0, 16)]), edition=CURRENT)
@example(edit=("rules_data/push.yaml", [("bytes", 0.963, 5)]), edition=CURRENT)
@example(edit=("rules_data/frozen/2026.1/page-about.yaml", [("delete", 0.261, 59)]), edition=CURRENT)
def test_an_edited_file_gets_one_line_per_problem_never_a_traceback(project, monkeypatch, edit, edition):
    file, ops = edit
    monkeypatch.setenv("XDG_CACHE_HOME", str(project.parent / "cache"))  # not the user's cache: 1000s of new files
    path = project / file
    original = path.read_bytes()
    raw = edited(original, ops)
    try:
        if raw is None:
            path.unlink()
            if ops[-1][0] == "folder":
                path.mkdir()
        else:
            path.write_bytes(raw)
        code, out, err = validate(project, edition)
    finally:
        if path.is_dir():
            shutil.rmtree(path)
        path.write_bytes(original)
    hostile.tried("fuzzed edits of the data")
    assert code in (0, 1), (code, out, err)
    assert "Traceback" not in out + err
    lines = [line for line in (out + err).splitlines() if line.strip()]
    assert lines, "validate said nothing"
    for line in lines:
        assert len(line) <= LINE_LIMIT, f"a line of {len(line)} characters: {line[:200]}..."
        assert ONE_LINE.fullmatch(line), f"not one line per problem: {line!r}"
    if code == 1:
        assert any(line.startswith(("error: ", "rules_data/", "content/")) for line in lines), out + err

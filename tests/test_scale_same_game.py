"""Validate is linear in the games, near-identical ones included (issue 60, item 1). Counted, not timed: the calls of
each function the load and the checks make (``sys.setprofile``), on books of 8 and 32 copies of one game, each read
with a cache of its own. Code that is linear in the games calls each function at most 4 times as often for 4 times
the games (sorting, n log n, about 6.7 times); a loop over the games inside a loop over them, 16 times. bench/ times
the whole at 250 and 2,000 copies (``validate_same_ratio``: at most 10 times the time for 8 times the games).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from generator.book.library import load_library
from generator.checks import run_checks

GAME, FEW, MANY = "basic-rummy", 8, 32
BOUND = 10  # times as many calls of one function for 4 times the games
FLOOR = 200  # calls at MANY: a function called less often than this costs nothing worth counting


def _calls(root) -> Counter:
    """How often each function is called while ``root`` is loaded and checked."""
    count: Counter = Counter()

    def counted(frame, event, arg):
        if event == "call":
            count[(frame.f_code.co_filename, frame.f_code.co_firstlineno, frame.f_code.co_name)] += 1
        elif event == "c_call":
            count[("builtin", 0, getattr(arg, "__qualname__", str(arg)))] += 1
    sys.setprofile(counted)
    try:
        run_checks(load_library(root))
    finally:
        sys.setprofile(None)
    return count


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    from bench.synthetic import make_book

    return {n: make_book(tmp_path_factory.mktemp(f"same{n}") / "book", n, only=GAME) for n in (FEW, MANY)}


def _counted_in_a_process_of_its_own(root, cache) -> Counter:
    """The calls of a validate of ``root`` in a new process (nothing cached in memory by an earlier book's run)."""
    code = ("import json, sys; from pathlib import Path; from tests.test_scale_same_game import _calls; "
            "print(json.dumps([[list(k), v] for k, v in _calls(Path(sys.argv[1])).items()]))")
    done = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parent.parent, env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    return Counter({tuple(k): v for k, v in json.loads(done.stdout)})


def test_no_function_is_called_more_than_linearly_in_copies_of_one_game(books, tmp_path):
    counts = {n: _counted_in_a_process_of_its_own(root, tmp_path / f"cache{n}") for n, root in books.items()}
    grown = {f"{where[0].rsplit('/', 2)[-1]}:{where[1]} {where[2]}": (counts[FEW][where], calls)
             for where, calls in counts[MANY].items() if calls >= FLOOR and calls > BOUND * counts[FEW][where]}
    assert not grown, f"called more than {BOUND} times as often for 4 times the games (at {FEW}, at {MANY}): {grown}"

"""A pytest plugin for the suite benchmark (`bench/run.py suite`): the CPU time each test took.

Loaded by `make test` with ``PYTEST_ADDOPTS="-p bench.suite_cpu"`` and ``BENCH_SUITE_CPU`` naming a file;
each pytest-xdist worker appends one JSON line per test phase (setup, call, teardown): its file, its id and
the CPU seconds (user and system) the worker and the children it waited for took meanwhile. A child waited
for later (a browser the session closes at its end) counts where it is waited for.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest

OUT = "BENCH_SUITE_CPU"


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _record(item: pytest.Item, phase: str, start: float) -> None:
    with open(os.environ[OUT], "a", encoding="utf-8") as out:
        out.write(json.dumps({"file": item.path.name, "id": item.nodeid, "phase": phase, "cpu": _cpu() - start}) + "\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item):
    start = _cpu()
    yield
    _record(item, "setup", start)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item):
    start = _cpu()
    yield
    _record(item, "call", start)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item):
    start = _cpu()
    yield
    _record(item, "teardown", start)


def by_file(path: Path) -> dict[str, float]:
    """CPU seconds per test file (its fixtures' setup included), most first."""
    total: Counter[str] = Counter()
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        total[row["file"]] += row["cpu"]
    return {name: round(cpu, 1) for name, cpu in total.most_common()}

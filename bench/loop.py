"""The everyday loop (issue 14): validate on save, `make` with nothing changed, `make` after a one-game edit.

Each figure is the best of N wall-clock runs of the real command in a fresh process, interleaved
with the reference it is compared with; the result is the ratio, since the machine's speed
drifts. The one-game build is also compared byte for byte with a full build of the same sources.
"""

from __future__ import annotations

import filecmp
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(cmd: list[str], cwd: Path = ROOT) -> float:
    env = {**os.environ, "RULEBOOK_PDF_JOBS": os.environ.get("RULEBOOK_PDF_JOBS", "1")}
    # Timed as on a contributor's machine: Python keeps compiled modules. With PYTHONDONTWRITEBYTECODE
    # set (as on the development machine) and no __pycache__ yet, every run compiles the generator
    # again, and `rulebook validate` took 1.1 s instead of 0.45 s.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def _best(*cmds: list[str], repeat: int = 5, cwd: Path = ROOT) -> list[float]:
    """Best of ``repeat`` for each command, the commands interleaved."""
    best = [float("inf")] * len(cmds)
    for _ in range(repeat):
        for i, cmd in enumerate(cmds):
            best[i] = min(best[i], _run(cmd, cwd))
    return best


def _differences(a: Path, b: Path) -> list[str]:
    """Files that differ (or exist on one side only) between two output folders."""
    out: list[str] = []

    def walk(cmp: filecmp.dircmp, rel: str) -> None:
        out.extend(f"{rel}{n}" for n in cmp.left_only + cmp.right_only + cmp.funny_files)
        _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
        out.extend(f"{rel}{n}" for n in mismatch + errors)
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{rel}{name}/")

    for part in ("pdf", "site"):
        walk(filecmp.dircmp(a / part, b / part), f"{part}/")
    return out


def validate(results: dict, repeat: int = 5, cwd: Path = ROOT) -> None:
    """`rulebook validate` of the book in ``cwd``, against Python starting and importing what validation needs."""
    py = str(BIN / "python")
    validate_s, imports_s, bare_s = _best([str(BIN / "rulebook"), "validate"],
                                          [py, "-c", "import generator.checks, generator.commands.validate"], [py, "-c", "pass"],
                                          repeat=repeat, cwd=cwd)
    results.update(loop_validate_s=validate_s, loop_validate_imports_s=imports_s, loop_python_bare_s=bare_s,
                   loop_validate_target_s=0.3, loop_validate_vs_target=validate_s / 0.3)


def make_noop(results: dict, repeat: int = 5, cwd: Path = ROOT) -> None:
    """`make` with nothing changed in ``cwd``, against `make help`, a target that does nothing (make's own start-up)."""
    subprocess.run(["make"], cwd=cwd, check=True, capture_output=True)  # bring build/ up to date first
    noop_s, help_s = _best(["make"], ["make", "help"], repeat=repeat, cwd=cwd)
    results.update(loop_make_noop_s=noop_s, loop_make_help_s=help_s, loop_make_noop_vs_1s=noop_s / 1.0)


def one_game(results: dict, tmp: Path, project_copy: Callable[[Path], Path] | None = None, builds: int = 2) -> None:
    """A full build, then a one-word edit to one game built over it, against a full build of the edited sources.

    The command is `make`'s recipe (`rulebook build`, which validates and reports), run on a copy of the sources
    (``project_copy`` writes it; the project's own by default). The game is one the current edition introduced
    (tests/conftest.py ``edit_one_word``): the words of a published game are frozen, and a build refuses an edit to them.
    """
    from tests.conftest import copy_project, edit_one_word

    project = (project_copy or copy_project)(tmp / "loop-project")
    rulebook = [str(BIN / "rulebook"), "--root", str(project)]

    def make(out: Path) -> float:
        return _run(rulebook + ["build", "--out", str(out)])

    first = make(project / "build")
    edit_one_word(project)
    again, full, differ = float("inf"), first, []
    for n in range(builds):  # interleaved: the edited build over the last one, then from nothing
        if n:
            edit_one_word(project, undo=True)
            make(project / "build")
            edit_one_word(project)
        again = min(again, make(project / "build"))
        fresh = tmp / f"loop-fresh-{n}"
        full = min(full, make(fresh))
        differ += _differences(project / "build", fresh)
        shutil.rmtree(fresh)
    results.update(loop_one_game_make_s=again, loop_full_make_s=full, loop_one_game_vs_full=again / full,
                   loop_one_game_identical_to_full=not differ, loop_one_game_differing_files=differ[:10])


def _cpu_of_children() -> float:
    """CPU seconds (user and system) of every process this one has started and waited for, theirs included."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def suite(results: dict, args: tuple[str, ...] = ()) -> None:
    """`make test` once (``args`` added to its command line), and the CPU time it took: that time shared by every
    CPU is as fast as it can go."""
    from bench.suite_cpu import OUT, by_file

    per_test = Path(tempfile.mkdtemp()) / "suite-cpu.jsonl"  # each test's CPU time (bench/suite_cpu.py)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update({OUT: str(per_test), "PYTEST_ADDOPTS": f"{env.get('PYTEST_ADDOPTS', '')} -p bench.suite_cpu".strip()})
    start, cpu = time.perf_counter(), _cpu_of_children()  # the README's command as CI runs it (RULEBOOK_PDF_JOBS unset)
    subprocess.run(["make", "test", *args], cwd=ROOT, check=True, capture_output=True, env=env)
    results.update(loop_make_test_s=time.perf_counter() - start, loop_make_test_target_s=90.0,
                   loop_make_test_cpu_s=_cpu_of_children() - cpu, loop_cpus=len(os.sched_getaffinity(0)))
    results["loop_make_test_floor_s"] = results["loop_make_test_cpu_s"] / results["loop_cpus"]
    results["loop_make_test_vs_target"] = results["loop_make_test_s"] / 90.0
    results["loop_make_test_cpu_by_file"] = by_file(per_test)  # where the suite's CPU time goes, most first
    shutil.rmtree(per_test.parent, ignore_errors=True)


def loop(results: dict, tmp: Path, scale: Any) -> None:
    """Validate, make with nothing changed, make after a one-game edit (``scale``: bench/run.py's Scale)."""
    validate(results, scale.loop_repeat, scale.root)
    make_noop(results, scale.loop_repeat, scale.root)
    one_game(results, tmp, scale.project, scale.loop_builds)

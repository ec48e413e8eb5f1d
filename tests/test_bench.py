"""Every part of `make bench` runs, on a one-game book and once each (bench/run.py's ``Scale``), so that a change to the
data, the checks or the pipeline's calls cannot break a benchmark unseen (they ended in tracebacks for weeks: a
generated book read a `category:` line the data no longer had, and the loop edited a published game's words, which
the frozen check refuses). Its timings mean nothing; what is asserted is that every part ran and reported."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

from bench.run import TARGETS, Scale, run, targets
from tests.conftest import EDITED_GAME, ROOT, small_project


def _tiny(dest: Path) -> Path:
    """A one-game book (the game the loop edits), with the Makefile and the project's virtual environment, so that
    `make` builds it as it builds the book."""
    project = small_project(dest, (EDITED_GAME,))
    for name in ("Makefile", "pyproject.toml", "requirements.lock"):
        shutil.copy2(ROOT / name, project / name)  # their times kept: the environment's stamp is no older than them
    (project / ".venv").symlink_to(ROOT / ".venv")
    return project


def test_every_benchmark_part_runs_on_a_tiny_book(tmp_path, monkeypatch):
    root = _tiny(tmp_path / "tiny")
    dry_run = subprocess.run(["make", "-n"], cwd=root, capture_output=True, text=True).stdout
    assert "pip install" not in dry_run, "the virtual environment is out of date: run `make` first"
    scale = Scale(root=root, project=lambda dest: small_project(dest, (EDITED_GAME,)), repeat=1, loop_repeat=1,
                  loop_builds=1, validation_games=(10, 40), same_game=(EDITED_GAME, (2, 16)), pdf_games=(2,), site_games=(2,), site_pairs=(1, 1),
                  copyfit=(("2026.1", "letter", 1),),
                  # 2026.1 laid out as printed, a game too long for its printed pages (its extra page numbered 32a):
                  # fitting turned off once ended this part in a traceback (no tightest step to set it at).
                  copyfit_root=small_project(tmp_path / "printed", ("gin-rummy-tournament",), as_printed=True),
                  editions=(1, 1, 1), editions_project=lambda dest: small_project(dest, (EDITED_GAME, "euchre")),
                  publish_pairs=1,
                  suite_args=(f"PYTEST_ARGS=tests/test_numwords.py -n 0 -q -p no:cacheprovider --basetemp={tmp_path / 'suite'}",))
    # A render of inputs rendered before in this run is copied (the loop builds the same book from nothing twice).
    monkeypatch.setenv("RULEBOOK_PDF_CACHE", str(tmp_path / "pdf-renders"))
    (tmp_path / "work").mkdir()
    results = run([], {}, tmp_path / "work", scale)
    lines = targets(results, scale)
    assert len(lines) == len(TARGETS), lines  # every target was measured
    ratios = [results[ratio.format(n=2)] for _, _, _, ratio, _ in TARGETS]
    assert all(math.isfinite(ratio) and ratio > 0 for ratio in ratios), lines
    assert results["loop_one_game_identical_to_full"], results["loop_one_game_differing_files"]
    assert results["pdf_one_game_change_parts"] == 1  # the edited game's section, laid out again alone
    # Forty games: every game of the book copied once or twice, under a name and a title of its own.
    assert results["validate_40_ms_per_game"] > 0
    assert results["copyfit_2026.1_letter_pages"] == results["copyfit_2026.1_letter_pages_unfitted"]  # as printed
    assert results["loop_make_test_cpu_by_file"].keys() == {"test_numwords.py"}

"""Shared fixtures: the project root, each edition's library, and each edition built once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.build import build
from generator.library import load_library

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CURRENT = "2026.2"
PUBLISHED = "2026.1"


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def library():
    return load_library(ROOT)


@pytest.fixture(scope="session")
def published_library():
    return load_library(ROOT, PUBLISHED)


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> dict[str, Path]:
    """Both editions, site and PDF, built once per test session (shared by pytest-xdist's workers)."""
    return {edition: _shared_build(tmp_path_factory, edition) for edition in (CURRENT, PUBLISHED)}


def _shared_build(tmp_path_factory, edition: str) -> Path:
    """One build of ``edition`` per session: under pytest-xdist the first worker to ask builds, the others wait."""
    import fcntl
    import os

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker's folder sits in the session's
        base = base.parent
    target, done = base / f"build-{edition}", base / f"build-{edition}.done"
    with open(base / f"build-{edition}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or if the worker dies
        if not done.exists():
            build(ROOT, edition_id=edition, out=target)
            done.touch()
    return target.resolve()


def copy_project(dest: Path) -> Path:
    """A throw-away copy of the project's sources (for tests that edit or break them)."""
    for name in ("rules_data", "content", "templates", "schema"):
        shutil.copytree(ROOT / name, dest / name)
    shutil.copy(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    return dest


def edit_one_word(project: Path) -> Path:
    """Swap one word of Euchre's prose for another as wide ('player' -> 'person'), so no page moves."""
    prose = project / "content" / "euchre.md"
    text = prose.read_text(encoding="utf-8")
    assert " player " in text
    prose.write_text(text.replace(" player ", " person ", 1), encoding="utf-8")
    return prose


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Print how many hostile inputs were tried, by kind, and how many got through."""
    from tests.hostile import GOT_THROUGH, TRIED

    _fidelity_summary(terminalreporter)

    if not TRIED:
        return
    kinds = ", ".join(f"{kind}: {n}" for kind, n in sorted(TRIED.items()))
    through = sum(GOT_THROUGH.values())
    terminalreporter.write_sep("-", "hostile inputs")
    terminalreporter.write_line(f"{sum(TRIED.values())} hostile inputs tried ({kinds}); "
                                f"{through if through else 'none'} got through")


def _fidelity_summary(terminalreporter) -> None:
    """Print how many source sentences the fidelity test read, per seed, edition and output."""
    from tests.test_fidelity import summary_line

    if summary_line():
        terminalreporter.write_sep("-", "fidelity")
        terminalreporter.write_line(summary_line())

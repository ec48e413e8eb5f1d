"""Shared fixtures: the project root, each edition's library, and each edition built once."""

from __future__ import annotations

import contextlib
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


def _session_folder(tmp_path_factory) -> Path:
    """The test session's temporary folder, the same for every pytest-xdist worker."""
    import os

    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # a worker's folder sits in the session's


@contextlib.contextmanager
def sharing_pdfs(tmp_path_factory):
    """Within this block, a PDF render whose inputs were rendered before in this session is copied
    (RULEBOOK_PDF_CACHE, ``generator/render/cache.py``). For fixtures that build the book as it is
    (several do, in several workers); tests of the render itself run without it."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULEBOOK_PDF_CACHE", str(_session_folder(tmp_path_factory) / "pdf-renders"))
        yield


def _shared_build(tmp_path_factory, edition: str) -> Path:
    """One build of ``edition`` per session: under pytest-xdist the first worker to ask builds, the others wait."""
    import fcntl

    base = _session_folder(tmp_path_factory)
    target, done = base / f"build-{edition}", base / f"build-{edition}.done"
    with open(base / f"build-{edition}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or if the worker dies
        if not done.exists():
            with sharing_pdfs(tmp_path_factory):
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


def _tallies() -> dict:
    """The counters the end-of-run summary prints, by name."""
    from tests.hostile import GOT_THROUGH, TRIED
    from tests.test_fidelity import CHECKED

    return {"tried": TRIED, "through": GOT_THROUGH, "checked": CHECKED}


def pytest_sessionfinish(session):
    """Under pytest-xdist, a worker hands its counts to the controller, which prints the summary."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["rulebook_tallies"] = {name: list(counter.items()) for name, counter in _tallies().items()}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """Add a finished worker's counts to the controller's (the hook exists only under pytest-xdist)."""
    tallies = _tallies()
    for name, items in getattr(node, "workeroutput", {}).get("rulebook_tallies", {}).items():
        for key, n in items:
            tallies[name][tuple(key) if isinstance(key, list) else key] += n


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

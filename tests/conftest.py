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
    """Both editions, site and PDF, built once per test session (shared by pytest-xdist's workers).

    A worker first builds an edition no other worker is building, then waits for the rest: the two
    workers that start by asking build the two editions at once, instead of one waiting for both."""
    out: dict[str, Path] = {}
    for wait in (False, True):
        for edition in (CURRENT, PUBLISHED):
            if edition not in out and (path := _shared_build(tmp_path_factory, edition, wait)) is not None:
                out[edition] = path
    return {edition: out[edition] for edition in (CURRENT, PUBLISHED)}


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


def _shared_build(tmp_path_factory, edition: str, wait: bool = True) -> Path | None:
    """One build of ``edition`` per session: under pytest-xdist the first worker to ask builds, the others wait
    (or, with ``wait`` false, get None while another worker is building it)."""
    import fcntl

    base = _session_folder(tmp_path_factory)
    target, done = base / f"build-{edition}", base / f"build-{edition}.done"
    with open(base / f"build-{edition}.lock", "w") as lock:
        try:  # released when the file closes, or if the worker dies
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            return None
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


def as_published(project: Path) -> Path:
    """Record the copy's 2026.1 as the published edition (`rulebook freeze`): a test that plants a mistake
    in a game of that edition plays a book that was printed with it, not a change to the printed book."""
    from generator.freeze import write

    write(load_library(project, PUBLISHED))
    return project


def edit_one_word(project: Path) -> Path:
    """Swap one word of Euchre's prose for another as wide ('player' -> 'person'), so no page moves
    (recorded as published: the edit is a test of layout, not a correction of the printed book)."""
    prose = project / "content" / "euchre.md"
    text = prose.read_text(encoding="utf-8")
    assert " player " in text
    prose.write_text(text.replace(" player ", " person ", 1), encoding="utf-8")
    as_published(project)
    return prose


# The test files that take longest (most lay the book out for real), run first. Each pytest-xdist worker
# takes the next file when it is done, so a long file taken last kept the other CPU idle to the end (the
# preview test's 19 s). From `make test PYTEST_ARGS="-n auto --dist loadfile --durations=0"`, longest first.
SLOW_FIRST = ("test_sheets.py", "test_pdf.py", "test_copyfit.py", "test_hostile.py", "test_browser.py",
              "test_pdfjs_calc.py", "test_source_words.py", "test_preview.py", "test_structure.py",
              "test_published_edition.py", "test_build.py", "test_writer.py")


def pytest_collection_modifyitems(session, config, items):
    """The longest test files first (SLOW_FIRST), the others after them in their usual order."""
    rank = {name: n for n, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # a stable sort: each file's tests as written


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

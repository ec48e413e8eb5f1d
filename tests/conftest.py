"""Shared fixtures: the project root, each edition's library, and each edition built once."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.book.library import load_library
from generator.commands.build import build

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


def built_pdfs(built: dict[str, Path]) -> list[tuple[str, Path]]:
    """The PDFs of the shared builds that a check of every PDF reads, as (edition, file): each of the current edition;
    of the published edition its book, its score pad and one sheet on its own. The pad holds every sheet's pages,
    written by the same writer from the same laid-out pages as each sheet's own file (render/pdf/scorepad.py); what a
    sheet's file has of its own (its catalogue: title, language, structure root, form) is made by the same code for
    every sheet, and is read in each sheet of the current edition and in one of the published edition."""
    current = sorted((built[CURRENT] / "pdf").rglob("*.pdf"))
    folder = built[PUBLISHED] / "pdf"
    sheets = sorted((folder / "score-sheets").glob("*.pdf"))
    assert sheets and len(list(folder.glob("*.pdf"))) == 2, "the published edition's book, pad and sheets"
    published = [*sorted(folder.glob("*.pdf")), sheets[0]]
    return [(CURRENT, pdf) for pdf in current] + [(PUBLISHED, pdf) for pdf in published]


def _session_folder(tmp_path_factory) -> Path:
    """The test session's temporary folder, the same for every pytest-xdist worker."""
    import os

    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # a worker's folder sits in the session's


# The cache `make` keeps beside its build: the renders it made of the book as it is. The suite reads them where their
# digest matches (the code, the templates, the sources: ``generator/render/pdf/cache.py``) and renders into it where
# not, so `make && make test` renders each edition once, and a fresh clone's `make test` once too.
BUILD_CACHE = ROOT / "build" / ".cache"


@contextlib.contextmanager
def sharing_pdfs(tmp_path_factory, book_as_it_is: bool = True):
    """Within this block, a PDF render whose inputs were rendered before is copied (RULEBOOK_PDF_CACHE): the book as it
    is (or a copy of its sources) from the cache `make` keeps (``BUILD_CACHE``), another book (``book_as_it_is``
    false: the small project) from the session's own. For fixtures that build a book (several do, in several
    workers); tests of the render itself run without it."""
    folder = BUILD_CACHE if book_as_it_is else _session_folder(tmp_path_factory) / "pdf-renders"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULEBOOK_PDF_CACHE", str(folder))
        yield


def _shared_build(tmp_path_factory, edition: str | None, wait: bool = True, name: str | None = None,
                  project: Callable[[Path], Path] | None = None, site: bool = True, booklet: bool = False) -> Path | None:
    """One build of ``edition`` per session: under pytest-xdist the first worker to ask builds, the others wait
    (or, with ``wait`` false, get None while another worker is building it). With ``project`` (which writes a
    project into the folder it is given), that project's, made once too, under ``name``; ``site`` false: its PDFs;
    ``booklet``: with the booklet."""
    import fcntl

    base = _session_folder(tmp_path_factory)
    name = name or edition
    target, done = base / f"build-{name}", base / f"build-{name}.done"
    with open(base / f"build-{name}.lock", "w") as lock:
        try:  # released when the file closes, or if the worker dies
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            return None
        if not done.exists():
            made = _made_by_make(edition) if project is None and site and not booklet else None
            if made is not None:  # `make` built this very build: a copy, so that a `make` meanwhile changes nothing
                shutil.copytree(made, target / "current")
                for half in ("site", "pdf"):
                    (target / half).symlink_to(f"current/{half}")
            else:
                root = ROOT if project is None else project(base / f"project-{name}")
                with sharing_pdfs(tmp_path_factory, book_as_it_is=project is None):
                    build(root, edition_id=edition, out=target, site=site, booklet=booklet)
            done.touch()
    return target.resolve()


def _made_by_make(edition: str | None) -> Path | None:
    """The build `make` keeps of ``edition`` (build/, or build/editions/<id>/ for `make EDITION=<id>`), if it was made
    from exactly what a build of it would read now (its ``RECORD`` is the digest ``made_from`` works out): the suite
    reads it instead of building the edition again."""
    from generator.commands.build import RECORD, made_from

    lib = load_library(ROOT, edition)
    wanted = made_from(lib)
    for out in (ROOT / "build" / "editions" / lib.edition.id, ROOT / "build"):
        current = out / "current"
        with contextlib.suppress(OSError):
            if (current / RECORD).read_text(encoding="utf-8").strip() == wanted:
                return current.resolve()
    return None


# Debian's Chromium, driven by Playwright (tests/test_browser.py, tests/test_pdfjs_calc.py).
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
# Chromium's features the tests switch off, besides those Playwright does: the address bar's list of suggestions, a
# page of the browser's own (chrome://omnibox-popup.top-chrome/) that Chromium 156 loads, headless, in a renderer of
# its own for every page Playwright opens: 0.6 CPU-seconds a page, for an address bar no test has.
CHROMIUM_OFF = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")


@pytest.fixture(scope="session")
def browser():
    """Chromium, launched once per worker for every test file that drives it: Playwright's synchronous API runs one
    event loop a thread, so a second one started in the same worker (a file's own) failed while the first ran."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = _launch_chromium(p)
        yield b
        b.close()


def _launch_chromium(p):
    """Chromium with CHROMIUM_ARGS and Playwright's switches, CHROMIUM_OFF among the features it switches off.

    Chromium reads only the last --disable-features it is given: one given after Playwright's would switch Playwright's
    features back on. So Playwright's are read off the command line of a first Chromium, closed at once (0.2 CPU-s),
    and the second is given them and ours in one switch, in place of Playwright's."""
    first = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    theirs = [arg for arg in _command_line(first) if arg.startswith("--disable-features=")][-1:]
    first.close()
    off = [feature for arg in theirs for feature in arg.partition("=")[2].split(",") if feature]
    ours = "--disable-features=" + ",".join([*off, *CHROMIUM_OFF])
    b = p.chromium.launch(executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, ours], ignore_default_args=theirs)
    assert [arg for arg in _command_line(b) if arg.startswith("--disable-features=")] == [ours], \
        "Playwright's --disable-features is to be replaced by ours, not followed by it"
    return b


def _command_line(browser) -> list[str]:
    """The arguments the browser's process was started with (Linux: /proc)."""
    session = browser.new_browser_cdp_session()
    processes = session.send("SystemInfo.getProcessInfo")["processInfo"]
    session.detach()
    pid = next(process["id"] for process in processes if process["type"] == "browser")
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")


@pytest.fixture(scope="session")
def small_built(tmp_path_factory) -> tuple[Path, Path]:
    """The small project (``small_project``) and its current edition's PDFs, built once per session (no test reads
    its site): (project, output folder)."""
    out = _shared_build(tmp_path_factory, None, name="small", project=small_project, site=False)
    return out.parent / "project-small", out


@pytest.fixture(scope="session")
def small_booklet(small_built, tmp_path_factory) -> tuple[Path, Path]:
    """The small project built with its booklet (``--booklet``), once per session for every test that reads the
    booklet (its imposing, its folding, its tags): (the project, its PDF folder). Imposing and tagging do not depend on
    how many games the book has. Its book is the shared build's (the PDF renders are shared); the booklet's half-size
    book is laid out here."""
    project, _ = small_built
    out = _shared_build(tmp_path_factory, None, name="small-booklet", project=lambda _: project, site=False,
                        booklet=True)
    return project, out / "pdf"


def copy_project(dest: Path, book: Path = ROOT) -> Path:
    """A throw-away copy of the project's sources (for tests that edit or break them): ``book``'s data and prose (the
    Metzker book's, or a fixture book's: ``SMALL_BOOK``), the tool's templates, schemas and site configuration."""
    for name in ("rules_data", "content"):
        shutil.copytree(book / name, dest / name)
    for name in ("templates", "schema"):
        shutil.copytree(ROOT / name, dest / name)
    shutil.copy(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    return dest


# A book of the tool's tests' own (tests/fixtures/books/small/): sixteen games, both editions, errata, the printed
# index of 2026.1, the record of 2026.1 as published. Its files began as those games of the Metzker book, cut to them; they are the tests' now, and a
# correction to the Metzker book reaches none of them (the book's own tests read the book: ROOT).
SMALL_BOOK = FIXTURES / "books" / "small"


# The games of a small project (of ``SMALL_BOOK``'s): a game in each section (cards, equipment, tournament), score
# sheets of every kind (Golf's variants have their own, Oh Hell!'s has two parts, one landscape, Hearts' is landscape
# with blank rows to the foot, the Gin tournament's has a page of samples and is printed in the book), and errata (the
# tournament's, Golf's, Dice 10,000's).
SMALL_GAMES = ("golf", "hearts", "oh-hell", "dice-10000", "gin-rummy-tournament")


def small_project(dest: Path, games: tuple[str, ...] = SMALL_GAMES, as_printed: bool = False,
                  index_errata: bool = False) -> Path:
    """A book of ``SMALL_BOOK``'s ``games`` alone (their data and prose, the book's prose pages), with the tool's
    templates, for tests of the machinery (determinism, preview, two-sided printing, the booklet, hostile input) that
    need a real book but not the Metzker book. It has both editions and the errata of the files it keeps; not the
    printed index (it lists every game of ``SMALL_BOOK``), nor the errata of its rows; with ``as_printed``, its rows of
    ``games``, and 2026.1 laid out as printed; with ``index_errata`` too, the errata of those rows (renumbered to the
    rows kept), and book.yaml and errata.yaml as the maintainer wrote them, less the lines of what is left out (for
    tests that edit them as text, as ``rulebook edition new`` does). 2026.1 is recorded as published."""
    import yaml

    from generator.book import editor

    assert as_printed or not index_errata, "index_errata keeps errata of the printed index, which only as_printed keeps"
    copy_project(dest, SMALL_BOOK)
    data, content = dest / "rules_data", dest / "content"
    book_text = (data / "book.yaml").read_text(encoding="utf-8")
    book = yaml.safe_load(book_text)
    typed_rows = {section: list(rows) for section, rows in book.get("printed_index", {}).get("sections", {}).items()}
    listed = {game for section in book["sections"] for game in section["games"]}
    assert set(games) <= listed, f"not in the book: {set(games) - listed}"
    for game in listed - set(games):
        (data / f"{game}.yaml").unlink()
        for prose in [*content.glob(f"{game}.md"), *content.glob(f"{game}.*.md")]:
            prose.unlink()
    if as_printed:
        index = book["printed_index"]["sections"]
        for section in index:
            index[section] = [row for row in index[section] if row.get("game") in games]
    else:
        book.pop("printed_index", None)
        for edition in book["editions"]:
            edition.pop("pages_as_printed", None)  # laid out as printed needs the printed index
    for section in book["sections"]:
        section["games"] = [game for game in section["games"] if game in games]
    if index_errata:
        # The entries that list another game (in a section, or as a row of the printed index) taken out by the
        # editors' round trip (book/editor.py); the rest as written (comments, flow lists).
        edited = editor.YamlFile(book_text)
        for section in edited.data["sections"]:
            editor.keep_only(section["games"], lambda game: game in games)
        for rows in edited.data["printed_index"]["sections"].values():
            editor.keep_only(rows, lambda row: row.get("game") in games)
        text = edited.text()
        assert yaml.safe_load(text) == book, "book.yaml is laid out otherwise than small_project reads it"
    else:
        text = yaml.safe_dump(book, sort_keys=False, allow_unicode=True)
    (data / "book.yaml").write_text(text, encoding="utf-8")

    def kept(erratum: dict) -> dict | None:
        """The erratum as the small book has it (an index row's renumbered), or None where its place is gone."""
        page = erratum.get("evidence", {}).get("page")
        if not (dest / erratum["file"]).exists() or not (page is None or (content / f"{page}.md").exists()):
            return None
        path = str(erratum.get("path", "")).split(".")
        if path[0] != "printed_index":
            return erratum
        typed = typed_rows[path[2]][int(path[3])]
        rows = book["printed_index"]["sections"][path[2]] if index_errata else []
        at = next((n for n, row in enumerate(rows) if row is typed), None)
        return None if at is None else {**erratum, "path": ".".join([*path[:3], str(at), *path[4:]])}

    errata_text = (data / "errata.yaml").read_text(encoding="utf-8")
    errata = yaml.safe_load(errata_text)
    errata["errata"] = [small for erratum in errata["errata"] if (small := kept(erratum)) is not None]
    if index_errata:
        # As written too, less the entries taken out, each kept one's path as kept() renumbered it.
        edited = editor.YamlFile(errata_text)
        paths = {erratum["id"]: erratum.get("path") for erratum in errata["errata"]}
        editor.keep_only(edited.data["errata"], lambda entry: entry["id"] in paths)
        for entry in edited.data["errata"]:
            if str(entry.get("path", "")).startswith("printed_index."):
                entry["path"] = paths[entry["id"]]
        text = edited.text()
        assert yaml.safe_load(text) == errata, "errata.yaml is laid out otherwise than small_project reads it"
    else:
        text = yaml.safe_dump(errata, sort_keys=False, allow_unicode=True)
    (data / "errata.yaml").write_text(text, encoding="utf-8")
    shutil.rmtree(data / "frozen", ignore_errors=True)
    return as_published(dest)


def as_published(project: Path) -> Path:
    """Record the copy's 2026.1 as the published edition (`rulebook freeze`): a test that plants a mistake
    in a game of that edition plays a book that was printed with it, not a change to the printed book."""
    from generator.book.frozen import write

    write(load_library(project, PUBLISHED))
    return project


# A game the current edition introduced: its words may change (those of a game of the published edition are frozen:
# changing them is an erratum, which the frozen check asks for).
EDITED_GAME = "basic-rummy"


def edit_one_word(project: Path, undo: bool = False) -> Path:
    """Swap one word of EDITED_GAME's prose for another as wide ('player' -> 'person'), so no page moves; with
    ``undo``, swap it back. Return the prose file."""
    prose = project / "content" / f"{EDITED_GAME}.md"
    old, new = (" person ", " player ") if undo else (" player ", " person ")
    text = prose.read_text(encoding="utf-8")
    assert old in text
    prose.write_text(text.replace(old, new, 1), encoding="utf-8")
    return prose


# The test files that take longest (most lay the book out for real), run first. Each pytest-xdist worker
# takes the next file when it is done, so a long file taken last kept the other CPU idle to the end (the
# preview test's 19 s). From `make test PYTEST_ARGS="-n auto --dist loadfile --durations=0"`, longest first.
SLOW_FIRST = ("test_sheets.py", "test_pdf.py", "test_release.py", "test_copyfit.py", "test_browser.py", "test_bench.py",
              "test_forms.py", "test_tags.py", "test_accessibility.py", "test_hostile.py", "test_bad_input.py",
              "test_mutation.py", "test_pdfjs_calc.py", "test_build.py", "test_source_words.py", "test_preview.py",
              "test_structure.py", "test_published_edition.py",
              "test_writer.py")


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

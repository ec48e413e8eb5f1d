"""An edition's PDFs, rendered in a child process so that a runaway render can be stopped: both halves.

The parent half (``render_pdfs``, which the build and publish call) asks a process of its own (``process.run``) for
the book PDF, every score sheet and the score pad, under a time limit and a memory ceiling a process (``limits``);
a render that exceeds either is killed with every process it started, and the build fails in one line, leaving the
last good output in place. A whole render is kept in a build's cache while nothing it read changes.

The child half (``main``) reads its request, renders, and answers with a ``Result``: the book's anchors, the
warnings, or why it failed. The book and the score sheets are independent documents, so they are rendered side by
side when the request gives two jobs: every score sheet and the score pad (written from the same layouts) in a
forked process, the book in this one. Each file is the same whichever process made it. A plain fork and a wait, not
a process pool: a pool's queues and threads cannot start in a process short of memory, and its processes then wait
for work for ever.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ... import errors, settings
from ...book.files import read_file_text
from ...errors import DISK_FULL, BuildError, OutputError
from ...progress import Report, quiet
from .. import process
from ..output import RENDERS
from ..process import DISK, ERROR, MEMORY, PDF, TIMEOUT, Answer, Failure, Request, Result, die_with_parent

if TYPE_CHECKING:
    from ...book.library import Library

WORKER = "generator.render.pdf.worker"  # the module that renders, in a process of its own

# Limits for one edition's PDF render: many times what a book needs, they stop a runaway layout. Both grow with the
# number of games, the time in proportion; a render holds one part's layout at a time (pages are written as they are
# laid out: bench/README.md measures a page's memory), so the memory ceiling is far above need. Every source file is
# size-limited, so no one game can need much more than its share. The settings override them (``limits``).
PDF_TIMEOUT = 900
PDF_TIMEOUT_PER_GAME = 1  # seconds a game: several times what laying out a game's pages and sheet takes
PDF_MEMORY_MB = 4096
PDF_MEMORY_MB_PER_GAME = 8

KEPT_RENDERS = 2  # whole renders a cache keeps of each edition, paper and sides: the newest (an edit, undone)
ANCHORS = ".anchors.json"  # in a kept render: the book's anchors


def limits(games: int) -> tuple[float, int]:
    """The time (seconds) and the address space (MB a process) a render of a book of ``games`` games is given: the
    user's settings where set."""
    given = settings.read()
    return (given.pdf_timeout or PDF_TIMEOUT + PDF_TIMEOUT_PER_GAME * games,
            given.pdf_memory_mb or PDF_MEMORY_MB + PDF_MEMORY_MB_PER_GAME * games)


def render_pdfs(lib: Library, pdf_dir: Path, paper: str = "letter", duplex: bool = False, keep: Path | None = None,
                progress: Report = quiet) -> dict[str, int]:
    """The book PDF and one score-sheet PDF per game into ``pdf_dir``; return the book's anchors.

    The render runs in a child process under a time and memory limit, its loads held to the sources as the build
    validated them (``lib.validated``). With ``keep`` (a build's .cache folder), the whole render is kept there under a
    digest of what it read (``cache.py``) and copied while nothing changes, and the score sheets are kept one by
    one, reused while no sheet changes. The setting RULEBOOK_PDF_CACHE names a cache folder to use instead (the test
    suite's: the one `make` keeps).
    """
    keep = settings.read().pdf_cache or keep
    if keep is None:
        return _render_pdfs(lib, pdf_dir, paper, duplex, None, progress)
    from . import cache

    digest = cache.new_digest(lib.edition.id, paper, duplex, book=lib.root)
    cache.add_files(digest, lib.root, ("rules_data", "content"))

    def render(staged: Path) -> None:
        anchors = _render_pdfs(lib, staged, paper, duplex, keep, progress)
        (staged / ANCHORS).write_text(json.dumps(anchors, sort_keys=True), encoding="utf-8")

    kind = f"{lib.edition.id}-{paper}-{'duplex' if duplex else 'simplex'}"  # a folder of RENDERS for each
    entry = cache.kept(keep / RENDERS / kind, digest.hexdigest()[:32], render, newest=KEPT_RENDERS)
    cache.copy_into(entry, pdf_dir, skip=(ANCHORS,))
    return json.loads(read_file_text(entry / ANCHORS))


def _render_pdfs(lib: Library, pdf_dir: Path, paper: str, duplex: bool, keep: Path | None,
                 progress: Report = quiet) -> dict[str, int]:
    """The render in its process (``main``); its warnings printed, its failure raised in one line."""
    timeout, memory = limits(len(lib.games))
    pdf_dir.mkdir(parents=True, exist_ok=True)
    request = Request(PDF, str(lib.root), lib.edition.id, str(pdf_dir), validated=lib.validated, paper=paper, duplex=duplex,
                      keep=str(keep) if keep else None, jobs=settings.read().pdf_jobs or len(os.sched_getaffinity(0)))
    result = process.run(WORKER, request, timeout=timeout, memory_mb=memory, progress=progress)
    failed = result.failure
    if failed is not None and failed.kind == TIMEOUT:
        raise BuildError(f"the PDF render took longer than {timeout:g} s and was stopped")
    if failed is not None and failed.kind == DISK:
        raise OutputError(failed.message or f"{pdf_dir}: {errors.translate(DISK_FULL)}")
    if failed is not None and failed.kind == MEMORY:
        if process.granted(memory) < memory:  # the shell's limit, not ours: the user's to raise
            raise BuildError(f"the PDF render was stopped: it needed more than {process.granted(memory)} MB of memory, "
                             "the most this shell lets a process have (`ulimit -v`): raise the limit (`ulimit -v "
                             f"unlimited`), or build where there is none ({failed.message})")
        raise BuildError(f"the PDF render was stopped: it needed more than {memory} MB of memory ({failed.message})")
    if failed is not None:
        raise BuildError(f"the PDF render failed: {failed.message}")
    for warning in result.warnings:  # what the render could not do as the data asks
        print(f"warning: {warning}", file=sys.stderr)
    return result.anchors or {}


# ---- the child: ``python -m generator.render.pdf.worker REQUEST`` ------------------------------------------------

# What every task needs, set before the fork so that no process loads the library twice; and where each task has got
# to (a failure names the page it was laying out).
_STATE: dict[str, Any] = {}


def _task(task: str) -> Result:
    """Render one PDF: "book", or "sheets" (every sheet on its own, and the score pad); its answer, with the
    warnings told while it rendered."""
    warnings = _STATE["warnings"] = []
    try:
        result = _render(task)
    finally:
        if _ENGINE is not None:
            _ENGINE.tell()  # in the process that rendered it (the sheets' is forked)
    return Result(result.anchors, tuple(warnings), result.failure)


def _render(task: str) -> Result:
    from ..views.describe import pdf_name
    from .book import render_book

    lib, out_dir, request = _STATE["lib"], _STATE["out"], _STATE["request"]
    try:
        if task == "book":
            anchors = render_book(lib, out_dir / pdf_name(lib), paper=request.paper, duplex=request.duplex,
                                  warn=_warn, progress=_report)
            return Result(anchors=anchors)
        _sheets(lib, _STATE["pages"], out_dir, request.paper, Path(request.keep) if request.keep else None)
        return Result()
    except Exception as exc:  # noqa: BLE001 - the layout gave up on something validate passed: said in one line
        done = _STATE.get("reached", {}).get(task, 0)
        where = f"page {done + 1} of the book" if task == "book" else f"score sheet {done + 1}"
        first = (str(exc).splitlines() or [""])[0][:200]
        said = (f"the PDF render failed laying out {where} ({type(exc).__name__}: {first}); please report it, with "
                "that page")
        return Result(failure=process.failure(exc, out_dir, said))


def _warn(message: str) -> None:
    """What the render could not do as the data asks: told in the answer."""
    _STATE["warnings"].append(message)


# WeasyPrint's warnings (weasy.EngineWarnings), told at the end of each task (``_task``): on its logger from
# ``main``'s start (made there: the build imports this module, and WeasyPrint is slow to import).
_ENGINE: Any = None
_ANSWER: Answer | None = None


def _report(stage: str, done: int = 0, total: int | None = None, final: bool = False) -> None:
    """How far a stage has come, told to the build as it goes (it shows it: ``progress.py``)."""
    _STATE.setdefault("reached", {})["sheets" if stage.startswith("score") else "book"] = done
    if _ANSWER is not None:
        _ANSWER.report(stage, done, total, final)


def _sheets(lib: Any, pages: list[Any], out_dir: Path, paper: str, keep: Path | None) -> None:
    """Every score sheet and the score pad into ``out_dir``. With ``keep`` (the build's own folder of kept
    renders), the sheets are kept there one by one, each under a digest of its inputs, and the pad under a
    digest of all of them (``scorepad.SheetKeeper``): a prose edit changes no sheet and lays none out; an
    edit to one sheet lays that one out, and each other one once for the pad."""
    from .scorepad import SheetKeeper, render_score_pad
    from .weasy import Engine

    keeper = None
    if keep is not None:
        # Made in the build's staging folder (out_dir's parent), which the build removes even if this process
        # is killed: a stopped render leaves nothing in the kept sheets.
        keeper = SheetKeeper(keep, lib.edition.id, paper, staging=out_dir.parent)
    render_score_pad(lib, pages, out_dir, Engine(paper, lib.root), keeper, progress=_report)


def _fork(task: str) -> tuple[int, int]:
    """Render ``task`` in a forked process, which inherits the loaded library and writes its answer (``_task``'s
    result, as JSON) to a pipe; return its process id and the pipe's reading end."""
    parent = os.getpid()
    reading, writing = os.pipe()
    pid = os.fork()
    if pid:
        os.close(writing)
        return pid, reading
    code = 1
    try:
        os.close(reading)
        die_with_parent(parent)
        result = _task(task)
        with os.fdopen(writing, "w", encoding="utf-8") as answer:
            answer.write(json.dumps(result.as_json()))
        code = 0
    finally:  # whatever stopped it, the parent tells how it ended
        os._exit(code)


def _forked_answer(pid: int, reading: int) -> Result:
    """The forked task's answer, once it has ended; by how it ended when it gave none."""
    with os.fdopen(reading, "r", encoding="utf-8") as answer:
        text = answer.read()
    _, status = os.waitpid(pid, 0)
    if text:
        return Result.from_json(json.loads(text))
    if os.WIFSIGNALED(status):  # short of memory, a C library's allocation failed (or the system killed it)
        return Result(failure=Failure(MEMORY, f"the score sheets' process was killed by "
                                              f"{signal.Signals(os.WTERMSIG(status)).name}"))
    return Result(failure=Failure(ERROR, f"the score sheets' process ended (exit {os.waitstatus_to_exitcode(status)}) "
                                         "without an answer"))


def _answer(request: Request) -> Result:
    """What the request asks, rendered; the answer."""
    global _ENGINE
    from .weasy import EngineWarnings

    _ENGINE = EngineWarnings(_warn)
    logging.getLogger("weasyprint").addHandler(_ENGINE)
    from ...book.library import load_library
    from ...errors import RulebookError
    from .book import game_pages

    if request.task != PDF:
        raise RulebookError(f"the PDF worker renders an edition's PDFs, not the {request.task!r} asked")
    lib = load_library(Path(request.root), request.edition, validated=request.validated)
    out_dir = Path(request.out)
    (out_dir / "score-sheets").mkdir(parents=True, exist_ok=True)
    _STATE.update(lib=lib, out=out_dir, request=request, pages=game_pages(lib))
    # The sheets go together, so that the score pad is written from the very layouts of the sheets.
    if request.jobs < 2:
        return _task("book").merged(_task("sheets"))
    pid, reading = _fork("sheets")  # nothing has touched Pango before this point
    try:
        book = _task("book")
    except BaseException:  # the book failed: the sheets are not wanted
        os.kill(pid, signal.SIGKILL)
        os.close(reading)
        os.waitpid(pid, 0)
        raise
    return book.merged(_forked_answer(pid, reading))


def main(argv: list[str]) -> int:
    """``python -m generator.render.pdf.worker REQUEST``: the PDFs the request (a file, ``process.Request``) asks for;
    the answer on what was standard output (``process.Answer``)."""
    global _ANSWER
    _ANSWER = Answer()
    try:
        request = Request.read(Path(argv[0]))
        result = _answer(request)
    except Exception as exc:  # noqa: BLE001 - the library's own error, a full disk, memory: the answer says which
        result = Result(failure=process.failure(exc, Path(argv[0]).parent))
    _ANSWER.result(result)
    return 0 if result.failure is None else 1


if __name__ == "__main__":
    code = main(sys.argv[1:])
    # Every file is written and closed: tearing the interpreter down object by object (the data model,
    # WeasyPrint's caches and fonts) would only slow every build.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)

"""Renders one edition's PDFs in a child process, so that a runaway render can be stopped.

The parent (``build.render_pdfs``) gives the child a memory ceiling (per process) and a time
limit; a render that exceeds either is killed and the build fails with a clear error, leaving
the last good output in place.

The book and the score sheets are independent documents, so they are rendered side by side when
there are two CPUs (``RULEBOOK_PDF_JOBS`` overrides): every score sheet and the score pad (written
from the same layouts) in a forked process, the book in this one. Each file is the same whichever
process made it. A plain fork and a wait, not a process pool: a pool's queues and threads could
not start in a process short of memory, and its processes then waited for work for ever (a build
with a 100 MB ceiling hung until its time limit).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
import traceback
from pathlib import Path
from typing import Any

from ...book.files import read_file_text
from ..process import die_with_parent

WARNING = "warning: "  # a line of the render's output the build passes on to the user

# What every task needs, set before the fork so that no process loads the library twice.
_STATE: dict[str, Any] = {}


def _task(task: str) -> tuple[str, Any]:
    """Render one PDF: "book", or "sheets" (every sheet on its own, and the score pad)."""
    lib, out_dir, paper, duplex = (_STATE[k] for k in ("lib", "out", "paper", "duplex"))
    try:
        return _render(task, lib, out_dir, paper, duplex)
    finally:
        if _ENGINE is not None:
            _ENGINE.tell()  # in the process that rendered it (the sheets' is forked)


def _render(task: str, lib: Any, out_dir: Path, paper: str, duplex: bool) -> tuple[str, Any]:
    from ...errors import RulebookError
    from ..views.describe import pdf_name
    from .book import render_book

    try:
        if task == "book":
            return "ok", render_book(lib, out_dir / pdf_name(lib), paper=paper, duplex=duplex, warn=_warn,
                                     progress=report)
        _sheets(lib, _STATE["pages"], out_dir, paper, _STATE["keep"])
        return "ok", None
    except RulebookError as exc:  # returned as text: an exception object may not survive the trip back
        return "error", str(exc)
    except OSError as exc:  # a full disk, a folder gone: one line naming it (commands/build.py tells a full disk apart)
        from ...errors import os_problem

        return "error", os_problem(exc, out_dir)
    except (MemoryError, RecursionError, ValueError, TypeError, KeyError, IndexError, AttributeError,
            AssertionError) as exc:  # the layout engine gave up on something validate passed: where, in one line
        done = _STATE.get("reached", {}).get(task, 0)
        where = f"page {done + 1} of the book" if task == "book" else f"score sheet {done + 1}"
        first = (str(exc).splitlines() or [""])[0][:200]
        return "error", (f"the PDF render failed laying out {where} ({type(exc).__name__}: {first}); please report "
                         "it, with that page")


def _warn(message: str) -> None:
    """Tell the build what the render could not do as asked (commands/build.py passes these lines on)."""
    print(f"{WARNING}{message}", file=sys.stderr, flush=True)


# WeasyPrint's warnings (weasy.EngineWarnings), told to the build at the end of each task (``_task``): on its logger
# from ``main``'s start (made there: the build imports this module, and WeasyPrint is slow to import).
_ENGINE: Any = None


def report(stage: str, done: int = 0, total: int | None = None, final: bool = False) -> None:
    """Tell the build how far a stage has come (commands/build.py shows it: ``progress.py``); one write, so that the
    book's and the sheets' processes never mix their lines."""
    from ...progress import line

    # Where each task has got to: a failure names the page it was laying out (_task).
    _STATE.setdefault("reached", {})["sheets" if stage.startswith("score") else "book"] = done
    sys.stderr.write(line(stage, done, total, final))
    sys.stderr.flush()


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
    render_score_pad(lib, pages, out_dir, Engine(paper, lib.root), keeper, progress=report)


def _fork(task: str, answer: Path) -> int:
    """Render ``task`` in a forked process, which inherits the loaded library and writes its answer
    (``_task``'s, as JSON) to ``answer``; return its process id."""
    parent = os.getpid()
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        die_with_parent(parent)
        answer.write_text(json.dumps(_task(task)), encoding="utf-8")
        code = 0
    except BaseException:  # noqa: BLE001 - whatever stopped it, the parent reports the process as died
        traceback.print_exc()
    finally:
        os._exit(code)


def _jobs() -> int:
    wanted = os.environ.get("RULEBOOK_PDF_JOBS")
    return max(1, int(wanted) if wanted else len(os.sched_getaffinity(0)))


def main(argv: list[str]) -> int:
    """``python -m generator.render.pdf.worker ROOT EDITION OUT PAPER DUPLEX KEEP`` (KEEP may be empty)"""
    global _ENGINE
    from .weasy import EngineWarnings

    root, edition, out, paper, duplex, keep = argv
    _ENGINE = EngineWarnings(_warn)
    logging.getLogger("weasyprint").addHandler(_ENGINE)
    from ...book.library import load_library
    from ...errors import RulebookError
    from .book import game_pages

    try:
        lib = load_library(Path(root), edition)
    except RulebookError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    out_dir = Path(out)
    (out_dir / "score-sheets").mkdir(parents=True, exist_ok=True)
    _STATE.update(lib=lib, out=out_dir, paper=paper, duplex=duplex == "1", pages=game_pages(lib),
                  keep=Path(keep) if keep else None)
    # The sheets go together, so that the score pad is written from the very layouts of the sheets.
    tasks = ["book", "sheets"]

    jobs = min(_jobs(), len(tasks))
    if jobs == 1:
        results = [_task(t) for t in tasks]
    else:
        answer = out_dir / ".sheets.json"
        child = _fork("sheets", answer)  # nothing has touched Pango before this point
        try:
            book = _task("book")
        except BaseException:  # the book failed: the sheets are not wanted
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
            raise
        _, status = os.waitpid(child, 0)
        if os.waitstatus_to_exitcode(status) != 0 or not answer.exists():
            print("error: a PDF render process died (out of memory?)", file=sys.stderr)
            return 1
        results = [book, tuple(json.loads(read_file_text(answer)))]
        answer.unlink()
    errors = [value for status, value in results if status == "error"]
    if errors:
        print(f"error: {errors[0]}", file=sys.stderr)
        return 1
    (out_dir / ".anchors.json").write_text(json.dumps(results[0][1], sort_keys=True), encoding="utf-8")
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    # Every file is written and closed: tearing the interpreter down object by object (the data model,
    # WeasyPrint's caches and fonts) would only add 0.1 s to every build.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)

"""Renders one edition's PDFs in a child process, so that a runaway render can be stopped.

The parent (``build.render_pdfs``) gives the child a memory ceiling (per process) and a time
limit; a render that exceeds either is killed and the build fails with a clear error, leaving
the last good output in place.

The book and the score sheets are independent documents, so they are rendered side by side, one
process per CPU (``RULEBOOK_PDF_JOBS`` overrides): the book first, since it is the longest, and
the sheets shared out as processes come free. Each file is the same whichever process made it.
A sheet whose inputs did not change since the last build is copied from the sheet cache
(``sheet_cache.py``, an optional sixth argument) instead of being laid out again.
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from pathlib import Path
from typing import Any

# What every task needs, set before the pool forks so that no process loads the library twice.
_STATE: dict[str, Any] = {}


def _task(task: tuple[str, str | None, str | None, str | None]) -> tuple[str, Any]:
    """Render one PDF: ("book", None, None, None) or ("sheet", game id, variant id or None, cache key)."""
    from ..errors import RulebookError
    from .pdf import render_book, render_sheet
    from .site import pdf_name
    from .weasy import Engine

    lib, out_dir, paper, duplex = (_STATE[k] for k in ("lib", "out", "paper", "duplex"))
    kind, game_id, variant_id, key = task
    try:
        if kind == "book":
            return "ok", render_book(lib, out_dir / pdf_name(lib), paper=paper, duplex=duplex)
        if "engine" not in _STATE:
            _STATE["engine"] = Engine(paper)  # one per process: fonts and stylesheet loaded once
        page = _STATE["pages"][game_id]
        variant = next(v for v, _ in page.variants if v.id == variant_id) if variant_id else None
        name = f"{game_id}.{variant_id}.pdf" if variant_id else f"{game_id}.pdf"
        render_sheet(lib, page, out_dir / "score-sheets" / name, paper=paper, variant=variant, engine=_STATE["engine"])
        if key is not None:
            _STATE["cache"].store(key, out_dir / "score-sheets" / name)
        return "ok", None
    except RulebookError as exc:  # returned as text: an exception object may not survive the trip back
        return "error", str(exc)


def _jobs() -> int:
    wanted = os.environ.get("RULEBOOK_PDF_JOBS")
    return max(1, int(wanted) if wanted else len(os.sched_getaffinity(0)))


def main(argv: list[str]) -> int:
    """``python -m generator.render.pdf_worker ROOT EDITION OUT PAPER DUPLEX [SHEET_CACHE]``"""
    root, edition, out, paper, duplex = argv[:5]
    from ..errors import RulebookError
    from ..library import load_library
    from .pdf import game_pages
    from .sheet_cache import SheetCache, sheet_key

    try:
        lib = load_library(Path(root), edition)
    except RulebookError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    out_dir = Path(out)
    (out_dir / "score-sheets").mkdir(parents=True, exist_ok=True)
    pages = game_pages(lib)
    _STATE.update(lib=lib, out=out_dir, paper=paper, duplex=duplex == "1", pages={p.id: p for p in pages})
    cache = _STATE["cache"] = SheetCache(Path(argv[5]) if len(argv) > 5 else None)
    tasks: list[tuple[str, str | None, str | None, str | None]] = [("book", None, None, None)]
    for page in pages:
        # A variant with a score sheet of its own gets its own PDF.
        for variant in [None] + [v for v, _ in page.variants if "score_sheet" in v.model_fields_set]:
            try:
                key = sheet_key(lib, page, variant, paper) if cache.folder else None
            except RulebookError:  # the render below meets the same problem and reports it
                key = None
            name = f"{page.id}.{variant.id}.pdf" if variant else f"{page.id}.pdf"
            if key is None or not cache.fetch(key, out_dir / "score-sheets" / name):
                tasks.append(("sheet", page.id, variant.id if variant else None, key))

    jobs = min(_jobs(), len(tasks))
    try:
        if jobs == 1:
            results = [_task(t) for t in tasks]
        else:
            # fork: the children inherit the loaded library; nothing has touched Pango before this point.
            with ProcessPoolExecutor(jobs, mp_context=get_context("fork")) as pool:
                results = list(pool.map(_task, tasks))
    except BrokenProcessPool:
        print("error: a PDF render process died (out of memory?)", file=sys.stderr)
        return 1
    errors = [value for status, value in results if status == "error"]
    if errors:
        print(f"error: {errors[0]}", file=sys.stderr)
        return 1
    cache.prune(cache.used)
    (out_dir / ".anchors.json").write_text(json.dumps(results[0][1], sort_keys=True), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""The build: validate, render into a staging folder, check the result, then switch to it.

The pipeline: load (``library.py``), check (``checks/``), then each output made from the views both share
(``render/views/``): print (``render/pdf/``, in a child process under limits: ``render_pdfs``) and the site
(``render/site/``, built by the site engine: ``render_site``). Print comes first: the site prints the book's
page numbers.

Both are made in a staging folder of the output folder and switched in whole, or not at all (``render/output.py``).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..book.files import read_file_text, recording
from ..book.library import CHANGED, Library, changed_since, load_library
from ..book.library import pinned as pinned_to
from ..checks import Finding, run_checks
from ..errors import DISK_FULL, BuildError, OutputError, RulebookError, os_problem
from ..progress import Report, parse, quiet
from ..render.output import HALVES, RENDERS, claim_out, staging, switch_in
from ..render.pdf import worker as pdf_worker
from ..render.process import die_with_parent, scratch_environment
from ..render.site.engine import render_site

log = logging.getLogger("rulebook")


def default_out(root: Path, lib: Library) -> Path:
    """build/ for the current edition, build/editions/<id>/ for the others."""
    return root / "build" if lib.is_current else root / "build" / "editions" / lib.edition.id


# Limits for one edition's PDF render; generous for this book (about 6 s and 200 MB), they stop
# a runaway layout. Both grow with the number of games, the time in proportion; a render holds one
# part's layout at a time (pages are written as they are laid out: 0.43 MB a page at 1000 games,
# bench/README.md), so the memory ceiling is far above need. Every source file is size-limited, so
# no one game can need much more than its share. RULEBOOK_PDF_TIMEOUT (seconds) and
# RULEBOOK_PDF_MEMORY_MB (address space per process) override them.
PDF_TIMEOUT = 900
PDF_TIMEOUT_PER_GAME = 1  # a 1000-game book: about 210 s for the book, 180 s for its sheets on 2 CPUs
PDF_MEMORY_MB = 4096
PDF_MEMORY_MB_PER_GAME = 8


def _limit_memory(megabytes: int):
    parent = os.getpid()

    def apply() -> None:
        import resource

        die_with_parent(parent)  # a build stopped any way at all takes its render with it
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


WORKER = "generator.render.pdf.worker"  # the module that renders, in a process of its own


def _stop_group(pid: int) -> None:
    """Kill every process left in the render's process group (none may be left)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


KEPT_RENDERS = 2  # whole renders a cache keeps of each edition, paper and sides: the newest (an edit, undone)


def render_pdfs(lib: Library, pdf_dir: Path, paper: str = "letter", duplex: bool = False,
                keep: Path | None = None, progress: Report = quiet) -> dict[str, int]:
    """The book PDF and one score-sheet PDF per game into ``pdf_dir``; return the book's anchors.

    The render runs in a child process under a time and memory limit. With ``keep`` (a build's .cache folder), the
    whole render is kept there under a digest of what it read (``render/pdf/cache.py``) and copied while nothing
    changes, and the score sheets are kept one by one, reused while no sheet changes. RULEBOOK_PDF_CACHE, when set,
    names the cache folder to use instead (the test suite's: the one `make` keeps).
    """
    shared = os.environ.get("RULEBOOK_PDF_CACHE")
    keep = Path(shared) if shared else keep
    if keep is None:
        return _render_pdfs(lib, pdf_dir, paper, duplex, None, progress)
    from ..render.pdf import cache

    digest = cache.new_digest(lib.edition.id, paper, duplex, book=lib.root)
    cache.add_files(digest, lib.root, ("rules_data", "content"))

    def render(staged: Path) -> None:
        anchors = _render_pdfs(lib, staged, paper, duplex, keep, progress)
        (staged / ".anchors.json").write_text(json.dumps(anchors, sort_keys=True), encoding="utf-8")

    kind = f"{lib.edition.id}-{paper}-{'duplex' if duplex else 'simplex'}"
    entry = cache.kept(keep / RENDERS / kind, digest.hexdigest()[:32], render, newest=KEPT_RENDERS)
    cache.copy_into(entry, pdf_dir, skip=(".anchors.json",))
    return json.loads(read_file_text(entry / ".anchors.json"))


def _render_pdfs(lib: Library, pdf_dir: Path, paper: str, duplex: bool, keep: Path | None,
                 progress: Report = quiet) -> dict[str, int]:
    timeout = float(os.environ.get("RULEBOOK_PDF_TIMEOUT", PDF_TIMEOUT + PDF_TIMEOUT_PER_GAME * len(lib.games)))
    memory = int(os.environ.get("RULEBOOK_PDF_MEMORY_MB", PDF_MEMORY_MB + PDF_MEMORY_MB_PER_GAME * len(lib.games)))
    pdf_dir.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", WORKER, str(lib.root), lib.edition.id, str(pdf_dir), paper,
           "1" if duplex else "0", str(keep) if keep else ""]
    # In a process group of its own, so that a stopped render takes the process it forked with it. Its output is
    # read as it comes: the stages' reports are shown as they arrive, the rest kept for warnings and errors.
    kept: list[str] = []
    with scratch_environment() as env, subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True, env=env,
            preexec_fn=_limit_memory(memory), cwd=Path(__file__).resolve().parents[2]) as process:
        reader = threading.Thread(target=_read_reports, args=(process.stderr, kept, progress), daemon=True)
        reader.start()
        try:
            process.wait(timeout=timeout)
            reader.join()
        except BaseException as exc:  # the time limit, or the build itself interrupted
            _stop_group(process.pid)
            process.wait()
            if isinstance(exc, subprocess.TimeoutExpired):
                raise BuildError(f"the PDF render took longer than {timeout:g} s and was stopped") from None
            raise
    if process.returncode != 0:
        _stop_group(process.pid)  # a render process that died may leave the one it forked running
    result = subprocess.CompletedProcess(cmd, process.returncode, "", "".join(kept))
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no message"])[-1].removeprefix("error: ")
        # Out of address space shows up as a signal, a MemoryError, a library that cannot be mapped, or a C
        # extension whose allocation failed without raising (CPython then reports a SystemError).
        starved = ("MemoryError", "Cannot allocate", "cannot load library", "bad_alloc", "out of memory",
                   "error return without exception set")
        full = (os.strerror(errno.ENOSPC), os.strerror(errno.EDQUOT), DISK_FULL)
        if any(s in result.stderr for s in full):  # told first: a full disk is no shortage of memory
            raise OutputError(os_problem(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), pdf_dir))
        if result.returncode < 0 or any(s in result.stderr for s in starved):
            raise BuildError(f"the PDF render was stopped: it needed more than {memory} MB of memory ({last[:200]})")
        raise BuildError(f"the PDF render failed: {last}")
    for line in result.stderr.splitlines():  # what the render could not do as the data asks
        if line.startswith(pdf_worker.WARNING):
            print(line, file=sys.stderr)
    anchors_file = pdf_dir / ".anchors.json"
    anchors = json.loads(read_file_text(anchors_file))
    anchors_file.unlink()
    return anchors


def _read_reports(stream: Any, kept: list[str], progress: Report) -> None:
    """Hand the render's reports to ``progress`` as they come; keep its other lines (warnings, errors)."""
    for text in stream:
        found = parse(text)
        if found is None:
            kept.append(text)
        else:
            progress(found[0], found[1], found[2], final=found[3])


RECORD = ".made-from"  # in a build: a digest of what it was made from and how (``made_from``)


def code_digest(root: Path, *fields: object) -> hashlib._Hash:
    """A digest of the code, templates, dependencies, versions and text libraries (``render/pdf/cache.py``), the
    project's site configuration and theme overrides, and ``fields``: what every build reads besides the sources."""
    from ..render.pdf import cache
    from ..render.site.engine import CONFIG

    digest = cache.new_digest(*fields)
    cache.add_files(digest, root, (CONFIG, "templates"))
    return digest


def made_from(lib: Library, paper: str = "letter", duplex: bool = False, site: bool = True, pdf: bool = True,
              booklet: bool = False) -> str:
    """A digest of everything a build of ``lib``'s edition reads (``code_digest``, the project's sources, the
    repository its pages link) and of what it was asked to make: two builds of equal digests are the same, byte for
    byte (the suite reads the build `make` made when its digest is the one it would build)."""
    from ..render.pdf import cache
    from ..render.site.repository import repository

    digest = code_digest(lib.root, "build", lib.edition.id, paper, duplex, site, pdf, booklet, repository(lib.root))
    cache.add_files(digest, lib.root, ("rules_data", "content"))
    return digest.hexdigest()


def booklet_name(lib: Library) -> str:
    """The booklet PDF's file name, beside the book's."""
    from ..render.views.describe import pdf_name

    return pdf_name(lib).removesuffix(".pdf") + "-booklet.pdf"


SNAPSHOT_FILE = ".sources.json"  # in the staging folder: the sources as validated (library.SNAPSHOT_ENV)


def build(root: Path, edition_id: str | None = None, out: Path | None = None, site: bool = True,
          pdf: bool = True, paper: str = "letter", duplex: bool = False, booklet: bool = False,
          report: Callable[[list[Finding], int], None] | None = None, progress: Report = quiet,
          done: Callable[[Library, Path], None] | None = None) -> Path:
    """Validate and build one edition; return the output folder. ``report`` is given the current edition's
    findings and its number of games before anything is built (``rulebook build`` prints them, as validate does);
    ``progress`` each stage as it goes (``progress.py``); ``done`` the library and the output folder once built."""
    progress("validate")
    with recording() as snapshot:  # the bytes validated: the renders lay out these, or stop (library.SNAPSHOT_ENV)
        lib = load_library(root, edition_id)  # load
        if lib.is_current:  # an earlier edition is built as it was published, not checked
            findings = run_checks(lib)  # check
    progress("validate", final=True)
    if lib.is_current:
        if report is not None:
            report(findings, len(lib.games))
        errors = [f for f in findings if f.severity == "error"]
        if errors:
            listing = "\n".join(f"{f.path}:{f.line}: {f.check}: {f.message}" for f in errors)
            raise BuildError(f"validation failed; nothing was built:\n{listing}")
    out = (out or default_out(root, lib)).resolve()
    claim_out(root, out)
    with staging(root, out) as staged:
        pinned_file = staged / SNAPSHOT_FILE
        pinned_file.write_text(json.dumps(snapshot, sort_keys=True), encoding="utf-8")
        keep = out / ".cache"  # the last builds' renders, copied while nothing changes, and their sheets, one by one
        # Each output makes the views it prints in its own process; print first, for the pages the site names.
        with pinned_to(os.fspath(pinned_file)):
            anchors = render_pdfs(lib, staged / "pdf", paper=paper, duplex=duplex, keep=keep,
                                  progress=progress) if pdf else None
            if pdf and booklet:
                from ..render.pdf.book import render_booklet  # in this process: only a booklet build needs it

                render_booklet(lib, staged / "pdf" / booklet_name(lib), paper, staged, progress)
            if site:
                render_site(lib, staged / "site", staged, staged / "pdf" if pdf else None, anchors, progress)
        changed = changed_since(root, snapshot)
        if changed:  # the build laid out what was validated, but the sources are not that any more
            raise BuildError(f"{changed[0]}{f' (and {len(changed) - 1} more)' if len(changed) > 1 else ''}: {CHANGED}")
        # A build of one half carries the other over as it was: no record says what it holds.
        record = (RECORD, made_from(lib, paper, duplex, site, pdf, booklet) + "\n") if site and pdf else None
        switch_in(root, out, staged, tuple(half for half, made in zip(HALVES, (site, pdf), strict=True) if made),
                  record)
    if done is not None:
        done(lib, out)
    return out


def outputs(lib: Library, out: Path, site: bool = True, pdf: bool = True, booklet: bool = False) -> list[str]:
    """What a build in ``out`` made, one line each, as a reader opens it: the site's home page, the book PDF (and
    its booklet); a path under the current folder is given from there."""
    from ..render.views.describe import pdf_name

    def shown(path: Path) -> str:
        with contextlib.suppress(ValueError, OSError):
            return str(path.relative_to(Path.cwd()))
        return str(path)

    lines = [f"site: {shown(out / 'site' / 'index.html')}"] if site else []
    if pdf:
        lines.append(f"PDF: {shown(out / 'pdf' / pdf_name(lib))}")
        if booklet:
            lines.append(f"booklet: {shown(out / 'pdf' / booklet_name(lib))}")
    return lines


def run(root: Path, edition: str | None = None, out: Path | None = None, site: bool = True, pdf: bool = True,
        paper: str = "letter", duplex: bool = False, booklet: bool = False) -> int:
    """``rulebook build``: the findings as ``rulebook validate`` prints them (so that `make` validates once), then
    the build, its stages shown as they run."""
    from ..progress import shown
    from .validate import as_text

    if booklet and not pdf:
        raise RulebookError("--booklet is made from the book PDF; leave out --site-only")
    made: list[str] = []
    with shown() as progress:
        out = build(root, edition_id=edition, out=out, site=site, pdf=pdf, paper=paper, duplex=duplex,
                    booklet=booklet, progress=progress,
                    # the accepted warnings counted, not listed: validate lists them, and errors and warnings alike
                    report=lambda found, games: print(as_text(found, games, listed=False), flush=True),
                    done=lambda lib, folder: made.extend(outputs(lib, folder, site, pdf, booklet)))
    print(f"built {out}")
    print("\n".join(made))
    return 0

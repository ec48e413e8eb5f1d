"""The build: validate, render into a staging folder, check the result, then swap it in.

A failed build (bad data, a refused resource, a broken link, a crash, a kill) leaves the last
good ``build/site`` and ``build/pdf`` exactly as they were: nothing is written in place.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from .checks import Finding, run_checks
from .errors import BuildError
from .library import Library, load_library
from .render import pdf_worker

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
    def apply() -> None:
        import resource

        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


WORKER = "generator.render.pdf_worker"
WARNING = "warning: "  # pdf_worker.WARNING (not imported: the worker module loads WeasyPrint's stack)  # the module that renders, in a process of its own


def _stop_group(pid: int) -> None:
    """Kill every process left in the render's process group (none may be left)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def render_pdfs(lib: Library, pdf_dir: Path, paper: str = "letter", duplex: bool = False,
                keep: Path | None = None) -> dict[str, int]:
    """The book PDF and one score-sheet PDF per game into ``pdf_dir``; return the book's anchors.

    The render runs in a child process under a time and memory limit. The score sheets are kept in
    ``keep`` (a build's .cache folder) and reused while no sheet changes. With RULEBOOK_PDF_CACHE set
    to a folder, a render of exactly the same inputs is copied from there (``render/cache.py``).
    """
    folder = os.environ.get("RULEBOOK_PDF_CACHE")
    if not folder:
        return _render_pdfs(lib, pdf_dir, paper, duplex, keep)
    from .render import cache

    digest = cache.new_digest(lib.edition.id, paper, duplex)
    cache.add_files(digest, lib.root, ("rules_data", "content"))

    def render(staged: Path) -> None:
        anchors = _render_pdfs(lib, staged, paper, duplex, keep)
        (staged / ".anchors.json").write_text(json.dumps(anchors, sort_keys=True), encoding="utf-8")

    entry = cache.kept(Path(folder), digest.hexdigest()[:32], render)
    cache.copy_into(entry, pdf_dir, skip=(".anchors.json",))
    return json.loads((entry / ".anchors.json").read_text(encoding="utf-8"))


def _render_pdfs(lib: Library, pdf_dir: Path, paper: str, duplex: bool, keep: Path | None) -> dict[str, int]:
    timeout = float(os.environ.get("RULEBOOK_PDF_TIMEOUT", PDF_TIMEOUT + PDF_TIMEOUT_PER_GAME * len(lib.games)))
    memory = int(os.environ.get("RULEBOOK_PDF_MEMORY_MB", PDF_MEMORY_MB + PDF_MEMORY_MB_PER_GAME * len(lib.games)))
    pdf_dir.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", WORKER, str(lib.root), lib.edition.id, str(pdf_dir), paper,
           "1" if duplex else "0", str(keep) if keep else ""]
    # In a process group of its own, so that a stopped render takes the process it forked with it.
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                          preexec_fn=_limit_memory(memory), cwd=Path(__file__).resolve().parents[1]) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except BaseException as exc:  # the time limit, or the build itself interrupted
            _stop_group(process.pid)
            process.communicate()
            if isinstance(exc, subprocess.TimeoutExpired):
                raise BuildError(f"the PDF render took longer than {timeout:g} s and was stopped") from None
            raise
    if process.returncode != 0:
        _stop_group(process.pid)  # a render process that died may leave the one it forked running
    result = subprocess.CompletedProcess(cmd, process.returncode, stdout, stderr)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no message"])[-1].removeprefix("error: ")
        # Out of address space shows up as a signal, a MemoryError, a library that cannot be mapped, or a C
        # extension whose allocation failed without raising (CPython then reports a SystemError).
        starved = ("MemoryError", "Cannot allocate", "cannot load library", "bad_alloc", "out of memory",
                   "error return without exception set")
        if result.returncode < 0 or any(s in result.stderr for s in starved):
            raise BuildError(f"the PDF render was stopped: it needed more than {memory} MB of memory ({last[:200]})")
        raise BuildError(f"the PDF render failed: {last}")
    for line in result.stderr.splitlines():  # what the render could not do as the data asks
        if line.startswith(pdf_worker.WARNING):
            print(line, file=sys.stderr)
    anchors_file = pdf_dir / ".anchors.json"
    anchors = json.loads(anchors_file.read_text(encoding="utf-8"))
    anchors_file.unlink()
    return anchors


def render_site(lib: Library, site_dir: Path, staging: Path, downloads: Path | None,
                book_pages: dict[str, int] | None = None) -> None:
    """Build the MkDocs site (strict) for the library's edition into ``site_dir``."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    from .render.verify import check_site, shipped_scripts

    config = load_config(config_file=str(lib.root / "mkdocs.yml"), site_dir=str(site_dir), strict=True)
    plugin = config.plugins["rulebook"]
    plugin.config.edition = lib.edition.id
    plugin.config.generated = str(staging / "generated")
    plugin.config.downloads = str(downloads) if downloads else None
    if book_pages is not None:
        pages_file = staging / "book-pages.json"
        pages_file.write_text(json.dumps(book_pages, sort_keys=True), encoding="utf-8")
        plugin.config.pages = str(pages_file)
    try:
        mkdocs_build(config)
    except (MkDocsException, SystemExit) as exc:
        raise BuildError(f"mkdocs build failed: {exc}") from exc
    if plugin.verified != str(site_dir):  # the plugin checks every page after building
        check_site(site_dir, shipped_scripts(config))


def _swap(staged: Path, final: Path) -> None:
    """Replace ``final`` with ``staged`` (same file system, so each rename is atomic)."""
    old = final.with_name(f".old-{final.name}-{os.getpid()}")
    if final.exists():
        final.rename(old)
    staged.rename(final)
    if old.exists():
        shutil.rmtree(old)


def booklet_name(lib: Library) -> str:
    """The booklet PDF's file name, beside the book's."""
    from .render.site import pdf_name

    return pdf_name(lib).removesuffix(".pdf") + "-booklet.pdf"


def build(root: Path, edition_id: str | None = None, out: Path | None = None, site: bool = True,
          pdf: bool = True, paper: str = "letter", duplex: bool = False, booklet: bool = False,
          report: Callable[[list[Finding], int], None] | None = None) -> Path:
    """Validate and build one edition; return the output folder. ``report`` is given the current edition's
    findings and its number of games before anything is built (``rulebook build`` prints them, as validate does)."""
    lib = load_library(root, edition_id)
    if lib.is_current:
        findings = run_checks(lib)
        if report is not None:
            report(findings, len(lib.games))
        errors = [f for f in findings if f.severity == "error"]
        if errors:
            listing = "\n".join(f"{f.path}:{f.line}: {f.check}: {f.message}" for f in errors)
            raise BuildError(f"validation failed; nothing was built:\n{listing}")
    out = (out or default_out(root, lib)).resolve()
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=out))
    try:
        keep = out / ".cache"  # the score sheets of the last build, reused while none changes
        anchors = render_pdfs(lib, staging / "pdf", paper=paper, duplex=duplex, keep=keep) if pdf else None
        if pdf and booklet:
            from .render.booklet import impose
            from .render.pdf import render_book
            from .render.weasy import BOOKLET_PAGE

            # The booklet's pages are the book laid out again at half the paper, not its pages shrunk.
            pages = staging / "booklet-pages.pdf"
            render_book(lib, pages, paper=BOOKLET_PAGE[paper])
            impose(pages, staging / "pdf" / booklet_name(lib), paper)
        if site:
            render_site(lib, staging / "site", staging, staging / "pdf" if pdf else None, anchors)
        if pdf:
            _swap(staging / "pdf", out / "pdf")
        if site:
            _swap(staging / "site", out / "site")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out

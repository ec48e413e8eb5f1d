"""The build: validate, render into a staging folder, check the result, then switch to it.

The pipeline: load (``library.py``), check (``checks/``), then each output made from the views both share
(``render/views/``): print (``render/pdf/``, in a child process under limits: ``render_pdfs``) and the site
(``render/site/``, built by the site engine: ``render_site``). Print comes first: the site prints the book's
page numbers.

A failed build (bad data, a refused resource, a broken link, a full disk, a crash, a kill) leaves
the last good ``build/site`` and ``build/pdf`` exactly as they were: nothing is written in place.

Each build is a folder of its own, ``build/.build-<id>/`` with ``site/`` and ``pdf/``; ``build/current``
is a link to the one in use, and ``build/site`` and ``build/pdf`` are links through it
(``current/site``, ``current/pdf``). A build ends by replacing ``current`` with one rename, so a reader
of ``build/`` sees the old build or the new one, whole, never a missing folder or a new PDF beside an
old site. A build that was stopped (even by kill -9) leaves a staging folder no process holds: the
next build removes it. The render processes end with the build, however it ends (``die_with_parent``).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..book.files import MAX_OUTPUT_BYTES, copy_tree, read_file_text, recording
from ..book.library import CHANGED, Library, changed_since, load_library
from ..book.library import pinned as pinned_to
from ..checks import run_checks
from ..errors import DISK_FULL, BuildError, OutputError, Problem, RulebookError, os_problem, problem_line
from ..progress import Report, parse, quiet
from ..render.leaks import refuse_leaks
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


RENDERS = "editions"  # in a build's .cache: whole renders, a folder for each edition, paper and sides
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


STAGING = ".staging-"  # a build being made; held (locked) by the process making it
BUILD = ".build-"  # a whole build; the one in use is where CURRENT points
CURRENT = "current"
HALVES = ("site", "pdf")  # build/site and build/pdf: links through CURRENT
_LEFT_BEHIND = (STAGING, BUILD, ".old-")  # .old-: a build before builds were switched by a link


# What marks a folder as a build's own: the output folder, and each folder a build makes in it. A build replaces or
# removes only what carries it: whatever else is there is the user's, and is never removed or renamed.
RECORD = ".made-from"  # in a build: a digest of what it was made from and how (``made_from``)
STAMP = ".rulebook-build"
STAMP_TEXT = ("made by `rulebook build`: the next build replaces what carries this mark here (current, site, pdf, "
              ".build-*); nothing else in this folder is touched\n")


def _stamped(folder: Path) -> bool:
    """Whether ``folder`` (not a link) carries a build's mark."""
    try:
        return not folder.is_symlink() and (folder / STAMP).is_file() and not (folder / STAMP).is_symlink()
    except OSError:
        return False


def claim(parent: Path, prefix: str) -> tuple[Path, int]:
    """A new folder ``parent/prefix…`` (marked as a build's, ``STAMP``) and an open descriptor holding its lock until
    closed (or the process ends).

    The lock is the folder's own (flock): a process killed with -9 lets go of it, so ``sweep`` can tell a
    folder in use from one a stopped run left.
    """
    while True:
        path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(fd, fcntl.LOCK_EX)
        with contextlib.suppress(OSError):
            if os.stat(path).st_ino == os.fstat(fd).st_ino:
                (path / STAMP).write_text(STAMP_TEXT, encoding="utf-8")
                return path, fd
        os.close(fd)  # another run's sweep took it between its making and its lock: make another


def sweep(parent: Path, prefixes: tuple[str, ...], keep: str | None = None) -> None:
    """Remove the folders in ``parent`` named with one of ``prefixes`` that a build made (``STAMP``) and no running
    process holds (but ``keep``); a folder of the user's that happens to be named so is left alone."""
    try:
        found = [p for p in parent.iterdir() if p.name.startswith(prefixes) and p.name != keep]
    except OSError:
        return  # no folder: nothing left in it
    for path in found:
        if not _stamped(path):
            continue
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            continue  # gone meanwhile
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)  # a build at work in it
            continue
        try:
            shutil.rmtree(path, ignore_errors=True)
        finally:
            os.close(fd)


@contextlib.contextmanager
def held_folder(parent: Path, prefix: str) -> Iterator[Path]:
    """A folder of this run's in ``parent``, removed when the block ends, however it ends; the folders earlier runs
    that were stopped left there (``sweep``) are removed first."""
    sweep(parent, (prefix,))
    path, fd = claim(parent, prefix)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        os.close(fd)


def current_build(out: Path) -> str | None:
    """The name of the build folder ``out/current`` points to, if any."""
    try:
        return os.readlink(out / CURRENT)
    except OSError:
        return None


def _carry_over(out: Path, staged: Path, made: tuple[str, ...]) -> None:
    """Put the halves this build did not make (a --site-only build's PDF) into ``staged``, as they are now.

    Hard links: the files are the ones in use, not copies (a copy where a link cannot be made).
    """
    for half in HALVES:
        there = out / half
        if half in made or not there.is_dir():
            continue
        try:
            shutil.copytree(there, staged / half, copy_function=os.link)
        except OSError:
            shutil.rmtree(staged / half, ignore_errors=True)
            copy_tree(there, staged / half, half, out, MAX_OUTPUT_BYTES)


def _switch(out: Path, staged: Path) -> None:
    """Make ``staged`` the build in use: renamed a ``.build-`` folder, then ``current`` replaced by one rename.

    ``site`` and ``pdf`` are links through ``current``, made before the switch (leading nowhere until the first
    one), so that both halves appear, or change, at the same moment. Anything else in their place is the user's
    (``claim_out`` refused it before the build began): it is never moved.
    """
    final = out / (BUILD + staged.name.removeprefix(STAGING))
    staged.rename(final)
    before = current_build(out)
    for half in HALVES:
        there = out / half
        if there.is_symlink() or not (final / half).is_dir():
            continue
        os.symlink(f"{CURRENT}/{half}", there)  # FileExistsError if something came since: the user's, kept
    link = final / f".{CURRENT}"  # made inside the build folder: a stop before the rename leaves it nowhere else
    os.symlink(final.name, link)
    os.replace(link, out / CURRENT)  # the switch: one rename
    if before and before != final.name and "/" not in before and _stamped(out / before):
        shutil.rmtree(out / before, ignore_errors=True)


SOURCE_FOLDERS = ("rules_data", "content", "templates")  # what a build reads: never a place to write it


def _ours(entry: Path) -> bool:
    """Whether ``entry`` in an output folder is of the shape a build makes it (a build before the mark, too): a
    folder of the user's that happens to be named as a build's is not."""
    name = entry.name
    if entry.is_symlink():
        target = os.readlink(entry)
        return (name in HALVES and target == f"{CURRENT}/{name}") or (
            name == CURRENT and target.startswith(BUILD) and "/" not in target
            and (entry.parent / target).is_dir() and _ours(entry.parent / target))
    if name == STAMP:
        return entry.is_file()
    if not entry.is_dir():
        return False
    inside = {e.name for e in entry.iterdir()}
    if name.startswith(BUILD):
        return _stamped(entry) or (bool(inside & set(HALVES)) and inside <= {*HALVES, f".{CURRENT}"})
    if name.startswith(STAGING):
        return _stamped(entry)
    return name == ".cache" and all(n.startswith(("sheet-", "sheets-", "pad-", ".")) or n == RENDERS for n in inside)


def claim_out(root: Path, out: Path) -> None:
    """Make ``out`` a build's output folder, or say in one line why it cannot be.

    A folder inside the sources is refused (the next load would read the build). A folder that exists is used only
    when it is empty, or carries a build's mark (``STAMP``), or holds nothing but what a build before the mark made
    (then it is marked); one that holds anything else is refused, naming what, and nothing in it is touched. In a
    marked folder, a ``site`` or ``pdf`` that is not the build's link is the user's: refused too, never moved.
    """
    root = root.resolve()
    for source in (root, *(root / name for name in SOURCE_FOLDERS)):
        if out == source or (source != root and source in out.parents) or out in root.parents:
            where = ("the project folder" if out == root else "a folder that holds the project" if out in root.parents
                     else f"{source.name}/" if out == source else f"inside {source.name}/")
            raise OutputError(f"{out} is {where}, where the build reads its sources: give an output folder outside "
                              f"them, such as {root / 'build'}")
    try:
        if not out.exists() and not out.is_symlink():
            out.mkdir(parents=True)
        entries = sorted(out.iterdir())
        if not entries:
            (out / STAMP).write_text(STAMP_TEXT, encoding="utf-8")
            return
        marked = _stamped(out)
        if marked:
            theirs = [e for e in entries if e.name in (*HALVES, CURRENT) and not _ours(e)]
        else:
            made_by_make = out == root / "build"  # make's stamps (.built-*) and earlier editions' builds
            theirs = [e for e in entries if not _ours(e)
                      and not (made_by_make and (e.name.startswith(".built-") or e.name == "editions"))]
    except OSError as exc:
        raise OutputError(f"cannot write the build: {os_problem(exc, out, root)}") from None
    if theirs:
        shown = ", ".join(f"{e.name}{'/' if e.is_dir() else ''}" for e in theirs[:5])
        more = f" and {len(theirs) - 5} more" if len(theirs) > 5 else ""
        raise OutputError(f"{out} holds what the build did not make ({shown}{more}): nothing was changed; give an "
                          "empty or new folder, or one a build made, or move them away")
    if not marked:  # a build's before there was a mark: marked now, and the build folders in it too
        for entry in entries:
            if entry.name.startswith(BUILD) and not entry.is_symlink():
                with contextlib.suppress(OSError):
                    (entry / STAMP).write_text(STAMP_TEXT, encoding="utf-8")
        with contextlib.suppress(OSError):
            (out / STAMP).write_text(STAMP_TEXT, encoding="utf-8")


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
          report: Callable[[list[Problem], int], None] | None = None, progress: Report = quiet,
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
            listing = "\n".join(problem_line(f) for f in errors)
            raise BuildError(f"validation failed; nothing was built:\n{listing}")
    out = (out or default_out(root, lib)).resolve()
    claim_out(root, out)
    try:
        sweep(out, _LEFT_BEHIND, keep=current_build(out))  # what builds that were stopped left
        staging, lock = claim(out, STAGING)
        staging.chmod(0o755)  # made private (mkdtemp), but it is the build readers are given
    except OSError as exc:
        raise OutputError(f"cannot write the build: {os_problem(exc, out, root)}") from None
    pinned_file = staging / SNAPSHOT_FILE
    try:
        pinned_file.write_text(json.dumps(snapshot, sort_keys=True), encoding="utf-8")
        keep = out / ".cache"  # the last builds' renders, copied while nothing changes, and their sheets, one by one
        # Each output makes the views it prints in its own process; print first, for the pages the site names.
        with pinned_to(os.fspath(pinned_file)):
            anchors = render_pdfs(lib, staging / "pdf", paper=paper, duplex=duplex, keep=keep,
                                  progress=progress) if pdf else None
            if pdf and booklet:
                from ..render.pdf.book import render_booklet  # in this process: only a booklet build needs it

                render_booklet(lib, staging / "pdf" / booklet_name(lib), paper, staging, progress)
            if site:
                render_site(lib, staging / "site", staging, staging / "pdf" if pdf else None, anchors, progress)
        changed = changed_since(root, snapshot)
        if changed:  # the build laid out what was validated, but the sources are not that any more
            raise BuildError(f"{changed[0]}{f' (and {len(changed) - 1} more)' if len(changed) > 1 else ''}: {CHANGED}")
        for made in staging.iterdir():  # what the render needed on the way: not part of the build
            if made.name not in (*HALVES, STAMP):
                shutil.rmtree(made) if made.is_dir() else made.unlink()
        if site and pdf:  # a build of one half carries the other over as it was: no record says what it holds
            (staging / RECORD).write_text(made_from(lib, paper, duplex, site, pdf, booklet) + "\n", encoding="utf-8")
        # No output names this machine: a file: address or a folder of the build (render/leaks.py).
        refuse_leaks(staging, [os.fspath(root.resolve()), os.fspath(out), os.fspath(staging),
                               os.path.join(tempfile.gettempdir(), "rulebook-")])
        _carry_over(out, staging, tuple(half for half, made in zip(HALVES, (site, pdf), strict=True) if made))
        _switch(out, staging)
    except OSError as exc:
        raise OutputError(f"the build was not finished, and the last one is left as it was: "
                          f"{os_problem(exc, staging, root)}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # unless it was switched to
        os.close(lock)
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

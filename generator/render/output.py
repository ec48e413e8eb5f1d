"""A build's output folder, changed whole or not at all: the folder claimed, a staging folder held, the build switched
in with one rename.

A failed build (bad data, a refused resource, a broken link, a full disk, a crash, a kill) leaves the last good
``site`` and ``pdf`` exactly as they were: nothing is written in place. Each build is a folder of its own,
``.build-<id>/`` with ``site/`` and ``pdf/``; ``current`` is a link to the one in use, and ``site`` and ``pdf`` are
links through it (``current/site``, ``current/pdf``). A build is made in a staging folder (``staging``) and ends by
replacing ``current`` with one rename (``switch_in``), once no output of it names this machine (``leaks.py``): a
reader sees the old build or the new one, whole, never a missing folder or a new PDF beside an old site. A build that
was stopped (even by kill -9) leaves a staging folder no process holds: the next build removes it (``sweep``).

A build writes only where it may (``claim_out``): a new or empty folder, or one a build made (it holds ``STAMP``,
the build's mark). In its own folder a build replaces only what carries its mark: what the user adds there is never
removed or renamed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..book.files import MAX_OUTPUT_BYTES, copy_tree
from ..errors import OutputError, os_problem
from .leaks import refuse_leaks

STAGING = ".staging-"  # a build being made; held (locked) by the process making it
BUILD = ".build-"  # a whole build; the one in use is where CURRENT points
CURRENT = "current"
HALVES = ("site", "pdf")  # site and pdf: links through CURRENT
_LEFT_BEHIND = (STAGING, BUILD)  # what a stopped build leaves: swept when no process holds it
SOURCE_FOLDERS = ("rules_data", "content", "templates")  # what a build reads: never a place to write it
RENDERS = "editions"  # in a build's .cache: whole renders, a folder for each edition, paper and sides (pdf/worker.py)

# What marks a folder as a build's own: the output folder, and each folder a build makes in it. A build replaces or
# removes only what carries it: whatever else is there is the user's, and is never removed or renamed.
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
            made_by_make = out == root / "build"  # make's stamps (.built-*), its sources' digests (.sources-*)
            theirs = [e for e in entries if not _ours(e)  # and earlier editions' builds
                      and not (made_by_make and (e.name.startswith((".built-", ".sources-")) or e.name == "editions"))]
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


@contextlib.contextmanager
def staging(root: Path, out: Path) -> Iterator[Path]:
    """A folder of this build's in ``out`` (claimed: ``claim_out``) to make the build in, removed when the block ends
    unless it was switched in (``switch_in``); what stopped builds left in ``out`` is removed first. An OS error in
    the block (a full disk) is one line, and the last build is left as it was."""
    try:
        sweep(out, _LEFT_BEHIND, keep=current_build(out))  # what builds that were stopped left
        staged, lock = claim(out, STAGING)
        staged.chmod(0o755)  # made private (mkdtemp), but it is the build readers are given
    except OSError as exc:
        raise OutputError(f"cannot write the build: {os_problem(exc, out, root)}") from None
    try:
        yield staged
    except OSError as exc:
        raise OutputError(f"the build was not finished, and the last one is left as it was: "
                          f"{os_problem(exc, staged, root)}") from None
    finally:
        shutil.rmtree(staged, ignore_errors=True)  # unless it was switched to
        os.close(lock)


def switch_in(root: Path, out: Path, staged: Path, made: tuple[str, ...], record: tuple[str, str] | None = None) -> None:
    """Make the build in ``staged`` the one in use: what the renders needed on the way removed, ``record`` (a file's
    name and text) written, each file looked at for an address or a folder of this machine (``leaks.py``), the half of
    ``HALVES`` it did not make (``made``) carried over as it is now, then switched in with one rename."""
    for made_on_the_way in staged.iterdir():
        if made_on_the_way.name not in (*HALVES, STAMP):
            shutil.rmtree(made_on_the_way) if made_on_the_way.is_dir() else made_on_the_way.unlink()
    if record is not None:
        (staged / record[0]).write_text(record[1], encoding="utf-8")
    refuse_leaks(staged, [os.fspath(root.resolve()), os.fspath(out), os.fspath(staged),
                          os.path.join(tempfile.gettempdir(), "rulebook-")])
    _carry_over(out, staged, made)
    _switch(out, staged)


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

"""Renders kept by what they were made from: a digest of every input, and a folder per digest.

The PDF render is deterministic (the same inputs give the same bytes, tests/test_pdf.py), so a
render whose inputs were rendered before can be copied instead of laid out again. Two uses:

- the score sheets and the score pad, kept beside a build (``build/.cache``): an edit to a game's
  prose changes no sheet, and the sheets are most of a build's time (23 s of 33 s);
- a whole edition's PDFs, kept there too (``build/.cache/editions/<edition>-<paper>-<sides>/``, the newest
  ``KEPT_RENDERS`` of each): a build of what was built before copies them, and so does the test suite, which
  reads the cache `make` keeps (``RULEBOOK_PDF_CACHE`` names a cache folder to use in place of the build's own:
  the suite's, or a session's of its own for other books).

A digest covers the code, the templates and fonts, the locked dependencies, Python's and
WeasyPrint's versions and the system's text libraries besides the inputs each use names. An entry is written whole and renamed
into place, under a lock on the folder, so a parallel build waits for it and a failed one leaves
nothing.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from ...book.files import MAX_OUTPUT_BYTES, TOOL_TEMPLATES, copy_tree, read_file, read_file_text, template_folders
from ...errors import SourceError

CODE = Path(__file__).resolve().parents[3]  # the project (generator/, templates/, the lock file), or site-packages
# The tool's templates: at the top of a checkout, or inside the installed package (then "generator" holds them).
CODE_FILES = ("generator", *(() if TOOL_TEMPLATES.parent != CODE else ("templates",)), "requirements.lock",
              "pyproject.toml")


def add_files(digest: hashlib._Hash, base: Path, names: Iterable[str]) -> None:
    """Add every file under ``base/name`` (its path and bytes) to ``digest``, in a fixed order."""
    for name in names:
        top = base / name
        found = sorted(top.rglob("*")) if top.is_dir() else [top] if top.exists() else []
        for path in found:
            if "__pycache__" in path.parts:
                continue
            # A link is its target's name, never followed (it may lead to a pipe, a device or out of the project);
            # a plain file its bytes; a folder, a pipe or a device nothing (the load refuses what it reads of them).
            if path.is_symlink():
                body = b"link " + os.fsencode(os.readlink(path))
            elif stat.S_ISREG(path.lstat().st_mode):
                body = read_file(path, MAX_OUTPUT_BYTES)
            else:
                continue
            digest.update(f"\0{path.relative_to(base).as_posix()}\0".encode() + body)


# The names WeasyPrint's text layer opens each library by (weasyprint/text/ffi.py, ``_dlopen``), in its order, and
# whether it may lack one. Opened here with ctypes, the same dynamic linker finds the same files, without importing
# WeasyPrint (most of a second) in a process that needs only the key: the build's own, which renders in a worker.
# tests/test_pdf_cache.py holds this to what WeasyPrint itself loads.
TEXT_LIBRARY_NAMES: tuple[tuple[bool, tuple[str, ...]], ...] = (
    (False, ("libgobject-2.0-0", "gobject-2.0-0", "gobject-2.0", "libgobject-2.0.so.0", "libgobject-2.0.0.dylib",
             "libgobject-2.0-0.dll")),
    (False, ("libpango-1.0-0", "pango-1.0-0", "pango-1.0", "libpango-1.0.so.0", "libpango-1.0.dylib",
             "libpango-1.0-0.dll")),
    (False, ("libharfbuzz-0", "harfbuzz", "harfbuzz-0.0", "libharfbuzz.so.0", "libharfbuzz.0.dylib",
             "libharfbuzz-0.dll")),
    (True, ("libharfbuzz-subset-0", "harfbuzz-subset", "harfbuzz-subset-0.0", "libharfbuzz-subset.so.0",
            "libharfbuzz-subset.0.dylib", "libharfbuzz-subset-0.dll")),
    (True, ("libharfbuzz-vector-0", "harfbuzz-vector", "harfbuzz-vector-0.0", "libharfbuzz-vector.so.0",
            "libharfbuzz-vector.0.dylib", "libharfbuzz-vector-0.dll")),
    (False, ("libfontconfig-1", "fontconfig-1", "fontconfig", "libfontconfig.so.1", "libfontconfig.1.dylib",
             "libfontconfig-1.dll")),
    (False, ("libpangoft2-1.0-0", "pangoft2-1.0-0", "pangoft2-1.0", "libpangoft2-1.0.so.0", "libpangoft2-1.0.dylib",
             "libpangoft2-1.0-0.dll")),
)


def _pango_version() -> int:
    """Pango's version as WeasyPrint's text layer would load it: by its names, else through WeasyPrint itself
    (which then says in its own words what it could not load)."""
    import ctypes

    libraries = {}
    for may_lack, names in TEXT_LIBRARY_NAMES:
        for name in names:
            try:  # RTLD_NOW as WeasyPrint opens them; never RTLD_GLOBAL, which would lend the system FreeType's
                # symbols to Pillow's own copy, and its drawing of the site's icons went wrong
                libraries[names[0]] = ctypes.CDLL(name, mode=getattr(os, "RTLD_NOW", 0))
                break
            except OSError:
                continue
        else:
            if not may_lack:  # as WeasyPrint would not start: let it fail as it does
                from weasyprint.text.ffi import pango

                return int(pango.pango_version())
    version = libraries["libpango-1.0-0"].pango_version
    version.restype = ctypes.c_int
    return int(version())


def text_libraries() -> list[str]:
    """The system libraries that shape and draw text (Pango, HarfBuzz, fontconfig, FreeType, as loaded
    for WeasyPrint), by file, size and time stamp: an upgraded library may set text differently."""
    found = {f"pango {_pango_version()}"}
    try:
        maps = read_file_text(Path("/proc/self/maps"))
    except (OSError, SourceError):  # not Linux: Pango's version alone
        return sorted(found)
    for line in maps.splitlines():
        fields = line.split(maxsplit=5)  # address, perms, offset, device, inode, path (if a file)
        path = fields[5] if len(fields) == 6 else ""
        # A copy bundled in a Python package (Pillow's, loaded when the site draws its icons) is not the one
        # WeasyPrint uses, and its version is the lock file's: counted, it made the key depend on what the
        # process had done before (a publish laid out a book it had kept).
        if any(part in ("site-packages", "dist-packages") for part in Path(path).parts):
            continue
        if any(name in path for name in ("libpango", "libharfbuzz", "libfontconfig", "libfreetype")):
            stat = Path(path).stat()
            found.add(f"{path} {stat.st_size} {stat.st_mtime_ns}")
    return sorted(found)


def new_digest(*fields: object, book: Path | None = None) -> hashlib._Hash:
    """A digest started with the code, the templates (``book``'s own too), the lock file, the versions, the text
    libraries and ``fields``."""
    from importlib.metadata import version

    versions = (sys.version, version("weasyprint"), *text_libraries())
    digest = hashlib.sha256("\0".join(map(str, (*versions, *fields))).encode())
    add_files(digest, CODE, CODE_FILES)
    for own in template_folders(book)[:-1]:  # a book's own templates/ (none for the tool's own book: no new key)
        add_files(digest, own.parent, (own.name,))
    return digest


def kept(folder: Path, name: str, make: Callable[[Path], None], keep_prefix: str | None = None,
         staging: Path | None = None, newest: int | None = None) -> Path:
    """The entry ``folder/name``, made by ``make(staging_folder)`` if it is not there yet.

    The entry is made in ``staging`` (default: ``folder``; a build passes its own staging folder,
    which it removes even if the render is killed) and renamed into place. With ``keep_prefix``,
    other entries whose names start with it are removed once the new one is in place (a build
    keeps one set of sheets per edition and paper, not one per edit). With ``newest``, the entry is marked as
    used and only the ``newest`` entries used last stay in ``folder``.
    """
    import fcntl

    entry = folder / name
    folder.mkdir(parents=True, exist_ok=True)
    if staging is None or staging.stat().st_dev != folder.stat().st_dev:
        staging = folder  # a rename is whole only within one file system
    lock = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)  # the folder itself is the lock: a failed build leaves no lock file
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a parallel build waits, then copies what the first one made
        for debris in folder.glob(f".{name}.*"):  # a render killed while making this entry (we hold its lock)
            if debris.is_dir():
                shutil.rmtree(debris, ignore_errors=True)
        if (entry.exists() or entry.is_symlink()) and not proven(entry):
            shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
        if not entry.exists():
            staged = staging / f".{name}.{os.getpid()}"
            try:
                staged.mkdir()
                make(staged)
                _seal(staged, name)
                staged.rename(entry)  # whole or not at all
            finally:
                shutil.rmtree(staged, ignore_errors=True)
        if keep_prefix is not None:
            for old in folder.iterdir():
                if old.name.startswith(keep_prefix) and old.name != name:
                    shutil.rmtree(old, ignore_errors=True)
        if newest is not None:
            os.utime(entry)  # used now: the last to go
            entries = sorted((e for e in folder.iterdir() if not e.name.startswith(".") and e.is_dir()),
                             key=lambda e: (e.stat().st_mtime_ns, e.name), reverse=True)
            for old in entries[newest:]:
                if old.name != name:
                    shutil.rmtree(old, ignore_errors=True)
    finally:
        os.close(lock)  # and with it the lock
    return entry


def copy_into(entry: Path, target: Path, skip: tuple[str, ...] = ()) -> None:
    """Copy a kept entry's files into ``target`` (which may exist)."""
    copy_tree(entry, target, entry.name, skip=(MANIFEST, *skip))


MANIFEST = ".manifest"  # in each entry: every file's path and digest, sealed (files.store)


def _listing(entry: Path, name: str | None = None) -> str:
    """The entry's name, then each file under it (links not followed) with its digest, one a line, in a fixed
    order: another entry's files, under this name, do not match."""
    lines = [name or entry.name]
    for path in sorted(entry.rglob("*")):
        if path.name != MANIFEST and (path.is_symlink() or not path.is_dir()):
            body = read_file(path, MAX_OUTPUT_BYTES) if path.is_file() and not path.is_symlink() else b"not a plain file"
            lines.append(f"{path.relative_to(entry).as_posix()} {hashlib.sha256(body).hexdigest()}")
    return "\n".join(lines)


def _seal(staged: Path, name: str) -> None:
    from ...book.files import store

    store(staged / MANIFEST, _listing(staged, name))


def proven(entry: Path) -> bool:
    """Whether a kept entry is whole and as it was made: its sealed manifest matches every file in it. One damaged,
    cut short, emptied, added to or from another render is made again, never copied into a build."""
    from ...book.files import stored

    try:
        kept = stored(entry / MANIFEST, entry) if entry.is_dir() and not entry.is_symlink() else None
        return kept is not None and kept.decode("utf-8") == _listing(entry)
    except (OSError, UnicodeDecodeError):
        return False

"""The one door every file the program reads passes: data, prose, the dictionary, frozen records, templates, the cache.

A file is read only when it is a plain file (not a folder, a pipe, a device or a socket) inside its folder (the
project, the templates, the user's cache) once every symbolic link is followed, of a sane size, and UTF-8 text with
no control character in it. Anything else is one ``SourceError`` naming the file: a link out of the project would
print what it leads to (a password file) on the site and in its search index; a pipe would block for ever; a byte
that is not UTF-8 was a traceback. The user's cache is only a cache: an entry is sealed (``seal``) when written, and
one that does not prove itself (``unseal``) is worked out again, never trusted.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from .. import errors, settings
from ..errors import Location, SourceError, echo


def _(message: str, **values: object) -> str:
    # The message in the book's language: words.py reads its catalogues through this module, so it is not imported
    # here; its use() sets errors.translate
    return errors.translate(message, **values)

# The tool's own templates and assets: inside the installed package (pyproject.toml ships the repository's templates/
# there as generator/templates), or at the top of the repository the code is run from (a checkout, an editable
# install). A book's own templates/ folder holds only what it overrides, file by file (``template_folders``).
_PACKAGE = Path(__file__).resolve().parents[1]
TOOL_TEMPLATES = _PACKAGE / "templates" if (_PACKAGE / "templates").is_dir() else _PACKAGE.parent / "templates"
TOOL_PREFIX = "tool:"  # a template named so is the tool's own, never the book's (render/views/markup.py's loader)


def template_folders(root: Path | None) -> list[Path]:
    """Where a template is looked for, first to last: the book's own ``templates/`` (what it overrides), then the
    tool's. This repository's book is the tool's own: its templates are the tool's, once."""
    own = root / "templates" if root is not None else None
    if own is None or not own.is_dir() or os.path.realpath(own) == os.path.realpath(TOOL_TEMPLATES):
        return [TOOL_TEMPLATES]
    return [own, TOOL_TEMPLATES]


def template_bounds(folder: Path) -> Path:
    """The folder a file of the templates folder ``folder`` must stay inside once its links are followed: the book's,
    for a book's own templates/ (a templates/ that is itself a link out of the book is read from nowhere); the tool's
    own templates, for the tool's."""
    return folder if os.path.realpath(folder) == os.path.realpath(TOOL_TEMPLATES) else folder.parent


MAX_FILE_BYTES = 256 * 1024  # a game file is a few KB; anything this big is a mistake or an attack
MAX_ASSET_BYTES = 64 * 1024 * 1024  # a template's asset (a font, a script) is a few hundred KB


# How every file is opened: never a terminal to take over, never a pipe to wait on (O_NONBLOCK), and never through a
# symbolic link at the last step (the path is resolved first, and checked to stay in its folder).
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


def _base(path: Path, display: str) -> Path:
    """The folder ``display`` is named from (the project, for ``rules_data/x.yaml``): ``path`` less its last parts."""
    depth = len(Path(display).parts)
    return path.parents[depth - 1] if 0 < depth <= len(path.parts) - 1 else path.parent


@functools.lru_cache(maxsize=64)
def _real_folder(folder: str) -> str:
    # The project's or the cache's own place, asked for every file read: resolved once a process. What is checked is
    # the way out of it, through the folders in it and the file's own link, every time.
    return os.path.realpath(folder)


def _within(real: str, base: str) -> bool:
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def _resolved(path: Path, folder: Path, base: str) -> tuple[str, os.stat_result]:
    """Where ``path`` really is, and what it is (not followed). Each step from ``folder`` down to it is looked at, and
    resolved whole only when one is a link: resolving every file was a fifth of the door's cost."""
    try:
        steps = path.relative_to(folder).parts
    except ValueError:
        steps = ("..",)
    here = folder
    for step in steps[:-1]:
        here = here / step
        if step == ".." or stat.S_ISLNK(os.lstat(here).st_mode):
            break
    else:
        info = os.lstat(path)
        if not stat.S_ISLNK(info.st_mode):
            return os.path.join(base, *steps), info
    real = os.path.realpath(path, strict=True)  # followed to its end, wherever that is: checked by the caller
    return real, os.stat(real)


def read_source(path: Path, display: str, inside: Path | None = None, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a source file, through the one door every file the program reads passes.

    It must be a plain file (not a folder, a pipe, a device or a socket) inside ``inside`` (by default the folder
    ``display`` is named from: the project), once every symbolic link is followed, and at most ``limit`` bytes.
    Anything else is a SourceError naming the file: a link out of the project would print what it leads to (a
    password file) on the site; a pipe would block for ever.
    """
    where = Location(display)
    folder = inside if inside is not None else _base(path, display)
    base = _real_folder(os.fspath(folder))
    try:
        real, info = _resolved(path, folder, base)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SourceError(where, "is a symbolic link that leads round in a circle: put the file itself in its "
                                     "place") from None
        if os.path.islink(path):
            raise SourceError(where, f"is a symbolic link to {echo(os.readlink(path))}, which is not there: put the "
                                     "file itself in its place") from None
        raise SourceError(where, f"cannot be read ({_READ_PROBLEMS.get(exc.errno, exc.strerror or exc)})") from None
    if not _within(real, base):
        raise SourceError(where, f"leads out of {'the project' if inside is None else base} through a symbolic link "
                                 f"(to {echo(real)}): a source file is read only from inside it; put the file itself "
                                 "here instead of a link")
    try:  # told from what it is before it is opened: opening a device can do something
        if stat.S_ISDIR(info.st_mode):
            raise SourceError(where, _("is a folder, not a file: move the folder away and put the file back in its "
                                       "place"))
        if not stat.S_ISREG(info.st_mode):
            raise SourceError(where, _("is not a plain file (a device, a pipe or a socket): put the file back in its place"))
        fd = os.open(real, _READ_FLAGS)
        try:
            opened = os.fstat(fd)
            if not stat.S_ISREG(opened.st_mode):  # swapped for something else since
                raise SourceError(where, _("is not a plain file (a device, a pipe or a socket): put the file back in its place"))
            # As big as the file says it is, and one byte more to see it end (a buffer of the limit's size for
            # every file was most of the door's cost); read on while it grows, up to the limit.
            chunks, size = [], 0
            while size <= limit:
                chunk = os.read(fd, min(opened.st_size, limit) + 1 - size if not chunks else limit + 1 - size)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            raw = b"".join(chunks)
        finally:
            os.close(fd)
    except OSError as exc:
        raise SourceError(where, f"cannot be read ({_READ_PROBLEMS.get(exc.errno, exc.strerror or exc)})") from None
    if len(raw) > limit:
        raise SourceError(Location(display, 1, 1), _("file is over %(limit)s bytes; the limit is %(limit)s: a game's "
                                                     "file is a few thousand", limit=limit))
    if _READ is not None and display.startswith(SOURCE_FOLDERS):  # a source, while a command records what it read
        _READ[display] = hashlib.sha256(raw).hexdigest()
    return raw


# What the project's sources were when read (display name -> digest of the bytes), while ``recording``: a build
# validates the sources once and lays out those bytes; what its renders read is held against this (library.py's
# ``validated``).
_READ: dict[str, str] | None = None
SOURCE_FOLDERS = ("content/", "rules_data/")


@contextlib.contextmanager
def recording() -> Iterator[dict[str, str]]:
    """Within this block, every source of the project read through the door is recorded: name -> digest."""
    global _READ
    before, _READ = _READ, {}
    try:
        yield _READ
    finally:
        _READ = before


# What a failed read means: the file is only read, so nothing here asks for a folder to write to.
_READ_PROBLEMS = {
    errno.EACCES: "permission denied: make it readable, or ask for access",
    errno.EPERM: "not permitted: make it readable, or ask for access",
    errno.ENOENT: "no such file: check that it is there",
    errno.ENOTDIR: "a file is where a folder should be",
    errno.EISDIR: "is a folder where a file should be",
    errno.ENAMETOOLONG: "the name is too long",
    errno.EIO: "the disk could not read it",
}

# Characters that are not text: C0 and C1 controls but line feed and tab (ESC clears a terminal, BEL rings it, NUL
# ends a C string), DEL, a carriage return not before a line feed (it writes the line over), the Unicode line and
# paragraph separators, and the bidirectional controls that show text in another order than it is read.
INVISIBLE = ("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2060-\u2064\u206a-\u206f\u3164"
             "\ufeff\uffa0\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f")  # a character class's ranges
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
                     "|\r(?!\n)|(?P<invisible>[" + INVISIBLE + "])")
# (the group ``invisible``: characters that print nothing, format characters and fillers: a soft hyphen, zero-width
# spaces and joiners, the marks of direction, a byte-order mark inside the text, tags. "1\u200b50" shows 150 and is
# read as no number; a title with one is another title. The variation selectors are kept: a suit's emoji needs one.)


def control_characters(text: str, path: str) -> None:
    """Raise SourceError at the first control character in ``text``, at its line and column."""
    m = CONTROL.search(text)
    if m is None:
        return
    before = text[: m.start()]
    col = m.start() - (before.rfind("\n") + 1) + 1
    if m.group() == "\r" and "\n" not in text:
        # Every line ended by a carriage return alone: old Mac line endings, not a stray character to delete (that
        # would join every line into one).
        raise SourceError(Location(path, 1, col), _("the lines end in a carriage return alone (old Mac line "
                                                    "endings), which is no line end here: save the file with Unix line "
                                                    "endings (LF) instead"))
    if m.group("invisible"):
        raise SourceError(Location(path, before.count("\n") + 1, col),
                          _("%(character)s is in the text: a reader sees nothing there, and the text is read as other "
                            "than it shows; delete it", character=invisible(m.group())))
    raise SourceError(Location(path, before.count("\n") + 1, col),
                      _("a control character (U+%(code)s) is in the text: a reader or a terminal would get it as it "
                        "is; delete it", code=f"{ord(m.group()[0]):04X}"))


def invisible(char: str) -> str:
    """A character that prints nothing, said by its code and name ("an invisible character (U+200B ZERO WIDTH
    SPACE)")."""
    import unicodedata

    return _("an invisible character (U+%(code)s %(name)s)", code=f"{ord(char):04X}",
             name=unicodedata.name(char, "unnamed"))


# The bytes of text (all but the C0 controls and DEL, with tab, line feed and carriage return), and the UTF-8 forms of
# the controls above U+007F: a file is looked at for a control character, character by character (CONTROL), only
# when its bytes may hold one. CONTROL over the book's text took 30 ms of the 0.3 s validate may take; this, 4 ms.
_TEXT_BYTES = bytes(b for b in range(256) if (b >= 0x20 and b != 0x7F) or b in (0x09, 0x0A, 0x0D))
_WIDE_CONTROLS = (re.compile(rb"\xc2[\x80-\x9f]"), re.compile(rb"\xe2\x80[\xa8-\xae]"), re.compile(rb"\xe2\x81[\xa6-\xa9]"),
                  # the invisible characters' (CONTROL's group): their UTF-8 forms, each a few bytes
                  re.compile(rb"\xc2\xad|\xcd\x8f|\xd8\x9c|\xe1\x85[\x9f\xa0]|\xe1\x9e[\xb4\xb5]|\xe1\xa0[\x8b-\x8f]"
                             rb"|\xe2\x80[\x8b-\x8f]|\xe2\x81[\xa0-\xa4\xaa-\xaf]|\xe3\x85\xa4|\xef\xbb\xbf|\xef\xbe\xa0"
                             rb"|\xef\xbf[\xb9-\xbb]|\xf3\xa0[\x80\x81]"))


def _may_hold_control(raw: bytes) -> bool:
    return (bool(raw.translate(None, _TEXT_BYTES)) or raw.count(b"\r") != raw.count(b"\r\n")
            or any(pattern.search(raw) for pattern in _WIDE_CONTROLS))


def read_source_text(path: Path, display: str, inside: Path | None = None, limit: int = MAX_FILE_BYTES) -> str:
    """A source file as text (``read_source``): UTF-8, and no control character in it."""
    raw = read_source(path, display, inside, limit)
    text = _decode(raw, display, limit)
    if _may_hold_control(raw):
        control_characters(text, display)
    return text


MAX_OUTPUT_BYTES = 1024 * 1024 * 1024  # a file the program made: a book of a thousand games is a few hundred MB


def read_file(path: Path, limit: int = MAX_ASSET_BYTES) -> bytes:
    """The bytes of a file the program made or keeps (a build's output, a render's answer, its cache, its own
    code), through the door: a plain file in its folder, never through a link out of it, at most ``limit`` bytes."""
    return read_source(path, path.name, path.parent, limit)


def read_file_text(path: Path, limit: int = MAX_ASSET_BYTES) -> str:
    """``read_file`` as UTF-8 text."""
    return _decode(read_file(path, limit), path.name, limit)


def copy_file(source: Path, target: Path, limit: int = MAX_OUTPUT_BYTES) -> None:
    """Copy a file the program made or keeps to ``target``, read through the door (``read_file``)."""
    target.write_bytes(read_file(source, limit))


def copy_tree(source: Path, target: Path, display: str, inside: Path | None = None, limit: int = MAX_OUTPUT_BYTES,
              skip: tuple[str, ...] = ()) -> None:
    """Copy the folder ``source`` (named ``display`` in a message) into ``target`` (which may exist), each file read
    through the door (``read_source``, inside ``inside``, by default ``source``): a link out of it, a pipe or a
    device is one line naming it, and what a link leads to is never copied. Names matching ``skip`` are left."""
    import fnmatch

    inside = inside if inside is not None else source
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.rglob("*")) if source.is_dir() else []:
        rel = path.relative_to(source)
        if any(fnmatch.fnmatch(part, pattern) for part in rel.parts for pattern in skip):
            continue
        if path.is_dir() and not path.is_symlink():
            (target / rel).mkdir(parents=True, exist_ok=True)
            continue
        body = read_source(path, f"{display}/{rel.as_posix()}", inside, limit)
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_bytes(body)


def list_folder(folder: Path, display: str, suffix: str, inside: Path | None = None) -> list[Path]:
    """The entries of ``folder`` named ``*suffix``, sorted; none if it is not there; SourceError if it cannot be read,
    or (with ``inside``) is a link out of that folder.

    A folder that cannot be listed is said to be one, once: not a missing file for each of its games.
    """
    if inside is not None and os.path.lexists(folder):
        real = os.path.realpath(folder)
        if not _within(real, _real_folder(os.fspath(inside))):
            raise SourceError(Location(display), f"leads out of the project through a symbolic link (to {echo(real)})"
                                                 ": its files are read only from inside it; put the folder itself "
                                                 "here instead of a link")
    try:
        with os.scandir(folder) as entries:
            return sorted(Path(e.path) for e in entries if e.name.endswith(suffix) and not e.name.startswith("."))
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise SourceError(Location(display), f"the folder cannot be read "
                                             f"({_READ_PROBLEMS.get(exc.errno, exc.strerror or exc)})") from None


def _decode(raw: bytes, path: str, limit: int = MAX_FILE_BYTES) -> str:
    if len(raw) > limit:
        raise SourceError(Location(path, 1, 1), _("file is %(size)s bytes; the limit is %(limit)s", size=len(raw),
                                                  limit=limit))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SourceError(Location(path, line, col), _("not UTF-8 text (byte 0x%(byte)s); save the file as UTF-8 "
                                                       "instead", byte=f"{raw[exc.start]:02x}")) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def user_cache() -> Path:
    """The user's cache folder (``$XDG_CACHE_HOME/rulebook`` or ``~/.cache/rulebook``): a speed-up, never needed."""
    given = settings.read()
    return _user_cache(given.cache_home, given.home)


@functools.lru_cache(maxsize=8)
def _user_cache(cache_home: Path | None, home: Path | None) -> Path:
    # Asked once per file a load reads: the home folder is worked out once.
    return (cache_home or (home or Path.home()) / ".cache") / "rulebook"


def write_whole(path: Path, data: str | bytes) -> None:
    """Write ``path`` whole, then rename it into place: a parallel run never reads half a file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f"{path.name}.{os.getpid()}")
        part.write_bytes(data.encode() if isinstance(data, str) else data)
        part.replace(path)
    except OSError:
        pass  # no cache folder: the next run works it out again


def write_source(path: Path, text: str) -> None:
    """Write a source of the book (``book.yaml``, a new game's files) whole or not at all: into a new file beside it,
    flushed to the disk, then renamed over it. On any failure (a full disk, a signal) the file is as it was, and the
    part written is removed: a command that stops leaves nothing half-written, and run again it finds what it did."""
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with open(part, "xb") as out:  # a new file: never through a link someone put in its place
            out.write(text.encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        if path.exists():
            os.chmod(part, stat.S_IMODE(path.stat().st_mode))
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(OSError):
            part.unlink()
        raise


MAX_CACHED_BYTES = 64 * MAX_FILE_BYTES  # an entry of the cache: a parsed file and its marks, a word list, a template


def _proof(name: str, body: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\0" + body).hexdigest().encode()


def store(path: Path, body: str | bytes) -> None:
    """Keep ``body`` in the cache at ``path``, whole and sealed: a first line that proves it (``stored``)."""
    data = body.encode() if isinstance(body, str) else body
    write_whole(path, _proof(path.name, data) + b"\n" + data)


def stored(path: Path, folder: Path | None = None) -> bytes | None:
    """What ``store`` kept at ``path`` (in ``folder``, by default the user's cache), or None when it is missing,
    damaged, cut short, edited, or another entry's (its first line is not the digest of its name and body): the
    cache is only a cache, so such an entry is worked out again, never trusted. Read through ``read_source``."""
    try:
        raw = read_source(path, path.name, folder or user_cache(), MAX_CACHED_BYTES)
    except (SourceError, RuntimeError):  # not there, not a plain file, too big; no home folder
        return None
    proof, _, body = raw.partition(b"\n")
    return body if proof == _proof(path.name, body) else None


def stored_text(path: Path) -> str | None:
    """``stored`` as text (None when it is not UTF-8)."""
    body = stored(path)
    try:
        return None if body is None else body.decode("utf-8")
    except UnicodeDecodeError:
        return None

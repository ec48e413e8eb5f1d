"""What the site engine (MkDocs) logs while it builds, kept and placed at the source it comes from.

MkDocs says what it refuses in its log: in strict mode it counts the warnings and ends with "Aborted with 1 warnings
in strict mode!", and the warnings themselves reached no one (its counting handler is the only one on its logger, so
Python's last-resort printer stays silent). A build keeps them here and reports each in the engine's own words, at
the source file (and line, where the message quotes what the file holds) of the page it names.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ...book.files import read_source_text
from ...errors import Location, RulebookError

ENGINE_LOGGER = "mkdocs"  # MkDocs's loggers, and those of the theme's and plugins' (mkdocs.plugins.*)
QUOTED = re.compile(r"'([^'\n]+)'|\"([^\"\n]+)\"|^\s*-\s+(\S+)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Said:
    """One warning or error the engine logged, and the page being built when it did (None: before any)."""

    level: int
    message: str
    page: str | None


class Kept(logging.Handler):
    """Keeps what the engine logs at ``level`` and above, with the page ``building()`` names at the time."""

    def __init__(self, building: Callable[[], str | None], level: int = logging.WARNING) -> None:
        super().__init__(level)
        self.building = building
        self.said: list[Said] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(f"{ENGINE_LOGGER}.livereload"):
            return  # the preview's server, about itself (a rebuild failed: the plugin says why; a page not found)
        with contextlib.suppress(Exception):  # a message that cannot be formatted is still one line
            self.said.append(Said(record.levelno, record.getMessage(), self.building()))
            return
        self.said.append(Said(record.levelno, str(record.msg), self.building()))

    def take(self) -> list[Said]:
        """What was kept since the last ``take``."""
        said, self.said = self.said, []
        return said


@contextlib.contextmanager
def kept(building: Callable[[], str | None], level: int = logging.WARNING) -> Iterator[Kept]:
    """Within this block, what the engine logs at ``level`` and above is kept (``Kept``), not lost: by the handler
    an enclosing block keeps it with (one place, so that nothing is told twice), now asking ``building``."""
    logger = logging.getLogger(ENGINE_LOGGER)
    outer = next((h for h in logger.handlers if isinstance(h, Kept)), None)
    if outer is not None:
        asked, outer.building = outer.building, building
        try:
            yield outer
        finally:
            outer.building = asked
        return
    handler = Kept(building, level)
    before = logger.level
    logger.addHandler(handler)
    if logger.getEffectiveLevel() > level:
        logger.setLevel(level)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(before)


def located(said: Said, sources: dict[str, str], root: Path) -> Location:
    """Where a maintainer finds what ``said`` is about: the source of the first site page it quotes (``sources``: a
    page's source, by its path in the site's docs), else of the page being built; the line of that source holding
    another string the message quotes (a link's target, an anchor), where one does. A message about the navigation
    that names no page is about book.yaml, which the navigation is made from."""
    quoted = [next(g for g in m.groups() if g) for m in QUOTED.finditer(said.message)]
    page = next((q for q in quoted if q in sources), said.page if said.page in sources else None)
    if page is not None:
        source = sources[page]
    else:  # the configuration (a value it quotes: its line), or the navigation, made from book.yaml
        source = "rules_data/book.yaml" if re.search(r"\bnav\b", said.message) else "mkdocs.yml"
    try:  # through the door every read passes (a source that is a link out is never read here)
        lines = read_source_text(root / source, source, root).splitlines()
    except (RulebookError, OSError):
        return Location(source)
    for wanted in (q for q in quoted if q != page):
        key = re.compile(rf"\s*(- )?{re.escape(wanted)}\s*:")  # a setting it names: its key, before any mention
        # a link's target as the page was written: without the part the site adds (#anchor, .md)
        bare = wanted.split("#")[0].removesuffix(".md") or wanted
        for holds in (key.match, lambda line, w=wanted: w in line, lambda line, b=bare: f"]({b}" in line):
            found = next((n for n, line in enumerate(lines, 1) if holds(line)), None)
            if found is not None:
                return Location(source, found)
    return Location(source)


def one_line(message: str) -> str:
    """The engine's message as one line (a list it gives below a sentence, joined to it)."""
    return " ".join(part.strip() for part in message.splitlines() if part.strip())


SERVING = re.compile(r"(?:\[[\d:]+\] )?Serving on (\S+)")  # the preview's server, listening (its log stamps the time)


class _Address(logging.Handler):
    def __init__(self, say: Callable[[str], None]) -> None:
        super().__init__(logging.INFO)
        self.say = say

    def emit(self, record: logging.LogRecord) -> None:
        found = SERVING.match(str(record.msg))
        if found:
            self.say(found[1])


@contextlib.contextmanager
def address_told(say: Callable[[str], None]) -> Iterator[None]:
    """Within this block, ``say`` is given the live preview's address once its server listens."""
    logger = logging.getLogger(f"{ENGINE_LOGGER}.livereload")
    handler, before = _Address(say), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(before)


def changed(before: dict[str, tuple[int, int]], now: dict[str, tuple[int, int]]) -> list[str]:
    """The files added, changed or removed between two ``snapshot``s."""
    return sorted(name for name in before.keys() | now.keys() if before.get(name) != now.get(name))


def snapshot(root: Path, watched: list[str]) -> dict[str, tuple[int, int]]:
    """Each file under ``watched`` (folders or files): its time and size, by its path from ``root``."""
    found: dict[str, tuple[int, int]] = {}
    for name in watched:
        base = Path(name)
        with contextlib.suppress(OSError):
            for path in [base] if base.is_file() else sorted(base.rglob("*")):
                if path.is_file():
                    stat = path.stat()
                    with contextlib.suppress(ValueError):
                        found[path.relative_to(root).as_posix()] = (stat.st_mtime_ns, stat.st_size)
    return found

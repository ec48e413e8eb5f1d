"""Edition metadata: everywhere the book names its year, edition or revision, it agrees."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..errors import Location
from ..library import Library
from . import check

Finding = tuple[Location, str, str | None]
YEAR_EDITION = re.compile(r"\b((?:19|20)\d\d)\s+(version|edition|revision|book)\b", re.I)
REVISION = re.compile(r"\brevision\s+(\d+)\b", re.I)


def _lines(lib: Library) -> Iterator[tuple[Location, str]]:
    for page in lib.pages.values():
        for n, line in enumerate(page.text.splitlines(), 1):
            yield Location(page.path, n), line
    for gs in lib.ordered_games():
        for prose in [gs.prose, *gs.variant_prose.values()]:
            if prose is not None:
                for n, line in enumerate(prose.text.splitlines(), 1):
                    yield Location(prose.path, n), line


@check("edition.mismatch")
def mismatch(lib: Library) -> Iterator[Finding]:
    """A page names another year or revision than the edition being built."""
    ed = lib.edition
    label_years = re.findall(r"(?:19|20)\d\d", ed.label)
    where = lib.book_doc.where(("editions", [e.id for e in lib.book.editions].index(ed.id)))
    if any(int(y) != ed.year for y in label_years):
        yield where, f"edition {ed.id}: the label '{ed.label}' names another year than {ed.year}", None
    for m in REVISION.finditer(ed.label):
        if int(m.group(1)) != ed.revision:
            yield where, f"edition {ed.id}: the label '{ed.label}' says revision {m.group(1)}, the edition is revision {ed.revision}", None
    if not ed.id.startswith(f"{ed.year}."):
        yield where, f"edition id {ed.id} does not begin with its year {ed.year}", None
    for loc, line in _lines(lib):
        for m in YEAR_EDITION.finditer(line):
            if int(m.group(1)) != ed.year:
                yield loc, f"says '{m.group(0)}', but this is the {ed.year} edition ({ed.label})", None

"""Edition metadata: an edition's id, year, revision and label agree.

The prose is not searched for other years: "For the 2025 edition we have added ..." is history the
family wrote, true when it was written, and a sentence that is merely old is not an error."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..errors import Location
from ..library import Library
from . import check

Finding = tuple[Location, str, str | None]
REVISION = re.compile(r"\brevision\s+(\d+)\b", re.I)


@check("edition.mismatch")
def mismatch(lib: Library) -> Iterator[Finding]:
    """An edition's label names another year or revision than the edition itself."""
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

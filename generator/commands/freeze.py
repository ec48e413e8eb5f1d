"""``rulebook freeze ID``: write and seal the record of an edition published before records were sealed."""

from __future__ import annotations

from pathlib import Path

from ..book.frozen import write
from ..book.library import DATA_DIR, Library
from ..book.words import _
from ..errors import SourceError


def freeze_unsealed(lib: Library) -> list[Path]:
    """`rulebook freeze ID`: write and seal the record of a published edition that has none sealed (one made before
    records were sealed); refuse, in one line, an edition whose record is sealed."""
    if lib.edition.record is not None:  # sealed when it was published: a rewrite would pass a change off as printed
        at = [e.id for e in lib.book.editions].index(lib.edition.id)
        raise SourceError(lib.book_doc.where(("editions", at, "record")), (
            _("%(id)s's record is sealed: what a published edition printed is written once, by `rulebook edition "
              "new`, and never again; a correction goes in %(data_dir)s/errata.yaml, a decision in "
              "%(data_dir)s/revisions.yaml", id=lib.edition.id, data_dir=DATA_DIR)))
    return write(lib)


def run(root: Path, edition: str) -> int:
    """``rulebook freeze ID``: write and seal the record, and say what to commit."""
    from ..book.library import load_library

    written = freeze_unsealed(load_library(root, edition))
    print(_("wrote %(count)s files under %(folder)s, sealed in rules_data/book.yaml (record:): commit them together; "
            "the diff shows a reviewer what it records", count=len(written), folder=written[0].parent.relative_to(root)))
    return 0

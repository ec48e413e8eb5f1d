"""A reason or a note is one line: the errata page, `rulebook validate` and a pull request's summary print it so."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.library import Library
from ..book.loader import YamlDoc, leaves
from ..book.words import _
from . import Found, check

# The fields that say why in a sentence: an erratum's note and its evidence's why, a decision's why, an acceptance's
# because, a source correction's because, the editors' note on a game or page.
REASONS = {"note", "why", "because", "editor_note"}


def _docs(lib: Library) -> Iterator[YamlDoc]:
    yield lib.book_doc
    yield lib.errata_doc
    yield from (doc for doc in (lib.accepted_doc, lib.revisions_doc) if doc is not None)
    yield from (gs.doc for gs in lib.every_game.values())


@check("reason.not_one_line")
def not_one_line(lib: Library) -> Iterator[Found]:
    """A reason or note (an erratum's note or why, a decision's why, an acceptance's because) runs over more than
    one line: each is printed as one line, and a line of its own could pass for the tool's own output."""
    for doc in _docs(lib):
        for path, value in leaves(doc.data):
            if path and path[-1] in REASONS and isinstance(value, str) and "\n" in value.strip("\n"):
                yield doc.where(path), (_("%(path)s: runs over %(value)s lines: write it as one sentence on one line "
                                          "(in YAML, a folded `>-` block or a quoted string)", path=path[-1],
                                          value=value.strip(chr(10)).count(chr(10)) + 1)), None

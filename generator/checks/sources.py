"""Cited documents: every game and variant names a source document the book lists (book.yaml sources)."""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import Location
from ..library import BOOK_FILE, DATA_DIR, Library
from . import check

Finding = tuple[Location, str, str]


@check("source.unknown")
def unknown_source(lib: Library) -> Iterator[Finding]:
    """A game or variant cites a document that book.yaml's sources do not name (and so cannot describe)."""
    named = {d.seed for d in lib.book.sources}
    for gs in lib.ordered_games():
        cited = [(("sources", i, "seed"), s) for i, s in enumerate(gs.game.sources)]
        cited += [(("variants", v, "sources", i, "seed"), s) for v, variant in enumerate(gs.game.variants)
                  if lib.in_edition(variant.introduced) for i, s in enumerate(variant.sources)]
        for path, source in cited:
            if source.seed not in named:
                yield (gs.where(path), f"cites '{source.seed}', which {DATA_DIR}/{BOOK_FILE} does not list under "
                       "sources: add it there (seed: and title:, what it is for readers) or correct the name", gs.id)

"""Cited documents: every game and variant names a source document the book lists (book.yaml sources)."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.library import BOOK_FILE, CONTENT_DIR, DATA_DIR, Library
from ..book.model import Source
from ..book.prose import MISSING, lookup
from . import Found, check


@check("source.unknown")
def unknown_source(lib: Library) -> Iterator[Found]:
    """A game or variant cites a document that book.yaml's sources do not name (and so cannot describe)."""
    named = {d.seed for d in lib.book.sources}
    for gs in lib.ordered_games():
        cited = [(("sources", i, "seed"), s) for i, s in enumerate(gs.game.sources)]
        cited += [(("variants", v, "sources", i, "seed"), s) for v, variant in enumerate(gs.game.variants)
                  if lib.includes(variant) for i, s in enumerate(variant.sources)]
        for path, source in cited:
            if source.seed not in named:
                yield (gs.where(path), f"cites '{source.seed}', which {DATA_DIR}/{BOOK_FILE} does not list under "
                       "sources: add it there (seed: and title:, what it is for readers) or correct the name", gs.id)


def _cited(lib: Library, gs) -> Iterator[tuple[tuple, Source, str | None]]:
    """(data path of the citation, the citation, the variant id or None) for a game and its variants in this edition."""
    for i, s in enumerate(gs.game.sources):
        yield ("sources", i), s, None
    for v, variant in enumerate(gs.game.variants):
        if lib.includes(variant):
            for i, s in enumerate(variant.sources):
                yield ("variants", v, "sources", i), s, variant.id


@check("source.correction_unmatched")
def correction_unmatched(lib: Library) -> Iterator[Found]:
    """A correction of a source is not what the game's files print: the corrected value is not at its path,
    the corrected words do not occur as often as it says, or the source's mistake is still printed."""
    for gs in lib.ordered_games():
        for at, source, variant in _cited(lib, gs):
            own = f"{CONTENT_DIR}/{gs.id}.{variant}.md" if variant else f"{CONTENT_DIR}/{gs.id}.md"
            prose = gs.variant_prose.get(variant) if variant else gs.prose
            for i, c in enumerate(source.corrections):
                where = gs.where((*at, "corrections", i))
                if c.path is not None:
                    body = f"variants.{at[1]}." if variant else ""
                    if variant and not c.path.startswith(body) or not variant and c.path.startswith("variants."):
                        yield where, (f"the correction's path {c.path} is not in what this source is cited for: "
                                      f"start it with '{body or 'a key of the game'}'"), gs.id
                        continue
                    value = lookup(gs.doc.data, c.path)
                    if value is MISSING or value != c.corrected:
                        found = "nothing" if value is MISSING else repr(value)
                        yield where, (f"{gs.doc.path} has {found} at {c.path}, the correction says {c.corrected!r}: "
                                      "correct the correction or the file"), gs.id
                    continue
                if c.file != own or prose is None:
                    yield where, f"a correction of this source names {c.file}: its words are in {own}; name that file", gs.id
                    continue
                found = prose.text.count(str(c.corrected))
                if found != c.count:
                    yield where, (f"'{c.corrected}' occurs {found} times in {own}, the correction says {c.count}: "
                                  "correct its count: or its words"), gs.id
                elif str(c.says) not in str(c.corrected) and str(c.says) in prose.text:
                    yield where, f"{own} still prints the source's mistake '{c.says}': correct it there", gs.id

"""Cited documents: every game and variant names a source document the book lists (book.yaml sources)."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.library import BOOK_FILE, CONTENT_DIR, DATA_DIR, Library
from ..book.model import Source
from ..book.prose import MISSING, lookup
from ..book.words import _
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
                yield (gs.where(path), _("cites '%(seed)s', which %(data_dir)s/%(book_file)s does not list under "
                                         "sources: add it there (seed: and title:, what it is for readers) or "
                                         "correct the name", seed=source.seed, data_dir=DATA_DIR, book_file=BOOK_FILE), gs.id)


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
                        yield where, (_("the correction's path %(path)s is not in what this source is cited for: "
                                        "start it with '%(body)s'", path=c.path, body=body) if body else
                                      _("the correction's path %(path)s is not in what this source is cited for: "
                                        "start it with 'a key of the game'", path=c.path)), gs.id
                        continue
                    value = lookup(gs.doc.data, c.path)
                    if value is MISSING or value != c.corrected:
                        found = "nothing" if value is MISSING else repr(value)
                        yield where, (_("%(path)s has %(found)s at %(path2)s, the correction says %(corrected)s: "
                                        "correct the correction or the file", path=gs.doc.path, found=found,
                                        path2=c.path, corrected=repr(c.corrected))), gs.id
                    continue
                if c.file != own or prose is None:
                    yield where, _("a correction of this source names %(file)s: its words are in %(own)s; name that "
                                   "file", file=c.file, own=own), gs.id
                    continue
                found = prose.text.count(str(c.corrected))
                if found != c.count:
                    yield where, (_("'%(corrected)s' occurs %(found)s times in %(own)s, the correction says "
                                    "%(count)s: correct its count: or its words", corrected=c.corrected, found=found,
                                    own=own, count=c.count)), gs.id
                elif str(c.says) not in str(c.corrected) and str(c.says) in prose.text:
                    yield where, _("%(own)s still prints the source's mistake '%(says)s': correct it there", own=own,
                                   says=c.says), gs.id

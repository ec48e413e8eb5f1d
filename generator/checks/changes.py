"""Recorded changes: each revision says what the family decided, and a correction belongs to an edition
that printed something to correct (an erratum's evidence is proven in ``evidence.py``).

Revisions are the family's decisions: a game retired says why, a game added is the game the revision names.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..book.library import DATA_DIR, Library, edition_key
from ..book.model import Game, program_words
from . import Found, check


def _printed_from(lib: Library, file: str, path: str | None) -> tuple[str, str] | None:
    """(what, the edition it was first printed in) for the game or variant a file and data path belong to."""
    stem = file.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    game_id, _, variant_id = stem.partition(".")
    gs = lib.games.get(game_id)
    if gs is None:
        return None
    variants = gs.game.variants
    if not variant_id and path and path.startswith("variants.") and path.split(".")[1].isdigit():
        index = int(path.split(".")[1])
        variant_id = variants[index].id if index < len(variants) else ""
    variant = next((v for v in variants if v.id == variant_id), None)
    if variant is not None:
        return f"{gs.game.heading()}: {variant.title}", variant.introduced
    return gs.game.heading(), gs.game.introduced


@check("erratum.never_printed")
def never_printed(lib: Library) -> Iterator[Found]:
    """An erratum corrects a game or variant in the edition that first prints it: no book printed the mistake,
    so it is a correction of the source it was transcribed from, kept with that source."""
    for i, e in enumerate(lib.errata):
        first = _printed_from(lib, e.file, e.path)
        # One filed under a published edition belongs in the open one (edition.frozen says so): judged there.
        filed = max(e.edition, lib.book.current, key=edition_key) if e.edition in {x.id for x in lib.book.editions} \
            else e.edition
        if first is not None and edition_key(first[1]) >= edition_key(filed):
            yield lib.errata_doc.where(("errata", i, "edition")), (
                f"erratum '{e.id}': {first[0]} is first printed in {first[1]}, so no edition printed what it corrects: "
                "record it with the game's source instead (sources: - corrections: says, corrected, because)"), None


@check("erratum.double")
def double(lib: Library) -> Iterator[Found]:
    """An erratum corrects the program's own words (a worked example's title or a figure's label,
    ``model.program_words``): no edition printed them as the book's, so there is nothing to correct there; a slip
    they repeat from the book is corrected once, where the book printed it, and counted once."""
    for i, e in enumerate(lib.errata):
        if e.path is None or not program_words(e.path):
            continue
        same = [o.id for o in lib.errata if o is not e and o.file == e.file and o.edition == e.edition
                and isinstance(o.published, str) and isinstance(e.published, str) and isinstance(o.corrected, str)
                and isinstance(e.corrected, str) and e.published in o.published and e.corrected in o.corrected]
        twice = f" (the slip is already corrected where the book printed it, by '{same[0]}'): it would be counted twice" if same else ""
        yield lib.errata_doc.where(("errata", i, "path")), (
            f"erratum '{e.id}' corrects {e.path}, the program's own words around the book's numbers, which no "
            f"edition printed{twice}: remove the erratum and write the words right in {e.file}"), None


@check("change.edition_unlisted")
def edition_unlisted(lib: Library) -> Iterator[Found]:
    """An erratum or revision names an edition the book does not list, or the first one, which has no edition
    before it to change."""
    editions = sorted((e.id for e in lib.book.editions), key=edition_key)
    records = [(lib.errata_doc, "errata", lib.errata)]
    if lib.revisions_doc is not None:
        records.append((lib.revisions_doc, "revisions", lib.revisions))
    for doc, key, items in records:
        for i, item in enumerate(items):
            if item.edition not in editions:
                yield doc.where((key, i, "edition")), (f"'{item.id}' names edition {item.edition}, which "
                                                       f"{DATA_DIR}/book.yaml does not list: name one of "
                                                       f"{', '.join(editions)}"), None
            elif item.edition == editions[0]:
                yield doc.where((key, i, "edition")), (f"'{item.id}' names {item.edition}, the first edition: a change "
                                                       "is made in a later edition, the one that prints it"
                                                       + (f": write edition: \"{lib.book.current}\", the edition "
                                                          "open for changes" if lib.book.current != editions[0]
                                                          else "")), None


def _game_file(lib: Library, game_id: str) -> Game | None:
    """A game's model from its file, whether or not this edition prints it (retired, or not yet added)."""
    gs = lib.every_game.get(game_id)
    return gs.game if gs is not None else None


@check("revision.mismatch")
def mismatch(lib: Library) -> Iterator[Found]:
    """A revision says a game, variant or alternate rule was added or retired in its edition, but the data says
    otherwise (introduced:, retired:), or names a game the book does not have."""
    if lib.revisions_doc is None:
        return
    for i, r in enumerate(lib.revisions):
        if r.game is None:
            continue
        where = lib.revisions_doc.where(("revisions", i, "game"))
        game = _game_file(lib, r.game)
        if game is None:
            yield where, f"revision '{r.id}' names game '{r.game}', which has no file {DATA_DIR}/{r.game}.yaml", None
            continue
        item, what = game, f"{game.heading()}"
        if r.variant is not None:
            item = next((v for v in game.variants if v.id == r.variant), None)
            what = f"{game.heading()}: variant '{r.variant}'"
            if item is None:
                yield where, f"revision '{r.id}': {game.heading()} has no variant '{r.variant}'", None
                continue
        if r.kind == "alternate_rule":
            rules = game.alternate_rules.rules if game.alternate_rules else []
            item = next((x for x in rules if x.number == r.rule), None)
            if item is None:
                yield where, f"revision '{r.id}': {game.heading()} has no Alternate Rule {r.rule}", None
                continue
            what, field, stated = f"{game.heading()}'s Alternate Rule {r.rule}", "introduced", item.introduced
        elif r.kind.endswith("_added"):
            field, stated = "introduced", item.introduced
        else:
            field, stated = "retired", getattr(item, "retired", None)
        if stated != r.edition:
            yield where, (f"revision '{r.id}' says {what} is {'added' if field == 'introduced' else 'retired'} in "
                          f"{r.edition}, but its data says {field}: {stated or 'nothing'}: make them agree"), None


@check("revision.missing")
def missing(lib: Library) -> Iterator[Found]:
    """A game or variant is retired, or added with no source it is transcribed from, with no revision saying why:
    either is the family's decision, and the what-changed page tells readers why."""
    yield from _added_unsaid(lib)
    said = {(r.game, r.variant, r.edition) for r in lib.revisions if r.kind.endswith("_retired")}
    for gid in sorted(lib.every_game):
        game, doc = lib.every_game[gid].game, lib.every_game[gid].doc
        items = [(game.retired, None, ("retired",))] + [(v.retired, v.id, ("variants", n, "retired"))
                                                         for n, v in enumerate(game.variants)]
        for retired, variant, loc in items:
            if retired is not None and edition_key(retired) <= edition_key(lib.book.current) \
                    and (game.id, variant, retired) not in said:
                where = doc.where(loc)
                kind = "variant_retired" if variant else "game_retired"
                yield where, (f"retired: {retired} with no revision saying why: add one to {DATA_DIR}/revisions.yaml "
                              f"(kind: {kind}, game: {game.id}{f', variant: {variant}' if variant else ''}, "
                              f"edition: \"{retired}\", why: …)"), game.id



def _added_unsaid(lib: Library) -> Iterator[Found]:
    """A game or variant first printed after the first edition with no revision recording its addition, unless it
    is transcribed from a document in the edition that took that document in (book.yaml's sources,
    ``transcribed_in``): "What changed" lists those among what the sources added. Any other addition, the family's
    own game (`rulebook new-game` without --source) or one more game from a document already taken in, is their
    decision."""
    first = min((e.id for e in lib.book.editions), key=edition_key)
    taken_in = {d.seed: d.transcribed_in for d in lib.book.sources}
    said = {(r.game, r.variant, r.edition) for r in lib.revisions if r.kind.endswith("_added")}
    for gid in sorted(lib.every_game):
        game, doc = lib.every_game[gid].game, lib.every_game[gid].doc
        items = [(game.introduced, None, game.sources, ("introduced",))] + [
            (v.introduced, v.id, v.sources, ("variants", n, "introduced")) for n, v in enumerate(game.variants)
            if v.introduced is not None and v.introduced != game.introduced]
        for introduced, variant, sources, loc in items:
            transcribed = any(taken_in.get(s.seed) == introduced for s in sources)
            if introduced == first or transcribed or edition_key(introduced) > edition_key(lib.book.current) \
                    or (game.id, variant, introduced) in said:
                continue
            kind = "variant_added" if variant else "game_added"
            cited = [s.seed for s in sources]
            because = (f"it cites {', '.join(cited)}, which {DATA_DIR}/book.yaml does not say {introduced} took in "
                       "(sources: transcribed_in)") if cited else "it cites no source it comes from"
            yield doc.where(loc), (f"introduced: {introduced} with no revision saying why {lib.book.decided_by} "
                                   f"added it ({because}): add one to {DATA_DIR}/revisions.yaml (kind: {kind}, game: "
                                   f"{game.id}{f', variant: {variant}' if variant else ''}, edition: \"{introduced}\", "
                                   "why: …)"), game.id

"""Recorded changes: each revision says what the family decided, and a correction belongs to an edition
that printed something to correct (an erratum's evidence is proven in ``evidence.py``).

Revisions are the family's decisions: a game retired says why, a game added is the game the revision names.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..book.library import DATA_DIR, Library, edition_key
from ..book.model import Game, program_words
from ..book.words import _
from . import Found, check


def _printed_from(lib: Library, file: str, path: str | None) -> tuple[str, str] | None:
    """(what, the edition it was first printed in) for the game or variant a file and data path belong to."""
    stem = file.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    game_id, _dot, variant_id = stem.partition(".")
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
                _("erratum '%(id)s': %(first)s is first printed in %(first2)s, so no edition printed what it "
                  "corrects: record it with the game's source instead (sources: - corrections: says, corrected, "
                  "because)", id=e.id, first=first[0], first2=first[1])), None


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
        yield lib.errata_doc.where(("errata", i, "path")), (
            _("erratum '%(id)s' corrects %(path)s, the program's own words around the book's numbers, which no "
              "edition printed (the slip is already corrected where the book printed it, by '%(same)s'): it would "
              "be counted twice: remove the erratum and write the words right in %(file)s", id=e.id, path=e.path,
              same=same[0], file=e.file) if same else
            _("erratum '%(id)s' corrects %(path)s, the program's own words around the book's numbers, which no "
              "edition printed: remove the erratum and write the words right in %(file)s", id=e.id, path=e.path,
              file=e.file)), None


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
                yield doc.where((key, i, "edition")), (_("'%(id)s' names edition %(edition)s, which "
                                                         "%(data_dir)s/book.yaml does not list: name one of "
                                                         "%(editions)s", id=item.id, edition=item.edition,
                                                         data_dir=DATA_DIR, editions=', '.join(editions))), None
            elif item.edition == editions[0]:
                yield doc.where((key, i, "edition")), (
                    _("'%(id)s' names %(edition)s, the first edition: a change is made in a later edition, the one "
                      'that prints it: write edition: "%(current)s", the edition open for changes', id=item.id,
                      edition=item.edition, current=lib.book.current) if lib.book.current != editions[0] else
                    _("'%(id)s' names %(edition)s, the first edition: a change is made in a later edition, the one "
                      "that prints it", id=item.id, edition=item.edition)), None


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
            yield where, _("revision '%(id)s' names game '%(game)s', which has no file %(data_dir)s/%(game)s.yaml",
                           id=r.id, game=r.game, data_dir=DATA_DIR), None
            continue
        item, what = game, f"{game.heading()}"
        if r.variant is not None:
            item = next((v for v in game.variants if v.id == r.variant), None)
            what = _("%(heading)s: variant '%(variant)s'", heading=game.heading(), variant=r.variant)
            if item is None:
                yield where, _("revision '%(id)s': %(heading)s has no variant '%(variant)s'", id=r.id,
                               heading=game.heading(), variant=r.variant), None
                continue
        if r.kind == "alternate_rule":
            rules = game.alternate_rules.rules if game.alternate_rules else []
            item = next((x for x in rules if x.number == r.rule), None)
            if item is None:
                yield where, _("revision '%(id)s': %(heading)s has no Alternate Rule %(rule)s", id=r.id,
                               heading=game.heading(), rule=r.rule), None
                continue
            what, field, stated = _("%(heading)s's Alternate Rule %(rule)s", heading=game.heading(), rule=r.rule), "introduced", item.introduced
        elif r.kind.endswith("_added"):
            field, stated = "introduced", item.introduced
        else:
            field, stated = "retired", getattr(item, "retired", None)
        if stated != r.edition:
            values = {"id": r.id, "what": what, "edition": r.edition, "field": field, "stated": stated or _("nothing")}
            yield where, (_("revision '%(id)s' says %(what)s is added in %(edition)s, but its data says %(field)s: "
                            "%(stated)s: make them agree", **values) if field == "introduced" else
                          _("revision '%(id)s' says %(what)s is retired in %(edition)s, but its data says %(field)s: "
                            "%(stated)s: make them agree", **values)), None


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
                named = f"{game.id}, variant: {variant}" if variant else game.id  # YAML keys: as written in any language
                yield where, _("retired: %(edition)s with no revision saying why: add one to %(data_dir)s/revisions.yaml "
                               "(kind: %(kind)s, game: %(game)s, edition: \"%(edition)s\", why: …)", edition=retired,
                               data_dir=DATA_DIR, kind=kind, game=named), game.id



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
            because = (_("it cites %(cited)s, which %(data_dir)s/book.yaml does not say %(introduced)s took in "
                         "(sources: transcribed_in)", cited=', '.join(cited), data_dir=DATA_DIR, introduced=introduced)) if cited \
                else _("it cites no source it comes from")
            named = f"{game.id}, variant: {variant}" if variant else game.id  # YAML keys: as written in any language
            yield doc.where(loc), _("introduced: %(edition)s with no revision saying why %(whose)s added it "
                                    "(%(because)s): add one to %(data_dir)s/revisions.yaml (kind: %(kind)s, game: "
                                    "%(game)s, edition: \"%(edition)s\", why: …)", edition=introduced,
                                    whose=lib.book.decided_by, because=because, data_dir=DATA_DIR, kind=kind,
                                    game=named), game.id

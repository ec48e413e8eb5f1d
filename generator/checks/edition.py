"""Edition metadata: an edition's id, year, revision and label agree.

The prose is not searched for other years: "For the 2025 edition we have added ..." is history the
family wrote, true when it was written, and a sentence that is merely old is not an error."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..book.frozen import FROZEN_DIR, Difference, check_seal, differences, folder, stored
from ..book.library import CONTENT_DIR, DATA_DIR, Library, edition_key
from ..book.prose import MISSING, expand, lookup
from ..book.words import _
from ..errors import Location
from . import Found, check

REVISION = re.compile(r"\brevision\s+(\d{1,9})\b", re.I)

# Which editions a finding is about is known once every frozen edition is compared: a message names them by these
# marks, and the finding's line puts the editions in their place.
EDITIONS, LATEST = "\0editions", "\0latest"


@check("edition.mismatch")
def mismatch(lib: Library) -> Iterator[Found]:
    """An edition's label names another year or revision than the edition itself."""
    ed = lib.edition
    label_years = re.findall(r"(?:19|20)\d\d", ed.label)
    where = lib.book_doc.where(("editions", [e.id for e in lib.book.editions].index(ed.id)))
    if any(int(y) != ed.year for y in label_years):
        yield where, _("edition %(id)s: the label '%(label)s' names another year than %(year)s", id=ed.id,
                       label=ed.label, year=ed.year), None
    for m in REVISION.finditer(ed.label):
        if int(m.group(1)) != ed.revision:
            yield where, _("edition %(id)s: the label '%(label)s' says revision %(group)s, the edition is revision "
                           "%(revision)s", id=ed.id, label=ed.label, group=m.group(1), revision=ed.revision), None
    if not ed.id.startswith(f"{ed.year}."):
        yield where, _("edition id %(id)s does not begin with its year %(year)s", id=ed.id, year=ed.year), None


def _frozen_libraries(lib: Library) -> Iterator[Library]:
    """Each earlier edition as today's files print it (this one, if it is not the current edition)."""
    for ed in lib.book.editions:
        if ed.id == lib.book.current or edition_key(ed.id) > edition_key(lib.edition.id):
            continue
        # An earlier edition is rebuilt from the same files (its errata undone): a second load, kept for other checks.
        yield lib.edition_library(ed.id)


def _changed(old: object, new: object) -> tuple[str, str]:
    """The two texts around what differs: a long line is cut to the changed words with some context."""
    a, b = str(old).replace("\n", " / "), str(new).replace("\n", " / ")
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    start = max(0, a.rfind(" ", 0, max(0, start - 30)) + 1) if start > 40 else 0
    a, b = a[start:], b[start:]
    return ("..." if start else "") + a, ("..." if start else "") + b


def _short(value: object) -> str:
    text = str(value).replace("\n", " / ")
    return f'"{text[:117]}..."' if len(text) > 120 else f'"{text}"'


def _at(old: Library, file: str, where: tuple) -> Location:
    if not file.endswith(".yaml"):
        return Location(file, where[0])
    doc = old.book_doc if file == old.book_doc.path else next(
        (gs.doc for gs in old.games.values() if gs.doc.path == file), None)
    if doc is None:
        return Location(file)
    path = tuple(int(p) if isinstance(p, str) and p.isdigit() else p for p in where)
    while path and lookup(doc.data, ".".join(map(str, path))) is MISSING:  # removed: the nearest part still there
        path = path[:-1]
    return doc.where(path)


FIRST = 5  # changes reported one by one in a file


def _editions(ids: list[str]) -> str:
    """'the 2026.2 edition', 'the 2026.1 and 2026.2 editions'."""
    return _("the %(ids)s edition", ids=ids[0]) if len(ids) == 1 else _("the %(ids)s and %(ids2)s editions",
                                                           ids=', '.join(ids[:-1]), ids2=ids[-1])


@check("edition.frozen")
def frozen(lib: Library) -> Iterator[Found]:
    """Today's files print an earlier edition otherwise than it was published (its fingerprint)."""
    # One finding a change, however many published editions print the changed words: {key: (editions, ...)}.
    found: dict[tuple, tuple[list[str], Location, str, str | None]] = {}

    def add(key: tuple, ed: str, where: Location, text: str, game: str | None) -> None:
        editions = found.setdefault(key, ([], where, text, game))[0]
        if ed not in editions:
            editions.append(ed)

    for old in _frozen_libraries(lib):
        ed = old.edition.id
        skip = _untrusted(lib, ed)
        if skip is None:  # its record is not as it was sealed (frozen.changed): nothing to compare with
            continue
        kept = stored(lib.root, ed, skip)
        if kept is None:
            where = lib.book_doc.where(("editions", [e.id for e in lib.book.editions].index(ed)))
            yield where, _("edition %(ed)s has no fingerprint of what it printed: run `rulebook freeze %(ed)s` and "
                           "commit it", ed=ed), None
            continue
        changed = differences(old, kept, skip)
        # A published game whose file is gone was deleted or given a new id: one finding that says what to do
        # instead, in place of one for each thing its page printed.
        gone = {}
        for game, why in _gone(lib, old, kept, skip).items():
            gone[game] = why[0]
            add((why[1], "gone", game), ed, why[1], why[2], game)
        renamed = {new for new in gone.values() if new is not None}
        changed = [d for d in changed if d.game not in gone and d.game not in renamed
                   and not (gone and d.where == ("sections",))]
        late = _lifetimes_late(lib, old, kept, skip)
        for (game, variant), (where, text) in late.items():
            add((where, "late", game, variant), ed, where, text, game)
        # What a game or variant added or retired under a frozen edition changes is that revision's, said above.
        changed = [d for d in changed if not _explained(d, late)]
        per_file: dict[str, int] = {}
        for d in changed:
            per_file[d.file] = per_file.get(d.file, 0) + 1
            where = _at(old, d.file, d.where)
            if per_file[d.file] > FIRST:  # a line inserted in a list shifts every value after it: the first few say it
                if per_file[d.file] == FIRST + 1:
                    more = sum(1 for x in changed if x.file == d.file) - FIRST
                    add((where, "more", more), ed, where, _("and %(more)s more changes to what %(file)s states in "
                                                            "%(editions)s as published (a line added or removed "
                                                            "above them moves them)", more=more, file=d.file,
                                                            editions=EDITIONS), d.game)
                continue
            late = _filed_late(lib, d, ed)
            if late is not None:  # recorded, but under an edition already printed: say which one is open
                add((late[0], "late"), ed, *late, d.game)
                continue
            printed, now = _changed(d.published, d.now)
            what = _("the %(latest)s book prints %(short)s, this would print %(short2)s", latest=LATEST,
                     short=_short(printed), short2=_short(now))
            if d.where == ("sections",):
                what = (_("the %(latest)s book has its games in this order: %(short)s; this would have %(short2)s",
                          latest=LATEST, short=_short(d.published), short2=_short(d.now)))
            title = f"{old.games[d.game].game.heading()}: " if d.game in old.games else ""
            add((where, printed, now), ed, where, _("%(title)sthis changes %(editions)s as published: record it in "
                                                    "the edition that makes it, an erratum if %(latest)s was wrong "
                                                    "(errata.yaml) or a revision if %(decided_by)s decided it "
                                                    "(revisions.yaml) (%(what)s)", title=title, editions=EDITIONS,
                                                    latest=LATEST, decided_by=lib.book.decided_by, what=what), d.game)
    for editions, where, text, game in found.values():
        yield where, text.replace(EDITIONS, _editions(editions)).replace(LATEST, editions[-1]), game


def _gone(lib: Library, old: Library, kept: dict, skip: set[str]) -> dict[str, tuple[str | None, Location, str]]:
    """{published game: (its new id or None, where, what to do)} for each game the edition ``old`` printed (its
    record ``kept``) that has no file any more: given a new id (a new file prints its page) or deleted."""
    out: dict[str, tuple[str | None, Location, str]] = {}
    new = [gs for gid, gs in lib.every_game.items() if gid not in kept]
    for game, record in kept.items():
        if game == "book" or game.startswith("page-") or game in lib.every_game or game in skip:
            continue
        data, prose = record.get("data") or {}, record.get(f"{CONTENT_DIR}/{game}.md")
        title = data.get("title", game)
        same = next((gs for gs in new if (gs.prose is not None and prose is not None
                                          and gs.prose.text.splitlines() == list(prose))
                     or gs.game.title == title), None)
        if same is not None:
            out[game] = (same.id, same.where(("id",)), (
                _("%(title)s's id is '%(id)s' here, but %(id2)s published it as '%(game)s': a game's id is permanent "
                  "(its pages' addresses, its records): give it back its id ('%(game)s', its files "
                  "%(data_dir)s/%(game)s.yaml and %(content_dir)s/%(game)s.md, its line in %(data_dir)s/book.yaml); "
                  "a new name is a new title:", title=title, id=same.id, id2=old.edition.id, game=game,
                  data_dir=DATA_DIR, content_dir=CONTENT_DIR)))
            continue
        listed = [i for i, s in enumerate(lib.book.sections) if s.id == data.get("category")]
        where = lib.book_doc.where(("sections", listed[0], "games") if listed else ("sections",))
        out[game] = (None, where, (
            _("%(title)s (%(data_dir)s/%(game)s.yaml), printed in %(editions)s, is deleted: a published game is "
              "never deleted: put back its files and its line in %(data_dir)s/book.yaml, and retire it: retired: "
              '"%(current)s" in %(data_dir)s/%(game)s.yaml, and a decision in %(data_dir)s/revisions.yaml (kind: '
              "game_retired, game: %(game)s, why: ...)", title=title, data_dir=DATA_DIR, game=game, editions=EDITIONS,
              current=lib.book.current)))
    return out


def _late_message(kind: str, item: object, current: str) -> str:
    values = {"kind": kind, "id": item.id, "edition": item.edition, "editions": EDITIONS, "current": current}
    if kind == "revision" and item.file is None:
        return _("%(kind)s '%(id)s' is filed under %(edition)s, which is published and frozen (so it changes "
                 '%(editions)s as printed): %(current)s is the edition open for changes: write edition: "%(current)s" '
                 "(and %(current)s as the game's or variant's introduced: or retired:)", **values)
    return _("%(kind)s '%(id)s' is filed under %(edition)s, which is published and frozen (so it changes "
             '%(editions)s as printed): %(current)s is the edition open for changes: write edition: "%(current)s"',
             **values)


def _records(lib: Library, edition: str) -> Iterator[tuple[Location, str, object]]:
    """(where its edition: is, 'erratum' or 'revision', the record) for each change filed under ``edition`` or an
    earlier published one: the records that may make a change to what ``edition`` printed."""
    records = [("errata", lib.errata_doc, lib.errata, "erratum")]
    if lib.revisions_doc is not None:
        records.append(("revisions", lib.revisions_doc, lib.revisions, "revision"))
    for key, doc, items, kind in records:
        for i, item in enumerate(items):
            if item.edition != lib.book.current and edition_key(item.edition) <= edition_key(edition):
                yield doc.where((key, i, "edition")), kind, item


def _filed_late(lib: Library, d: Difference, edition: str) -> tuple[Location, str] | None:
    """(where, what to write) for the erratum or revision that makes a change to a published edition's words or
    values because it is filed under that edition (or an earlier one) instead of the one open for changes."""
    for where, kind, item in _records(lib, edition):
        new = getattr(item, "corrected", getattr(item, "after", None))
        if item.file is None or item.file != d.file or new is None:
            continue
        if (d.where == tuple(item.path.split(".")) and d.now == new) if item.path else str(new) in str(d.now):
            return where, _late_message(kind, item, lib.book.current)
    return None


def _lifetimes_late(lib: Library, old: Library, kept: dict, skip: set[str]) -> dict[tuple, tuple[Location, str]]:
    """{(game, variant or None): (where, what to write)} for each game or variant added or retired by a revision
    filed under the published edition ``old`` (``kept``: its record, less the files ``skip`` names) that it did
    not add or retire there."""
    out = {}
    for where, kind, item in _records(lib, old.edition.id):
        game = getattr(item, "game", None)
        if kind != "revision" or item.file is not None or game is None or game in skip:
            continue
        if item.variant is None:
            was, now = game in kept, game in old.games
        else:
            data = (kept.get(game) or {}).get("data") or {}
            was = any(k.startswith("variants.") and k.endswith(".id") and v == item.variant for k, v in data.items())
            gs = old.games.get(game)
            now = gs is not None and any(v.id == item.variant and old.includes(v) for v in gs.game.variants)
        if (item.kind.endswith("_added") and now and not was) or (item.kind.endswith("_retired") and was and not now):
            out[(game, item.variant)] = (where, _late_message(kind, item, lib.book.current))
    return out


def _explained(d: Difference, late: dict[tuple, tuple[Location, str]]) -> bool:
    """Whether a difference is what a game or variant added or retired under a frozen edition changes."""
    games = {game for game, variant in late if variant is None}
    return d.game in games or (bool(games) and d.where == ("sections",)) or any(
        d.game == game and (d.where[:1] == ("variants",) or d.file.endswith(f"/{game}.{variant}.md"))
        for game, variant in late if variant is not None)


@check("erratum.not_published")
def not_published(lib: Library) -> Iterator[Found]:
    """An erratum's published: text is not what the earlier edition printed there (its fingerprint)."""
    editions = [e.id for e in lib.book.editions if e.id != lib.book.current]
    # Read once (many errata cite one edition), and only what is as it was sealed (frozen.changed says the rest).
    fingerprints = {ed: stored(lib.root, ed, skip) if (skip := _untrusted(lib, ed)) is not None else None
                    for ed in editions}
    for i, e in enumerate(lib.errata):
        before = [ed for ed in editions if edition_key(ed) < edition_key(e.edition)]
        kept = fingerprints[before[-1]] if before else None
        if not kept:
            continue
        stem = e.file.rsplit("/", 1)[-1].split(".")[0]
        entry = kept.get("book" if e.file == lib.book_doc.path else stem) or kept.get(f"page-{stem}") or {}
        where = lib.errata_doc.where(("errata", i, "published"))
        if e.path is not None:
            printed = (entry.get("data") or {}).get(e.path, MISSING)
            if printed is not MISSING and printed != e.published:
                yield where, (_("erratum '%(id)s' says the %(before)s book printed %(short)s at %(path)s, but it "
                                "printed %(short2)s: write what it printed", id=e.id, before=before[-1],
                                short=_short(e.published), path=e.path, short2=_short(printed))), None
        elif e.file in entry:
            text = "\n".join(entry[e.file])
            game = lib.games.get(stem)
            published = expand(str(e.published), *([game.doc.data] if game else []), lib.scope())
            if published not in text:
                yield where, (_("erratum '%(id)s' says the %(before)s book printed %(short)s in %(file)s, but it "
                                "printed no such words: copy them from the published book", id=e.id, before=before[-1],
                                short=_short(published), file=e.file)), None



def _untrusted(lib: Library, edition: str) -> set[str] | None:
    """The files of an edition's record not as they were sealed (None: the record as a whole is not)."""
    recorded = next(e.record for e in lib.book.editions if e.id == edition)
    return set() if recorded is None else check_seal(lib.root, edition, recorded).untrusted


@check("frozen.changed")
def frozen_changed(lib: Library) -> Iterator[Found]:
    """A published edition's record (rules_data/frozen/<id>/) is not as `rulebook edition new` wrote and sealed
    it: a file edited, added or removed, or its seal in book.yaml gone."""
    for n, ed in enumerate(lib.book.editions):
        if ed.id == lib.book.current:
            continue
        if ed.record is None:
            if folder(lib.root, ed.id).is_dir():
                yield lib.book_doc.where(("editions", n)), (
                    _("edition %(id)s is published, but %(path)s keeps no digest of its record "
                      "(%(frozen_dir)s/%(id)s/), so nothing shows a change to it: put back its `record:` line as "
                      "`rulebook edition new` wrote it (git log -p %(path)s); a record made before records were "
                      "sealed is sealed once by `rulebook freeze %(id)s`, in a change of its own", id=ed.id,
                      path=lib.book_doc.path, frozen_dir=FROZEN_DIR)), None
            continue
        for path, problem in check_seal(lib.root, ed.id, ed.record).problems:
            yield Location(path, 1), problem, None

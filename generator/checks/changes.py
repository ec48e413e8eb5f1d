"""Recorded changes: each erratum proves its mistake, each revision says what the family decided, and
a correction belongs to an edition that printed something to correct.

Errata are mistakes of a printed edition; their evidence is checked, not just labelled: a ``spelling``
replaces a word the dictionary does not know with one it does, an ``arithmetic`` correction makes the
check it names fail on the printed value and pass on the corrected one, a ``contradiction`` quotes words
the edition really prints on the page it names. The evidence of the edition under work is checked (the
errata of published editions were checked when they were made, and their words are frozen with them).
Revisions are the family's decisions: a game retired says why, a game added is the game the revision names.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections import Counter
from collections.abc import Iterator

from pydantic import ValidationError

from ..errors import Location
from ..library import DATA_DIR, GameSource, Library, edition_key
from ..loader import TextDoc, YamlDoc, leaves
from ..model import Erratum, Game
from ..prose import MISSING, expand, lookup
from . import REGISTRY, check
from .editorial import SKIP_KEYS, WORD, house_words, unknown_words

Finding = tuple[Location, str, str | None]
LIST_MARK = re.compile(r"^\s*(?:[-*+]|[0-9]+\.|#+)\s+")  # a list item's or heading's mark opens no words
PUNCTUATION = "\"'“”‘’.,;:!?()[]*_"
POSSESSIVE = re.compile(r"['’]s$")
CARD_PLURAL = re.compile(r"(?:[0-9]+|[AKQJ])['’]?s")  # 2's, 10s, K's: the book's two ways to write a card's plural
NUMBER = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})*(?:\.[0-9]+)?|[0-9]+")  # 95, 1,000, 2.5


def _tokens(text: str) -> Counter[str]:
    """The words of a text as written, outer punctuation off: 'oponent’s,' -> 'oponent’s'."""
    return Counter(t for t in (w.strip(PUNCTUATION) for w in str(text).split()) if t and not t.startswith("{"))


def _known(tokens: set[str], lib: Library) -> dict[str, bool]:
    """Whether the dictionary knows each written word: the English list, the house words, the card notation."""
    house = house_words(lib.root)
    looked: dict[str, str | None] = {}
    for token in tokens:
        if CARD_PLURAL.fullmatch(token) or NUMBER.fullmatch(token):
            looked[token] = None  # '2's', '10s', '1,000': the book's notation for numbers and cards
            continue
        word = POSSESSIVE.sub("", token).lower()
        looked[token] = word if WORD.fullmatch(word) else "\0"  # a comma or digit inside a word: no word at all
    unknown = unknown_words({w for w in looked.values() if w and w != "\0" and w not in house and len(w) > 1})
    return {t: w is None or (w != "\0" and w not in unknown) for t, w in looked.items()}


def _swapped(e: Erratum) -> tuple[Counter[str], Counter[str]]:
    """The words an erratum removes and the words it adds."""
    return _tokens(e.published) - _tokens(e.corrected), _tokens(e.corrected) - _tokens(e.published)


def _spelling(e: Erratum, known: dict[str, bool]) -> str | None:
    """Why a spelling erratum's evidence is false, if it is (``known``: the dictionary's verdict on each word)."""
    removed, added = _swapped(e)
    wrong = sorted(t for t in removed if not known[t])
    if not wrong:
        what = ", ".join(f"'{t}'" for t in sorted(removed)) or "no word"
        return (f"a spelling correction replaces a word the dictionary does not know, but it replaces {what}, "
                "which it knows: give the evidence kind that says why the book was wrong")
    still = sorted(t for t in added if not known[t])
    if still:
        return (f"the corrected words {', '.join(repr(t) for t in still)} are not in the dictionary either: "
                f"correct the spelling, or add the word to {DATA_DIR}/dictionary.txt if it is right")
    return None


def _printed(lib: Library, page: str) -> str:
    """Every word the edition prints on a game's or page's page, as one line: prose with its references filled
    in, and the data's text, its list and emphasis marks dropped."""
    gs = lib.games.get(page)
    if gs is not None:
        scopes = [gs.doc.data, lib.scope()]
        texts = [p.text for p in [gs.prose, *gs.variant_prose.values()] if p] + [
            v for _, v in leaves(gs.doc.data, SKIP_KEYS) if isinstance(v, str)]
    elif page in lib.pages:
        scopes, texts = [lib.scope()], [lib.pages[page].text]
    else:
        return ""
    lines = (LIST_MARK.sub("", expand(line, *scopes)) for text in texts for line in str(text).splitlines())
    return " ".join(" ".join(lines).replace("*", "").replace("`", "").split())


def _contradiction(e: Erratum, lib: Library) -> str | None:
    """Why a contradiction's evidence is false: the page does not print the words it quotes."""
    printed = _printed(lib, e.evidence.page or "")
    missing = [part for part in (" ".join(p.split()) for p in (e.evidence.words or "").split("; ")) if part not in printed]
    if missing:
        return (f"the {lib.edition.id} page '{e.evidence.page}' does not print “{missing[0]}”: quote the words "
                "as the page prints them (passages joined by '; ')")
    return None


def _variant(lib: Library, e: Erratum, value: object) -> Library | None:
    """The library with one game file (or prose) holding ``value`` where the erratum's correction is."""
    stem = e.file.rsplit("/", 1)[-1].split(".")[0]
    gs = lib.games.get(stem)
    if gs is None:
        return None
    if e.path is not None:
        data = copy.deepcopy(gs.doc.data)
        parts = e.path.split(".")
        node = lookup(data, ".".join(parts[:-1])) if len(parts) > 1 else data
        if node is MISSING:
            return None
        node[int(parts[-1]) if isinstance(node, list) else parts[-1]] = value
        try:
            game = Game.model_validate(data)
        except ValidationError:
            return None
        changed = GameSource(game, YamlDoc(gs.doc.path, data, gs.doc.marks), gs.prose, gs.variant_prose)
    else:
        def swap(doc: TextDoc | None) -> TextDoc | None:
            if doc is None or doc.path != e.file:
                return doc
            return dataclasses.replace(doc, text=doc.text.replace(str(e.corrected), str(value)))
        changed = GameSource(gs.game, gs.doc, swap(gs.prose), {k: swap(v) for k, v in gs.variant_prose.items()})
    return dataclasses.replace(lib, games={**lib.games, gs.id: changed})


def _arithmetic(e: Erratum, lib: Library) -> str | None:
    """Why an arithmetic erratum's evidence is false: its check does not fail on the published value and pass
    on the corrected one."""
    chk = REGISTRY.get(e.check)
    if chk is None:
        return f"'{e.check}' is not a check: name the check that finds the arithmetic wrong"
    published, corrected = _variant(lib, e, e.published), _variant(lib, e, e.corrected)
    if published is None or corrected is None:
        return f"the arithmetic can be checked only in a game's data or prose, not in {e.file}: give another kind"
    before = {(w.path, m) for w, m, _ in chk.func(published)}
    after = {(w.path, m) for w, m, _ in chk.func(corrected)}
    if not before - after:
        return (f"{e.check} finds nothing wrong with the published {e.published!r}: the arithmetic evidence "
                "must be a sum the check proves wrong; give the kind that says why the book was wrong")
    if after - before:
        return f"{e.check} finds the corrected {e.corrected!r} wrong too: {sorted(after - before)[0][1]}"
    return None


EVIDENCE = {"arithmetic": _arithmetic, "contradiction": _contradiction}  # and spelling (_spelling: the words asked at once)


@check("erratum.false_evidence")
def false_evidence(lib: Library) -> Iterator[Finding]:
    """An erratum's evidence does not prove the mistake: a spelling fix that fixes no misspelt word, arithmetic
    its check does not find wrong, or a contradiction quoting words its page does not print."""
    mine = [(i, e) for i, e in enumerate(lib.errata) if e.edition == lib.edition.id]
    # The dictionary is asked once for every spelling erratum's words: each ask reads its remembered verdicts.
    words = {t for _, e in mine if e.evidence.kind == "spelling" for swapped in _swapped(e) for t in swapped}
    known = _known(words, lib) if words else {}
    for i, e in mine:
        kind = e.evidence.kind
        problem = _spelling(e, known) if kind == "spelling" else EVIDENCE[kind](e, lib)
        if problem:
            yield lib.errata_doc.where(("errata", i, "evidence", "kind")), f"erratum '{e.id}': {problem}", None


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
def never_printed(lib: Library) -> Iterator[Finding]:
    """An erratum corrects a game or variant in the edition that first prints it: no book printed the mistake,
    so it is a correction of the source it was transcribed from, kept with that source."""
    for i, e in enumerate(lib.errata):
        first = _printed_from(lib, e.file, e.path)
        if first is not None and edition_key(first[1]) >= edition_key(e.edition):
            yield lib.errata_doc.where(("errata", i, "edition")), (
                f"erratum '{e.id}': {first[0]} is first printed in {first[1]}, so no edition printed what it corrects: "
                "record it with the game's source instead (sources: - corrections: says, corrected, because)"), None


@check("change.edition_unlisted")
def edition_unlisted(lib: Library) -> Iterator[Finding]:
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
                                                       "is made in a later edition, the one that prints it"), None


def _game_file(lib: Library, game_id: str) -> Game | None:
    """A game's model from its file, whether or not this edition prints it (retired, or not yet added)."""
    gs = lib.every_game.get(game_id)
    return gs.game if gs is not None else None


@check("revision.mismatch")
def mismatch(lib: Library) -> Iterator[Finding]:
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
def missing(lib: Library) -> Iterator[Finding]:
    """A game or variant is retired with no revision saying why: retiring one is the family's decision, and the
    what-changed page tells readers why."""
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


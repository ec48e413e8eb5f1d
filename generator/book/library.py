"""Stage 3, assembling: every source file loaded, validated and cut to one edition.

The current edition is the data as it stands. An older edition is rebuilt from the same files
by undoing the errata (each records the published and the corrected value) and leaving out what
was introduced later. There is one copy of the data, never two.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import Location, SourceError, SourceErrors, echo
from . import hints
from .files import list_folder, read_source, recording
from .loader import TextDoc, YamlDoc, read_text, read_yaml
from .lookalike import foreign_letters, reader_key
from .model import (
    Acceptance,
    Accepted,
    Book,
    Edition,
    Errata,
    Erratum,
    Game,
    Revision,
    Revisions,
    edition_key,
)
from .words import N_, Words, _, use

DATA_DIR = "rules_data"
CONTENT_DIR = "content"
# What the book is made of: a side of a change given by a git ref is these folders at that ref (diff, check-pr).
SOURCE_DIRS = (DATA_DIR, CONTENT_DIR)
BOOK_FILE = "book.yaml"
ERRATA_FILE = "errata.yaml"
# The site's own pages and folders, beside the book's pages (render/site/docs.py writes them; tests/test_init.py holds
# the two lists together): a page of the book's own cannot take one of these ids.
SITE_NAMES = frozenset({"index", "finder", "book-index", "errata", "changes", "games", "keep", "assets", "downloads",
                        "_offline", "search", "404", "sitemap", "manifest", "sw"})
# Names Windows gives its devices: no file or folder of a checkout there may have one, whatever follows its dot
# (content/con.md, content/con.variant.md), so no game or page of a book may take one as its id.
WINDOWS_NAMES = frozenset({"con", "prn", "aux", "nul", *(f"com{n}" for n in range(10)), *(f"lpt{n}" for n in range(10))})


def reserved(given_id: str) -> str | None:
    """Why a game or page may not have ``given_id`` (the files it names could not be written), or None."""
    if given_id.lower() in SITE_NAMES:
        return _("'%(id)s' is the name of one of the site's own pages or folders (%(names)s)", id=given_id,
                 names=", ".join(f"'{name}'" for name in sorted(SITE_NAMES)))
    if given_id.split(".")[0].lower() in WINDOWS_NAMES:
        return _("'%(id)s' is a name Windows keeps for a device: a checkout there cannot hold its files", id=given_id)
    return None

REVISIONS_FILE = "revisions.yaml"
ACCEPTED_FILE = "accepted.yaml"  # the warnings the editors accepted, with their reasons (checks.accept)
DICTIONARY_FILE = "dictionary.txt"  # the house words the spelling check knows (checks/editorial.py)
CONFUSABLES_FILE = "confusables.txt"  # real words typed for one another, one group a line (checks/evidence.py)
# The lists the checks read besides the book, by their paths in the project: a pull request is judged by its base's
# (commands/check_pr/lists.py), never by the ones it brings.
DICTIONARY = f"{DATA_DIR}/{DICTIONARY_FILE}"
CONFUSABLES = f"{DATA_DIR}/{CONFUSABLES_FILE}"
ACCEPTED = f"{DATA_DIR}/{ACCEPTED_FILE}"
__all__ = ["edition_key"]  # the edition order lives in model.py; re-exported for the stages that import it here


@dataclass
class GameSource:
    """A game as loaded: its model, the YAML it came from, and its prose."""

    game: Game
    doc: YamlDoc
    prose: TextDoc | None
    variant_prose: dict[str, TextDoc] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.game.id

    def where(self, loc: tuple[str | int, ...]) -> Location:
        """File and line of a data path in this game's YAML."""
        return self.doc.where(loc)


@dataclass
class Library:
    """The whole book, cut to one edition."""

    root: Path
    edition: Edition
    book: Book
    book_doc: YamlDoc
    games: dict[str, GameSource]
    pages: dict[str, TextDoc]
    errata: list[Erratum]
    errata_doc: YamlDoc
    accepted: list[Acceptance] = field(default_factory=list)  # all editions': checks.accept keeps this one's
    accepted_doc: YamlDoc | None = None
    revisions: list[Revision] = field(default_factory=list)  # all editions': the family's decisions
    revisions_doc: YamlDoc | None = None
    every_game: dict[str, GameSource] = field(default_factory=dict)  # every game file, in this edition or not
    # Where the lists the checks read (the house dictionary, the confusables) come from, if not ``root``: a pull
    # request is judged by its base's lists (commands/check_pr/lists.py), never by the ones it brings.
    lists_from: Path | None = None
    # The sources as a build validated them (name -> digest), which this load was held to (``load_library``), and so
    # is every other edition it loads; None outside a build's render.
    validated: dict[str, str] | None = None

    @property
    def lists_root(self) -> Path:
        """The project whose lists (dictionary, confusables) the checks read: ``lists_from``, else ``root``."""
        return self.lists_from or self.root

    @property
    def is_current(self) -> bool:
        return self.edition.id == self.book.current

    def in_edition(self, introduced: str | None, retired: str | None = None) -> bool:
        """True if something introduced in ``introduced`` (and retired from ``retired``, if ever) is in this edition."""
        here = edition_key(self.edition.id)
        return (introduced is None or edition_key(introduced) <= here) and (retired is None or here < edition_key(retired))

    def includes(self, item: Any) -> bool:
        """True if a variant or alternate rule (anything with ``introduced``, maybe ``retired``) is in this edition."""
        return self.in_edition(getattr(item, "introduced", None), getattr(item, "retired", None))

    def previous(self) -> Edition | None:
        """The edition before this one, if any."""
        earlier = [e for e in self.book.editions if edition_key(e.id) < edition_key(self.edition.id)]
        return max(earlier, key=lambda e: edition_key(e.id)) if earlier else None

    def edition_library(self, edition_id: str) -> Library:
        """Another edition of the same files (its later changes undone), loaded once however many checks ask."""
        if edition_id == self.edition.id:
            return self
        kept = self.__dict__.setdefault("_editions", {})
        if edition_id not in kept:
            kept[edition_id] = replace(load_library(self.root, edition_id, allow_missing=True, validated=self.validated),
                                         lists_from=self.lists_from)
        return kept[edition_id]

    def scope(self) -> dict[str, Any]:
        """Book-wide values prose may refer to: {book.title}, {edition.year}, {edition.label}..."""
        return {"book": {"title": self.book.title, "author": self.book.author},
                "edition": self.edition.model_dump()}

    def ordered_games(self) -> list[GameSource]:
        """Games in book order (section by section)."""
        return [self.games[g] for s in self.book.sections for g in s.games if g in self.games]

    def printed_sources(self) -> dict[str, Any]:
        """Everything of the sources this edition's outputs may read, as plain data: the book's data (its sections
        listing the games of the games this edition has had), every game it has had (data and prose, as this
        edition prints them: later changes undone), its pages, and the corrections and decisions up to it.

        Of the editions it has this one and those before it (its cover, "What changed" from the one before, the
        first edition's samples), not which is current: the site's version selector and an earlier edition's banner
        read the list of editions when the page is read (mike's versions.json, ``assets/editions.js``), so opening an
        edition (``rulebook edition new``: a new edition listed, made current, and added to the printed index's
        editions) leaves every earlier one as it was, and ``publish.build_digest`` keeps them as deployed. The seal
        of a published edition's record (``record``, written when the next is opened) is in it only if a text
        prints it (``{edition.record}``)."""
        had = {gid: gs for gid, gs in self.every_game.items() if self.in_edition(gs.game.introduced)}
        book = {key: value for key, value in self.book_doc.data.items() if key != "current"}
        book["sections"] = [{**section, "games": [g for g in section.get("games") or [] if g in had]}
                            if isinstance(section, dict) else section for section in book.get("sections") or []]
        games = {}
        for gid, gs in sorted(had.items()):
            mine = self.games.get(gid, gs)  # a game retired by now: its data as the edition it left had it
            games[gid] = {"data": mine.doc.data, "prose": mine.prose.text if mine.prose else None,
                          "variants": {v: t.text for v, t in sorted(mine.variant_prose.items())}}
        pages = {pid: t.text for pid, t in sorted(self.pages.items())}
        sealed = "edition.record" in json.dumps([games, pages, book], ensure_ascii=False, default=str)
        upto = {e.id for e in self.book.editions if self.in_edition(e.id)}
        book["editions"] = [{key: value for key, value in e.items() if key != "record" or sealed}
                            for e in book.get("editions") or [] if isinstance(e, dict) and e.get("id") in upto]
        if isinstance(book.get("printed_index"), dict):  # this edition prints it or not; the first to is the same
            index = book["printed_index"]
            book["printed_index"] = {**index, "editions": [e for e in index.get("editions") or [] if e in upto]}
        return {"edition": self.edition.id, "book": book, "games": games, "pages": pages,
                "errata": [e.model_dump(mode="json") for e in self.errata if self.in_edition(e.edition)],
                "revisions": [r.model_dump(mode="json") for r in self.revisions if self.in_edition(r.edition)]}


def validation_errors(exc: ValidationError, doc: YamlDoc, model: type[BaseModel] | None = None) -> list[SourceError]:
    """Turn pydantic's errors into file:line:col errors, one per place, each saying what to write instead."""
    seen: dict[tuple, list[str]] = {}
    for err in exc.errors(include_url=False):
        loc: tuple = ()
        for part in err["loc"]:  # skip union-branch names pydantic puts in the path
            if loc + (part,) in doc.marks:
                loc = loc + (part,)
        if err["type"] == "extra_forbidden":
            key = str(err["loc"][-1])
            message = hints.unknown_key(model, err["loc"][:-1], key) if model else _("unknown key '%(key)s'", key=key)
        elif err["type"] == "missing":
            message = _("missing key '%(key)s'; write '%(key)s: ...' here instead", key=err["loc"][-1])
        else:
            field_name = ".".join(str(p) for p in loc) or "file"
            message = f"{field_name}: {hints.problem(err)}"
            if "input" in err and not isinstance(err["input"], (dict, list)):
                message += " (" + _("found %(value)s", value=echo(err["input"])) + ")"
            message += f"; {hints.value_hint(err, str(loc[-1]) if loc else 'it')}"
        seen.setdefault(loc, [])
        if message not in seen[loc]:
            seen[loc].append(message)
    out = []
    for loc, messages in seen.items():
        # A union field fails once per branch; the first reason is the clearest ('a number or a phrase').
        out.append(SourceError(doc.where(loc), messages[0]))
    return out


def _validate(model: type[BaseModel], doc: YamlDoc, errors: list[SourceError]) -> Any:
    if not isinstance(doc.data, dict):
        errors.append(SourceError(doc.where(()), _("expected a mapping of keys at the top")))
        return None
    try:
        return model.model_validate(doc.data)
    except ValidationError as exc:
        errors.extend(validation_errors(exc, doc, model))
        return None


def _get(data: Any, path: list[str]) -> tuple[Any, Any]:
    """(container, key) for a dotted path, creating nothing."""
    node = data
    for part in path[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    last = path[-1]
    return node, int(last) if isinstance(node, list) else last


@dataclass(frozen=True)
class Change:
    """A recorded change to the book, an erratum (a mistake corrected) or a revision (the family's decision):
    what the edition before printed (``old``) and what ``edition`` prints (``new``), at a data path or in a text."""

    id: str
    kind: str  # "erratum" or "revision"
    edition: str
    file: str
    path: str | None
    old: Any
    new: Any
    count: int
    at: Location  # the record's entry (its path: or file: line)


def changes(errata: list[Erratum], errata_doc: YamlDoc, revisions: list[Revision],
            revisions_doc: YamlDoc | None) -> list[Change]:
    """Every recorded change to a file, in the order they were made: by edition, errata before revisions."""
    out = []
    for i, e in enumerate(errata):
        at = errata_doc.where(("errata", i, "path" if e.path is not None else "file"))
        out.append(Change(e.id, "erratum", e.edition, e.file, e.path, e.published, e.corrected, e.count, at))
    for i, r in enumerate(revisions):
        if r.file is not None and revisions_doc is not None:
            at = revisions_doc.where(("revisions", i, "path" if r.path is not None else "file"))
            out.append(Change(r.id, "revision", r.edition, r.file, r.path, r.before, r.after, r.count, at))
    return sorted(out, key=lambda c: (edition_key(c.edition), c.kind != "erratum"))


def _change_value(change: Change, docs: dict[str, YamlDoc]) -> tuple[YamlDoc, Any, Any, list[str]]:
    """(document, container, key, path) of a data change's value; SourceError at its entry if there is none."""
    doc = docs.get(change.file)
    if doc is None:
        raise SourceError(change.at, f"{change.kind} '{change.id}': no data file {change.file}: "
                                     f"write the file in {DATA_DIR}/ it changes instead (a game's id, its files' "
                                     "name, is permanent once printed: a game given a new id takes its old one back)")
    path = change.path.split(".") if change.path else []
    try:
        container, key = _get(doc.data, path)
        container[key]
    except (KeyError, IndexError, ValueError, TypeError):
        raise SourceError(change.at, f"{change.kind} '{change.id}': {change.file} has no value at '{change.path}': "
                                     f"write the dotted path of the changed value in {change.file} instead") from None
    return doc, container, key, path


def undo(change: Change, docs: dict[str, YamlDoc], texts: dict[str, TextDoc]) -> None:
    """Put back what the edition before printed; raise SourceError if the files no longer match the change."""
    stale = f"{change.kind} '{change.id}' no longer matches {change.file}"
    if change.path is not None:
        doc, container, key, path = _change_value(change, docs)
        current = container[key]
        if current != change.new:
            where = doc.where(tuple(int(p) if p.isdigit() else p for p in path))
            raise SourceError(where, f"{stale}: {change.path} is {current!r}, the {change.kind} says {change.new!r}: "
                                     f"correct the {change.kind} or the file")
        container[key] = change.old
        return
    text = texts.get(change.file)
    if text is None:
        raise SourceError(change.at, f"{change.kind} '{change.id}': no text file {change.file}: "
                                     f"name the {CONTENT_DIR}/ file it changes instead (a game's id, its files' "
                                     "name, is permanent once printed: a game given a new id takes its old one back)")
    found = text.text.count(str(change.new))
    if found != change.count:
        raise SourceError(change.at, f"{stale}: '{change.new}' occurs {found} times, the {change.kind} says "
                                     f"{change.count}: correct its count: or its words")
    text.text = text.text.replace(str(change.new), str(change.old))


def _no_file(root: Path, gid: str) -> str:
    """What to do about a game book.yaml lists with no file: a game a published edition printed is retired, never
    deleted (its published record, rules_data/frozen/<edition>/<game>.yaml, says it was printed)."""
    printed = sorted(p.parent.name for p in (root / DATA_DIR / "frozen").glob(f"*/{gid}.yaml"))
    if not printed:
        return _("no game file for '%(id)s': write %(file)s (rulebook new-game), or take this line out", id=gid,
                 file=f"{DATA_DIR}/{gid}.yaml")
    return (f"no game file for '{gid}', which {', '.join(printed)} printed: a published game is never deleted: put "
            f"back {DATA_DIR}/{gid}.yaml and {CONTENT_DIR}/{gid}.md, and retire it: retired: in its file, and a "
            f"decision in {DATA_DIR}/{REVISIONS_FILE} (kind: game_retired, game: {gid}, why: ...)")


# What a build says of a source that changed while it ran (a render's load, held to what it validated, or the last
# look).
CHANGED = N_("changed while the book was being built, after it was validated: nothing was switched in; build again "
           "(the next `make` does)")


def load_library(root: Path, edition_id: str | None = None, allow_missing: bool = False,
                 validated: dict[str, str] | None = None) -> Library:
    """Load and validate every source file; raise SourceErrors listing every bad file at once. Held to ``validated``
    (a build's render: the sources as the build validated them, name -> digest), a source that is not those bytes is
    one line naming it."""
    if validated is None:
        return _load_library(root, edition_id, allow_missing)
    failed: SourceErrors | None = None
    with recording() as read:
        try:
            lib = _load_library(root, edition_id, allow_missing)
        except SourceErrors as exc:  # a file gone or broken since: the change is the news, not what it broke
            failed = exc
    changed = changed_reads(read, validated, root)
    if changed:
        raise SourceErrors([SourceError(Location(name), _(CHANGED)) for name in changed[:1]])
    if failed is not None:
        raise failed
    lib.validated = validated
    return lib


def changed_reads(read: dict[str, str], validated: dict[str, str], root: Path) -> list[str]:
    """The sources in ``read`` (name -> digest) that differ from ``validated``, and those of ``validated`` that are no
    longer a file in ``root``: a load without them reads a different book (an optional file, such as the revisions,
    gone is no error to the loader)."""
    changed = {name for name, digest in read.items() if validated.get(name) != digest}
    changed |= {name for name in validated if name not in read and not (root / name).is_file()}
    return sorted(changed)


def changed_since(root: Path, snapshot: dict[str, str]) -> list[str]:
    """The sources of ``root`` that are not now as ``snapshot`` (name -> digest) has them: changed, gone, or new
    beside them (a file the loader would read)."""
    changed = []
    with recording() as now:
        for name in sorted(snapshot):
            try:
                read_source(root / name, name)
            except SourceError:
                changed.append(name)
        for folder, suffix in ((DATA_DIR, ".yaml"), (CONTENT_DIR, ".md")):
            try:
                listed = list_folder(root / folder, folder, suffix, root)
            except SourceError:
                listed = []
            changed += [f"{folder}/{p.name}" for p in listed if f"{folder}/{p.name}" not in snapshot]
    changed += [name for name in snapshot if name in now and now[name] != snapshot[name]]
    return sorted(set(changed))


def stated_words(data: Any) -> Words:
    """The words book.yaml's data states (its ``language:`` and ``messages:``), before the model has checked them:
    the language the rest of the book's findings are said in; English for a language or messages not well formed
    (the model says what is wrong with them)."""
    import re

    language = data.get("language") if isinstance(data, dict) else None
    if not isinstance(language, str) or not re.fullmatch(Book.model_fields["language"].metadata[0].pattern, language):
        return Words()
    own = data.get("messages")
    if not isinstance(own, dict) or not all(isinstance(k, str) and (isinstance(v, str) or isinstance(v, list)
                                                                          and all(isinstance(f, str) for f in v))
                                                     for k, v in own.items()):
        own = {}
    return Words(language, own)


def _load_library(root: Path, edition_id: str | None = None, allow_missing: bool = False) -> Library:
    """Load and validate every source file; raise SourceErrors listing every bad file at once."""
    errors: list[SourceError] = []
    data_dir, content_dir = root / DATA_DIR, root / CONTENT_DIR

    docs: dict[str, YamlDoc] = {}
    unreadable: set[str] = set()  # reported already: not also 'no game file'
    try:
        listed_data = list_folder(data_dir, DATA_DIR, ".yaml", root)
        listed_content = list_folder(content_dir, CONTENT_DIR, ".md", root)
    except SourceError as exc:
        raise SourceErrors([exc]) from None
    # book.yaml first: its language is what the game files' errors are said in (words.py), English until it is read
    use(Words())
    for path in sorted(listed_data, key=lambda p: p.name != BOOK_FILE):
        name = f"{DATA_DIR}/{path.name}"  # as findings name it, joined as text (no Path.relative_to per file)
        try:
            docs[name] = read_yaml(path, name, root)
            if name == f"{DATA_DIR}/{BOOK_FILE}":
                use(stated_words(docs[name].data))
        except SourceError as exc:
            errors.append(exc)
            unreadable.add(name)
    texts: dict[str, TextDoc] = {}
    for path in listed_content:
        name = f"{CONTENT_DIR}/{path.name}"
        try:
            texts[name] = read_text(path, name, root)
        except SourceError as exc:
            errors.append(exc)
            unreadable.add(name)

    book_doc = docs.pop(f"{DATA_DIR}/{BOOK_FILE}", None)
    errata_doc = docs.pop(f"{DATA_DIR}/{ERRATA_FILE}", None) or YamlDoc(f"{DATA_DIR}/{ERRATA_FILE}", {"errata": []})
    accepted_doc = docs.pop(ACCEPTED, None) or YamlDoc(ACCEPTED, {"accepted": []})
    revisions_doc = docs.pop(f"{DATA_DIR}/{REVISIONS_FILE}", None) or YamlDoc(f"{DATA_DIR}/{REVISIONS_FILE}", {"revisions": []})
    if book_doc is None:
        if not any(e.where.path.endswith(BOOK_FILE) for e in errors):
            errors.append(SourceError(Location(f"{DATA_DIR}/{BOOK_FILE}"), "missing: the book's own data"))
        raise SourceErrors(errors)
    book = _validate(Book, book_doc, errors)
    errata_model = _validate(Errata, errata_doc, errors)
    accepted = _validate(Accepted, accepted_doc, errors)
    revisions_model = _validate(Revisions, revisions_doc, errors)
    if book is None or errata_model is None or accepted is None or revisions_model is None:
        raise SourceErrors(errors)

    edition_id = edition_id or book.current
    editions = {e.id: e for e in book.editions}
    if edition_id not in editions:
        raise SourceErrors([SourceError(book_doc.where(("editions",)), f"no edition '{edition_id}' (have {', '.join(editions)})")])
    edition = editions[edition_id]
    # Rebuild an older edition by undoing, newest first, every change (correction or decision) made after it.
    all_docs = {**docs, book_doc.path: book_doc}
    for change in reversed(changes(errata_model.errata, errata_doc, revisions_model.revisions, revisions_doc)):
        try:
            if edition_key(change.edition) > edition_key(edition_id):
                undo(change, all_docs, texts)
            elif change.path is not None:  # not undone here, but a wrong path is wrong in every edition
                _change_value(change, all_docs)
        except SourceError as exc:
            errors.append(exc)
    for index, erratum in enumerate(errata_model.errata):
        cited = erratum.evidence.page
        if cited is not None and f"{CONTENT_DIR}/{cited}.md" not in texts:
            errors.append(SourceError(errata_doc.where(("errata", index, "evidence", "page")),
                                      f"erratum '{erratum.id}' cites page '{cited}', which the book does not have: "
                                      "name a game or page (its content/ file without .md)"))
    book = _validate(Book, book_doc, errors) or book
    use(Words(book.language, book.messages))  # what the tool writes is in the book's language (words.py)

    games: dict[str, GameSource] = {}
    every_game: dict[str, GameSource] = {}
    for path, doc in docs.items():
        game = _validate(Game, doc, errors)
        if game is None:
            continue
        expected = f"{DATA_DIR}/{game.id}.yaml"
        if path != expected:
            errors.append(SourceError(doc.where(("id",)), _("id '%(id)s' does not match the file name (expected "
                                                            "%(expected)s)", id=game.id, expected=expected)))
            continue
        every_game[game.id] = GameSource(game, doc, None)
        if not _in(game, edition_id):
            continue
        prose = texts.get(f"{CONTENT_DIR}/{game.id}.md")
        if prose is None and f"{CONTENT_DIR}/{game.id}.md" not in unreadable:
            errors.append(SourceError(doc.where(("id",)), _("no prose file %(file)s", file=f"{CONTENT_DIR}/{game.id}.md")))
        variant_prose = {}
        for v in game.variants:
            vp = texts.get(f"{CONTENT_DIR}/{game.id}.{v.id}.md")
            if vp is not None:
                variant_prose[v.id] = vp
        games[game.id] = GameSource(game, doc, prose, variant_prose)

    listed = {g for s in book.sections for g in s.games}
    seen: dict[str, str] = {}
    for i, section in enumerate(book.sections):
        for j, gid in enumerate(section.games):
            if gid in seen:  # a game printed twice: its pages and sheets would be made twice, with one name
                errors.append(SourceError(book_doc.where(("sections", i, "games", j)),
                                          _("'%(id)s' is listed twice (also in section '%(section)s'): remove this line "
                                            "instead: a game is listed once, in its section", id=gid,
                                            section=seen[gid])))
            seen.setdefault(gid, section.id)
            file = f"{DATA_DIR}/{gid}.yaml"
            if gid not in games and file not in docs and file not in unreadable and not allow_missing:
                errors.append(SourceError(book_doc.where(("sections", i, "games", j)), _no_file(root, gid)))
    titles: dict[str, str] = {}
    for gid, gs in sorted(games.items()):
        other = titles.setdefault(reader_key(gs.game.heading()), gid)  # as a reader sees it: 'Trash ' is 'Trash'
        if other != gid:
            theirs = games[other].game.heading()
            letters = "; ".join(filter(None, (foreign_letters(gs.game.heading()), foreign_letters(theirs))))
            alike = "" if theirs == gs.game.heading() else (
                f" as a reader sees it ({echo(theirs)} there: they differ only in spaces, case or letters that look "
                "alike" + (f": {letters}" if letters else "") + ")")
            errors.append(SourceError(gs.where(("title",)), f"{echo(gs.game.heading())} is also the title of {other}"
                                      f"{alike}: two games cannot share a name in the index: write a title that tells "
                                      "them apart instead"))
        seen_variants: dict[str, str] = {}  # a game's variants are headings of one page: told apart as read
        for i, variant in enumerate(gs.game.variants):
            first = seen_variants.setdefault(reader_key(variant.title), variant.id)
            if first != variant.id:
                letters = foreign_letters(variant.title)
                errors.append(SourceError(gs.where(("variants", i, "title")),
                                          f"{echo(variant.title)} reads as the title of variant {first}"
                                          + (f" ({letters})" if letters else "") + ": two variants "
                                          "of a game cannot share a heading: write a title that tells them apart"))
    for gid, gs in games.items():
        if gid not in listed:
            errors.append(SourceError(gs.where(("id",)), _("game '%(id)s' is not listed in any section of %(file)s",
                                                           id=gid, file=f"{DATA_DIR}/{BOOK_FILE}")))
    pages = {}
    for i, page in enumerate(book.pages):
        text = texts.get(f"{CONTENT_DIR}/{page.id}.md")
        if text is None and f"{CONTENT_DIR}/{page.id}.md" in unreadable:
            continue  # reported already
        if text is None and not allow_missing:
            errors.append(SourceError(book_doc.where(("pages", i)), _("no prose file %(file)s",
                                                                      file=f"{CONTENT_DIR}/{page.id}.md")))
        elif text is None:
            continue
        else:
            pages[page.id] = text
    if errors:
        raise SourceErrors(errors)
    return Library(root, edition, book, book_doc, games, pages, errata_model.errata, errata_doc,
                   accepted.accepted, accepted_doc, revisions_model.revisions, revisions_doc, every_game)


def _in(game: Game, edition_id: str) -> bool:
    """Whether a game is printed in an edition: introduced by then, and not yet retired."""
    here = edition_key(edition_id)
    return edition_key(game.introduced) <= here and (game.retired is None or here < edition_key(game.retired))

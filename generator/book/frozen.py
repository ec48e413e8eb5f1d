"""What an earlier edition prints, kept as it was published: its fingerprint, its seal, and the comparison.

An edition that is not the current one is frozen. ``rulebook freeze 2026.1`` writes, once, what that
edition states, one file per game or page under ``rules_data/frozen/2026.1/``: the prose line by line
as the book prints it (references filled in), and every value the data states, by its dotted path.
``rulebook validate`` rebuilds the edition from today's files (errata undone) and compares: a changed
or removed line or value, or a value added to a game of that edition, is ``edition.frozen``. Generated
sentences and layout are not in the fingerprint, and a worked example's title and labels (``model.program_words``),
though recorded, are not compared: they may improve; the family's words and values may
not change without an erratum. Keys that describe the data rather than state a rule (``FREE``) are
left out, so annotating a source (a qualifier, ``implied``) needs no new fingerprint.

The record is sealed when it is written: ``SHA256SUMS`` beside its files lists each file's digest (as
``sha256sum`` writes it, so ``sha256sum -c`` checks it too), and ``book.yaml`` keeps that list's own digest
under the edition (``record: sha256:…``). ``rulebook validate`` recomputes both (``frozen.changed``), with or
without the repository's history: an edited, added or removed file of a published record is an error at that
file, and today's files are never compared with a record that is not as it was written.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import Location, SourceError
from . import editor
from .files import MAX_ASSET_BYTES, MAX_FILE_BYTES, list_folder, read_file, read_source, read_source_text, write_source
from .library import BOOK_FILE, DATA_DIR, GameSource, Library
from .loader import YamlDoc, leaves, read_yaml
from .model import program_words
from .prose import expand, lookup

FROZEN_DIR = f"{DATA_DIR}/frozen"
# Keys that annotate how the source is read, not what the book says: score sheets and what they keep
# are designed from the rules (issue 26; 'doubles' names a sheet's rows, 'against' and 'held_against'
# say a score can be negative), qualifiers, 'implied', 'worked_out' and 'says_each' mark what a source states
# and how it words it, 'sources'
# name the files.
FREE = {"implied", "players_implied", "from_game", "worked_out", "says_each", "qualifiers", "typically", "target_unit", "score_sheet", "keeps", "doubles", "against",
        "held_against", "sources", "status",
        # How the source deals (a card sets each hand: Horseshit Rummy) reads the prose's sentence into the box's row;
        # the sentence is the edition's, in its prose.
        "set_by_first_card",
        # Which editions print the typed index is the book's bookkeeping, not what an edition prints: opening
        # the next edition adds it there (`rulebook edition new`) and no published edition changes.
        "editions",
        # When a game or variant is retired is a later edition's decision (revisions.yaml), not what the
        # earlier edition printed.
        "retired"}
# Values an earlier fingerprint records by their absence: the default a key had when it was written. 'jokers: false'
# was the default until the data had to say where a source states no jokers (an unstated default printed 'no
# jokers'): a 2026.1 game that states it now records what that edition printed, not a new value.
FORMER_DEFAULTS = {"jokers": False}
BOOK_KEYS = ("title", "author", "index_title", "printed_index")
HEADER = ("# The {edition} edition as published: {what}, as `rulebook freeze {edition}` wrote it.\n"
          "# Do not edit: a change to the book is an erratum (rules_data/errata.yaml); see CONTRIBUTING.md.\n")


def folder(root: Path, edition: str) -> Path:
    """Where an edition's fingerprint is kept."""
    return root / FROZEN_DIR / edition


def _leaves(data: Any) -> Iterator[tuple[str, Any]]:
    """Every value the data states, by dotted path (annotations, and a value that is a key's former default, left out)."""
    return ((".".join(map(str, path)), value) for path, value in leaves(data, FREE)
            if not (path and path[-1] in FORMER_DEFAULTS and value is FORMER_DEFAULTS[path[-1]]))


def _lines(text: str, scopes: list[dict]) -> list[str]:
    return [expand(line, *scopes) for line in text.splitlines()]


def _game(lib: Library, gs: GameSource) -> dict[str, Any]:
    """A game as the edition states it: its prose files (as printed) and its data values."""
    data = dict(gs.doc.data)
    variants = [v for v, model in zip(data.get("variants") or [], gs.game.variants, strict=True)
                if lib.includes(model)]
    data["variants"] = variants  # a variant added later is not in this edition
    out: dict[str, Any] = {"data": dict(_leaves(data))}
    scopes = [gs.doc.data, lib.scope()]
    if gs.prose is not None:
        out[gs.prose.path] = _lines(gs.prose.text, scopes)
    for i, variant in enumerate(gs.game.variants):
        prose = gs.variant_prose.get(variant.id)
        if prose is not None and lib.includes(variant):
            out[prose.path] = _lines(prose.text, [lookup(gs.doc.data, f"variants.{i}"), *scopes])
    return out


def fingerprint(lib: Library) -> dict[str, dict[str, Any]]:
    """{file name: content} of an edition's fingerprint: the book, each page, each game."""
    book = {key: lib.book_doc.data[key] for key in BOOK_KEYS if key in lib.book_doc.data}
    out = {"book": {"data": dict(_leaves(book)), "games": [gs.id for gs in lib.ordered_games()]}}
    for page_id, text in lib.pages.items():
        out[f"page-{page_id}"] = {text.path: _lines(text.text, [lib.scope()])}
    for gs in lib.ordered_games():
        out[gs.id] = _game(lib, gs)
    return out


def write(lib: Library) -> list[Path]:
    """Write the fingerprint of ``lib``'s edition (replacing the old one) and seal it (its digests, and the digest
    of those in book.yaml); return the files written."""
    if lib.is_current:
        raise SourceError(Location(f"{DATA_DIR}/book.yaml"),
                          f"{lib.edition.id} is the current edition: only an edition already published is frozen")
    out = folder(lib.root, lib.edition.id)
    partial = out.with_name(f".{out.name}.partial")  # written whole, then put in place: never half a record
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    try:
        for name, content in fingerprint(lib).items():
            what = name.replace("page-", "the page ") if name != "book" else "the book's title and printed index"
            text = HEADER.format(edition=lib.edition.id, what=what) + editor.record(content)
            (partial / f"{name}.yaml").write_text(text, encoding="utf-8")
        (partial / MANIFEST).write_text(_manifest(partial), encoding="utf-8")
    except BaseException:  # a full disk: no half a record left to block the next run
        shutil.rmtree(partial, ignore_errors=True)
        raise
    book = lib.root / DATA_DIR / BOOK_FILE
    edited = editor.BookFile(read_source_text(book, f"{DATA_DIR}/{BOOK_FILE}"))
    edited.seal(lib.edition.id, record_digest(partial))
    sealed = edited.text()
    shutil.rmtree(out, ignore_errors=True)
    partial.rename(out)
    write_source(book, sealed)
    return sorted(out.glob("*.yaml"))


MANIFEST = "SHA256SUMS"  # each file of a record and its digest, as `sha256sum` writes them


def _sha256(path: Path) -> str:
    """A file's digest, its line ends as written on any system (a checkout that writes CRLF changes nothing)."""
    root = path.parents[len(Path(FROZEN_DIR).parts) + 1]  # rules_data/frozen/<id>/<file>: read through the door
    # A record's list of digests is a line a file: a book of 5,000 games lists 400 KB of them, past a source's limit.
    limit = MAX_ASSET_BYTES if path.name == MANIFEST else MAX_FILE_BYTES
    raw = read_source(path, path.relative_to(root).as_posix(), root, limit)
    return hashlib.sha256(raw.replace(b"\r\n", b"\n")).hexdigest()


def _manifest(base: Path) -> str:
    return "".join(f"{_sha256(p)}  {p.name}\n" for p in sorted(base.glob("*.yaml")))


def record_digest(base: Path) -> str:
    """The digest book.yaml keeps of a record: that of its list of digests."""
    return f"sha256:{_sha256(base / MANIFEST)}"


@dataclass
class Seal:
    """What is not as sealed in a published edition's record: (file, problem) each, and the files of the record
    not to be believed (None: none of it)."""

    problems: list[tuple[str, str]]
    untrusted: set[str] | None


def check_seal(root: Path, edition: str, recorded: str) -> Seal:
    """Compare a published edition's record with the digests sealed when it was written."""
    base = folder(root, edition)
    where = f"{FROZEN_DIR}/{edition}"
    def how(path: str) -> str:
        return (f"put it back as `rulebook edition new` wrote it when {edition} was published (git checkout <that "
                f"commit> -- {path}): what a published edition printed never changes; a correction goes in "
                f"{DATA_DIR}/errata.yaml, a decision in {DATA_DIR}/revisions.yaml")

    if not base.is_dir():
        return Seal([(where, f"{where}/, the record of {edition} as published, is missing: {how(where)}")], None)
    manifest = f"{where}/{MANIFEST}"
    if not (base / MANIFEST).is_file():
        return Seal([(manifest, f"{manifest}, the digests of {edition}'s record, is missing: {how(manifest)}")], None)
    if record_digest(base) != recorded:  # the list or its seal is not as written: no file can be judged by it
        return Seal([(manifest, f"{manifest} does not match the seal {DATA_DIR}/{BOOK_FILE} keeps under {edition} "
                                f"(record:): one of the two was changed after {edition} was published: "
                                + how(f"{manifest} {DATA_DIR}/{BOOK_FILE}"))], None)
    problems: list[tuple[str, str]] = []
    listed: dict[str, str] = {}
    for line in read_file(base / MANIFEST).decode("utf-8", errors="replace").splitlines():
        digest, _, name = line.partition("  ")
        if re.fullmatch(r"[0-9a-f]{64}", digest) and name:  # a line not as written: the list's own digest says it
            listed[name] = digest
    present = {p.name for p in base.iterdir() if p.name != MANIFEST}
    untrusted: set[str] = set()
    for name in sorted(present | set(listed)):
        path = f"{where}/{name}"
        if name not in present:
            problems.append((path, f"{path} was removed from {edition}'s record as published: {how(path)}"))
        elif name not in listed:
            problems.append((path, f"{path} was added to {edition}'s record after it was published: remove it"))
        else:
            try:  # through the one door: a pipe, a link out or in a circle, a folder is said as what it is
                same = _sha256(base / name) == listed[name]
            except SourceError as exc:
                problems.append((path, f"{path} {exc.problem}"))
                untrusted.add(Path(name).stem)
                continue
            if same:
                continue
            problems.append((path, f"{path} was changed after {edition} was published (its digest is not the one "
                                   f"`rulebook edition new` recorded): {how(path)}"))
        untrusted.add(Path(name).stem)
    return Seal(problems, untrusted)


@dataclass
class Difference:
    """One way today's files print an earlier edition otherwise than it was published."""

    file: str
    where: tuple  # a data path, or (line number,) in a prose file
    published: Any
    now: Any
    game: str | None


def stored(root: Path, edition: str, skip: set[str] | frozenset[str] = frozenset()) -> dict[str, dict[str, Any]] | None:
    """The committed fingerprint of an edition (less the files ``skip`` names), or None if it has none."""
    base = folder(root, edition)
    if not base.is_dir():
        return None
    return {p.stem: _record(read_yaml(p, f"{FROZEN_DIR}/{edition}/{p.name}", root))
            for p in list_folder(base, f"{FROZEN_DIR}/{edition}", ".yaml", root) if p.stem not in skip}


RECORDED_PROSE = re.compile(r"content/[a-z0-9-]+(\.[a-z0-9-]+)?\.md")  # a prose file's lines, by its name


def _record(doc: YamlDoc) -> dict[str, Any]:
    """A fingerprint file's content, if it is shaped as ``write`` writes one; SourceError where it is not."""
    data = doc.data or {}
    damaged = "is not as `rulebook freeze` writes it: put the file back as it was (git checkout -- FILE) instead"
    if not isinstance(data, dict):
        raise SourceError(doc.where(()), damaged.replace("FILE", doc.path))
    for key, value in data.items():
        shaped = (isinstance(value, dict) and all(isinstance(k, str) for k in value) if key == "data"
                  else isinstance(value, list) and all(isinstance(line, str) for line in value)
                  and (key == "games" or RECORDED_PROSE.fullmatch(key) is not None))
        if not shaped:  # (freeze writes no empty value: an empty file's lines are [])
            raise SourceError(doc.where((key,)), f"'{key}' {damaged.replace('FILE', doc.path)}")
    return data


def differences(lib: Library, frozen: dict[str, dict[str, Any]],
                skip: set[str] | frozenset[str] = frozenset()) -> list[Difference]:
    """Every line and value of ``lib``'s edition that is not as its fingerprint records it (less the files
    ``skip`` names: a record not as it was sealed is no measure)."""
    now = fingerprint(lib)
    out: list[Difference] = []
    for name in sorted((set(frozen) | set(now)) - skip):
        game = None if name == "book" or name.startswith("page-") else name
        old, new = frozen.get(name, {}), now.get(name, {})
        for key in sorted(set(old) | set(new)):
            a, b = old.get(key), new.get(key)
            if a == b:
                continue
            if key in ("data", "games"):
                file = f"{DATA_DIR}/book.yaml" if name == "book" else f"{DATA_DIR}/{name}.yaml"
                if key == "games":
                    out.append(Difference(file, ("sections",), ", ".join(a or []), ", ".join(b or []), None))
                    continue
                # A worked example's title and labels are the program's words, kept in the record as written but
                # not the book's: they may improve like any generated sentence (model.program_words).
                a = {p: v for p, v in (a or {}).items() if not program_words(p)}
                b = {p: v for p, v in (b or {}).items() if not program_words(p)}
                for path in [p for p in a if a.get(p) != b.get(p, _GONE)] + [p for p in b if p not in a]:
                    out.append(Difference(file, tuple(path.split(".")), a.get(path, _GONE), b.get(path, _GONE), game))
            else:
                a, b = a or [], b or []
                blocks = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
                for op, i1, i2, j1, j2 in blocks:
                    if op != "equal":
                        out.append(Difference(key, (min(j1, len(b) - 1) + 1 if b else 1,),
                                              "\n".join(a[i1:i2]) or _GONE, "\n".join(b[j1:j2]) or _GONE, game))
    return out


class _Gone:
    def __repr__(self) -> str:
        return "nothing"


_GONE = _Gone()


def rewritten(base: Path, head: Path, published: list[str]) -> list[tuple[str, str]]:
    """(file, problem) for every file of a record published at ``base`` (a checkout of the base of a change) that
    the change at ``head`` edits, adds or removes: a rewrite with a new seal shows here, where history is."""
    out = []
    for edition in published:
        old, new = folder(base, edition), folder(head, edition)
        if not old.is_dir():
            continue
        names = {p.name for p in old.iterdir()} | ({p.name for p in new.iterdir()} if new.is_dir() else set())
        for name in sorted(names):
            a, b = old / name, new / name
            if a.is_file() and b.is_file() and read_file(a) == read_file(b):
                continue
            if name == MANIFEST and not a.exists():  # a record of before seals, sealed: validate checks the seal
                continue
            path = f"{FROZEN_DIR}/{edition}/{name}"
            what = "adds" if not a.exists() else "removes" if not b.exists() else "changes"
            out.append((path, f"this change {what} {path}, part of {edition}'s record as published: what a "
                              "published edition printed is written once, by `rulebook edition new`; leave it as it "
                              f"is, and record a correction in {DATA_DIR}/errata.yaml, a decision in "
                              f"{DATA_DIR}/revisions.yaml"))
    return out

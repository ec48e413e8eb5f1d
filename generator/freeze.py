"""What an earlier edition prints, kept as it was published: its fingerprint, and the comparison.

An edition that is not the current one is frozen. ``rulebook freeze 2026.1`` writes, once, what that
edition states, one file per game or page under ``rules_data/frozen/2026.1/``: the prose line by line
as the book prints it (references filled in), and every value the data states, by its dotted path.
``rulebook validate`` rebuilds the edition from today's files (errata undone) and compares: a changed
or removed line or value, or a value added to a game of that edition, is ``edition.frozen``. Generated
sentences and layout are not in the fingerprint: they may improve; the family's words and values may
not change without an erratum. Keys that describe the data rather than state a rule (``FREE``) are
left out, so annotating a source (a qualifier, ``implied``) needs no new fingerprint.
"""

from __future__ import annotations

import difflib
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import Location, SourceError
from .library import DATA_DIR, GameSource, Library
from .loader import YamlDoc, leaves, read_yaml
from .prose import expand, lookup

FROZEN_DIR = f"{DATA_DIR}/frozen"
# Keys that annotate how the source is read, not what the book says: score sheets and what they keep
# are designed from the rules (issue 26; 'doubles' names a sheet's rows, 'against' and 'held_against'
# say a score can be negative), qualifiers, 'implied', 'worked_out' and 'says_each' mark what a source states
# and how it words it, 'sources'
# name the files.
FREE = {"implied", "players_implied", "from_game", "worked_out", "says_each", "qualifiers", "typically", "target_unit", "score_sheet", "keeps", "doubles", "against",
        "held_against", "sources", "status",
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
    """Write the fingerprint of ``lib``'s edition (replacing the old one); return the files written."""
    if lib.is_current:
        raise SourceError(Location(f"{DATA_DIR}/book.yaml"),
                          f"{lib.edition.id} is the current edition: only an edition already published is frozen")
    out = folder(lib.root, lib.edition.id)
    partial = out.with_name(f".{out.name}.partial")  # written whole, then put in place: never half a record
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    import yaml  # only to write a record: validate reads them through the cache of parsed files (loader.read_yaml)

    for name, content in fingerprint(lib).items():
        what = name.replace("page-", "the page ") if name != "book" else "the book's title and printed index"
        text = HEADER.format(edition=lib.edition.id, what=what) + yaml.safe_dump(
            content, allow_unicode=True, sort_keys=False, width=100_000)
        (partial / f"{name}.yaml").write_text(text, encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    partial.rename(out)
    return sorted(out.glob("*.yaml"))


@dataclass
class Difference:
    """One way today's files print an earlier edition otherwise than it was published."""

    file: str
    where: tuple  # a data path, or (line number,) in a prose file
    published: Any
    now: Any
    game: str | None


def stored(root: Path, edition: str) -> dict[str, dict[str, Any]] | None:
    """The committed fingerprint of an edition, or None if it has none."""
    base = folder(root, edition)
    if not base.is_dir():
        return None
    return {p.stem: _record(read_yaml(p, f"{FROZEN_DIR}/{edition}/{p.name}")) for p in sorted(base.glob("*.yaml"))}


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


def differences(lib: Library, frozen: dict[str, dict[str, Any]]) -> list[Difference]:
    """Every line and value of ``lib``'s edition that is not as its fingerprint records it."""
    now = fingerprint(lib)
    out: list[Difference] = []
    for name in sorted(set(frozen) | set(now)):
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
                a, b = a or {}, b or {}
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

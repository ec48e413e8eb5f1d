"""Editorial checks (warnings): spelling against a house dictionary, and one card notation."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from ..errors import Location
from ..library import Library
from ..loader import YamlDoc
from . import check

Finding = tuple[Location, str, str | None]
DICTIONARY = "rules_data/dictionary.txt"
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*[A-Za-z]|[A-Za-z]")
SUIT_WORD_CARD = re.compile(r"\b(club|diamond|heart|spade)(10|[2-9]|[AKQJ])\b")
SUIT_SYMBOL = {"club": "♣", "diamond": "♦", "heart": "♥", "spade": "♠"}
APOSTROPHE_PLURAL = re.compile(r"\b(?:[2-9]|10|[AKQJ]|Ace|King|Queen|Jack|Joker)['’]s\b|\b\d+,s\b")
SKIP_KEYS = {"id", "seed", "cards", "keep", "remove", "wild", "ranks", "expr", "players", "decks", "line",
             "date", "equalize_by_removing", "introduced", "edition", "check", "path", "file", "round"}


@cache
def _english() -> tuple[frozenset[str], int]:
    """pyspellchecker's English word list and its longest word, read from a plain-text copy.

    Decoding the package's gzipped JSON takes about 0.3 s, most of `rulebook validate`; the same
    words as one line each load in under 30 ms. The copy lives in the user's cache folder, named
    after the list's size and time stamp, so a new pyspellchecker makes a new copy.
    """
    import importlib.util
    import os

    spec = importlib.util.find_spec("spellchecker")
    source = Path(spec.origin).parent / "resources" / "en.json.gz"
    stat = source.stat()
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulebook"
    copy = cache / f"english-{stat.st_size}-{stat.st_mtime_ns}.txt"
    try:
        words = frozenset(copy.read_text(encoding="utf-8").split("\n"))
    except OSError:
        from spellchecker import SpellChecker  # pyspellchecker: a maintained English word list

        words = frozenset(SpellChecker(distance=1).word_frequency.dictionary)
        try:  # written whole, then renamed: a parallel run never reads half a list
            cache.mkdir(parents=True, exist_ok=True)
            part = copy.with_name(f"{copy.name}.{os.getpid()}")
            part.write_text("\n".join(sorted(words)), encoding="utf-8")
            part.replace(copy)
        except OSError:
            pass  # no cache folder: the next run reads the package's list again
    return words, max(map(len, words))


def house_words(root: Path) -> set[str]:
    """The house dictionary: game names and terms the English list lacks, one per line."""
    path = root / DICTIONARY
    if not path.exists():
        return set()
    return {w.strip().lower() for w in path.read_text(encoding="utf-8").splitlines()
            if w.strip() and not w.startswith("#")}


def _yaml_lines(doc: YamlDoc) -> Iterator[tuple[Location, str]]:
    def walk(data, loc):
        if isinstance(data, dict):
            for k, v in data.items():
                if k not in SKIP_KEYS:
                    yield from walk(v, loc + (k,))
        elif isinstance(data, list):
            for i, v in enumerate(data):
                yield from walk(v, loc + (i,))
        elif isinstance(data, str):
            yield doc.where(loc), data

    yield from walk(doc.data, ())


def texts(lib: Library) -> Iterator[tuple[Location, str]]:
    """Every piece of reader-visible text, with where it is."""
    docs = [lib.book_doc] + [gs.doc for gs in lib.ordered_games()]
    for doc in docs:
        yield from _yaml_lines(doc)
    proses = list(lib.pages.values()) + [p for gs in lib.ordered_games() for p in [gs.prose, *gs.variant_prose.values()] if p]
    for prose in proses:
        for n, line in enumerate(prose.text.splitlines(), 1):
            line = re.sub(r"\{[a-z_.0-9-]+\}", " ", line)  # data references are not words
            line = re.sub(r"\S+@\S+|https?://\S+", " ", line)
            yield Location(prose.path, n), line


def _unknown(english: tuple[frozenset[str], int], words: list[str]) -> list[str]:
    """The words the English list lacks, as pyspellchecker's ``unknown`` decides it.

    It skips words more than 3 letters longer than its longest word; 'nan' and 'inf', the only
    letter-only words ``float()`` reads, it checks like any other.
    """
    known, longest = english
    return sorted({w for w in words if w not in known and len(w) <= longest + 3})


@check("spelling.unknown_word", "warning")
def unknown_word(lib: Library) -> Iterator[Finding]:
    """A word is in neither the English word list nor the house dictionary of game terms."""
    house = house_words(lib.root)
    english = _english()
    seen: dict[tuple[str, str], list[int]] = {}
    first: dict[tuple[str, str], Location] = {}
    for where, text in texts(lib):
        text = SUIT_WORD_CARD.sub(" ", text)  # 'club4' is a card (notation.card), not a word
        words = [w.replace("’", "'").removesuffix("'s").strip("'").lower() for w in WORD.findall(text)]
        words = [w for w in words if len(w) > 1 and w not in house]
        for word in _unknown(english, words):
            key = (where.path, word)
            seen.setdefault(key, []).append(where.line)
            first.setdefault(key, where)
    for (path, word), lines in sorted(seen.items()):
        more = f" (also lines {', '.join(map(str, sorted(set(lines))[1:6]))})" if len(set(lines)) > 1 else ""
        yield first[(path, word)], f"unknown word '{word}'{more}; if it is right, add it to {DICTIONARY}", None


@check("notation.card", "warning")
def card_notation(lib: Library) -> Iterator[Finding]:
    """A card is written in another notation than the house style (plurals without apostrophes: 2s, 10s, Aces)."""
    for where, text in texts(lib):
        for m in APOSTROPHE_PLURAL.finditer(text):
            fixed = m.group(0).replace("'s", "s").replace("’s", "s").replace(",s", "s")
            yield where, f"'{m.group(0)}': the house notation is '{fixed}'", None
        for m in SUIT_WORD_CARD.finditer(text):
            yield where, f"'{m.group(0)}': the house notation is '{m.group(2)}{SUIT_SYMBOL[m.group(1)]}'", None

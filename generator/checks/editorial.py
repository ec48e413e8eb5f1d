"""Editorial checks (warnings): spelling against a house dictionary, and one card notation."""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from ..book.files import read_source_text, store, stored_text, user_cache
from ..book.library import DICTIONARY, Library
from ..book.loader import YamlDoc, leaves
from ..book.words import _
from ..errors import Location
from . import Found, check

# A word: letters of any script (Bézique, Zwölfer are one word each, not 'B' and 'zique'), apostrophes inside it;
# the text is NFC first (``nfc``), so that an accent written as a letter and a combining mark is one letter too.
WORD = re.compile(r"[^\W\d_][^\W\d_'’]*(?:['’]+[^\W\d_]+)*")
SUIT_WORD_CARD = re.compile(r"\b(club|diamond|heart|spade)(10|[2-9]|[AKQJ])\b")
SUIT_SYMBOL = {"club": "♣", "diamond": "♦", "heart": "♥", "spade": "♠"}
APOSTROPHE_PLURAL = re.compile(r"\b(?:[2-9]|10|[AKQJ]|Ace|King|Queen|Jack|Joker)['’]s\b|\b\d+,s\b")
_REFERENCE = re.compile(r"\{[a-z_.0-9-]+\}")
_ADDRESS = re.compile(r"\S+@\S+|https?://\S+")
SKIP_KEYS = {"id", "seed", "says", "cards", "keep", "remove", "wild", "ranks", "expr", "players", "decks", "line",
             "date", "equalize_by_removing", "introduced", "edition", "check", "path", "file", "round",
             "record", "accent", "accent_shades",  # colours, "#rrggbb": not words ("#ffd700" held "ffd")
             # the data's own names, whatever the book's language (an id, a section's kind, a winner rule)
             "category", "kind", "games", "after", "winner", "keeps", "per", "layout", "partnerships", "coin",
             "numbering", "rows_from", "language", "game", "page", "place", "status", "from_game", "messages",
             "equipment_kind"}


def _resources() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("spellchecker")
    if spec is None or spec.origin is None:  # not installed: the one line a missing dependency gets (cli.py)
        raise ModuleNotFoundError("No module named 'spellchecker'", name="spellchecker")
    return Path(spec.origin).parent / "resources"


def spelling_language(language: str) -> str | None:
    """The word list pyspellchecker has for a book's language ('de-AT' -> 'de'); None when it has none."""
    base = language.replace("_", "-").split("-")[0].lower()
    return base if (_resources() / f"{base}.json.gz").is_file() else None


def spelling_languages() -> list[str]:
    """The languages pyspellchecker has a word list for."""
    return sorted(p.name.removesuffix(".json.gz") for p in _resources().glob("*.json.gz"))


def _cache(name: str, language: str = "en") -> Path:
    """A file in the user's cache folder, named after pyspellchecker's word list (its size and time
    stamp), so that a new pyspellchecker starts afresh."""
    stat = (_resources() / f"{language}.json.gz").stat()
    suffix = "" if language == "en" else f"-{language}"
    return user_cache() / f"{name}{suffix}-{stat.st_size}-{stat.st_mtime_ns}.txt"


@cache
def _english(language: str = "en") -> tuple[frozenset[str], int]:
    """pyspellchecker's word list of ``language`` (English unless named) and its longest word, read from a plain-text
    copy; a word with a letter that case-folds to others is listed folded too (``fold``: 'weißen', 'weissen').

    Decoding the package's gzipped JSON takes about 0.3 s; the same words as one line each load in
    about 30 ms. The copy's first line is the longest word's length (finding it again takes half
    as long as reading the words). The copy is sealed (``files.store``): one damaged or edited (a misspelling
    added as a word) is made again, never trusted.
    """
    copy = _cache("english-3", language)
    listed = stored_text(copy)
    try:
        longest, _line, words = listed.partition("\n")  # type: ignore[union-attr]
        return frozenset(words.split("\n")), int(longest)
    except (AttributeError, ValueError):  # none, or not what this writes
        from spellchecker import SpellChecker  # pyspellchecker: a maintained English word list

        listed_words = SpellChecker(language=language, distance=1).word_frequency.dictionary
        known = frozenset(listed_words) | frozenset(fold(w) for w in listed_words if not w.isascii())
        most = max(map(len, known))
        store(copy, f"{most}\n" + "\n".join(sorted(known)))
    return known, most


def unknown_words(words: set[str], language: str = "en") -> set[str]:
    """The words of ``words`` that the English list lacks (as pyspellchecker decides).

    Each word's verdict is remembered beside the list's copy: a save that adds no new word to the
    book does not read the 1.5 MB list at all (30 ms of the 0.3 s `rulebook validate` may take). The verdicts are
    sealed (``files.store``): a file damaged, cut short or edited (a misspelling marked known) proves nothing, and
    every verdict is worked out again from the list.
    """
    remembered = _cache("verdicts-2", language)
    body = stored_text(remembered)
    verdicts = {line[1:]: line[0] == "-" for line in (body or "").split("\n") if line[:1] in ("+", "-")}
    new = words - verdicts.keys()
    if new:
        unknown = set(_unknown(_english(language), list(new)))
        verdicts.update((w, w in unknown) for w in new)
        store(remembered, "".join(f"{'-' if bad else '+'}{w}\n" for w, bad in sorted(verdicts.items())))
    return {w for w in words if verdicts[w]}


def house_words(root: Path) -> set[str]:
    """The house dictionary: game names and terms the English list lacks, one per line (read through the door every
    source file passes, ``loader.read_source``: a pipe, a link out of the project or bytes that are not UTF-8 there
    are one line naming it)."""
    path = root / DICTIONARY
    if not os.path.lexists(path):
        return set()
    house = set()
    for line in read_source_text(path, DICTIONARY, root).splitlines():
        entry = nfc(line.strip())
        if entry and not entry.startswith("#"):
            # As the text's words are looked up: an entry of more than one word ('Tarock-Spiel', "Jass's") is
            # each of them too, and 'Straße' matches 'STRASSE' (case folded, as the text is).
            house |= {fold(entry), *(fold(w) for w in WORD.findall(entry))}
    return house


def nfc(text: str) -> str:
    """``text`` in Unicode's composed form (NFC): 'é' one character, however it was typed; ASCII as it is."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def _yaml_lines(doc: YamlDoc) -> Iterator[tuple[Location, str]]:
    # An address (book.yaml's contact, a link in a note) is not words, in YAML as in prose.
    return ((doc.where(loc), _ADDRESS.sub(" ", text) if "@" in text or "://" in text else text)
            for loc, text in leaves(doc.data, SKIP_KEYS) if isinstance(text, str))


def texts(lib: Library) -> list[tuple[Location, str]]:
    """Every piece of reader-visible text, with where it is (gathered once per library: two checks read it)."""
    cached = lib.__dict__.get("_texts")
    if cached is None:
        cached = lib.__dict__["_texts"] = list(_texts(lib))
    return cached


def _texts(lib: Library) -> Iterator[tuple[Location, str]]:
    docs = [lib.book_doc] + [gs.doc for gs in lib.ordered_games()]
    for doc in docs:
        yield from _yaml_lines(doc)
    proses = list(lib.pages.values()) + [p for gs in lib.ordered_games() for p in [gs.prose, *gs.variant_prose.values()] if p]
    for prose in proses:
        for n, line in enumerate(prose.text.splitlines(), 1):
            if "{" in line:  # (each pattern is tried only on a line that can hold it: most lines hold neither)
                line = _REFERENCE.sub(" ", line)  # data references are not words
            if "@" in line or "://" in line:
                line = _ADDRESS.sub(" ", line)
            yield Location(prose.path, n), line


def _suit_word_cards(text: str) -> bool:
    """Whether ``text`` may hold a card written with its suit's name ('club4', SUIT_WORD_CARD): it names a suit."""
    return "club" in text or "diamond" in text or "heart" in text or "spade" in text


def _unknown(english: tuple[frozenset[str], int], words: list[str]) -> list[str]:
    """The words the English list lacks, as pyspellchecker's ``unknown`` decides it.

    It skips words more than 3 letters longer than its longest word; 'nan' and 'inf', the only
    letter-only words ``float()`` reads, it checks like any other.
    """
    known, longest = english
    return sorted({w for w in words if w not in known and len(w) <= longest + 3})


def fold(written: str) -> str:
    """A word as it is looked up ("Player's" -> "player", 'Straße' -> 'strasse'): case folded, no possessive."""
    word = written.replace("’", "'").removesuffix("'s").strip("'")
    return word.lower() if word.isascii() else word.casefold()


def _lookup(written: str, house: set[str]) -> str | None:
    """The word to look up for a word as written, or None if it needs none (too short, a house word)."""
    word = fold(written)
    return word if len(word) > 1 and word not in house else None


def unknown_in(text: str, language: str = "en") -> list[str]:
    """The words of ``text`` the language's list lacks (English unless named), as ``spelling.unknown_word`` looks
    them up (sorted); none for a language pyspellchecker has no list for."""
    listed = spelling_language(language)
    looked_up = {_lookup(w, set()) for w in WORD.findall(text)} - {None}
    return sorted(unknown_words(looked_up, listed)) if listed else []


@check("spelling.unknown_word", "warning")
def unknown_word(lib: Library) -> Iterator[Found]:
    """A word is in neither the book's language's word list nor the house dictionary of game terms."""
    language = spelling_language(lib.book.language)
    if language is None:  # said once by spelling.no_word_list
        return
    house = house_words(lib.lists_root)
    lines = [(where, set(WORD.findall(nfc(SUIT_WORD_CARD.sub(" ", text) if _suit_word_cards(text) else text))))
             for where, text in texts(lib)]  # 'club4' is a card (notation.card), not a word
    # Each word as written -> the word looked up (or None: too short, a house word), decided once.
    looked_up = {w: _lookup(w, house) for w in set().union(*(written for _, written in lines))}
    unknown = unknown_words({w for w in looked_up.values() if w}, language)
    seen: dict[tuple[str, str], list[int]] = {}
    first: dict[tuple[str, str], Location] = {}
    for where, written in lines:
        for word in sorted({looked_up[w] for w in written} & unknown):
            key = (where.path, word)
            seen.setdefault(key, []).append(where.line)
            first.setdefault(key, where)
    for (path, word), lines in sorted(seen.items()):
        also = ", ".join(map(str, sorted(set(lines))[1:6]))
        yield first[(path, word)], (_("unknown word '%(word)s' (also lines %(lines)s); if it is right, add it to "
                                      "%(dictionary)s", word=word, lines=also, dictionary=DICTIONARY) if also else
                                    _("unknown word '%(word)s'; if it is right, add it to %(dictionary)s", word=word,
                                      dictionary=DICTIONARY)), None


@check("spelling.no_word_list", "warning")
def no_word_list(lib: Library) -> Iterator[Found]:
    """pyspellchecker has no word list for the book's language: its words are not spell-checked."""
    if spelling_language(lib.book.language) is None:
        yield (lib.book_doc.where(("language",)), _("no spelling word list for '%(language)s' (pyspellchecker has "
                                                    "%(spelling_languages)s): the book's words are not spell-checked",
                                                    language=lib.book.language,
                                                    spelling_languages=', '.join(spelling_languages())), None)


@check("notation.card", "warning")
def card_notation(lib: Library) -> Iterator[Found]:
    """A card is written in another notation than the house style (plurals without apostrophes: 2s, 10s, Aces)."""
    for where, text in texts(lib):
        for m in APOSTROPHE_PLURAL.finditer(text) if ("'s" in text or "’s" in text or ",s" in text) else ():
            fixed = m.group(0).replace("'s", "s").replace("’s", "s").replace(",s", "s")
            yield where, _("'%(group)s': the house notation is '%(fixed)s'", group=m.group(0), fixed=fixed), None
        for m in SUIT_WORD_CARD.finditer(text) if _suit_word_cards(text) else ():
            yield where, _("'%(group)s': the house notation is '%(group2)s%(suit_symbol)s'", group=m.group(0),
                           group2=m.group(2), suit_symbol=SUIT_SYMBOL[m.group(1)]), None

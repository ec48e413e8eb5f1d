"""The words the tool writes, in the book's language: gettext message catalogues.

A catalogue is a ``.po`` file shipped with the templates (``templates/locale/<language>.po``), read by Babel when a
book first asks for it, so that an installed tool needs no build step and a translator edits one text file. The
English catalogue holds every message the code and templates write (tests/test_words.py extracts them and fails on one
missing from any catalogue); an empty translation is the message as written. A book sets its language in book.yaml
(``language:``) and may change any single message there (``messages:``, the message as the English catalogue writes
it, then its own words), without copying a template.

The words are the book's, and a process renders one book at a time: the loaded book's catalogue is the one in use
(``use``, called as a book is loaded), so that the functions that put data into words need not carry it through
every call. A message names what it fills in (``%(count)s``), never a position: each language orders its own
sentence, and a sentence built from a name (whose decisions) is one message with the name as its placeholder.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .files import TOOL_TEMPLATES, read_source_text

LOCALE = TOOL_TEMPLATES / "locale"
SOURCE = "en"  # the language the messages are written in


def catalogue_path(language: str) -> Path:
    """Where the tool keeps a language's catalogue (it may not exist)."""
    return LOCALE / f"{language}.po"


def languages() -> list[str]:
    """The languages the tool has a catalogue for."""
    return sorted(p.stem for p in LOCALE.glob("*.po"))


def base_language(language: str) -> str:
    """'de-AT' or 'de_AT' -> 'de': the catalogue a regional language reads when it has none of its own."""
    return language.replace("_", "-").split("-")[0].lower()


def has_catalogue(language: str) -> bool:
    """Whether the tool writes this language's words (its own catalogue, or its base language's)."""
    known = languages()
    return language in known or base_language(language) in known


@lru_cache(maxsize=8)
def _catalog(name: str) -> Any:
    """A catalogue as Babel reads it (a ``babel.messages.Catalog``); None when the tool has none."""
    from babel.messages.pofile import read_po

    path = catalogue_path(name)
    if not path.is_file():
        return None
    text = read_source_text(path, f"templates/locale/{name}.po", LOCALE.parent)
    return read_po(io.StringIO(text), locale=base_language(name).replace("-", "_"))


def catalogue(language: str) -> dict[str, str]:
    """A catalogue's messages, each by its English words (the singular's, for one with a plural) to its translation
    ('' for none); empty when the tool has no catalogue for the language."""
    catalog = _catalog(language)
    if catalog is None:
        return {}
    found: dict[str, str] = {}
    for message in catalog:
        if message.id:
            key = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
            string = message.string
            found[key] = (string[0] if isinstance(string, (list, tuple)) else string) or ""
    return found


@lru_cache(maxsize=8)
def _translations(language: str) -> gettext.NullTranslations:
    if base_language(language) == SOURCE:  # the messages as written: no catalogue to read (nor Babel to read it)
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo

    for name in (language, base_language(language)):
        catalog = _catalog(name)
        if catalog is not None:
            compiled = io.BytesIO()
            write_mo(compiled, catalog)  # untranslated and fuzzy messages left out: the message as written
            compiled.seek(0)
            return gettext.GNUTranslations(compiled)
    return gettext.NullTranslations()


def _fill(text: str, values: Mapping[str, object]) -> str:
    # %-formatting by name only: a message from book.yaml reaches no attribute of what it is given (str.format would).
    if not values:
        return text
    try:
        return text % {k: v for k, v in values.items()}
    except (KeyError, ValueError, TypeError):
        return text


@dataclass(frozen=True)
class Words:
    """One language's words, with the book's own messages in place of the catalogue's."""

    language: str = SOURCE
    own: Mapping[str, str | Sequence[str]] = field(default_factory=dict)

    @property
    def known(self) -> bool:
        """Whether the tool has a catalogue for this language (else it writes English)."""
        return has_catalogue(self.language)

    def text(self, message: str) -> tuple[str, bool]:
        """The message's words in this language, unfilled, and whether they are the book's own (book.yaml's, which a
        template escapes: the tool's catalogue may write markup, a book's words may not)."""
        own = self.own.get(message)
        if isinstance(own, str):
            return own, True
        return _translations(self.language).gettext(message), False

    def plural_text(self, singular: str, plural: str, count: int | float) -> tuple[str, bool]:
        """The singular or plural message's words as this language counts ``count``, and whether they are the book's."""
        whole = count if isinstance(count, int) else (int(count) if float(count).is_integer() else 2)
        own = self.own.get(singular)
        if isinstance(own, str):
            return own, True
        translations = _translations(self.language)
        if own:  # a book's forms, in its language's order: the catalogue's rule picks one
            forms = list(own)
            index = getattr(translations, "plural", lambda k: int(k != 1))(whole)
            return forms[min(index, len(forms) - 1)], True
        return translations.ngettext(singular, plural, whole), False

    def __call__(self, message: str, **values: object) -> str:
        """The message in this language, its placeholders (``%(name)s``) filled in."""
        return _fill(self.text(message)[0], values)

    def n(self, singular: str, plural: str, n: int | float, **values: object) -> str:
        """The singular or plural message as this language counts ``n``; ``%(count)s`` is ``n`` unless given."""
        return _fill(self.plural_text(singular, plural, n)[0], {"count": n, **values})


_current = Words()


def use(words: Words) -> None:
    """Make ``words`` the words every later message is written in (the book being loaded's)."""
    global _current
    _current = words
    from .. import errors

    errors.translate = words  # the operating system's lines (errors.os_problem), said without importing a stage


def current() -> Words:
    """The words in use: the loaded book's."""
    return _current


def _(message: str, **values: object) -> str:
    """The message in the book's language (``current``), its placeholders filled in."""
    return _current(message, **values)


def N_(message: str) -> str:
    """``message`` as it is: marks a constant made at import (before a book is loaded) as a message, which the code
    writes through ``_`` where it is used."""
    return message


def n_(singular: str, plural: str, n: int | float, **values: object) -> str:
    """The singular or plural message in the book's language, as it counts ``n`` (``%(count)s`` unless given)."""
    return _current.n(singular, plural, n, **values)


def number_group(language: str | None = None) -> str:
    """The sign the book's language (the loaded book's, unless named) groups a number's thousands with, as Babel has
    it: ',' in English, '.' in German, a narrow no-break space in French; English's for a language Babel does not know.
    (Its decimal sign is never that sign: a score box reads no decimals, so an entry holding it is no number.)"""
    from babel import Locale, UnknownLocaleError
    from babel.numbers import get_group_symbol

    try:
        locale = Locale.parse((language or _current.language).replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        locale = Locale.parse("en")
    return get_group_symbol(locale=locale)


def thousand(language: str | None = None) -> str:
    """A thousand as the book's language writes it, its digits grouped: '1,000', '1.000', '1\u202f000'."""
    return f"1{number_group(language)}000"


# Letters a language writes in plain Latin letters its own way, before the rest are transliterated (anyascii, which
# writes 'ä' as 'a'): German writes 'Großer' as 'Grosser' and 'für' as 'fuer'.
LETTERS = {
    "de": {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ẞ": "SS"},
    "da": {"æ": "ae", "ø": "oe", "å": "aa", "Æ": "Ae", "Ø": "Oe", "Å": "Aa"},
    "nb": {"æ": "ae", "ø": "oe", "å": "aa", "Æ": "Ae", "Ø": "Oe", "Å": "Aa"},
    "nn": {"æ": "ae", "ø": "oe", "å": "aa", "Æ": "Ae", "Ø": "Oe", "Å": "Aa"},
}


def plain_letters(text: str, language: str | None = None) -> str:
    """``text`` in plain Latin letters (ASCII), as the book's language (the loaded book's, unless named) writes its
    letters so: 'Großer Schafkopf für Anfänger' -> 'Grosser Schafkopf fuer Anfaenger' in German; every letter kept."""
    import unicodedata

    from anyascii import anyascii

    own = LETTERS.get(base_language(language or _current.language), {})
    text = unicodedata.normalize("NFC", text)
    # A symbol is no letter: anyascii would write a card or a star as words ('🂡' -> 'As'), which a title never said.
    return anyascii("".join(own.get(c, " " if unicodedata.category(c).startswith("S") else c) for c in text))


def slug(text: str, language: str | None = None) -> str:
    """A title as an id or a file name: its words in plain letters (``plain_letters``), lower case, joined by one
    hyphen; '' when it has no letter or digit."""
    import re

    plain = re.sub(r"['\u2019]", "", plain_letters(text, language))  # "Tom's" -> 'toms'
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")

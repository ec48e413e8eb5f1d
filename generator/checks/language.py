"""The book's language: the tool writes its words in it when it has them (book/words.py), else in English.

A warning, not an error: the book builds, with the tool's words in English, and says so once; the club adds the
catalogue (templates/locale/) or its own words for each message (book.yaml's ``messages:``).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..book.library import Library
from ..book.words import SOURCE, _, catalogue, has_catalogue, languages
from . import Found, check


@check("book.language_unknown", "warning")
def language_unknown(lib: Library) -> Iterator[Found]:
    """The tool has no message catalogue for the book's language: the words it writes are English."""
    language = lib.book.language
    if not has_catalogue(language):
        yield (lib.book_doc.where(("language",)), _("the tool has no words in '%(language)s' (it has %(languages)s): "
                                                    "the boxes, headings and buttons it writes are in English; add "
                                                    "templates/locale/%(language)s.po to the tool, or give your own "
                                                    "words in book.yaml's messages:", language=language,
                                                    languages=', '.join(languages())), None)


@check("book.message_unknown", "warning")
def message_unknown(lib: Library) -> Iterator[Found]:
    """A message book.yaml gives its own words for is none the tool writes: it would change nothing."""
    if not lib.book.messages:  # nothing to look up: the catalogue (every message the tool writes) is not read
        return
    known = set(catalogue(SOURCE))
    for message in lib.book.messages:
        if message not in known:
            yield (lib.book_doc.where(("messages", message)), _("'%(text)s' is no message the tool writes: name one "
                                                                "by its English words as templates/locale/en.po "
                                                                "writes them (msgid)", text=message), None)

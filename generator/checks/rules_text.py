"""A game's page prints its rules: the prose of every game and variant says something of its own.

The data's tables (scores, rounds, a score sheet) are printed whatever the prose says; the rules
themselves are only in the prose. A prose file emptied, cut down to its headings or its tables, or a
variant's file gone, would print a page with no rules on it; in a published edition ``edition.frozen``
says so as a change, in the others nothing did.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..book.library import CONTENT_DIR, Library
from ..book.loader import TextDoc
from ..book.prose import BLOCK_LINE, REF
from ..book.words import _
from ..errors import Location
from . import Found, bodies, check

_NOT_RULES = re.compile(r"\s*+(?:#.*|[-*_=\s]*+|<!--.*-->\s*+)$")  # a heading, a rule, a comment, nothing
_WORD = re.compile(r"[^\W\d_]{2,}")  # a word of two letters or more


_FRONT_MATTER = re.compile(r"\A(?:\ufeff)?-{3}[ \t]*\n.*?^(?:-{3}|\.{3})[ \t]*$", re.S | re.M)
_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")  # under a line of text, it makes that line a heading (setext)


def has_rules(text: str) -> bool:
    """Whether ``text`` has a word of its own: outside front matter, headings (# or underlined), horizontal rules,
    comments and the data's tables and values."""
    lines = _FRONT_MATTER.sub("", text, count=1).splitlines()
    for i, line in enumerate(lines):
        if _NOT_RULES.match(line) or BLOCK_LINE.match(line):
            continue
        if i + 1 < len(lines) and _UNDERLINE.match(lines[i + 1]):
            continue  # a heading, underlined
        if _WORD.search(REF.sub(" ", line)):
            return True
    return False


def _where(prose: TextDoc) -> Location:
    return Location(prose.path, 1)


@check("prose.no_rules")
def no_rules(lib: Library) -> Iterator[Found]:
    """A game's or variant's prose is missing, empty, or only headings and data tables: its page would print no rules."""
    for b in bodies(lib):
        if b.variant is None:
            prose, file = b.gs.prose, f"{CONTENT_DIR}/{b.game}.md"
        else:
            prose, file = b.gs.variant_prose.get(b.variant.id), f"{CONTENT_DIR}/{b.game}.{b.variant.id}.md"
        who = _("variant %(title)s", title=b.variant.title) if b.variant else b.gs.game.heading()
        if prose is None:
            if b.variant is not None:  # a game without its file is refused on loading
                yield (b.gs.where(("variants", b.index, "id")),
                       _("%(who)s has no prose file %(file)s: its page would print no rules; write them there",
                         who=who, file=file), b.game)
            continue
        if not has_rules(prose.text):
            yield (_where(prose), _("%(who)s: %(file)s has no rules in it, only headings, rules (---), front matter "
                                    "or data tables: its page would print none; write the rules as the source gives "
                                    "them", who=who, file=file), b.game)

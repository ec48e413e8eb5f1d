"""What of the tool's English a built book shows: the English catalogue's own messages, found in its outputs' text.

A message is looked for by its fixed words (what is between its placeholders), each a run of at least two words or
one word of four letters or more, whole words only: 'Score sheet: number %(number)s in the score pad.' is looked for
as 'Score sheet: number' and 'in the score pad.'. A message a language writes the same (German 'Joker') is not
English there, and is not looked for (``english_only``).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from generator.book.words import catalogue

PLACEHOLDER = re.compile(r"%\(\w+\)s")
_TAGS = re.compile(r"<[^>]+>")
_ATTRIBUTES = re.compile(r'\b(?:aria-label|title|placeholder|alt|content)="([^"]*)"')
_WORDS = re.compile(r"data-words='([^']*)'|data-words=\"([^\"]*)\"")  # a script's words: the values, not the keys


def fragments(message: str) -> list[str]:
    """The fixed words of a message worth looking for, each alone (see the module's docstring)."""
    found = []
    for part in PLACEHOLDER.split(message):
        part = part.strip(" :;,.()–-")
        words = re.findall(r"[A-Za-z']+", part)
        if len(words) >= 2 or (words and len(words[0]) >= 4):
            found.append(part)
    return found


def english_only(language: str) -> dict[str, list[str]]:
    """The English catalogue's messages that ``language``'s catalogue writes otherwise, each with its fragments."""
    english = catalogue("en")
    other = catalogue(language)
    return {m: fragments(m) for m in english if other.get(m) and other[m] != m and fragments(m)}


def page_text(markup: str) -> str:
    """A page's words as a reader meets them: its text, and the attributes a screen reader or a script shows."""
    said = " ".join(html.unescape(v) for v in _ATTRIBUTES.findall(markup))
    for single, double in _WORDS.findall(markup):
        said += " " + " ".join(PLACEHOLDER.sub(" ", v) for v in json.loads(html.unescape(single or double)).values())
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.S)
    return html.unescape(_TAGS.sub(" ", body)) + " " + said


def pdf_text(path: Path) -> str:
    """A PDF's text, page by page, and its form fields' names as a reader's software shows them."""
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    fields = " ".join(str(f.get("/TU", "")) for f in (reader.get_fields() or {}).values())
    return "\n".join(page.extract_text() or "" for page in reader.pages) + " " + fields


def found(text: str, messages: dict[str, list[str]]) -> list[str]:
    """The messages one of whose fragments ``text`` holds, whole words, with the fragment found."""
    flat = " ".join(text.split())
    return sorted(f"{m!r} ({f!r})" for m, parts in messages.items() for f in parts
                  if re.search(rf"(?<![\w']){re.escape(' '.join(f.split()))}(?![\w'])", flat))

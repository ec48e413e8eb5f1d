"""Prose changes sentence by sentence, with the changed words marked (for ``compare.py``).

A reviewer wants to see which sentence changed and which words in it, not a paragraph twice.
Sentences are matched with difflib; a changed sentence is shown once, its removed words struck
through and its added words in bold (Markdown), or as ``[-old-]{+new+}`` in plain text.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

# A sentence ends at . ! ? (optionally closed by a quote or bracket) before a space and a capital.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"”')\]]?\s+(?=[\"“(*\[]?[A-Z0-9{])")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_~\[\]])")


def sentences(text: str | None) -> list[str]:
    """The sentences of a text, whitespace folded, paragraph and list-item breaks kept as breaks."""
    if not text:
        return []
    out: list[str] = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.) )", text):
        block = re.sub(r"^\s*(?:[-*+]|\d+\.) ", "", re.sub(r"\s+", " ", block).strip())
        if block:
            out += [s for s in _split(block) if s]
    return out


def _split(block: str) -> list[str]:
    parts, start = [], 0
    for m in _SENTENCE_END.finditer(block):
        parts.append(block[start:m.start() + len(m.group().rstrip())].strip())
        start = m.end()
    parts.append(block[start:].strip())
    return parts


def escape(text: str) -> str:
    """Text made literal in Markdown (no stray emphasis or links from the data's own characters)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def mark_words(old: str, new: str, markdown: bool = True) -> str:
    """``new`` with the words it dropped from ``old`` struck through and the words it added marked."""
    a, b = old.split(), new.split()
    out: list[str] = []
    lit = escape if markdown else (lambda s: s)
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        gone, came = " ".join(a[i1:i2]), " ".join(b[j1:j2])
        if op == "equal":
            out.append(lit(came))
            continue
        if gone:
            out.append(f"~~{lit(gone)}~~" if markdown else f"[-{gone}-]")
        if came:
            out.append(f"**{lit(came)}**" if markdown else f"{{+{came}+}}")
    return " ".join(out)


def changed_sentences(old: str | None, new: str | None) -> list[tuple[str | None, str | None]]:
    """(old sentence, new sentence) for every sentence removed, added or reworded."""
    if old == new:  # most texts of most games: nothing to split (a third of the site's "What changed" page)
        return []
    a, b = sentences(old), sentences(new)
    pairs: list[tuple[str | None, str | None]] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if op == "replace" and i2 - i1 == j2 - j1:
            pairs += list(zip(a[i1:i2], b[j1:j2], strict=True))
        elif op == "replace":  # sentences split or merged: compare the run as one passage
            pairs.append((" ".join(a[i1:i2]), " ".join(b[j1:j2])))
        else:
            pairs += [(s, None) for s in a[i1:i2]] + [(None, s) for s in b[j1:j2]]
    return pairs


# A word with what joins its letters or digits inside it ("opponent's", "two-player", "1,000", "2.5", a slip's
# "4,s"), or one other character; each with the space before it. A slip inside a word marks the word.
_TOKEN = re.compile(r"(?<!\s)(\s*+)([^\W_]++(?:[.,'’-][^\W_]++)*+|\S)")  # blanks tried once, from their start


def word_runs(old: str, new: str) -> tuple[list[tuple[str, str, bool]], list[tuple[str, str, bool]]]:
    """Both texts as runs of (space before, words, changed): the words of each that the other does not have are
    one changed run, never the sentence round them. Joined (space + words), each side is its text again."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    runs: tuple[list[tuple[str, str, bool]], list[tuple[str, str, bool]]] = ([], [])
    matcher = SequenceMatcher(None, [t for _, t in a], [t for _, t in b], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        for side, tokens in ((0, a[i1:i2]), (1, b[j1:j2])):
            if tokens:
                words = tokens[0][1] + "".join(space + word for space, word in tokens[1:])
                runs[side].append((tokens[0][0], words, op != "equal"))
    return runs

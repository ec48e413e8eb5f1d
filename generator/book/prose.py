"""Data references in prose: a number kept in data is written once and referenced from text.

In Markdown and in YAML text, ``{deal.each}`` stands for the game's ``deal.each`` value
(``{deal.each:word}`` prints it in words, 'ten'; ``{deal.each:Word}`` capitalised, 'Ten';
``{points:score}`` as the book's scoring tables write a score, 'Free', 'Minus 10', '1,000'), and a
line holding only ``{scoring.card_values}`` (or ``{rounds}``, ``{alternate_rules}``,
``{examples.NAME}``, ``{score_sheet}``) places that table there. References are plain dotted
paths looked up in the data: no expressions, attributes or templates, so prose cannot run code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .numwords import SCORE_STYLES, score, styled

# ``{path}`` or ``{path:word}``: the optional style prints a whole number in words (numwords.STYLES).
REF = re.compile(r"\{([a-z_][a-z0-9_]*(?:\.[a-z0-9_-]+)*)(?::(word|Word|WORD|score|abs))?\}")
BLOCK_LINE = re.compile(r"^\{([a-z_][a-z0-9_]*(?:\.[a-z0-9_-]+)*)\}\s*$")
BLOCK_ROOTS = ("scoring", "rounds", "alternate_rules", "examples", "score_sheet")

MISSING = object()


@dataclass(frozen=True)
class Ref:
    """A reference found in text, with its 1-based line and column."""

    path: str
    line: int
    col: int
    block: bool
    style: str | None = None


def find_refs(text: str) -> Iterator[Ref]:
    """Every reference in ``text``, block references marked."""
    for n, line in enumerate(text.splitlines(), 1):
        block = BLOCK_LINE.match(line)
        if block:
            yield Ref(block.group(1), n, 1, True)
            continue
        for m in REF.finditer(line):
            yield Ref(m.group(1), n, m.start() + 1, False, m.group(2))


def lookup(data: Any, path: str) -> Any:
    """The value at a dotted path in plain data, or MISSING."""
    node = data
    for part in path.split("."):
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return MISSING
    return node


def is_block_path(path: str) -> bool:
    """True if a path names a table-like block rather than a value."""
    root = path.split(".")[0]
    return root in BLOCK_ROOTS and (root != "scoring" or path.count(".") == 1) and (
        root != "examples" or path.count(".") == 1) and (root in ("scoring", "examples") or "." not in path)


def format_value(value: Any, style: str | None = None) -> str:
    """How a data value reads in a sentence; ``style`` ('word', 'Word') spells a whole number out."""
    if style in SCORE_STYLES and isinstance(value, (int, float)) and not isinstance(value, bool):
        return score(value, style)
    if style is not None and isinstance(value, (int, float)) and not isinstance(value, bool) and value == int(value):
        return styled(int(value), style)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10000 else str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    if value is None:
        return ""
    return str(value)


def expand(text: str, *scopes: Mapping[str, Any]) -> str:
    """Replace inline references by their values, looked up in each scope in turn.

    Unknown references are left as written; the ``reference.unknown`` check reports them.
    """
    def sub(m: re.Match[str]) -> str:
        for scope in scopes:
            value = lookup(scope, m.group(1))
            if value is not MISSING and not isinstance(value, (dict, list)):
                if m.group(2) and (isinstance(value, bool) or not isinstance(value, (int, float))
                                   or (m.group(2) not in SCORE_STYLES and value != int(value))):
                    return m.group(0)  # words asked of text: left for reference.unknown to report
                return format_value(value, m.group(2))
        return m.group(0)

    return REF.sub(sub, text)


def split_blocks(text: str) -> list[tuple[str, str]]:
    """Split Markdown into ``("md", text)`` and ``("block", path)`` segments."""
    out: list[tuple[str, str]] = []
    buf: list[str] = []
    for line in text.splitlines():
        m = BLOCK_LINE.match(line)
        if m and is_block_path(m.group(1)):
            if buf:
                out.append(("md", "\n".join(buf)))
                buf = []
            out.append(("block", m.group(1)))
        else:
            buf.append(line)
    if buf:
        out.append(("md", "\n".join(buf)))
    return out

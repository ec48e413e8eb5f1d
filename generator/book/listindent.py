"""Nested lists as the sources write them: a sub-item nests when it starts under its parent's text.

The family's book (and GitHub's preview, and CommonMark) nests ``  - Left`` under ``- After looking
at his or her hand ...``: two spaces, the column where the parent's text starts. Python-Markdown
nests only at four spaces, so a two-space sub-rule would print as a rule of its own. This
preprocessor re-indents list items, and the paragraphs that continue them, to four spaces a level
by CommonMark's rule before the list parser sees them. Four-space nesting keeps working, and a
top-level list indented by one to three spaces (Standard Gin Rummy's numbered rules) stays a
top-level list. It is one of the prose extensions in ``rendered.PROSE_EXTENSIONS``, so the site and
the print book nest alike.
"""

from __future__ import annotations

import re

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

__all__ = ["ListIndentExtension", "makeExtension", "reindent"]

# The list markers Python-Markdown (with sane_lists) reads: '-', '*', '+' and '1.'; then spaces or the line end.
ITEM = re.compile(r"( *)([-*+]|\d{1,9}\.)( +|$)")
RULE = re.compile(r" *([-*_])(?: *\1){2,} *$")  # '- - -' and '***' are horizontal rules, not items
STEP = 4  # Python-Markdown's tab length: the indent of one nesting level


def reindent(lines: list[str]) -> list[str]:
    """Lines with every list item (and its continuation paragraphs) indented four spaces a level."""
    out: list[str] = []
    columns: list[int] = []  # where the text of each open item starts in the source, outermost first
    after_blank = True
    for line in lines:
        if not line.strip():
            out.append(line)
            after_blank = True
            continue
        indent = len(line) - len(line.lstrip(" "))
        item = ITEM.match(line)
        if item and not RULE.match(line) and (columns or indent < STEP):  # four spaces outside a list: code
            while columns and indent < columns[-1]:
                columns.pop()
            out.append(" " * (STEP * len(columns)) + line[indent:])
            gap = len(item.group(3))
            # CommonMark: the text starts after the marker and its spaces, unless they are five or more
            # (then one space belongs to the marker and the rest to an indented block).
            columns.append(indent + len(item.group(2)) + (gap if 1 <= gap <= STEP else 1))
        elif columns and after_blank:
            # A paragraph after a blank line belongs to the deepest open item whose text it reaches.
            while columns and indent < columns[-1]:
                columns.pop()
            out.append(" " * (STEP * len(columns)) + line[indent:] if columns else line)
        else:
            out.append(line)  # text outside lists, or a lazy continuation line of the item above
        after_blank = False
    return out


class _Reindent(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        return reindent(lines)


class ListIndentExtension(Extension):
    """Register the re-indenting step after fenced code and raw HTML are set aside (they are not lists)."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        md.preprocessors.register(_Reindent(md), "list_indent", 15)


def makeExtension(**kwargs: object) -> ListIndentExtension:  # noqa: N802 - Python-Markdown's entry point
    """The extension, for ``markdown_extensions`` lists that name it by module."""
    return ListIndentExtension(**kwargs)

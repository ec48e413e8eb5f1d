"""Contributor text in the summary: literal, on one line, never Markdown, HTML or a workflow command of its own."""

from __future__ import annotations

import html
import re

from ...book.textdiff import escape
from ...errors import clean


def literal(value: object) -> str:
    """Text from the sources as literal Markdown on one line: its newlines spaces, its HTML and markup characters
    shown as they are (an erratum's reason with `<!--` must not hide the rest of the summary)."""
    one = clean(" ".join(str(value).split()))
    return escape(html.escape(one, quote=False))


def html_literal_block(markdown_text: str) -> str:
    """Markdown of ours quoting the sources (``compare.markdown``) with the sources' HTML made literal."""
    return "\n".join(html.escape(line, quote=False) for line in markdown_text.split("\n"))


def html_literal_line(markdown_line: str) -> str:
    """A line of ours that quotes the sources already made Markdown-literal (textdiff.escape) made HTML-literal
    too, and one line."""
    return html.escape(" ".join(markdown_line.split()), quote=False)


def code_span(value: object) -> str:
    """Text from the sources as a code span: fenced by more backticks than it holds (CommonMark), one line."""
    one = clean(" ".join(str(value).split()))
    fence = "`" * (max((len(run) for run in re.findall(r"`+", one)), default=0) + 1)
    pad = " " if one.startswith("`") or one.endswith("`") else ""
    return f"{fence}{pad}{one}{pad}{fence}"

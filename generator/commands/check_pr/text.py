"""Contributor text in the summary: literal, on one line, never Markdown, HTML or a workflow command of its own; its
typography made plain, to tell a changed word from a typographic edit; and the summary kept under GitHub's limit."""

from __future__ import annotations

import dataclasses
import html
import re

from ...book.compare import Change, book_heading
from ...book.textdiff import escape
from ...book.words import n_
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


# Typographic forms of the same text: curly and straight quotes and apostrophes, dashes and hyphens (and a dash typed
# as hyphens), spaces that do not break, an ellipsis. An edit between them changes no word, number or negation.
_TYPOGRAPHIC = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "′": "'", "“": '"', "”": '"', "„": '"', "″": '"',
                              "–": "-", "—": "-", "‐": "-", "‑": "-", "−": "-", "\u00a0": " ", "\u202f": " ",
                              "\u2009": " ", "…": "..."})


def plain(text: str) -> str:
    """``text`` with each typographic form made plain (``_TYPOGRAPHIC``, and a dash typed as two or three hyphens) and
    its spaces made one."""
    return " ".join(text.translate(_TYPOGRAPHIC).replace("---", "-").replace("--", "-").split())


def typographic_only(change: Change) -> bool:
    """Whether a change of a text changes only its typography: no word, number or negation."""
    return (isinstance(change.old, str) and isinstance(change.new, str) and change.old != change.new
            and plain(change.old) == plain(change.new))


def change_lines(changes: list[Change]) -> list[str]:
    """Each change on its line, but those that change only typography, said together in one line: a changed word,
    number or negation is never one line among many alike. A line that changes words and typography too is shown with
    its typography made plain, so that only what it says differently is marked."""
    said, typographic = [], []
    for c in changes:
        if typographic_only(c):
            typographic.append(c)
            continue
        if isinstance(c.old, str) and isinstance(c.new, str) and (plain(c.old), plain(c.new)) != (c.old, c.new):
            c = dataclasses.replace(c, old=plain(c.old), new=plain(c.new))
        said.append(f"- {html_literal_line(c.text(markdown=True, with_game=not c.game or c.game == book_heading()))}")
    if typographic:
        said.append("- " + n_("%(count)s line whose only edits are typographic (quotes, apostrophes, dashes, spaces): "
                              "no word, number or negation of them changes",
                              "%(count)s lines whose only edits are typographic (quotes, apostrophes, dashes, spaces): "
                              "no word, number or negation of them changes", len(typographic)))
    return said


MAX_SUMMARY_BYTES = 1_000_000  # GitHub shows a step's summary up to 1 MiB (1,048,576 bytes), and none past it


def within_limit(text: str, limit: int | None = None) -> str:
    """``text`` cut at the last whole line under ``limit`` bytes of UTF-8 (``MAX_SUMMARY_BYTES``), saying how many
    lines were left out and where the whole summary is; as it is when it fits."""
    limit = MAX_SUMMARY_BYTES if limit is None else limit
    if len(text.encode("utf-8")) <= limit:
        return text
    lines = text.split("\n")
    note = ("\n\n**The summary is cut here: {} more lines would pass the 1 MiB GitHub shows.** The whole summary is "
            "`summary.md`, and every file the change touches is in `files.txt`, in the check's artifact `summary`.")
    room, kept = limit - len(note.encode("utf-8")) - 20, 0
    for line in lines:
        room -= len(line.encode("utf-8")) + 1
        if room < 0:
            break
        kept += 1
    return "\n".join(lines[:kept]) + note.format(len(lines) - kept)

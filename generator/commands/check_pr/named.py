"""How the summary names the check's own things, in the base book's language: a part of the project, what a change
does to a file, a finding quoted."""

from __future__ import annotations

from ...book.words import _
from ...errors import Problem
from .judge import PARTS
from .text import code_span, literal


def part_heading(part_name: str) -> str:
    """A part of the project (``judge.PARTS``) as the summary heads it, in the base book's language."""
    return {PARTS[0]: lambda: _("The book's sources"), PARTS[1]: lambda: _("How the book is checked"),
            PARTS[2]: lambda: _("How the book is made"), PARTS[3]: lambda: _("Around the book")}[part_name]()


def file_status(status: str) -> str:
    """What a change does to a file ('added', 'deleted', 'changed': ``judge.files_touched``), in the base book's
    language (files.txt keeps the status as it is: a script reads it)."""
    return {"added": lambda: _("added"), "deleted": lambda: _("deleted"),
            "changed": lambda: _("changed")}.get(status, lambda: status)()


def finding(f: Problem) -> str:
    """A finding as the summary quotes it: where, its check, its message (literal)."""
    return f"{code_span(f'{f.path}:{f.line}')} {f.check}: {literal(f.message)}"

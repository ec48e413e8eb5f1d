"""What a pull request may change as data, judged by the base's code alone, and the error a change to anything else
is: code or configuration of the check or of the making needs a maintainer, never a pass."""

from __future__ import annotations

from ...book.library import SOURCE_DIRS
from ...checks import listing
from ...errors import Problem

# What a pull request may change as data, judged by the base's code alone: the book's sources (its lists among them)
# and prose about the book that nothing runs (Markdown outside the folders of code, templates and settings). Anything
# else is code or configuration of the check or of the making (generator/, templates/, fonts, tests/, bench/, the
# Makefile, pyproject.toml, the locks, .github/, mkdocs.yml and what it names, a module beside them): a change to it
# needs a maintainer.
DATA_DIRS = tuple(f"{d}/" for d in SOURCE_DIRS)
NOT_DATA_DIRS = ("generator/", "templates/", "tests/", "bench/", "schema/", ".github/", ".ci/")


def is_data(path: str) -> bool:
    """Whether a file a change touches is data the base's code judges (``DATA_DIRS``, or Markdown prose that nothing
    runs), not code or configuration of the check or of the making."""
    if path.startswith(DATA_DIRS):
        return True
    return path.endswith(".md") and not path.startswith(NOT_DATA_DIRS) and "/." not in f"/{path}"


def needs_maintainer(paths: list[str]) -> Problem:
    """The error that a change edits code or configuration of the check or of the making (``paths``): no check can
    pass it, a maintainer reads it."""
    return Problem("", 0, "change.needs_maintainer", (
        f"this change edits code or configuration of how the book is checked or made ({listing(paths)}): the check "
        "judges only the book's data, so its verdict is “needs a maintainer”, never a pass: a maintainer reviews the "
        "files and merges it, or it is split so that the data alone is checked"), "error")

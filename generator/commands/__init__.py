"""The commands, one module a verb: each runs the stages (book, checks, render) for one thing a maintainer does."""

from __future__ import annotations

import os
from pathlib import Path

# The words a command's lines are written in: the book's, once it is loaded (book/words.py); the command line's too.
from ..book.words import Words, _, use

__all__ = ["Words", "_", "book_root", "use"]


def book_root(root: Path, verb: str) -> Path:
    """``root`` if it is a book's folder; else one line saying where the command looked, the book's folder if
    ``root`` is inside one (looked for upward, as git does), and how to give it (``--root``)."""
    import shlex

    from ..book.library import BOOK_FILE, DATA_DIR
    from ..errors import RulebookError

    book = f"{DATA_DIR}/{BOOK_FILE}"  # what makes a folder a book's: there in any form (the loader says what is
    if os.path.lexists(root / book):  # wrong with one that is not a plain file, through the door every read passes)
        return root
    if not root.is_dir():
        what = "not a folder" if root.exists() else "no such folder"
        raise RulebookError(f"{root}: {what}: give --root a book's folder (the one that holds {book})")
    above = next((folder for folder in root.parents if os.path.lexists(folder / book)), None)
    if above is not None:
        raise RulebookError(f"{root} is not a book's folder (no {book}): it is inside the book in {above}; run "
                            f"`rulebook {verb}` there, or `rulebook --root {shlex.quote(str(above))} {verb}`")
    raise RulebookError(f"{root} is not a book's folder (no {book}): run rulebook in one, or give it with "
                        f"`rulebook --root DIR {verb}` (`rulebook init DIR` starts a book)")

"""Every file under content/ and rules_data/ is read, or said not to be (issue 51).

The loader reads ``rules_data/*.yaml`` and ``content/*.md`` and uses the files a game, a variant or a page is named
by: a correction written to ``content/golf.six-card-golff.md``, ``Trash.md``, ``trash.MD`` or
``rules_data/trash.yml`` reached no book and passed CI. Each file no one reads is one line, with the name it was
most likely meant to have.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator

from ..book.library import (
    ACCEPTED_FILE,
    BOOK_FILE,
    CONFUSABLES_FILE,
    CONTENT_DIR,
    DATA_DIR,
    DICTIONARY_FILE,
    ERRATA_FILE,
    REVISIONS_FILE,
    Library,
)
from ..book.words import _
from ..errors import Location, echo
from . import Found, check

# What rules_data/ holds besides the games' files: the book's own, the dictionaries (checks/editorial.py,
# book/lookalike.py) and the sealed records of published editions (book/frozen.py).
DATA_FILES = (BOOK_FILE, ERRATA_FILE, REVISIONS_FILE, ACCEPTED_FILE, DICTIONARY_FILE, CONFUSABLES_FILE)
DATA_FOLDERS = ("frozen",)


# A hidden file is an editor's or a system's (.hearts.md.swp, .DS_Store), unless it is named as a source is: a
# correction saved as '.hearts.md' reaches no book.
_SOURCE_SUFFIXES = (".md", ".markdown", ".yaml", ".yml")


def _entries(folder: str) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as entries:
            return sorted((e for e in entries if not e.name.startswith(".") or e.name.lower().endswith(_SOURCE_SUFFIXES)),
                          key=lambda e: e.name)
    except OSError:  # not there, or not a folder: the loader has said so
        return []


def _meant(name: str, expected: set[str]) -> str | None:
    """The expected name ``name`` was most likely meant to be: the same but for case, for its extension, or close."""
    lower = {e.lower(): e for e in expected}
    if name.lower() in lower:
        return lower[name.lower()]
    name = name.lstrip(".") or name  # '.hearts.md': hidden
    stem = name.rsplit(".", 1)[0] if "." in name else name
    for e in expected:
        if e.rsplit(".", 1)[0].lower() == stem.lower():
            return e
    close = difflib.get_close_matches(name.lower(), sorted(lower), n=1, cutoff=0.8)
    return lower[close[0]] if close else None


def _expected_content(lib: Library) -> set[str]:
    names = {f"{page.id}.md" for page in lib.book.pages}
    for gid, gs in lib.every_game.items():
        names.add(f"{gid}.md")
        names |= {f"{gid}.{variant.id}.md" for variant in gs.game.variants}
    return names


@check("file.unread")
def unread_file(lib: Library) -> Iterator[Found]:
    """A file under content/ or rules_data/ that no game, variant or page reads (a misnamed file reaches no book)."""
    if not lib.is_current:  # an older edition's games and variants are not all of the files' (nor are they checked)
        return
    folders = ((CONTENT_DIR, _expected_content(lib), (), _("a game's prose is content/<game>.md, a variant's "
                "content/<game>.<variant>.md, a page's content/<page>.md")),
               (DATA_DIR, {f"{gid}.yaml" for gid in lib.every_game} | set(DATA_FILES), DATA_FOLDERS,
                _("a game's data is rules_data/<game>.yaml")))
    for folder, expected, subfolders, rule in folders:
        for entry in _entries(os.path.join(lib.root, folder)):
            name, where = entry.name, Location(f"{folder}/{entry.name}", 1)
            if entry.is_dir(follow_symlinks=False):
                if name not in subfolders:
                    yield where, (_("a folder, which the book does not read (%(rule)s): move its files to their "
                                    "places, or the folder out of %(folder)s/", rule=rule, folder=folder)), None
                continue
            if name in expected or (folder == DATA_DIR and name.endswith(".yaml")):
                continue  # read (a .yaml file of rules_data/ is a game's, or says why not)
            meant = _meant(name, expected)
            if meant is None:
                yield where, (_("%(name)s is read by no game, variant or page (%(rule)s): rename it to the file it "
                                "belongs to, or move it out of %(folder)s/", name=echo(name), rule=rule, folder=folder)), None
            elif os.path.lexists(os.path.join(lib.root, folder, meant)):
                yield where, (_("%(name)s is read by no game, variant or page: %(folder)s/%(meant)s is; put what "
                                "this file says there, and delete this one", name=echo(name), folder=folder,
                                meant=meant)), None
            else:
                yield where, (_("%(name)s is read by no game, variant or page: rename it to %(folder)s/%(meant)s",
                                name=echo(name), folder=folder, meant=meant)), None

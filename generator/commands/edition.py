"""``rulebook edition new ID --label … [--date …]``: close the current edition and open the next.

The current edition is about to be printed, so it is frozen (its fingerprint written under
``rules_data/frozen/ID/``), the new edition is appended to ``book.yaml`` and made current, and the book is
validated. Every step is checked before anything is written, and the two writes (the fingerprint, then
``book.yaml``, each written whole and renamed into place) are undone if the new edition does not validate:
nothing is left half released.
"""

from __future__ import annotations

import datetime
import os
import re
import shutil
from pathlib import Path

from ..book.editor import BOOK_PATH, BookFile
from ..book.files import read_source_text, write_source
from ..book.library import BOOK_FILE, DATA_DIR, Library, edition_key, load_library
from ..book.model import EDITION_ID, calendar_day
from ..book.words import _
from ..errors import Problems, RulebookError, echo
from ..progress import Report, quiet

REVISION = re.compile(r"\brevision\s+(\d+)\b", re.I)


def _refuse(argument: str, problem: str) -> RulebookError:
    """A refusal of one of `edition new`'s own arguments, in one line that names it: '--date: ...'."""
    return RulebookError(f"{argument}: {problem}")


def _put_back(before: Path, book: Path) -> None:
    """``book`` as it was, from its second name ``before``: by a rename over it, or, where a full disk refuses even
    that (tmpfs does), by removing the new one and renaming the old into its place."""
    try:
        os.replace(before, book)
    except OSError:
        book.unlink(missing_ok=True)
        os.rename(before, book)


MAX_REVISION_DIGITS = 9  # a revision a person could number; an id past it is a slip of the keyboard


def check_new(lib: Library, edition_id: str, label: str, date: str) -> None:
    """Refuse, in one line naming the argument, an edition that cannot follow the current one: raise RulebookError."""
    current = lib.book.current
    year_now, revision_now = current.split(".")
    following = f"{year_now}.{int(revision_now) + 1}" if len(revision_now) <= MAX_REVISION_DIGITS else f"{year_now}.1"
    if not re.fullmatch(EDITION_ID.strip("^$"), edition_id):
        raise _refuse("ID", _("%(edition_id)s is not an edition id: write the year and the revision, e.g. "
                              "%(following)s", edition_id=echo(edition_id), following=following))
    if len(edition_id.split(".")[1].lstrip("0")) > MAX_REVISION_DIGITS:
        raise _refuse("ID", _("%(edition_id)s has a revision of %(split_count)s digits: no book is revised so often; "
                              "write the next revision, e.g. %(following)s", edition_id=echo(edition_id),
                              split_count=len(edition_id.split('.')[1]), following=following))
    ids = [e.id for e in lib.book.editions]
    if edition_id in ids:
        raise _refuse("ID", _("edition %(edition_id)s already exists: give the next edition a new id",
                              edition_id=edition_id))
    latest = max(ids, key=edition_key)
    if edition_key(edition_id) <= edition_key(latest):
        raise _refuse("ID", _("edition %(edition_id)s is not later than %(latest)s, the latest edition: the next "
                              "edition's id comes after it", edition_id=edition_id, latest=latest))
    year, revision = (int(p) for p in edition_id.split("."))
    if not label.strip():
        raise _refuse("--label", _("the label is empty: write it as the cover prints it, e.g. 'Revision %(revision)s "
                                   "(%(date)s/%(year)s)'", revision=revision,
                                   date=format(datetime.date(year, 1, 1), '%b'), year=year))
    years = re.findall(r"(?:19|20)\d\d", label)
    if any(int(y) != year for y in years):
        raise _refuse("--label", _("the label '%(label)s' names another year than %(year)s, the year of "
                                   "%(edition_id)s", label=label, year=year, edition_id=edition_id))
    for m in REVISION.finditer(label):
        if int(m.group(1)) != revision:
            raise _refuse("--label", _("the label '%(label)s' says revision %(group)s, but %(edition_id)s is "
                                       "revision %(revision)s", label=label, group=m.group(1), edition_id=edition_id,
                                       revision=revision))
    try:
        calendar_day(date)
    except ValueError as exc:
        raise _refuse("--date", _("'%(date)s' is %(exc)s", date=date, exc=exc)) from None
    before = max(lib.book.editions, key=lambda e: edition_key(e.id))
    if datetime.date.fromisoformat(date) < datetime.date.fromisoformat(before.date):
        raise _refuse("--date", _("%(date)s is before %(id)s's date (%(date2)s): an edition is printed after the one "
                                  "before it", date=date, id=before.id, date2=before.date))


def new_edition(root: Path, edition_id: str, label: str, date: str | None = None,
                progress: Report = quiet) -> Library:
    """Freeze the current edition, open ``edition_id`` as the current one, validate; return its library.

    Raises RulebookError (one line naming the argument) for an edition that cannot follow, Problems for findings
    that stop the book; in the second case the freeze and book.yaml are put back as they were."""
    from ..book.frozen import folder, write
    from ..checks import run_checks

    lib = load_library(root)
    date = date or datetime.date.today().isoformat()
    check_new(lib, edition_id, label, date)
    progress(f"validate {lib.edition.id}")
    errors = [f for f in run_checks(lib) if f.severity == "error"]
    progress(f"validate {lib.edition.id}", final=True)
    if errors:
        raise Problems(errors, summary=_("%(error_count)s error(s) in %(id)s: correct them before it is printed and "
                                         "%(edition_id)s opened", error_count=len(errors), id=lib.edition.id,
                                         edition_id=edition_id))
    book = root / DATA_DIR / BOOK_FILE
    old_text = read_source_text(book, BOOK_PATH)
    printed = lib.book.printed_index
    edited = BookFile(old_text)
    edited.add_edition(edition_id, label, date, printed is not None and lib.edition.id in printed.editions)
    new_text = edited.text()
    frozen = folder(root, lib.edition.id)
    kept = frozen.with_name(f".{frozen.name}.before-{edition_id}")
    if frozen.exists():  # an older record of the same edition: kept until the release is whole
        shutil.rmtree(kept, ignore_errors=True)
        frozen.rename(kept)
    # book.yaml as it was, kept by a second name (a link: no space needed) and put back by a rename, which a full
    # disk cannot stop as it could a write
    before = book.with_name(f".{book.name}.before-{edition_id}")
    before.unlink(missing_ok=True)
    os.link(book, before)
    replaced = False
    try:
        write_source(book, new_text)
        replaced = True
        progress(f"freeze {lib.edition.id} as published")
        written = write(load_library(root, lib.edition.id))  # no longer current: what it prints is now published
        progress(f"freeze {lib.edition.id} as published", len(written), len(written), final=True)
        progress(f"validate {edition_id}")
        new = load_library(root)
        errors = [f for f in run_checks(new) if f.severity == "error"]
        progress(f"validate {edition_id}", final=True)
        if errors:
            raise Problems(errors, summary=_("%(error_count)s error(s) in %(edition_id)s: nothing was released",
                                             error_count=len(errors), edition_id=edition_id))
    except BaseException:
        if replaced:
            _put_back(before, book)
        before.unlink(missing_ok=True)
        shutil.rmtree(frozen, ignore_errors=True)
        if kept.exists():
            kept.rename(frozen)
        raise
    before.unlink(missing_ok=True)
    shutil.rmtree(kept, ignore_errors=True)
    return new


def run(root: Path, edition_id: str, label: str, date: str | None = None) -> int:
    """``rulebook edition new ID``: open the next edition, print its findings and what to commit."""
    from ..checks import run_checks
    from ..progress import shown
    from .validate import as_text

    with shown() as progress:
        lib = new_edition(root, edition_id, label, date, progress=progress)
    print(as_text(run_checks(lib), len(lib.games)))
    previous = lib.previous()
    print(_("opened %(edition)s (%(label)s) as the current edition; %(previous)s is frozen as published "
            "(rules_data/frozen/%(previous)s/): commit rules_data/. Record corrections of mistakes in "
            "rules_data/errata.yaml and the decisions of %(whose)s in rules_data/revisions.yaml",
            edition=lib.edition.id, label=lib.edition.label, previous=previous.id if previous else "",
            whose=lib.book.decided_by))
    return 0

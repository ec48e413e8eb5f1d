"""What a published edition's readers get that a change may not touch beside its record: the edition's own entry in
book.yaml (its label and date, as its cover prints them, whether it is laid out as printed, its number), as it was
published. Its seal (``record``) is judged with the record (``judge.with_rewritten_records``)."""

from __future__ import annotations

from ...book.library import Library
from ...book.model import Edition
from ...errors import Problem

SEAL = "record"  # the one field `rulebook edition new` writes into a published edition's entry


def _printed(edition: Edition) -> dict[str, object]:
    """The fields of an edition's entry its readers get (all but its seal)."""
    return {name: value for name, value in edition.model_dump().items() if name != SEAL}


def entries_rewritten(old: Library, new: Library) -> list[Problem]:
    """An error at each entry of book.yaml of an edition published at the base (every edition but its current one)
    that the change edits (a seal aside), naming the fields and their values before and after; and at book.yaml's
    list of editions when the change removes one."""
    published = {e.id: e for e in old.book.editions if e.id != old.book.current}
    found = []
    kept = {e.id for e in new.book.editions}
    for n, edition in enumerate(new.book.editions):
        before = published.get(edition.id)
        if before is None:
            continue
        was, now = _printed(before), _printed(edition)
        edited = [f"{name} {was.get(name)!r} → {now.get(name)!r}" for name in sorted(set(was) | set(now))
                  if was.get(name) != now.get(name)]
        if edited:
            where = new.book_doc.where(("editions", n))
            found.append(Problem(where.path, where.line, "frozen.changed", (
                f"this change edits the entry of edition {edition.id}, published ({'; '.join(edited)}): its readers "
                "got it as it was (its cover, its pages): put it back; a correction is an erratum of the edition "
                "that makes it")))
    for gone in sorted(set(published) - kept):
        where = new.book_doc.where(("editions",))
        found.append(Problem(where.path, where.line, "frozen.changed", (
            f"this change removes the entry of edition {gone}, published: put it back; a published edition is "
            "never taken out of the book")))
    return found

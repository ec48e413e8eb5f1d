"""What a change may not rewrite in place: a published edition's own entry in book.yaml (its label and date, as its
cover prints them, whether it is laid out as printed, its number), as it was published (its seal, ``record``, is
judged with the record: ``judge.with_rewritten_records``); which editions are published (the current edition is the
base's, or one opened after it: never a published one made open again); and a decision the base records (revisions.yaml), which a
later change makes anew, as a decision of its own, never by rewriting the one before."""

from __future__ import annotations

from ...book.library import Library, edition_key
from ...book.model import Edition
from ...errors import Problem

SEAL = "record"  # the one field `rulebook edition new` writes into a published edition's entry


def _printed(edition: Edition) -> dict[str, object]:
    """The fields of an edition's entry its readers get (all but its seal)."""
    return {name: value for name, value in edition.model_dump().items() if name != SEAL}


def entries_rewritten(old: Library, new: Library) -> list[Problem]:
    """The errors of ``editions_rewritten``, ``reopened`` and ``decisions_rewritten``."""
    return editions_rewritten(old, new) + reopened(old, new) + decisions_rewritten(old, new)


def reopened(old: Library, new: Library) -> list[Problem]:
    """An error at book.yaml's current edition when the change makes current an edition published at the base, or one
    that comes before the base's current edition. Which editions are published is the base's to say: a change opens
    the next edition (``rulebook edition new``: one after the current one), and never opens a published one again
    (its next change could then rewrite what its readers got, as the open edition's)."""
    was, now = old.book.current, new.book.current
    if now == was or (now not in {e.id for e in old.book.editions} and edition_key(now) > edition_key(was)):
        return []
    where = new.book_doc.where(("current",))
    said = (f"{now} was published at its base, and a published edition is never opened again" if now in
            {e.id for e in old.book.editions} else f"{now} comes before {was}, the edition open at its base")
    return [Problem(where.path, where.line, "frozen.changed", (
        f"this change makes {now} the current edition in place of {was}: {said}; put current back to {was}, and "
        "open the next edition with `rulebook edition new`"))]


def _edits(was: dict[str, object], now: dict[str, object]) -> list[str]:
    return [f"{name} {was.get(name)!r} → {now.get(name)!r}" for name in sorted(set(was) | set(now))
            if was.get(name) != now.get(name)]


def decisions_rewritten(old: Library, new: Library) -> list[Problem]:
    """An error at each decision the base records that the change rewrites (naming each field before and after) or
    removes: a decision recorded stays as it was, and changing it is a new decision, with its own id, date and why."""
    recorded = {r.id: r for r in old.revisions}
    found = []
    for n, revision in enumerate(new.revisions):
        before = recorded.pop(revision.id, None)
        edited = _edits(before.model_dump(), revision.model_dump()) if before is not None else []
        if edited and new.revisions_doc is not None:
            where = new.revisions_doc.where(("revisions", n))
            found.append(Problem(where.path, where.line, "decision.rewritten", (
                f"this change rewrites the decision {revision.id}, recorded before it ({'; '.join(edited)}): a "
                "decision recorded stays as it was; put it back, and record the change as a new decision (its own id, "
                "date and why), which the summary shows as one")))
    for gone in sorted(recorded):
        where = new.revisions_doc.where(("revisions",)) if new.revisions_doc is not None else None
        found.append(Problem(where.path if where else "rules_data/revisions.yaml", where.line if where else 1,
                             "decision.rewritten", f"this change removes the decision {gone}, recorded before it: put it "
                                                   "back; a decision recorded is undone by a new decision, not erased"))
    return found


def editions_rewritten(old: Library, new: Library) -> list[Problem]:
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
        edited = _edits(_printed(before), _printed(edition))
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

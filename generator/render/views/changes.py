"""The 'What changed' view, for the site and the book alike: an edition against the one before it.

Three kinds of change, each told apart: the family's decisions (``rules_data/revisions.yaml``), each with
its date and why; the corrections of mistakes (``errata.yaml``), whose reasons are on the errata page; and
the rest, which no record explains (games and variants added from the sources). Every change line comes
from the data compared (``book/compare.py``); a record only says which group a line belongs to.
"""

from __future__ import annotations

import datetime
import html
import re
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from ...book import words
from ...book.compare import ITEM, Change, book_heading, compare
from ...book.library import Library, load_library
from ...book.model import Revision
from ...book.prose import expand
from ...book.words import _
from .describe import decision_anchor, edition_name, errata_anchor, errata_rows, revision_game


def what_decided(kind: str) -> str:
    """What a decision of ``kind`` did, in the book's language: 'rule changed', 'game added'."""
    return {"rule": lambda: _("rule changed"), "alternate_rule": lambda: _("alternate rule"),
            "target": lambda: _("target changed"), "game_added": lambda: _("game added"),
            "game_retired": lambda: _("game retired"), "variant_added": lambda: _("variant added"),
            "variant_retired": lambda: _("variant retired")}[kind]()


@dataclass
class Decision:
    """One of the family's decisions as readers see it: whose, what kind, when, why, and the lines it changed."""

    heading: str
    what: str
    date: str
    why: str
    changes: list[Change] = field(default_factory=list)
    anchor: str = ""  # its place on the page, which the page of the game it changed links to


@dataclass
class EditionChanges:
    """What changed from the edition before to this one, in three groups (each: heading -> change lines)."""

    previous: str
    current: str
    decisions: list[Decision]
    corrections: dict[str, list[Change]]
    other: dict[str, list[Change]]
    errata_anchor: str | None = None  # where the errata page lists this edition's corrections (None: it lists none)


def reader_date(iso: str) -> str:
    """'2026-12-01' as readers of the book's language write it: '1 December 2026', '1. Dezember 2026' (Babel's long
    date of the language; the English month and year for a language Babel does not know)."""
    from babel import Locale, UnknownLocaleError
    from babel.dates import format_date

    day = datetime.date.fromisoformat(iso)
    language = words.current().language.replace("-", "_")
    try:
        return format_date(day, "d MMMM y" if language.startswith("en") else "long", locale=Locale.parse(language))
    except (UnknownLocaleError, ValueError):
        return f"{day.day} {day.strftime('%B')} {day.year}"


def _explains(record: Any, change: Change, lib: Library, old: Library) -> bool:
    """Whether an erratum or revision (its file, path, old and new words) made this change line."""
    file = record.file
    if file is None:
        return False
    new_value = record.corrected if hasattr(record, "corrected") else record.after
    old_value = record.published if hasattr(record, "published") else record.before
    if record.path is not None:  # a data value: the same file and path
        book = file == lib.book_doc.path
        owner = lib.games.get(change.game_id)
        return change.path == record.path and (book and not change.game_id
                                               or owner is not None and owner.doc.path == file)
    if change.path != file:
        return False
    scopes = [lib.games[change.game_id].doc.data] if change.game_id in lib.games else []
    new_text, old_text = (expand(str(v), *scopes, lib.scope()) for v in (new_value, old_value))
    old_scopes = [old.games[change.game_id].doc.data] if change.game_id in old.games else []
    old_text = expand(str(old_value), *old_scopes, old.scope())
    return new_text in str(change.new or "") and old_text in str(change.old or "")


def _names(r: Revision, lib: Library) -> tuple[str, str]:
    """(the game's heading, what the decision did) for a revision."""
    gid = revision_game(r)
    gs = lib.every_game.get(gid)
    page = next((p.title for p in lib.book.pages if p.id == gid), None)
    heading = gs.game.heading() if gs is not None else page or book_heading()
    what = what_decided(r.kind)
    if r.variant and gs is not None:
        variant = next((v for v in gs.game.variants if v.id == r.variant), None)
        what += f": {variant.title}" if variant else ""
    if r.kind == "alternate_rule" and r.rule is not None:
        what = _("Alternate Rule %(number)s added", number=r.rule)
    return heading, what


def _lifetime(r: Revision, change: Change, lib: Library) -> bool:
    """Whether a game or variant added or retired by a revision is this change line."""
    if r.game is None or change.game_id != r.game:
        return False
    if r.kind in ("game_added", "game_retired"):
        return change.label in (_("game added"), _("game retired"))  # as compare wrote them, in the same words
    if r.kind.startswith("variant_"):
        gs = lib.every_game.get(r.game)
        variant = next((v for v in gs.game.variants if v.id == r.variant), None) if gs else None
        return variant is not None and change.label.lower() == _(ITEM["variants"], name=variant.title).lower()
    return False


def _rule_added(r: Revision, change: Change) -> bool:
    """Whether an alternate rule a revision adds by its number (no file changed) is this change line: shown under the
    decision, which names the rule but not its words."""
    return (r.kind == "alternate_rule" and r.file is None and r.rule is not None and change.game_id == r.game
            and change.old is None and isinstance(change.new, dict) and change.new.get("number") == r.rule
            and change.path.startswith("alternate_rules."))


def edition_changes(lib: Library, old: Library | None = None) -> EditionChanges | None:
    """What changed in ``lib``'s edition since the one before (None for the first edition)."""
    previous = lib.previous()
    if previous is None:
        return None
    old = old or load_library(lib.root, previous.id, allow_missing=True, validated=lib.validated)
    lines = compare(old, lib).changes
    here = lib.edition.id
    errata = [e for e in lib.errata if e.edition == here]
    revisions = [r for r in lib.revisions if r.edition == here]
    decisions, corrections, other = [], {}, {}
    claimed: set[int] = set()
    for r in revisions:
        heading, what = _names(r, lib)
        mine = [c for c in lines if id(c) not in claimed and (_explains(r, c, lib, old) or _lifetime(r, c, lib)
                                                                 or _rule_added(r, c))]
        claimed.update(id(c) for c in mine)
        shown = [c for c in mine if not _lifetime(r, c, lib)]  # 'Game retired' is the decision's own heading
        decisions.append(Decision(heading, what[:1].upper() + what[1:], reader_date(r.date), r.why, shown,
                                  decision_anchor(r.id)))
    for c in lines:
        if id(c) in claimed:
            continue
        group = corrections if any(_explains(e, c, lib, old) for e in errata) else other
        group.setdefault(c.game or book_heading(), []).append(c)
    anchor = errata_anchor(here) if any(row.edition == here for row in errata_rows(lib)) else None
    return EditionChanges(edition_name(previous), edition_name(lib.edition), decisions, corrections, other, anchor)


_STRUCK = re.compile(r"(?<!\\)~~(.+?)(?<!\\)~~")
_BOLD = re.compile(r"(?<!\\)\*\*(.+?)(?<!\\)\*\*")


def line_markdown(change: Change) -> Markup:
    """A change line as the site's Markdown: the data's characters literal, removed words struck through
    (the theme has no strikethrough extension: ``<del>``), added ones bold."""
    text = html.escape(change.text(markdown=True, with_game=False), quote=False)
    return Markup(_STRUCK.sub(r"<del>\1</del>", text))  # noqa: S704 - escaped above; only <del> is added


def line_html(change: Change) -> Markup:
    """A change line as the book's HTML: removed words struck through, added ones bold."""
    text = html.escape(change.text(markdown=True, with_game=False), quote=False)
    text = _BOLD.sub(r"<strong>\1</strong>", _STRUCK.sub(r"<del>\1</del>", text))
    return Markup(re.sub(r"\\(.)", r"\1", text))  # noqa: S704 - escaped above; Markdown's escapes undone

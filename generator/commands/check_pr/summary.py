"""The pull-request check's summary, in Markdown: each section a function from what the check found (a
``judge.Judgement``) to its lines, the sources' text always literal (``text.py``).

The summary leads with the errors, then what the change does to the rules in words, in three groups: the decisions the
change records (revisions.yaml, each with its date and why), the corrections (errata.yaml, each with its evidence) and
the other edits, each with the lines it changes; then the games it adds, as their pages state them, and the words it
adds to the house dictionary; then what it does to how the book is checked and made, and every file it touches.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from ...book.compare import Change, book_heading, compare, markdown, show
from ...book.library import DICTIONARY, Library
from ...book.textdiff import mark_words
from ...errors import Problem
from .judge import BASE_CODE_UNRUN, PARTS, Judgement, part
from .lists import LISTS, ListEntry, finding_key, places_lines
from .renamed import matched
from .text import change_lines, code_span, html_literal_block, html_literal_line, literal


def _where(f: Problem) -> str:
    return code_span(f"{f.path}:{f.line}") + " " if f.path else ""


def errors_lines(errors: list[Problem]) -> list[str]:
    """The errors, each at its file and line, or that there are none."""
    if not errors:
        return ["No errors.", ""]
    return [f"**{len(errors)} error{'s' if len(errors) != 1 else ''}** (each is an annotation on its line):", "",
            *(f"- {_where(f)}{f.check}: {literal(f.message)}" for f in errors), ""]


def maintainer_lines(judgement: Judgement) -> list[str]:
    """The summary's opening when the change edits code or configuration of the check or of the making: that fact,
    the verdict (“needs a maintainer”, never a pass) and every such file; nothing when it edits data alone."""
    maintained = judgement.maintained
    if not maintained:
        return []
    return ["## Needs a maintainer", "", f"This change edits code or configuration of how the book is checked or made "
            f"({len(maintained)} file{'s' if len(maintained) != 1 else ''}). The check judges only the book's data, by "
            "the base's code: its verdict is **needs a maintainer**, not a pass.", "",
            *(f"- {code_span(p)}" for p in maintained), ""]


def check_lines(judgement: Judgement) -> list[str]:
    """The summary's first section: the errors, the warnings the change brings, and how many warnings stand, are
    accepted with a reason, and are cleared by the change."""
    head = judgement.head
    new = judgement.new_warnings
    standing = [f for f in head.findings if f.severity == "warning" and finding_key(f) in judgement.standing]
    accepted = [f for f in head.findings if f.severity == "accepted"]
    fixed = len(judgement.standing - {finding_key(f) for f in head.findings if f.severity != "accepted"})
    out = ["## Check of the book", "", *errors_lines(judgement.errors)]
    if new:
        out += [f"{len(new)} new warning{'s' if len(new) != 1 else ''}:", ""]
        out += [f"- {_where(f)}{f.check}: {literal(f.message)}" for f in new] + [""]
    if head.lib is not None:
        out += [f"Standing warnings (before this change too): {len(standing)}; accepted with a reason: "
                f"{len(accepted)}; findings this change clears: {fixed}.", ""]
    return out


def rules_lines(judgement: Judgement) -> list[str]:
    """What the change does to the rules: the edition it opens, if any, then its decisions, corrections and other
    edits (both sides load)."""
    old, new = judgement.old.lib, judgement.head.lib
    heading = f"What this change does to the rules ({judgement.base} → this change)"
    return opened_lines(old, new) + rules_changed_lines(old, new, heading)


def not_compared_lines(judgement: Judgement) -> list[str]:
    """Why what the change does to the rules cannot be said (a side does not load)."""
    why = "this change does not load (see the errors above)" if judgement.head.lib is None else judgement.base_problem
    return ["### What this change does to the rules", "", f"Not compared: {literal(why)}.", ""]


def opened_lines(old: Library, new: Library) -> list[str]:
    """Summary lines for a pull request that opens an edition: which, and which edition it freezes as published."""
    if new.book.current == old.book.current:
        return []
    before = {e.id for e in old.book.editions}
    added = [e for e in new.book.editions if e.id not in before]
    lines = [f"**This change opens edition {literal(e.id)} ({literal(e.label)})**"
             + (" as the current edition" if e.id == new.book.current else "") + "." for e in added]
    lines += [f"It freezes {literal(old.book.current)} ({literal(old.edition.label)}) as published: what it prints is "
              f"recorded in `rules_data/frozen/{old.book.current}/`, and a later change to it is an erratum or a "
              "revision.", ""]
    return lines


def _listing_lines(record: Any, other: dict[str, list[Change]]) -> list[Change]:
    """The lines of the book's own data that list the game a decision adds or retires (its section's games): the
    decision's, taken from the other edits."""
    if record.kind not in ("game_added", "game_retired") or not record.game:
        return []
    book = book_heading()
    mine = [c for c in other.get(book, []) if re.fullmatch(r"sections\.\d+\.games\.\d+", c.path)
            and record.game in (c.old, c.new)]
    other[book] = [c for c in other.get(book, []) if c not in mine]
    if not other[book]:
        del other[book]
    return mine


def _new(records: list[Any], before: list[Any]) -> list[Any]:
    """The records (errata, revisions) a change adds or rewrites: not in ``before`` as they are."""
    kept = {r.id: r for r in before}
    return [r for r in records if kept.get(r.id) != r]


def _value(published: Any, corrected: Any) -> str:
    if isinstance(published, str) and isinstance(corrected, str):
        return f"“{html_literal_line(mark_words(published, corrected))}”"
    return f"{literal(show(published))} → {literal(show(corrected))}"


def rules_changed_lines(old: Library, new: Library, heading: str) -> list[str]:
    """What the change does to the rules, as the summary's Markdown: the book's decisions it records (date, why),
    the corrections (kind, evidence), and the other edits, each with the lines it changes, apart."""
    from ...render.views.changes import edition_changes, reader_date
    from ...render.views.describe import possessive

    revisions, errata = _new(new.revisions, old.revisions), _new(new.errata, old.errata)
    here = [r for r in revisions if r.edition == new.edition.id]  # (one filed under another edition: validate's)
    # The lines each record explains; this change's records only (the edition's earlier ones are the base's).
    grouped = edition_changes(dataclasses.replace(new, revisions=here, errata=errata), old)
    if grouped is None:  # the first edition: nothing before it to set its changes apart from
        return [html_literal_block(markdown(compare(old, new), heading))]
    out = [f"## {heading}", ""]
    if revisions:
        out += [f"### {literal(possessive(new.book.decided_by, start=True))} decisions", ""]
        out += [f"- {code_span(r.id)} is filed under edition {r.edition}, not {new.edition.id}, the edition this change makes."
                for r in revisions if r not in here] + ([""] if len(here) < len(revisions) else [])
        for record, decision in zip(here, grouped.decisions, strict=True):
            out += [f"#### {literal(decision.heading)}: {literal(decision.what)}", "",
                    f"Decided {reader_date(record.date)}, in edition {literal(record.edition)} ({code_span(record.id)}). "
                    f"Why: {literal(record.why)}", ""]
            out += [*change_lines(decision.changes + _listing_lines(record, grouped.other)), ""]
    if errata:
        out += ["### Corrections", ""]
        for e in errata:
            evidence = e.evidence
            at = {"index": "its line of the index", "sheet": "its score sheet"}.get(getattr(evidence, "place", ""), "")
            cited = (f" ({literal(evidence.page)}{', ' + at if at else ''}: “{literal(evidence.words)}”)"
                     if getattr(evidence, "page", None) else "")
            out += [f"- {code_span(e.id)}, in edition {literal(e.edition)}, {code_span(e.file)}"
                    + (f" at {code_span(e.path)}" if e.path else "")
                    + f": {_value(e.published, e.corrected)}. Evidence: **{literal(evidence.kind)}**{cited}: "
                    f"{literal(evidence.why)}"]
        out.append("")
        for game, changes in grouped.corrections.items():
            out += [f"#### {literal(game)}", "", *change_lines(changes), ""]
    if grouped.other:
        out += ["### Other edits", "", "No decision or correction of this change records these.", ""]
        for game, changes in grouped.other.items():
            out += [f"#### {literal(game)}", "", *change_lines(changes), ""]
    gone = [r for r in old.revisions if r.id not in {n.id for n in new.revisions}]
    gone += [e for e in old.errata if e.id not in {n.id for n in new.errata}]
    if gone:
        out += ["Records this change removes: " + ", ".join(code_span(r.id) for r in gone) + ".", ""]
    return out


def new_games_lines(judgement: Judgement) -> list[str]:
    """The summary's lines on each game the change adds: its facts as its page states them (the page's own "at a
    glance" rows: players, equipment, deal, goal...), and, in one line, why the book's later pages move."""
    from ...render.views.pages import game_page

    old, new = judgement.old.lib, judgement.head.lib
    order = [g for section in new.book.sections for g in section.games if g in new.games]
    renamed = {b for _, b in matched(old, new)}  # (said with their old selves: renamed_lines)
    added = [g for g in order if g not in old.games and g not in renamed]
    if not added:
        return []
    out = ["### Games this change adds", ""]
    for gid in added:
        gs = new.games[gid]
        page = game_page(new, gs)
        section = next(s for s in new.book.sections if gid in s.games)
        later = order[order.index(gid) + 1:]
        out += [f"#### {literal(gs.game.heading())}", "", "As its page states it:", ""]
        out += [f"- {literal(label)}: {literal(text)}" for label, text in page.main.glance]
        out += [f"- Variants: {', '.join(literal(v.title) for v, _ in page.variants)}" if page.variants else ""]
        where = (f"before {literal(new.games[later[0]].game.heading())}" if later else "at the end of the games")
        out += ["", f"Its page comes in “{literal(section.title)}”, {where}: "
                + (f"the {len(later)} game{'s' if len(later) != 1 else ''} after it, and every page after them "
                   "(the index, what changed), move on by its pages, and the contents and index give their new page "
                   "numbers." if later else "the pages after it (the index, what changed) move on by its pages."), ""]
    return [line for n, line in enumerate(out) if line or not (n and out[n - 1] == "")]


def dictionary_lines(judgement: Judgement) -> list[str]:
    """The summary's lines on the words the change adds to (or removes from) the house dictionary: a word added there
    is no longer a spelling warning anywhere, so a reviewer sees each."""
    added, removed = judgement.words
    if not (added or removed):
        return []
    out = ["### The house dictionary", ""]
    if added:
        out.append(f"Words this change adds to `{DICTIONARY}` (never again a spelling warning): "
                   + ", ".join(f"**{literal(w)}**" for w in added) + ".")
    if removed:
        out.append(f"Words it removes: {', '.join(f'**{literal(w)}**' for w in removed)}.")
    return [*out, ""]


def how_checked_lines(judgement: Judgement) -> list[str]:
    """The summary's section on what the change does to the way the book is checked: each list entry, with the
    findings it would silence, and the checks' code it changes."""
    entries: list[tuple[ListEntry, list[Problem]]] = judgement.entries
    code = [p for p in judgement.touched_in(PARTS[1]) if p not in LISTS]
    if not entries and not code:
        return []
    out = ["## How the book is checked", ""]
    if entries:
        out += ["This change edits lists the checks read. It is judged by the base's lists: an entry licenses nothing "
                "in the change that brings it (land it first, on its own).", ""]
    for e, silenced in entries:
        out.append(f"- {code_span(f'{e.path}:{e.line}')} {literal(e.what)}"
                   + (":" if silenced else "; it silences nothing."))
        out += [f"  - would silence {code_span(f'{f.path}:{f.line}')} {f.check}: {literal(f.message)}"
                + (" (standing)" if finding_key(f) in judgement.standing else " (**this change's**)")
                for f in silenced[:20]]
        if len(silenced) > 20:
            out.append(f"  - and {len(silenced) - 20} more")
        out += places_lines(e)
    unrun = any(f.check == "check.not_judged" and f.message.startswith(BASE_CODE_UNRUN) for f in judgement.errors)
    if code:
        out += [""] * bool(entries) + [
            "The change edits the code of the checks or of the book's reading: " + (
                "its sources could **not** be judged by the base's code (the error above says why), and the check "
                "fails:" if unrun else "its sources are judged by the base's code too, and what that finds and the "
                "change's code does not is an error (code.licenses_own_change):"),
            ""] + [f"- {code_span(p)}" for p in code]
    return [*out, ""]


def made_lines(judgement: Judgement) -> list[str]:
    """The summary's section on the files of how the book is made the change touches, when no pictures were asked
    for (with them, the pictures' section says which pages they alter)."""
    made = judgement.touched_in(PARTS[2])
    if not made:
        return []
    return ["## How the book is made", "", "This change edits what the book is made with (code, templates, "
            "styles, settings); run the check with --pictures to see the pages whose output differs.", "",
            *(f"- {code_span(p)}" for p in made), ""]


FILES_SHOWN = 500  # files the summary lists by name; the rest are counted, and every one is in files.txt


def files_lines(judgement: Judgement) -> list[str]:
    """The summary's list of every file the change touches, under the part of the project each belongs to; past
    ``FILES_SHOWN``, how many are left out, and where the whole list is (``whole_files``)."""
    if not judgement.files:
        return []
    out = ["## Every file this change touches", ""]
    shown = 0
    for heading in PARTS:
        mine = [(s, p) for s, p in judgement.files if part(p) == heading]
        listed = mine[:max(0, FILES_SHOWN - shown)]
        shown += len(listed)
        if listed:
            out += [f"### {heading}", "", *(f"- {code_span(p)} ({s})" for s, p in listed), ""]
    if shown < len(judgement.files):
        out += [f"{len(judgement.files) - shown} more of the {len(judgement.files)} files this change touches are left "
                "out here: every one is listed in `files.txt`, in the check's artifact `summary`.", ""]
    return out


def whole_files(judgement: Judgement) -> str:
    """Every file the change touches, a line each: its status, a tab, its path (``files.txt``)."""
    return "".join(f"{s}\t{p}\n" for s, p in judgement.files)

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
from ...book.words import _, n_
from ...errors import Problem
from .judge import BASE_CODE_UNRUN, PARTS, Judgement, part
from .lists import LISTS, ListEntry, finding_key, places_lines
from .named import file_status, finding, part_heading
from .renamed import matched
from .text import change_lines, code_span, html_literal_block, html_literal_line, literal


def _where(f: Problem) -> str:
    return code_span(f"{f.path}:{f.line}") + " " if f.path else ""


def errors_lines(errors: list[Problem]) -> list[str]:
    """The errors, each at its file and line, or that there are none."""
    if not errors:
        return [_("No errors."), ""]
    return [n_("**%(count)s error** (each is an annotation on its line):",
               "**%(count)s errors** (each is an annotation on its line):", len(errors)), "",
            *(f"- {_where(f)}{f.check}: {literal(f.message)}" for f in errors), ""]


def maintainer_lines(judgement: Judgement) -> list[str]:
    """The summary's opening when the change edits code or configuration of the check or of the making: that fact,
    the verdict (“needs a maintainer”, never a pass) and every such file; nothing when it edits data alone."""
    maintained = judgement.maintained
    if not maintained:
        return []
    return ["## " + _("Needs a maintainer"), "", _(
        "This change edits code or configuration of how the book is checked or made (%(files)s). The check judges only "
        "the book's data, by the base's code: its verdict is **needs a maintainer**, not a pass.",
        files=n_("%(count)s file", "%(count)s files", len(maintained))), "",
            *(f"- {code_span(p)}" for p in maintained), ""]


def check_lines(judgement: Judgement) -> list[str]:
    """The summary's first section: the errors, the warnings the change brings, and how many warnings stand, are
    accepted with a reason, and are cleared by the change."""
    head = judgement.head
    new = judgement.new_warnings
    standing = [f for f in head.findings if f.severity == "warning" and finding_key(f) in judgement.standing]
    accepted = [f for f in head.findings if f.severity == "accepted"]
    fixed = len(judgement.standing - {finding_key(f) for f in head.findings if f.severity != "accepted"})
    out = ["## " + _("Check of the book"), "", *errors_lines(judgement.errors)]
    if new:
        out += [n_("%(count)s new warning:", "%(count)s new warnings:", len(new)), ""]
        out += [f"- {_where(f)}{f.check}: {literal(f.message)}" for f in new] + [""]
    if head.lib is not None:
        out += [_("Standing warnings (before this change too): %(standing)s; accepted with a reason: %(accepted)s; "
                  "findings this change clears: %(fixed)s.", standing=len(standing), accepted=len(accepted),
                  fixed=fixed), ""]
    return out


def rules_lines(judgement: Judgement) -> list[str]:
    """What the change does to the rules: the edition it opens, if any, then its decisions, corrections and other
    edits (both sides load)."""
    old, new = judgement.old.lib, judgement.head.lib
    heading = _("What this change does to the rules (%(base)s → this change)", base=judgement.base)
    return opened_lines(old, new) + rules_changed_lines(old, new, heading)


def not_compared_lines(judgement: Judgement) -> list[str]:
    """Why what the change does to the rules cannot be said (a side does not load)."""
    why = _("this change does not load (see the errors above)") if judgement.head.lib is None else judgement.base_problem
    return ["### " + _("What this change does to the rules"), "", _("Not compared: %(why)s.", why=literal(why)), ""]


def opened_lines(old: Library, new: Library) -> list[str]:
    """Summary lines for a pull request that opens an edition: which, and which edition it freezes as published."""
    if new.book.current == old.book.current:
        return []
    before = {e.id for e in old.book.editions}
    added = [e for e in new.book.editions if e.id not in before]
    lines = [(_("**This change opens edition %(edition)s (%(label)s)** as the current edition.", edition=literal(e.id),
                label=literal(e.label)) if e.id == new.book.current else
              _("**This change opens edition %(edition)s (%(label)s)**.", edition=literal(e.id), label=literal(e.label)))
             for e in added]
    lines += [_("It freezes %(edition)s (%(label)s) as published: what it prints is recorded in %(folder)s, and a later "
                "change to it is an erratum or a revision.", edition=literal(old.book.current),
                label=literal(old.edition.label), folder=f"`rules_data/frozen/{old.book.current}/`"), ""]
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
    from ...render.views.describe import whose

    revisions, errata = _new(new.revisions, old.revisions), _new(new.errata, old.errata)
    here = [r for r in revisions if r.edition == new.edition.id]  # (one filed under another edition: validate's)
    # The lines each record explains; this change's records only (the edition's earlier ones are the base's).
    grouped = edition_changes(dataclasses.replace(new, revisions=here, errata=errata), old)
    if grouped is None:  # the first edition: nothing before it to set its changes apart from
        return [html_literal_block(markdown(compare(old, new), heading))]
    out = [f"## {heading}", ""]
    if revisions:
        w = whose(literal(new.book.decided_by), start=True)
        out += ["### " + (_("%(whose)s' decisions", whose=w["whose"]) if w["s"]
                          else _("%(whose)s's decisions", whose=w["whose"])), ""]
        out += ["- " + _("%(record)s is filed under edition %(edition)s, not %(current)s, the edition this change makes.",
                         record=code_span(r.id), edition=r.edition, current=new.edition.id)
                for r in revisions if r not in here] + ([""] if len(here) < len(revisions) else [])
        for record, decision in zip(here, grouped.decisions, strict=True):
            out += [f"#### {literal(decision.heading)}: {literal(decision.what)}", "",
                    _("Decided %(date)s, in edition %(edition)s (%(record)s). Why: %(why)s", date=reader_date(record.date),
                      edition=literal(record.edition), record=code_span(record.id), why=literal(record.why)), ""]
            out += [*change_lines(decision.changes + _listing_lines(record, grouped.other)), ""]
    if errata:
        out += ["### " + _("Corrections"), ""]
        for e in errata:
            evidence = e.evidence
            at = {"index": lambda: _("its line of the index"), "sheet": lambda: _("its score sheet")}.get(
                getattr(evidence, "place", ""), lambda: "")()
            cited = (f" ({literal(evidence.page)}{', ' + at if at else ''}: “{literal(evidence.words)}”)"
                     if getattr(evidence, "page", None) else "")
            named = {"record": code_span(e.id), "edition": literal(e.edition), "file": code_span(e.file)}
            where = (_("%(record)s, in edition %(edition)s, %(file)s at %(path)s", path=code_span(e.path), **named)
                     if e.path else _("%(record)s, in edition %(edition)s, %(file)s", **named))
            out += ["- " + _("%(where)s: %(value)s. Evidence: %(kind)s%(cited)s: %(why)s", where=where,
                             value=_value(e.published, e.corrected), kind=f"**{literal(evidence.kind)}**", cited=cited,
                             why=literal(evidence.why))]
        out.append("")
        for game, changes in grouped.corrections.items():
            out += [f"#### {literal(game)}", "", *change_lines(changes), ""]
    if grouped.other:
        out += ["### " + _("Other edits"), "", _("No decision or correction of this change records these."), ""]
        for game, changes in grouped.other.items():
            out += [f"#### {literal(game)}", "", *change_lines(changes), ""]
    gone = [r for r in old.revisions if r.id not in {n.id for n in new.revisions}]
    gone += [e for e in old.errata if e.id not in {n.id for n in new.errata}]
    if gone:
        out += [_("Records this change removes: %(records)s.", records=", ".join(code_span(r.id) for r in gone)), ""]
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
    out = ["### " + _("Games this change adds"), ""]
    for gid in added:
        gs = new.games[gid]
        page = game_page(new, gs)
        section = next(s for s in new.book.sections if gid in s.games)
        later = order[order.index(gid) + 1:]
        out += [f"#### {literal(gs.game.heading())}", "", _("As its page states it:"), ""]
        out += [f"- {literal(label)}: {literal(text)}" for label, text in page.main.glance]
        out += ["- " + _("Variants: %(variants)s", variants=", ".join(literal(v.title) for v, _v in page.variants))
                if page.variants else ""]
        section_title = literal(section.title)
        out += ["", n_("Its page comes in “%(section)s”, before %(next)s: the %(count)s game after it, and every page "
                       "after them (the index, what changed), move on by its pages, and the contents and index give "
                       "their new page numbers.",
                       "Its page comes in “%(section)s”, before %(next)s: the %(count)s games after it, and every page "
                       "after them (the index, what changed), move on by its pages, and the contents and index give "
                       "their new page numbers.", len(later), section=section_title,
                       next=literal(new.games[later[0]].game.heading())) if later else
                _("Its page comes in “%(section)s”, at the end of the games: the pages after it (the index, what "
                  "changed) move on by its pages.", section=section_title), ""]
    return [line for n, line in enumerate(out) if line or not (n and out[n - 1] == "")]


def dictionary_lines(judgement: Judgement) -> list[str]:
    """The summary's lines on the words the change adds to (or removes from) the house dictionary: a word added there
    is no longer a spelling warning anywhere, so a reviewer sees each."""
    added, removed = judgement.words
    if not (added or removed):
        return []
    out = ["### " + _("The house dictionary"), ""]
    if added:
        out.append(_("Words this change adds to %(file)s (never again a spelling warning): %(words)s.",
                     file=f"`{DICTIONARY}`", words=", ".join(f"**{literal(w)}**" for w in added)))
    if removed:
        out.append(_("Words it removes: %(words)s.", words=", ".join(f"**{literal(w)}**" for w in removed)))
    return [*out, ""]


def how_checked_lines(judgement: Judgement) -> list[str]:
    """The summary's section on what the change does to the way the book is checked: each list entry, with the
    findings it would silence, and the checks' code it changes."""
    entries: list[tuple[ListEntry, list[Problem]]] = judgement.entries
    code = [p for p in judgement.touched_in(PARTS[1]) if p not in LISTS]
    if not entries and not code:
        return []
    out = ["## " + part_heading(PARTS[1]), ""]
    if entries:
        out += [_("This change edits lists the checks read. It is judged by the base's lists: an entry licenses "
                  "nothing in the change that brings it (land it first, on its own)."), ""]
    for e, silenced in entries:
        out.append(f"- {code_span(f'{e.path}:{e.line}')} {literal(e.what)}"
                   + (":" if silenced else _("; it silences nothing.")))
        out += ["  - " + (_("would silence %(finding)s (standing)", finding=finding(f))
                          if finding_key(f) in judgement.standing
                          else _("would silence %(finding)s (**this change's**)", finding=finding(f)))
                for f in silenced[:20]]
        if len(silenced) > 20:
            out.append("  - " + _("and %(count)s more", count=len(silenced) - 20))
        out += places_lines(e)
    unrun = any(f.check == "check.not_judged" and f.message.startswith(BASE_CODE_UNRUN) for f in judgement.errors)
    if code:
        out += [""] * bool(entries) + [
            _("The change edits the code of the checks or of the book's reading: its sources could **not** be judged "
              "by the base's code (the error above says why), and the check fails:") if unrun else
            _("The change edits the code of the checks or of the book's reading: its sources are judged by the base's "
              "code too, and what that finds and the change's code does not is an error (%(check)s):",
              check="code.licenses_own_change"),
            ""] + [f"- {code_span(p)}" for p in code]
    return [*out, ""]


def made_lines(judgement: Judgement) -> list[str]:
    """The summary's section on the files of how the book is made the change touches, when no pictures were asked
    for (with them, the pictures' section says which pages they alter)."""
    made = judgement.touched_in(PARTS[2])
    if not made:
        return []
    said = _("This change edits what the book is made with (code, templates, styles, settings); run the check with "
             "--pictures to see the pages whose output differs.")
    return ["## " + part_heading(PARTS[2]), "", said, "", *(f"- {code_span(p)}" for p in made), ""]


FILES_SHOWN = 500  # files the summary lists by name; the rest are counted, and every one is in files.txt


def files_lines(judgement: Judgement) -> list[str]:
    """The summary's list of every file the change touches, under the part of the project each belongs to; past
    ``FILES_SHOWN``, how many are left out, and where the whole list is (``whole_files``)."""
    if not judgement.files:
        return []
    out = ["## " + _("Every file this change touches"), ""]
    shown = 0
    for heading in PARTS:
        mine = [(s, p) for s, p in judgement.files if part(p) == heading]
        listed = mine[:max(0, FILES_SHOWN - shown)]
        shown += len(listed)
        if listed:
            out += [f"### {part_heading(heading)}", "", *(f"- {code_span(p)} ({file_status(s)})" for s, p in listed), ""]
    if shown < len(judgement.files):
        out += [_("%(count)s more of the %(total)s files this change touches are left out here: every one is listed in "
                  "%(file)s, in the check's artifact %(artifact)s.", count=len(judgement.files) - shown,
                  total=len(judgement.files), file="`files.txt`", artifact="`summary`"), ""]
    return out


def whole_files(judgement: Judgement) -> str:
    """Every file the change touches, a line each: its status, a tab, its path (``files.txt``)."""
    return "".join(f"{s}\t{p}\n" for s, p in judgement.files)

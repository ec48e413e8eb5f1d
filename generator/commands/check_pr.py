"""The pull-request check: validate first and always, annotate what the pull request brings, summarise.

``rulebook check-pr --base origin/main`` validates the working tree (a slip that stops loading is
reported like a finding, at its file and line), then the base, and prints GitHub annotations for
every error and for each warning the base did not have (matched by check, file and message, not
line: an edit above a standing warning moves it). Standing and accepted warnings are counted once
in the summary, never annotated (GitHub shows ten annotations a step: a new one must not drown).
The summary leads with the errors, then what the change does to the rules in words, in three groups: the
family's decisions the change records (revisions.yaml, each with its date and why), the corrections (errata.yaml,
each with its evidence) and the other edits, each with the lines it changes; then the words it adds to the house
dictionary. When the change cannot be compared (the base or the head does not load), it says why and still reports.
"""

from __future__ import annotations

import dataclasses
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..book.compare import BOOK, Change, compare, markdown, show
from ..book.files import read_file_text
from ..book.frozen import rewritten
from ..book.library import DATA_DIR, Library, load_library
from ..book.textdiff import escape, mark_words
from ..checks import Finding, run_checks
from ..errors import RulebookError, SourceError, SourceErrors
from ..progress import Report, quiet
from .diff import checkout
from .validate import annotation

DICTIONARY = f"{DATA_DIR}/dictionary.txt"


@dataclass
class Side:
    """One side of the pull request: its library, or why it does not load, and its findings."""

    lib: Library | None
    findings: list[Finding]


def _side(root: Path) -> Side:
    try:
        lib = load_library(root)
    except SourceErrors as exc:  # each slip as an error finding, where it is
        return Side(None, [Finding(e.where.path, e.where.line or 1, "source.unreadable", e.problem)
                           for e in exc.errors])
    return Side(lib, run_checks(lib))


def _record_rewritten(base_root: Path, root: Path, old: Side, head: Side) -> list[Finding]:
    """The head's findings, with an error at each file of a record published at the base that the change touches
    and at each seal of one it changes, where validate did not say so already (a record rewritten together with
    its seal is seen only against the base)."""
    findings = head.findings
    if old.lib is None:
        return findings
    published = [e.id for e in old.lib.book.editions if e.id != old.lib.book.current]
    named = {f.path for f in findings if f.check == "frozen.changed"}
    added = [Finding(path, 1, "frozen.changed", problem)
             for path, problem in rewritten(base_root, root, published) if path not in named]
    if head.lib is not None:  # a seal changed in book.yaml (a first seal, of a record of before seals, aside)
        sealed = {e.id: e.record for e in old.lib.book.editions if e.id in published and e.record is not None}
        for n, e in enumerate(head.lib.book.editions):
            where = head.lib.book_doc.where(("editions", n, "record") if e.record else ("editions", n))
            if e.id in sealed and e.record != sealed[e.id] and (where.path, where.line) not in {
                    (f.path, f.line) for f in findings if f.check == "frozen.changed"}:
                added.append(Finding(where.path, where.line, "frozen.changed", (
                    f"this change changes the seal of {e.id}'s record as published (record: in {where.path}): "
                    "put it back as `rulebook edition new` wrote it; what a published edition printed never changes")))
    return sorted(findings + added)


def _key(f: Finding) -> tuple[str, str, str]:
    return f.check, f.path, f.message


def check_pr(root: Path, base: str, progress: Report = quiet,
             pictures: Path | None = None) -> tuple[int, list[str], str]:
    """(exit code, annotation lines, summary Markdown) for the tree at ``root`` against git ref ``base``;
    ``progress`` is told each stage as it runs. With ``pictures``, the pages the change alters are drawn there,
    before and after (``pictures.py``), if it validates."""
    from .pictures import links_leaving

    progress("validate this change")
    # A source that links out of the project is refused before anything reads it: no finding, summary line or
    # picture may quote what it points to.
    leaving = links_leaving(root)
    head = Side(None, [Finding(path, 1, "source.outside_project", "a link to a file outside the project: put the "
                                                                  "file itself in its place") for path in leaving]
                ) if leaving else _side(root)
    progress("validate this change", final=True)
    with tempfile.TemporaryDirectory() as tmp:
        progress(f"validate {base}")
        try:
            base_root = checkout(base, root, Path(tmp) / "base")
            old = _side(base_root)
        except RulebookError as exc:
            old = Side(None, [])
            base_problem = str(exc)
        else:
            base_problem = "" if old.lib is not None else "the base does not load"
            head.findings = _record_rewritten(base_root, root, old, head)
        progress(f"validate {base}", final=True)
        before = {_key(f) for f in old.findings}
        errors = [f for f in head.findings if f.severity == "error"]
        new = [f for f in head.findings if f.severity == "warning" and _key(f) not in before]
        standing = [f for f in head.findings if f.severity == "warning" and _key(f) in before]
        accepted = [f for f in head.findings if f.severity == "accepted"]
        fixed = len({_key(f) for f in old.findings if f.severity != "accepted"}
                    - {_key(f) for f in head.findings if f.severity != "accepted"})
        out = ["## Check of the book", ""]
        if errors:
            out += [f"**{len(errors)} error{'s' if len(errors) != 1 else ''}** (each is an annotation on its line):", ""]
            out += [f"- `{f.path}:{f.line}` {f.check}: {f.message}" for f in errors] + [""]
        else:
            out += ["No errors.", ""]
        if new:
            out += [f"{len(new)} new warning{'s' if len(new) != 1 else ''}:", ""]
            out += [f"- `{f.path}:{f.line}` {f.check}: {f.message}" for f in new] + [""]
        if head.lib is not None:
            out += [f"Standing warnings (before this change too): {len(standing)}; accepted with a reason: "
                    f"{len(accepted)}; findings this change clears: {fixed}.", ""]
        if head.lib is not None and old.lib is not None:
            out += opened(old.lib, head.lib)
            out += described(old.lib, head.lib, f"What this change does to the rules ({base} → this change)")
            out += dictionary_words(Path(tmp) / "base", root)
        else:
            why = "this change does not load (see the errors above)" if head.lib is None else base_problem
            out += ["### What this change does to the rules", "", f"Not compared: {why}.", ""]
        if pictures is not None:
            out += drawn(root, Path(tmp) / "base", old.lib, head.lib, pictures, errors, base_problem, progress)
    return (1 if errors else 0), [annotation(f) for f in errors + new], "\n".join(out)


def opened(old: Library, new: Library) -> list[str]:
    """Summary lines for a pull request that opens an edition: which, and which edition it freezes as published."""
    if new.book.current == old.book.current:
        return []
    before = {e.id for e in old.book.editions}
    added = [e for e in new.book.editions if e.id not in before]
    lines = [f"**This change opens edition {e.id} ({e.label})**" + (" as the current edition" if e.id == new.book.current
                                                                    else "") + "." for e in added]
    lines += [f"It freezes {old.book.current} ({old.edition.label}) as published: what it prints is recorded in "
              f"`rules_data/frozen/{old.book.current}/`, and a later change to it is an erratum or a revision.", ""]
    return lines


def drawn(root: Path, base: Path, old: Library | None, new: Library | None, folder: Path, errors: list[Finding],
          base_problem: str, progress: Report = quiet) -> list[str]:
    """The summary's section on the pictures: each page drawn, or why none is."""
    from .pictures import draw

    out = ["### Pictures of the pages this change alters", ""]
    if errors or new is None:
        return [*out, "Not drawn: this change has errors, and a picture shows only what validate accepts.", ""]
    if old is None:
        return [*out, f"Not drawn: {base_problem or 'the base does not load'}.", ""]
    try:
        made = draw(root, base, old, new, folder, progress)
    except RulebookError as exc:
        return [*out, f"Not drawn: {escape(str(exc))}", ""]
    if not made:
        return [*out, "The change alters no page of the book or the site.", ""]
    out += [f"In the check's artifact `pictures` (open `index.html`), before and after, the words the change removes "
            f"boxed red and those it adds green: {len(made)} page{'s' if len(made) != 1 else ''}.", ""]
    out += [f"- {escape(p.name)}: " + ", ".join(f"`{f}`" for f in p.before + p.after) for p in made]
    return [*out, ""]


def _listed(record: Any, other: dict[str, list[Change]]) -> list[Change]:
    """The lines of the book's own data that list the game a decision adds or retires (its section's games): the
    decision's, taken from the other edits."""
    if record.kind not in ("game_added", "game_retired") or not record.game:
        return []
    mine = [c for c in other.get(BOOK, []) if re.fullmatch(r"sections\.\d+\.games\.\d+", c.path)
            and record.game in (c.old, c.new)]
    other[BOOK] = [c for c in other.get(BOOK, []) if c not in mine]
    if not other[BOOK]:
        del other[BOOK]
    return mine


def _new(records: list[Any], before: list[Any]) -> list[Any]:
    """The records (errata, revisions) a change adds or rewrites: not in ``before`` as they are."""
    kept = {r.id: r for r in before}
    return [r for r in records if kept.get(r.id) != r]


def _lines(changes: list[Change]) -> list[str]:
    return [f"- {c.text(markdown=True, with_game=not c.game or c.game == BOOK)}" for c in changes]


def _value(published: Any, corrected: Any) -> str:
    if isinstance(published, str) and isinstance(corrected, str):
        return f"“{mark_words(published, corrected)}”"
    return f"{escape(show(published))} → {escape(show(corrected))}"


def described(old: Library, new: Library, heading: str) -> list[str]:
    """What the change does to the rules, as the summary's Markdown: the family's decisions it records (date, why),
    the corrections (kind, evidence), and the other edits, each with the lines it changes, apart."""
    from ..render.views.changes import edition_changes, reader_date

    revisions, errata = _new(new.revisions, old.revisions), _new(new.errata, old.errata)
    summary = compare(old, new)
    here = [r for r in revisions if r.edition == new.edition.id]  # (one filed under another edition: validate's)
    try:  # the lines each record explains; this change's records only (the edition's earlier ones are the base's)
        grouped = edition_changes(dataclasses.replace(new, revisions=here, errata=errata), old)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        # A record validate refuses (an impossible date, a game it does not have): the lines are shown ungrouped, and
        # the errors above say what is wrong; the check still reports.
        grouped = None
    if grouped is None:  # the first edition: nothing before it to set its changes apart from
        return [markdown(summary, heading)]
    out = [f"## {heading}", ""]
    if revisions:
        out += ["### The family's decisions", ""]
        out += [f"- `{r.id}` is filed under edition {r.edition}, not {new.edition.id}, the edition this change makes."
                for r in revisions if r not in here] + ([""] if len(here) < len(revisions) else [])
        for record, decision in zip(here, grouped.decisions, strict=True):
            out += [f"#### {escape(decision.heading)}: {escape(decision.what)}", "",
                    f"Decided {reader_date(record.date)}, in edition {record.edition} (`{record.id}`). "
                    f"Why: {escape(record.why)}", ""]
            out += [*_lines(decision.changes + _listed(record, grouped.other)), ""]
    if errata:
        out += ["### Corrections", ""]
        for e in errata:
            evidence = e.evidence
            cited = f" ({escape(evidence.page)}: “{escape(evidence.words)}”)" if getattr(evidence, "page", None) else ""
            out += [f"- `{e.id}`, in edition {e.edition}, `{e.file}`" + (f" at `{e.path}`" if e.path else "") +
                    f": {_value(e.published, e.corrected)}. Evidence: **{evidence.kind}**{cited}: {escape(evidence.why)}"]
        out.append("")
        for game, changes in grouped.corrections.items():
            out += [f"#### {escape(game)}", "", *_lines(changes), ""]
    if grouped.other:
        out += ["### Other edits", "", "No decision or correction of this change records these.", ""]
        for game, changes in grouped.other.items():
            out += [f"#### {escape(game)}", "", *_lines(changes), ""]
    gone = [r for r in old.revisions if r.id not in {n.id for n in new.revisions}]
    gone += [e for e in old.errata if e.id not in {n.id for n in new.errata}]
    if gone:
        out += ["Records this change removes: " + ", ".join(f"`{r.id}`" for r in gone) + ".", ""]
    return out


def _words(path: Path) -> set[str]:
    if path.is_symlink():  # (one leaving the project is an error of the check; none is read)
        return set()
    try:
        text = read_file_text(path)
    except (OSError, SourceError):
        return set()
    return {line.strip().casefold() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")}


def dictionary_words(base: Path, head: Path) -> list[str]:
    """The summary's lines on the words the change adds to (or removes from) the house dictionary: a word added there
    is no longer a spelling warning anywhere, so a reviewer sees each."""
    before, after = _words(base / DICTIONARY), _words(head / DICTIONARY)
    added, removed = sorted(after - before), sorted(before - after)
    if not (added or removed):
        return []
    out = ["### The house dictionary", ""]
    if added:
        out.append(f"Words this change adds to `{DICTIONARY}` (never again a spelling warning): "
                   + ", ".join(f"**{escape(w)}**" for w in added) + ".")
    if removed:
        out.append(f"Words it removes: {', '.join(f'**{escape(w)}**' for w in removed)}.")
    return [*out, ""]


def run(root: Path, base: str, summary_file: Path | None = None, pictures: Path | None = None) -> int:
    """``rulebook check-pr``: print the annotations, then the summary (or append it to ``summary_file``)."""
    from ..progress import shown

    with shown() as progress:
        code, annotations, summary = check_pr(root, base, progress, pictures)
    print("\n".join(annotations), flush=True)
    if summary_file is not None:
        with open(summary_file, "a", encoding="utf-8") as out:
            out.write(summary + "\n")
    else:
        print(summary)
    return code

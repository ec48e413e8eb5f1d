"""The pull-request check: validate first and always, annotate what the pull request brings, summarise.

``rulebook check-pr --base origin/main`` validates the working tree (a slip that stops loading is
reported like a finding, at its file and line), then the base, and prints GitHub annotations for
every error and for each warning the base did not have (matched by check, file and message, not
line: an edit above a standing warning moves it). Standing and accepted warnings are counted once
in the summary, never annotated (GitHub shows ten annotations a step: a new one must not drown).
The summary leads with the errors, then what the change does to the rules in words; when the
change cannot be compared (the base or the head does not load), it says why and still reports.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from .checks import Finding, run_checks
from .diff import checkout, compare, markdown
from .errors import RulebookError, SourceErrors
from .freeze import rewritten
from .library import Library, load_library
from .progress import Report, quiet
from .report import annotation


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


def check_pr(root: Path, base: str, progress: Report = quiet) -> tuple[int, list[str], str]:
    """(exit code, annotation lines, summary Markdown) for the tree at ``root`` against git ref ``base``;
    ``progress`` is told each stage as it runs."""
    progress("validate this change")
    head = _side(root)
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
            out.append(markdown(compare(old.lib, head.lib), f"What this change does to the rules ({base} → this change)"))
        else:
            why = "this change does not load (see the errors above)" if head.lib is None else base_problem
            out += ["### What this change does to the rules", "", f"Not compared: {why}.", ""]
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

"""The pull-request check: validate first and always, annotate what the pull request brings, summarise.

``rulebook check-pr --base origin/main`` validates the working tree (a slip that stops loading is
reported like a finding, at its file and line), then the base, and prints GitHub annotations for
every error and for each warning the base did not have (matched by check, file and message, not
line: an edit above a standing warning moves it). Standing and accepted warnings are counted once
in the summary, never annotated (GitHub shows ten annotations a step: a new one must not drown).
The summary leads with the errors, then what the change does to the rules in words, in three groups: the
decisions the change records (revisions.yaml, each with its date and why), the corrections (errata.yaml,
each with its evidence) and the other edits, each with the lines it changes; then the words it adds to the house
dictionary. When the change cannot be compared (the base or the head does not load), it says why and still reports.
"""

from __future__ import annotations

import contextlib
import dataclasses
import html
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..book import git
from ..book.compare import BOOK, Change, compare, markdown, show
from ..book.files import MAX_FILE_BYTES, copy_tree, read_file_text, read_source
from ..book.frozen import rewritten
from ..book.library import ACCEPTED, CONFUSABLES, CONTENT_DIR, DATA_DIR, DICTIONARY, SOURCE_DIRS, Library, load_library
from ..book.textdiff import escape, mark_words
from ..checks import listing, run_checks
from ..errors import Problem, RulebookError, SourceError, SourceErrors, clean, no_commands, problem_annotation
from ..progress import Report, quiet
from ..render.site.engine import CONFIG

# The lists the checks read besides the book (generator/checks: editorial.house_words, evidence.confusables,
# checks.accept): a pull request is judged by its base's, and a change to one licenses nothing in the same change.
LISTS = (DICTIONARY, CONFUSABLES, ACCEPTED)


@dataclass
class Side:
    """One side of the pull request: its library, or why it does not load, and its findings."""

    lib: Library | None
    findings: list[Problem]


def _side(root: Path) -> Side:
    try:
        lib = load_library(root)
    except SourceErrors as exc:  # each slip as an error finding, where it is
        return Side(None, [Problem(e.where.path, e.where.line or 1, "source.unreadable", e.problem)
                           for e in exc.errors])
    try:
        return Side(lib, run_checks(lib))
    except RulebookError as exc:  # a check that cannot go on is an error where it stopped, and the check reports
        return Side(lib, _failed(exc))


def _record_rewritten(base_root: Path, root: Path, old: Side, head: Side) -> list[Problem]:
    """The head's findings, with an error at each file of a record published at the base that the change touches
    and at each seal of one it changes, where validate did not say so already (a record rewritten together with
    its seal is seen only against the base)."""
    findings = head.findings
    if old.lib is None:
        return findings
    published = [e.id for e in old.lib.book.editions if e.id != old.lib.book.current]
    named = {f.path for f in findings if f.check == "frozen.changed"}
    added = [Problem(path, 1, "frozen.changed", problem)
             for path, problem in rewritten(base_root, root, published) if path not in named]
    if head.lib is not None:  # a seal changed in book.yaml (a first seal, of a record of before seals, aside)
        sealed = {e.id: e.record for e in old.lib.book.editions if e.id in published and e.record is not None}
        for n, e in enumerate(head.lib.book.editions):
            where = head.lib.book_doc.where(("editions", n, "record") if e.record else ("editions", n))
            if e.id in sealed and e.record != sealed[e.id] and (where.path, where.line) not in {
                    (f.path, f.line) for f in findings if f.check == "frozen.changed"}:
                added.append(Problem(where.path, where.line, "frozen.changed", (
                    f"this change changes the seal of {e.id}'s record as published (record: in {where.path}): "
                    "put it back as `rulebook edition new` wrote it; what a published edition printed never changes")))
    return sorted(findings + added)


def _key(f: Problem) -> tuple[str, str, str]:
    return f.check, f.path, f.message


# -- contributor text in the summary: literal, one line, never markup, HTML or a workflow command ----------------

def _text(value: object) -> str:
    """Text from the sources as literal Markdown on one line: its newlines spaces, its HTML and markup characters
    shown as they are (an erratum's reason with `<!--` must not hide the rest of the summary)."""
    one = clean(" ".join(str(value).split()))
    return escape(html.escape(one, quote=False))


def _marked_block(markdown_text: str) -> str:
    """Markdown of ours quoting the sources (``compare.markdown``) with the sources' HTML made literal."""
    return "\n".join(html.escape(line, quote=False) for line in markdown_text.split("\n"))


def _marked(markdown_line: str) -> str:
    """A line of ours that quotes the sources already made Markdown-literal (textdiff.escape) made HTML-literal
    too, and one line."""
    return html.escape(" ".join(markdown_line.split()), quote=False)


def _code_span(value: object) -> str:
    """Text from the sources as a code span: fenced by more backticks than it holds (CommonMark), one line."""
    one = clean(" ".join(str(value).split()))
    fence = "`" * (max((len(run) for run in re.findall(r"`+", one)), default=0) + 1)
    pad = " " if one.startswith("`") or one.endswith("`") else ""
    return f"{fence}{pad}{one}{pad}{fence}"


# -- every file the change touches, under the part of the project it changes --------------------------------------

PARTS = ("The book's sources", "How the book is checked", "How the book is made", "Around the book")


def part(path: str) -> str:
    """Which part of the project a file belongs to, as the summary groups the files a change touches."""
    if path in LISTS or path.startswith(("generator/checks/", "generator/book/", "schema/", ".github/")):
        return PARTS[1]
    if path.startswith(("content/", f"{DATA_DIR}/")):
        return PARTS[0]
    if path.startswith(("templates/", "generator/")) or path in (CONFIG, "pyproject.toml", "requirements.lock"):
        return PARTS[2]
    return PARTS[3]


def touched(root: Path, base: str) -> list[tuple[str, str]]:
    """(status, path) of every file the working tree at ``root`` changes from ``base`` (added, modified, deleted,
    or new and not yet committed); a GitError if git cannot say (a check that cannot list them judges nothing)."""
    words = {"A": "added", "D": "deleted", "M": "changed", "T": "changed", "?": "added"}
    return sorted({(words.get(status, "changed"), path) for status, path in git.changed(root, base)},
                  key=lambda sp: sp[1])


def files_touched(files: list[tuple[str, str]]) -> list[str]:
    """The summary's list of every file the change touches, under the part of the project each belongs to."""
    if not files:
        return []
    out = ["## Every file this change touches", ""]
    for heading in PARTS:
        mine = [(s, p) for s, p in files if part(p) == heading]
        if mine:
            out += [f"### {heading}", "", *(f"- {_code_span(p)} ({s})" for s, p in mine), ""]
    return out


# -- the lists the checks read: judged by the base's, each change to one shown with what it would silence --------

@dataclass(frozen=True)
class ListEntry:
    """One entry of a list the checks read that the change adds, removes or rewrites, at its line."""

    path: str
    line: int
    what: str  # 'adds the word “foo”', plain text (escaped where it is printed)
    words: frozenset[str] = frozenset()  # a finding naming one of these is one this entry decides (a word, a group)
    grant: tuple[str, str, str | None] | None = None  # an acceptance: (check, file, matching)

    def decides(self, f: Problem) -> bool:
        """Whether the finding ``f`` is one this entry, and no other list, makes or silences."""
        if self.grant is not None:
            check, file, matching = self.grant
            return f.check == check and f.path == file and (matching is None or matching in f.message)
        said = set(re.findall(r"\w+(?:['’]\w+)*", f.message.casefold().replace("’", "'")))
        return bool(self.words & said)


def _listed_lines(root: Path, name: str) -> list[tuple[int, str]]:
    """A list's entries with their lines (comments and blank lines aside); none if it is not a plain file here."""
    path = root / name
    if path.is_symlink() or not path.is_file():  # (one leaving the project is an error of the check; none is read)
        return []
    try:
        text = read_file_text(path)
    except (OSError, SourceError):
        return []
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]


def _gone_line(root: Path, name: str, line: int) -> int:
    """Where an entry the change removes was, as a line of the file it leaves (its last line, if shorter)."""
    try:
        count = len(read_file_text(root / name).splitlines())
    except (OSError, SourceError):
        return 1
    return max(1, min(line, count))


def _text_entries(base: Path, head: Path, name: str, key: Any, said: str) -> list[ListEntry]:
    """The entries of a one-entry-a-line list the change adds or removes (``key``: an entry as compared)."""
    before = {key(text): (n, text) for n, text in _listed_lines(base, name)}
    after = {key(text): (n, text) for n, text in _listed_lines(head, name)}
    out = [ListEntry(name, n, f"adds {said} “{text}”", frozenset(k) if isinstance(k, frozenset) else frozenset({k}))
           for k, (n, text) in after.items() if k not in before]
    out += [ListEntry(name, _gone_line(head, name, n), f"removes {said} “{text}”",
                      frozenset(k) if isinstance(k, frozenset) else frozenset({k}))
            for k, (n, text) in before.items() if k not in after]
    return out


def _grants(lib: Library) -> dict[tuple[str, str, str | None], tuple[int, str, str]]:
    """Each file an acceptance covers: (check, file, matching) -> (line, edition, because)."""
    out = {}
    for i, acc in enumerate(lib.accepted):
        for j, file in enumerate(acc.files):
            where = lib.accepted_doc.where(("accepted", i, "files", j)) if lib.accepted_doc else None
            out[(acc.check, file, acc.matching)] = (where.line if where else 1, acc.edition, acc.because)
    return out


def list_changes(base: Path, head: Path, old: Library, new: Library) -> list[ListEntry]:
    """Every entry of a list the checks read that the change adds, removes or rewrites."""
    def word(text: str) -> str:
        return text.casefold()

    def group(text: str) -> frozenset[str]:
        return frozenset(w.lower().replace("’", "'") for w in text.split())

    out = _text_entries(base, head, DICTIONARY, word, "the word") + _text_entries(base, head, CONFUSABLES, group,
                                                                                   "the group of confusable words")
    before, after = _grants(old), _grants(new)
    for (check, file, matching), (line, edition, because) in after.items():
        words = f" (findings with “{matching}”)" if matching else ""
        was = before.get((check, file, matching))
        if was is None:
            out.append(ListEntry(ACCEPTED, line, f"accepts {check} in {file}{words} from {edition}: “{because}”",
                                 grant=(check, file, matching)))
        elif was[1:] != (edition, because):
            out.append(ListEntry(ACCEPTED, line, f"rewrites the acceptance of {check} in {file}{words}: from "
                                 f"{edition}, “{because}”", grant=(check, file, matching)))
    out += [ListEntry(ACCEPTED, _gone_line(head, ACCEPTED, line), f"no longer accepts {check} in {file}",
                      grant=(check, file, matching))
            for (check, file, matching), (line, _, _) in before.items() if (check, file, matching) not in after]
    # book.yaml's documents: when the book took each in (transcribed_in) decides which added games need no decision.
    was = {d.seed: d for d in old.book.sources}
    for n, d in enumerate(new.book.sources):
        line = new.book_doc.where(("sources", n)).line
        seed = frozenset({d.seed.casefold(), d.seed.casefold().rsplit(".", 1)[0]})
        if d.seed not in was:
            out.append(ListEntry(f"{DATA_DIR}/book.yaml", line, f"adds the document {d.seed}, taken in in "
                                 f"{d.transcribed_in}", seed))
        elif was[d.seed].transcribed_in != d.transcribed_in:
            out.append(ListEntry(f"{DATA_DIR}/book.yaml", line, f"changes the edition that took in {d.seed}: "
                                 f"{was[d.seed].transcribed_in} → {d.transcribed_in}", seed))
    return sorted(out, key=lambda e: (e.path, e.line, e.what))


def judged(base_root: Path, old: Side, head: Side) -> tuple[list[Problem], list[tuple[ListEntry, list[Problem]]]]:
    """The head's findings as the base's lists judge them (the head's own, for a finding in a list file), and each
    entry the change makes to a list with the findings of the change it would silence."""
    if head.lib is None or old.lib is None:
        return head.findings, []
    entries = list_changes(base_root, head.lib.root, old.lib, head.lib)
    if not entries:
        return head.findings, []
    was = {d.seed: d for d in old.lib.book.sources}  # a document the base has: when the base says it was taken in
    book = head.lib.book.model_copy(update={"sources": [was.get(d.seed, d) for d in head.lib.book.sources]})
    lib = dataclasses.replace(head.lib, lists_from=base_root, accepted=old.lib.accepted, accepted_doc=old.lib.accepted_doc,
                              book=book)
    by_base = run_checks(lib)
    verdict = sorted([f for f in by_base if f.path not in LISTS] + [f for f in head.findings if f.path in LISTS])
    live = {_key(f) for f in head.findings if f.severity != "accepted"}
    silenced = [f for f in by_base if f.severity != "accepted" and f.path not in LISTS and _key(f) not in live]
    return verdict, [(e, [f for f in silenced if e.decides(f)]) for e in entries]


CHECKS_CODE = ("generator/checks/", "generator/book/")  # the code that reads the book and judges it


def with_lists(root: Path, lists: Path, dest: Path) -> Path:
    """The change's sources at ``root`` (what the book is made of) copied into ``dest``, each list the checks read
    (``LISTS``) the one at ``lists`` (the base's), or none where that has none."""
    for name in (DATA_DIR, CONTENT_DIR):
        if (root / name).is_dir():
            copy_tree(root / name, dest / name, name, root, MAX_FILE_BYTES, skip=("__pycache__",))
    for name in LISTS:
        (dest / name).unlink(missing_ok=True)
        if (lists / name).is_file() and not (lists / name).is_symlink():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            (dest / name).write_bytes(read_source(lists / name, name, lists))
    return dest


def by_base_code(ref: str, root: Path, tmp: Path, findings: list[Problem], before: set[tuple[str, str, str]],
                 code: list[str], lists: Path) -> list[Problem]:
    """Errors at each file of the checks' code the change edits (``code``) when the base's own code, run on this
    change's sources with the base's lists (at ``lists``), finds what this change brings and its own code no longer
    does: a change to how the book is checked, its code or its lists, licenses nothing in the same change. None when
    the base has no code of its own or cannot run."""
    if not code:
        return []
    base_code = tmp / "base-code"
    try:
        # The base's code reads the base's lists, as the change's code does (``judged``): a list edited in the same
        # change as the code would otherwise silence, under the base's code, what the code change silences under its own.
        judged_root = with_lists(root, lists, tmp / "judged")
        git.unpack(root, ref, ("generator",), base_code)
        env = {**os.environ, "PYTHONPATH": str(base_code)}
        done = subprocess.run([sys.executable, "-m", "generator", "--root", str(judged_root), "validate", "--format",
                               "json"],
                              capture_output=True, text=True, cwd=base_code, env=env, timeout=600)
        found = json.loads(done.stdout)
    except (subprocess.TimeoutExpired, OSError, ValueError, RulebookError) as exc:
        # The change edits the checks' code, and the base's code could not judge it: what the change's own code says
        # is not enough (it may have been written to pass), so the check fails and says why.
        return [not_judged(f"the base's code could not be run on this change, which edits the checks' code "
                           f"({_why(exc)}): a maintainer must run `rulebook validate` with {ref}'s code on it")]
    # Matched by check, file and line, not message: a change may reword what a check says, not what it finds.
    live = {(f.check, f.path, f.line) for f in findings if f.severity != "accepted"}
    silenced = sorted({(f["check"], f["path"], f["message"], f["line"]) for f in found
                       if isinstance(f, dict) and f.get("severity") in ("error", "warning")
                       and (f.get("check"), f.get("path"), f.get("message")) not in before
                       and (f.get("check"), f.get("path"), f.get("line")) not in live})
    if not silenced:
        return []
    said = listing(f"{path}:{line} {check}" for check, path, _, line in silenced)
    return [Problem(path, 1, "code.licenses_own_change", (
        f"this change edits the checks' code, and the base's code finds in this same change what its own no longer "
        f"does ({said}): land the change to the checks first, on its own, then the change it allows"), "error")
        for path in code]


def _why(exc: BaseException) -> str:
    """What stopped a step of the check, in a few words."""
    if isinstance(exc, subprocess.TimeoutExpired):
        return f"no answer in {exc.timeout:.0f} s"
    if isinstance(exc, ValueError):
        return "its answer was not the findings it should print"
    return clean(" ".join(str(exc).split())[:300]) or type(exc).__name__


def not_judged(what: str) -> Problem:
    """An error for a step the check could not carry out: a check never passes what it could not judge."""
    return Problem("", 0, "check.not_judged", what, "error")


def list_findings(entries: list[tuple[ListEntry, list[Problem]]], standing: set[tuple[str, str, str]]) -> list[Problem]:
    """Each list entry as a finding at its line: an error where it silences what this same change brings (a list
    licenses nothing in the change that edits it), else a warning for the reviewer to read."""
    out = []
    for e, silenced in entries:
        brought = [f for f in silenced if _key(f) not in standing]
        if brought:
            said = listing(f"{f.path}:{f.line} {f.check}" for f in brought)
            out.append(Problem(e.path, e.line, "list.licenses_own_change", (
                f"this change {e.what}, which would silence what the same change brings ({said}): the change is "
                "judged by the lists of its base; land the list's change first, on its own, then the change it "
                "allows"), "error"))
        else:
            out.append(Problem(e.path, e.line, "list.changed", (
                f"this change {e.what}: a list the checks read, which judges the next changes once it has landed"
                + (f"; it silences {len(silenced)} standing finding{'s' if len(silenced) != 1 else ''}" if silenced
                   else "")), "warning"))
    return out


def how_checked(entries: list[tuple[ListEntry, list[Problem]]], standing: set[tuple[str, str, str]],
                code: list[str]) -> list[str]:
    """The summary's section on what the change does to the way the book is checked: each list entry, with the
    findings it would silence, and the checks' code it changes."""
    if not entries and not code:
        return []
    out = ["## How the book is checked", ""]
    if entries:
        out += ["This change edits lists the checks read. It is judged by the base's lists: an entry licenses nothing "
                "in the change that brings it (land it first, on its own).", ""]
    for e, silenced in entries:
        out.append(f"- {_code_span(f'{e.path}:{e.line}')} {_text(e.what)}" + (":" if silenced else "; it silences nothing."))
        out += [f"  - would silence {_code_span(f'{f.path}:{f.line}')} {f.check}: {_text(f.message)}"
                + (" (standing)" if _key(f) in standing else " (**this change's**)") for f in silenced[:20]]
        if len(silenced) > 20:
            out.append(f"  - and {len(silenced) - 20} more")
    if code:
        out += [""] * bool(entries) + ["The change edits the code of the checks or of the book's reading: its sources are judged by the "
                "base's code too, and what that finds and the change's code does not is an error "
                "(code.licenses_own_change):", ""] + [f"- {_code_span(p)}" for p in code]
    return [*out, ""]


def _failed(exc: RulebookError) -> list[Problem]:
    """What stopped a stage of the check, as error findings at their lines (a check that fails always says where)."""
    if isinstance(exc, SourceErrors):
        return [Problem(e.where.path, e.where.line or 1, "check.failed", e.problem) for e in exc.errors]
    if isinstance(exc, SourceError):
        return [Problem(exc.where.path, exc.where.line or 1, "check.failed", exc.problem)]
    return [Problem("", 0, "check.failed", str(exc))]


def _annotation(f: Problem) -> str:
    """A finding as a workflow command; one that no file holds is annotated on the run, not on a line."""
    if f.path:
        return problem_annotation(dataclasses.replace(f, line=max(1, f.line)))  # a file's line, never 0
    return problem_annotation(dataclasses.replace(f, path="-", line=1)).replace("file=-,line=1,", "", 1)


def _where(f: Problem) -> str:
    return _code_span(f"{f.path}:{f.line}") + " " if f.path else ""


def check_pr(root: Path, base: str, progress: Report = quiet,
             pictures: Path | None = None) -> tuple[int, list[str], str]:
    """(exit code, annotation lines, summary Markdown) for the tree at ``root`` against git ref ``base``;
    ``progress`` is told each stage as it runs. With ``pictures``, the pages the change alters are drawn there,
    before and after (``pictures.py``), if it validates. Whatever fails, the summary is written, errors first."""
    code, annotations, summary, _ = judge(root, base, progress, pictures)
    return code, annotations, summary


def judge(root: Path, base: str, progress: Report = quiet,
          pictures: Path | None = None) -> tuple[int, list[str], str, list[str]]:
    """``check_pr``'s answer, and what the check could not do (``not_judged``), each said in one line."""
    from .pictures import checkout_made, links_leaving

    progress("validate this change")
    # A source that links out of the project is refused before anything reads it: no finding, summary line or
    # picture may quote what it points to.
    leaving = links_leaving(root)
    head = Side(None, [Problem(path, 1, "source.outside_project", "a link to a file outside the project: put the "
                                                                  "file itself in its place") for path in leaving]
                ) if leaving else _side(root)
    progress("validate this change", final=True)
    failed: list[Problem] = []
    entries: list[tuple[ListEntry, list[Problem]]] = []
    body: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        progress(f"validate {base}")
        base_root = Path(tmp) / "base"
        try:
            git.unpack(root, base, SOURCE_DIRS, base_root)
            if pictures is not None:  # the base's pages are drawn by its own code, templates and settings
                checkout_made(base, root, base_root)
            old = _side(base_root)
        except RulebookError as exc:
            old = Side(None, [])
            base_problem = str(exc)
            failed.append(not_judged(f"could not read the base {base}: {clean(str(exc))}: fetch it (for example "
                                     f"`git fetch origin main`) or name a ref this repository has"))
        else:
            base_problem = "" if old.lib is not None else "the base does not load"
            if old.lib is None:
                first = next(iter(old.findings), None)
                said = f" ({first.path}:{first.line}: {first.message})" if first else ""
                failed.append(not_judged(f"the base {base} does not load{said}, so this change cannot be compared "
                                         "with it: mend the base first"))
            try:
                findings, entries = judged(base_root, old, head)
                head.findings = _record_rewritten(base_root, root, old, Side(head.lib, findings))
            except RulebookError as exc:
                failed += _failed(exc)
        progress(f"validate {base}", final=True)
        before = {_key(f) for f in old.findings if f.severity != "accepted"}
        head.findings = sorted(head.findings + list_findings(entries, before))
        files: list[tuple[str, str]] = []
        if not base_problem:
            try:
                files = touched(root, base)
            except RulebookError as exc:
                failed.append(not_judged(str(exc)))
        checks_code = [p for s, p in files if p.startswith(CHECKS_CODE) and p.endswith(".py") and s != "deleted"]
        if checks_code and head.lib is not None and old.lib is not None:
            progress(f"validate this change by {base}'s code")
            head.findings = sorted(head.findings + by_base_code(base, root, Path(tmp), head.findings, before,
                                                                checks_code, base_root))
            progress(f"validate this change by {base}'s code", final=True)
        try:
            if head.lib is not None and old.lib is not None:
                body += opened(old.lib, head.lib)
                body += described(old.lib, head.lib, f"What this change does to the rules ({base} → this change)")
                # A game validate refuses (its errors above say why) has its facts left unstated.
                with contextlib.suppress(ValueError, KeyError, IndexError, TypeError, AttributeError):
                    body += new_games(old.lib, head.lib)
                body += dictionary_words(base_root, root)
            else:
                why = "this change does not load (see the errors above)" if head.lib is None else base_problem
                body += ["### What this change does to the rules", "", f"Not compared: {_text(why)}.", ""]
        except RulebookError as exc:
            failed += _failed(exc)
        body += how_checked(entries, before, [p for s, p in files if part(p) == PARTS[1] and p not in LISTS])
        errors = [f for f in head.findings if f.severity == "error"] + failed
        made_files = [p for _, p in files if part(p) == PARTS[2]]
        if pictures is None and made_files:
            body += ["## How the book is made", "", "This change edits what the book is made with (code, templates, "
                     "styles, settings); run the check with --pictures to see the pages whose output differs.", "",
                     *(f"- {_code_span(p)}" for p in made_files), ""]
        if pictures is not None:
            try:
                body += drawn(root, base_root, old.lib, head.lib, pictures, errors, base_problem, progress, made_files)
            except NotDrawn as exc:  # asked for, and not drawn: the check did not do what it was asked
                failed.append(not_judged(f"the pictures were asked for and not drawn: {exc}"))
                errors += failed[-1:]
            except RulebookError as exc:
                failed += _failed(exc)
                errors += failed[-1:]
        body += files_touched(files)
    new = [f for f in head.findings if f.severity == "warning" and _key(f) not in before]
    standing = [f for f in head.findings if f.severity == "warning" and _key(f) in before]
    accepted = [f for f in head.findings if f.severity == "accepted"]
    fixed = len({_key(f) for f in old.findings if f.severity != "accepted"}
                - {_key(f) for f in head.findings if f.severity != "accepted"})
    out = ["## Check of the book", ""]
    if errors:
        out += [f"**{len(errors)} error{'s' if len(errors) != 1 else ''}** (each is an annotation on its line):", ""]
        out += [f"- {_where(f)}{f.check}: {_text(f.message)}" for f in errors] + [""]
    else:
        out += ["No errors.", ""]
    if new:
        out += [f"{len(new)} new warning{'s' if len(new) != 1 else ''}:", ""]
        out += [f"- {_where(f)}{f.check}: {_text(f.message)}" for f in new] + [""]
    if head.lib is not None:
        out += [f"Standing warnings (before this change too): {len(standing)}; accepted with a reason: "
                f"{len(accepted)}; findings this change clears: {fixed}.", ""]
    undone = [f.message for f in errors if f.check == "check.not_judged"]
    return (1 if errors else 0), [_annotation(f) for f in errors + new], "\n".join(out + body), undone


def opened(old: Library, new: Library) -> list[str]:
    """Summary lines for a pull request that opens an edition: which, and which edition it freezes as published."""
    if new.book.current == old.book.current:
        return []
    before = {e.id for e in old.book.editions}
    added = [e for e in new.book.editions if e.id not in before]
    lines = [f"**This change opens edition {_text(e.id)} ({_text(e.label)})**" + (" as the current edition" if e.id == new.book.current
                                                                    else "") + "." for e in added]
    lines += [f"It freezes {_text(old.book.current)} ({_text(old.edition.label)}) as published: what it prints is recorded in "
              f"`rules_data/frozen/{old.book.current}/`, and a later change to it is an erratum or a revision.", ""]
    return lines


def _restyled(names: list[str], lib: Library) -> str:
    """The pages whose output a change of how the book is made alters, said in one line: every game page, or each."""
    games = [n for n in names if n.startswith("site page games/")]
    book = [n for n in names if n.startswith("book ")]
    parts = []
    if games and len(games) >= len(lib.games):
        parts.append(f"every game page of the site ({len(games)} of {len(lib.games)})")
    elif games:
        parts.append(f"{len(games)} game page{'s' if len(games) != 1 else ''} of the site")
    others = [n for n in names if n.startswith("site page ") and n not in games]
    if others:
        parts.append(f"{len(others)} other page{'s' if len(others) != 1 else ''} of the site")
    if book:
        parts.append(f"{len(book)} page{'s' if len(book) != 1 else ''} of the book ("
                     + ", ".join(_text(n.removeprefix("book ")) for n in book[:6]) + (", …" if len(book) > 6 else "")
                     + ")")
    return "; ".join(parts)


def alike_lines(groups: list[Any], lib: Library) -> list[str]:
    """The summary's lines on pages changed alike (``pictures.alike``): one line a change, where it is (every game
    page of the book and the site, or how many pages), a few drawn and how many left out."""
    from .pictures import FEW, said_alike

    by_change: dict[Any, list[Any]] = {}
    for g in groups:
        by_change.setdefault(g.change, []).append(g)
    out = []
    for change, found in by_change.items():
        every = [g.kind for g in found if lib.games and set(lib.games) <= g.games]
        where = [f"every game page of the {' and the '.join(every)}"] if every else []
        where += [f"{len(g.names)} pages of the {g.kind}" for g in found if g.kind not in every]
        left = "; ".join(f"{len(g.names) - FEW} of the {g.kind}'s left out ("
                         + ", ".join(_text(n) for n in g.names[FEW:FEW + 6]) + (", …" if len(g.names) > FEW + 6 else "")
                         + ")" for g in found)
        out.append(f"- The same change on {' and '.join(where)}: {_text(said_alike(change))}. The first {FEW} of "
                   + " and of ".join(f"the {g.kind}'s {len(g.names)}" for g in found) + f" are drawn below; {left}.")
    return [*out, ""] if out else []


class NotDrawn(RulebookError):
    """The pictures were asked for and could not be drawn (the browser or the renders failed)."""


def drawn(root: Path, base: Path, old: Library | None, new: Library | None, folder: Path, errors: list[Problem],
          base_problem: str, progress: Report = quiet, made_files: list[str] | None = None) -> list[str]:
    """The summary's sections on how the book is made (the files of its making the change touches, the pages whose
    output they alter) and on the pictures: each page drawn, or why none is."""
    from .pictures import FEW, draw

    made = [f"- {_code_span(p)}" for p in made_files or []]
    head = ["## How the book is made", "", "This change edits what the book is made with (code, templates, styles, "
            "settings): the pages are drawn before by the base's own, after by the change's.", "", *made, ""] if made \
        else []
    out = ["### Pictures of the pages this change alters", ""]
    if errors or new is None:
        return [*head, *out, "Not drawn: this change has errors, and a picture shows only what validate accepts.", ""]
    if old is None:
        return [*head, *out, f"Not drawn: {_text(base_problem or 'the base does not load')}.", ""]
    edited = {c.game_id for c in compare(old, new).changes if c.game_id}  # each of their pages is drawn
    try:
        result = draw(root, base, old, new, folder, progress, edited)
    except RulebookError as exc:
        raise NotDrawn(clean(str(exc))) from None
    if head and result.made_differently:
        # Every page whose output differs, by its words or not (a template renaming a box changes the words of
        # every game page; a style, none): said as a whole, and a few of those whose words are the same drawn.
        worded = [re.sub(r" \((?:new|gone|page \d+ before)\)$", "", p.name) for p in result.pictures
                  if not p.name.endswith("(its output)")] + [n for g in result.alike for n in g.names]
        differing = list(dict.fromkeys(worded + result.restyled))
        head[-1:] = ["", f"Pages whose output differs: {_restyled(differing, new)}"
                     + (f"; {min(len(result.restyled), FEW)} of the {len(result.restyled)} whose words are the same "
                        "drawn below." if result.restyled else "."), ""] if differing else [
            "", "No page's output differs.", ""]
    out += alike_lines(result.alike, new)
    pictures = result.pictures
    if not pictures:
        return [*head, *out, "The change alters no page of the book or the site.", ""]
    out += [f"In the check's artifact `pictures` (open `index.html`), before and after, the words the change removes "
            f"boxed red and those it adds green: {len(pictures)} page{'s' if len(pictures) != 1 else ''}.", ""]
    out += [f"- {_text(p.name)}: " + ", ".join(_code_span(f) for f in p.before + p.after) for p in pictures]
    return [*head, *out, ""]


def _listing_lines(record: Any, other: dict[str, list[Change]]) -> list[Change]:
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
    return [f"- {_marked(c.text(markdown=True, with_game=not c.game or c.game == BOOK))}" for c in changes]


def _value(published: Any, corrected: Any) -> str:
    if isinstance(published, str) and isinstance(corrected, str):
        return f"“{_marked(mark_words(published, corrected))}”"
    return f"{_text(show(published))} → {_text(show(corrected))}"


def described(old: Library, new: Library, heading: str) -> list[str]:
    """What the change does to the rules, as the summary's Markdown: the book's decisions it records (date, why),
    the corrections (kind, evidence), and the other edits, each with the lines it changes, apart."""
    from ..render.views.changes import edition_changes, reader_date
    from ..render.views.describe import possessive

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
        return [_marked_block(markdown(summary, heading))]
    out = [f"## {heading}", ""]
    if revisions:
        out += [f"### {_text(possessive(new.book.decided_by, start=True))} decisions", ""]
        out += [f"- {_code_span(r.id)} is filed under edition {r.edition}, not {new.edition.id}, the edition this change makes."
                for r in revisions if r not in here] + ([""] if len(here) < len(revisions) else [])
        for record, decision in zip(here, grouped.decisions, strict=True):
            out += [f"#### {_text(decision.heading)}: {_text(decision.what)}", "",
                    f"Decided {reader_date(record.date)}, in edition {_text(record.edition)} ({_code_span(record.id)}). "
                    f"Why: {_text(record.why)}", ""]
            out += [*_lines(decision.changes + _listing_lines(record, grouped.other)), ""]
    if errata:
        out += ["### Corrections", ""]
        for e in errata:
            evidence = e.evidence
            at = {"index": "its line of the index", "sheet": "its score sheet"}.get(getattr(evidence, "place", ""), "")
            cited = (f" ({_text(evidence.page)}{', ' + at if at else ''}: “{_text(evidence.words)}”)"
                     if getattr(evidence, "page", None) else "")
            out += [f"- {_code_span(e.id)}, in edition {_text(e.edition)}, {_code_span(e.file)}" + (f" at {_code_span(e.path)}" if e.path else "")
                    + f": {_value(e.published, e.corrected)}. Evidence: **{_text(evidence.kind)}**{cited}: "
                    f"{_text(evidence.why)}"]
        out.append("")
        for game, changes in grouped.corrections.items():
            out += [f"#### {_text(game)}", "", *_lines(changes), ""]
    if grouped.other:
        out += ["### Other edits", "", "No decision or correction of this change records these.", ""]
        for game, changes in grouped.other.items():
            out += [f"#### {_text(game)}", "", *_lines(changes), ""]
    gone = [r for r in old.revisions if r.id not in {n.id for n in new.revisions}]
    gone += [e for e in old.errata if e.id not in {n.id for n in new.errata}]
    if gone:
        out += ["Records this change removes: " + ", ".join(_code_span(r.id) for r in gone) + ".", ""]
    return out


def new_games(old: Library, new: Library) -> list[str]:
    """The summary's lines on each game the change adds: its facts as its page states them (the page's own "at a
    glance" rows: players, equipment, deal, goal...), and, in one line, why the book's later pages move."""
    from ..render.views.pages import game_page

    order = [g for section in new.book.sections for g in section.games if g in new.games]
    added = [g for g in order if g not in old.games]
    if not added:
        return []
    out = ["### Games this change adds", ""]
    for gid in added:
        gs = new.games[gid]
        page = game_page(new, gs)
        section = next(s for s in new.book.sections if gid in s.games)
        later = order[order.index(gid) + 1:]
        out += [f"#### {_text(gs.game.heading())}", "", "As its page states it:", ""]
        out += [f"- {_text(label)}: {_text(text)}" for label, text in page.main.glance]
        out += [f"- Variants: {', '.join(_text(v.title) for v, _ in page.variants)}" if page.variants else ""]
        where = (f"before {_text(new.games[later[0]].game.heading())}" if later else "at the end of the games")
        out += ["", f"Its page comes in “{_text(section.title)}”, {where}: "
                + (f"the {len(later)} game{'s' if len(later) != 1 else ''} after it, and every page after them "
                   "(the index, what changed), move on by its pages, and the contents and index give their new page "
                   "numbers." if later else "the pages after it (the index, what changed) move on by its pages."), ""]
    return [line for n, line in enumerate(out) if line or not (n and out[n - 1] == "")]


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
                   + ", ".join(f"**{_text(w)}**" for w in added) + ".")
    if removed:
        out.append(f"Words it removes: {', '.join(f'**{_text(w)}**' for w in removed)}.")
    return [*out, ""]


def run(root: Path, base: str, summary_file: Path | None = None, pictures: Path | None = None) -> int:
    """``rulebook check-pr``: print the annotations, then the summary (or append it to ``summary_file``)."""
    from ..progress import shown
    from .pictures import need_playwright

    if pictures is not None:
        need_playwright()  # said before anything is judged: the pictures cannot be drawn without it
    with shown() as progress:
        code, annotations, summary, undone = judge(root, base, progress, pictures)
    print("\n".join(annotations), flush=True)
    summary = no_commands(summary)  # contributor text never runs as a workflow command, printed or in the file
    if summary_file is not None:
        with open(summary_file, "a", encoding="utf-8") as out:
            out.write(summary + "\n")
    else:
        print(summary)
    for what in undone:  # a check that could not judge never passes: each step it could not do, in a line
        print(f"error: check-pr could not judge this change: {clean(what)}", file=sys.stderr)
    return code

"""What a pull request does and what is wrong with it: its findings, as the base's lists and code judge them.

``judge_change`` validates the working tree (a slip that stops loading is a finding at its file and line), then the
base, unpacked from git; it judges the change's findings by the base's lists (``lists.py``), adds an error at each
file of a published record the change touches, and, when the change edits the checks' own code, runs the base's code
on the change too. What it finds, and each step it could not carry out (a check never passes what it could not
judge), is a ``Judgement``, which the summary says in words."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ...book import git
from ...book.files import read_file_text
from ...book.frozen import rewritten
from ...book.library import CONTENT_DIR, DATA_DIR, DICTIONARY, SOURCE_DIRS, Library, load_library
from ...checks import listing, run_checks
from ...errors import Problem, RulebookError, SourceError, SourceErrors, clean
from ...progress import Report, quiet
from ...render.site.engine import CONFIG
from .data import is_data, needs_maintainer
from .editions import entries_rewritten
from .lists import LISTS, ListEntry, finding_key, judge_by_base_lists, list_findings, with_lists

SOURCES = (DATA_DIR, CONTENT_DIR, "templates", CONFIG)  # the book's sources, as the pictures draw them
MADE = ("generator", "templates", CONFIG, "pyproject.toml", "requirements.lock")  # what the book is made with
CHECKS_CODE = ("generator/checks/", "generator/book/")  # the code that reads the book and judges it
PARTS = ("The book's sources", "How the book is checked", "How the book is made", "Around the book")
BASE_CODE_UNRUN = "the base's code could not be run"  # how the check says it could not run the base's code
def part(path: str) -> str:
    """Which part of the project a file belongs to, as the summary groups the files a change touches."""
    if path in LISTS or path.startswith(("generator/checks/", "generator/book/", "schema/", ".github/")):
        return PARTS[1]
    if path.startswith(("content/", f"{DATA_DIR}/")):
        return PARTS[0]
    if path.startswith(("templates/", "generator/")) or path in (CONFIG, "pyproject.toml", "requirements.lock"):
        return PARTS[2]
    return PARTS[3]


def files_touched(root: Path, base: str) -> list[tuple[str, str]]:
    """(status, path) of every file the working tree at ``root`` changes from ``base`` (added, modified, deleted,
    or new and not yet committed); a GitError if git cannot say (a check that cannot list them judges nothing)."""
    words = {"A": "added", "D": "deleted", "M": "changed", "T": "changed", "?": "added"}
    return sorted({(words.get(status, "changed"), path) for status, path in git.changed(root, base)},
                  key=lambda sp: sp[1])


def links_leaving(root: Path) -> list[str]:
    """The book's source files (``SOURCES``) that are links to somewhere outside the project, by their paths."""
    top = root.resolve()
    found = []
    for name in SOURCES:
        start = root / name
        paths = [start] if not start.is_dir() or start.is_symlink() else [start, *start.rglob("*")]
        for path in paths:
            if path.is_symlink():
                target = path.resolve()
                if target != top and top not in target.parents:
                    found.append(path.relative_to(root).as_posix())
    return sorted(found)


@dataclass
class Side:
    """One side of the pull request: its library, or why it does not load, and its findings."""

    lib: Library | None
    findings: list[Problem]


def load_side(root: Path) -> Side:
    """The book at ``root`` loaded and validated; a slip that stops loading is an error finding where it is."""
    try:
        lib = load_library(root)
    except SourceErrors as exc:  # each slip as an error finding, where it is
        return Side(None, [Problem(e.where.path, e.where.line or 1, "source.unreadable", e.problem)
                           for e in exc.errors])
    try:
        return Side(lib, run_checks(lib))
    except RulebookError as exc:  # a check that cannot go on is an error where it stopped, and the check reports
        return Side(lib, failure_findings(exc))


def failure_findings(exc: RulebookError) -> list[Problem]:
    """What stopped a stage of the check, as error findings at their lines (a check that fails always says where)."""
    if isinstance(exc, SourceErrors):
        return [Problem(e.where.path, e.where.line or 1, "check.failed", e.problem) for e in exc.errors]
    if isinstance(exc, SourceError):
        return [Problem(exc.where.path, exc.where.line or 1, "check.failed", exc.problem)]
    return [Problem("", 0, "check.failed", str(exc))]


def not_judged(what: str) -> Problem:
    """An error for a step the check could not carry out: a check never passes what it could not judge."""
    return Problem("", 0, "check.not_judged", what, "error")


def unpack_base(root: Path, base: str, dest: Path, made: bool = False) -> None:
    """The base's sources unpacked from git into ``dest``; with ``made``, what it is made with too (``MADE``: its
    code, templates and settings, those it has), so that its pages are drawn by its own making, not the change's."""
    git.unpack(root, base, SOURCE_DIRS, dest)
    listed = git.present(root, base, MADE) if made else []
    if listed:
        git.unpack(root, base, listed, dest)


def with_rewritten_records(base_root: Path, root: Path, old: Library | None, new: Library | None,
                     findings: list[Problem]) -> list[Problem]:
    """The change's ``findings``, with an error at each file of a record published at the base that the change touches
    and at each seal of one it changes, where validate did not say so already (a record rewritten together with
    its seal is seen only against the base)."""
    if old is None:
        return findings
    published = [e.id for e in old.book.editions if e.id != old.book.current]
    named = {f.path for f in findings if f.check == "frozen.changed"}
    added = [Problem(path, 1, "frozen.changed", problem)
             for path, problem in rewritten(base_root, root, published) if path not in named]
    if new is not None:  # a seal changed in book.yaml (a first seal, of a record of before seals, aside)
        sealed = {e.id: e.record for e in old.book.editions if e.id in published and e.record is not None}
        for n, e in enumerate(new.book.editions):
            where = new.book_doc.where(("editions", n, "record") if e.record else ("editions", n))
            if e.id in sealed and e.record != sealed[e.id] and (where.path, where.line) not in {
                    (f.path, f.line) for f in findings if f.check == "frozen.changed"}:
                added.append(Problem(where.path, where.line, "frozen.changed", (
                    f"this change changes the seal of {e.id}'s record as published (record: in {where.path}): "
                    "put it back as `rulebook edition new` wrote it; what a published edition printed never changes")))
        added += [f for f in entries_rewritten(old, new) if (f.path, f.line) not in {(a.path, a.line) for a in added}]
    return sorted(findings + added)


def judge_by_base_code(ref: str, root: Path, tmp: Path, findings: list[Problem], before: set[tuple[str, str, str]],
                 code: list[str], lists: Path) -> list[Problem]:
    """Errors at each file of the checks' code the change edits (``code``) when the base's own code, run on this
    change's sources with the base's lists (at ``lists``), finds what this change brings and its own code no longer
    does: a change to how the book is checked, its code or its lists, licenses nothing in the same change. None when
    the base has no code of its own or cannot run."""
    if not code:
        return []
    base_code = tmp / "base-code"
    try:
        # The base's code reads the base's lists, as the change's code does (``judge_by_base_lists``): a list edited in
        # the same change as the code would otherwise silence, under the base's code, what the code change silences
        # under its own.
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
        return [not_judged(f"{BASE_CODE_UNRUN} on this change, which edits the checks' code "
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


def _words(path: Path) -> set[str]:
    """The words of the house dictionary at ``path`` (none when it is a link or cannot be read)."""
    if path.is_symlink():  # (one leaving the project is an error of the check; none is read)
        return set()
    try:
        text = read_file_text(path)
    except (OSError, SourceError):
        return set()
    return {line.strip().casefold() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")}


@dataclass
class Judgement:
    """What the check found of a change: both sides, the change's findings as its base judges them, the entries it
    makes to the lists the checks read, the files it touches, the words it adds to and removes from the house
    dictionary, and each step the check could not carry out (``failed``: errors, each a finding)."""

    base: str  # the base, as it was named (a git ref)
    base_root: Path  # its sources, unpacked (and, for the pictures, what it is made with)
    head: Side
    old: Side
    base_problem: str  # why the base cannot be compared with; empty when it can
    entries: list[tuple[ListEntry, list[Problem]]]
    standing: set[tuple[str, str, str]]  # the base's findings but the accepted ones (``finding_key``)
    files: list[tuple[str, str]]  # (status, path) of every file the change touches
    failed: list[Problem]
    words: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))  # the dictionary's: added, removed
    untrusted: bool = False  # the change is data only: no code of its own is run, nothing drawn by its own making

    @property
    def maintained(self) -> list[str]:
        """The files the change touches that are not data (``is_data``): code or configuration, for a maintainer."""
        return [p for _, p in self.files if not is_data(p)]

    @property
    def compared(self) -> bool:
        """Whether both sides load, so that what the change does can be said."""
        return self.head.lib is not None and self.old.lib is not None

    @property
    def errors(self) -> list[Problem]:
        """The change's errors, then each step the check could not carry out."""
        return [f for f in self.head.findings if f.severity == "error"] + self.failed

    @property
    def new_warnings(self) -> list[Problem]:
        """The warnings the change brings (those its base had too are standing)."""
        return [f for f in self.head.findings if f.severity == "warning" and finding_key(f) not in self.standing]

    def touched_in(self, of: str) -> list[str]:
        """The files the change touches in one part of the project (``PARTS``)."""
        return [p for _, p in self.files if part(p) == of]


def judge_change(root: Path, base: str, scratch: Path, progress: Report = quiet, made: bool = False,
                 untrusted: bool = False) -> Judgement:
    """The change in the working tree at ``root`` judged against the git ref ``base``, which is unpacked into
    ``scratch`` (with what it is made with, when ``made``: the pictures draw it by its own making); ``progress`` is
    told each stage as it runs. A step it cannot carry out is an error of the judgement, never an exception; a change
    to anything but data is one too (``needs_maintainer``). With ``untrusted``, nothing of the change is ever run."""
    progress("validate this change")
    # A source that links out of the project is refused before anything reads it: no finding, summary line or
    # picture may quote what it points to.
    leaving = links_leaving(root)
    head = Side(None, [Problem(path, 1, "source.outside_project", "a link to a file outside the project: put the "
                                                                  "file itself in its place") for path in leaving]
                ) if leaving else load_side(root)
    progress("validate this change", final=True)
    failed: list[Problem] = []
    entries: list[tuple[ListEntry, list[Problem]]] = []
    progress(f"validate {base}")
    base_root = scratch / "base"
    try:
        unpack_base(root, base, base_root, made)
        old = load_side(base_root)
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
            findings, entries = judge_by_base_lists(base_root, old.lib, head.lib, head.findings)
            head.findings = with_rewritten_records(base_root, root, old.lib, head.lib, findings)
        except RulebookError as exc:
            failed += failure_findings(exc)
    progress(f"validate {base}", final=True)
    standing = {finding_key(f) for f in old.findings if f.severity != "accepted"}
    head.findings = sorted(head.findings + list_findings(entries, standing))
    files: list[tuple[str, str]] = []
    if not base_problem:
        try:
            files = files_touched(root, base)
        except RulebookError as exc:
            failed.append(not_judged(str(exc)))
    checks_code = [p for s, p in files if p.startswith(CHECKS_CODE) and p.endswith(".py") and s != "deleted"]
    if checks_code and head.lib is not None and old.lib is not None:
        progress(f"validate this change by {base}'s code")
        head.findings = sorted(head.findings + judge_by_base_code(base, root, scratch, head.findings, standing,
                                                            checks_code, base_root))
        progress(f"validate this change by {base}'s code", final=True)
    judgement = Judgement(base, base_root, head, old, base_problem, entries, standing, files, failed,
                          untrusted=untrusted)
    if judgement.maintained:
        failed.insert(0, needs_maintainer(judgement.maintained))
    if judgement.compared:
        before, after = _words(base_root / DICTIONARY), _words(root / DICTIONARY)
        judgement.words = sorted(after - before), sorted(before - after)
    return judgement

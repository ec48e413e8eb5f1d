"""The lists the checks read besides the book, as the pull-request check judges a change to them: the change is judged
by its base's lists, and each entry it adds, removes or rewrites is shown with the findings it would silence.

A list licenses nothing in the change that edits it: an entry that silences what the same change brings is an error
(``list.licenses_own_change``); one that does not is a warning for the reviewer to read (``list.changed``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...book.files import MAX_FILE_BYTES, copy_tree, read_file_text, read_source
from ...book.library import ACCEPTED, CONFUSABLES, DATA_DIR, DICTIONARY, SOURCE_DIRS, Library
from ...checks import listing, run_checks
from ...errors import Problem, SourceError
from .text import code_span, literal

# The lists the checks read besides the book (generator/checks: editorial.house_words, evidence.confusables,
# checks.accept): a pull request is judged by its base's, and a change to one licenses nothing in the same change.
LISTS = (DICTIONARY, CONFUSABLES, ACCEPTED)


def finding_key(f: Problem) -> tuple[str, str, str]:
    """A finding as the base's and the change's are matched: by check, file and message, not line (an edit above a
    standing finding moves it)."""
    return f.check, f.path, f.message


@dataclass(frozen=True)
class ListEntry:
    """One entry of a list the checks read that the change adds, removes or rewrites, at its line."""

    path: str
    line: int
    what: str  # 'adds the word “foo”', plain text (escaped where it is printed)
    words: frozenset[str] = frozenset()  # a finding naming one of these is one this entry decides (a word, a group)
    grant: tuple[str, str, str | None] | None = None  # an acceptance: (check, file, matching)
    places: tuple[tuple[str, int, str], ...] = ()  # a confusable group's: (file, line, word) where its words stand

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


def _text_entries(base: Path, head: Path, name: str, key: Callable[[str], str | frozenset[str]],
                  said: str) -> list[ListEntry]:
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


PLACES = 200  # the places of a confusable group's words the check finds (the summary shows a few, and counts them)
_WORD = re.compile(r"\w+(?:['’]\w+)*")


def places(lib: Library, words: frozenset[str]) -> tuple[tuple[str, int, str], ...]:
    """Where the book's sources (prose and data, not the lists nor the frozen records) have one of ``words``: (file,
    line, the word as written), in the files' order. A confusable group licenses a later change that swaps its words as
    a usage fix: these are the places it will let such a change through."""
    found: list[tuple[str, int, str]] = []
    for name in SOURCE_DIRS:
        top = lib.root / name
        files = sorted(p for p in top.rglob("*") if p.suffix in (".md", ".yaml") and p.is_file()
                       and not p.is_symlink() and "frozen" not in p.relative_to(top).parts) if top.is_dir() else []
        for path in files:
            rel = path.relative_to(lib.root).as_posix()
            if rel in LISTS:
                continue
            try:
                text = read_file_text(path)
            except (OSError, SourceError):
                continue
            for n, line in enumerate(text.splitlines(), 1):
                found += [(rel, n, w) for w in _WORD.findall(line) if w.casefold().replace("’", "'") in words]
                if len(found) >= PLACES:
                    return tuple(found[:PLACES])
    return tuple(found)


FEW_PLACES = 20  # the places of a confusable group's words the summary names


def places_lines(entry: ListEntry) -> list[str]:
    """The summary's line on what a confusable group an entry adds will let through: where its words stand."""
    if not entry.places:
        return []
    more = len(entry.places) - FEW_PLACES
    return [f"  - what it will let through: a later change that swaps its words, called a usage fix, at "
            f"{len(entry.places)}{'+' if len(entry.places) >= PLACES else ''} place"
            f"{'s' if len(entry.places) != 1 else ''} where they stand: "
            + ", ".join(f"{code_span(f'{f}:{n}')} “{literal(w)}”" for f, n, w in entry.places[:FEW_PLACES])
            + (f" and {more} more" if more > 0 else "")]


def judge_by_base_lists(base_root: Path, old: Library | None, new: Library | None, findings: list[Problem]
                        ) -> tuple[list[Problem], list[tuple[ListEntry, list[Problem]]]]:
    """The change's ``findings`` as the base's lists judge them (the change's own, for a finding in a list file), and
    each entry the change makes to a list with the findings of the change it would silence."""
    if new is None or old is None:
        return findings, []
    entries = [dataclasses.replace(e, places=places(new, e.words))
               if e.path == CONFUSABLES and e.what.startswith("adds") else e
               for e in list_changes(base_root, new.root, old, new)]
    if not entries:
        return findings, []
    was = {d.seed: d for d in old.book.sources}  # a document the base has: when the base says it was taken in
    book = new.book.model_copy(update={"sources": [was.get(d.seed, d) for d in new.book.sources]})
    lib = dataclasses.replace(new, lists_from=base_root, accepted=old.accepted, accepted_doc=old.accepted_doc,
                              book=book)
    by_base = run_checks(lib)
    verdict = sorted([f for f in by_base if f.path not in LISTS] + [f for f in findings if f.path in LISTS])
    live = {finding_key(f) for f in findings if f.severity != "accepted"}
    silenced = [f for f in by_base if f.severity != "accepted" and f.path not in LISTS and finding_key(f) not in live]
    return verdict, [(e, [f for f in silenced if e.decides(f)]) for e in entries]


def list_findings(entries: list[tuple[ListEntry, list[Problem]]], standing: set[tuple[str, str, str]]) -> list[Problem]:
    """Each list entry as a finding at its line: an error where it silences what this same change brings (a list
    licenses nothing in the change that edits it), else a warning for the reviewer to read."""
    out = []
    for e, silenced in entries:
        brought = [f for f in silenced if finding_key(f) not in standing]
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


def with_lists(root: Path, lists: Path, dest: Path) -> Path:
    """The change's sources at ``root`` (what the book is made of) copied into ``dest``, each list the checks read
    (``LISTS``) the one at ``lists`` (the base's), or none where that has none."""
    for name in SOURCE_DIRS:
        if (root / name).is_dir():
            copy_tree(root / name, dest / name, name, root, MAX_FILE_BYTES, skip=("__pycache__",))
    for name in LISTS:
        (dest / name).unlink(missing_ok=True)
        if (lists / name).is_file() and not (lists / name).is_symlink():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            (dest / name).write_bytes(read_source(lists / name, name, lists))
    return dest

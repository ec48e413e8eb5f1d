"""``rulebook check-pr``: a pull request judged (``judge.py``, by its base's lists and code), then said in a summary
(``summary.py``) and, with ``--pictures``, drawn (``pictures.py``).

It validates first and always, and prints GitHub annotations for every error and for each warning the base did not
have (matched by check, file and message, not line: an edit above a standing warning moves it). Standing and accepted
warnings are counted once in the summary, never annotated (GitHub shows ten annotations a step: a new one must not
drown). The summary leads with the errors, then what the change does to the rules in words; when the change cannot
be compared (the base or the change does not load), it says why and still reports. A check never passes what it could
not judge: each step it could not carry out is an error, and so is a section of the summary that could not be
written, named, with what stopped it.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...book import git
from ...book.words import Words, use
from ...errors import Problem, RulebookError, clean, no_commands, problem_annotation
from ...progress import Report, quiet
from . import pictures as drawing
from . import released, renamed, summary
from .judge import Judgement, failure_findings, judge_change, not_judged
from .released import released_changed
from .text import within_limit


@dataclass
class Verdict:
    """What the check says of a change: its exit code, its annotations, its summary (Markdown), and each step it
    could not carry out, in a line."""

    code: int
    annotations: list[str]
    summary: str
    undone: list[str]
    whole: dict[str, str] = dataclasses.field(default_factory=dict)  # file name: text, when the summary is cut


def _annotated(f: Problem) -> str:
    """A finding as a workflow command; one that no file holds is annotated on the run, not on a line."""
    if f.path:
        return problem_annotation(dataclasses.replace(f, line=max(1, f.line)))  # a file's line, never 0
    return problem_annotation(dataclasses.replace(f, path="-", line=1)).replace("file=-,line=1,", "", 1)


def base_words(judgement: Judgement) -> Words:
    """The words the summary is written in: the base book's (its ``language:`` and its own messages), as the book's
    reviewers read it, whatever the change sets."""
    from ...render.site.language import book_language

    lib = judgement.old.lib
    return Words(lib.book.language, lib.book.messages) if lib is not None else Words(book_language(judgement.base_root))


def _written(section: str, failed: list[Problem], write: Callable[..., list[str]], *args: object,
             say: Words | None = None) -> list[str]:
    """A section of the summary, as ``write`` writes it, in the words ``say`` (the base book's: a section that loads a
    book in between must not change them). One that cannot be written is an error of the check: a source refused
    where it is, pictures asked for and not drawn, and anything else (a bug) naming the section and what stopped it;
    the other sections are written all the same."""
    if say is not None:
        use(say)
    try:
        return write(*args)
    except drawing.NotDrawn as exc:  # asked for, and not drawn: the check did not do what it was asked
        failed.append(not_judged(f"the pictures were asked for and not drawn: {exc}"))
    except RulebookError as exc:
        failed += failure_findings(exc)
    except Exception as exc:  # noqa: BLE001 - a bug: the check fails, saying which section and what stopped it
        failed.append(not_judged(f"the summary's section “{section}” could not be written: {type(exc).__name__}: "
                                 f"{clean(' '.join(str(exc).split()))}"))
    return []


def _sections(judgement: Judgement, root: Path, pictures: Path | None, progress: Report, scratch: Path,
              say: Words, printed: list[str]) -> list[str]:
    """Every section of the summary but the first (the check of the book, which counts their failures too), in the
    base's words ``say``; ``printed``, the lines on the published editions' PDFs laid out to compare them."""
    failed = judgement.failed
    write = functools.partial(_written, say=say)
    if judgement.compared:
        body = write("What this change does to the rules", failed, summary.rules_lines, judgement)
        body += write("Games this change adds", failed, summary.new_games_lines, judgement)
        body += write("Games this change renames or moves", failed, renamed.renamed_lines, judgement)
        body += write("The house dictionary", failed, summary.dictionary_lines, judgement)
        body += write("Every page of the open edition this change alters", failed, released.pages_lines, judgement,
                      scratch)
        body += write("The printed files of the editions published", failed, released.released_lines, printed)
    else:
        body = write("What this change does to the rules", failed, summary.not_compared_lines, judgement)
    body += write("How the book is checked", failed, summary.how_checked_lines, judgement)
    if pictures is None:
        body += write("How the book is made", failed, summary.made_lines, judgement)
    else:
        body += write("Pictures of the pages this change alters", failed, drawing.pictures_lines, judgement, root,
                      pictures, progress)
    return body + write("Every file this change touches", failed, summary.files_lines, judgement)


def check_change(root: Path, base: str, progress: Report = quiet, pictures: Path | None = None,
                 untrusted: bool = False) -> Verdict:
    """The check of the tree at ``root`` against the git ref ``base``; ``progress`` is told each stage as it runs.
    With ``pictures``, the pages the change alters are drawn there, before and after, if it validates. Whatever
    fails, the summary is written, a change that needs a maintainer said first, then the errors. With ``untrusted``,
    nothing of the change's is run (its code, its making): it is data, judged by the running code alone."""
    printed: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        judgement = judge_change(root, base, Path(tmp), progress, made=pictures is not None, untrusted=untrusted)
        if judgement.compared and not (untrusted and judgement.maintained):  # (never the change's templates, then)
            progress("compare the editions published")
            found, printed = released_changed(root, judgement.base, judgement.base_root, judgement.old.lib,
                                              judgement.head.lib, Path(tmp))
            judgement.failed += found
            progress("compare the editions published", final=True)
        elif judgement.compared and [e for e in judgement.old.lib.book.editions if e.id != judgement.old.lib.book.current]:
            judgement.failed.append(not_judged(
                "the editions published could not be built as this change would publish them: it edits what they are "
                "made with, which is never run where a change is judged as data: a maintainer builds them from a "
                "checkout of it (`rulebook check-pr`) and compares"))
        say = base_words(judgement)
        body = _sections(judgement, root, pictures, progress, Path(tmp), say, printed)
    top = _written("Needs a maintainer", judgement.failed, summary.maintainer_lines, judgement, say=say)
    checked = _written("Check of the book", judgement.failed, summary.check_lines, judgement, say=say)
    errors = judgement.errors
    top += checked or ["## Check of the book", "", *summary.errors_lines(errors)]  # (its failure is among the errors)
    text = "\n".join(top + body)
    return Verdict(1 if errors else 0, [_annotated(f) for f in errors + judgement.new_warnings],
                   within_limit(text), [f.message for f in errors if f.check == "check.not_judged"],
                   {"summary.md": text, "files.txt": summary.whole_files(judgement)})


HEAD_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # a commit by its full id (SHA-1 or SHA-256): nothing else is named


def judge_handed_over(repo: Path, base: str, bundle: Path, head: str, progress: Report = quiet,
                      pictures: Path | None = None) -> Verdict:
    """The check of a change handed over as data: the commit ``head`` (its full id, as GitHub names a pull request's
    head), its objects read from the git ``bundle``, checked out beside the repository at ``repo`` (the base's
    checkout, whose code runs this check) and judged against where it leaves ``base`` (their merge base), with
    nothing of the change's run (``check_change``, untrusted). Whatever cannot be done fails the check in a line."""
    def failed(what: str) -> Verdict:
        problem = not_judged(what)
        lines = ["## Check of the book", "", *summary.errors_lines([problem])]
        return Verdict(1, [_annotated(problem)], "\n".join(lines), [problem.message])

    if not HEAD_ID.fullmatch(head):
        return failed(f"the change's head is named {clean(head)!r}: name it by its full commit id (40 hex digits)")
    if not bundle.is_file():
        return failed(f"the change's bundle {clean(str(bundle))} is not there: the pull request's run made none, or it "
                      "was not handed over")
    try:
        git.fetch_bundle(repo, bundle)
        if git.commit(repo, head) != head:
            return failed(f"the change's bundle does not hold its head {head}: it is not the pull request's change")
        start = git.merge_base(repo, base, head)
        if start is None:
            return failed(f"the change {head} has no history in common with {clean(base)}: it cannot be compared")
        with tempfile.TemporaryDirectory(prefix="rulebook-change-") as tmp:
            tree = git.worktree(repo, head, Path(tmp) / "change")
            try:
                return check_change(tree, start, progress, pictures, untrusted=True)
            finally:
                git.drop_worktree(repo, tree)
    except git.GitError as exc:
        return failed(clean(str(exc)))


def check_pr(root: Path, base: str, progress: Report = quiet,
             pictures: Path | None = None) -> tuple[int, list[str], str]:
    """(exit code, annotation lines, summary Markdown) for the tree at ``root`` against git ref ``base``
    (``check_change``)."""
    verdict = check_change(root, base, progress, pictures)
    return verdict.code, verdict.annotations, verdict.summary


def run(root: Path, base: str, summary_file: Path | None = None, pictures: Path | None = None,
        change: Path | None = None, head: str | None = None, whole: Path | None = None) -> int:
    """``rulebook check-pr``: print the annotations, then the summary (or append it to ``summary_file``). With
    ``change`` (a git bundle) and ``head`` (a commit id), the change is that commit, judged as data from the checkout
    at ``root`` (``judge_handed_over``); else it is the working tree at ``root``. With ``whole``, the whole summary
    (summary.md, never cut) and every file the change touches (files.txt) are written into that folder."""
    from ...progress import shown
    from ...render.site.pictures import need_playwright

    if (change is None) != (head is None):
        raise RulebookError("check-pr: --change and --head name a change together: give both (a bundle and the "
                            "commit id of its head), or neither (the change is then the working tree)")
    if pictures is not None:
        need_playwright()  # said before anything is judged: the pictures cannot be drawn without it
    with shown() as progress:
        if change is not None:
            verdict = judge_handed_over(root, base, change, head or "", progress, pictures)
        else:
            verdict = check_change(root, base, progress, pictures)
    print("\n".join(verdict.annotations), flush=True)
    text = no_commands(verdict.summary)  # contributor text never runs as a workflow command, printed or in the file
    if summary_file is not None:
        with open(summary_file, "a", encoding="utf-8") as out:
            out.write(text + "\n")
    else:
        print(text)
    if whole is not None:
        whole.mkdir(parents=True, exist_ok=True)
        for name, content in verdict.whole.items():
            (whole / name).write_text(no_commands(content), encoding="utf-8")
    for what in verdict.undone:  # a check that could not judge never passes: each step it could not do, in a line
        print(f"error: check-pr could not judge this change: {clean(what)}", file=sys.stderr)
    return verdict.code

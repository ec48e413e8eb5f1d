"""A released edition's readers see the same book: each edition published at the base, its site's pages written as
the site writes them (``render/site/docs.write_docs``: the words every page states, with the book's templates, before
MkDocs makes them HTML) from the base and from the change, compared page by page. A page that differs fails the
check, naming the edition, the page and the words."""

from __future__ import annotations

import difflib
from pathlib import Path

from ...book import git
from ...book.files import read_file_text
from ...book.library import Library, load_library
from ...book.textdiff import mark_words
from ...errors import Problem, RulebookError, clean
from ...render.site.docs import write_docs
from .judge import Judgement
from .text import code_span, literal, plain

SAID = 300  # characters of a page's changed words the error quotes


def _pages(lib: Library, out: Path) -> dict[str, str]:
    """Every page of ``lib``'s site (its Markdown, as the site writes it), by its path in the site's docs."""
    write_docs(lib, out)
    return {p.relative_to(out).as_posix(): read_file_text(p) for p in sorted(out.rglob("*.md"))}


def _first_change(before: str, after: str) -> str:
    """The first lines a page changes in words, numbers or negations, marked ([-gone-] {+come+}), their typography
    made plain; or that its only edits are typographic."""
    a, b = before.splitlines(), after.splitlines()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        gone, came = plain(" ".join(a[i1:i2])), plain(" ".join(b[j1:j2]))
        if op != "equal" and gone != came:
            said = mark_words(gone, came, markdown=False)
            return said[:SAID] + ("…" if len(said) > SAID else "")
    return "its only edits are typographic (quotes, apostrophes, dashes, spaces)"


def released_changed(repo: Path, base: str, base_root: Path, old: Library, new: Library, scratch: Path
                     ) -> list[Problem]:
    """An error for each page of the site of an edition published at ``base`` (its sources at ``base_root``, its
    templates unpacked beside them when it has any) that the change (``new``) makes say anything else."""
    published = [e.id for e in old.book.editions if e.id != old.book.current]
    if not published:
        return []
    if not (base_root / "templates").exists() and git.present(repo, base, ["templates"]):
        git.unpack(repo, base, ["templates"], base_root)  # the base's pages by the base's templates
    found = []
    for edition in published:
        if edition not in {e.id for e in new.book.editions}:
            continue  # (its entry removed: editions.py says so)
        try:
            before = _pages(load_library(base_root, edition), scratch / f"released-{edition}" / "base")
            after = _pages(load_library(new.root, edition), scratch / f"released-{edition}" / "change")
        except Exception as exc:  # noqa: BLE001 - a source, a template or a bug: the comparison not made fails the check
            what = str(exc) if isinstance(exc, RulebookError) else f"{type(exc).__name__}: {exc}"
            found.append(Problem("", 0, "check.not_judged", f"the pages of {edition}, as published, could not be "
                                 f"written to compare them: {clean(' '.join(what.split()))[:SAID]}", "error"))
            continue
        for page in sorted(set(before) | set(after)):
            if before.get(page) != after.get(page):
                found.append(Problem("", 0, "released.changed", (
                    f"this change changes what the readers of {edition}, published, read: its site page {page} "
                    f"({'new' if page not in before else 'gone' if page not in after else 'changed'}): "
                    f"“{_first_change(before.get(page, ''), after.get(page, ''))}”: a published edition never "
                    f"changes; put it back, or make the change in {new.book.current} (an erratum or a decision)"),
                    "error"))
    return found


FEW = 50  # pages of the open edition the summary names, each with its first changed words


def pages_lines(judgement: Judgement, scratch: Path) -> list[str]:
    """The summary's section on every page of the open edition's site the change alters, compared whole from the base
    and from the change (the pictures draw a few): each page, with its first changed words. None where the change is
    judged as data and needs a maintainer (its templates are never rendered there)."""
    old, new = judgement.old.lib, judgement.head.lib
    if old is None or new is None or (judgement.untrusted and judgement.maintained):
        return []
    before, after = _pages(old, scratch / "open" / "base"), _pages(new, scratch / "open" / "change")
    changed = [page for page in sorted(set(before) | set(after)) if before.get(page) != after.get(page)]
    if not changed:
        return []
    out = ["### Every page of the open edition this change alters", "",
           f"Each page of the site of {literal(new.book.current)}, as the site writes it, compared whole: "
           f"{len(changed)} page{'s' if len(changed) != 1 else ''}, each with the first words it changes.", ""]
    for page in changed[:FEW]:
        what = "new" if page not in before else "gone" if page not in after else "changed"
        out.append(f"- {code_span(page)} ({what}): “{literal(_first_change(before.get(page, ''), after.get(page, '')))}”")
    if len(changed) > FEW:
        out.append(f"- and {len(changed) - FEW} more")
    return [*out, ""]

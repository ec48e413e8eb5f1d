"""A released edition's readers see the same book: each edition published at the base, its site's pages written as
the site writes them (``render/site/docs.write_docs``: the words every page states, with the book's templates, before
MkDocs makes them HTML) from the base and from the change, compared page by page; and its printed book, laid out from
each side's sources, templates, styles and fonts (as data: both by the running code, ``render/pdf/pair.py``), compared
page by page by what each page reads and by what it inks (``render/pdf/prints.py``: a font with two digits swapped
reads the same and inks other marks); and, when the change alters how the site is made, its site built from both
sides and read as a browser shows it (``render/site/reading.py``). A page that differs fails the check, naming the
edition, the page and the words. An edition whose site's words differ has failed already, each page named: its book
is not laid out nor its site read then (the costliest steps), only for an edition whose site's words are the same."""

from __future__ import annotations

import difflib
from pathlib import Path

from ...book import git
from ...book.files import read_file_text
from ...book.library import Library, load_library
from ...book.textdiff import mark_words
from ...book.words import _, n_
from ...errors import Problem, RulebookError, clean
from ...render.pdf.pair import BOOK, SHEETS
from ...render.site.docs import write_docs
from ...render.site.engine import CONFIG
from ...render.site.worker import described
from .judge import Judgement
from .printed import printed_changed
from .reading import SITE_MADE_FROM, digest_of, hooks_named, sites_read
from .text import code_span, literal, plain

SAID = 300  # characters of a page's changed words the error quotes
PAGES_SAID = 12  # pages of one edition's site named one by one, each in a line; the rest counted in one
MADE_FROM = ("rules_data", "content", "templates")  # what a book's PDF is made from, beside the code that makes it


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
                     ) -> tuple[list[Problem], list[str]]:
    """An error for each page of the site of an edition published at ``base`` (its sources at ``base_root``, its
    templates unpacked beside them when it has any) that the change (``new``) makes say anything else, for what its
    site says of the book (its name, description and author: every page's meta tags), and for each page of its PDFs
    (``_printed_changed``); and the summary's lines on which of those PDFs were laid out to tell."""
    published = [e.id for e in old.book.editions if e.id != old.book.current]
    if not published:
        return [], []
    for made in SITE_MADE_FROM:  # the base's pages by the base's templates and settings
        if not (base_root / made).exists() and git.present(repo, base, [made]):
            git.unpack(repo, base, [made], base_root)
    found: list[Problem] = []
    notes: list[str] = []
    for edition in published:
        if edition not in {e.id for e in new.book.editions}:
            continue  # (its entry removed: editions.py says so)
        try:
            was, now = load_library(base_root, edition), load_library(new.root, edition)
            before = _pages(was, scratch / f"released-{edition}" / "base")
            after = _pages(now, scratch / f"released-{edition}" / "change")
        except Exception as exc:  # noqa: BLE001 - a source, a template or a bug: the comparison not made fails the check
            what = str(exc) if isinstance(exc, RulebookError) else f"{type(exc).__name__}: {exc}"
            found.append(Problem("", 0, "check.not_judged", f"the pages of {edition}, as published, could not be "
                                 f"written to compare them: {clean(' '.join(what.split()))[:SAID]}", "error"))
            continue
        written = [Problem("", 0, "released.changed", (
            f"this change changes what the readers of {edition}, published, read: its site page {page} "
            f"({'new' if page not in before else 'gone' if page not in after else 'changed'}): "
            f"“{_first_change(before.get(page, ''), after.get(page, ''))}”: a published edition never "
            f"changes; put it back, or make the change in {new.book.current} (an erratum or a decision)"), "error")
            for page in sorted(set(before) | set(after)) if before.get(page) != after.get(page)]
        said_was, said_now = described(was), described(now)
        written += [Problem("", 0, "released.changed", (
            f"this change changes what the readers of {edition}, published, read of the book on every page of its "
            f"site (its {key.removeprefix('site_')}, in the pages' meta tags and the installed app's): "
            f"“{said_was[key]}” → “{said_now[key]}”: a published edition never changes; put it back"), "error")
            for key in sorted(said_was) if said_was[key] != said_now[key]]
        found += written
        if written:
            # Failed already, each page named with its words: its book is laid out and its site read (the check's
            # costliest steps) only for an edition whose site's words are the same, where nothing else would tell.
            continue
        try:
            printed = _printed_changed(base_root, new, was, now, len(old.games) + len(new.games),
                                       scratch / f"released-{edition}" / "book")
            if printed is not None:  # (what its files are made of the same: nothing to say)
                found += printed[0]
                notes.append(_laid_out_note(edition, *printed[1:]))
        except Exception as exc:  # noqa: BLE001 - the layout or a PDF that cannot be read: not compared, so it fails
            what = str(exc) if isinstance(exc, RulebookError) else f"{type(exc).__name__}: {exc}"
            found.append(Problem("", 0, "check.not_judged", f"the printed files of {edition}, as published, could "
                                 f"not be laid out to compare them: {clean(' '.join(what.split()))[:SAID]}", "error"))
        try:
            found += _read_changed(base_root, new, edition, scratch / f"released-{edition}" / "read")
        except Exception as exc:  # noqa: BLE001 - a site that cannot be built or read: not compared, so it fails
            what = str(exc) if isinstance(exc, RulebookError) else f"{type(exc).__name__}: {exc}"
            found.append(Problem("", 0, "check.not_judged", f"the site of {edition}, as published, could not be read "
                                 f"as a browser shows it, to compare it: {clean(' '.join(what.split()))[:SAID]}",
                                 "error"))
    return found, notes


def _laid_out_note(edition: str, laid_out: tuple[str, ...], left: tuple[str, ...]) -> str:
    """The summary's line on which of ``edition``'s PDFs were laid out from both sides and compared, and which were
    ``left`` (their inputs differ, and the edition's book differs already)."""
    named = {BOOK: "its book", SHEETS: "its score sheets and score pad"}
    said = [f"- {literal(edition)}: its site's pages read the same"]
    if laid_out:
        said.append(f"{' and '.join(named[w] for w in laid_out)} laid out from both sides (their inputs differ) and "
                    "compared page by page, by words, ink and what each file says of itself")
    if left:
        said.append(f"{' and '.join(named[w] for w in left)} not laid out: the book differs already")
    same = [named[w] for w in named if w not in laid_out and w not in left]
    if same:
        said.append(f"{' and '.join(same)} not laid out: made from the same inputs on both sides, by the same code")
    return "; ".join(said)


def released_lines(notes: list[str]) -> list[str]:
    """The summary's section on the PDFs of the editions published the check laid out to compare them."""
    if not notes:
        return []
    return ["### The printed files of the editions published", "", "Every PDF publish makes of each edition "
            "published (its book, each score sheet, the score pad) is compared from both sides when what it is made "
            "from differs:", "", *notes, ""]


def _read_changed(base_root: Path, new: Library, edition: str, out: Path) -> list[Problem]:
    """An error for each page of the site of ``edition`` that a reader's browser shows otherwise, built from the
    change's sources, templates, styles, scripts and settings than from the base's (``render/site/reading.py``: over
    http, the styles' words included); at most ``PAGES_SAID`` named. Not read when both sides make the site alike
    (their Markdown pages are compared already: the same templates and settings make the same pages of them); a change
    whose mkdocs.yml names hooks is never built (its hooks are its code) and fails, saying so."""
    if hooks_named(new.root):
        return [Problem("", 0, "check.not_judged", (
            f"the site of {edition}, published, could not be built as this change would publish it: its {CONFIG} "
            "names hooks, Python of the change's that MkDocs runs as it builds, which the check never runs: a "
            "maintainer reads the hooks and builds each published edition with them"), "error")]
    read = sites_read(load_library(base_root, edition), load_library(new.root, edition), out)
    if read is None:
        return []
    before, after = read
    differ = [page for page in sorted(set(before) | set(after)) if before.get(page) != after.get(page)]
    found = [Problem("", 0, "released.read_changed", (
        f"this change changes what the readers of {edition}, published, read on its site as a browser shows it: the "
        f"page {page} ({'new' if page not in before else 'gone' if page not in after else 'changed'}): "
        f"“{_first_change(before.get(page, ''), after.get(page, ''))}”: a published edition never changes; put "
        f"its templates, styles and scripts back, or make them act on {new.book.current} alone"), "error")
        for page in differ[:PAGES_SAID]]
    if len(differ) > PAGES_SAID:
        found.append(Problem("", 0, "released.read_changed", (
            f"this change changes {len(differ) - PAGES_SAID} more pages of the site of {edition}, published, as a "
            f"browser shows them: {', '.join(differ[PAGES_SAID:PAGES_SAID + 30])}"
            f"{', …' if len(differ) > PAGES_SAID + 30 else ''}"), "error"))
    return found


def _printed_changed(base_root: Path, new: Library, was: Library, now: Library, games: int, out: Path
                     ) -> tuple[list[Problem], tuple[str, ...], tuple[str, ...]] | None:
    """The errors of every PDF publish makes of a published edition (``was`` as the base has it, ``now`` as the change
    does) that the change's sources, templates, styles and fonts make otherwise than the base's
    (``printed.printed_changed``), which were laid out to tell, and which were not; None when both sides make them of
    the same: the same templates, and the same sources as the edition prints them (``Library.printed_sources``, what
    publish's build digest reads: equal, the same code builds the same files), as most changes to the open edition
    leave a published one."""
    if digest_of(base_root, MADE_FROM) == digest_of(new.root, MADE_FROM):
        return None
    if digest_of(base_root, MADE_FROM[2:]) == digest_of(new.root, MADE_FROM[2:]) and \
            was.printed_sources() == now.printed_sources():
        return None
    edition = was.edition.id
    return printed_changed(base_root, new, edition, games, out, _first_change)


FEW = 50  # pages of the open edition the summary names, each with its first changed words


def pages_lines(judgement: Judgement, scratch: Path) -> list[str]:
    """The summary's section on every page of the open edition's site the change alters, compared whole from the base
    and from the change (the pictures draw a few): each page, with its first changed words; and, when the change
    alters how the site is made, each page that a browser shows otherwise (``_read_lines``). None where the change is
    judged as data and needs a maintainer (its templates are never rendered there)."""
    old, new = judgement.old.lib, judgement.head.lib
    if old is None or new is None or (judgement.untrusted and judgement.maintained):
        return []
    before, after = _pages(old, scratch / "open" / "base"), _pages(new, scratch / "open" / "change")
    changed = [page for page in sorted(set(before) | set(after)) if before.get(page) != after.get(page)]
    read = _read_lines(old, new, scratch / "open" / "read")
    if not changed and not read:
        return []
    out = ["### " + _("Every page of the open edition this change alters"), ""]
    if changed:
        out += [n_("Each page of the site of %(edition)s, as the site writes it, compared whole: %(count)s page, each "
                   "with the first words it changes.", "Each page of the site of %(edition)s, as the site writes it, "
                   "compared whole: %(count)s pages, each with the first words it changes.", len(changed),
                   edition=literal(new.book.current)), ""]
    for page in changed[:FEW]:
        out.append(f"- {code_span(page)} ({_page_is(page, before, after)}): "
                   f"“{literal(_first_change(before.get(page, ''), after.get(page, '')))}”")
    if len(changed) > FEW:
        out.append("- " + _("and %(count)s more", count=len(changed) - FEW))
    return [*out, *([""] if changed else []), *read]


def _page_is(page: str, before: dict[str, str], after: dict[str, str]) -> str:
    """What the change does to a page: 'new', 'gone' or 'changed', in the base book's language."""
    return _("new") if page not in before else _("gone") if page not in after else _("changed")


def _read_lines(old: Library, new: Library, out: Path) -> list[str]:
    """The section's lines on the open edition's pages as a browser shows them, when the change alters how the site
    is made (its styles may write words, its scripts rewrite them): each page that reads otherwise, with the first
    words it changes; or that the site was not built, the change's mkdocs.yml naming hooks (its code)."""
    if hooks_named(new.root):
        return [_("Not read as a browser shows them: this change's %(config)s names hooks, Python of its own that the "
                  "check never runs; a maintainer builds the site with them and reads it.", config=CONFIG), ""]
    read = sites_read(old, new, out)
    if read is None:
        return []
    before, after = read
    differ = [page for page in sorted(set(before) | set(after)) if before.get(page) != after.get(page)]
    said = _("This change alters how the site is made: every page of %(edition)s built from both sides and read as a "
             "browser shows it (over http, styles and scripts applied)", edition=literal(new.book.current))
    if not differ:
        return [_("%(said)s: no page reads otherwise.", said=said), ""]
    lines = [n_("%(said)s: %(count)s page read otherwise.", "%(said)s: %(count)s pages read otherwise.", len(differ),
                said=said), ""]
    for page in differ[:FEW]:
        what = _("%(what)s, as read", what=_page_is(page, before, after))
        lines.append(f"- {code_span(page)} ({what}): “{literal(_first_change(before.get(page, ''), after.get(page, '')))}”")
    if len(differ) > FEW:
        lines.append("- " + _("and %(count)s more", count=len(differ) - FEW))
    return [*lines, ""]

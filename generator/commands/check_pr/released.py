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
import hashlib
import re
from pathlib import Path

from ...book import git
from ...book.files import read_file_text
from ...book.library import Library, load_library
from ...book.textdiff import mark_words
from ...book.words import _, n_
from ...errors import Problem, RulebookError, clean
from ...render.pdf.pair import laid_out_exactly, layout_inputs
from ...render.pdf.prints import Printed, page_prints
from ...render.site.docs import write_docs
from ...render.site.engine import CONFIG
from .judge import Judgement
from .text import code_span, literal, plain

SAID = 300  # characters of a page's changed words the error quotes
PAGES_SAID = 12  # pages of one edition's printed book named one by one, each in a line; the rest counted in one
MADE_FROM = ("rules_data", "content", "templates")  # what a book's PDF is made from, beside the code that makes it
SITE_MADE_FROM = ("templates", CONFIG)  # what makes a site's pages of their Markdown, beside the code: styles, scripts
PRINT_ONLY = "print"  # the folder of templates/ that only the printed book reads (its styles, fonts, templates)
HOOKS = re.compile(r"^[ \t]*hooks[ \t]*:", re.M)  # mkdocs.yml's Python hooks: code of the book's, run by MkDocs


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
    for made in SITE_MADE_FROM:  # the base's pages by the base's templates and settings
        if not (base_root / made).exists() and git.present(repo, base, [made]):
            git.unpack(repo, base, [made], base_root)
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
        written = [Problem("", 0, "released.changed", (
            f"this change changes what the readers of {edition}, published, read: its site page {page} "
            f"({'new' if page not in before else 'gone' if page not in after else 'changed'}): "
            f"“{_first_change(before.get(page, ''), after.get(page, ''))}”: a published edition never "
            f"changes; put it back, or make the change in {new.book.current} (an erratum or a decision)"), "error")
            for page in sorted(set(before) | set(after)) if before.get(page) != after.get(page)]
        found += written
        if written:
            # Failed already, each page named with its words: its book is laid out and its site read (the check's
            # costliest steps) only for an edition whose site's words are the same, where nothing else would tell.
            continue
        try:
            found += _printed_changed(base_root, new, edition, len(old.games) + len(new.games),
                                      scratch / f"released-{edition}" / "book")
        except Exception as exc:  # noqa: BLE001 - the layout or a PDF that cannot be read: not compared, so it fails
            what = str(exc) if isinstance(exc, RulebookError) else f"{type(exc).__name__}: {exc}"
            found.append(Problem("", 0, "check.not_judged", f"the printed book of {edition}, as published, could not "
                                 f"be laid out to compare it: {clean(' '.join(what.split()))[:SAID]}", "error"))
        try:
            found += _read_changed(base_root, new, edition, scratch / f"released-{edition}" / "read")
        except Exception as exc:  # noqa: BLE001 - a site that cannot be built or read: not compared, so it fails
            what = str(exc) if isinstance(exc, RulebookError) else f"{type(exc).__name__}: {exc}"
            found.append(Problem("", 0, "check.not_judged", f"the site of {edition}, as published, could not be read "
                                 f"as a browser shows it, to compare it: {clean(' '.join(what.split()))[:SAID]}",
                                 "error"))
    return found


def _digest(root: Path, names: tuple[str, ...]) -> str:
    """A digest of the files ``names`` under ``root`` (by path and bytes; a link by its target's name)."""
    from ...render.pdf.cache import add_files

    digest = hashlib.sha256()
    add_files(digest, root, names)
    return digest.hexdigest()


def _site_made_from(root: Path) -> str:
    """A digest of what a book's site is made with beside its Markdown and the code (``SITE_MADE_FROM``), the
    templates that only the printed book reads aside (a print font or style changes no page of the site)."""
    top = root / SITE_MADE_FROM[0]
    names = [f"{SITE_MADE_FROM[0]}/{p.name}" for p in sorted(top.iterdir()) if p.name != PRINT_ONLY] \
        if top.is_dir() and not top.is_symlink() else [SITE_MADE_FROM[0]]
    return _digest(root, (*names, *SITE_MADE_FROM[1:]))


def hooks_named(root: Path) -> bool:
    """Whether the book's mkdocs.yml names hooks: Python of the book's own, which MkDocs runs as it builds."""
    config = root / CONFIG
    return config.is_file() and not config.is_symlink() and bool(HOOKS.search(read_file_text(config)))


def _sites_read(old: Library, new: Library, out: Path) -> tuple[dict[str, str], dict[str, str]] | None:
    """Every page of the site of ``old`` and of ``new`` (their editions, from their roots) as a browser shows it
    (``render/site/reading.py``), both built by the running code into ``out``; None when both sides make the site
    alike (the same templates, styles, scripts and settings: their Markdown pages, compared already, say it all)."""
    from ...render.site.engine import render_site
    from ...render.site.pictures import need_playwright
    from ...render.site.reading import pages_read

    if _site_made_from(old.root) == _site_made_from(new.root):
        return None
    need_playwright()  # (before two sites are built for nothing)
    sites = []
    for side, lib in (("base", old), ("change", new)):
        (out / f"{side}-staging").mkdir(parents=True)
        render_site(lib, out / side, out / f"{side}-staging", None)
        sites.append(out / side)
    before, after = pages_read(sites)
    return before, after


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
    read = _sites_read(load_library(base_root, edition), load_library(new.root, edition), out)
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


def _printed_changed(base_root: Path, new: Library, edition: str, games: int, out: Path) -> list[Problem]:
    """An error for each page of ``edition``'s printed book that reads or inks otherwise from the change's sources,
    templates, styles and fonts than from the base's (at most ``PAGES_SAID`` named, the rest counted in one more)."""
    if _digest(base_root, MADE_FROM) == _digest(new.root, MADE_FROM):
        return []  # the same sources, templates and fonts, laid out by the same code: the same book
    if layout_inputs(base_root, edition) == layout_inputs(new.root, edition):
        return []  # the same HTML, as printed, with the same print styles and fonts: the same book, laid out alike
    before_pdf, after_pdf = laid_out_exactly(base_root, new.root, edition, games, out)
    before, after = page_prints(before_pdf), page_prints(after_pdf)
    blank = Printed("", b"", (0, 0))
    differ = [n for n in range(max(len(before), len(after)))
              if (before[n] if n < len(before) else blank) != (after[n] if n < len(after) else blank)]
    found = []
    for n in differ[:PAGES_SAID]:
        was, now = (before[n] if n < len(before) else None), (after[n] if n < len(after) else None)
        what = "new" if was is None else "gone" if now is None else "changed"
        if was is not None and now is not None and was.text == now.text:
            said = ("its words read the same, and the page's ink differs: a font, a style or a picture draws "
                    "other marks than the published book's")
        else:
            said = f"“{_first_change(was.text if was else '', now.text if now else '')}”"
        found.append(Problem("", 0, "released.pdf_changed", (
            f"this change changes what the readers of {edition}, published, read in its printed book: page {n + 1} "
            f"({what}): {said}: a published edition never changes; put it back, or make the change in "
            f"{new.book.current} (an erratum or a decision)"), "error"))
    if len(differ) > PAGES_SAID:
        rest = differ[PAGES_SAID:]
        found.append(Problem("", 0, "released.pdf_changed", (
            f"this change changes {len(rest)} more pages of the printed book of {edition}, published: pages "
            f"{', '.join(str(n + 1) for n in rest[:30])}{', …' if len(rest) > 30 else ''}"), "error"))
    return found


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
    read = _sites_read(old, new, out)
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

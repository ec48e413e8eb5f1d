"""The pictures of ``check-pr --pictures DIR``: every page of the book and of the site a change alters, before and
after, the changed words boxed, written to DIR with ``index.html``; and the summary's lines on them.

Each side is drawn by its own code, templates and settings (the base's unpacked beside its sources): the book's pages
by ``render/pdf/pictures.py`` (both books laid out by ``render/pdf/pair.py``), the site's by
``render/site/pictures.py`` (both sites built by ``render/site/engine.py``), each in a process of that side's code
when the change alters how the book is made (``process.run``, given one ``process.Request``).

A pull request is untrusted: the pictures are drawn only of a change that validates, from the files in the project; a
link among the book's sources to a file outside the project is refused before anything is read (``links_leaving``),
so that no secret reaches a picture.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from ...book.compare import compare
from ...book.files import MAX_ASSET_BYTES, MAX_OUTPUT_BYTES, copy_tree, read_file, read_file_text, read_source
from ...book.library import Library
from ...errors import BuildError, RulebookError, clean
from ...progress import Report, quiet
from ...render.pdf.pictures import book_pictures
from ...render.process import PAIR, SITE, Request
from ...render.site.engine import CONFIG, render_site
from ...render.site.pictures import site_pictures
from ...render.views.markup import environment
from ...render.views.pictures import ADDED, FEW, REMOVED, Alike, Picture, said_alike
from .judge import MADE, PARTS, Judgement, links_leaving
from .text import code_span, literal

RUNNING = Path(__file__).resolve().parents[3]  # the code running this check (the change's)
# What draws a side, run by that side's own code (its folder first on the path): its functions, not ours.
PAIR_RENDERER = "generator.render.pdf.pair"  # both books, in one process
SITE_BUILDER = "generator.render.site.engine"  # a side's site
DRAWN = re.compile(r"(book|site)-[a-z0-9-]+\.png|index\.html")  # the files a pictures folder holds


class NotDrawn(RulebookError):
    """The pictures were asked for and could not be drawn (the browser or the renders failed)."""


def _code_of(side: Path, own: bool = True) -> Path:
    """The code a side is drawn with: its own, if it has any (a project's checkout) and may be run (``own``), else
    the running one."""
    return side if own and (side / "generator" / "__init__.py").is_file() else RUNNING


def _files(top: Path) -> dict[str, bytes]:
    found = {}
    for name in MADE:
        start = top / name
        for path in ([start] if start.is_file() else sorted(start.rglob("*")) if start.is_dir() else []):
            if path.is_file() and "__pycache__" not in path.parts and not path.is_symlink():
                found[path.relative_to(top).as_posix()] = read_file(path, MAX_OUTPUT_BYTES)
    return found


def made_differently(base: Path, root: Path, own: bool = True) -> bool:
    """Whether the change alters what the book is made with (its code, templates, styles, settings)."""
    return _code_of(base) != _code_of(root, own) and _files(base) != _files(root)


def _render(code: Path, module: str, request: Request, games: int, what: str) -> None:
    """One side's render (``module`` given ``request``) in a process of its own code (``code`` first on the path,
    its folder the working one), under the limits a PDF render is given."""
    from ...render.pdf.worker import limits
    from ...render.process import MEMORY, TIMEOUT, run

    timeout, memory = limits(games)
    failed = run(module, request, timeout=timeout, memory_mb=memory, code=code).failure
    if failed is not None and failed.kind == TIMEOUT:
        raise BuildError(f"the pictures' {what} took too long and was stopped")
    if failed is not None and failed.kind == MEMORY:
        raise BuildError(f"the pictures' {what} needed more than {memory} MB of memory: {failed.message}")
    if failed is not None:
        raise BuildError(f"the pictures' {what} failed: {failed.message}")


@dataclass
class Drawn:
    """What ``draw`` made: the pictures, and the pages whose output a change of how the book is made alters though
    their words are the same (by name: the book's, the site's), and how many pages each side has."""

    pictures: list[Picture]
    restyled: list[str] = field(default_factory=list)
    made_differently: bool = False
    pages: int = 0
    alike: list[Alike] = field(default_factory=list)  # pages changed by the same words, a few of each drawn


def draw(root: Path, base: Path, before: Library, after: Library, out: Path, progress: Report = quiet,
         edited: set[str] | frozenset[str] = frozenset(), own: bool = True) -> Drawn:
    """Pictures of every book and site page the change from ``base`` (the base's sources, and what it is made with
    when ``judge.unpack_base`` unpacked it) to ``root`` alters, written to ``out`` with ``index.html``. Each side is
    drawn by its own code, templates and settings; when those differ, every page is compared by its output, not only
    its words. The pages of a game in ``edited`` (whose own rules the change edits) are each drawn; of pages changed
    alike otherwise, a few (``group_alike``). Refused, before anything is read, when a source is a link leaving the
    project. Unless ``own``, the change (at ``root``) is drawn by the running code, never by a module of its own."""
    leaving = links_leaving(root)
    if leaving:
        raise RulebookError(f"{leaving[0]}: a link to a file outside the project, which no picture may show: "
                            "put the file itself in its place")
    styled = made_differently(base, root, own)
    code = {base: _code_of(base), root: _code_of(root, own)}  # what draws each side
    if code[base] == code[root]:  # no code of the base's own (a bare folder of sources): drawn as the change's
        for name in ("templates", CONFIG):
            if (root / name).is_dir():
                copy_tree(root / name, base / name, name, root, MAX_ASSET_BYTES)
            elif (root / name).is_file():
                (base / name).write_bytes(read_source(root / name, name, root, MAX_ASSET_BYTES))
    _clear(out)
    scratch = base.parent / "pictures"
    scratch.mkdir(exist_ok=True)
    progress("pictures: the book before and after")
    games = len(before.games) + len(after.games)
    if not styled:  # one process, one code: the second book lays out again only what the change touched
        _render(code[root], PAIR_RENDERER, Request(PAIR, str(root), after.edition.id, str(scratch), before=str(base),
                                                    before_edition=before.edition.id), games, "book render")
    else:  # each side by its own code (each laid out twice in its process: the second time from the first)
        for side, top, lib in (("before", base, before), ("after", root, after)):
            (scratch / side).mkdir()
            _render(code[top], PAIR_RENDERER, Request(PAIR, str(top), lib.edition.id, str(scratch / side),
                                                       before=str(top), before_edition=lib.edition.id),
                    games, f"book render ({side})")
            for suffix in (".pdf", ".json"):
                (scratch / side / f"{side}{suffix}").replace(scratch / f"{side}{suffix}")
    progress("pictures: the book before and after", final=True)
    pictures, restyled, grouped = book_pictures(scratch, out, before, after, styled, edited)
    sites = {}
    for side, top, lib in (("before", base, before), ("after", root, after)):
        progress(f"pictures: the site {side}")
        anchors = scratch / f"{side}.json"
        staging = scratch / f"site-{side}-staging"
        staging.mkdir()
        if styled:
            _render(code[top], SITE_BUILDER, Request(SITE, str(top), lib.edition.id, str(scratch / f"site-{side}"),
                                                      staging=str(staging), pages=json.loads(read_file_text(anchors))),
                    games, f"site ({side})")
        else:
            render_site(lib, scratch / f"site-{side}", staging, None, json.loads(read_file_text(anchors)))
        sites[side] = scratch / f"site-{side}"
        progress(f"pictures: the site {side}", final=True)
    shot, site_restyled, site_grouped = site_pictures(sites["before"], sites["after"], out, progress, styled, edited)
    pictures += shot
    (out / "index.html").write_text(index_page(pictures, before, after, grouped + site_grouped), encoding="utf-8")
    pages = len(list(sites["after"].rglob("*.html")))
    return Drawn(pictures, restyled + site_restyled, styled, pages, grouped + site_grouped)


def _clear(out: Path) -> None:
    """An empty folder ``out``: the pictures of a check before are removed, but nothing else ever is (a folder
    holding anything but pictures, the project's own say, is refused)."""
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise RulebookError(f"{out}: not a folder: name a new folder for the pictures")
    if out.is_dir():
        other = sorted(p.name for p in out.iterdir() if not DRAWN.fullmatch(p.name) or not p.is_file())
        if other:
            raise RulebookError(f"{out}: holds {other[0]}, which is no picture of a check: name a new folder for "
                                "the pictures (or empty this one)")
        for picture in out.iterdir():
            picture.unlink()
    out.mkdir(parents=True, exist_ok=True)


def index_page(pictures: list[Picture], before: Library, after: Library, alike_pages: list[Alike] | None = None) -> str:
    """The pictures' page (``templates/pictures/index.html.j2``): each changed page, before and after side by side;
    of pages changed alike, what the change is and the pages left out."""
    env = environment()  # the tool's own templates: a book's own templates/ never makes this page
    env.filters["html"] = lambda value: Markup(html.escape(str(value)))  # quotes too: &quot; and &#x27;
    groups = [{"kind": g.kind, "pages": len(g.names), "change": said_alike(g.change),
               "left_out": ", ".join(g.names[FEW:])} for g in alike_pages or []]
    return env.get_template("pictures/index.html.j2").render(
        pictures=pictures, before=before.edition.id, after=after.edition.id, alike=groups, few=FEW, removed=REMOVED,
        added=ADDED)


def pictures_lines(judgement: Judgement, root: Path, folder: Path, progress: Report = quiet) -> list[str]:
    """The summary's sections on how the book is made (the files of its making the change touches, the pages whose
    output they alter) and on the pictures, drawn into ``folder``: each page drawn, or why none is. Pictures asked for
    and not drawn (a render or the browser failed) are ``NotDrawn``."""
    old, new = judgement.old.lib, judgement.head.lib
    made = [f"- {code_span(p)}" for p in judgement.touched_in(PARTS[2])]
    head = ["## How the book is made", "", "This change edits what the book is made with (code, templates, styles, "
            "settings): the pages are drawn before by the base's own, after by the change's.", "", *made, ""] if made \
        else []
    out = ["### Pictures of the pages this change alters", ""]
    if judgement.untrusted and judgement.maintained:
        # Drawing the change by its own making would run it (its modules, templates, mkdocs.yml's hooks), and a change
        # handed over as data is never run: a maintainer draws it from a checkout of it.
        return [*head, *out, "Not drawn: this change edits what the book is checked or made with, and its code is "
                "never run where it is judged: a maintainer draws the pages with `rulebook check-pr --pictures` in a "
                "checkout of it.", ""]
    # (A change for a maintainer is drawn where its code may run: a maintainer's checkout is what it is drawn for; and
    # one that changes what a published edition's readers read, to show them it.)
    if [f for f in judgement.errors if f.check != "change.needs_maintainer" and not f.check.startswith("released.")] \
            or new is None:
        return [*head, *out, "Not drawn: this change has errors, and a picture shows only what validate accepts.", ""]
    if old is None:
        return [*head, *out, f"Not drawn: {literal(judgement.base_problem or 'the base does not load')}.", ""]
    edited = {c.game_id for c in compare(old, new).changes if c.game_id}  # each of their pages is drawn
    try:
        result = draw(root, judgement.base_root, old, new, folder, progress, edited, own=not judgement.untrusted)
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
    out += [f"- {literal(p.name)}: " + ", ".join(code_span(f) for f in p.before + p.after) for p in pictures]
    return [*head, *out, ""]


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
                     + ", ".join(literal(n.removeprefix("book ")) for n in book[:6]) + (", …" if len(book) > 6 else "")
                     + ")")
    return "; ".join(parts)


def alike_lines(groups: list[Alike], lib: Library) -> list[str]:
    """The summary's lines on pages changed alike (``views.pictures.group_alike``): one line a change, where it is
    (every game page of the book and the site, or how many pages), a few drawn and how many left out."""
    by_change: dict[object, list[Alike]] = {}
    for g in groups:
        by_change.setdefault(g.change, []).append(g)
    out = []
    for change, found in by_change.items():
        every = [g.kind for g in found if lib.games and set(lib.games) <= g.games]
        where = [f"every game page of the {' and the '.join(every)}"] if every else []
        where += [f"{len(g.names)} pages of the {g.kind}" for g in found if g.kind not in every]
        left = "; ".join(f"{len(g.names) - FEW} of the {g.kind}'s left out ("
                         + ", ".join(literal(n) for n in g.names[FEW:FEW + 6]) + (", …" if len(g.names) > FEW + 6 else "")
                         + ")" for g in found)
        out.append(f"- The same change on {' and '.join(where)}: {literal(said_alike(change))}. The first {FEW} of "
                   + " and of ".join(f"the {g.kind}'s {len(g.names)}" for g in found) + f" are drawn below; {left}.")
    return [*out, ""] if out else []

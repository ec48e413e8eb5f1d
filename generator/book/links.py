"""Links in prose: where each one leads, as the site and the print book will take it.

A game's prose is the site's page ``games/<id>.md`` (a variant's prose is a part of its game's page), a prose page's
``<id>.md``, a game's score keeper ``keep/<id>.md``; a link is written as the site takes it, relative to the page it
is on (``[Hearts](hearts.md)`` from a game, ``[Hearts](games/hearts.md)`` from a prose page), with ``#part`` for a
heading of that page. Print has no pages of its own to link: a link to a page of the book goes to where the book
prints it (``#game-hearts``, ``#page-about``), to a game's data block or variant where print has it
(``#golf-scoring-cards``; a heading of prose has no id in print, where ids would clash book-wide: its page), and one
to what print has not (the keeper, the finder) prints as text.
One table of the book's pages (``book_pages``, each by its Markdown file: ``book/addresses.py``) answers both, and
validate (``link.broken``) asks it the same question.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from urllib.parse import unquote

from . import addresses, hints
from .addresses import CHANGES, ERRATA, FINDER, HOME, INDEX, KEEP
from .library import GameSource, Library
from .rendered import DEFINITION, label
from .words import _

OUTSIDE = ("http", "https", "mailto")  # the addresses the sanitizer of both outputs keeps (markup.URL_SCHEMES)
# The pages the site builds from no source, and where print has each (None: print has no such page).
SITE_PAGES = {HOME.doc: ("Home", None), FINDER.doc: ("Find a game", None), INDEX.doc: ("the index", "book-index"),
              ERRATA.doc: ("Errata", "errata"), CHANGES.doc: ("What changed", "changes")}


def doc_of_source(path: str, game_id: str | None) -> str:
    """The site page a prose file is printed on: a game's (``game_id``: its id) or a prose page's;
    ``content/golf.six-card-golf.md`` is part of ``games/golf.md``."""
    if game_id is not None:
        return addresses.game(game_id).doc
    return addresses.page(path.rsplit("/", 1)[-1].removesuffix(".md")).doc


@dataclass
class Page:
    """A page of the book as a link reaches it: its title, its parts (heading ids, worked out when first asked for),
    and where print has it (an id in the PDF, or None: print has no such page)."""

    title: str
    printed: str | None
    parts: Callable[[], set[str] | None] = lambda: None  # None: not known here (the site's check looks after the build)
    # The id print gives a part (a game's data block, a variant), by the site's id: a part print has no id for
    # (a heading of prose: ids of headings would clash book-wide) is the page's start.
    printed_parts: Callable[[], dict[str, str]] = dict
    _parts: set[str] | None = field(default=None, init=False)
    _printed: dict[str, str] | None = field(default=None, init=False)
    _known: bool = field(default=False, init=False)

    def printed_part(self, part: str) -> str | None:
        """The id print gives the part the site calls ``part``, or None: print has none for it."""
        if self._printed is None:
            self._printed = self.printed_parts()
        return self._printed.get(part)

    def anchors(self) -> set[str] | None:
        """The page's parts (heading ids), or None when they are not known before the site is built."""
        if not self._known:
            self._parts, self._known = self.parts(), True
        return self._parts


# --- Markdown links ------------------------------------------------------------------------------------------------

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_TICKS = re.compile(r"`+")


def _blank_code_spans(line: str) -> str:
    """The line with each code span blanked: a run of backticks closed by the next run of the same length
    (CommonMark's rule), found in one pass over the runs, so no line of backticks makes it slow."""
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(line)]
    following: list[int | None] = [None] * len(runs)
    nearest: dict[int, int] = {}
    for i in range(len(runs) - 1, -1, -1):
        size = runs[i][1] - runs[i][0]
        following[i] = nearest.get(size)
        nearest[size] = i
    out, i, done = [], 0, 0
    while i < len(runs):
        j = following[i]
        if j is None:
            i += 1
            continue
        out += [line[done:runs[i][0]], " " * (runs[j][1] - runs[i][0])]
        done, i = runs[j][1], j + 1
    return "".join(out) + line[done:]
# [text](target "title") and ![alt](target): the target bare or in <...>, a title after it in quotes or parentheses.
INLINE = re.compile(r"(?<!\\)(!?)\[((?:[^\[\]\\]|\\.|\[[^\[\]]*\])*)\]\(\s*(<[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)"
                    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)")
AUTOLINK = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>")
REFERENCE = re.compile(r"(?<![\\\]])\[((?:[^\[\]\\]|\\.)+)\](?:\[((?:[^\[\]\\]|\\.)*)\])?(?![(:])")


@dataclass(frozen=True)
class Link:
    """A link written in prose: its 1-based line and column, its target as written, and its text."""

    line: int
    col: int
    target: str
    text: str
    image: bool = False


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) of the lines of Markdown that are not in a fenced code block, code spans blanked."""
    fence = None
    for n, line in enumerate(text.splitlines(), 1):
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield n, _blank_code_spans(line) if "`" in line else line


def definitions(text: str) -> dict[str, tuple[int, str]]:
    """The link reference definitions of Markdown (``[label]: target``): label -> (line, target); the first wins."""
    found: dict[str, tuple[int, str]] = {}
    for n, line in prose_lines(text):
        m = DEFINITION.match(line) if "]:" in line else None
        if m:
            found.setdefault(label(m.group(1)), (n, m.group(2)))
    return found


def links(text: str) -> Iterator[Link]:
    """Every link (and image) in Markdown ``text``: inline, autolinks, and references to a definition."""
    defined = None
    for n, line in prose_lines(text):
        if "[" not in line and "<" not in line:
            continue
        if DEFINITION.match(line):
            continue
        taken = []
        for m in INLINE.finditer(line):
            taken.append(m.span())
            yield Link(n, m.start() + 1, m.group(3), m.group(2), bool(m.group(1)))
        for m in AUTOLINK.finditer(line):
            yield Link(n, m.start() + 1, m.group(1), m.group(1))
        if "][" in line or "[" in line:
            for m in REFERENCE.finditer(line):
                if any(start <= m.start() < end for start, end in taken):
                    continue
                if defined is None:
                    defined = definitions(text)
                named = label(m.group(2) or m.group(1))
                if named in defined:
                    yield Link(n, m.start() + 1, defined[named][1], m.group(1))


# --- Where a link leads --------------------------------------------------------------------------------------------

_SCHEME = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*):")


@dataclass(frozen=True)
class Leads:
    """Where a link leads: outside the book (``url``), to a page of the book (``doc``, ``part``), or nowhere
    (``problem``, with ``fix``: the form that works, when there is one)."""

    url: str | None = None
    doc: str | None = None
    part: str | None = None
    problem: str | None = None
    fix: str | None = None
    advice: str | None = None  # what to do when there is no one form that works


def _relative(doc: str, here: str) -> str:
    return posixpath.relpath(doc, posixpath.dirname(here) or ".")


def _nearest_doc(name: str, here: str, pages: dict[str, Page]) -> str | None:
    """The page of the book ``name`` most likely meant, written as a link from ``here``."""
    stem = posixpath.basename(name.rstrip("/")).removesuffix(".md").removesuffix(".html").lower()
    by_stem = {posixpath.basename(doc).removesuffix(".md"): doc for doc in pages if not doc.startswith(KEEP)}
    if "keep" in name.split("/") and stem in by_stem and addresses.keeper(stem).doc in pages:
        return _relative(addresses.keeper(stem).doc, here)
    if stem in by_stem:
        return _relative(by_stem[stem], here)
    close = hints.nearest(stem, by_stem)
    return _relative(by_stem[close], here) if close else None


def resolve(target: str, here: str, pages: dict[str, Page]) -> Leads:
    """Where the link ``target``, written on the site page ``here``, leads: as MkDocs takes it on the site."""
    target = target.strip()
    scheme = _SCHEME.match(target)
    if scheme:
        if scheme.group(1).lower() not in OUTSIDE:
            return Leads(problem=_("'%(group)s:' addresses are not kept: both outputs print only links to http, "
                                   "https and mailto addresses", group=scheme.group(1)), fix=None)
        if scheme.group(1).lower() in ("http", "https") and not target[scheme.end():].startswith("//"):
            return Leads(problem=_("an address with no site in it"), fix=f"{scheme.group(1).lower()}://{target[scheme.end():].lstrip('/')}")
        return Leads(url=target)
    if target.startswith("//"):
        return Leads(problem=_("an address with no scheme"), fix=f"https:{target}")
    if target.startswith("<"):  # Markdown's <address>: both outputs print a '<' of prose as written (raw HTML)
        inner = target.strip("<>").strip()
        return Leads(problem=_("an address in angle brackets works in neither output, which print '<' as written"),
                     fix=inner if inner and resolve(inner, here, pages).problem is None else None)
    path, _hash, part = target.partition("#")
    path = unquote(path)
    if not path:
        if not part:
            return Leads(problem=_("the link leads nowhere (no address)"), fix=None)
        return _part(here, part, pages, "#")
    if path.startswith("/"):
        fix = _nearest_doc(path, here, pages)
        return Leads(problem=_("an address from the site's root works on no copy of the site but one"), fix=fix)
    doc = posixpath.normpath(posixpath.join(posixpath.dirname(here), path))
    if doc.startswith("../") or doc == "..":
        fix = _nearest_doc(path, here, pages)
        return Leads(problem=_("it leads out of the book"), fix=fix and (fix + (f"#{part}" if part else "")))
    if doc not in pages:
        fix = _nearest_doc(path, here, pages)
        if fix and not path.endswith(".md"):
            why = _("the site links its pages by their Markdown file (name.md), not by their address")
        else:
            why = _("no page of the book is there")
        return Leads(problem=why, fix=fix and (fix + (f"#{part}" if part else "")))
    if path.endswith("/"):  # 'hearts.md/': the site takes it for a folder, where there is no page
        fixed = path.rstrip("/") + (f"#{part}" if part else "")
        return Leads(problem=_("a page's file is not a folder: the site finds nothing at a '/' after it"), fix=fixed)
    if part:
        return _part(doc, part, pages, _relative(doc, here) + "#")
    return Leads(doc=doc)


def _part(doc: str, part: str, pages: dict[str, Page], written: str) -> Leads:
    anchors = pages[doc].anchors() if doc in pages else None
    if anchors is None:  # a page the site makes as it builds (the home page, the errata): its parts are known only
        # then, so a link to one would pass validate and fail the build; the page alone is what a link can promise
        return Leads(problem=_("%(title)s is made as the site is built: its parts cannot be checked before (so "
                               "'#%(part)s' may lead nowhere)", title=pages[doc].title, part=part), fix=written.removesuffix("#") or None,
                     advice=_("link to the page alone"))
    if unquote(part) in anchors:
        return Leads(doc=doc, part=part)
    close = hints.nearest(unquote(part), anchors)
    named = sorted(anchors, key=lambda a: (a.count("-") > 3, a))  # headings before the data blocks' long ids
    some = ", ".join(f"#{a}" for a in named[:6]) + (_(" and %(value)s more", value=len(named) - 6) if len(named) > 6 else "") or _("none")
    return Leads(problem=_("%(title)s has no part '#%(part)s' (its parts: %(some)s)", title=pages[doc].title,
                           part=part, some=some),
                 fix=f"{written}{close}" if close else None, advice=_("link to one of its parts, or to the page alone"))


def heading_ids(headings: list[str]) -> set[str]:
    """The ids the site's table of contents gives headings (a repeated one gets '_1', '_2')."""
    return set(heading_id_list(headings))


def heading_id_list(headings: list[str]) -> list[str]:
    """The id the site's table of contents gives each heading, in order (a repeated one gets '_1', '_2')."""
    from markdown.extensions.toc import slugify, unique

    used: set[str] = set()
    ids = []
    for text in headings:
        plain = re.sub(r"[*_`]|\[([^\]]*)\]\([^)]*\)", r"\1", text).strip()
        ids.append(unique(slugify(plain, "-"), used))
    return ids


_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$")


def headings(text: str) -> list[str]:
    """The headings of Markdown ``text`` (ATX headings, outside code), in order."""
    return [m.group(1) for _, line in prose_lines(text) if line.lstrip().startswith("#")
            and (m := _HEADING.match(line))]


def _block_ids(body: object, prefix: str) -> set[str]:
    """The ids the site gives a game's (or a variant's) data blocks (templates/blocks.html.j2): its scoring
    tables, its rounds, its numbered alternate rules, its worked examples."""
    ids = {f"{prefix}scoring-{key}" for key in (getattr(body, "scoring", None) or {})}
    ids |= {f"{prefix}example-{key}" for key in (getattr(body, "examples", None) or {})}
    rounds = getattr(body, "rounds", None)
    if rounds is not None and rounds.items:  # rounds told as a sequence or by rank print no table
        ids.add(f"{prefix}rounds-table")
    alternate = getattr(body, "alternate_rules", None)
    ids |= {f"{prefix}alternate-rule-{rule.number}" for rule in (alternate.rules if alternate else [])
            if rule.number is not None}
    return ids


def _game_parts(lib: Library, gs: GameSource) -> tuple[dict[str, str | None], set[str]]:
    """A game page's heading ids in order (each with the variant whose heading it is, or None) and its blocks' ids."""
    from .prose import expand

    game, data = gs.game, gs.doc.data
    found: list[tuple[str, str | None]] = [(game.heading(), None)]
    found += [(h, None) for h in headings(expand(gs.prose.text, data, lib.scope()) if gs.prose else "")]
    blocks = _block_ids(game, "")
    for variant in game.variants:
        if not lib.includes(variant):
            continue
        found.append((_("Variant: %(title)s", title=variant.title), variant.id))
        prose = gs.variant_prose.get(variant.id)
        found += [(h, None) for h in headings(expand(prose.text, data, lib.scope()) if prose else "")]
        blocks |= _block_ids(variant, f"{variant.id}-")
    if game.score_sheet is not None or game.keeps_score():
        found.append(("Score sheet", None))
    found.append(("Sources", None))
    ids = heading_id_list([h for h, _ in found])
    return dict(zip(ids, (variant for _, variant in found), strict=True)), blocks


def book_pages(lib: Library) -> dict[str, Page]:
    """Every page of the edition's site a link in prose may lead to, by its Markdown file."""
    from .prose import expand

    pages: dict[str, Page] = {doc: Page(title, printed) for doc, (title, printed) in SITE_PAGES.items()}
    for p in lib.book.pages:
        text = lib.pages[p.id].text if p.id in lib.pages else ""
        pages[addresses.page(p.id).doc] = Page(p.title, f"page-{p.id}",
                                     lambda t=text, title=p.title: heading_ids([title, *headings(expand(t, lib.scope()))]))
    for gs in lib.ordered_games():
        game = gs.game
        ids_and_blocks = functools.cache(lambda gs=gs: _game_parts(lib, gs))

        def parts(ids_and_blocks=ids_and_blocks) -> set[str]:
            headed, blocks = ids_and_blocks()
            return set(headed) | blocks

        def printed_parts(ids_and_blocks=ids_and_blocks, game=game) -> dict[str, str]:
            # print's ids of a game's blocks are the site's with the game's id before them (blocks.html.j2, the
            # view's prefix); a variant's heading is its box, '<game>-<variant>-variant'
            headed, blocks = ids_and_blocks()
            return ({part: f"{game.id}-{variant}-variant" for part, variant in headed.items() if variant}
                    | {b: f"{game.id}-{b}" for b in blocks})

        pages[addresses.game(game.id).doc] = Page(game.heading(), f"game-{game.id}", parts, printed_parts)
        if game.keeps_score():
            pages[addresses.keeper(game.id).doc] = Page(_("the score keeper of %(heading)s", heading=game.heading()), None)
    return pages


def printed_target(target: str, here: str, pages: dict[str, Page]) -> str | None:
    """Where a link in prose goes in the PDF: the address outside, the id where print has the page it leads to
    (``#game-hearts``) or its part (a data block, a variant: ``#golf-scoring-cards``), or None when print has no
    such page (the link prints as its text)."""
    leads = resolve(target, here, pages)
    if leads.url is not None:
        return leads.url
    page = pages.get(leads.doc) if leads.doc is not None else None
    if page is None or page.printed is None:
        return None
    if leads.part is not None:
        part = page.printed_part(unquote(leads.part))
        if part is not None:
            return f"#{part}"
    return f"#{page.printed}"  # the page itself, or a part print gives no id (a heading of prose)

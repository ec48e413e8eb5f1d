"""Pictures of every page a change alters, before and after, the changed words marked: ``check-pr --pictures DIR``.

The book: both versions of the edition laid out in one child process (``render/pdf/pair.py``: the second lays out
again only the parts the change touched), their pages matched by their words (a page that only moved, its number
changed, is not a change), and each page whose words differ drawn (``pdftoppm``) with a box round every word the
change removes (red, before) or adds (green, after), from ``pdftotext -bbox-layout``'s positions of the words a word
diff finds changed. The site: both versions built (``render_site``), each page whose article reads otherwise shot in
Chromium at a phone's width and a desktop's, the changed words boxed the same way. ``index.html`` shows them side by
side.

A pull request is untrusted: the pictures are drawn only of a change that validates (``prcheck``), from the files in
the project; a link among the book's sources to a file outside the project is refused before anything is read
(``links_leaving``), so that no secret reaches a picture.
"""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
import threading
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from html.parser import HTMLParser
from pathlib import Path

from ..book import git
from ..book.files import MAX_ASSET_BYTES, MAX_OUTPUT_BYTES, copy_tree, read_file, read_file_text, read_source
from ..book.library import Library
from ..errors import BuildError, RulebookError
from ..progress import Report, quiet
from ..render.process import PAIR, SITE, Request
from ..render.site.engine import CONFIG, render_site

SOURCES = ("rules_data", "content", "templates", CONFIG)  # what the pictures are drawn from
WIDTHS = {"phone": 390, "desktop": 1280}  # px: the site's pictures
RESOLUTION = 80  # dpi of a book page's picture (its words' boxes are in points: 72 a inch)
REMOVED, ADDED = "#d62728", "#2ca02c"  # the boxes: red before, green after
CHROMIUM = "/usr/bin/chromium"
PAGE_LABEL = re.compile(r"(?:\d+[a-z]?|[ivxlc]+)", re.I)  # a page number in the running head or foot
BAND = 0.08  # of the page's height: where the running head and foot are
COMPARED = 20  # dpi of the pictures two pages' output is compared by (a colour, a size, a box renamed shows at this)
FEW = 3  # pages drawn of those a change of how the book is made alters alike (every game page: a few say it)


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
class Picture:
    """One page the change alters: what it is, and its pictures before and after (files in the folder; none on a
    side the page is not on)."""

    kind: str  # "book" or "site"
    name: str
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    marked: int = 0  # words boxed, both sides


@dataclass
class _Word:
    text: str
    box: tuple[float, float, float, float]  # xMin, yMin, xMax, yMax in points


@dataclass
class _Page:
    number: int  # 1-based, in the PDF
    height: float
    words: list[_Word]

    def said(self) -> list[int]:
        """The positions of its words but the page number in its running head or foot (a page that only moved says
        the same, and its number is not a change of its words)."""
        return [i for i, w in enumerate(self.words) if not (
            PAGE_LABEL.fullmatch(w.text) and (w.box[1] > self.height * (1 - BAND) or w.box[3] < self.height * BAND))]

    def header(self) -> str:
        """The words of its running head."""
        return " ".join(w.text for w in self.words if w.box[3] < self.height * BAND)

    def key(self) -> str:
        return " ".join(self.words[i].text for i in self.said())


_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', re.S)


def _pages(pdf: Path) -> list[_Page]:
    """Every page's words with their boxes (``pdftotext -bbox-layout``)."""
    out = _run(["pdftotext", "-bbox-layout", str(pdf), "-"], "read the book's words").stdout
    return [_Page(n, float(m[2]), [_Word(html.unescape(w[5]), tuple(map(float, w.group(1, 2, 3, 4)))) for w in _WORD.finditer(m[3])])
            for n, m in enumerate(_PAGE.finditer(out), 1)]


def _run(cmd: list[str], what: str) -> subprocess.CompletedProcess:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        raise BuildError(f"{cmd[0]}: not found: the pictures {what} with poppler-utils (apt-get install "
                         "poppler-utils)") from None
    if done.returncode != 0:
        raise BuildError(f"{cmd[0]} could not {what}: {(done.stderr.strip().splitlines() or ['no message'])[-1]}")
    return done


def changed_words(before: list[str], after: list[str]) -> tuple[set[int], set[int]]:
    """The positions of the words ``after`` removes from ``before``, and of those it adds."""
    gone: set[int] = set()
    came: set[int] = set()
    for op, i1, i2, j1, j2 in SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if op != "equal":
            gone.update(range(i1, i2))
            came.update(range(j1, j2))
    return gone, came


def _draw_page(pdf: Path, page: _Page, marked: set[int], colour: str, target: Path) -> None:
    """The page as a PNG, a box round each marked word."""
    from PIL import Image, ImageDraw

    prefix = target.with_suffix("")
    _run(["pdftoppm", "-png", "-r", str(RESOLUTION), "-f", str(page.number), "-l", str(page.number), "-singlefile",
          str(pdf), str(prefix)], "draw the book's pages")
    scale = RESOLUTION / 72
    with Image.open(io.BytesIO(read_file(prefix.with_suffix(".png"), MAX_OUTPUT_BYTES))) as image:
        drawn = image.convert("RGB")
    pen = ImageDraw.Draw(drawn)
    for i in sorted(marked):
        x0, y0, x1, y1 = page.words[i].box
        pen.rectangle([x0 * scale - 2, y0 * scale - 2, x1 * scale + 2, y1 * scale + 2], outline=colour, width=2)
    drawn.save(target)


_PART = re.compile(r"(game|page|section)-(.+)|book-index|errata|changes")  # anchors that open a part of the book


def _page_name(number: int, anchors: dict[str, int], lib: Library, header: str = "") -> str:
    """'page 14 (Dice (10,000), Game Board Layouts)': the page number and the parts of the book on it (a game running
    on from the page before, or a part its running ``header`` names, then each game, page or list that starts on
    it)."""
    def title(anchor: str) -> str:
        kind, _, rest = anchor.partition("-")
        if kind == "game" and rest in lib.games:
            return lib.games[rest].game.heading()
        if kind in ("page", "section"):
            return next((p.title for p in [*lib.book.pages, *lib.book.sections] if p.id == rest), rest)
        return {"book-index": lib.book.index_title, "errata": "Errata", "changes": "What changed"}.get(anchor, anchor)

    parts = [a for a, page in anchors.items() if page == number and _PART.fullmatch(a) and not a.startswith("section-")]
    running = [a for a, page in anchors.items() if a.startswith("game-") and page < number
               <= anchors.get(f"end-{a.removeprefix('game-')}", 0)]
    before = sorted(((page, a) for a, page in anchors.items() if page < number and _PART.fullmatch(a)
                     and not a.startswith("section-")), reverse=True)
    if not running and before and (not parts or title(before[0][1]) in header):
        running = [before[0][1]]  # a page or list begun before it (its running head says so), or its last pages
    names = [title(a) for a in sorted(running, key=anchors.get) + sorted(parts, key=list(anchors).index)]
    return f"page {number} ({', '.join(names)})" if names else f"page {number} (the front pages)"


def _rasters(pdf: Path, scratch: Path) -> dict[int, bytes]:
    """Each page's picture at a low resolution, its running head and foot left out (a page that only moved prints
    another number there): page number -> the grey pixels of the rest, to tell pages whose output differs."""
    from PIL import Image

    scratch.mkdir(parents=True, exist_ok=True)
    _run(["pdftoppm", "-r", str(COMPARED), "-gray", str(pdf), str(scratch / "p")], "draw the book's pages to compare")
    out = {}
    for path in scratch.glob("p-*.pgm"):
        with Image.open(io.BytesIO(read_file(path, MAX_OUTPUT_BYTES))) as image:
            band = int(image.height * BAND) + 1
            out[int(path.stem.rsplit("-", 1)[1])] = image.crop((0, band, image.width, image.height - band)).tobytes()
    return out


Todo = tuple[_Page | None, _Page | None, set[int], set[int]]  # a page before, after, the words boxed on each


def book_changes(old: list[_Page], new: list[_Page], anchors: tuple[dict[str, int], dict[str, int]],
                 rasters: list[dict[int, bytes]] | None = None, edited: set[str] | frozenset[str] = frozenset()
                 ) -> tuple[list[Todo], list[tuple[_Page, _Page]], dict[Words, tuple[list[int], set[str]]]]:
    """The book's pages the change alters, in the book's order, each with the words to box; the pages whose words
    are the same and whose output differs (by their ``rasters``: the first ``FEW`` of them are in the list too); and
    the pages changed alike (``alike``, by the pages' ``anchors`` before and after: the games on each), by their
    positions in the list, with the games they are of. The caller draws the list but a group's pages past its
    first ``FEW``."""
    def games_on(a: _Page | None, b: _Page | None) -> set[str]:
        page, marks = (b, anchors[1]) if b else (a, anchors[0])
        return {name.removeprefix("game-") for name, start in marks.items() if name.startswith("game-")
                and start <= page.number <= marks.get(f"end-{name.removeprefix('game-')}", start)}

    todo: list[Todo] = []
    worded: list[int] = []  # the positions in todo of the pages changed by words
    restyled: list[tuple[_Page, _Page]] = []
    blocks = SequenceMatcher(None, [p.key() for p in old], [p.key() for p in new], autojunk=False).get_opcodes()
    for op, i1, i2, j1, j2 in blocks:
        if op == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                if rasters is not None and rasters[0].get(old[i].number) != rasters[1].get(new[j].number):
                    restyled.append((old[i], new[j]))
                    if len(restyled) <= FEW:
                        todo.append((old[i], new[j], set(), set()))
            continue
        gone_in, came_in = block_marks(old[i1:i2], new[j1:j2])
        pairs = list(zip(range(i1, i2), range(j1, j2), strict=False))
        pairs += [(i, None) for i in range(i1 + len(pairs), i2)] + [(None, j) for j in range(j1 + len(pairs), j2)]
        for i, j in pairs:
            worded.append(len(todo))
            todo.append(((old[i] if i is not None else None), (new[j] if j is not None else None),
                         gone_in[i - i1] if i is not None else set(), came_in[j - j1] if j is not None else set()))

    def change(a: _Page | None, b: _Page | None, gone: set[int], came: set[int]) -> Words | None:
        if a is None or b is None:  # a page new or gone is always drawn
            return None
        return runs([w.text for w in a.words], gone), runs([w.text for w in b.words], came)

    on = [games_on(*todo[n][:2]) for n in worded]
    groups = alike([(games, change(*todo[n])) for games, n in zip(on, worded, strict=True)], set(edited))
    return todo, restyled, {words: ([worded[k] for k in at], set().union(*(on[k] for k in at)))
                            for words, at in groups.items()}


def book_pictures(folder: Path, out: Path, before_lib: Library, after_lib: Library, styled: bool = False,
                  edited: set[str] | frozenset[str] = frozenset()) -> tuple[list[Picture], list[str], list[Alike]]:
    """The pictures of the book's pages the change alters (``folder`` holds the pair's PDFs and anchors), and, when
    the change alters how the book is made (``styled``), the names of every page whose words are the same and whose
    output differs (a style, a template's markup): ``FEW`` of those are drawn. Pages changed alike (``alike``: not
    of a game in ``edited``) are grouped, ``FEW`` of each group drawn (``book_changes``)."""
    sides = [(folder / f"{side}.pdf", json.loads(read_file_text(folder / f"{side}.json")))
             for side in ("before", "after")]
    old, new = (_pages(pdf) for pdf, _ in sides)
    rasters = [_rasters(pdf, folder / f"{side}-rasters") for (pdf, _), side in zip(sides, ("before", "after"), strict=True)
               ] if styled else None

    def name_of(a: _Page | None, b: _Page | None) -> str:
        page, anchors, lib = (b, sides[1][1], after_lib) if b else (a, sides[0][1], before_lib)
        return f"book {_page_name(page.number, anchors, lib, page.header())}" + (
            "" if a and b and a.number == b.number else f" (page {a.number} before)" if a and b else
            " (new)" if b else " (gone)")

    def drawn(a: _Page | None, b: _Page | None, gone: set[int], came: set[int]) -> Picture:
        shown = Picture("book", name_of(a, b))
        for page, marked, colour, side, pdf in ((a, gone, REMOVED, "before", sides[0][0]),
                                                (b, came, ADDED, "after", sides[1][0])):
            if page is None:
                continue
            file = f"book-{page.number:03d}-{side}.png"
            _draw_page(pdf, page, marked, colour, out / file)
            getattr(shown, side).append(file)
            shown.marked += len(marked)
        return shown

    todo, restyled, groups = book_changes(old, new, (sides[0][1], sides[1][1]), rasters, edited)
    grouped = [Alike("book", words, [name_of(*todo[n][:2]) for n in at], games) for words, (at, games) in groups.items()]
    left_out = {n for at, _ in groups.values() for n in at[FEW:]}
    return ([drawn(*entry) for n, entry in enumerate(todo) if n not in left_out], [name_of(a, b) for a, b in restyled],
            grouped)


Words = tuple[tuple[str, ...], tuple[str, ...]]  # a page's change: the runs of words it removes, and those it adds


def runs(words: list[str], marked: set[int]) -> tuple[str, ...]:
    """The ``marked`` words (positions in ``words``) as runs of neighbours, each run one text, each text once."""
    out: list[list[str]] = []
    last = None
    for i in sorted(marked):
        if last is None or i != last + 1:
            out.append([])
        out[-1].append(words[i])
        last = i
    return tuple(dict.fromkeys(" ".join(run) for run in out))  # a box renamed twice on a page: the same change


@dataclass
class Alike:
    """Pages changed by the same words, none of a game whose own rules the change edits (a template renaming a box
    on every game page): said once in the summary, the first ``FEW`` drawn."""

    kind: str  # "book" or "site"
    change: Words
    names: list[str]  # every such page, in the book's (the site's) order
    games: set[str] = field(default_factory=set)  # the games whose pages they are


def alike(changed: list[tuple[set[str], Words | None]], edited: set[str]) -> dict[Words, list[int]]:
    """Of the pages changed by words (each: the games on it, and its change, None for a page new or gone), those
    changed alike, by change: more than ``FEW`` pages with the same change, none a page of a game in ``edited``
    (whose own data or text the change edits: a correction to several games draws each of them)."""
    groups: dict[Words, list[int]] = {}
    for n, (games, change) in enumerate(changed):
        if change is not None and change != ((), ()) and not games & edited:
            groups.setdefault(change, []).append(n)
    return {change: pages for change, pages in groups.items() if len(pages) > FEW}


def said_alike(change: Words) -> str:
    """A change of words in a phrase: '“Deal” is now “Dealing”', or what it removes and adds."""
    gone, came = (", ".join(f"“{w}”" for w in side) for side in change)
    if len(change[0]) == 1 and len(change[1]) == 1:
        return f"{gone} is now {came}"
    return "; ".join(part for part in (f"{gone} removed" if gone else "", f"{came} added" if came else "") if part)


def block_marks(old: list[_Page], new: list[_Page]) -> tuple[list[set[int]], list[set[int]]]:
    """The words to box on each page of a run of pages the change alters: those it removes (before) and adds (after).
    The run's words are diffed as one text, not page by page: words a change only pushed onto the next page
    (reflowed) are the same words in the same order, and are not boxed; nor are dot leaders, no words."""
    at_a = [(n, k) for n, page in enumerate(old) for k in page.said()]
    at_b = [(n, k) for n, page in enumerate(new) for k in page.said()]
    gone_at, came_at = changed_words([old[n].words[k].text for n, k in at_a], [new[n].words[k].text for n, k in at_b])
    gone: list[set[int]] = [set() for _ in old]
    came: list[set[int]] = [set() for _ in new]
    for marks, at, pages, found in ((gone, at_a, old, gone_at), (came, at_b, new, came_at)):
        for i in found:
            n, k = at[i]
            if re.search(r"\w", pages[n].words[k].text):
                marks[n].add(k)
    if 1 < len(old) == len(new):
        # A word diff is not always the smallest (difflib takes the longest matching run first, and a run of pages
        # alike, each changed the same way, can pair one page's words with the next's): page by page, when that
        # boxes fewer words, is the better account of what changed.
        pages = [block_marks([a], [b]) for a, b in zip(old, new, strict=True)]
        if sum(len(g[0]) + len(c[0]) for g, c in pages) < sum(map(len, gone + came)):
            return [g[0] for g, _ in pages], [c[0] for _, c in pages]
    return gone, came


class _Article(HTMLParser):
    """The text of a site page's article (what the page says, not the navigation every page repeats)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth, self.words = 0, []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "article" or self.depth:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.words += data.split()


def _article(path: Path) -> list[str] | None:
    if not path.is_file():
        return None
    reader = _Article()
    reader.feed(read_file(path, MAX_OUTPUT_BYTES).decode("utf-8", errors="replace"))
    return reader.words


# Boxes round the words of the article the other side does not have (a longest common subsequence of the words),
# drawn over the page (positioned, pointer-less: the page's own layout is not touched). Returns the words boxed.
_MARK = """([other, colour]) => {
  const root = document.querySelector("article") || document.body;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const words = [];
  for (let node; (node = walker.nextNode());) {
    if (node.parentElement.closest(".headerlink")) continue;  // a heading's permalink mark, shown on hover only
    for (const m of node.data.matchAll(/\\S+/g)) words.push({node, start: m.index, end: m.index + m[0].length, text: m[0]});
  }
  if (other === null) return 0;
  const n = words.length, m = other.length;
  if (n * m > 40000000) return -1;
  const width = m + 1, table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--)
    table[i * width + j] = words[i].text === other[j] ? table[(i + 1) * width + j + 1] + 1
      : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
  const marked = [];
  for (let i = 0, j = 0; i < n;) {
    if (j < m && words[i].text === other[j]) { i++; j++; }
    else if (j < m && table[i * width + j + 1] >= table[(i + 1) * width + j]) j++;
    else marked.push(words[i++]);
  }
  for (const w of marked) {
    const range = document.createRange();
    range.setStart(w.node, w.start);
    range.setEnd(w.node, w.end);
    for (const r of range.getClientRects()) {
      const box = document.createElement("div");
      box.style.cssText = `position:absolute;left:${r.left + scrollX - 2}px;top:${r.top + scrollY - 2}px;` +
        `width:${r.width + 4}px;height:${r.height + 4}px;border:2px solid ${colour};pointer-events:none;z-index:99999`;
      document.body.appendChild(box);
    }
  }
  return marked.length;
}"""


def _assets(site: Path) -> dict[str, bytes]:
    """The site's stylesheets and scripts (every page is drawn with them), by path."""
    return {p.relative_to(site).as_posix(): read_file(p, MAX_OUTPUT_BYTES) for p in site.rglob("*") if p.suffix in (".css", ".js")}


def restyled_pages(before: Path, after: Path, pages: list[str]) -> list[str]:
    """The site's pages (of ``pages``, whose words are the same) whose output differs: every page when a stylesheet
    or script differs, else each whose HTML does."""
    if _assets(before) != _assets(after):
        return pages
    return [rel for rel in pages if read_file(before / rel, MAX_OUTPUT_BYTES) != read_file(after / rel, MAX_OUTPUT_BYTES)]


def _site_name(rel: str) -> str:
    return f"site page {rel.removesuffix('index.html') or 'home page'}"


def _site_games(rel: str) -> set[str]:
    """The game a site page is the page of (``games/<id>/index.html``), if any."""
    found = re.fullmatch(r"games/([^/]+)/index\.html", rel)
    return {found[1]} if found else set()


def site_pictures(before: Path, after: Path, out: Path, progress: Report = quiet, styled: bool = False,
                  edited: set[str] | frozenset[str] = frozenset()) -> tuple[list[Picture], list[str], list[Alike]]:
    """The pictures of the site's pages whose article the change alters, at each of ``WIDTHS``; with ``styled`` (the
    change alters how the site is made), also the names of the pages whose words are the same and whose output
    differs, ``FEW`` of them drawn (game pages first). Pages changed alike (``alike``: not of a game in ``edited``)
    are grouped, ``FEW`` of each group drawn."""
    pages = sorted({p.relative_to(site).as_posix() for site in (before, after) for p in site.rglob("*.html")})
    changed = [(rel, a, b) for rel in pages if (a := _article(before / rel)) != (b := _article(after / rel))]

    def change(a: list[str] | None, b: list[str] | None) -> Words | None:
        if a is None or b is None:
            return None
        gone, came = changed_words(a, b)
        return runs(a, gone), runs(b, came)

    groups = alike([(_site_games(rel), change(a, b)) for rel, a, b in changed], set(edited))
    grouped = [Alike("site", words, [_site_name(changed[k][0]) for k in at],
                     set().union(*(_site_games(changed[k][0]) for k in at))) for words, at in groups.items()]
    same = [rel for rel in pages if rel not in {c[0] for c in changed} and (before / rel).is_file()
            and (after / rel).is_file()]
    left_out = {k for at in groups.values() for k in at[FEW:]}
    changed = [c for k, c in enumerate(changed) if k not in left_out]
    restyled = restyled_pages(before, after, same) if styled else []
    games_first = sorted(restyled, key=lambda rel: (not rel.startswith("games/"), rel))
    changed += [(rel, None, None) for rel in games_first[:FEW]]  # drawn whole: no word of theirs changed
    if not changed:
        return [], [], grouped
    need_playwright()
    # Playwright's synchronous API runs one event loop a thread, and refuses to start in a thread that runs one
    # already ("using Playwright Sync API inside the asyncio loop"): a caller's own Playwright (a test session's
    # shared Chromium) or asyncio loop. The pages are shot in a thread of their own, which never has one.
    outcome: list = []

    def shoot() -> None:
        try:
            outcome.append(_shoot(before, after, out, changed, progress))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread below
            outcome.append(exc)

    worker = threading.Thread(target=shoot, name="pictures: site pages", daemon=True)
    worker.start()
    worker.join()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    progress("pictures: site pages", len(changed), len(changed), final=True)
    return outcome[0], [_site_name(rel) for rel in restyled], grouped


def _shoot(before: Path, after: Path, out: Path, changed: list[tuple[str, list[str] | None, list[str] | None]],
           progress: Report) -> list[Picture]:
    """The pictures of the ``changed`` pages (``site_pictures``), shot in Chromium."""
    from playwright.sync_api import Error, sync_playwright

    pictures = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).exists() else None,
                                        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            tabs = {width: browser.new_page(viewport={"width": px, "height": 800}) for width, px in WIDTHS.items()}
            for done, (rel, a, b) in enumerate(changed):
                progress("pictures: site pages", done, len(changed))
                name = rel.removesuffix("index.html") or "home page"
                whole = a is None and b is None  # its words the same, its output not: drawn, nothing boxed
                shown = Picture("site", f"site page {name}" + (" (its output)" if whole else " (new)" if a is None
                                                                 else " (gone)" if b is None else ""))
                stem = re.sub(r"[^a-z0-9]+", "-", rel.removesuffix(".html").lower()).strip("-") or "home"
                for side, site, other, colour in (("before", before, b, REMOVED), ("after", after, a, ADDED)):
                    if not (site / rel).is_file():
                        continue
                    for width, tab in tabs.items():
                        tab.goto((site / rel).resolve().as_uri())
                        if not whole:
                            shown.marked += max(0, tab.evaluate(_MARK, [other, colour]))
                        file = f"site-{stem}-{width}-{side}.png"
                        tab.screenshot(path=str(out / file), full_page=True)
                        getattr(shown, side).append(file)
                pictures.append(shown)
            browser.close()
    except Error as exc:
        raise BuildError(f"Chromium could not draw the site's pages: {str(exc).splitlines()[0]}") from None
    return pictures


MADE = ("generator", "templates", CONFIG, "pyproject.toml", "requirements.lock")  # what the book is made with
RUNNING = Path(__file__).resolve().parents[2]  # the code running this check (the change's)
# What draws a side, run by that side's own code (its folder first on the path): its functions, not ours.
PAIR_RENDERER = "generator.render.pdf.pair"  # both books, in one process
SITE_BUILDER = "generator.render.site.engine"  # a side's site


def need_playwright() -> None:
    """One line when Playwright, which drives Chromium for the site's pictures, is not installed: it is the
    ``review`` extra, which only the pull-request pictures need."""
    try:
        import playwright.sync_api  # noqa: F401 - only asked whether it is there: the pages are shot in _shoot
    except ImportError:
        raise BuildError("playwright is not installed: check-pr --pictures draws the site's pages in Chromium with it; "
                         "install the review extra: pip install 'rulebook[review]'") from None


def checkout_made(ref: str, repo: Path, dest: Path) -> None:
    """What the base is made with (``MADE``: its code, templates and settings, those it has) unpacked into ``dest``
    beside its sources: its pages are drawn by its own making, not the change's."""
    listed = git.present(repo, ref, MADE)
    if listed:
        git.unpack(repo, ref, listed, dest)


def _code_of(side: Path) -> Path:
    """The code a side is drawn with: its own, if it has any (a project's checkout), else the running one."""
    return side if (side / "generator" / "__init__.py").is_file() else RUNNING


def _files(top: Path) -> dict[str, bytes]:
    found = {}
    for name in MADE:
        start = top / name
        for path in ([start] if start.is_file() else sorted(start.rglob("*")) if start.is_dir() else []):
            if path.is_file() and "__pycache__" not in path.parts and not path.is_symlink():
                found[path.relative_to(top).as_posix()] = read_file(path, MAX_OUTPUT_BYTES)
    return found


def made_differently(base: Path, root: Path) -> bool:
    """Whether the change alters what the book is made with (its code, templates, styles, settings)."""
    return _code_of(base) != _code_of(root) and _files(base) != _files(root)


def _render(code: Path, module: str, request: Request, games: int, what: str) -> None:
    """One side's render (``module`` given ``request``) in a process of its own code (``code`` first on the path,
    its folder the working one), under the limits a PDF render is given."""
    from ..render.pdf.worker import limits
    from ..render.process import MEMORY, TIMEOUT, run

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
         edited: set[str] | frozenset[str] = frozenset()) -> Drawn:
    """Pictures of every book and site page the change from ``base`` (the base's sources, and what it is made with
    when ``checkout_made`` unpacked it) to ``root`` alters, written to ``out`` with ``index.html``. Each side is drawn
    by its own code, templates and settings; when those differ, every page is compared by its output, not only its
    words. The pages of a game in ``edited`` (whose own rules the change edits) are each drawn; of pages changed alike
    otherwise, a few (``alike``). Refused, before anything is read, when a source is a link leaving the project."""
    leaving = links_leaving(root)
    if leaving:
        raise RulebookError(f"{leaving[0]}: a link to a file outside the project, which no picture may show: "
                            "put the file itself in its place")
    styled = made_differently(base, root)
    if _code_of(base) == _code_of(root):  # no code of the base's own (a bare folder of sources): drawn as the change's
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
        _render(_code_of(root), PAIR_RENDERER, Request(PAIR, str(root), after.edition.id, str(scratch), before=str(base),
                                                    before_edition=before.edition.id), games, "book render")
    else:  # each side by its own code (each laid out twice in its process: the second time from the first)
        for side, top, lib in (("before", base, before), ("after", root, after)):
            (scratch / side).mkdir()
            _render(_code_of(top), PAIR_RENDERER, Request(PAIR, str(top), lib.edition.id, str(scratch / side),
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
            _render(_code_of(top), SITE_BUILDER, Request(SITE, str(top), lib.edition.id, str(scratch / f"site-{side}"),
                                                      staging=str(staging), pages=json.loads(read_file_text(anchors))),
                    games, f"site ({side})")
        else:
            render_site(lib, scratch / f"site-{side}", staging, None, json.loads(read_file_text(anchors)))
        sites[side] = scratch / f"site-{side}"
        progress(f"pictures: the site {side}", final=True)
    shot, site_restyled, site_grouped = site_pictures(sites["before"], sites["after"], out, progress, styled, edited)
    pictures += shot
    (out / "index.html").write_text(index(pictures, before, after, grouped + site_grouped), encoding="utf-8")
    pages = len(list(sites["after"].rglob("*.html")))
    return Drawn(pictures, restyled + site_restyled, styled, pages, grouped + site_grouped)


DRAWN = re.compile(r"(book|site)-[a-z0-9-]+\.png|index\.html")  # the files a pictures folder holds


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


def index(pictures: list[Picture], before: Library, after: Library, alike_pages: list[Alike] | None = None) -> str:
    """The pictures' page: each changed page, before and after side by side; of pages changed alike, what the change
    is and the pages left out."""
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>The pages this change alters</title>",
           "<style>body{font-family:sans-serif;margin:1em}figure{margin:0}img{max-width:100%;border:1px solid #999}"
           ".pair{display:grid;grid-template-columns:1fr 1fr;gap:1em;align-items:start}"
           f".before figcaption{{color:{REMOVED}}}.after figcaption{{color:{ADDED}}}</style></head><body>",
           f"<h1>The pages this change alters: {e(before.edition.id)} before, {e(after.edition.id)} after</h1>",
           f'<p>Boxed <span style="color:{REMOVED}">red</span>: words the change removes (before). Boxed '
           f'<span style="color:{ADDED}">green</span>: words it adds (after).</p>']
    for group in alike_pages or []:
        out.append(f"<p>The same change on {len(group.names)} pages of the {group.kind}: {e(said_alike(group.change))}. "
                   f"The first {FEW} are drawn; left out: {e(', '.join(group.names[FEW:]))}.</p>")
    if not pictures:
        out.append("<p>The change alters no page of the book or the site.</p>")
    else:
        out.append("<ul>" + "".join(f'<li><a href="#p{n}">{e(p.name)}</a></li>' for n, p in enumerate(pictures)) + "</ul>")
    for n, picture in enumerate(pictures):
        out.append(f'<section id="p{n}"><h2>{e(picture.name)}</h2>')
        for n in range(max(len(picture.before), len(picture.after))):
            out.append('<div class="pair">')
            for side, files in (("before", picture.before), ("after", picture.after)):
                if n < len(files):
                    out.append(f'<figure class="{side}"><figcaption>{side}: {e(files[n])}</figcaption>'
                               f'<a href="{e(files[n])}"><img src="{e(files[n])}" alt="{e(picture.name)}, {side}"></a>'
                               "</figure>")
                else:
                    out.append(f'<figure class="{side}"><figcaption>{side}: not on this side</figcaption></figure>')
            out.append("</div>")
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"

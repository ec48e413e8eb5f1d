"""Pictures of the book's pages a change alters, before and after, the changed words boxed (``check-pr --pictures``).

Both versions of the edition are laid out by ``pair.py`` (in one child process: the second lays out again only the
parts the change touched); their pages are matched by their words (a page that only moved, its number changed, is not
a change), and each page whose words differ is drawn (``pdftoppm``) with a box round every word the change removes
(red, before) or adds (green, after), from ``pdftotext -bbox-layout``'s positions of the words a word diff finds
changed. When the change alters how the book is made, a page whose words are the same is compared by its output too
(each page drawn small, its running head and foot left out).
"""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from ...book.files import MAX_OUTPUT_BYTES, read_file, read_file_text
from ...book.library import Library
from ...errors import BuildError
from ..views.pictures import ADDED, FEW, REMOVED, Alike, Picture, Words, changed_words, group_alike, runs

RESOLUTION = 80  # dpi of a book page's picture (its words' boxes are in points: 72 a inch)
PAGE_LABEL = re.compile(r"(?:\d+[a-z]?|[ivxlc]+)", re.I)  # a page number in the running head or foot
BAND = 0.08  # of the page's height: where the running head and foot are
COMPARED = 20  # dpi of the pictures two pages' output is compared by (a colour, a size, a box renamed shows at this)


@dataclass
class Word:
    """A word of a page, where it is printed."""

    text: str
    box: tuple[float, float, float, float]  # xMin, yMin, xMax, yMax in points


@dataclass
class Page:
    """A page of a book's PDF and its words."""

    number: int  # 1-based, in the PDF
    height: float
    words: list[Word]

    def said(self) -> list[int]:
        """The positions of its words but the page number in its running head or foot (a page that only moved says
        the same, and its number is not a change of its words)."""
        return [i for i, w in enumerate(self.words) if not (
            PAGE_LABEL.fullmatch(w.text) and (w.box[1] > self.height * (1 - BAND) or w.box[3] < self.height * BAND))]

    def header(self) -> str:
        """The words of its running head."""
        return " ".join(w.text for w in self.words if w.box[3] < self.height * BAND)

    def key(self) -> str:
        """What the page says, its page number aside: two pages that say the same are one page moved."""
        return " ".join(self.words[i].text for i in self.said())


_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', re.S)


def _pages(pdf: Path) -> list[Page]:
    """Every page's words with their boxes (``pdftotext -bbox-layout``)."""
    out = _poppler(["pdftotext", "-bbox-layout", str(pdf), "-"], "read the book's words").stdout
    return [Page(n, float(m[2]), [Word(html.unescape(w[5]), tuple(map(float, w.group(1, 2, 3, 4)))) for w in _WORD.finditer(m[3])])
            for n, m in enumerate(_PAGE.finditer(out), 1)]


def _poppler(cmd: list[str], what: str) -> subprocess.CompletedProcess:
    """One of poppler-utils' programs run; its failure is one line saying what could not be done."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        raise BuildError(f"{cmd[0]}: not found: the pictures {what} with poppler-utils (apt-get install "
                         "poppler-utils)") from None
    if done.returncode != 0:
        raise BuildError(f"{cmd[0]} could not {what}: {(done.stderr.strip().splitlines() or ['no message'])[-1]}")
    return done


def _draw_page(pdf: Path, page: Page, marked: set[int], colour: str, target: Path) -> None:
    """The page as a PNG, a box round each marked word."""
    from PIL import Image, ImageDraw

    prefix = target.with_suffix("")
    _poppler(["pdftoppm", "-png", "-r", str(RESOLUTION), "-f", str(page.number), "-l", str(page.number), "-singlefile",
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
    _poppler(["pdftoppm", "-r", str(COMPARED), "-gray", str(pdf), str(scratch / "p")], "draw the book's pages to compare")
    out = {}
    for path in scratch.glob("p-*.pgm"):
        with Image.open(io.BytesIO(read_file(path, MAX_OUTPUT_BYTES))) as image:
            band = int(image.height * BAND) + 1
            out[int(path.stem.rsplit("-", 1)[1])] = image.crop((0, band, image.width, image.height - band)).tobytes()
    return out


Todo = tuple[Page | None, Page | None, set[int], set[int]]  # a page before, after, the words boxed on each


def book_changes(old: list[Page], new: list[Page], anchors: tuple[dict[str, int], dict[str, int]],
                 rasters: list[dict[int, bytes]] | None = None, edited: set[str] | frozenset[str] = frozenset()
                 ) -> tuple[list[Todo], list[tuple[Page, Page]], dict[Words, tuple[list[int], set[str]]]]:
    """The book's pages the change alters, in the book's order, each with the words to box; the pages whose words
    are the same and whose output differs (by their ``rasters``: the first ``FEW`` of them are in the list too); and
    the pages changed alike (``group_alike``, by the pages' ``anchors`` before and after: the games on each), by their
    positions in the list, with the games they are of. The caller draws the list but a group's pages past its
    first ``FEW``."""
    def games_on(a: Page | None, b: Page | None) -> set[str]:
        page, marks = (b, anchors[1]) if b else (a, anchors[0])
        return {name.removeprefix("game-") for name, start in marks.items() if name.startswith("game-")
                and start <= page.number <= marks.get(f"end-{name.removeprefix('game-')}", start)}

    todo: list[Todo] = []
    worded: list[int] = []  # the positions in todo of the pages changed by words
    restyled: list[tuple[Page, Page]] = []
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

    def change(a: Page | None, b: Page | None, gone: set[int], came: set[int]) -> Words | None:
        if a is None or b is None:  # a page new or gone is always drawn
            return None
        return runs([w.text for w in a.words], gone), runs([w.text for w in b.words], came)

    on = [games_on(*todo[n][:2]) for n in worded]
    groups = group_alike([(games, change(*todo[n])) for games, n in zip(on, worded, strict=True)], set(edited))
    return todo, restyled, {words: ([worded[k] for k in at], set().union(*(on[k] for k in at)))
                            for words, at in groups.items()}


def book_pictures(folder: Path, out: Path, before_lib: Library, after_lib: Library, styled: bool = False,
                  edited: set[str] | frozenset[str] = frozenset()) -> tuple[list[Picture], list[str], list[Alike]]:
    """The pictures of the book's pages the change alters (``folder`` holds the pair's PDFs and anchors), and, when
    the change alters how the book is made (``styled``), the names of every page whose words are the same and whose
    output differs (a style, a template's markup): ``FEW`` of those are drawn. Pages changed alike (``group_alike``: not
    of a game in ``edited``) are grouped, ``FEW`` of each group drawn (``book_changes``)."""
    sides = [(folder / f"{side}.pdf", json.loads(read_file_text(folder / f"{side}.json")))
             for side in ("before", "after")]
    old, new = (_pages(pdf) for pdf, _ in sides)
    rasters = [_rasters(pdf, folder / f"{side}-rasters") for (pdf, _), side in zip(sides, ("before", "after"), strict=True)
               ] if styled else None

    def name_of(a: Page | None, b: Page | None) -> str:
        page, anchors, lib = (b, sides[1][1], after_lib) if b else (a, sides[0][1], before_lib)
        return f"book {_page_name(page.number, anchors, lib, page.header())}" + (
            "" if a and b and a.number == b.number else f" (page {a.number} before)" if a and b else
            " (new)" if b else " (gone)")

    def drawn(a: Page | None, b: Page | None, gone: set[int], came: set[int]) -> Picture:
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


def block_marks(old: list[Page], new: list[Page]) -> tuple[list[set[int]], list[set[int]]]:
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

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
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from html.parser import HTMLParser
from pathlib import Path

from ..book.files import MAX_OUTPUT_BYTES, read_file, read_file_text
from ..book.library import Library
from ..errors import BuildError, RulebookError
from ..progress import Report, quiet
from ..render.site.engine import CONFIG, render_site

SOURCES = ("rules_data", "content", "templates", CONFIG)  # what the pictures are drawn from
WIDTHS = {"phone": 390, "desktop": 1280}  # px: the site's pictures
RESOLUTION = 80  # dpi of a book page's picture (its words' boxes are in points: 72 a inch)
REMOVED, ADDED = "#d62728", "#2ca02c"  # the boxes: red before, green after
CHROMIUM = "/usr/bin/chromium"
PAGE_LABEL = re.compile(r"(?:\d+[a-z]?|[ivxlc]+)", re.I)  # a page number in the running head or foot
BAND = 0.08  # of the page's height: where the running head and foot are


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


def book_pictures(folder: Path, out: Path, before_lib: Library, after_lib: Library) -> list[Picture]:
    """The pictures of the book's pages the change alters (``folder`` holds the pair's PDFs and anchors)."""
    sides = [(folder / f"{side}.pdf", json.loads(read_file_text(folder / f"{side}.json")))
             for side in ("before", "after")]
    old, new = (_pages(pdf) for pdf, _ in sides)
    pictures = []
    blocks = SequenceMatcher(None, [p.key() for p in old], [p.key() for p in new], autojunk=False).get_opcodes()
    for op, i1, i2, j1, j2 in blocks:
        if op == "equal":
            continue
        pairs = list(zip(range(i1, i2), range(j1, j2), strict=False))
        pairs += [(i, None) for i in range(i1 + len(pairs), i2)] + [(None, j) for j in range(j1 + len(pairs), j2)]
        for i, j in pairs:
            a, b = (old[i] if i is not None else None), (new[j] if j is not None else None)
            said_a, said_b = (a.said() if a else []), (b.said() if b else [])
            gone, came = changed_words([a.words[k].text for k in said_a], [b.words[k].text for k in said_b])
            # A page that is new (or gone) is named so, not boxed word by word; dot leaders are no words to box.
            gone = {said_a[k] for k in gone if b is not None and re.search(r"\w", a.words[said_a[k]].text)}
            came = {said_b[k] for k in came if a is not None and re.search(r"\w", b.words[said_b[k]].text)}
            page, anchors, lib = (b, sides[1][1], after_lib) if b else (a, sides[0][1], before_lib)
            name = _page_name(page.number, anchors, lib, page.header())
            shown = Picture("book", f"book {name}" + ("" if a and b and a.number == b.number else
                                                      f" (page {a.number} before)" if a and b else
                                                      " (new)" if b else " (gone)"))
            for page, marked, colour, side, pdf in ((a, gone, REMOVED, "before", sides[0][0]),
                                                    (b, came, ADDED, "after", sides[1][0])):
                if page is None:
                    continue
                file = f"book-{page.number:03d}-{side}.png"
                _draw_page(pdf, page, marked, colour, out / file)
                getattr(shown, side).append(file)
                shown.marked += len(marked)
            pictures.append(shown)
    return pictures


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


def site_pictures(before: Path, after: Path, out: Path, progress: Report = quiet) -> list[Picture]:
    """The pictures of the site's pages whose article the change alters, at each of ``WIDTHS``."""
    pages = sorted({p.relative_to(site).as_posix() for site in (before, after) for p in site.rglob("*.html")})
    changed = [(rel, a, b) for rel in pages if (a := _article(before / rel)) != (b := _article(after / rel))]
    if not changed:
        return []
    try:
        import playwright.sync_api  # noqa: F401 - only asked whether it is there: the pages are shot in _shoot
    except ImportError:
        raise BuildError("playwright: not installed: the site's pictures are drawn in Chromium (make venv)") from None
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
    return outcome[0]


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
                shown = Picture("site", f"site page {name}" + (" (new)" if a is None else " (gone)" if b is None else ""))
                stem = re.sub(r"[^a-z0-9]+", "-", rel.removesuffix(".html").lower()).strip("-") or "home"
                for side, site, other, colour in (("before", before, b, REMOVED), ("after", after, a, ADDED)):
                    if not (site / rel).is_file():
                        continue
                    for width, tab in tabs.items():
                        tab.goto((site / rel).resolve().as_uri())
                        shown.marked += max(0, tab.evaluate(_MARK, [other, colour]))
                        file = f"site-{stem}-{width}-{side}.png"
                        tab.screenshot(path=str(out / file), full_page=True)
                        getattr(shown, side).append(file)
                pictures.append(shown)
            browser.close()
    except Error as exc:
        raise BuildError(f"Chromium could not draw the site's pages: {str(exc).splitlines()[0]}") from None
    return pictures


def draw(root: Path, base: Path, before: Library, after: Library, out: Path, progress: Report = quiet) -> list[Picture]:
    """Pictures of every book and site page the change from ``base`` (the base's sources, unpacked) to ``root``
    alters, written to ``out`` with ``index.html``; return them. Refused, before anything is read, when a source is a
    link leaving the project."""
    from ..render.process import scratch_environment
    from .build import PDF_MEMORY_MB, PDF_MEMORY_MB_PER_GAME, PDF_TIMEOUT, PDF_TIMEOUT_PER_GAME, _limit_memory

    leaving = links_leaving(root)
    if leaving:
        raise RulebookError(f"{leaving[0]}: a link to a file outside the project, which no picture may show: "
                            "put the file itself in its place")
    for name in ("templates", CONFIG):  # both sides are drawn with this change's code and templates
        if (root / name).is_dir():
            shutil.copytree(root / name, base / name, dirs_exist_ok=True)
        elif (root / name).is_file():
            shutil.copy(root / name, base / name)
    _clear(out)
    scratch = base.parent / "pictures"
    scratch.mkdir(exist_ok=True)
    progress("pictures: the book before and after")
    games = len(before.games) + len(after.games)
    try:
        with scratch_environment() as env:
            done = subprocess.run([sys.executable, "-m", "generator.render.pdf.pair", str(base), before.edition.id,
                                   str(root), after.edition.id, str(scratch)], capture_output=True, text=True, env=env,
                                  timeout=PDF_TIMEOUT + PDF_TIMEOUT_PER_GAME * games,
                                  cwd=Path(__file__).resolve().parents[2],
                                  preexec_fn=_limit_memory(PDF_MEMORY_MB + PDF_MEMORY_MB_PER_GAME * games))
    except subprocess.TimeoutExpired:
        raise BuildError("the pictures' book render took too long and was stopped") from None
    if done.returncode != 0:
        raise BuildError(f"the pictures' book render failed: {(done.stderr.strip().splitlines() or ['no message'])[-1]}")
    progress("pictures: the book before and after", final=True)
    pictures = book_pictures(scratch, out, before, after)
    sites = {}
    for side, lib in (("before", before), ("after", after)):
        progress(f"pictures: the site {side}")
        anchors = json.loads(read_file_text(scratch / f"{side}.json"))
        staging = scratch / f"site-{side}-staging"
        staging.mkdir()
        render_site(lib, scratch / f"site-{side}", staging, None, anchors)
        sites[side] = scratch / f"site-{side}"
        progress(f"pictures: the site {side}", final=True)
    pictures += site_pictures(sites["before"], sites["after"], out, progress)
    (out / "index.html").write_text(index(pictures, before, after), encoding="utf-8")
    return pictures


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


def index(pictures: list[Picture], before: Library, after: Library) -> str:
    """The pictures' page: each changed page, before and after side by side."""
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>The pages this change alters</title>",
           "<style>body{font-family:sans-serif;margin:1em}figure{margin:0}img{max-width:100%;border:1px solid #999}"
           ".pair{display:grid;grid-template-columns:1fr 1fr;gap:1em;align-items:start}"
           f".before figcaption{{color:{REMOVED}}}.after figcaption{{color:{ADDED}}}</style></head><body>",
           f"<h1>The pages this change alters: {e(before.edition.id)} before, {e(after.edition.id)} after</h1>",
           f'<p>Boxed <span style="color:{REMOVED}">red</span>: words the change removes (before). Boxed '
           f'<span style="color:{ADDED}">green</span>: words it adds (after).</p>']
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

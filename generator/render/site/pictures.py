"""Pictures of the site's pages a change alters, before and after, the changed words boxed (``check-pr --pictures``).

Both versions of the site are built (``engine.render_site``, by each side's own code when the change alters how the
book is made); each page whose article reads otherwise is shot in Chromium (driven by Playwright) at a phone's width
and a desktop's, a box drawn round every word the other side does not have (``templates/pictures/mark-words.js``).
When the change alters how the site is made, the pages whose words are the same and whose output differs are found
too, and a few of them shot whole.
"""

from __future__ import annotations

import contextlib
import functools
import re
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

from ...book.files import MAX_OUTPUT_BYTES, TOOL_TEMPLATES, read_file, read_source_text
from ...errors import BuildError
from ...progress import Report, quiet
from ..views.pictures import ADDED, FEW, REMOVED, Alike, Picture, Words, changed_words, group_alike, runs

WIDTHS = {"phone": 390, "desktop": 1280}  # px: the site's pictures
CHROMIUM = "/usr/bin/chromium"
MARK_WORDS = TOOL_TEMPLATES / "pictures" / "mark-words.js"  # the script that boxes the changed words of a page


def need_playwright() -> None:
    """One line when Playwright, which drives Chromium for the site's pictures, is not installed: it is the
    ``review`` extra, which only the pull-request pictures need."""
    try:
        import playwright.sync_api  # noqa: F401 - only asked whether it is there: the pages are shot in _shoot
    except ImportError:
        raise BuildError("playwright is not installed: check-pr --pictures draws the site's pages in Chromium with it; "
                         "install the review extra: pip install 'rulebook[review]'") from None


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
    """The words of the page's article; None where there is no such page."""
    if not path.is_file():
        return None
    reader = _Article()
    reader.feed(read_file(path, MAX_OUTPUT_BYTES).decode("utf-8", errors="replace"))
    return reader.words


@functools.cache
def _mark_words() -> str:
    """The script that boxes the words (its function: Playwright calls it with the other side's words and a colour)."""
    return read_source_text(MARK_WORDS, "templates/pictures/mark-words.js", TOOL_TEMPLATES).strip()


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
    differs, ``FEW`` of them drawn (game pages first). Pages changed alike (``group_alike``: not of a game in
    ``edited``) are grouped, ``FEW`` of each group drawn."""
    pages = sorted({p.relative_to(site).as_posix() for site in (before, after) for p in site.rglob("*.html")})
    changed = [(rel, a, b) for rel in pages if (a := _article(before / rel)) != (b := _article(after / rel))]

    def change(a: list[str] | None, b: list[str] | None) -> Words | None:
        if a is None or b is None:
            return None
        gone, came = changed_words(a, b)
        return runs(a, gone), runs(b, came)

    groups = group_alike([(_site_games(rel), change(a, b)) for rel, a, b in changed], set(edited))
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


@contextlib.contextmanager
def _served(site: Path) -> Iterator[str]:
    """``site`` served over http at a free port of this machine's loopback address, for as long as it is needed: a
    page's scripts and styles act as they do for a reader (a script may act otherwise on a file: address)."""
    import http.server

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the name http.server gives it
            """Nothing logged: a request of the pictures' is no news."""

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, name="pictures: a site served", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _shoot(before: Path, after: Path, out: Path, changed: list[tuple[str, list[str] | None, list[str] | None]],
           progress: Report) -> list[Picture]:
    """The pictures of the ``changed`` pages (``site_pictures``), shot in Chromium."""
    from playwright.sync_api import Error, sync_playwright

    mark_words = _mark_words()
    pictures = []
    try:
        with _served(before) as at_before, _served(after) as at_after, sync_playwright() as p:
            address = {before: at_before, after: at_after}
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
                        tab.goto(f"{address[site]}/{rel}")  # over http, as a reader gets it (never file:)
                        if not whole:
                            shown.marked += max(0, tab.evaluate(mark_words, [other, colour]))
                        file = f"site-{stem}-{width}-{side}.png"
                        tab.screenshot(path=str(out / file), full_page=True)
                        getattr(shown, side).append(file)
                pictures.append(shown)
            browser.close()
    except Error as exc:
        raise BuildError(f"Chromium could not draw the site's pages: {str(exc).splitlines()[0]}") from None
    return pictures

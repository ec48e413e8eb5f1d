"""The text of every page of a built site as a reader's browser shows it: each site served over http (its scripts act
as they do for a reader, never as on a file: address), each page loaded in Chromium (driven by Playwright) with its
styles and scripts, and its text read as it is laid out (``innerText``: what a style hides is gone), with the words the
styles write (``::before`` and ``::after`` ``content:``) put where they show. For the pull-request check's released
editions, whose readers must read the same words whatever a change does to the site's templates, styles or scripts.
"""

from __future__ import annotations

import threading
from pathlib import Path

from ...errors import BuildError
from .pictures import CHROMIUM, _served, need_playwright

# Each element's ::before and ::after words (their content's strings, and attr() read from the element) put into the
# page as text where they show, then the page's text as laid out. Counters and images aside: words only.
READ_PAGE = r"""() => {
  // The search dialog's results and their count, which say how far the search's worker has got (the same words on
  // every page, once it is ready): not the book's words.
  for (const output of document.querySelectorAll(".md-search__output")) output.remove();
  const part = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([\w-]+)\s*\)/g;
  const said = (el, pseudo) => {
    const content = getComputedStyle(el, pseudo).content;
    if (!content || content === "none" || content === "normal") return "";
    let out = "";
    for (const m of content.matchAll(part)) out += m[1] ?? m[2] ?? (el.getAttribute(m[3]) || "");
    return out.replace(/\\([0-9a-fA-F]{1,6}) ?/g, (_, hex) => String.fromCodePoint(parseInt(hex, 16)));
  };
  const voids = new Set(["AREA", "BR", "COL", "EMBED", "HR", "IMG", "INPUT", "LINK", "META", "SOURCE", "TRACK", "WBR"]);
  const words = [...document.querySelectorAll("body *")].filter(el => !voids.has(el.tagName))
    .map(el => [el, said(el, "::before"), said(el, "::after")]);
  for (const [el, before, after] of words) {
    if (before) el.insertBefore(document.createTextNode(before), el.firstChild);
    if (after) el.appendChild(document.createTextNode(after));
  }
  return document.body ? document.body.innerText : "";
}"""


def pages_read(sites: list[Path]) -> list[dict[str, str]]:
    """For each built site of ``sites``, every page's text as Chromium shows it (``READ_PAGE``), by the page's path
    in the site. One line (``BuildError``) when Playwright or Chromium is missing or fails."""
    need_playwright()
    # Playwright's synchronous API refuses to start in a thread that runs an event loop (a caller's own): read in a
    # thread of its own, which never has one (as the pictures are shot).
    outcome: list = []

    def read() -> None:
        try:
            outcome.append(_read(sites))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread below
            outcome.append(exc)

    worker = threading.Thread(target=read, name="released: site pages read", daemon=True)
    worker.start()
    worker.join()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _read(sites: list[Path]) -> list[dict[str, str]]:
    import contextlib

    from playwright.sync_api import Error, sync_playwright

    found: list[dict[str, str]] = []
    try:
        with contextlib.ExitStack() as stack, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).exists() else None,
                                        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            tab = browser.new_page(viewport={"width": 1280, "height": 800})
            for site in sites:
                address = stack.enter_context(_served(site))
                texts = {}
                for page in sorted(site.rglob("*.html")):
                    rel = page.relative_to(site).as_posix()
                    tab.goto(f"{address}/{rel}", wait_until="load")  # over http, as a reader gets it
                    texts[rel] = tab.evaluate(READ_PAGE)
                found.append(texts)
            browser.close()
    except Error as exc:
        raise BuildError(f"Chromium could not read the site's pages: {str(exc).splitlines()[0]}") from None
    return found

"""Offline, editions never mix: two editions published one after the other at /latest/, served as GitHub Pages serves
them (``Cache-Control: max-age=600``: a browser may keep each file 10 minutes), in Chromium. The second edition's
service worker keeps the second edition's pages, not the first's from the browser's HTTP cache, and keeps no page
another edition served.

Cheap: no book is built. Each edition is a few pages marked as the build marks them (offline.mark_edition) and the
worker the build writes for them (offline.worker_script, templates/site/sw.js.j2)."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest

from generator.book.addresses import OFFLINE, opened_at
from generator.render.site.offline import mark_edition, worker_script
from tests.conftest import CHROMIUM

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium package is not installed")]

PAGES = ("index.html", "about/index.html", "keep/hearts/index.html", OFFLINE.built)
REGISTER = "<script>navigator.serviceWorker.register('{root}sw.js')</script>"


def _edition(site: Path, edition: str, root: str = "/latest/") -> None:
    """Write into ``site`` an edition's pages (each saying which edition it is) and its worker."""
    for rel in PAGES:
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        page = (f"<!doctype html><html lang='en'><head><title>{edition}</title></head><body>"
                f"<h1>Edition {edition}: {rel}</h1>{REGISTER.format(root=root)}</body></html>")
        (site / rel).write_text(mark_edition(page, edition), encoding="utf-8")
    (site / "sw.js").write_text(worker_script(edition, [opened_at(rel) for rel in PAGES], edition.replace(".", "")),
                                encoding="utf-8")


class _GitHubPages(http.server.SimpleHTTPRequestHandler):
    """What GitHub Pages sends: every file may be kept by the browser for 10 minutes."""

    def send_head(self):
        # Python's server answers If-Modified-Since by the second: a file rewritten within the second it was read in
        # would be 'not modified'. GitHub Pages compares ETags, which change with the content.
        del self.headers["If-Modified-Since"]
        return super().send_head()

    def end_headers(self):
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def pages(tmp_path):
    """The server (its address) and the folder it serves as the site's root."""
    root = tmp_path / "gh-pages"
    root.mkdir()
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_GitHubPages, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", root
    httpd.shutdown()


def _in_charge(page, version: str) -> None:
    """Wait until the worker whose cache is named by ``version`` is in charge of the page, its cache the only one
    (asked every 100 ms: wait_for_function takes a promise for a true answer)."""
    for _ in range(200):
        if page.evaluate("""v => caches.keys().then(names => names.length === 1 && names[0].includes(" " + v + " ")
            && navigator.serviceWorker.controller !== null)""", version):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the worker of {version} never took charge")


def test_a_new_edition_at_latest_keeps_its_own_pages(browser, pages):
    server, root = pages
    _edition(root / "latest", "2026.1")
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(server + "/latest/")
    _in_charge(page, "20261")
    page.goto(server + "/latest/about/")  # read with a network: the browser keeps it 10 minutes
    assert "2026.1" in page.locator("h1").inner_text()

    _edition(root / "latest", "2026.2")  # the next edition published at the same address
    page.goto(server + "/latest/")
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    _in_charge(page, "20262")
    kept = page.evaluate("""() => caches.keys().then(names => caches.open(names[0])).then(cache => cache.keys()
        .then(requests => Promise.all(requests.map(r => cache.match(r).then(res => res.text())))))""")
    assert kept and all("Edition 2026.2" in text for text in kept), "\n".join(kept)

    context.set_offline(True)
    for address in ("about/", "keep/hearts/", ""):
        page.goto(server + "/latest/" + address)
        assert page.locator("h1").inner_text().startswith("Edition 2026.2"), address
    context.close()


def test_a_page_another_edition_served_is_not_kept(browser, pages):
    """The worker of 2026.1 in charge while the server already serves 2026.2's pages (published, the new worker not yet
    installed): it shows them, and keeps none of them; offline, the pages it kept are 2026.1's."""
    server, root = pages
    _edition(root / "latest", "2026.1")
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(server + "/latest/")
    _in_charge(page, "20261")
    context.route("**/latest/sw.js", lambda route: route.abort())  # the new worker is not fetched
    for rel in PAGES:
        _edition(root / "next", "2026.2")
        (root / "latest" / rel).write_text((root / "next" / rel).read_text(encoding="utf-8"), encoding="utf-8")
    page.goto(server + "/latest/about/")
    assert "2026.2" in page.locator("h1").inner_text()  # online: the server's page
    page.wait_for_timeout(500)  # the worker's put, were it to keep it
    context.set_offline(True)
    page.goto(server + "/latest/about/")
    assert page.locator("h1").inner_text().startswith("Edition 2026.1")
    context.close()

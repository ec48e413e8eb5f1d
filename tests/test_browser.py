"""The published site in a real browser (Debian's Chromium driven by Playwright).

The site is deployed with mike to a gh-pages branch of a throw-away git repository, exactly as
`make publish` does, then served on 127.0.0.1 and read the way a person at the card table would.
"""

from __future__ import annotations

import functools
import http.server
import io
import shutil
import subprocess
import tarfile
import threading
from pathlib import Path

import pytest

from generator.publish import publish
from tests.conftest import copy_project, sharing_pdfs

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium package is not installed")]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def published(tmp_path_factory) -> Path:
    """Both editions deployed with mike, the gh-pages branch unpacked into a folder."""
    repo = copy_project(tmp_path_factory.mktemp("repo"))
    root = Path(__file__).resolve().parents[1]
    shutil.copy(root / "mkdocs.yml", repo / "mkdocs.yml")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "book"], check=True)
    with sharing_pdfs(tmp_path_factory):  # the editions' PDFs are the shared builds'; mike builds each site
        assert publish(repo) == ["2026.1", "2026.2"]
    tree = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", "gh-pages"], capture_output=True,
                          check=True).stdout
    site = tmp_path_factory.mktemp("gh-pages")
    with tarfile.open(fileobj=io.BytesIO(tree)) as tar:
        tar.extractall(site, filter="data")
    return site


@pytest.fixture(scope="session")
def server(published):
    handler = functools.partial(_Quiet, directory=str(published))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    pg = context.new_page()
    pg.on("request", lambda r: requests.append(r.url))
    pg.requests = requests
    yield pg
    context.close()


def test_root_redirects_to_the_current_edition(page, server):
    page.goto(server + "/")
    page.wait_for_url("**/latest/**")
    assert "Metzker Book Of Card Game Rules" in page.title()


def test_search_finds_a_game_and_opens_it(page, server):
    page.goto(server + "/latest/")
    page.wait_for_load_state("networkidle")  # the search index loads in a worker
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator(".md-search__input").press_sequentially("Canadian Salad", delay=50)
    result = page.locator(".md-search-result__item a").first
    result.wait_for(timeout=10000)
    result.click()
    page.wait_for_url("**/games/canadian-salad/**")
    assert page.locator("h1").first.inner_text().startswith("Canadian Salad")


def test_version_selector_switches_editions(page, server):
    page.goto(server + "/2026.2/")
    selector = page.locator(".md-version__current")
    selector.wait_for(timeout=10000)
    assert "2026.2" in selector.inner_text()
    page.locator(".md-version").first.hover()  # the list of versions opens on hover, as for a reader
    page.locator(".md-version__link", has_text="2026.1").first.click()
    page.wait_for_url("**/2026.1/**")
    assert "2026.1" in page.locator(".md-version__current").inner_text()
    # The published edition has the index as printed, typo and all; the current one is corrected.
    page.goto(server + "/2026.1/book-index/")
    assert "Alphapetical Index of Games" in page.locator("h1").first.inner_text()
    page.goto(server + "/2026.2/book-index/")
    assert "Alphabetical Index of Games" in page.locator("h1").first.inner_text()


def test_game_finder_we_are_five_with_one_deck(page, server):
    page.goto(server + "/latest/finder/")
    page.fill("#finder-players", "5")
    page.select_option("#finder-equipment", "one-deck")
    visible = page.locator("#finder-results li:not([hidden]) a").all_inner_texts()
    for game in ("Thirty One", "Hearts", "Oh Hell! (Screw your neighbour)", "Saskatchewan Rummy", "Basic Rummy",
                 "Rummoli (board game)"):
        assert game in visible, f"{game} should fit five players with one deck"
    for game in ("Euchre", "500 Rummy", "Canadian Salad (Whist)", "10 Dime Rummy", "Golf", "Five Hundreds"):
        assert game not in visible, f"{game} does not fit five players with one deck"
    assert page.locator("#finder-count").inner_text() == f"{len(visible)} games fit"


def test_phone_layout_of_a_game_page(browser, server, tmp_path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    page.goto(server + "/latest/games/hand-and-foot/")
    shot = tmp_path / "hand-and-foot-phone.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    # Nothing wider than the phone: tables scroll inside themselves, the page does not.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator(".glance-table").first.is_visible()
    context.close()


def test_pages_make_no_request_beyond_the_site(page, server):
    for path in ("/latest/", "/latest/games/golf/", "/latest/finder/"):
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
    outside = [u for u in page.requests if not u.startswith(server) and not u.startswith("data:")]
    assert outside == []


@pytest.mark.parametrize("path", ["/latest/", "/latest/games/court-whist/", "/latest/finder/",
                                  "/2026.1/games/thirty-one/"])
def test_no_serious_accessibility_violation(page, server, path):
    from axe_playwright_python.sync_playwright import Axe

    page.goto(server + path)
    results = Axe().run(page)
    serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == [], [(v["id"], v["help"], len(v["nodes"])) for v in serious]


def test_structure_reads_as_the_sources_write_it(page, server, library):
    """Hearts' passing rotation sits under its rule; only the source's bold words on the Court Whist card
    are bold (row labels are plain); Family Golf's diagram keeps every space and line."""
    page.goto(server + "/2026.1/games/hearts/")
    rule = page.locator("li", has_text="After looking at his or her hand").first
    left = rule.locator("li", has_text="Left").first
    assert left.bounding_box()["x"] >= rule.bounding_box()["x"] + 10

    page.goto(server + "/2026.1/games/court-whist/")
    cells = page.evaluate("""() => [...document.querySelectorAll('.score-sheet tbody th')].map(th =>
        [Number(getComputedStyle(th).fontWeight),
         [...th.querySelectorAll('strong')].map(s => [s.textContent, Number(getComputedStyle(s).fontWeight)])])""")
    assert all(weight < 600 for weight, _ in cells), "score-sheet row labels are bold"
    strong = [(text, weight) for _, spans in cells for text, weight in spans]
    assert {text for text, _ in strong} == {"King-Spades", "King-Hearts", "King-Clubs", "King-Diamonds", "Hearts",
                                            "Diamonds", "extra"}
    assert all(weight >= 600 for _, weight in strong)

    page.goto(server + "/latest/games/golf/")
    prose = (library.root / "content" / "golf.family-four-card-golf.md").read_text(encoding="utf-8")
    diagram = prose.split("```\n")[1]
    assert page.locator("pre").first.inner_text().rstrip("\n") == diagram.rstrip("\n")

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
from typing import Any

import pytest

from generator.commands.publish import publish
from tests.conftest import CHROMIUM, sharing_pdfs

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium package is not installed")]


# Every page registers the book's service worker, which keeps the whole edition (0.6 CPU-seconds a browser context).
# The tests of the book offline let it run; the others, which read what a page shows, block it.
NO_WORKER = "block"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def published(tmp_path_factory, built) -> Path:
    """Both editions deployed with mike, the gh-pages branch unpacked into a folder.

    The copy's templates/ is a link to the tool's, which the tool reads as its own: a book's own templates/, however
    like the tool's, are part of its renders' key (render/pdf/cache.py), and with a copy of them the editions' PDFs
    were laid out again here rather than copied from the shared builds' (``built``)."""
    root = Path(__file__).resolve().parents[1]
    repo = tmp_path_factory.mktemp("repo")
    for name in ("rules_data", "content", "schema"):
        shutil.copytree(root / name, repo / name)
    (repo / "templates").symlink_to(root / "templates")
    shutil.copy(root / "mkdocs.yml", repo / "mkdocs.yml")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "book"], check=True)
    with sharing_pdfs(tmp_path_factory):  # the editions' PDFs are the shared builds'; mike builds each site
        assert publish(repo).deployed == ["2026.1", "2026.2"]
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


# The screens the tests read pages on: a computer's, and a phone's (a family at the card table).
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}


def _shared_page(browser, options: dict):
    """A page in a browser context of its own, for every test of the module that reads pages on that screen: each
    test navigates it. A new context and page cost Chromium 0.3 CPU-seconds more than a navigation (its window, a
    renderer process started, the theme's scripts compiled again)."""
    page = browser.new_context(service_workers=NO_WORKER, **options).new_page()
    page.on("request", lambda r: page.requests.append(r.url))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def _as_new(page, server: str, options: dict):
    """The shared page as a new reader's: what the site kept in the browser (the keepers' scores, the theme's
    settings) removed, the screen's size and media as the context's, and the requests and errors of this test only."""
    if page.url.startswith(server):
        page.evaluate("localStorage.clear(); sessionStorage.clear()")
    page.set_viewport_size(options["viewport"])
    page.emulate_media(media="screen")
    page.requests, page.errors = [], []
    return page


@pytest.fixture(scope="module")
def _desktop(browser):
    page = _shared_page(browser, DESKTOP)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def _phone(browser):
    page = _shared_page(browser, PHONE)
    yield page
    page.context.close()


@pytest.fixture
def page(_desktop, server):
    """A page on a computer's screen (its service worker blocked), with ``requests``: the addresses it asked for,
    and ``errors``: its scripts' uncaught errors."""
    return _as_new(_desktop, server, DESKTOP)


@pytest.fixture
def phone(_phone, server):
    """A page on a phone's screen, 390 px wide (its service worker blocked), as ``page``."""
    return _as_new(_phone, server, PHONE)


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


# An earlier edition says that a newer one exists and links the same page in it, or the newest edition's home when the
# page is not in it (assets/editions.js); the newest says nothing. (the page read, where its banner leads; None: none)
BANNERS = [("/2026.1/games/hearts/", "/2026.2/games/hearts/"), ("/2026.1/errata/", "/2026.2/errata/"),
           ("/2026.1/", "/2026.2/"), ("/2026.2/games/hearts/", None), ("/latest/changes/", None)]


@pytest.mark.parametrize("path,newest", BANNERS, ids=[b[0] for b in BANNERS])
def test_an_earlier_edition_links_the_same_page_in_the_newest(page, server, path, newest):
    page.goto(server + path)
    page.wait_for_load_state("networkidle")
    banner = page.locator("[data-md-component=outdated]")
    if newest is None:
        assert not banner.is_visible()
    else:
        link = banner.locator("a[data-newest-edition]")
        assert banner.is_visible() and "earlier edition" in banner.inner_text()
        assert link.get_attribute("href") == server + newest and "2026.2 – Revision 2 (Nov/2026)" in link.inner_text()
    assert page.errors == []


def test_a_page_the_newest_edition_does_not_have_links_its_home(page, server):
    """A game retired since (here: the newest edition's copy of the page answers 404) leads to the newest's home."""
    page.route("**/2026.2/games/hearts/", lambda route: route.fulfill(status=404, body="not here"))
    page.goto(server + "/2026.1/games/hearts/")
    page.wait_for_load_state("networkidle")
    link = page.locator("[data-md-component=outdated] a[data-newest-edition]")
    assert link.get_attribute("href") == server + "/2026.2/" and "this page is not in it" in link.inner_text()
    page.unroute("**/2026.2/games/hearts/")


def test_the_banner_fits_a_phone(phone, server):
    phone.goto(server + "/2026.1/games/hand-and-foot/")
    phone.wait_for_load_state("networkidle")
    banner = phone.locator("[data-md-component=outdated]")
    assert banner.is_visible() and banner.bounding_box()["width"] <= 390
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.locator("a[data-newest-edition]").get_attribute("href") == server + "/2026.2/games/hand-and-foot/"


# The version selector keeps the page: (the page read, the edition chosen, where the reader lands). A page the edition
# chosen does not have (Trash is new in 2026.2) opens that edition's home; a place on the page is kept.
SWITCHES = [("/2026.2/games/hearts/", "2026.1", "/2026.1/games/hearts/"),
            ("/2026.1/games/golf/#golf", "2026.2", "/2026.2/games/golf/#golf"),
            ("/2026.2/errata/", "2026.1", "/2026.1/errata/"),
            ("/2026.2/games/trash/", "2026.1", "/2026.1/")]


@pytest.mark.parametrize("path,edition,lands", SWITCHES, ids=[f"{s[0]} to {s[1]}" for s in SWITCHES])
def test_the_version_selector_keeps_the_page(page, server, path, edition, lands):
    page.goto(server + path)
    page.locator(".md-version__current").wait_for(timeout=10000)
    page.locator(".md-version").first.hover()
    page.locator(".md-version__link", has_text=edition).first.click()
    page.wait_for_url(server + lands)
    assert edition in page.locator(".md-version__current").inner_text()
    assert page.errors == []


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


def test_game_finder_one_deck_per_table_couple_or_as_the_players_need(page, server):
    """Issue 52: a game that needs one deck a table (Court Whist) or a couple (the Gin tournament) is a one-deck game
    for one table or one couple (issue 60: not for 8 at two tables, nor for two couples); one whose decks depend on the
    players is one deck where one serves (Sweep: at least 18 cards each, one deck for two) and several elsewhere; one
    deck a player is several decks."""
    page.goto(server + "/latest/finder/")

    def shown(players: str, equipment: str) -> set[str]:
        page.fill("#finder-players", players)
        page.select_option("#finder-equipment", equipment)
        return set(page.locator("#finder-results li:not([hidden]) a").all_inner_texts())

    assert {"Court Whist"} <= shown("4", "one-deck") and "Court Whist" in shown("8", "one-deck-per-table")
    assert "Court Whist" not in shown("8", "one-deck") and "Court Whist" in shown("8", "several-decks")
    assert {"Gin Rummy (Tournament Rules)", "Sweep"} <= shown("2", "one-deck")
    assert "Gin Rummy (Tournament Rules)" not in shown("4", "one-deck")
    assert "Sweep" not in shown("5", "one-deck") and "Sweep" in shown("5", "several-decks")
    assert "Sweep" in shown("", "one-deck") and "Sweep" in shown("", "depends-on-players")
    assert "Hand and Foot Canasta" not in shown("", "one-deck") and "Hand and Foot Canasta" in shown("4", "several-decks")
    assert "Fast Track (Board Game)" not in shown("4", "one-deck") and "Fast Track (Board Game)" in shown("4", "several-decks")
    assert "Trash" in shown("5", "one-deck") and "Trash" not in shown("8", "one-deck")


def test_game_finder_any_names_no_least_number(page, server):
    """Issue 42: 'Any' is any: the finder filters an 'Any' game by no least number (it gave them a minimum of 2,
    a count no source states); a game whose count names one still has it."""
    page.goto(server + "/latest/finder/")
    page.fill("#finder-players", "1")
    visible = page.locator("#finder-results li:not([hidden]) a").all_inner_texts()
    assert {"Hearts", "Mexican Train (Dominoes)", "Golf", "Sticks"} <= set(visible), visible
    assert not {"Euchre", "Five Hundreds", "Chase the Ace", "Court Whist"} & set(visible), visible


def test_game_finder_partnerships(page, server):
    """Games whose rules say nothing of partners carry no partnership (not 'none'): 'No partners' still lists them,
    'Partners or teams' does not; games played in partnerships or teams, or with or without, are listed there."""
    page.goto(server + "/latest/finder/")
    page.select_option("#finder-partners", "partners")
    partners = page.locator("#finder-results li:not([hidden]) a").all_inner_texts()
    page.select_option("#finder-partners", "none")
    alone = page.locator("#finder-results li:not([hidden]) a").all_inner_texts()
    assert {"Euchre", "500 Rummy", "Fast Track (Board Game)", "5 In a Row (Board Game)"} <= set(partners)
    assert "Hearts" not in partners and "Hearts" in alone and "Euchre" not in alone
    assert "Fast Track (Board Game)" in alone  # with or without partners: both lists
    assert page.locator('#finder-results li[data-partnerships="none"]').count() == 0


def test_phone_layout_of_a_game_page(browser, server, tmp_path):
    context = browser.new_context(**PHONE, device_scale_factor=2, service_workers=NO_WORKER)  # a phone's sharp screen
    page = context.new_page()
    page.goto(server + "/latest/games/hand-and-foot/")
    shot = tmp_path / "hand-and-foot-phone.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    # Nothing wider than the phone: tables scroll inside themselves, the page does not.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator(".glance-table").first.is_visible()
    # The edition's name in the header stops short of the light/dark switch (it ran under it).
    edition = page.locator(".md-version__current")
    edition.wait_for(timeout=10000)
    switch = page.locator(".md-header__option").first.bounding_box()
    assert edition.bounding_box()["x"] + edition.bounding_box()["width"] <= switch["x"], "the header's text overlaps"
    assert "2026.2" in edition.inner_text()
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


# The score keeper at phone width, one case a kind of game: the game, the names typed, the scores typed
# across each round (the shown players' boxes, in the order Tab visits them), each player's total, and
# what the keeper says of the leader by the game's stated winner rule.
KEEPERS = [
    # low wins, game to 100 (the stated target ends it)
    ("hearts", ["Ann", "Bea", "Cy", "Dee"], [[5, 0, 13, 8], [60, 3, 0, 13], [40, 0, 13, 0]], [105, 3, 26, 21],
     "Ann reached 100. Lowest total: Bea with 3."),
    # first to a target (500), high: a minus score typed as '-' and one made negative with the ± button
    ("five-hundreds", ["Ann", "Bea"], [[120, -40], [300, 90], [100, "±60"]], [520, -10],
     "Ann reached 500 with 520."),
    # a losing score below zero (500 Rummy: "the first team to minus 150 loses") is reached going down, and
    # only then: teams above it have not reached it
    # (each team's Bid above its Score, every bid across and then every score: only the bidding team bids; issue 42)
    ("five-hundred-rummy", ["Us", "Them"], [["", 90, 60, "±90"], ["", 70, 40, "±70"]], [100, -160],
     "Them reached -150. Highest total: Us with 100."),
    ("five-hundred-rummy", ["Us", "Them"], [[60, "", 60, 30], ["", 70, 40, 70]], [100, 100],
     "Highest total: Us and Them with 100."),
    # bid and made: each player's Bid above the Score, typed as the hand is played (every bid, then every score);
    # the Total adds the Score, not the Bid
    ("oh-hell", ["Ann", "Bea", "Cy", "Dee"], [[2, 1, 3, 0, 12, 0, 13, 10], [1, 0, 2, 1, 11, 10, 0, 0]],
     [23, 10, 13, 10], "Highest total: Ann with 23."),
    # to a target and back down (Dice: "at least 10,000 and then back down to zero or less"): past the target each
    # turn is taken off with the ± key ("You are now working down from this score")
    ("dice-10000", ["Ann", "Bea"], [[6000, 3000], [4500, 2000], ["±7000", 1000], ["±3600", 500]], [-100, 6500],
     "Ann reached 10000 and then 0."),
    ("dice-10000", ["Ann", "Bea"], [[6000, 3000], [4500, 2000], ["±400", 1000]], [10100, 6000],
     "Working down from 10000: Ann 10100."),
    # partners: one column a team, first to 10
    ("euchre", ["Us", "Them"], [[1, 0], [2, 0], [0, 4]], [3, 4], "Highest total: Them with 4."),
    # lives (the stakes, 3 dimes each): dimes lost a hand, named by the game's coin; who alone has some left is
    # said (last standing wins), not who is out: Thirty One plays "one round on your face" after the last quarter
    ("chase-the-ace", ["Ann", "Bea", "Cy", "Dee", "Eve", "Fay"], [[1, 0, 1, 1, 1, 1], [1, 0, 1, 1, 1, 1],
                                                                  [1, 1, 1, 1, 1, 1]], [3, 1, 3, 3, 3, 3],
     "Dimes left: Ann 0, Bea 2, Cy 0, Dee 0, Eve 0, Fay 0. Bea is the only one with dimes left."),
    ("thirty-one", ["Ann", "Bea", "Cy"], [[1, 0, 2], [1, 1, 0]], [2, 1, 2],
     "Quarters left: Ann 1, Bea 2, Cy 1."),
]


def _negative(library, game: str) -> bool:
    from generator.render.pdf.book import game_pages
    from generator.render.pdf.scorepad import sheet_view
    from generator.render.views.sheets import keepers

    heading, view = sheet_view(next(p for p in game_pages(library) if p.id == game), None)
    return keepers(view, heading, game)[0].sheet.negative


@pytest.mark.parametrize("game,names,rounds,totals,status", KEEPERS, ids=[k[0] for k in KEEPERS])
def test_keep_score_on_a_phone(phone, server, library, tmp_path, game, names, rounds, totals, status):
    page = phone
    page.goto(server + f"/latest/games/{game}/")
    page.locator(".keeper-link a").focus()  # a link wrapped over lines: its middle may be another element's
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/keep/{game}/")
    keeper = page.locator(".keeper").first
    negative = _negative(library, game)  # a score can be below zero: the ± key is there, and only then
    assert keeper.locator("[data-act=negate]").count() == int(negative)
    assert negative or not any(str(s).startswith(("-", "±")) for r in rounds for s in r)
    for _ in range(len(names), keeper.locator(".keeper-name:visible").count()):
        keeper.locator("[data-act=remove]").click()
    assert keeper.locator(".keeper-name:visible").count() == len(names)
    for box, name in zip(keeper.locator(".keeper-name:visible").all(), names, strict=True):
        box.fill(name)
    cells = keeper.locator("tbody input:visible")
    width = len(rounds[0])
    assert cells.nth(0).get_attribute("inputmode") == "numeric"
    order = cells.evaluate_all("cells => cells.map(cell => cell.dataset.cell)")  # the boxes shown, as laid out
    cells.nth(0).focus()
    for r, scores in enumerate(rounds):
        for c, score in enumerate(scores):
            assert page.evaluate("document.activeElement.dataset.cell") == order[r * width + c], \
                "Tab goes across a round, then to the next round"
            text = str(score)
            page.keyboard.type(text.lstrip("±"))
            if text.startswith("±"):
                keeper.locator("[data-act=negate]").click()
            page.keyboard.press("Tab")

    def shown() -> tuple[list[int], str]:
        """Each player's total (a Total row's, or the running total of the last hand written) and the status."""
        if running:
            written = [row for row in running_after() if row] or [[0] * width]
            return written[-1], keeper.locator(".keeper-status").inner_text()
        per_player = {}
        for player, total in keeper.locator(".keeper-total output:visible").evaluate_all(
                "outs => outs.map(out => [out.getAttribute('data-player'), out.innerText])"):
            per_player[player] = per_player.get(player, 0) + int(total)
        return list(per_player.values()), keeper.locator(".keeper-status").inner_text()

    def running_after() -> list[list[int]]:
        """The running totals each hand's row shows, player by player (none below the last hand written)."""
        return [[int(t) for t in keeper.locator(f"tbody tr:nth-child({r + 1}) output.keeper-run:visible").all_inner_texts()
                 if t] for r in range(len(rounds))]

    def values(boxes) -> list[str]:
        return boxes.evaluate_all("boxes => boxes.map(box => box.value)")

    running = keeper.locator("output.keeper-run").count() > 0
    if running:  # the total so far beside each hand: after hand 2 it is hands 1 and 2 added, player by player
        typed = [[-int(str(v)[1:]) if str(v).startswith("±") else int(v) for v in scores] for scores in rounds]
        assert running_after() == [[sum(h[c] for h in typed[:r + 1]) for c in range(width)] for r in range(len(rounds))]
        assert keeper.locator(f"tbody tr:nth-child({len(rounds) + 1}) output.keeper-run:visible").all_inner_texts() == \
            [""] * width, "a running total shows below the last hand written"
    assert shown() == (totals, status)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page scrolls sideways"
    page.emulate_media(media="print")
    page.pdf(path=str(tmp_path / f"keeper-{game}.pdf"))
    printed = subprocess.run(["pdftotext", "-layout", str(tmp_path / f"keeper-{game}.pdf"), "-"],
                             capture_output=True, text=True, check=True).stdout
    assert names[0] in printed and status in " ".join(printed.split()) and "New game" not in printed
    page.emulate_media(media="screen")

    page.reload()  # kept in the browser
    assert shown() == (totals, status)
    if running:
        assert running_after()[1] == [a + b for a, b in zip(typed[0], typed[1], strict=True)]
    assert values(keeper.locator(".keeper-name:visible")) == names
    page.once("dialog", lambda d: d.accept())
    keeper.locator("[data-act=new]").click()
    assert [value for value in values(cells) if value] == [], "a new game starts with every box empty"
    assert shown() == ([0] * len(totals), "")
    page.reload()
    assert [value for value in values(cells) if value] == [], "the new game is kept"
    assert page.errors == []


# A family at the table: a phone 360 or 390 px wide, four players (the book's "4-player game") or six.
PHONES = [360, 390]
PLAYERS = [4, 6]
LONG_NAME = "Grandmother Josephine"


# Each keeper of a page at four players and at six where it offers six: a long name typed in the first player's box,
# players added or removed with the keeper's own buttons, then what overflows: the page and each table's frame
# (sideways scrolling), the cells beyond the screen's edge, and whether the name is cut with an ellipsis.
FIT = """([width, players, name]) => [...document.querySelectorAll('.keeper')].flatMap((root, k) => {
    const counts = root.dataset.counts.split(',').map(Number);
    const shown = () => [...root.querySelectorAll('.keeper-name')].filter(box => box.offsetParent !== null).length;
    return players.filter(n => counts.includes(n)).map(n => {
        const box = root.querySelector('.keeper-name');
        box.value = name;
        box.dispatchEvent(new Event('input', {bubbles: true}));
        for (let i = 0; i < 20 && shown() !== n; i++) {
            root.querySelector(shown() > n ? '[data-act=remove]' : '[data-act=add]').click();  // the keeper's own
        }
        const frames = [...root.querySelectorAll('.keeper-scroll')].map(f => f.scrollWidth - f.clientWidth);
        return {keeper: k + 1, players: n, shown: shown(), page: document.documentElement.scrollWidth - width,
                table: Math.max(...frames), off: [...root.querySelectorAll('td, th')].filter(c =>
                    c.offsetParent !== null && c.getBoundingClientRect().right > width + 0.5).length,
                cut: box.scrollWidth > box.clientWidth, ellipsis: getComputedStyle(box).textOverflow};
    });
})"""


def test_every_keeper_fits_a_phone_with_four_or_six_players(phone, server, published):
    """Every keeper of the current edition, on a phone 360 and 390 px wide, at four players and at six where the sheet
    offers six: no sideways scrolling of the page or of a table, every player's column and total on the screen, and
    a long name cut with an ellipsis in its column instead of widening it."""
    page = phone
    games = sorted(p.name for p in (published / "2026.2" / "keep").iterdir() if p.is_dir() and not p.name.startswith("_"))
    checked, found = set(), []
    widths = PHONES
    for game in games:
        page.goto(server + f"/2026.2/keep/{game}/")
        for width in widths:
            if page.viewport_size != (size := {"width": width, "height": 800}):
                page.set_viewport_size(size)
            for fit in page.evaluate(FIT, [width, PLAYERS, LONG_NAME]):
                checked.add((game, width, fit["players"]))
                fits = fit["page"] <= 0 and fit["table"] <= 0 and fit["off"] == 0
                if not (fits and fit["shown"] == fit["players"] and fit["cut"] and fit["ellipsis"] == "ellipsis"):
                    found.append(f"{game} at {width} px: {fit}")
        widths = widths[::-1]  # the next game opens at the width this one ended at (a resize lays a page out again)
    assert {("hearts", w, n) for w in PHONES for n in PLAYERS} | {("oh-hell", w, 6) for w in PHONES} <= checked
    assert found == [], "\n".join(found)


def test_a_keeper_for_any_number_adds_players_past_eight(phone, server, tmp_path):
    """Issue 52: 'Any' keeps no cap, 'at least 6' keeps 6 as its floor and no ceiling: on a phone 360 px wide a
    keeper adds a 9th and a 12th player past the 8 columns its sheet prints, keeps their scores and totals (and
    after a reload), the table scrolling in its frame, not the page; a count the rules close (Oh Hell!) stays closed."""
    page = phone
    page.set_viewport_size({"width": 360, "height": 800})
    for game, floor in (("hearts", 2), ("chase-the-ace", 6), ("mexican-train", 2)):
        page.goto(server + f"/2026.2/keep/{game}/")
        page.evaluate("localStorage.clear()")
        page.reload()
        keeper = page.locator(".keeper").first
        table = keeper.locator("table.keeper-table").first
        heads = table.locator("thead th[data-player]:visible")
        add, remove = keeper.locator("[data-act=add]"), keeper.locator("[data-act=remove]")
        while not remove.is_disabled():
            remove.click()
        assert heads.count() == floor, game
        while heads.count() < 12:
            assert not add.is_disabled(), (game, heads.count())
            add.click()
            if heads.count() == 9:
                table.locator("tbody td[data-player='9'] input[data-cell]").first.fill("9")
        assert not add.is_disabled()
        box = table.locator("tbody td[data-player='12'] input[data-cell]")
        box.nth(0).fill("12")
        box.nth(1).fill("5")
        # its total (a total row's, or the total so far under its second hand)
        totals = keeper.locator("output.keeper-run[data-player='12'], tr.keeper-total output[data-player='12']")
        assert "17" in totals.all_inner_texts(), game
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, game
        shot = tmp_path / f"{game}.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000
        page.reload()
        assert heads.count() == 12 and box.nth(1).input_value() == "5", game
        assert table.locator("tbody td[data-player='9'] input[data-cell]").first.input_value() == "9", game
    page.goto(server + "/2026.2/keep/oh-hell/")
    keeper = page.locator(".keeper").first
    while not keeper.locator("[data-act=add]").is_disabled():
        keeper.locator("[data-act=add]").click()
    assert keeper.locator("table.keeper-table thead th[data-player]:visible").count() == 5


def _worker_in_charge(page) -> None:
    """Wait until the book's service worker controls the page: asked every 100 ms, not at every frame (Playwright's
    default, which keeps the page drawing 60 frames a second, 0.08 CPU-seconds a second of waiting)."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", polling=100, timeout=20000)


def _opened_once(browser, server, worker: bool) -> tuple[Any, list[str]]:
    """A phone opens the edition's home page with a network (its service worker let through or not), and the worker,
    if any, takes charge: the page, and the errors the pages it opens meet."""
    context = browser.new_context(**PHONE)
    if not worker:
        context.route("**/sw.js", lambda route: route.abort())
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/2026.2/")
    if worker:
        _worker_in_charge(page)
    else:
        page.wait_for_load_state("networkidle")
    return page, errors


def test_the_whole_edition_works_offline_once_any_page_is_opened(browser, server, published):
    """The home page opened once with a network keeps the whole edition: offline, a game page never opened opens,
    styled; its search finds another game and opens it; that game's score keeper keeps score. Online, a page is the
    network's (a corrected edition is seen at once). A PDF is kept only once it is opened."""
    page, errors = _opened_once(browser, server, worker=True)
    asked: list[str] = []  # by the pages and by the worker
    page.context.on("request", lambda r: asked.append(r.url))
    pdf = "/2026.2/downloads/" + next((published / "2026.2" / "downloads").glob("*.pdf")).name
    assert not page.evaluate("u => caches.match(u).then(Boolean)", server + pdf), "a PDF is not kept before it is opened"

    def corrected(route):
        response = route.fetch()
        route.fulfill(response=response, body=response.text().replace("<h1", '<h1 data-corrected="1"', 1))
    page.context.route("**/2026.2/games/hearts/", corrected)
    page.goto(server + "/2026.2/games/hearts/")
    assert page.locator("h1[data-corrected]").count() == 1, "online, the page is the network's"
    page.context.unroute("**/2026.2/games/hearts/")
    assert page.evaluate("u => fetch(u).then(r => r.ok)", server + pdf)  # the reader opens the PDF

    page.context.set_offline(True)
    assert page.goto(server + "/2026.2/games/euchre/").from_service_worker
    assert page.locator("h1").first.inner_text().startswith("Euchre")
    assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") == "sticky", \
        "the theme's stylesheet is kept too"
    page.locator("label.md-header__button[for=__search]").click()  # the phone's search button
    page.locator(".md-search__input").press_sequentially("Canadian Salad", delay=30)
    result = page.locator(".md-search-result__item a").first
    result.wait_for(timeout=10000)  # the search worker and its index, from the kept copy
    result.click()
    page.wait_for_url("**/games/canadian-salad/**")
    assert page.locator("h1").first.inner_text().startswith("Canadian Salad")
    page.locator(".keeper-link a").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/keep/canadian-salad/")
    keeper = page.locator(".keeper").first
    keeper.locator("tbody input:visible").first.fill("13")
    assert keeper.locator("output.keeper-run[data-player='1']").first.inner_text() == "13"
    page.goto(server + "/2026.2/games/hearts/")
    assert page.locator("h1[data-corrected]").count() == 1, "the copy kept is the last the network gave"
    assert page.evaluate("u => fetch(u).then(r => r.ok)", server + pdf), "a PDF opened is kept"
    other = next(p.name for p in (published / "2026.2" / "downloads" / "score-sheets").glob("*.pdf"))
    page.goto(server + f"/2026.2/downloads/score-sheets/{other}")  # a PDF never opened: the page that says so
    assert page.locator("h1").first.inner_text().startswith("This page is not on this device yet")
    assert errors == []
    assert asked and [u for u in asked if not u.startswith(server + "/")] == [], "nothing is fetched beyond the site"
    page.context.close()


def test_without_its_worker_the_book_does_not_open_offline(browser, server):
    """The negative control: the same first steps with the worker's script blocked, and a page never opened does not
    open offline."""
    from playwright.sync_api import Error

    page, _ = _opened_once(browser, server, worker=False)
    page.context.set_offline(True)
    with pytest.raises(Error, match="ERR_INTERNET_DISCONNECTED"):
        page.goto(server + "/2026.2/games/euchre/")
    page.context.close()


def test_the_book_installs_on_a_phone(browser, server):
    """The web app manifest as Chromium reads it: the book's name, the edition as its start and scope, the book's
    green, icons a phone installs from (192 and 512 px); and Chromium finds nothing that stops installing it but the
    test's private window."""
    import json
    import re

    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(server + "/2026.2/games/hearts/")
    _worker_in_charge(page)
    cdp = context.new_cdp_session(page)
    read = cdp.send("Page.getAppManifest")
    assert read["url"] == server + "/2026.2/manifest.webmanifest" and read["errors"] == []
    stated = json.loads(read["data"])
    title = re.sub(r"^.* - ", "", page.title())  # the page's title ends with the edition's
    assert stated["name"] == title and "2026.2" in title
    assert read["manifest"]["startUrl"] == read["manifest"]["scope"] == server + "/2026.2/"
    assert read["manifest"]["display"] == "kStandalone"
    green = page.evaluate("getComputedStyle(document.body).getPropertyValue('--md-primary-fg-color').trim()")
    assert stated["theme_color"] == green
    icons = {(i["sizes"], i["type"]) for i in stated["icons"]}
    assert {("192x192", "image/png"), ("512x512", "image/png")} <= icons
    for icon in stated["icons"]:
        size = page.evaluate("""u => new Promise(done => { const i = new Image(); i.onload = () =>
            done(i.naturalWidth + "x" + i.naturalHeight); i.onerror = () => done(null); i.src = u; })""",
                             server + "/2026.2/" + icon["src"])
        assert size == icon["sizes"]
    blocking = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in blocking if e["errorId"] != "in-incognito"] == []
    context.close()


def _worker_version(server: str, path: str) -> tuple[bytes, str]:
    """The worker at ``path`` and the version of the edition it keeps."""
    import re
    import urllib.request

    script = urllib.request.urlopen(server + path).read()
    return script, re.search(rb'^var VERSION = "(\w+)";$', script, re.M)[1].decode()


EARLIER = [
    # /latest/ moves from one edition to the next: the worker /latest/ had is 2026.1's
    ("latest", lambda script: script),
    # a corrected build of the same edition: its worker keeps another version of the files
    ("2026.2", lambda script: script.replace(b'var VERSION = "', b'var VERSION = "0ld')),
]


@pytest.mark.parametrize(("address", "earlier"), EARLIER, ids=[e[0] for e in EARLIER])
def test_a_corrected_edition_at_the_same_address_replaces_the_kept_one(browser, server, address, earlier):
    """The worker's cache is named by the edition, a digest of what it keeps and the address: a new edition (or a
    corrected build) published at an address the device keeps is kept in its place, and the older copy removed."""
    older, old_version = _worker_version(server, "/2026.1/sw.js" if address == "latest" else f"/{address}/sw.js")
    older = earlier(older)
    old_version = old_version if address == "latest" else "0ld" + old_version
    _, version = _worker_version(server, f"/{address}/sw.js")
    edition = "2026.2"
    context = browser.new_context(**PHONE)
    if address == "latest":  # /latest/ as it was, 2026.1's files all of them: a worker keeps only its edition's pages
        context.route("**/latest/**", lambda route: route.fulfill(
            response=route.fetch(url=route.request.url.replace("/latest/", "/2026.1/", 1))))
    context.route(f"**/{address}/sw.js", lambda route: route.fulfill(body=older, content_type="text/javascript"))
    page = context.new_page()
    page.goto(server + f"/{address}/")
    _worker_in_charge(page)
    scope = server + f"/{address}/"
    first = "2026.1" if address == "latest" else edition
    assert page.evaluate("caches.keys()") == [f"rulebook {first} {old_version} {scope}"]
    context.unroute(f"**/{address}/sw.js")
    context.unroute("**/latest/**")
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    # The caches once the newer worker is in charge (it removes the older cache as it takes charge).
    assert page.evaluate("""async (version) => {
        for (let i = 0; i < 200; i++) {
            const r = await navigator.serviceWorker.getRegistration();
            if (r.active && r.active.state === "activated" && !r.installing && !r.waiting &&
                (await caches.keys()).some(k => k.includes(" " + version + " "))) { return caches.keys(); }
            await new Promise(done => setTimeout(done, 100));
        }
        return "the newer worker never took charge";
    }""", version) == [f"rulebook {edition} {version} {scope}"]
    context.close()


def test_a_grand_total_follows_the_games_totals(phone, server):
    """Court Whist's keeper at phone width: a game's hands typed in give its Total, the GRAND TOTAL's row for that
    game carries it as you type, and the Grand Total adds the games' totals; all of it still there after a reload."""
    page = phone
    page.goto(server + "/latest/keep/court-whist/")
    tables = page.locator(".keeper").first.locator("table.keeper-table")
    game1, game2, grand = tables.nth(0), tables.nth(1), tables.last
    for box, value in zip(game1.locator("tbody input").all(), ["3", "4", "2", "4"], strict=True):
        box.fill(value)
    game2.locator("tbody input").first.fill("6")

    def shown() -> tuple[str, list[str], str]:
        return (game1.locator(".keeper-total output").inner_text(), grand.locator("output.keeper-carry").all_inner_texts(),
                grand.locator(".keeper-total output").inner_text())

    assert shown() == ("13", ["13", "6", "0", "0", "0", "0", "0"], "19")
    assert grand.locator("input").count() == 0, "a carried total is not typed in"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page scrolls sideways"
    page.reload()
    assert shown() == ("13", ["13", "6", "0", "0", "0", "0", "0"], "19")
    assert page.errors == []

"""The game finder counts one deck per table or per couple for the players chosen (issue 60): Court Whist, one deck a
table, is a one-deck game for one table (4) and not for two (8); the Gin tournament, one deck a couple, for one couple
(2) and not for 4 to 12. Their source sentences: Court Whist's "1 decks of cards per table, not including jokers" and
"4 players per table, no limit to the number of tables you can have"; the tournament's "1 deck of cards, not
including jokers – per couple".

Cheap: the finder's page is rendered from the book's data (site/finder.md.j2, docs.finder_record) without a build,
and run with assets/finder.js in Chromium at a phone's width."""

from __future__ import annotations

import pytest

from generator.book import index as book_index
from generator.book.files import TOOL_TEMPLATES, read_file_text
from generator.render.site.docs import finder_record, site_environment
from generator.render.views import describe
from generator.render.views.pages import game_page
from tests.conftest import CHROMIUM

# (game, players, the finder's equipment, listed?), and the source sentence each row rests on.
DECKS = [
    ("court-whist", 4, "one-deck", True),  # "decks of cards per table", "4 players per table": one table
    ("court-whist", 8, "one-deck", False),  # two tables, two decks
    ("court-whist", 8, "several-decks", True),
    ("court-whist", 8, "one-deck-per-table", True),  # as the rules say it, at any count
    ("gin-rummy-tournament", 2, "one-deck", True),  # "1 deck of cards … per couple": one couple
    ("gin-rummy-tournament", 4, "one-deck", False),
    ("gin-rummy-tournament", 12, "one-deck", False),
    ("gin-rummy-tournament", 12, "several-decks", True),
    ("sweep", 2, "one-deck", True),  # at least 18 cards each: one deck serves two
    ("sweep", 5, "one-deck", False),
    ("trash", 5, "one-deck", True),
    ("trash", 8, "one-deck", False),
    ("hearts", 5, "one-deck", True),
]
TITLES = {"court-whist": "Court Whist", "gin-rummy-tournament": "Gin Rummy (Tournament Rules)", "sweep": "Sweep",
          "trash": "Trash", "hearts": "Hearts"}


def test_one_deck_counts_per_table_and_couple(library):
    """The counts one deck serves, as the finder's records carry them (data-one-deck)."""
    assert describe.one_deck_counts(library.games["court-whist"].game) == [4]
    assert describe.one_deck_counts(library.games["gin-rummy-tournament"].game) == [2]


@pytest.fixture(scope="module")
def finder(browser, library):
    """A phone's page open on the finder rendered from the current edition's data, with finder.js."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium package is not installed")
    pages = [game_page(library, gs) for gs in library.ordered_games()]
    records = [finder_record(p, book_index.stated_players(library, p.game)) for p in pages]
    body = site_environment(library).get_template("site/finder.md.j2").render(games=records,
                                                                              sections=library.book.sections)
    script = read_file_text(TOOL_TEMPLATES / "site" / "assets" / "finder.js").replace("</script", "<\\/script")
    html = f"<!doctype html><html lang='en'><head><meta charset='utf-8'></head><body>{body}<script>{script}</script></body></html>"
    page = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block").new_page()
    page.route("http://finder.test/", lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto("http://finder.test/")
    yield page
    page.context.close()


def test_the_finder_counts_decks_for_the_players_chosen(finder):
    got = []
    for game, players, equipment, _ in DECKS:
        finder.fill("#finder-players", str(players))
        finder.select_option("#finder-equipment", equipment)
        shown = set(finder.locator("#finder-results li:not([hidden]) a").all_inner_texts())
        got.append((game, players, equipment, TITLES[game] in shown))
    assert got == DECKS

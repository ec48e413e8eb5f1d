"""Generated words state only what the data states: no computed limit, no worked-out deal, no count
the program made up. Each row plants a number the sources do not give and shows the test catches it."""

from __future__ import annotations

import html
import re

import pytest

from generator.book import index as book_index
from generator.book.phrases import parse_players
from generator.render.site.docs import finder_record
from generator.render.views import describe
from generator.render.views.pages import game_page

NUMBER = re.compile(r"\d+")


def _numbers(text: object) -> set[str]:
    return set(NUMBER.findall(str(text)))


def _finder_unstated(lib, gs, record=None) -> set[str]:
    """Numbers the finder prints for a game's players that its stated player count does not give."""
    count = book_index.stated_players(lib, gs.game)
    record = record or finder_record(game_page(lib, gs), count)
    spec = parse_players(count)  # the stated count, number words read ("Four" is 4)
    stated = {spec.low, spec.high, *(spec.allowed or ())} | {int(n) for n in _numbers(count)}
    return _numbers(record["players"]["text"]) - {str(n) for n in stated if n is not None}


def test_the_finder_prints_only_the_stated_player_count(library, published_library):
    for lib in (library, published_library):
        for gs in lib.ordered_games():
            assert finder_record(game_page(lib, gs), book_index.stated_players(lib, gs.game))["players"]["text"], gs.id
            assert _finder_unstated(lib, gs) == set(), gs.id


def test_the_finder_filters_any_by_no_least_number(library, published_library):
    """Issue 42: 'Any', 'Any even number', 'Multiples of 4' name no least number: the finder filters by none (it
    gave the 'Any' games a minimum of 2, the checks' starting point); a count that names one keeps it."""
    checked = set()
    for lib in (library, published_library):
        for gs in lib.ordered_games():
            stated = book_index.stated_players(lib, gs.game)
            players = finder_record(game_page(lib, gs), stated)["players"]
            if re.match(r"(?i)any|multiples", str(stated)):
                assert players["min"] is None and players["max"] is None, (lib.edition.id, gs.id, players)
                checked.add(gs.id)
            else:
                assert players["min"] == parse_players(stated).low, (lib.edition.id, gs.id, players)
    assert {"mexican-train", "hearts", "court-whist", "gin-rummy-tournament"} <= checked
    # a count worked out from a deal table (players_implied) with no source stating one: nothing to print or filter
    gs = library.games["mexican-train"]
    assert gs.game.players_implied and finder_record(game_page(library, gs), None)["players"] == \
        {"min": None, "max": None, "step": 1, "set": None, "text": ""}


@pytest.mark.parametrize("planted", ["Any (up to 50)", "2-4 (up to 27)"])
def test_a_planted_limit_in_the_finder_is_caught(library, planted):
    gs = library.games["hearts"]
    record = finder_record(game_page(library, gs), book_index.stated_players(library, gs.game))
    record["players"]["text"] = planted
    assert _finder_unstated(library, gs, record)


def test_a_deal_the_source_does_not_state_is_not_printed(library):
    implied = [gs for gs in library.ordered_games() if gs.game.deal is not None and gs.game.deal.implied]
    assert implied, "no game has an implied deal: the test would prove nothing"
    for gs in implied:
        assert describe.deal(gs.game) == [], gs.id
        assert all(label != "Deal" for label, _ in describe.glance(gs.game)), gs.id


def test_a_stated_deal_is_printed(library):
    gs = library.games["hearts"]
    assert not gs.game.deal.implied and describe.deal(gs.game)


# --- every number in a box is one the data states, with the source's own qualifier --------------------

def _stated_numbers(data: object) -> set[str]:
    """Every number the data states, in numbers or in its phrases ('2-6', '3-4', '10000' as '10,000')."""
    if isinstance(data, dict):
        return set().union(*(_stated_numbers(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(_stated_numbers(v) for v in data)) if data else set()
    if isinstance(data, bool) or data is None:
        return set()
    return _numbers(str(data).replace(",", ""))


def _box_unstated(lib, gs, rows=None) -> list[str]:
    """Box lines of a game and its variants that print a number its data (or its game's, for a variant) does not state."""
    page = game_page(lib, gs)
    stated = _stated_numbers(gs.doc.data)
    bodies = [rows or page.main.glance] + [view.glance for _, view in page.variants]
    return [f"{label}: {text}" for body in bodies for label, text in body
            if _numbers(text.replace(",", "")) - stated]


def test_every_number_in_a_box_is_stated_by_the_data(library):
    for gs in library.ordered_games():
        assert _box_unstated(library, gs) == [], gs.id


@pytest.mark.parametrize("planted", [("Players", "Any number of players (up to 50)"),
                                     ("To win", "11 rounds in all"), ("Deal", "52 cards dealt out")])
def test_a_planted_number_in_a_box_is_caught(library, planted):
    gs = library.games["hearts"]
    assert _box_unstated(library, gs, rows=[*game_page(library, gs).main.glance, planted])


QUALIFIED = {"or more": "{n} or more", "or less": "{n} or less", "at least": "at least {n}", "about": "about {n}",
             "up to": "up to {n}"}


def _qualified(lib):
    """(game, part, field, qualifier or 'typically', number) for every qualified number the data states."""
    out = []
    for gs in lib.ordered_games():
        for part in (gs.game.deal, gs.game.goal):
            if part is None:
                continue
            out += [(gs, part, name, q, getattr(part, name)) for name, q in part.qualifiers.items()]
            out += [(gs, part, name, "typically", n) for name, n in getattr(part, "typically", {}).items()]
    return out


def test_a_qualified_number_prints_with_its_qualifier(library):
    cases = _qualified(library)
    assert {q for *_, q, _ in cases} >= {"or more", "at least", "or less", "typically"}, "the book no longer has these"
    for gs, _, name, qualifier, n in cases:
        box = " ".join(text for _, text in game_page(library, gs).main.glance).replace(",", "")
        shown = f"typically {n}" if qualifier == "typically" else QUALIFIED[qualifier].format(n=n)
        assert shown in box, (gs.id, name, shown, box)


def test_a_goal_the_source_does_not_state_is_not_printed(library):
    implied = [gs for gs in library.ordered_games() if gs.game.goal is not None and gs.game.goal.implied]
    assert implied, "no game has an implied goal: the test would prove nothing"
    for gs in implied:
        assert all(label != "To win" for label, _ in describe.glance(gs.game)), gs.id


def test_every_variant_says_where_it_comes_from_in_the_books_words(library):
    """A variant's introduction names each document it cites as book.yaml describes it, and claims nothing more."""
    from generator.render.site.docs import game_markdown, site_environment
    env = site_environment(library)
    checked = 0
    for gs in library.ordered_games():
        page = game_page(library, gs)
        text = html.unescape(game_markdown(env, page))
        described = {d.seed: d.title for d in library.book.sources}
        for variant, _ in page.variants:
            after = text[text.index(f"## Variant: {variant.title}"):]
            intro = after[after.index('<p class="variant-source">'):after.index("</p>")]
            for source in variant.sources:
                part = page.part(source)  # a heading quoted, else the date or the opening words; none for one part
                assert described[source.seed] in intro and (part is None or f": {part}" in intro or f", {part}" in intro), \
                    (gs.id, intro)
            checked += 1
        assert "other people play" not in text
    assert checked >= 5


def test_a_sequence_of_hands_is_listed_not_counted(library, published_library):
    """Issue 42: 'Play 10 to 1 and then back up to 10' prints its hands, not '19 hands', a count the program works
    out (the checks' business, not the reader's)."""
    from generator.render.views.pages import game_page

    listed = []
    for lib in (library, published_library):
        for gs in lib.ordered_games():
            page = game_page(lib, gs)
            for view in [page.main, *(v for _, v in page.variants)]:
                if view.body.rounds is not None and view.body.rounds.sequences:
                    listed += view.sequences()
    assert listed and all(re.match(r"(With .+ players|Hands): \d+(, \d+)* cards?$", line) for line in listed), listed

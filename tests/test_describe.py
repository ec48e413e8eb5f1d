"""Every sentence the describer makes is true and grammatical, for every game and variant of both editions.

The first part renders every ``describe`` phrase the site and the PDF print (the "at a glance" rows,
deal and equipment lines, goals, score values, round cells and generated round sequences) and checks
general properties of English and of the data: number agrees with noun, nothing empty, no clause twice
or contradicted, no leftover template braces or Markdown, and every card-value row lists every card
value its scoring table gives. The second part pins each phrase rule with a small synthetic body.
"""

from __future__ import annotations

import re

import pytest

from generator.book.library import load_library
from generator.book.model import CardEquipment, Deal, GameBody, Goal, ScoreItem, ScoreTable
from generator.render.views import describe
from generator.render.views.markup import Markup
from generator.render.views.pages import game_page
from tests.conftest import CURRENT, PUBLISHED, ROOT

# Countable nouns the describer prints after a number: singular, plural.
NOUNS = {"card": "cards", "deck": "decks", "round": "rounds", "hand": "hands", "point": "points",
         "player": "players", "tile": "tiles", "die": "dice", "dime": "dimes", "quarter": "quarters",
         "cent": "cents", "nickel": "nickels", "chip": "chips", "copy": "copies", "trick": "tricks"}
SINGULAR = {many: one for one, many in NOUNS.items()}
NUMBER_NOUN = re.compile(r"(?<![\w.])(-?\d[\d,]*(?:\.\d+)?) (\w+)")
MARKUP = re.compile(r"[{}`<>]|\*\*|__|\]\(|^#|(?<!\w)\*(?=\w)|(?<=\w)\*(?!\w)")


def sentences(view) -> list[tuple[str, str]]:
    """(where, text) for every describe phrase one game or variant prints."""
    body = view.body
    out = [(f"glance {label}", text) for label, text in view.glance]
    out += [("label", label) for label, _ in view.glance]
    if body.players is not None:
        out.append(("players", describe.players(body)))
    out += [("equipment", line) for line in describe.equipment(body)]
    out += [("deal", line) for line in describe.deal(body)]
    if body.goal is not None and not body.goal.implied:  # an implied goal prints nothing
        out.append(("goal", describe.goal(body.goal) or ""))
    for key, table in body.scoring.items():
        out += [(f"scoring.{key} {item.label}", view.item_value(item)) for item in table.items]
    out += [("sequence", s) for s in view.sequences()]
    for r in (body.rounds.items if body.rounds else []):
        cells = view.round_cells(r)
        # Cells may be HTML (emphasis kept); what the reader sees is their text.
        out += [(f"round {r.name} {col}", Markup(cells[col]).striptags() if isinstance(cells[col], Markup)
                 else cells[col]) for col, _ in view.round_columns() if cells[col]]
    return out


def views():
    """Every game and variant view of both editions, once each."""
    seen, out = set(), []
    for edition in (PUBLISHED, CURRENT):
        lib = load_library(ROOT, edition)
        for gs in lib.ordered_games():
            page = game_page(lib, gs)
            for name, view in [(gs.id, page.main)] + [(f"{gs.id}.{v.id}", vw) for v, vw in page.variants]:
                key = (name, tuple(view.glance))
                if key not in seen:
                    seen.add(key)
                    out.append(pytest.param(view, id=f"{edition}-{name}"))
    return out


VIEWS = views()


def agreement_problems(text: str) -> list[str]:
    """'1 cards', '2 card': a number whose noun does not agree with it."""
    problems = []
    for number, word in NUMBER_NOUN.findall(text):
        n = float(number.replace(",", ""))
        one = abs(n) == 1
        if word in NOUNS and not one:
            problems.append(f"'{number} {word}' should be plural")
        if word in SINGULAR and one:
            problems.append(f"'{number} {word}' should be singular")
    return problems


def clause_problems(text: str) -> list[str]:
    """A clause said twice, or 'with jokers' beside 'no jokers' or 'remove ... jokers'."""
    problems = []
    # A list of numbers (hand sizes going down and up) repeats by design; clauses have words.
    clauses = [c.strip().lower() for c in re.split(r"[;,]", text) if re.search(r"[a-z]", c, re.I)]
    doubled = {c for c in clauses if clauses.count(c) > 1}
    if doubled:
        problems.append(f"clause repeated: {sorted(doubled)}")
    lower = text.lower()
    removed = " ".join(c for c in lower.split(";") if c.strip().startswith("remove"))
    if "with jokers" in lower and ("no jokers" in lower or "joker" in removed):
        problems.append("jokers both in and out")
    if "all cards dealt" in lower and re.search(r"\b(left|to the) (in the )?middle", lower):
        problems.append("all cards dealt, yet some left in the middle")
    return problems


@pytest.mark.parametrize("view", VIEWS)
def test_every_sentence_is_grammatical(view):
    problems = []
    for where, text in sentences(view):
        if not text.strip():
            problems.append(f"{where}: empty")
            continue
        problems += [f"{where}: {p}: {text!r}" for p in agreement_problems(text) + clause_problems(text)]
        if MARKUP.search(text):
            problems.append(f"{where}: leftover braces or Markdown: {text!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("view", VIEWS)
def test_card_value_rows_cover_the_scoring_table(view):
    """Every card (or tile) of a card-values or counters table shows in the summary with its value."""
    rows = dict((label, text) for label, text in view.glance if label in ("Card values", "Counters"))
    for key, table in view.body.scoring.items():
        cards = [i for i in table.items if i.per != "combination" and (i.points is not None or i.cents is not None)]
        if table.kind not in ("card_values", "counters") or not cards:
            continue
        label = "Card values" if table.kind == "card_values" else "Counters"
        assert label in rows, f"scoring.{key}: no '{label}' row in the summary"
        parts = rows[label].split("; ")
        for item in cards:
            name = re.sub(r" (is|are)$", "", item.label.strip())
            found = [p for p in parts if p.lower().startswith(name.lower() + ":")]
            assert found, f"scoring.{key}: '{item.label}' missing from {rows[label]!r}"
            value = found[0].split(": ", 1)[1]
            if item.points == "face":
                assert value == "face value", (item.label, value)
            elif item.points is not None:
                against = " against you" if item.against else ""  # the source's words, kept with the value
                assert re.fullmatch(rf"{re.escape(describe.format_value(item.points))} points?{against}", value), \
                    (item.label, value)
            else:
                assert re.fullmatch(rf"{item.cents} cents?", value), (item.label, value)


def body(**data) -> GameBody:
    return GameBody.model_validate(data)


# One row per phrase rule: a small body, the function, and what it must print.
RULES = [
    ("one card each is singular", body(deal={"each": 1}), describe.deal, ["1 card each"]),
    ("several cards each", body(deal={"each": 7}), describe.deal, ["7 cards each"]),
    ("a range of cards is plural", body(deal={"each": "3-14", "face_up": 1}), describe.deal,
     ["3-14 cards each (1 face up)"]),
    ("kitty and remainder name their cards", body(deal={"each": "all", "min_remainder": 1, "by_players": [
        {"players": 4, "each": 12, "kitty": 1}]}), describe.deal,
     ["Cards dealt out evenly; the rest, at least 1 card, to the middle", "4 players: 12 cards each; 1 card to the kitty"]),
    ("widow and dealer", body(deal={"each": 10, "widow": 3, "dealer_gets": 11}), describe.deal,
     ["10 cards to each player but the dealer; the dealer takes 11 cards; 3 cards to the widow"]),
    ("one tile", body(deal={"tiles": 1}), describe.deal, ["1 tile each"]),
    ("composition names card kinds", body(deal={"composition": [{"cards": "number", "copies": 3},
                                                                {"cards": "face", "copies": 1}]}),
     describe.deal, ["3 number cards + 1 face card each"]),
    ("ranks removed to deal evenly", body(deal={"each": "all", "equalize_by_removing": "2, 3"}), describe.deal,
     ["All cards dealt out evenly; remove 2s or 3s first if needed"]),
    ("aces removed to deal evenly", body(deal={"each": "all", "equalize_by_removing": "A"}), describe.deal,
     ["All cards dealt out evenly; remove Aces first if needed"]),
    ("hand size set by the rounds", body(deal={"by_round": True, "upcard": 1}), describe.deal,
     ["The number of cards dealt changes each round; 1 card turned up"]),
    # (jokers both included and removed is refused by the model: remove 'jokers' is jokers: false)
    ("no jokers, 2s removed", body(equipment={"cards": [{"decks": "3-4", "jokers": False, "remove": ["2s"]}]}),
     describe.equipment, ["3-4 decks, no jokers; remove 2s"]),
    ("jokers kept", body(equipment={"cards": [{"decks": 2, "jokers": True, "remove": ["2s"]}]}),
     describe.equipment, ["2 decks, with jokers; remove 2s"]),
    ("one copy of one card", body(equipment={"cards": [{"decks": 2, "remove": [
        {"cards": "2 of diamonds", "copies": 1}], "stated_cards": 103}]}),
     describe.equipment, ["2 decks; remove 1 copy of the 2 of diamonds (103 cards)"]),
    ("a single card from several decks goes every time", body(equipment={"cards": [
        {"decks": 2, "remove": ["2 of clubs"]}]}), describe.equipment, ["2 decks; remove every 2 of clubs"]),
    ("a single card from one deck", body(equipment={"cards": [{"decks": 1, "remove": ["2 of clubs"]}]}),
     describe.equipment, ["1 deck; remove 2 of clubs"]),
    # unstated is unsaid: 'no jokers' only where the source says so (jokers: false), nothing where it is silent
    ("no jokers where stated", body(equipment={"cards": [{"decks": 1, "jokers": False}]}), describe.equipment,
     ["1 deck, no jokers"]),
    ("nothing of jokers where unstated", body(equipment={"cards": [{"decks": 1}]}), describe.equipment, ["1 deck"]),
    ("all dealt, evenly only where stated", body(deal={"each": "all"}), describe.deal, ["All cards dealt out"]),
    ("a total the source does not state", body(deal={"each": 28, "hand": 15, "foot": 13, "worked_out": ["each"]}),
     describe.deal, ["15 cards in the hand, 13 in the foot"]),
    ("a total the source states", body(deal={"each": 28, "hand": 15, "foot": 13}), describe.deal,
     ["28 cards each (15 in the hand, 13 in the foot)"]),
    ("number words or more", body(players="two or more"), lambda b: [describe.players(b)], ["2 or more players"]),
    ("against you is part of the value", body(scoring={"c": {"kind": "counters", "items": [
        {"label": "Black threes", "cards": "black 3", "points": 5, "against": True}]}}),
     lambda b: [t for label, t in describe.glance(b) if label == "Counters"], ["Black threes: 5 points against you"]),
    ("one die", body(equipment={"dice": 1}), describe.equipment, ["1 die"]),
    ("stakes", body(equipment={"stakes": {"coin": "dime", "start": 1, "ante": 2}}), describe.equipment,
     ["1 dime each, ante 2 dimes"]),
    ("one round", body(goal={"winner": "low", "rounds": 1}), lambda b: [describe.goal(b.goal)],
     ["Low score wins; 1 round"]),
    ("any even number of players", body(players="any even number"), lambda b: [describe.players(b)],
     ["Any even number of players"]),
    ("one player", body(players=1), lambda b: [describe.players(b)], ["1 player"]),
    ("N or more as stated", body(players="2 or more"), lambda b: [describe.players(b)], ["2 or more players"]),
    ("card values from the data, placeholders and all", body(scoring={"c": {"kind": "counters", "items": [
        {"label": "Hearts are", "cards": "hearts", "points": 1, "value": "{points} point each"},
        {"label": "Face cards", "cards": "face", "points": "face", "value": "face value"},
        {"label": "Pair", "per": "combination", "points": 0, "value": "Free"}]}}),
     lambda b: [t for label, t in describe.glance(b) if label == "Counters"], ["Hearts: 1 point; Face cards: face value"]),
    ("no card values, no row", body(scoring={"c": {"kind": "card_values", "items": [
        {"label": "Pair", "per": "combination", "points": 0}]}}),
     lambda b: [t for label, t in describe.glance(b) if label == "Card values"], []),
]


@pytest.mark.parametrize(("rule", "game", "function", "expected"), RULES, ids=[r[0] for r in RULES])
def test_phrase_rule(rule, game, function, expected):
    assert function(game) == expected


@pytest.mark.parametrize(("item", "in_round", "expected"), [
    (ScoreItem(label="x", points=1), False, "1 point"),
    (ScoreItem(label="x", points=-1), False, "-1 point"),
    (ScoreItem(label="x", points=5, per="trick"), True, "5 points each"),
    (ScoreItem(label="x", cents=1), False, "1 cent"),
    (ScoreItem(label="x", cents=5, cards="hearts"), True, "5 cents each"),
    (ScoreItem(label="x", points="face"), False, "Face value"),
    # an event happens once in its round: 'The last trick 20 points each' was false (Trash), unless the source says
    # it (Canadian Salad's 'Last trick 75 points each')
    (ScoreItem(label="The last trick", per="event", points=20), True, "20 points"),
    (ScoreItem(label="Last trick", per="event", points=75, says_each=True), True, "75 points each"),
    (ScoreItem(label="Each queen", cards="Q", points=30), True, "30 points each"),
    # a bonus earned at a threshold prints it (Yacht's upper bonus: 35 if the upper total reaches 63)
    (ScoreItem(label="Upper bonus", points=35, threshold=63), False, "35 points (at 63 or more)"),
])
def test_item_value(item, in_round, expected):
    assert describe.item_value(item, {}, in_round) == expected


@pytest.mark.parametrize("view", [v for v in VIEWS if v.values[0].body.rounds and any(
    r.scoring for r in v.values[0].body.rounds.items)])
def test_a_round_s_scoring_keeps_the_rules_words_apart_from_the_amount(view):
    """Each item of a round's Scoring cell is its label, a colon, then its value: 'The last trick: 20 points', never
    the label run into the amount as one sentence ('Each trick counts as double 2 points each', Court Whist)."""
    for r in view.body.rounds.items:
        cell = Markup(view.round_cells(r)["scoring"]).striptags()
        wanted = "; ".join(f"{Markup(view.text(i.label)).striptags()}: {Markup(view.item_value(i, in_round=True)).striptags()}"
                           for i in r.scoring)
        assert cell == wanted, (r.name, cell)
        for item in r.scoring:
            if item.unit == "event" and item.value is None and not item.says_each:
                assert not view.item_value(item, in_round=True).endswith(" each"), (r.name, item.label)


def test_the_checks_catch_what_they_look_for():
    """The property checks above fail on the known bad phrases, so their passing means something."""
    assert agreement_problems("1 cards each") and agreement_problems("1 rounds") and agreement_problems("3 card")
    assert not agreement_problems("1 card each; 2-8 players; -1 point; 10,000 points")
    assert clause_problems("3-4 decks, with jokers; remove 2s, jokers")
    assert clause_problems("Hearts: 1 point; Hearts: 1 point")
    assert not clause_problems("3-4 decks, with jokers; remove 2s")
    assert clause_problems("All cards dealt out evenly; at least 2 cards left in the middle")
    assert MARKUP.search("{points} points") and MARKUP.search("**bold**") and not MARKUP.search("[0-0]: 50 points")
    table = ScoreTable(kind="card_values", items=[ScoreItem(label="Aces", cards="A", points=1)])
    assert describe.card_values(table) == "Aces: 1 point"
    assert describe.deck(CardEquipment(decks=1)) == "1 deck"  # the source says nothing of jokers: nor does the box
    assert describe.deck(CardEquipment(decks=1, jokers=False)) == "1 deck, no jokers"
    assert describe.goal(Goal(winner="high", target=500)) == "High score wins; play to 500"
    assert describe.deal(GameBody(deal=Deal(upcard=1))) == ["1 card turned up"]


def test_a_game_with_no_source_prints_no_empty_source_line(tmp_path):
    """The family's own game cites no document: no empty 'Source:' line in print, no empty 'Sources' heading on the
    site; its page still ends where print marks the end (the markers the layout tests read)."""
    from generator.cli import main
    from generator.render.pdf.book import book_html
    from generator.render.site.docs import game_markdown, site_environment
    from tests.conftest import small_project

    project = small_project(tmp_path / "book", games=("golf",))
    assert main(["--root", str(project), "new-game", "Porch Rummy"]) == 0
    lib = load_library(project)
    page = game_page(lib, lib.games["porch-rummy"])
    assert page.sources() == []
    site = game_markdown(site_environment(lib), page)
    assert "Sources" not in site and "Source:" not in site
    html = book_html(lib)
    article = html[html.index('id="trailer-porch-rummy"') - 400:html.index('id="end-porch-rummy"') + 40]
    assert "Source:" not in article and '<p class="sources">' not in article, article
    golf = html[html.index('id="trailer-golf"'):html.index('id="end-golf"')]
    assert "Source: " in golf  # a game that cites one still says it


@pytest.mark.parametrize("edition", ["2026.2", "2026.1"])
def test_desert_rummys_table_numbers_each_players_meld(edition):
    """Issue 60: Desert Rummy's rounds table numbers each player's meld ('Each player could be on a different meld at
    any given time'), from its data (keeps: melds), not 'Round', in both editions; a game of rounds still says Round."""
    from generator.render.site.docs import game_markdown, site_environment

    lib = load_library(ROOT, edition)
    env = site_environment(lib)
    desert = game_markdown(env, game_page(lib, lib.games["desert-rummy"]))
    head = desert[desert.index('class="data rounds-table"'):]
    assert '<th scope="col">Each player&#39;s meld</th>' in head[:head.index("</thead>")]
    assert ">Round<" not in head[:head.index("</table>")]
    assert '<th scope="col">Round</th>' in game_markdown(env, game_page(lib, lib.games["canadian-salad"]))


@pytest.mark.parametrize(("edition", "named"), [("2026.2", True), ("2026.1", False)])
def test_the_score_pad_says_the_books_pages_name_its_sheets_only_where_they_do(edition, named):
    """Issue 60: 2026.1's pad said its sheets are numbered '(the book's pages name them so)', but 2026.1 (laid out as
    the family printed it) names no sheet number on its pages; 2026.2's pages do ('number 4 in the score pad')."""
    from generator.render.pdf.book import _env, book_html, names_sheets

    lib = load_library(ROOT, edition)
    pad = _env(lib).get_template("print/score-pad.html.j2").render(sheets=[], named=names_sheets(lib))
    assert ("(the book's pages name them so)" in pad) is named
    if not named:  # what the pad would have claimed is untrue of this edition's book
        assert " in the score pad." not in book_html(lib)

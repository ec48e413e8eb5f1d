"""Every generated statement has a source sentence, for every game of both editions (issue 34).

The book adds words around the family's: each quick-reference box row, each variant's "How it differs" row, each
citation and each game finder field (tests/sourcing.py lists them as the generator makes them). The table
(tests/sourced_statements.py) names, for each, the sentences of the game's sources it says: a statement with no
row fails, a row no edition prints fails, a sentence not in the sources fails (read from ../shared/seeds; those
tests skip without them), and a statement that says more than its sentences (a number, a word) or drops the
source's own words around a number ('against you', 'typically') fails. Where no sentence exists the generator
prints nothing: there is no row to write.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

import pytest

from generator.book import index as book_index
from generator.book.library import load_library
from generator.book.model import GameBody
from generator.render.views import describe
from tests.conftest import CURRENT, PUBLISHED, ROOT
from tests.fidelity_source import heading_text, seed_sentences, unmark, words
from tests.sourced_statements import SOURCED
from tests.sourcing import BOX, FINDER, FINDER_WORDS, Statement, dropped, statements, unsupported, untold

SEEDS = Path(os.environ.get("RULEBOOK_SEEDS", ROOT.parent / "shared" / "seeds"))
needs_seeds = pytest.mark.skipif(not SEEDS.exists(), reason=f"the sources are not at {SEEDS}")
README = "README: "  # a sentence of the sources' own description (what each document is), not of a game's


@cache
def _libraries():
    return {edition: load_library(ROOT, edition) for edition in (CURRENT, PUBLISHED)}


@cache
def _printed() -> dict[Statement, tuple[str, ...]]:
    """Each statement either edition prints, with the editions that print it."""
    out: dict[Statement, list[str]] = {}
    for edition, lib in _libraries().items():
        for st in statements(lib):
            out.setdefault(st, []).append(edition)
    return {st: tuple(eds) for st, eds in out.items()}


TABLE = {Statement(g, v, k, t): sentences for g, v, k, t, sentences in SOURCED}
KINDS = ({f"box:{b}" for b in BOX} | {f"differs:{b}" for b in BOX} | {f"inherits:{b}" for b in BOX}
         | {f"finder:{f}" for f in FINDER} | {"cite", "origin", "sheet", "keeper:players", "rounds:heading"})
# A variant's row saying its source says nothing of a row of its game's box (describe.FROM_GAME) has no sentence to
# name: its row names what was looked for instead, as 'NONE: …'. No other row may.
NONE = "NONE: "
UNSTATED, IN_RULES = describe.from_game("unstated"), describe.from_game("in_rules")  # in English, the book's language
NO_SCORE = describe.NO_SCORE


def uncovered(printed, table) -> list[Statement]:
    """The statements printed that the table names no sentences for."""
    return [st for st in printed if st not in table]


def test_every_statement_of_both_editions_names_its_source_sentences():
    missing = uncovered(_printed(), TABLE)
    assert not missing, "no source sentence named in tests/sourced_statements.py for:\n" + "\n".join(
        f"    ({st.game!r}, {st.variant!r}, {st.kind!r}, {st.text!r}, [...])," for st in missing)
    assert len(SOURCED) == len(TABLE), "a statement is in the table twice"


def test_a_statement_the_table_does_not_name_is_caught():
    """The coverage test above fails on a statement nobody sourced (a planted 'no jokers')."""
    planted = Statement("hearts", None, "box:Equipment", "1 deck, no jokers, no wild cards")
    assert uncovered([*_printed(), planted], TABLE) == [planted]


def test_what_a_variant_leaves_its_reader_is_a_statement_about_it():
    """Issue 42: every row of a game's box a variant's box does not replace is a statement about the variant
    ('inherits:'), sourced from the variant's part of the sources like its own rows; Family Four-Card Golf left
    'To win: Low score wins; 9 rounds' standing, which its source contradicts."""
    inherited = {st for st in _printed() if st.kind.startswith("inherits:")}
    assert inherited, "no variant inherits a row: the test would prove nothing"
    assert all(st.variant for st in inherited)
    assert Statement("golf", "family-four-card-golf", "inherits:To win", "Low score wins; 9 rounds") not in _printed()
    assert Statement("golf", "family-four-card-golf", "differs:To win", IN_RULES) in _printed()


def test_no_row_names_a_statement_no_edition_prints():
    stale = [st for st in TABLE if st not in _printed()]
    assert not stale, "rows for statements no edition prints (remove them):\n" + "\n".join(map(repr, stale))


def test_every_kind_of_statement_is_in_the_table():
    """The kinds printed are kinds the table knows: a new box row label, a new finder field or a new kind of
    citation needs rows before it can print (and the generator's labels are the ones listed in tests/sourcing.py)."""
    printed = {st.kind for st in _printed()}
    assert printed <= KINDS, printed - KINDS
    assert {st.kind for st in TABLE} == printed
    # Every field of the rules data prints into the box rows listed for it, and no others: a new field, or a field
    # printing a new label, fails here until it is listed (and so until its statements are sourced).
    fields = {"players": {"Players"}, "players_implied": set(), "partnerships": {"Players"}, "partners_when": {"Players"},
              "equipment": {"Equipment"}, "wild": {"Wild cards"}, "deal": {"Deal"}, "rounds": set(),
              "scoring": {"Card values", "Counters"}, "goal": {"To win"}, "alternate_rules": set(), "examples": set(),
              "keeps": set(), "score_sheet": set()}
    assert set(fields) == set(GameBody.model_fields), set(GameBody.model_fields) ^ set(fields)
    assert set().union(*fields.values()) == set(BOX)
    for lib in _libraries().values():
        for gs in lib.ordered_games():
            for name, kinds in fields.items():
                if name in gs.doc.data and name != "partners_when":  # (it needs partnerships beside it)
                    alone = GameBody.model_validate({name: gs.doc.data[name]})
                    assert {label for label, _ in describe.glance(alone)} <= kinds, (gs.id, name)


def row_problem(row) -> str | None:
    """What is wrong with a row of the table, or None: its statement must follow from its sentences (its numbers
    are theirs, each of its words is theirs or theirs in other words, tests/sourcing.py SAME, and it keeps the words
    around a number that the source keeps). A row with no sentence is wrong: the generator must print nothing."""
    game, variant, kind, text, sentences = row
    if not sentences:
        return "no sentence: the generator must not print this"
    if text == UNSTATED:  # the source says nothing of it: what was looked for, and nothing else
        ok = kind.startswith("differs:") and len(sentences) == 1 and sentences[0].startswith(NONE)
        return None if ok else f"'{UNSTATED}' names what was looked for, once, as '{NONE}…'"
    if text == NO_SCORE:  # no scoring in the rules: what was looked for, once (the sources are searched below)
        ok = kind == "sheet" and len(sentences) == 1 and sentences[0].startswith(NONE)
        return None if ok else f"'{NO_SCORE}' names what was looked for, once, as '{NONE}…'"
    if any(s.startswith(NONE) for s in sentences):
        return "a statement with no source sentence prints nothing"
    if text == IN_RULES:  # a pointer to the variant's rules: its sentences are the rules that say it (checked below)
        return None if kind.startswith("differs:") else "only a variant's row points to its rules"
    said = FINDER_WORDS.get(text, text) if kind.startswith("finder:") and kind != "finder:players" else text
    if kind in ("cite", "origin"):  # the quoted parts are checked against the source's lines (below); 'page' is
        # what a document is, 'the part that opens' where in it: the citation's own words
        said = re.sub(r"“[^”]*”", "", said).replace("the part that opens", "").replace(" page ", " ")
    plain = [s.removeprefix(README) for s in sentences]
    if unsupported(said, plain):
        return f"not in its sentences: {unsupported(said, plain)}"
    if dropped(said, plain):
        return f"drops the source's words: {dropped(said, plain)}"
    if kind.endswith(":Deal") and untold(said, plain):
        return f"tells less than the rules: {untold(said, plain)}"
    return None


@pytest.mark.parametrize("row", SOURCED, ids=[f"{g}{'.' + v if v else ''} {k} {t[:40]}" for g, v, k, t, _ in SOURCED])
def test_the_statement_follows_from_its_sentences(row):
    assert row_problem(row) is None, row_problem(row)


@pytest.mark.parametrize("row", [
    ("golf", "family-four-card-golf", "differs:Players", "Its source does not say", []),  # no sentence at all
    ("golf", "family-four-card-golf", "differs:Players", "Its source does not say", ["Each person starts with 4 quarters."]),
    ("golf", None, "box:Players", "Any number of players", ["NONE: nothing says"]),  # a printed count with no sentence
    ("golf", None, "box:To win", "See its rules", ["Low score wins the pot"]),  # a game's box has no rules to point to
    ("golf", "family-four-card-golf", "inherits:To win", "Low score wins; 9 rounds", ["Last person gets all the quarters."]),
    ("fast-track", None, "sheet", NO_SCORE, ["To get all of your pegs “Home” either as an individual player or as a team."]),
    ("fast-track", None, "box:To win", NO_SCORE, ["NONE: no points"]),  # the line is the sheet's, not a box row's
], ids=["no-sentence", "unstated-with-a-sentence", "none-on-a-statement", "pointer-on-a-game", "inherited-untrue",
        "no-score-with-a-sentence", "no-score-as-a-box-row"])
def test_a_row_without_a_source_sentence_fails(row):
    """Issue 42: the table's test fails on a row that names no sentence for what it prints."""
    assert row_problem(row) is not None


# --- the sentences are the sources' --------------------------------------------------------------------------

@cache
def _sources():
    """Each seed's sentences (as the fidelity test reads them) and the README's description of each document."""
    libs = list(_libraries().values())
    sentences = [s for path in sorted(SEEDS.glob("*.txt")) for s in seed_sentences(path, libs, [], CURRENT)]
    readme = [unmark(line) for line in (SEEDS / "README.md").read_text(encoding="utf-8").splitlines()]
    lines = {path.name[:3]: path.read_text(encoding="utf-8").splitlines() for path in sorted(SEEDS.glob("*.txt"))}
    return sentences, readme, lines


def _pool(game: str, variant: str | None, kind: str) -> list[list[str]]:
    """The words of the sentences a statement may cite: its own part of the sources (a variant's, or the game's
    own; a citation any of its game's), and the printed index's line for the game."""
    sentences, _, _ = _sources()
    lib = _libraries()[CURRENT]
    titles = {e.title for rows in book_index.index_rows(lib).values() for e in rows if e.game == game}
    out = [words(s.text) for s in sentences if s.target == f"game:{game}" and (kind == "cite" or s.variant == variant)]
    # the index's line for the game, and its column headings ('# of players', the sections' titles)
    out += [words(s.text) for s in sentences if s.target == "index" and variant is None
            and (any(words(t) and _within(words(t), words(s.text)) for t in titles) or not s.text[:1].isdigit())]
    return out


def _within(needle: list[str], hay: list[str]) -> bool:
    return any(hay[i:i + len(needle)] == needle for i in range(len(hay) - len(needle) + 1))


@needs_seeds
@pytest.mark.parametrize("row", SOURCED, ids=[f"{g}{'.' + v if v else ''} {k} {t[:40]}" for g, v, k, t, _ in SOURCED])
def test_each_sentence_is_in_the_game_s_sources(row):
    """Word for word in the part of the sources the game (or variant) comes from, or in the sources' README."""
    game, variant, kind, text, sentences = row
    _, readme, _ = _sources()
    pool = _pool(game, variant, kind)
    for sentence in sentences:
        if sentence.startswith(NONE):
            continue
        if sentence.startswith(README):
            assert any(_within(words(sentence.removeprefix(README)), words(line)) for line in readme), sentence
        else:
            assert words(sentence) and any(_within(words(sentence), p) for p in pool), sentence


@needs_seeds
@pytest.mark.parametrize("row", [r for r in SOURCED if r[2] in ("cite", "origin")],
                         ids=[f"{r[0]} {r[3][:50]}" for r in SOURCED if r[2] in ("cite", "origin")])
def test_a_citation_quotes_only_a_heading_the_source_prints(row):
    """A quoted part is a heading the source prints as a line of its own, or, after 'the part that opens', the
    first words of a line; a date is a line of its own. Nothing else is quoted."""
    game, variant, kind, text, sentences = row
    _, _, lines = _sources()
    every = [heading_text(line) for seed in lines.values() for line in seed]
    for m in re.finditer(r"(the part that opens )?“([^”]*)”", text):
        opens, quote = m.group(1), m.group(2)
        assert quote in sentences, f"the quote {quote!r} is not among the row's sentences"
        assert any(line == quote or (opens and line.startswith(quote)) for line in every), \
            f"“{quote}” is not a heading (or, with 'the part that opens', the start of a line) of the sources"
    for date in re.findall(r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \w+ \d+, \d{4}", text):
        assert date in every, date


SCORING = re.compile(r"\b(?:scor(?:e|es|ed|ing)|points|worth|tally|total)\b", re.I)  # words a scoring rule uses


def scoring_words(sentences: list[list[str]]) -> list[str]:
    """The words of a game's sentences that name a score (``SCORING``): none where its rules keep no score."""
    return sorted({w for s in sentences for w in s if SCORING.fullmatch(w)})


@needs_seeds
@pytest.mark.parametrize("row", [r for r in SOURCED if r[2] == "sheet"], ids=[r[0] for r in SOURCED if r[2] == "sheet"])
def test_a_game_said_to_keep_no_score_names_no_scoring(row):
    """Issue 52: 'its rules keep no score' is true of the game's whole part of the sources: no sentence of it scores."""
    game = row[0]
    assert _pool(game, None, "sheet"), game
    assert scoring_words(_pool(game, None, "sheet")) == [], game


def test_a_game_whose_rules_score_is_caught():
    """The search above finds the scoring of a game that has one (Sticks' 'collect 7 sticks' has none; Hearts has)."""
    assert scoring_words([words("Played to 100 points. The player with the lowest score wins.")]) == ["points", "score"]
    assert scoring_words([words("To get three rows of five discs.")]) == []


# --- the checks catch what the defects said ----------------------------------------------------------------------

# (statement, its sentences, what the check says is not sourced): the cases, each caught
CAUGHT = [
    ("1 deck, no jokers (52 cards)", ["A standard deck of 52 cards is used."], ["no", "jokers"]),  # no jokers unsaid
    ("1 deck, no jokers", ["Each player starts with 3 dimes, placing one in the pot each time he loses a round."],
     ["deck", "no", "jokers"]),  # a deck where the source names none (Chase the Ace)
    ("Any number of players", ["Golf is a card game for two or more players"], ["Any"]),  # the parent's count
    ("First to finish wins", ["To get three rows of five discs."], ["finish", "wins"]),  # who wins, never said
    ("28 cards each (15 in the hand, 13 in the foot)",
     ["one player will deal 15 cards in the hand and the other player will deal 13 cards in the foot"], ["28"]),
    ("All cards dealt out evenly", ["All card are dealt out each round"], ["evenly"]),
    # issue 42: what a variant's reader was left with, its game's rows, against the variant's own sentences
    ("Low score wins; 9 rounds", ["Highest score puts a quarter in the jar.", "When you are out of quarters, you no "
     "longer play.", "Last person gets all the quarters."], ["9", "Low", "wins", "rounds"]),  # Family Four-Card Golf
    ("High score wins", ["Points are only for making the bid exactly."], ["High", "wins"]),  # Oh Heck!
    ("2, 4 or 6 players (two teams)", ["Use one more deck than the number of players."], ["2", "4", "6", "teams"]),
    # issue 52: decks by what one table, couple or player needs, not 'several decks'
    ("several decks", ["1 decks of cards per table, not including jokers"], ["several"]),  # Court Whist
    ("several decks", ["1 deck of cards, not including jokers – per couple"], ["several"]),  # the Gin tournament
    ("several decks", ["Enough decks to ensure there are at least 18 cards (can be more) for each person"],
     ["several"]),  # Sweep: one deck serves two
    ("1 deck", ["Enough decks to ensure there are at least 18 cards (can be more) for each person"], ["1"]),
    ("1 deck per table", ["1 deck of cards, not including jokers – per couple"], ["table"]),
    ("decks depend on players", ["1 decks of cards per table, not including jokers"], ["depend", "players"]),
    # issue 52: a keeper capped at 8 for 'Any'
    ("2-8 players", ["Any number of people can play"], ["2", "8"]),
    ("6-8 players", ["You should have at least 6 people to start this game, the more the merrier!"], ["8"]),
]

DROPPED = [  # (statement, sentences, the source's words it drops)
    ("Black threes: 5 points", ["Black threes are worth 5 points against you but have no playing value."],
     ["against you"]),
    ("First to the target wins; play to 100", ["Players agree beforehand on a winning amount of points, typically 100."],
     ["typically"]),
    ("6-8 players", ["You should have at least 6 people to start this game, the more the merrier!"], ["at least"]),
]


# Issue 52: a deal row that tells less than the rules: (statement, sentences, what sets the count that it leaves out)
UNTOLD = [
    ("1 card face up", ["Dealer starts dealing to the player on their left and the first card will be turned up.",
                        "This card will indicate how many cards that player will receive, (e.g. if the first card is a "
                        "5 they will receive four more cards face down) that hand."], ["a card sets the count"]),
    ("10 cards each; 1 card turned up", ["Round one – Ten (or 7 cards are dealt depending on the number of players) to "
                                         "each player."], ["the players set the count"]),  # Oh Hell!'s first round
    ("7 cards each", ["Consecutive rounds will have 1 less card dealt each time until the play is down to one card."],
     ["the round sets the count"]),
]


@pytest.mark.parametrize(("statement", "sentences", "left_out"), UNTOLD, ids=[c[0] for c in UNTOLD])
def test_a_deal_row_that_tells_less_than_the_rules_is_caught(statement, sentences, left_out):
    assert untold(statement, sentences) == left_out
    assert row_problem(("demo", None, "box:Deal", statement, sentences)) is not None


@pytest.mark.parametrize(("statement", "sentences", "unsourced"), CAUGHT, ids=[c[0] for c in CAUGHT])
def test_a_statement_that_says_more_than_its_source_is_caught(statement, sentences, unsourced):
    assert unsupported(statement, sentences) == unsourced


@pytest.mark.parametrize(("statement", "sentences", "lost"), DROPPED, ids=[c[0] for c in DROPPED])
def test_a_statement_that_drops_the_source_s_words_is_caught(statement, sentences, lost):
    assert dropped(statement, sentences) == lost

"""An erratum needs evidence: a spelling, the arithmetic, or the book's own page and words that disagree."""

from __future__ import annotations

import pytest

from generator.book.library import load_library
from generator.errors import SourceErrors
from tests.conftest import ROOT, copy_project

RUMMOLI = """    evidence:
      kind: contradiction
      why: "The index said 2 or more, but the Rummoli page says 2 to 8 players."
      page: rummoli
      words: "2 to 8 players, 4 or more is best"
"""

# (what the Rummoli erratum's evidence is replaced with, words the one error must hold)
BROKEN = [
    ("", "missing key 'evidence'"),
    ("    evidence:\n      kind: contradiction\n      why: The page says 2 to 8.\n", "names the page and the words"),
    ("    evidence:\n      kind: spelling\n      why: Misspelt.\n      page: rummoli\n", "cite a contradiction"),
    ("    evidence:\n      kind: usage\n      why: Slipped.\n      place: sheet\n", "place: and words: cite a contradiction"),
    ("    evidence:\n      kind: hunch\n      why: It looks old.\n", "kind"),
    ("    evidence:\n      kind: arithmetic\n      why: \"\"\n", "why"),
    (RUMMOLI.replace("page: rummoli", "page: rummolo"), "cites page 'rummolo', which the book does not have"),
]


@pytest.mark.parametrize("evidence,words", BROKEN, ids=[b[1] for b in BROKEN])
def test_an_erratum_without_evidence_is_refused_at_its_line(tmp_path, evidence, words):
    project = copy_project(tmp_path)
    path = project / "rules_data" / "errata.yaml"
    text = path.read_text(encoding="utf-8")
    assert RUMMOLI in text
    path.write_text(text.replace(RUMMOLI, evidence), encoding="utf-8")
    with pytest.raises(SourceErrors) as info:
        load_library(project)
    [err] = info.value.errors
    assert err.where.path == "rules_data/errata.yaml" and err.where.line and words in err.problem, str(err)



# Evidence is checked, not just labelled: each kind proven true and false on a tiny book printed in 2026.1
# (its fingerprint written), then corrected in 2026.2: (the edits made to the files, the errata's fields, words
# every erratum.false_evidence finding holds, or None when the evidence holds, and how many findings).
TWO_EDITIONS = ('{id: "2026.1", year: 2026, revision: 1, label: Revision 1 (Jan/2026), date: "2026-01-01"}\n'
                '  - {id: "2026.2", year: 2026, revision: 2, label: Revision 2 (Nov/2026), date: "2026-11-01"}')
DEMO = ("id: demo\ntitle: Demo Rummy\ncategory: cards\nintroduced: \"2026.1\"\n"
        "sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]\nplayers: 2-4\n"
        "equipment: {cards: [{decks: 1}]}\ndeal: {each: 7, upcard: 1}\ngoal: {winner: high, target: 500}\n"
        "examples:\n  hand:\n    title: A hand\n    values:\n      melds: {stated: 30, label: Melds}\n"
        "      left: {stated: 5, label: Left in hand}\n      total: {expr: melds - left, stated: STATED, label: Score}\n")
PROSE = ("## Rules\n\nThe dealer shufles the cards. Hearts may not be led first. Play to 500 points.\n\n"
         "A run is 3+ cards, as heartJ heartQ heartK. When its your turn, take from the opponents pile. "
         "Do not loose your turn.\n")
ABOUT = ("A family book. In this family, Demo Rummy is played to 400 points. Some people play to exactly "
         "four hundred. Hearts may be led first.\n")
DEMO_MD, DEMO_YAML = "content/demo.md", "rules_data/demo.yaml"
TOTAL = "examples.hand.values.total.stated"


def text(published: str, corrected: str, kind: str, check: str = "spelling.unknown_word") -> tuple:
    """An edit of the demo page's prose and the erratum that records it with evidence ``kind``."""
    fields = (f"file: {DEMO_MD}\n    published: \"{published}\"\n    corrected: \"{corrected}\"\n    check: {check}\n"
              f"    evidence: {{kind: {kind}, why: A slip.}}")
    return [(DEMO_MD, published, corrected)], [fields]


def value(path: str, old: str, new: str, published: object, corrected: object, kind: str, check: str,
          extra: str = "") -> tuple:
    """An edit of the demo game's data and the erratum that records it."""
    fields = (f"file: {DEMO_YAML}\n    path: {path}\n    published: {published}\n    corrected: {corrected}\n"
              f"    check: {check}\n    evidence: {{kind: {kind}, why: It was wrong.{extra}}}")
    return [(DEMO_YAML, old, new)], [fields]


def both(*changes: tuple) -> tuple:
    return [e for c in changes for e in c[0]], [f for c in changes for f in c[1]]


SCORE = "stated: {}, label: Score"
TARGET = ("goal.target", "target: 500", "target: 400", 500, 400, "contradiction", "prose.number_mismatch")
EVIDENCE = [
    # spelling: only misspelt words change, each to a near spelling of itself
    ("spelling, true", text("shufles", "shuffles", "spelling"), None, 0),
    ("spelling, a rule changed", text("may not be led", "may never be led", "spelling"),
     "'not' -> 'never', and 'not' is not misspelt", 1),
    ("spelling, a word added", text("may not be led", "may not ever be led", "spelling"), "adds 'ever'", 1),
    ("spelling, a word removed", text("shufles the cards", "shuffles cards", "spelling"), "removes 'the'", 1),
    ("spelling, still misspelt", text("shufles", "shuffels", "spelling"), "'shuffels' are not in the dictionary", 1),
    ("spelling, the run and its cards changed (issue 44)",
     text("3+ cards, as heartJ", "five cards, as heart jack", "spelling"), "'3+' -> 'five'", 1),
    ("spelling, card notation is no misspelling", text("as heartJ heartQ", "as heart jack heartQ", "spelling"),
     "'heartJ' -> 'heart', and 'heartJ' is not misspelt; adds 'jack'", 1),
    ("spelling, a misspelt word made another word", text("shufles", "deals", "spelling"),
     "which is not a near spelling of 'shufles'", 1),
    ("spelling, a number changed beside it", text("shufles the cards. Hearts may not be led first. Play to 500",
                                                  "shuffles the cards. Hearts may not be led first. Play to 400",
                                                  "spelling"), "'500' -> '400', and '500' is not misspelt", 1),
    ("spelling, punctuation changed beside it", text("shufles the cards.", "shuffles the cards;", "spelling"),
     "'cards.' -> 'cards;'", 1),
    ("spelling, the punctuation around the word changed", text("shufles the cards.", "shuffles, the cards.",
                                                              "spelling"), "the punctuation around the word too", 1),
    ("spelling, a capital changed beside it", text("The dealer shufles", "the dealer shuffles", "spelling"),
     "'The' -> 'the'", 1),
    ("spelling, nothing changed", ([], [f"file: {DEMO_MD}\n    published: shufles\n    corrected: shufles\n"
                                        "    check: spelling.unknown_word\n    evidence: {kind: spelling, why: x}"]),
     "is the published text", 1),
    ("spelling, a number in the data", value(*TARGET[:5], "spelling", "spelling.unknown_word"),
     "'500' -> '400', and '500' is not misspelt", 1),
    # usage: a real word slipped for another, changed to a form of itself
    ("usage, an apostrophe added", text("its your turn", "it's your turn", "usage", "proofread"), None, 0),
    ("usage, a possessive", text("the opponents pile", "the opponent’s pile", "usage", "proofread"), None, 0),
    ("usage, a confusable pair", text("Do not loose", "Do not lose", "usage", "proofread"), None, 0),
    ("usage, a misspelt word", text("shufles", "shuffles", "usage", "proofread"),
     "'shufles' is misspelt (evidence kind: spelling)", 1),
    ("usage, another word", text("its your turn", "now your turn", "usage", "proofread"),
     "which is not a form of 'its'", 1),
    ("usage, a letter that makes another word", text("may not be led", "may note be led", "usage", "proofread"),
     "which is not a form of 'not'", 1),
    ("usage, the slip and another word", text("its your turn", "it's my turn", "usage", "proofread"),
     "'your' -> 'my'", 1),
    ("usage, the punctuation around the word changed", text("its your turn", "it's, your turn", "usage", "proofread"),
     "the punctuation around the word too", 1),
    ("usage, a plural possessive", text("the opponents pile", "the opponents’ pile", "usage", "proofread"), None, 0),
    ("usage, a word added", text("its your turn", "it's your own turn", "usage", "proofread"), "adds 'own'", 1),
    ("usage, a word removed", text("Do not loose your turn", "Do loose your turn", "usage", "proofread"),
     "removes 'not'", 1),
    # arithmetic: proven on the edition as published, this erratum alone applied
    ("arithmetic, true", value(TOTAL, SCORE.format(35), SCORE.format(25), 35, 25, "arithmetic", "example.arithmetic"),
     None, 0),
    ("arithmetic, the published sum was right", value(*TARGET[:5], "arithmetic", "example.arithmetic"),
     "example.arithmetic finds nothing wrong with the published 500", 1),
    ("arithmetic, the corrected sum is wrong too",
     value(TOTAL, SCORE.format(35), SCORE.format(24), 35, 24, "arithmetic", "example.arithmetic"),
     "finds the corrected 24 wrong too", 1),
    ("arithmetic, no such check", value(TOTAL, SCORE.format(35), SCORE.format(25), 35, 25, "arithmetic",
                                        "example.sums"), "'example.sums' is not a check", 1),
    # Oh Hell's correct example (bid 1 -> 11) made bid 2 -> 12 by two errata: each judged alone, neither holds
    ("arithmetic, two errata prove each other (issue 44)", both(
        value(TOTAL, SCORE.format(25), SCORE.format(26), 25, 26, "arithmetic", "example.arithmetic"),
        value("examples.hand.values.melds.stated", "stated: 30, label: Melds", "stated: 31, label: Melds", 30, 31,
              "arithmetic", "example.arithmetic")), "finds nothing wrong with the published", 2),
    # a wrong sum 'corrected' to another wrong sum, made right only by a second erratum
    ("arithmetic, right only with another erratum", both(
        value(TOTAL, SCORE.format(35), SCORE.format(26), 35, 26, "arithmetic", "example.arithmetic"),
        value("examples.hand.values.melds.stated", "stated: 30, label: Melds", "stated: 31, label: Melds", 30, 31,
              "arithmetic", "example.arithmetic")), "wrong too, applied alone to 2026.1 as published", 2),
    ("arithmetic, in prose the check does not read", text("Play to 500", "Play to 400", "arithmetic",
                                                          "example.arithmetic"), "finds nothing wrong", 1),
    # contradiction: another page of the edition says what the correction says
    ("contradiction, true", value(*TARGET, ", page: about, words: Demo Rummy is played to 400 points"), None, 0),
    ("contradiction, in number words", value(*TARGET, ", page: about, words: play to exactly four hundred"), None, 0),
    ("contradiction, words removed", text("Hearts may not be led", "Hearts may be led", "contradiction",
                                          "prose.number_mismatch")[0:1] + ([
        f"file: {DEMO_MD}\n    published: Hearts may not be led\n    corrected: Hearts may be led\n"
        "    check: proofread\n    evidence: {kind: contradiction, why: x, page: about, words: Hearts may be led first}"],),
     None, 0),
    ("contradiction, words the page does not print", value(*TARGET, ", page: about, words: Play to 300 points"),
     "does not print “Play to 300 points”", 1),
    ("contradiction, its own page", value(*TARGET, ", page: demo, words: Play to 500 points"),
     "quotes the page 'demo', which this erratum itself changes", 1),
    ("contradiction, words that say something else", value(*TARGET, ", page: about, words: A family book"),
     "do not state what the correction makes the book say, '400'", 1),
    # two errata, each quoting the words the other makes the book print: the published book said neither
    ("contradiction, two errata prove each other", ([(DEMO_MD, "Play to 500", "Play to 300"),
                                                     ("content/about.md", "played to 400", "played to 300")], [
        f"file: {DEMO_MD}\n    published: Play to 500\n    corrected: Play to 300\n    check: proofread\n"
        "    evidence: {kind: contradiction, why: x, page: about, words: Demo Rummy is played to 300 points}",
        "file: content/about.md\n    published: played to 400\n    corrected: played to 300\n    check: proofread\n"
        "    evidence: {kind: contradiction, why: x, page: demo, words: Play to 300 points}"]),
     "the edition it corrects (words another change of this edition made prove nothing)", 2),
    ("contradiction, any words for a slip (issue 44)", (text("its your turn", "it's your turn", "x")[0], [
        f"file: {DEMO_MD}\n    published: its your turn\n    corrected: it's your turn\n    check: proofread\n"
        "    evidence: {kind: contradiction, why: x, page: about, words: Some people play to exactly}"]),
     "do not state what the correction makes the book say, 'it's'", 1),
]


@pytest.mark.parametrize("change,words,count", [e[1:] for e in EVIDENCE], ids=[e[0] for e in EVIDENCE])
def test_evidence_is_checked_not_just_labelled(tmp_path, change, words, count):
    from generator.checks import run_checks
    from tests.checkfix import make_project

    edits, fields = change
    errata = "errata:\n" + "".join(f"  - id: demo-fix-{n}\n    edition: \"2026.2\"\n    {f}\n    note: x\n"
                                   for n, f in enumerate(fields))
    fixture = {"games": [DEMO.replace("STATED", "35" if "35" in str(edits) else "25")], "prose": {"demo": PROSE},
               "about": ABOUT, "confusables": (ROOT / "rules_data" / "confusables.txt").read_text(encoding="utf-8"),
               "edition": TWO_EDITIONS, "current": "2026.2", "freeze": "2026.1",
               "then": [*map(list, edits), ["rules_data/errata.yaml", "", errata]]}
    lib = load_library(make_project(tmp_path / "book", fixture))
    found = [f for f in run_checks(lib) if f.check == "erratum.false_evidence"]
    assert len(found) == count, [f.message for f in found]
    for finding in found:
        assert words in finding.message and finding.path == "rules_data/errata.yaml" and finding.line, finding


# A word's forms, and near spellings: (published, corrected, whether the second is a form of the first).
FORMS = [("its", "it's", True), ("opponents", "opponent's", True), ("players'", "player's", True),
         ("there", "their", True), ("loose", "lose", True), ("your", "you're", True), ("then", "than", True),
         ("play", "played", True), ("score", "scoring", True), ("card", "cards", True), ("every day", "everyday", True),
         ("not", "note", False), ("hat", "hate", False), ("win", "won", False), ("is", "it", False),
         ("led", "lead", True), ("lead", "lend", False), ("five", "four", False), ("to", "two", False)]


@pytest.mark.parametrize("old,new,expected", FORMS, ids=[f"{f[0]}->{f[1]}" for f in FORMS])
def test_a_usage_correction_is_a_form_of_the_word(old, new, expected):
    from generator.checks.evidence import confusables, form_of

    assert form_of(old, new, confusables(ROOT)) is expected


NEAR = [("oponent", "opponent", True), ("familys", "families", True), ("rnd", "round", True),
        ("4,s", "4's", True), ("heartJ", "heart J", True), ("dramitically", "dramatically", True),
        ("3+", "five", False), ("heartJ", "heart jack", False), ("shufles", "deals", False), ("teh", "the", True)]


@pytest.mark.parametrize("old,new,expected", NEAR, ids=[f"{n[0]}->{n[1]}" for n in NEAR])
def test_a_spelling_correction_is_a_near_spelling(old, new, expected):
    from generator.checks.evidence import near

    assert near(old, new) is expected


def test_a_long_rewrite_is_one_change_and_a_long_word_no_near_spelling():
    """A contributor's erratum may hold any text: it is judged without weighing every pair of its words."""
    from generator.checks.evidence import LONGEST_WORD, near, word_changes

    old, new = " ".join(f"w{i}" for i in range(200)), " ".join(f"v{i}" for i in range(199))
    assert word_changes(old, new) == [(old, new)]
    assert word_changes("the dealer shufles the cards", "the dealer shuffles all cards") == [
        ("shufles", "shuffles"), ("the", "all")]
    long = "a" * (LONGEST_WORD + 1)
    assert not near(long, long[:-1]) and near(long[:LONGEST_WORD], long[:LONGEST_WORD - 1])


# A contradiction is about the thing corrected: a page about the same game (another game's page that happens to
# print the new number proves nothing), and the same quantity (the number beside the same word): (the erratum's
# change, the about page, words the one finding holds, or None when the evidence holds).
OTHER = DEMO.replace("id: demo", "id: other").replace("Demo Rummy", "Other Rummy").replace("STATED", "25")
OTHER_PROSE = "## Rules\n\nPlay to 400 points. Deal 400 cards.\n"
NEIGHBOURS = "A family book. In this family, Demo Rummy is played to 400 points.\n\nOur neighbours play to 400 points.\n"
def cited(change: tuple, page: str, words: str) -> tuple:
    """A text erratum's change with contradiction evidence quoting ``words`` of ``page``."""
    edits, [fields] = change
    return edits, [fields.replace("why: A slip.", f"why: x, page: {page}, words: {words}")]


TO_400 = text("Play to 500 points", "Play to 400 points", "contradiction", "proofread")
SAME_GAME = [
    ("the game's target, another game's page", value(*TARGET, ", page: other, words: Play to 400 points"), ABOUT,
     "another game"),
    ("the game's text, another game's page", cited(TO_400, "other", "Play to 400 points"), ABOUT, "another game"),
    ("a book page's paragraph about no game", value(*TARGET, ", page: about, words: Our neighbours play to 400 points"),
     NEIGHBOURS, "does not name Demo Rummy"),
    ("the same game's paragraph", value(*TARGET, ", page: about, words: Demo Rummy is played to 400 points"),
     NEIGHBOURS, None),
    ("the same game's paragraph, a text", cited(TO_400, "about", "Demo Rummy is played to 400 points"), NEIGHBOURS,
     None),
    ("another quantity", value(*TARGET, ", page: about, words: Demo Rummy has room for 400 people"),
     "A family book. Demo Rummy has room for 400 people.\n", "another quantity"),
    ("another quantity in a text", cited(TO_400, "about", "Demo Rummy has room for 400 people"),
     "A family book. Demo Rummy has room for 400 people.\n", "another quantity"),
]


@pytest.mark.parametrize("change,about,words", [c[1:] for c in SAME_GAME], ids=[c[0] for c in SAME_GAME])
def test_a_contradiction_quotes_the_same_game_and_quantity(tmp_path, change, about, words):
    from generator.checks import run_checks
    from tests.checkfix import make_project

    edits, fields = change
    errata = "errata:\n" + "".join(f"  - id: demo-fix-{n}\n    edition: \"2026.2\"\n    {f}\n    note: x\n"
                                   for n, f in enumerate(fields))
    fixture = {"games": [DEMO.replace("STATED", "25"), OTHER], "prose": {"demo": PROSE, "other": OTHER_PROSE},
               "about": about, "edition": TWO_EDITIONS, "current": "2026.2", "freeze": "2026.1",
               "then": [*map(list, edits), ["rules_data/errata.yaml", "", errata]]}
    found = [f for f in run_checks(load_library(make_project(tmp_path / "book", fixture)))
             if f.check == "erratum.false_evidence"]
    assert len(found) == (words is not None), [f.message for f in found]
    assert all(words in f.message and f.path == "rules_data/errata.yaml" for f in found), [f.message for f in found]


# A contradiction may quote the game's line of the printed index or its score sheet (place: index, sheet), each
# held to the same game and quantity: (the erratum's change, its evidence, words the one finding holds, or None).
SHEETED = DEMO.replace("STATED", "25") + ("score_sheet:\n  title: Demo Rummy\n  fields: [Game to 400 points]\n"
                                          "  blocks:\n    - {columns: [Melds, Left], total: Total}\n")
OTHER_SHEETED = OTHER + ("score_sheet:\n  title: Other Rummy\n  fields: [Game to 400 points]\n"
                         "  blocks:\n    - {columns: [Score], total: Total}\n")
PRINTED_INDEX = ('printed_index:\n  editions: ["2026.1", "2026.2"]\n  sections:\n    cards:\n'
                 "      - {page: 1, title: Demo Rummy, game: demo, players: 2-6}\n"
                 "      - {page: 2, title: Other Rummy, game: other, players: 2-5}\n")
PLAYERS = ("players", "players: 2-4", "players: 2-6", '"2-4"', '"2-6"', "contradiction", "proofread")
DEALT = text("Deal 7 cards", "Deal 2-6 cards", "contradiction", "proofread")


def place(change: tuple, page: str, where: str, words: str) -> tuple:
    """A text erratum's change with contradiction evidence quoting ``words`` at ``where`` (index, sheet) of ``page``."""
    edits, [fields] = change
    return edits, [fields.replace("why: A slip.", f"why: x, page: {page}, place: {where}, words: {words}")]
IN_PLACE = [
    ("the game's players, its index line", value(*PLAYERS, ", page: demo, place: index, words: Demo Rummy 2-6"),
     None),
    ("the game's players, another game's index line",
     value(*PLAYERS, ", page: other, place: index, words: Other Rummy 2-5"), "line of the printed index of Other Rummy"),
    ("the game's players, words its index line does not print",
     value(*PLAYERS, ", page: demo, place: index, words: Demo Rummy 2-8"), "does not print “Demo Rummy 2-8”"),
    ("a count of cards, its index line the same numbers", place(DEALT, "demo", "index", "Demo Rummy 2-6"),
     "states only the game's title and number of players"),
    ("the game's target, its sheet", value(*TARGET, ", page: demo, place: sheet, words: Game to 400 points"), None),
    ("the game's target, another game's sheet",
     value(*TARGET, ", page: other, place: sheet, words: Game to 400 points"), "score sheet of Other Rummy"),
    ("the game's target, words its sheet does not print",
     value(*TARGET, ", page: demo, place: sheet, words: Game to 300 points"), "does not print"),
    ("a book page's index line", value(*PLAYERS, ", page: about, place: index, words: About 2-6"), "is no game"),
    ("its sheet, changed by the erratum itself",
     value("score_sheet.fields.0", "fields: [Game to 400 points]", "fields: [Game to 300 points]",
           '"Game to 400 points"', '"Game to 300 points"', "contradiction", "proofread",
           ", page: demo, place: sheet, words: Game to 300 points"), "which this erratum itself changes"),
]


@pytest.mark.parametrize("change,words", [c[1:] for c in IN_PLACE], ids=[c[0] for c in IN_PLACE])
def test_a_contradiction_may_quote_the_games_index_line_or_sheet(tmp_path, change, words):
    from generator.checks import run_checks
    from tests.checkfix import make_project

    edits, fields = change
    errata = "errata:\n" + "".join(f"  - id: demo-fix-{n}\n    edition: \"2026.2\"\n    {f}\n    note: x\n"
                                   for n, f in enumerate(fields))
    fixture = {"games": [SHEETED, OTHER_SHEETED], "prose": {"demo": PROSE + "\nDeal 7 cards.\n",
                                                            "other": OTHER_PROSE},
               "edition": TWO_EDITIONS, "current": "2026.2", "freeze": "2026.1", "book": PRINTED_INDEX,
               "then": [*map(list, edits), ["rules_data/errata.yaml", "", errata]]}
    found = [f for f in run_checks(load_library(make_project(tmp_path / "book", fixture)))
             if f.check == "erratum.false_evidence"]
    assert len(found) == (words is not None), [f.message for f in found]
    assert all(words in f.message and f.path == "rules_data/errata.yaml" for f in found), [f.message for f in found]

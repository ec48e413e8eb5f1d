"""The validator: each check proven by a broken fixture, no false alarms on good data."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from generator.book.library import load_library
from generator.checks import load_all, run_checks
from tests.checkfix import make_project
from tests.conftest import ROOT

FIXTURES = Path(__file__).parent / "fixtures" / "checks"
BROKEN = sorted(FIXTURES.glob("*.yaml"))
GOOD = sorted((FIXTURES / "good").glob("*.yaml"))
GOLDEN = Path(__file__).parent / "golden" / "validate-2026.1.json"


def findings_for(fixture_path: Path, tmp_path: Path, only=None):
    fixture = yaml.safe_load(fixture_path.read_text(encoding="utf-8"))
    project = make_project(tmp_path / "project", fixture)
    return fixture, run_checks(load_library(project), only=only)


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_broken_fixture_reports_its_check(path, tmp_path):
    fixture, findings = findings_for(path, tmp_path)
    mine = [f for f in findings if f.check == fixture["expect"]]
    assert mine, f"{path.name}: expected {fixture['expect']}, got {[(f.check, f.message) for f in findings]}"
    if "line" in fixture:
        first_game = yaml.safe_load(fixture["games"][0])["id"]
        assert any(f.path == f"rules_data/{first_game}.yaml" and f.line == fixture["line"] for f in mine), \
            [(f.path, f.line, f.message) for f in mine]


def test_every_check_has_a_broken_fixture():
    fixtures = {p.stem for p in BROKEN}
    checks = set(load_all())
    assert checks - fixtures == set(), "checks without a fixture"
    assert fixtures - checks == set(), "fixtures naming no check"


def test_every_check_is_named_area_problem_with_a_docstring():
    for name, chk in load_all().items():
        area, problem = name.split(".")
        assert area and problem and chk.doc, name
        assert chk.severity in ("error", "warning")


@pytest.mark.parametrize("path", GOOD, ids=[p.stem for p in GOOD])
def test_good_fixture_has_no_finding(path, tmp_path):
    _, findings = findings_for(path, tmp_path)
    assert findings == [], [(f.check, f.message) for f in findings]


def test_current_edition_has_no_errors(library):
    errors = [f for f in run_checks(library) if f.severity == "error"]
    assert errors == [], "\n".join(f"{f.path}:{f.line}: {f.check}: {f.message}" for f in errors)


def _pinned(findings: list[dict]) -> list[dict]:
    # Lines move whenever a file is edited above a finding; what was found, and where, is pinned.
    return sorted(({k: f[k] for k in ("check", "severity", "path", "game", "message")} for f in findings),
                  key=lambda f: (f["path"], f["check"], f["message"]))


def test_published_edition_findings_match_the_golden_file():
    """`rulebook validate --edition 2026.1` reports the published book's mistakes; the list is pinned.

    After a deliberate change, regenerate with:
    .venv/bin/rulebook validate --edition 2026.1 --format json > tests/golden/validate-2026.1.json
    """
    result = subprocess.run([sys.executable, "-m", "generator", "validate", "--edition", "2026.1", "--format", "json"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 1  # the published book has errors
    assert _pinned(json.loads(result.stdout)) == _pinned(json.loads(GOLDEN.read_text(encoding="utf-8")))


def test_errata_cover_every_published_error(library, published_library):
    """Every error in the published edition was corrected by an erratum naming that check."""
    published_errors = {f.check for f in run_checks(published_library) if f.severity == "error"}
    corrected_by = {e.check for e in library.errata}
    assert published_errors <= corrected_by


def test_dominoes_that_do_not_go_round_are_reported(tmp_path):
    """The deal check counts tiles as it counts cards: 8 players x 15 tiles > a double-12 set's 91."""
    game = ("id: train\ntitle: Demo Train\ncategory: equipment\nequipment_kind: dominoes\nintroduced: \"2026.1\"\n"
            "sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]\nplayers: 2-8\n"
            "equipment: {dominoes: {set: 12}}\ndeal: {tiles: 15}\ngoal: {winner: low, rounds: 13}\n")
    project = make_project(tmp_path, {"games": [game]})
    found = [f for f in run_checks(load_library(project)) if f.check == "deal.exceeds_deck"]
    assert [f.message for f in found] == [
        "7 players: 7 x 15 = 105 tiles, but a double-12 set has 91",
        "8 players: 8 x 15 = 120 tiles, but a double-12 set has 91"]


@pytest.mark.parametrize(("players", "decks", "each", "expected"), [
    ("any", 1, 27, ["'any' players, even the fewest: 2 players: 2 x 27 = 54 cards, but 1 deck (52 cards)"]),
    ("3 or more", 1, 18, ["'3 or more' players, even the fewest: 3 players: 3 x 18 = 54 cards, but 1 deck (52 cards)"]),
    ("any", 1, 26, []),  # 2 players fit; more is players.unbounded's warning
    # a line of the deal names 7 and 8 players: those counts are claimed as surely as '2-8' would claim them
    ("any", 1, "5, by_players: [{players: 7 to 8, each: 8}]",
     ["7 players: 7 x 8 = 56 cards, but 1 deck (52 cards)", "8 players: 8 x 8 = 64 cards, but 1 deck (52 cards)"]),
    ("any", 1, "5, by_players: [{players: 5 to 6, each: 8}]", []),  # 6 x 8 = 48: the named lines fit
])
def test_open_claims_must_work_for_the_fewest_and_the_named_players(tmp_path, players, decks, each, expected):
    """'Any number' of players is an error, not a warning, when even the smallest table cannot be dealt,
    or when a table the data names in a line of its own cannot."""
    game = ("id: demo\ntitle: Demo\ncategory: cards\nintroduced: \"2026.1\"\n"
            "sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]\n"
            f"players: {players}\nequipment: {{cards: [{{decks: {decks}}}]}}\ndeal: {{each: {each}}}\n"
            "goal: {winner: low, rounds: 9}\n")
    findings = run_checks(load_library(make_project(tmp_path, {"games": [game]})))
    errors = [f.message for f in findings if f.check == "deal.exceeds_deck"]
    assert errors == expected
    assert all(f.severity == "error" for f in findings if f.check == "deal.exceeds_deck")


DICE = ("id: demo\ntitle: Demo Dice\ncategory: equipment\nequipment_kind: dice\nintroduced: \"2026.1\"\n"
        "sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]\nplayers: any\nequipment: {dice: 6}\n"
        "goal: {winner: first_to_target, target: 10000}\nscoring:\n  roll:\n    kind: dice\n    items:\n")


@pytest.mark.parametrize(("items", "expected"), [
    # 1s are scored apart for 3 of a kind; 'x00 times 2' for 4 of a kind names only 2-6: 4 1s are undefined
    (["{label: 3 1s, count: 3, faces: '1', points: 1000}", "{label: 3 of a kind, count: 3, faces: 2-6, value: x00}",
      "{label: 4 of a kind, count: 4, faces: 2-6, times: 2, value: 'x00 times {times}'}"],
     [("scoring.undefined_case", "4 of a kind of 1s: no item of roll gives a value")]),
    (["{label: 3 of a kind, count: 3, faces: 1-6, value: x00}"], []),
    # the wording says 'times 2' but the data multiplies by 4
    (["{label: 4 of a kind, count: 4, faces: 1-6, times: 4, value: x00 times 2}"],
     [("scoring.value_mismatch", "4 of a kind: printed 'x00 times 2' multiplies by 2, but times is 4")]),
])
def test_dice_rules_in_words_cover_every_face(tmp_path, items, expected):
    """'x00 times 2' is modelled (count, faces, times): every face of every count gets a value, or is reported."""
    game = DICE + "".join(f"      - {item}\n" for item in items)
    findings = run_checks(load_library(make_project(tmp_path, {"games": [game]})),
                          only=["scoring.undefined_case", "scoring.value_mismatch"])
    assert [(f.check, f.message) for f in findings] == expected


def test_face_value_examples_are_read_against_the_ranks(tmp_path):
    """'Ace=1' in a face-value wording must agree with the item's ranks; 'a six is worth 7' cannot be face value."""
    game = DICE.replace("category: equipment\nequipment_kind: dice", "category: cards").replace(
        "equipment: {dice: 6}", "equipment: {cards: [{decks: 1}]}\ndeal: {each: 4}").replace("kind: dice", "kind: counters")
    game += ("      - {label: Aces and numbers, cards: 'A, number', points: face, ranks: {ace: 2},"
             " value: 'face value (Ace=1, a six is worth 7)'}\n")
    findings = run_checks(load_library(make_project(tmp_path, {"games": [game]})), only=["scoring.value_mismatch"])
    assert sorted(f.message for f in findings) == [
        "Aces and numbers: printed 'face value (Ace=1, a six is worth 7)' gives 6 7, but its face value is 6",
        "Aces and numbers: printed 'face value (Ace=1, a six is worth 7)' gives A 1, but its face value is 2"]


FACE = ("id: demo\ntitle: Demo\ncategory: cards\nintroduced: \"2026.1\"\n"
        "sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]\nplayers: 4\n"
        "equipment: {cards: [{decks: 1}]}\ndeal: {each: 13}\ngoal: {winner: low, rounds: 9}\n"
        "scoring:\n  counters:\n    kind: counters\n    items:\n")


@pytest.mark.parametrize(("items", "table_total", "expected"), [
    # 2-10 in four suits at face value: 4 x 54 = 216; twelve face cards at 10: 120
    (["{label: Numbers, cards: 2-10, points: face}", "{label: Faces, cards: face, points: 10}"], 336, []),
    (["{label: Numbers, cards: 2-10, points: face}", "{label: Faces, cards: face, points: 10}"], 335,
     ["counters: 36 at face value + 12 x 10 = 336, stated 335"]),
    (["{label: Numbers, cards: 2-10, points: face, stated_total: 216}"], None, []),
    (["{label: Numbers, cards: 2-10, points: face, stated_total: 215}"], None,
     ["Numbers: 36 numbers at face value = 216, stated 215"]),
    # the item's ranks give the Ace its value ('Ace=1'): 4 + 216
    (["{label: Aces and numbers, cards: 'A, 2-10', points: face, ranks: {A: 1}, stated_total: 220}"], None, []),
    (["{label: Aces and numbers, cards: 'A, 2-10', points: face, ranks: {A: 1}, stated_total: 216}"], None,
     ["Aces and numbers: 40 aces and numbers at face value = 220, stated 216"]),
])
def test_totals_count_cards_at_face_value(tmp_path, items, table_total, expected):
    """A total over face-value cards is worked out card by card: a right one passes, a wrong one is caught."""
    game = FACE + "".join(f"      - {item}\n" for item in items) + (f"    stated_total: {table_total}\n" if table_total else "")
    findings = run_checks(load_library(make_project(tmp_path, {"games": [game]})), only=["scoring.total_mismatch"])
    assert [f.message for f in findings] == expected


@pytest.mark.parametrize(("equipment", "reported"), [
    ({"stakes": {"coin": "dime", "start": 3}}, True),  # a card game that names no deck (Chase the Ace)
    ({"cards": [{"decks": 1}], "stakes": {"coin": "dime", "start": 3}}, False),
])
def test_a_card_game_that_names_no_deck_is_vague_equipment(tmp_path, equipment, reported):
    """Nothing is added for a deck the source does not name; the validator says the deal cannot be checked."""
    game = {"id": "demo", "title": "Demo", "category": "cards", "introduced": "2026.1",
            "sources": [{"seed": "000_321aee1cc9de258a.txt", "section": "Demo"}], "players": "6 or more",
            "equipment": equipment, "deal": {"each": 1}, "keeps": "lives", "goal": {"winner": "last_standing"}}
    project = make_project(tmp_path / "project", {"games": [yaml.safe_dump(game)]})
    found = [f.message for f in run_checks(load_library(project), only={"spec.vague_equipment"})]
    assert any("no deck is stated" in m for m in found) == reported, found


@pytest.mark.parametrize(("stated", "reported"), [
    ({"keeps": "nothing"}, False),  # a race whose rules name no scoring: no sheet, nothing stated for one
    ({"keeps": "nothing", "score_sheet": {"title": "S", "blocks": [{"player_columns": True, "rows": ["Won (1)"]}]}},
     True),  # issue 52: a page for one tick
    ({"keeps": "points", "goal": {"winner": "high"}}, False),  # a game whose rules score
])
def test_a_sheet_for_a_game_whose_rules_keep_no_score_is_reported(tmp_path, stated, reported):
    """sheet.nothing_to_keep: a game whose rules name no scoring (keeps: nothing) states no sheet."""
    game = {"id": "demo", "title": "Demo Race", "category": "equipment", "equipment_kind": "board", "introduced": "2026.1",
            "sources": [{"seed": "000_321aee1cc9de258a.txt", "section": "Demo"}], "players": "2-6",
            "equipment": {"board": "Demo board"}, **stated}
    project = make_project(tmp_path / "project", {"games": [yaml.safe_dump(game, allow_unicode=True)]})
    lib = load_library(project)
    found = [f.message for f in run_checks(lib, only={"sheet.nothing_to_keep"})]
    assert bool(found) == reported, found
    assert lib.games["demo"].game.keeps_score() == (stated["keeps"] != "nothing")

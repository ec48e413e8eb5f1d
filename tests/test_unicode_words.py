"""Words are Unicode words (issue 51, item 7): the spelling check reads 'Bézique' as one word, NFC on both sides, and
a dictionary entry with accents matches the text however either was typed. Cheap: a one-game fixture book."""

from __future__ import annotations

import unicodedata

import pytest

from generator.book.library import load_library
from generator.checks import run_checks
from tests.checkfix import make_project
from tests.test_dropped import GAME

NFD = lambda text: unicodedata.normalize("NFD", text)  # noqa: E731 - the accents as combining marks

# (the prose's sentence, the dictionary, the unknown words reported: whole words, never a fragment of one)
CASES = [
    ("Play Bézique as Zwölfer does.", "", {"bézique", "zwölfer"}),
    ("Play Bézique as Zwölfer does.", "Bézique\nZwölfer\n", set()),
    (NFD("Play Bézique as Zwölfer does."), "Bézique\nZwölfer\n", set()),  # the text decomposed, the list not
    ("Play Bézique as Zwölfer does.", NFD("Bézique\nZwölfer\n"), set()),  # the list decomposed, the text not
    ("Play BÉZIQUE.", "bézique\n", set()),  # case
    ("Play Bézique's way.", "bézique\n", set()),
    ("Ask the Czárdás player.", "", {"czárdás"}),
    ("Durak: Дурак is the fool.", "дурак\n", set()),  # another script's word
    ("Play Schafkopf in Straße or STRASSE.", "Schafkopf\nStraße\n", set()),  # case folded: 'ß' is 'SS' in capitals
    ("A Tarock game, a Spiel.", "Tarock-Spiel\n", set()),  # an entry of two words is each of them
    ("Jass is Swiss.", "Jass's\n", set()),  # as the text is looked up: no possessive
    ("Jass and Jasss.", "Jass\n", {"jasss"}),
]


@pytest.mark.parametrize(("sentence", "dictionary", "unknown"), CASES, ids=[c[0][:24] + "|" + c[1][:10] for c in CASES])
def test_a_word_with_accents_is_one_word_and_matches_its_dictionary_entry(tmp_path, sentence, dictionary, unknown):
    fixture = {"games": [GAME.split("variants:")[0]], "prose": {"demo": f"## Rules\n\n{sentence}\n"},
               "dictionary": "durak\n" + dictionary}
    found = run_checks(load_library(make_project(tmp_path / "project", fixture)), only=["spelling.unknown_word"])
    words = {f.message.split("'")[1] for f in found}
    assert words == unknown, [f.message for f in found]
    for word in words:  # the advice names the word whole: adding it to the dictionary quiets it
        assert unicodedata.is_normalized("NFC", word) and any(word in f.message for f in found)

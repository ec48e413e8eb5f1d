"""The spelling check's plain-text copy of pyspellchecker's English list decides exactly as the package does."""

from __future__ import annotations

import pytest
from spellchecker import SpellChecker

from generator.checks import editorial

WORDS = ["player", "trumps", "euchre", "cribbage", "xyzzy", "don't", "nan", "inf", "infinity",
         "a" * 48, "a" * 49, "a" * 60, "colour", "jokers", "qq"]


@pytest.fixture(scope="module", params=["cold", "warm"])
def english(request, tmp_path_factory):
    """The list read from the package (cold: no copy yet, one is written) or from the copy (warm)."""
    tmp_path = tmp_path_factory.mktemp(request.param)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(tmp_path))
        yield from _english(request, tmp_path)


def _english(request, tmp_path):
    editorial._english.cache_clear()
    if request.param == "warm":
        editorial._english()
        editorial._english.cache_clear()
    yield editorial._english()
    assert list((tmp_path / "rulebook").glob("english-*.txt")), "the copy was not written"
    editorial._english.cache_clear()


@pytest.fixture(scope="module")
def package():
    return SpellChecker(distance=1)


@pytest.mark.parametrize("word", WORDS)
def test_same_verdict_as_pyspellchecker(english, package, word):
    assert editorial._unknown(english, [word]) == sorted(package.unknown([word]))


def test_remembered_verdicts_decide_as_pyspellchecker(package, tmp_path, monkeypatch):
    """The verdicts kept beside the copy give the package's answer, and a run whose words are all
    remembered does not read the list at all."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    words = {w for w in WORDS if len(w) > 1}
    editorial._english.cache_clear()
    first = editorial.unknown_words(set(list(words)[:5]))  # some remembered, some new on the next call
    assert first == set(package.unknown(list(words)[:5]))
    assert editorial.unknown_words(words) == set(package.unknown(list(words)))

    def unread():
        raise AssertionError("the English list was read, though every word's verdict was remembered")

    monkeypatch.setattr(editorial, "_english", unread)
    assert editorial.unknown_words(words) == set(package.unknown(list(words)))
    assert editorial.unknown_words({"qq", "player"}) == set(package.unknown(["qq", "player"]))

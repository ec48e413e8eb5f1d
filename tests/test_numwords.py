"""Numbers in words: the styles a prose reference may ask for, and reading words back."""

from __future__ import annotations

import re

import pytest

from generator.book.numwords import _SCALE_VALUES, _VALUES, WORD_PATTERN, from_words, styled, to_words
from generator.book.prose import expand

CASES = [(0, "zero"), (4, "four"), (10, "ten"), (13, "thirteen"), (21, "twenty-one"), (90, "ninety"),
         (100, "one hundred"), (125, "one hundred twenty-five"), (1000, "one thousand"),
         (1500, "one thousand five hundred")]


@pytest.mark.parametrize(("n", "words"), CASES)
def test_words_both_ways(n: int, words: str) -> None:
    assert to_words(n) == words
    assert from_words(words) == n
    assert from_words(words.title()) == n


def test_styles_and_references() -> None:
    assert styled(4, "Word") == "Four" and styled(4, "WORD") == "FOUR"
    data = {"stakes": {"start": 10}, "each": 7, "name": "Golf"}
    assert expand("with {stakes.start:word} dimes; {each:Word} cards; {each}", data) == "with ten dimes; Seven cards; 7"
    # a word style on text is left as written, for the reference check to report
    assert expand("{name:word}", data) == "{name:word}"
    with pytest.raises(ValueError):
        styled(3, "roman")


def test_not_a_number() -> None:
    assert from_words("dozen") is None and from_words("") is None
    assert from_words("one hundred and five") == 105


@pytest.mark.parametrize(("value", "style", "printed"), [
    (0, "score", "Free"), (-10, "score", "Minus 10"), (1000, "score", "1,000"), (30.5, "score", "30 ½"),
    (10, "score", "10"), (-25, "abs", "25"), (1500, "abs", "1,500")])
def test_score_styles(value: float, style: str, printed: str) -> None:
    """A score printed from its points the way the book's tables word it."""
    assert expand(f"{{points:{style}}}", {"points": value}) == printed


def test_the_word_pattern_finds_what_a_plain_list_of_the_words_finds() -> None:
    """The pattern is built as a tree of letters, for speed; it must match exactly what listing the
    words one by one (longest first) matches, in running text and inside longer words."""
    words = sorted([*_VALUES, *_SCALE_VALUES], key=len, reverse=True)
    one = "(?:" + "|".join(words) + ")"
    plain = re.compile(rf"\b{one}(?:[- ](?:and[- ])?{one})*\b", re.IGNORECASE)
    text = " ".join([to_words(n) for n in range(0, 1200, 7)] + [w + "s" for w in words] + ["tent", "often",
                     "Seventeen", "eighty-eight", "one hundred and five", "sixtieth", "Nine-Ten", "zeros"])
    assert [m.span() for m in WORD_PATTERN.finditer(text)] == [m.span() for m in plain.finditer(text)]
    assert all(WORD_PATTERN.fullmatch(to_words(n)) for n in range(0, 2000))

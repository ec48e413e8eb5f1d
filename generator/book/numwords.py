"""Numbers as the family writes them: 'ten', 'Four', 'zero', 'twenty-five', and back again.

Prose that refers to a data value can ask for it in words (``{deal.each:word}`` prints 'ten',
``{deal.each:Word}`` 'Ten'), so one number prints the way the source wrote it. The same tables
read a number written in words back, for the checks that compare prose with data.
"""

from __future__ import annotations

import re

ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
SCALES = [(1_000_000, "million"), (1000, "thousand"), (100, "hundred")]

#: The styles a reference may ask for after a colon: ``{path:word}``.
STYLES = ("word", "Word", "WORD")
#: Styles that print a score as a scoring table does: ``{points:score}`` ('Free', 'Minus 10', '1,000',
#: '30 ½'), and ``{points:abs}`` (the size alone, for text whose verb carries the sign: 'deducts 25').
SCORE_STYLES = ("score", "abs")

_VALUES = {w: i for i, w in enumerate(ONES)} | {w: 10 * i for i, w in enumerate(TENS) if w}
_SCALE_VALUES = {name: size for size, name in SCALES}


def _trie(words: list[str]) -> str:
    """A regular expression matching any of ``words``, longest first, branching letter by letter: the
    checks try it at every word of the prose, and a flat alternation tries all 31 words at each."""
    if "" in words and len(words) == 1:
        return ""
    heads: dict[str, list[str]] = {}
    for word in words:
        if word:
            heads.setdefault(word[0], []).append(word[1:])
    branches = [re.escape(head) + _trie(rest) for head, rest in sorted(heads.items())]
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in words else body


_ANY_WORD = _trie(list(_VALUES) + list(_SCALE_VALUES))
WORD_PATTERN = re.compile(rf"\b{_ANY_WORD}(?:[- ](?:and[- ])?{_ANY_WORD})*\b", re.IGNORECASE)


def to_words(n: int) -> str:
    """'ten', 'twenty-five', 'one hundred twenty-five', 'minus ten' (whole numbers only)."""
    if n < 0:
        return "minus " + to_words(-n)
    if n < 20:
        return ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return TENS[tens] + (f"-{ONES[ones]}" if ones else "")
    for size, name in SCALES:
        if n >= size:
            high, rest = divmod(n, size)
            return f"{to_words(high)} {name}" + (f" {to_words(rest)}" if rest else "")
    raise AssertionError(n)  # pragma: no cover - every n >= 100 meets a scale


def styled(n: int, style: str) -> str:
    """``n`` in words, in the capitalisation a reference asked for (``word``, ``Word``, ``WORD``)."""
    if style not in STYLES:
        raise ValueError(f"unknown number style {style!r}: use one of {', '.join(STYLES)}")
    words = to_words(n)
    if style == "Word":
        return words[0].upper() + words[1:]
    return words.upper() if style == "WORD" else words


def score(n: int | float, style: str = "score") -> str:
    """A score the way the book's tables print it: 'Free', 'Minus 10', '1,000', '30 ½'; ``abs``: '10' for -10."""
    if style not in SCORE_STYLES:
        raise ValueError(f"unknown score style {style!r}: use one of {', '.join(SCORE_STYLES)}")
    if style == "score" and n == 0:
        return "Free"
    size = abs(n)
    whole, half = int(size), size - int(size)
    text = f"{whole:,}" + (" ½" if half else "") if half in (0, 0.5) else str(size)
    return "Minus " + text if style == "score" and n < 0 else text


def from_words(text: str) -> int | None:
    """The number a phrase such as 'Twenty-five' or 'one hundred and five' names, or None."""
    tokens = [t for t in re.split(r"[\s-]+", text.strip().lower()) if t and t != "and"]
    if not tokens:
        return None
    total = current = 0
    for token in tokens:
        if token in _VALUES:
            current += _VALUES[token]
        elif token in _SCALE_VALUES:
            size = _SCALE_VALUES[token]
            if size == 100:
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * size
                current = 0
        else:
            return None
    return total + current

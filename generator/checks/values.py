"""Printed values: a score's wording ('Minus 10', 'scores zero points', 'Face value') says what its data says.

A scoring item states its number in ``points`` (or ``cents``) and, when the source words it, in
``value``. The value's printed text (references filled in) is read back — digits, '1,000', '30 ½',
number words, 'Free', 'minus', 'deducts' — and compared with the data, so a number written twice
cannot drift apart unseen.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..book.cards import parse_rank, rank_name
from ..book.library import Library
from ..book.model import ScoreItem
from ..book.numwords import WORD_PATTERN, from_words
from ..book.prose import expand, format_value, lookup
from ..book.words import _
from . import Body, Found, bodies, check

# A number as the book prints one: '1,000', '30 ½', '30.5', '-5', or in words ('minus two').
_DIGITS = r"-?\d{1,3}(?:,\d{3})+(?: ½)?|-?\d+(?:\.\d+)?(?: ½)?"
NUMBER = re.compile(rf"(?<![\w.,])(?:(minus)\s+)?({_DIGITS}|{WORD_PATTERN.pattern}|free)(?=\W|$|cents?\b|points?\b)", re.IGNORECASE)
# Verbs that carry the sign themselves: 'deducts 25 points' is -25.
NEGATIVE_VERBS = re.compile(r"\b(deducts?|forfeits?|loses?|subtracts?)\s*$", re.IGNORECASE)
# Words that say 'nothing' without a number: 'Free', 'cancel each other'.
ZERO_WORDS = re.compile(r"^\s*(?:are\s+|is\s+)?(?:free|cancels?\b)", re.IGNORECASE)
UNIT = re.compile(r"\s*(points?|cents?)\b", re.IGNORECASE)
LEADING_VERBS = re.compile(r"^\s*(?:(?:scores?|counts?|is|are|worth|gets?|pays?|deducts?|forfeits?|loses?)\s+)*",
                           re.IGNORECASE)


def read_number(token: str) -> float | None:
    """The value of one number as printed: '1,000', '30 ½', 'twenty-five', 'Free'."""
    token = token.strip().lower()
    if token == "free":
        return 0
    digits = token.replace(",", "")
    half = 0.5 if digits.endswith("½") else 0
    digits = digits.rstrip("½ ").strip()
    if re.fullmatch(r"-?\d+(?:\.\d+)?", digits):
        value = float(digits)
        return value - half if value < 0 else value + half
    return from_words(token)


def stated_values(text: str) -> list[tuple[float, str]]:
    """The numbers a value's printed text states as the score, with the words that state each.

    Numbers followed by 'points' or 'cents' are the statement ('Hearts are 1 point each'); when
    there are none, the number the text opens with ('Minus 10', 'are worth zero', 'Free').
    """
    found = []
    for m in NUMBER.finditer(text):
        value = read_number(m.group(2))
        if value is None:
            continue
        if m.group(1) or NEGATIVE_VERBS.search(text[:m.start()]):
            value = -abs(value)
        found.append((m, value))
    with_unit = [(v, m.group(0)) for m, v in found if UNIT.match(text, m.end())]
    if with_unit:
        return with_unit
    opening = LEADING_VERBS.match(text)
    start = opening.end() if opening else 0
    for m, v in found:
        if m.start() == start:
            return [(v, m.group(0))]
    if ZERO_WORDS.match(text[start:]):
        return [(0, text[start:].split()[0])]
    return []


MULTIPLIER = re.compile(rf"\btimes\s+({_DIGITS}|{WORD_PATTERN.pattern})\b|\b(double|triple)\b", re.IGNORECASE)
RANK_EXAMPLE = re.compile(r"\b(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|\d+)s?\s*"
                          r"(?:=|is worth|are worth|counts?)\s*(\d+)", re.IGNORECASE)


def multiplier(text: str) -> float | None:
    """The multiplier a value's wording states ('x00 times 2', 'double'), or None."""
    m = MULTIPLIER.search(text)
    if m is None:
        return None
    return read_number(m.group(1)) if m.group(1) else {"double": 2, "triple": 3}[m.group(2).lower()]


def rank_examples(text: str) -> list[tuple[int, float]]:
    """(rank, value) pairs a face-value wording gives as examples: 'Ace=1', 'a six is worth 6 points'."""
    out = []
    for m in RANK_EXAMPLE.finditer(text):
        rank = parse_rank(m.group(1))
        if rank is not None:
            out.append((rank, float(m.group(2))))
    return out


def face_value(rank: int, ranks: dict[str, int | float]) -> int | float | None:
    """A rank's face value: its number (2-10), or what the item's ``ranks`` says, or None (a joker's)."""
    for name, value in ranks.items():
        if parse_rank(name) == rank:
            return value
    return rank if 2 <= rank <= 10 else None


def printed_value(b: Body, item: ScoreItem) -> str:
    """An item's value text as printed, references filled in."""
    data = b.gs.doc.data if b.gs is not None else {}
    scopes: list[dict[str, Any]] = [item.model_dump(exclude_none=True)]
    if b.variant is not None:
        scopes.append(lookup(data, f"variants.{b.index}"))
    return expand(item.value or "", *scopes, data)


def score_items(b: Body) -> Iterator[tuple[tuple, ScoreItem]]:
    """Every score item of a game or variant, with its data path."""
    for key, table in b.rules.scoring.items():
        for i, item in enumerate(table.items):
            yield ("scoring", key, "items", i), item
    for r, rnd in enumerate(b.rules.rounds.items if b.rules.rounds else []):
        for i, item in enumerate(rnd.scoring):
            yield ("rounds", "items", r, "scoring", i), item


@check("scoring.value_mismatch")
def value_mismatch(lib: Library) -> Iterator[Found]:
    """A score's printed wording ('Minus 10', 'scores zero points', 'Face value') states another value than its data."""
    for b in bodies(lib):
        for path, item in score_items(b):
            if item.value is None:
                continue
            text = printed_value(b, item)
            where = b.at(*path, "value")
            said = multiplier(text)
            if said is not None and said != (item.times or 1) or item.times is not None and said is None:
                yield (where, _("%(name)s%(label)s: printed '%(text)s' multiplies by %(value)s, but times is "
                                "%(value2)s", name=b.name, label=item.label, text=text, value=format_value(said or 1),
                                value2=item.times or 1), b.game)
            if item.points == "face":
                if "face value" not in text.lower():
                    yield where, _("%(name)s%(label)s: printed '%(text)s', but the data says face value", name=b.name,
                                   label=item.label, text=text), b.game
                for rank, value in rank_examples(text):
                    expected = face_value(rank, item.ranks)
                    if expected != value:
                        shown = "no value" if expected is None else format_value(expected)
                        yield (where, _("%(name)s%(label)s: printed '%(text)s' gives %(rank_name)s %(value)s, but "
                                        "its face value is %(shown)s", name=b.name, label=item.label, text=text,
                                        rank_name=rank_name(rank), value=format_value(value), shown=shown), b.game)
                continue
            if isinstance(item.points, (int, float)):
                data, unit = item.points, "points"
            elif item.cents is not None:
                data, unit = item.cents, "cents"
            else:
                continue
            if "face value" in text.lower():
                yield where, _("%(name)s%(label)s: printed '%(text)s', but the data says %(data)s %(unit)s",
                               name=b.name, label=item.label, text=text, data=format_value(data), unit=unit), b.game
                continue
            for value, words in stated_values(text):
                if unit == "cents":
                    value = abs(value)
                if value != data:
                    yield (where, _("%(name)s%(label)s: printed '%(text)s' ('%(words)s' is %(value)s), but %(unit)s "
                                    "is %(data)s", name=b.name, label=item.label, text=text, words=words,
                                    value=format_value(value), unit=unit, data=format_value(data)), b.game)

"""The equipment model the checks share: cards and card predicates, decks, dominoes, dice.

A card predicate is a short phrase as the book writes it: ``red``, ``even``, ``face``, ``hearts``,
``K-10``, ``9-2``, ``queen of spades``, ``Q♠``, ``black 3``, ``jokers``, ``2s, jokers``,
``9-2 except red 7``. Words side by side must all hold (``black 3``); commas or ``or`` join
alternatives; ``except`` removes cards. Names such as ``wild`` can be defined per game.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from .words import _

SUITS = ("clubs", "diamonds", "hearts", "spades")
RED = {"diamonds", "hearts"}
JOKER = 0
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}

Card = tuple[int, str | None]  # (rank 1..13, suit) or (0, None) for a joker
Predicate = Callable[[Card], bool]

_RANK_WORDS = {
    "a": 1, "ace": 1, "j": 11, "jack": 11, "q": 12, "queen": 12, "k": 13, "king": 13,
    "two": 2, "deuce": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10,
}
_SUIT_WORDS = {
    "club": "clubs", "clubs": "clubs", "♣": "clubs", "c": "clubs",
    "diamond": "diamonds", "diamonds": "diamonds", "♦": "diamonds", "d": "diamonds",
    "heart": "hearts", "hearts": "hearts", "♥": "hearts", "h": "hearts",
    "spade": "spades", "spades": "spades", "♠": "spades", "s": "spades",
}


class PredicateError(ValueError):
    """A card phrase that cannot be understood."""


def rank_name(rank: int) -> str:
    """The short name of a rank: A, 2-10, J, Q, K (Joker for 0)."""
    return "Joker" if rank == JOKER else RANK_NAMES.get(rank, str(rank))


def card_name(card: Card) -> str:
    """A readable name such as ``Q♠`` or ``Joker``."""
    rank, suit = card
    if rank == JOKER:
        return "Joker"
    symbol = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}[suit or "spades"]
    return f"{rank_name(rank)}{symbol}"


def _singular(word: str) -> str:
    word = word.replace("’", "'")
    if word.endswith("'s"):
        return word[:-2]
    if word in _SUIT_WORDS or word in _RANK_WORDS:
        return word
    for plural, single in (("sixes", "six"), ("ies", "y")):
        if word.endswith(plural):
            return word[: -len(plural)] + single
    if word.endswith("s") and (word[:-1] in _RANK_WORDS or word[:-1].isdigit() or word[:-1] in _ATOMS):
        return word[:-1]
    return word


def parse_suit(word: str) -> str | None:
    """The suit a word names (``hearts``, ``Spade``, ``♣``), or None; a one-letter word is no suit alone."""
    word = word.lower()
    return _SUIT_WORDS.get(word) if len(word) > 1 or not word.isascii() else None


def parse_rank(word: str) -> int | None:
    """The rank a word names (``K``, ``kings``, ``10's``, ``seven``), or None."""
    word = _singular(word.lower())
    if word.isdigit() and len(word) <= 2 and 2 <= int(word) <= 10:
        return int(word)
    return _RANK_WORDS.get(word)


def _rank_range(low: int, high: int) -> set[int]:
    """The ranks of a range written ``low``-``high`` (as written, either way round), an ace as 1."""
    # A range counts its ranks in order, and one that ends at the ace ends at the high ace: 7-A is 7 to the ace,
    # 8 ranks (Skat's 32 cards), 2-A every rank. One that starts at it: the high ace next to high cards,
    # the low one otherwise.
    if low == 1 and high >= 8:
        low = 14
    if high == 1 and low != 1:
        high = 14
    a, b = sorted((low, high))
    return {1 if r == 14 else r for r in range(a, b + 1)}


_ATOMS: dict[str, Predicate] = {
    "card": lambda c: True,
    "all": lambda c: True,
    "joker": lambda c: c[0] == JOKER,
    "red": lambda c: c[1] in RED,
    "black": lambda c: c[0] != JOKER and c[1] not in RED,
    "face": lambda c: c[0] in (11, 12, 13),
    "number": lambda c: 2 <= c[0] <= 10,
    "numeral": lambda c: 2 <= c[0] <= 10,
    "even": lambda c: c[0] != JOKER and c[0] % 2 == 0,
    "odd": lambda c: c[0] != JOKER and c[0] % 2 == 1,
}


def _atom(word: str, names: Mapping[str, Predicate]) -> Predicate:
    raw = word
    word = _singular(word.lower())
    if word in names:
        return names[word]
    if word in _ATOMS:
        return _ATOMS[word]
    if word in _SUIT_WORDS:
        suit = _SUIT_WORDS[word]
        return lambda c: c[1] == suit
    match = re.fullmatch(r"(\w+)-(\w+)", word)
    if match:
        low, high = parse_rank(match.group(1)), parse_rank(match.group(2))
        if low is None or high is None:
            raise PredicateError(_("'%(word)s' is not a range of ranks", word=raw))
        ranks = _rank_range(low, high)
        return lambda c: c[0] in ranks
    match = re.fullmatch(r"(\w+?)([♣♦♥♠])", raw)
    if match:
        rank, suit = parse_rank(match.group(1)), _SUIT_WORDS[match.group(2)]
        if rank is None:
            raise PredicateError(_("'%(word)s' is not a card", word=raw))
        return lambda c: c == (rank, suit)
    rank = parse_rank(word)
    if rank is None:
        raise PredicateError(_("'%(word)s' is not a rank, suit, colour or card group", word=raw))
    return lambda c: c[0] == rank


def _conjunction(phrase: str, names: Mapping[str, Predicate]) -> Predicate:
    words = [w for w in re.split(r"\s+", phrase.strip()) if w and w.lower() not in ("of", "the", "each", "in")]
    if not words:
        raise PredicateError(_("empty card phrase"))
    parts = [_atom(w, names) for w in words]
    return lambda c: all(p(c) for p in parts)


def parse_cards(phrase: str, names: Mapping[str, str] | None = None) -> Predicate:
    """Compile a card phrase into a predicate; raise PredicateError if it is not understood."""
    return _parse_cached(phrase, tuple(sorted((names or {}).items())))


# Every card a deck can hold: a compiled phrase answers for these from a table.
_ALL_CARDS: tuple[Card, ...] = (*((rank, suit) for suit in SUITS for rank in range(1, 14)), (JOKER, None))


@lru_cache(maxsize=4096)
def _parse_cached(phrase: str, names: tuple[tuple[str, str], ...]) -> Predicate:
    # Phrases repeat across games and checks; compiling each once keeps validation fast. The checks
    # ask the same predicate about the same 53 cards thousands of times, so the answers are tabled
    # once (a phrase is a chain of small functions); anything else still asks the phrase.
    predicate = _parse(phrase, dict(names))
    table = {card: predicate(card) for card in _ALL_CARDS}

    def tabled(card: Card) -> bool:
        answer = table.get(card)
        return predicate(card) if answer is None else answer

    return tabled


def _parse(phrase: str, names: Mapping[str, str] | None = None) -> Predicate:
    compiled: dict[str, Predicate] = {}
    for name, definition in (names or {}).items():
        compiled[name] = parse_cards(definition)
    text = phrase.strip()
    base, _sep, exception = text.partition(" except ")
    alternatives = [a for a in re.split(r",|\bor\b|\band\b|/", base) if a.strip()]
    if not alternatives:
        raise PredicateError(_("empty card phrase '%(phrase)s'", phrase=phrase))
    include = [_conjunction(a, compiled) for a in alternatives]
    exclude = parse_cards(exception, names) if exception else (lambda c: False)
    return lambda c: any(p(c) for p in include) and not exclude(c)


@dataclass(frozen=True)
class CardSet:
    """The cards in play: a multiset of cards."""

    counts: Counter

    @classmethod
    def standard(cls, decks: int = 1, jokers: int = 0) -> CardSet:
        """``decks`` standard 52-card decks with ``jokers`` jokers per deck."""
        counts: Counter = Counter()
        for suit in SUITS:
            for rank in range(1, 14):
                counts[(rank, suit)] = decks
        if jokers:
            counts[(JOKER, None)] = decks * jokers
        return cls(counts)

    def __len__(self) -> int:
        return sum(self.counts.values())

    def count(self, predicate: Predicate) -> int:
        """How many cards match."""
        return sum(n for card, n in self.counts.items() if predicate(card))

    def keep(self, predicate: Predicate) -> CardSet:
        """Only the matching cards."""
        return CardSet(Counter({c: n for c, n in self.counts.items() if predicate(c)}))

    def remove(self, predicate: Predicate, copies: int | None = None) -> CardSet:
        """Without the matching cards (all copies, or ``copies`` of each matching card)."""
        out = Counter(self.counts)
        for card in list(out):
            if predicate(card):
                out[card] = 0 if copies is None else max(0, out[card] - copies)
        return CardSet(+out)

    def cards(self) -> Iterable[Card]:
        """Each distinct card."""
        return sorted(self.counts, key=lambda c: (c[0], c[1] or ""))


def domino_tiles(top: int) -> int:
    """Tiles in a double-``top`` set (double-6: 28, double-9: 55, double-12: 91)."""
    return (top + 1) * (top + 2) // 2


def domino_pips(top: int) -> int:
    """Total pips in a double-``top`` set."""
    return top * (top + 1) * (top + 2) // 2

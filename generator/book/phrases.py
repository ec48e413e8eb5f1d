"""Small phrase languages used in the data, parsed into numbers the checks can use.

Each is written the way the book writes it, so a family member can read and edit the YAML:
player counts (``2-4``, ``2 or 4 or 6``, ``any``, ``multiples of 4``, ``any even number``,
``2 or more``), number ranges (``3-4``, ``13 to 39``) and meld requirements
(``1 run of 4 and 1 set of 3``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .words import _

# How far an open-ended player count ("any", "2 or more") is checked against the equipment. A stated count
# is held to it too: a count the checks cannot go through is no count a table plays with, and a loop over
# '4-99999999' players never ended.
PLAYER_HORIZON = 60
MIN_PLAYERS, MAX_PLAYERS = 1, PLAYER_HORIZON

MAX_DIGITS = 9  # in a number a phrase states: more is a slip, and 'players: 9999...' must not cost anything

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


def _num(word: str) -> int:
    word = word.strip().lower()
    if word.isdigit() and len(word) <= MAX_DIGITS:
        return int(word)
    if word.isdigit():
        raise ValueError(_("'%(number)s...' has %(digits)s digits: no count in a game has that many",
                           number=word[:MAX_DIGITS], digits=len(word)))
    if word in _WORDS:
        return _WORDS[word]
    raise ValueError(_("'%(word)s' is not a number", word=word))


@dataclass(frozen=True)
class PlayerSpec:
    """Which numbers of players a game allows."""

    low: int
    high: int | None  # None: no upper limit stated
    allowed: frozenset[int] | None = None
    step: int = 1  # multiples of
    # False where the phrase names no least number ('any', 'any even number', 'multiples of 4'): ``low`` is then the
    # checks' starting point, not a count the source states, and nothing prints or filters by it
    least_stated: bool = True

    def allows(self, n: int) -> bool:
        """True if ``n`` players may play."""
        if self.allowed is not None:
            return n in self.allowed
        if n < self.low or (self.high is not None and n > self.high):
            return False
        return n % self.step == 0

    def counts(self, horizon: int = PLAYER_HORIZON) -> list[int]:
        """Every allowed count, open-ended specs cut at ``horizon``."""
        top = self.high if self.high is not None else horizon
        if self.allowed is not None:
            return sorted(self.allowed)
        return [n for n in range(self.low, top + 1) if self.allows(n)]

    def same_as(self, other: PlayerSpec) -> bool:
        """True if both allow the same player counts ('2-4' is '2, 3 or 4'; '2 or more' is 'any')."""
        return self.bounded == other.bounded and self.counts() == other.counts()

    @property
    def bounded(self) -> bool:
        """False when the spec states no upper limit."""
        return self.allowed is not None or self.high is not None

    def describe(self) -> str:
        """A canonical phrase: ``2-4``, ``2, 4 or 6``, ``any``, ``2 or more``, ``multiples of 4``."""
        if self.allowed is not None:
            nums = [str(n) for n in sorted(self.allowed)]
            return nums[0] if len(nums) == 1 else ", ".join(nums[:-1]) + " or " + nums[-1]
        if self.step > 1:
            return "any even number" if self.step == 2 else f"multiples of {self.step}"
        if self.high is None:
            return "any" if self.low <= 2 else f"{self.low} or more"
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


def _players_within(spec: PlayerSpec, text: str | int) -> PlayerSpec:
    """``spec``, if every count it names is one a table could play with; ValueError saying what is allowed if not."""
    numbers = [spec.low, spec.step] + ([spec.high] if spec.high is not None else []) + sorted(spec.allowed or ())
    if any(not MIN_PLAYERS <= n <= MAX_PLAYERS for n in numbers):
        raise ValueError(_("must be %(low)s to %(high)s players (try '2-4', '2 or 4', 'any' or a number from %(low)s "
                           "to %(high)s)", low=MIN_PLAYERS, high=MAX_PLAYERS))
    return spec


@lru_cache(maxsize=1024, typed=True)  # the checks ask thousands of times; typed: True == 1, but is refused
def parse_players(text: str | int) -> PlayerSpec:
    """Parse a player-count phrase; raise ValueError if it is not one, or names a count no table could play with."""
    return _players_within(_parse_players(text), text)


def _parse_players(text: str | int) -> PlayerSpec:
    if isinstance(text, int) and not isinstance(text, bool):
        return PlayerSpec(text, text, frozenset({text}))
    if not isinstance(text, str):
        raise ValueError(_("a player count is a number or a phrase such as '2-4' or 'any'"))
    t = re.sub(r"\s+", " ", text.strip().lower().replace("–", "-").replace("—", "-"))
    t = re.sub(r"\b(people|players|player|persons|number( of)?)\b", "", t).strip()
    if t in ("any", "any number", ""):
        return PlayerSpec(2, None, least_stated=False)
    if t in ("any even", "even", "any even number"):
        return PlayerSpec(2, None, step=2, least_stated=False)
    m = re.fullmatch(r"multiples? of (\w+)", t)
    if m:
        step = _num(m.group(1))
        return PlayerSpec(step, None, step=step, least_stated=False)
    m = re.fullmatch(r"(\w+) ?(\+|or more)", t)
    if m:
        return PlayerSpec(_num(m.group(1)), None)
    m = re.fullmatch(r"(\w+) ?(-|to) ?(\w+)", t)
    if m:
        low, high = _num(m.group(1)), _num(m.group(3))
        if low > high:
            raise ValueError(_("player range '%(range)s' runs backwards", range=text))
        return PlayerSpec(low, high)
    parts = [p for p in re.split(r",|\bor\b|\band\b", t) if p.strip()]
    try:
        nums = frozenset(_num(p) for p in parts)
    except ValueError:
        raise ValueError(_("'%(text)s' is not a player count (try '2-4', '2 or 4', 'any')", text=text)) from None
    return PlayerSpec(min(nums), max(nums), nums)


@dataclass(frozen=True)
class NumRange:
    """An inclusive range of numbers, such as ``3-4`` decks or ``13 to 39`` points."""

    low: float
    high: float

    def __str__(self) -> str:
        def fmt(x: float) -> str:
            return str(int(x)) if float(x).is_integer() else str(x)
        return fmt(self.low) if self.low == self.high else f"{fmt(self.low)}-{fmt(self.high)}"


def parse_range(value: int | float | str) -> NumRange:
    """Parse ``4``, ``3-4`` or ``13 to 39``; raise ValueError otherwise."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return NumRange(value, value)
    if len(str(value)) > 2 * MAX_DIGITS + 10:
        raise ValueError(_("'%(value)s' is not a number or a range such as '3-4'", value=f"{str(value)[:20]}..."))
    m = re.fullmatch(r"\s*(-?\d+)\s*(?:-|–|to)\s*(-?\d+)\s*", str(value))
    if m:
        low, high = int(m.group(1)), int(m.group(2))
        if low > high:
            raise ValueError(_("range '%(range)s' runs backwards", range=value))
        return NumRange(low, high)
    m = re.fullmatch(r"\s*(-?\d+)\s*", str(value))
    if m:
        return NumRange(int(m.group(1)), int(m.group(1)))
    raise ValueError(_("'%(value)s' is not a number or a range such as '3-4'", value=value))


@dataclass(frozen=True)
class MeldPart:
    """``count`` groups (sets or runs) of ``size`` cards."""

    count: int
    kind: str  # "set" or "run"
    size: int
    same_suit: bool = False


def parse_meld(text: str) -> list[MeldPart]:
    """Parse ``2 sets of 3``, ``1 run of 4 and 1 set of 3``, ``2 runs of 4 in same suit``."""
    parts = []
    for chunk in re.split(r",| and ", text.strip()):
        chunk = chunk.strip().lower()
        if not chunk:
            continue
        m = re.fullmatch(r"(\w+) (set|run)s? of (\w+)( in (the )?same suit)?", chunk)
        if not m:
            raise ValueError(_("'%(text)s' is not a meld such as '2 sets of 3' or '1 run of 4'", text=chunk))
        parts.append(MeldPart(_num(m.group(1)), m.group(2), _num(m.group(3)), bool(m.group(4))))
    if not parts:
        raise ValueError(_("empty meld requirement"))
    return parts


def meld_cards(text: str) -> int:
    """How many cards a meld requirement needs at the least."""
    return sum(p.count * p.size for p in parse_meld(text))

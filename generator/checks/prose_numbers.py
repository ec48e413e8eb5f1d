"""Numbers in prose that the data also holds: cards dealt, decks, players, targets, rounds, lives, bonuses and
their thresholds.

A sentence such as "Deal 7 cards to each player" or "Played to five hundred points" states a
number the game's data models too. Written as a reference (``{deal.each}``) it cannot disagree;
written out (digits or words) it is read back here and compared with the data field it names.
Only phrases that tie a number to a modelled noun are read, so incidental numbers ("the 2 of
clubs", "one card face up") are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..book.cards import parse_rank
from ..book.equipment import tables
from ..book.library import Library
from ..book.model import GameBody
from ..book.numwords import WORD_PATTERN, from_words
from ..book.phrases import MAX_DIGITS, parse_players, parse_range
from ..book.prose import REF
from ..book.words import _
from ..errors import Location
from . import Body, Found, bodies, check

N = rf"(\d[\d,]*|{WORD_PATTERN.pattern})"
# (kind, words, pattern): the first group is the number the phrase states. Wherever the pattern
# matches, the lower-cased line holds one word of each group of words, so a line that does not is
# not searched: trying the number patterns at every position of every line was most of the check.
PHRASES: list[tuple[str, tuple[tuple[str, ...], ...], re.Pattern[str]]] = [
    ("cards each", (("deal",), ("card",)), re.compile(rf"\bdeal(?:s|t)?\s+(?:out\s+)?{N}\s+cards?\b"
                                                      r"(?!\s+(?:at a time|face|up|to the|into|in the))", re.I)),
    ("cards each", (("card",), ("each",)), re.compile(rf"\b{N}\s+cards?\s+(?:to\s+)?each(?:\s+player)?\b", re.I)),
    ("cards each", (("each",), ("player", "person"), ("card",)),
     re.compile(rf"\beach\s+(?:player|person)\s+(?:gets|receives|is\s+(?:dealt|given)|starts\s+with|holds)\s+{N}\s+"
                r"cards?\b", re.I)),
    # '5 cards are dealt to each player', '7 cards dealt to each', 'each player is dealt a hand of 10 cards'
    ("cards each", (("card",), ("each",), ("dealt",)),
     re.compile(rf"\b{N}\s+cards?\s+(?:are\s+|is\s+)?dealt\s+(?:out\s+)?(?:to\s+)?each\b", re.I)),
    # 'the dealer gives each player 7 cards', 'everyone gets 7 cards' (a frame of the fuzz's, tests/test_fuzz.py)
    ("cards each", (("give",), ("each",), ("card",)),
     re.compile(rf"\bgives?\s+each\s+(?:player|person)\s+{N}\s+cards?\b(?!\s+(?:at a time|face))", re.I)),
    ("cards each", (("everyone", "everybody"), ("card",)),
     re.compile(rf"\b(?:everyone|everybody)\s+(?:gets|receives|is\s+(?:dealt|given)|starts\s+with)\s+{N}\s+cards?\b", re.I)),
    ("cards each", (("deal",), ("each",), ("card",)),
     re.compile(rf"\bdeal(?:s|t)?\s+each\s+(?:player|person)\s+{N}\s+cards?\b", re.I)),
    ("cards each", (("hand",), ("card",)), re.compile(rf"\bhands?\s+of\s+{N}\s+cards?\b", re.I)),
    ("cards each", (("hand",), ("card",)), re.compile(rf"\b{N}[- ]card\s+hands?\b", re.I)),
    # What the game is played with, not decks merely mentioned ('two decks at hand', 'may be shuffled').
    ("decks", (("deck", "pack"),),
     re.compile(rf"(?:^\s*+(?:[-*]|\d+\.)?\s*+|[.:;(]\s*+|\b(?:use|uses|using|with|needs?|requires?|shuffled?|shuffles)\s++)"
                rf"{N}\s+(?:decks?|packs?)\b", re.I)),
    ("players", (("for", "with"), ("players", "people")),
     re.compile(rf"\b(?:for|with)\s+{N}\s+(?:players|people)\b(?!\s+to\b)", re.I)),
    ("players", (("player",), ("game",)), re.compile(rf"\b{N}[- ]player\s+game\b", re.I)),
    ("players", (("players", "people"), ("can", "may")),
     re.compile(rf"\b{N}\s+(?:or\s+more\s+)?(?:players|people)\s+(?:can|may)\s+play\b", re.I)),
    ("deck size", (("card",), ("deck", "pack")), re.compile(rf"\b{N}[- ]card\s+(?:deck|pack)\b", re.I)),
    ("target", (("to",), ("play", "first", "race")),
     re.compile(rf"\b(?:play(?:ed|s)?|first(?:\s+player)?|race)\s+to\s+{N}(?:\s+points)?\b", re.I)),
    ("target", (("reach",), ("points",)), re.compile(rf"\breach(?:es)?\s+{N}\s+points\b", re.I)),
    # 'peg 120 points', 'the first to peg 121', 'the game is 500 points', 'first player to score 100 points wins'
    ("target", (("peg",),), re.compile(rf"\bpeg(?:s|ged|ging)?\s+(?:out\s+)?(?:at\s+)?{N}\b", re.I)),
    ("target", (("first",), ("score",)),
     re.compile(rf"\bfirst\s+(?:player\s+|team\s+|side\s+|one\s+)?to\s+score\s+{N}\b", re.I)),
    ("target", (("points",), ("win",)), re.compile(rf"\b{N}\s+points\s+wins?\b", re.I)),
    ("rounds", (("rounds",),), re.compile(rf"\b{N}\s+rounds\b", re.I)),
    ("rounds", (("hands", "deals"), ("play", "game")),
     re.compile(rf"\b(?:game\s+of|over|play(?:ed|s)?)\s+{N}\s+(?:hands|deals)\b", re.I)),
    ("rounds", (("hands", "deals"), ("played",)), re.compile(rf"\b{N}\s+(?:hands|deals)\s+are\s+played\b", re.I)),
    # What each player starts with in a game of lives (stakes): '3 lives', 'each player starts with three quarters'
    ("lives", (("lives",),), re.compile(rf"\b{N}\s+lives\b", re.I)),
    ("lives", (("each", "every"), ("with",)),
     re.compile(rf"\b(?:starts?|begins?)\s+(?:the\s+game\s+)?with\s+{N}\s+(?:coins|chips|cents|nickels|dimes|quarters|"
                r"pennies|lives)\b", re.I)),
    # A bonus and the total that earns it: 'a bonus of 35 points', 'a 35-point bonus', '35 bonus points'; 'if the
    # upper total reaches 63', '63 or more ... bonus', 'the bonus comes at 63'.
    ("bonus", (("bonus",),), re.compile(rf"\bbonus\s+(?:is\s+|of\s+)(?:an?\s+(?:extra\s+)?)?{N}\b(?!\s+or\s+more)", re.I)),
    ("bonus", (("bonus",),), re.compile(rf"\b{N}[- ](?:extra\s+)?(?:points?[- ])?bonus\b", re.I)),
    ("bonus", (("bonus",),), re.compile(rf"\b{N}\s+(?:extra\s+)?bonus\s+points\b", re.I)),
    ("threshold", (("bonus",),),
     re.compile(rf"\bbonus\b[^.;]{{0,80}}?\b(?:reach(?:es|ed)?|reaching|totals?|totalling|comes\s+at|at\s+least|of\s+at"
                rf"\s+least|exceeds?|is\s+at\s+least)\s+{N}\b", re.I)),
    ("threshold", (("bonus",), ("at least",)), re.compile(rf"\bat\s+least\s+{N}\b[^.;]{{0,80}}?\bbonus\b", re.I)),
    ("threshold", (("bonus",), ("or more",)), re.compile(rf"\b{N}\s+or\s+more\b[^.;]{{0,80}}?\bbonus\b", re.I)),
]


NOUNS = re.compile(r"card|deck|pack|player|people|point|round|\bto\s|peg|score|hand|deal|lives|with|bonus", re.I)


def _number(text: str) -> int | None:
    digits = text.replace(",", "")
    if digits.isdigit():  # a number of many digits is no count the data keeps (and Python reads 4,300 at most)
        return int(digits) if len(digits) <= MAX_DIGITS else None
    return from_words(text)


def _span(value: int | str | None) -> set[int]:
    """Whole numbers a data value allows: 12 -> {12}; '3-4' -> {3, 4}; anything else -> {}."""
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, int):
        return {value}
    try:
        r = parse_range(value)
    except ValueError:
        return set()
    return set(range(int(r.low), int(r.high) + 1))


def modelled(body: GameBody) -> dict[str, tuple[set[int], str]]:
    """For each kind of phrase, the numbers the data allows and the field(s) it was read from."""
    out: dict[str, tuple[set[int], str]] = {}
    deal = body.deal
    if deal is None or deal.each != "all":  # 'deal them all out': the hand size depends on the table
        sizes: set[int] = set()
        for d in [deal, *deal.by_players] if deal else []:
            sizes |= _span(d.each) | _span(d.hand) | _span(d.dealer_gets) | _span((d.typically or {}).get("each"))
        rounds = body.rounds
        for r in rounds.items if rounds else []:
            sizes |= _span(r.each)
        for s in rounds.sequences if rounds else []:
            sizes |= set(range(s.low, s.start + 1))
        if rounds and rounds.ranks:  # one round per rank: the rank is the number of cards
            ends = [parse_rank(r) for r in rounds.ranks.split("-")]
            ends = [14 if e == 1 and i else e for i, e in enumerate(ends) if e is not None]
            sizes |= set(range(min(ends), max(ends) + 1)) if ends else set()
        if sizes:
            out["cards each"] = (sizes, "deal.each")
    eq = body.equipment
    if eq is not None and eq.cards:
        decks: set[int] = set()
        for cfg in eq.cards:
            decks |= _span(cfg.decks)
        if decks and all(isinstance(c.decks, int) or _span(c.decks) for c in eq.cards):
            out["decks"] = (decks, "equipment.cards.decks")
        sizes = {c.stated_cards for c in eq.cards if c.stated_cards is not None}
        if body.players is not None:  # the decks as built, for the player counts the game claims
            sizes |= {len(t.cards) for n in parse_players(body.players).counts()[:12] for t in tables(body, n)}
        if sizes:
            out["deck size"] = (sizes, _("the deck (equipment.cards)"))
    if body.players is not None:
        spec = parse_players(body.players)
        out["players"] = (set(spec.counts()), "players")
    goal = body.goal
    if goal is not None and goal.target is not None:
        out["target"] = ({v for v in (goal.target, goal.then_back_to, goal.lose_at) if v is not None}, "goal.target")
    counts = {v for v in (goal.rounds if goal else None, body.rounds.stated_count if body.rounds else None) if v}
    if counts:
        out["rounds"] = (counts, "goal.rounds")
    stakes = body.equipment.stakes if body.equipment else None
    if stakes is not None and stakes.start is not None:
        out["lives"] = ({stakes.start}, "equipment.stakes.start")
    items = [i for t in body.scoring.values() for i in t.items] + \
        [i for r in (body.rounds.items if body.rounds else []) for i in r.scoring]
    bonuses = [i for i in items if i.threshold is not None or "bonus" in i.label.lower()]
    if amounts := {abs(i.points) for i in bonuses if isinstance(i.points, int) and not isinstance(i.points, bool)}:
        out["bonus"] = (amounts, _("the bonus's points (scoring)"))
    if thresholds := {i.threshold for i in bonuses if i.threshold is not None}:
        out["threshold"] = (thresholds, _("the bonus's threshold (scoring)"))
    return out


def _prose(b: Body):
    if b.variant is None:
        return b.gs.prose
    return b.gs.variant_prose.get(b.variant.id)


def number_findings(path: str, text: str, body: GameBody, name: str) -> Iterator[tuple[Location, str]]:
    """Every phrase of ``text`` whose number is not what the data holds for it."""
    known = modelled(body)
    for lineno, line in enumerate(text.splitlines(), 1):
        lower = line.lower()
        if not NOUNS.search(lower):
            continue  # most lines name none of the nouns: skip the number patterns
        plain = REF.sub("{}", line)  # a reference prints the data itself: nothing to compare
        seen: set[int] = set()  # 'Deal 7 cards to each player' is one claim, whichever phrase reads it
        for kind, words, pattern in PHRASES:
            if kind not in known or not all(any(w in lower for w in group) for group in words):
                continue
            allowed, field = known[kind]
            for m in pattern.finditer(plain):
                value = _number(m.group(1))
                if value is None or value in allowed or m.start(1) in seen:
                    continue
                seen.add(m.start(1))
                shown = ", ".join(map(str, sorted(allowed)[:6])) + (" ..." if len(allowed) > 6 else "")
                yield (Location(path, lineno, m.start(1) + 1),
                       _("%(name)s'%(words)s' says %(value)s, but %(field)s is %(shown)s", name=name,
                         words=m.group(0).strip(), value=value, field=field, shown=shown))


@check("prose.number_mismatch")
def number_mismatch(lib: Library) -> Iterator[Found]:
    """A number the prose states (cards dealt, decks, players, target, rounds) is not what the data holds."""
    for b in bodies(lib):
        prose = _prose(b)
        if prose is None:
            continue
        for where, message in number_findings(prose.path, prose.text, b.rules, b.name):
            yield where, message, b.game

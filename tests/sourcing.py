"""What the book generates, statement by statement, and how a statement is checked against its source sentence.

``statements`` lists every sentence the generator adds around the family's words, for every game of an edition:
each quick-reference box row, each variant's "How it differs" row, each citation (the Sources list and a variant's
"From …" line) and each field the game finder filters by. tests/sourced_statements.py names the source sentence of
each; tests/test_sourced_statements.py checks the sentence is in the game's sources and that the statement follows
from it (``unsupported``): the statement's numbers are the sentence's, and each of its words is the sentence's own
or a word the sentence says in other words (``SAME``: deck for pack, no jokers for 'not including jokers').
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.book import index as book_index
from generator.book.library import Library
from generator.render.site.docs import finder_record
from generator.render.views.describe import NO_SCORE
from generator.render.views.pages import game_page
from generator.render.views.sheets import keepers

# Kinds of statement. A box row's kind is its label; a new label the generator prints is a new kind, and the
# test fails until the table names its sentences (test_every_kind_of_statement_is_in_the_table).
BOX = ("Players", "Equipment", "Deal", "Wild cards", "Card values", "Counters", "To win")
FINDER = ("players", "filter", "category", "partnerships", "equipment")


@dataclass(frozen=True)
class Statement:
    """One generated statement: the game (and variant) it is about, where it is printed, and its words."""

    game: str
    variant: str | None
    kind: str  # 'box:Players', 'differs:Deal', 'inherits:Deal', 'cite', 'origin', 'finder:equipment', 'sheet', ...
    text: str


def statements(lib: Library) -> list[Statement]:
    """Every statement the generator makes for an edition's games, as the site and the PDF print them."""
    out: list[Statement] = []
    for gs in lib.ordered_games():
        page = game_page(lib, gs)
        out += [Statement(gs.id, None, f"box:{label}", text) for label, text in page.main.glance]
        for variant, view in page.variants:
            out += [Statement(gs.id, variant.id, f"differs:{label}", text) for label, text in view.glance]
            # What its reader is left with: each row of the game's box the variant's box does not replace stands for
            # the variant too, and must be true of it by the variant's own sources.
            shown = {label for label, _ in view.glance}
            out += [Statement(gs.id, variant.id, f"inherits:{label}", text) for label, text in page.main.glance
                    if label not in shown]
            out.append(Statement(gs.id, variant.id, "origin", page.origins(variant)))
        if not page.main.body.keeps_score():  # the page's line where its sheet would be (describe.NO_SCORE)
            out.append(Statement(gs.id, None, "sheet", NO_SCORE))
        else:  # the players its score keeper offers (issue 52: 'Any' has no cap, 'at least 6' no ceiling)
            out += [Statement(gs.id, None, "keeper:players", k.players())
                    for k in keepers(page.main, page.heading(), gs.id, book_index.stated_players(lib, gs.game))]
        # What the rounds table numbers, where it is not the round (describe: the table's first column)
        if page.main.body.rounds and page.main.body.rounds.items and (numbered := page.main.round_heading()):
            out.append(Statement(gs.id, None, "rounds:heading", numbered))
        out += [Statement(gs.id, None, "cite", line) for line in page.sources()]
        record = finder_record(page, book_index.stated_players(lib, gs.game))  # as the site's finder is written
        if record["players"]["text"]:
            out.append(Statement(gs.id, None, "finder:players", record["players"]["text"]))
        if filter_words(record["players"]):
            out.append(Statement(gs.id, None, "finder:filter", filter_words(record["players"])))
        out.append(Statement(gs.id, None, "finder:category", record["category"]))
        if record["partnerships"]:
            out.append(Statement(gs.id, None, "finder:partnerships", record["partnerships"]))
        out += [Statement(gs.id, None, "finder:equipment", kind) for kind in record["equipment"]]
    return out


def filter_words(players: dict) -> str | None:
    """The player counts the finder filters a game by (its record's min, max, step and set), in words: each number
    it filters by is a statement too ('Any' filters by none: the 2 the checks start from is not the book's)."""
    if players["set"]:
        nums = [str(n) for n in players["set"]]
        return (nums[0] if len(nums) == 1 else ", ".join(nums[:-1]) + " or " + nums[-1]) + " players"
    low, high, step = players["min"], players["max"], players["step"]
    parts = ["any even number of players" if step == 2 else f"multiples of {step} players"] if step > 1 else []
    if low is not None:
        parts.append(f"{low} or more players" if high is None else f"{low} players" if low == high else f"{low}-{high} players")
    elif high is not None:
        parts.append(f"up to {high} players")
    return "; ".join(parts) or None


# --- does a statement follow from its sentences? ---------------------------------------------------------------

NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
            "ninth": 9, "tenth": 10}
RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}

# Words the generator joins a statement with, which claim nothing by themselves.
GLUE = {"the", "a", "an", "of", "to", "and", "or", "in", "at", "on", "for", "by", "is", "are", "each", "but", "than",
        "only", "used", "first", "if", "needed", "when", "number"}

# The generator's words and the words a source says the same thing with: a statement word is supported when its
# sentence has the word itself or one of these (compared by stem). Each is an equivalence of meaning, not a case.
SAME = {
    "player": ["people", "person", "persons", "player", "play", "handed", "opponent", "oponent"],  # the book's spelling
    "deck": ["deck", "pack"],
    "joker": ["joker"],
    "card": ["card"],
    "no": ["no", "not", "without", "remove", "none"],
    "with": ["with", "including", "included", "includes", "in"],
    "win": ["win", "wins", "winner", "winning", "won"],
    "high": ["high", "highest", "higher"],
    "low": ["low", "lowest", "least"],
    "score": ["score", "scores", "points", "point"],
    "point": ["point", "points", "score", "scores", "scoring", "worth", "count", "counts", "value"],
    "target": ["to", "reach", "reaches", "reached", "collect", "goes", "amount", "ends", "won"],
    "play": ["play", "played", "to", "goes", "reach", "reached", "game"],
    "round": ["round", "rounds", "hand", "hands", "deal", "deals", "game", "games"],
    "deal": ["deal", "dealt", "dealing", "dealer", "distributed", "receive", "gets", "get", "has"],
    "dealt": ["deal", "dealt", "dealing", "distributed", "receive"],
    "turned": ["turned", "turn", "turns", "flip", "flipped", "face"],
    "up": ["up", "face"],
    "face": ["face", "turned", "turn"],
    "value": ["value"],
    "remove": ["remove", "removed"],
    "every": ["both", "all", "every"],
    "copy": ["one", "copy"],
    "die": ["dice", "die"],
    "domino": ["domino", "dominoes", "tile", "tiles"],
    "tile": ["tile", "tiles", "domino", "dominoes"],
    "board": ["board"],
    "game": ["game"],
    "partnership": ["partner", "partners", "partnership", "team", "teams"],
    "partner": ["partner", "partners", "partnership"],
    "team": ["team", "teams", "against"],
    "two": ["two", "against", "both"],
    "except": ["except", "no"],
    "multiple": ["multiples", "multiple", "per"],
    "number": ["number", "any", "amount"],
    "any": ["any"],
    "more": ["more", "least", "merrier", "+"],
    "even": ["even"],
    "evenly": ["evenly", "equal", "remainder", "distributed"],
    "all": ["all"],
    "out": ["out", "lose", "loses", "deal", "dealt", "distributed"],
    "rest": ["rest", "remainder", "remaining"],
    "middle": ["middle", "center", "centre"],
    "kitty": ["kitty"],
    "widow": ["widow"],
    "extra": ["extra", "well", "also", "additional"],  # 'as well as'
    "per": ["per", "each"],
    "dealer": ["dealer", "deal", "deals"],
    "take": ["take", "get", "gets", "receive", "yourself"],  # the dealer deals 'to yourself'
    "get": ["get", "gets", "receive", "receives"],
    "set": ["set", "sets", "indicate", "indicates", "determine", "determines"],  # a card sets how many cards
    "hand": ["hand", "hands"],
    "foot": ["foot"],
    "blind": ["blind"],
    "wild": ["wild", "wilds"],
    "finish": ["complete", "finish", "first", "out"],
    "last": ["last"],
    "remaining": ["remaining", "left", "last"],
    "change": ["continue", "increase", "decrease", "less", "then", "deal", "next"],
    "then": ["then"],
    "back": ["back"],
    "down": ["down"],
    "least": ["least"],
    "typically": ["typically"],
    "ante": ["ante"],
    "differ": ["not", "may"],
    "may": ["may", "not"],
    "table": ["table"],
    "couple": ["couple"],
    "bet": ["bet", "bets"],
    "several": ["decks", "packs"],
    # a deck count stated against the players: 'one more deck ... than there are people', 'enough decks ... for each'
    "depend": ["enough", "than"],
    "equipment": ["dice", "domino", "dominoes", "tile", "board", "sticks", "equipment"],
    "tournament": ["tournament"],
}


def stem(word: str) -> str:
    """A word's stem for comparing: lower case, a plural's or a possessive's ending dropped ('tiles' tile,
    'dominoes' domino, 'aces' ace, 'boxes' box)."""
    w = word.lower().strip("'’")
    if w.endswith(("'s", "’s")):
        w = w[:-2]
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("ses", "xes", "zes", "ches", "shes", "oes")):
        return w[:-2]
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


TOKEN = re.compile(r"-?\d+(?:,\d{3})*|[A-Za-z]+(?:'[a-z]+)?")
# The finder's values as words: what each claims about the game.
FINDER_WORDS = {"one-deck": "1 deck", "several-decks": "several decks", "one-deck-per-table": "1 deck per table",
                "one-deck-per-couple": "1 deck per couple", "one-deck-per-player": "1 deck per player",
                "depends-on-players": "decks depend on players", "jokers": "with jokers", "optional":
                "partners", "partners": "partners", "teams": "two teams", "cards": "cards",
                "equipment": "equipment", "tournament": "tournament"}


def _tokens(text: str) -> list[str]:
    """A text's numbers and words: a dash between two terms is a range ('2-4', 'K-10'), not a minus sign, and a
    rank's plural is the rank ('2s', "10's")."""
    text = re.sub(r"(?<=[\w)])[-–](?=\w)|\s[-–]\s", " – ", text)  # '2-4', '3 – 7'; not 'out at -150
    text = re.sub(r"(?<=\d)'?s\b", "", text)
    return TOKEN.findall(text)


def numbers(text: str, source: bool = False) -> set[int]:
    """The numbers a text states, in digits or words; a source's ordinals ('8th', 'second') too."""
    found = set()
    for token in _tokens(text):
        word = token.lower().replace("'s", "")
        word = re.sub(r"(?<=[a-z])(e?s)$", "", word) if word not in NUMBER_WORDS else word
        if token[0].isdigit() or token[0] == "-":
            found.add(int(token.replace(",", "")))
        elif word in NUMBER_WORDS or (word != token.lower() and word + "e" in NUMBER_WORDS):  # 'twos', 'threes',
            # 'fives' (a plural's ending dropped: 'on' is no 'one')
            found.add(NUMBER_WORDS.get(word, NUMBER_WORDS.get(word + "e")))
        elif source and token.lower() in ORDINALS:
            found.add(ORDINALS[token.lower()])
    if source:
        found |= {int(n) for n in re.findall(r"(\d+)(?:st|nd|rd|th)\b", text)}
        # 'more than 4' is 5 and up; a card scored 'Free' scores 0
        found |= {(int(n) if n.isdigit() else NUMBER_WORDS[n.lower()]) + 1
                  for n in re.findall(r"more than (\d+|[a-z]+)\b", text, re.I) if n.isdigit() or n.lower() in NUMBER_WORDS}
        if re.search(r"\bfree\b", text, re.I):
            found.add(0)
        found |= {-n for n in list(found) if re.search(rf"minus\s+({n}|{_word(n)})\b", text, re.I)}
        if re.search(r"\b(a|an|one|single|the top|the topmost|first|the deck|the pack)\b", text, re.I):
            found.add(1)  # 'a card face up', 'the top card', 'the rest of the deck': one
        if re.search(r"\b\w+ against \w+\b", text):
            found.add(2)  # 'Guys against Girls': two sides
    return found


def _word(n: int) -> str:
    return next((w for w, v in NUMBER_WORDS.items() if v == n), str(n))


# The source's own words around a number, which a statement using that number must keep (or say the same way):
# '5 points against you' is not '5 points', 'typically 100' is not '100', 'approximately 50 chips' is not '50 chips';
# 'at least 6' is '6 or more', 'up to 6' the top of a range ('2-6'), a target played to is reached or passed.
# Each: where the number stands beside the words (N), and how the statement may keep them.
_N = r"(\d[\d,]*|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
KEPT = [("against you", rf"{_N} points? against you", r"against you"), ("typically", rf"typically {_N}", r"typically"),
        ("at least", rf"at least {_N}", r"at least|or more"),
        ("or more", rf"{_N}(?: \w+)? or more", r"or more|at least|play to|target"),
        ("or less", rf"{_N}(?: \w+)? or less", r"or less"),
        ("approximately", rf"approximately {_N}", r"approximately|about"),
        ("about", rf"about {_N}", r"about|approximately"), ("up to", rf"up to {_N}", r"up to|\d\s*[-–]\s*\d")]


def dropped(statement: str, sentences: list[str]) -> list[str]:
    """The source's words around a number the statement uses (``KEPT``) that the statement leaves out."""
    out = []
    used = numbers(statement)
    for sentence in sentences:
        for words_, near, kept in KEPT:
            for m in re.finditer(rf"\b{near}\b", sentence, re.I):
                if numbers(m.group(1)) & used and not re.search(kept, statement, re.I):
                    out.append(words_)
    return sorted(set(out))


# What sets a deal's count, where the source says something does: a statement of that deal must say so too, or it
# tells less than the rules ('1 card face up' for a deal whose face-up card sets how many cards a player gets).
# Each: (what the source says, how a statement keeps it, the finding's name for it).
SET_BY = [
    (r"\b(?:indicate|determine|set)s?\b[^.]*\bhow many cards\b", r"\bsets how many cards\b", "a card sets the count"),
    (r"\bdepending on the number of players\b", r"\bplayers\b|\bchanges each round\b", "the players set the count"),
    (r"\b(?:\d+|one|two|three)?\s*(?:more|less|fewer) cards? (?:dealt )?each time\b|\bincrease the amount of cards dealt\b",
     r"\bchanges each round\b|\bround\b", "the round sets the count"),
]


def untold(statement: str, sentences: list[str]) -> list[str]:
    """What sets a deal's count that the sentences say and the statement does not (``SET_BY``)."""
    source = " ".join(sentences)
    return [name for said, kept, name in SET_BY if re.search(said, source, re.I) and not re.search(kept, statement, re.I)]


def unsupported(statement: str, sentences: list[str]) -> list[str]:
    """What a statement says that its sentences do not: numbers they do not give, words they do not say (or say in
    other words, ``SAME``). Empty when the statement follows from them."""
    source = " ".join(sentences)
    have_numbers = numbers(source, source=True)
    missing = [str(n) for n in sorted(numbers(statement)) if n not in have_numbers
               and not (n < 0 and -n in have_numbers and re.search(r"minus|negative|deduct|less|against", source, re.I))]
    have = {stem(w) for w in _tokens(source) if not w[0].isdigit()}
    statement = re.sub(r"(^|[;,] )A (?=[A-Za-z])", r"\1a ", statement)  # the article, not an Ace
    for token in _tokens(statement):
        if token[0].isdigit() or token[0] == "-" or token.lower() in NUMBER_WORDS:
            continue
        if token in RANKS:  # a rank letter: 'A', 'K'
            if stem(RANKS[token]) not in have and token not in _tokens(source):
                missing.append(token)
            continue
        word = stem(token)
        if word in GLUE:
            continue
        if word == "change" and len(set(re.findall(r"(\d+) cards dealt", source))) > 1:
            continue  # 'changes each round': the rounds deal different numbers of cards ('6 cards dealt', '7 …')
        if word == "several" and not re.search(r"\b(?:[2-9]|\d{2,}|two|three|four)\s*(?:[-–]\s*\d+\s*)?(?:full\s+)?(?:decks|packs)\b",
                                               source, re.I):
            missing.append(token)  # several decks are 2 or more: not '1 decks of cards per table' (the book's plural)
            continue
        if word == "depend" and len(set(re.findall(r"(\d+|one|two|three) (?:full )?decks?\b", source, re.I))) > 1 \
                and re.search(r"\d+ players", source):
            continue  # decks that 'depend on players': the sentences give different decks for different players
        if word not in have and not any(stem(alt) in have for alt in SAME.get(word, [])):
            missing.append(token)
    return missing

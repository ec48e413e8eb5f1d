"""Words for data: the phrases templates print for players, equipment, deals, goals and scores.

Templates never compute; they print what these functions say, so the site, the PDF and the score
sheets read the same facts the same way.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

from ...book import addresses
from ...book.cards import JOKER, CardSet, PredicateError, parse_cards, parse_rank, parse_suit
from ...book.index import page_range
from ...book.library import Library, edition_key
from ...book.model import CardEquipment, Deal, Edition, GameBody, Goal, Removal, ScoreItem, ScoreTable, Variant
from ...book.phrases import parse_players
from ...book.prose import expand, format_value
from ...book.textdiff import word_runs
from ...book.words import SOURCE, _, base_language, current, n_
from ...book.words import slug as words_slug


def coins_plural(coin: str) -> str:
    """'quarters': the book's stakes in the plural, as a sentence says them ('%(coins)s left'), in its language."""
    return {"cent": lambda: _("cents"), "nickel": lambda: _("nickels"), "dime": lambda: _("dimes"),
            "quarter": lambda: _("quarters"), "chip": lambda: _("chips")}[coin]()


def coins(coin: str, n: int | float | str) -> str:
    """'5 cents', '1 chip': a count of the book's stakes, in the book's language."""
    return {
        "cent": lambda: counted(n, "%(count)s cent", "%(count)s cents"),
        "nickel": lambda: counted(n, "%(count)s nickel", "%(count)s nickels"),
        "dime": lambda: counted(n, "%(count)s dime", "%(count)s dimes"),
        "quarter": lambda: counted(n, "%(count)s quarter", "%(count)s quarters"),
        "chip": lambda: counted(n, "%(count)s chip", "%(count)s chips")}[coin]()


def coin_name(coin: str) -> str:
    """'Cents': the book's stakes named, with no count."""
    return {"cent": _("Cents"), "nickel": _("Nickels"), "dime": _("Dimes"), "quarter": _("Quarters"),
            "chip": _("Chips")}[coin]


def counted(n: int | float | str, one: str, many: str) -> str:
    """A count in the book's language: ``one`` and ``many`` are the messages ('%(count)s card', '%(count)s cards'),
    the plural chosen as the language counts ``n`` (a range, '3-14', is plural)."""
    count = n if isinstance(n, int) and not isinstance(n, bool) else (1 if n == 1 else 2)
    return n_(one, many, count, count=format_value(n))


def plural(n: int | float | str, one: str, many: str | None = None) -> str:
    """'1 deck', '3 decks', '3-14 cards' (a range is always plural)."""
    return f"{format_value(n)} {one if n == 1 else (many or one + 's')}"


def qualified(n: int | float | str, qualifier: str | None) -> str:
    """A number with the source's own qualifier: '18 or more', 'at least 10', 'about 5'."""
    value = format_value(n)
    return {None: lambda: value,
            "or more": lambda: _("%(count)s or more", count=value), "or less": lambda: _("%(count)s or less", count=value),
            "at least": lambda: _("at least %(count)s", count=value), "about": lambda: _("about %(count)s", count=value),
            "up to": lambda: _("up to %(count)s", count=value),
            "typically": lambda: _("typically %(count)s", count=value)}[qualifier]()


def stated(model: Any, name: str, unit: str | None = None, counting: tuple[str, str] | None = None,
           typical: bool = True) -> str:
    """A number as the source states it, with its own qualifier and typical value: '18 or more cards,
    typically 22', 'at least 10,000', '10 or more' (no noun). ``counting``: the messages that count it ('%(count)s
    card', '%(count)s cards'); ``unit``: a word of the book's own after it ('500 points'); ``typical`` false: the
    typical value left for the caller to say."""
    n = getattr(model, name)
    qualifier = model.qualifiers.get(name)
    words = qualified(n, qualifier)
    if counting:
        many = qualifier in ("or more", "or less") or not isinstance(n, int) or isinstance(n, bool)
        words = n_(counting[0], counting[1], 2 if many and n == 1 else (n if isinstance(n, int) else 2), count=words)
    elif unit:
        words = f"{words} {unit}"
    typical_value = getattr(model, "typically", {}).get(name)
    if typical and typical_value is not None:
        return _("%(words)s, typically %(typical)s", words=words, typical=format_value(typical_value))
    return words


# Card phrases that are adjectives: '3 number' reads '3 number cards'.
CARD_ADJECTIVES = {"number", "numeral", "face", "red", "black", "court", "picture", "wild"}
_STANDARD = CardSet.standard(1, jokers=2)


def _matches(phrase: str) -> tuple[int, bool]:
    """(how many cards of one deck a phrase names, whether it names the joker); (0, False) if unknown."""
    try:
        predicate = parse_cards(phrase)
    except PredicateError:
        return 0, False
    return _STANDARD.count(lambda c: c[0] != JOKER and predicate(c)), predicate((JOKER, None))


def cards_phrase(n: int | str, phrase: str) -> str:
    """'3 number cards', '1 face card', '2 jokers': a count of cards named by a phrase."""
    if phrase.strip().lower() in CARD_ADJECTIVES:
        return n_("%(count)s %(kind)s card", "%(count)s %(kind)s cards", n if isinstance(n, int) else 2,
                  count=format_value(n), kind=phrase)
    return f"{format_value(n)} {card_words(phrase)}"


def removal(r: str | Removal, decks: int | str) -> str:
    """One removed card group as it reads: '2s', 'every 2 of clubs', '1 copy of the 2 of diamonds'."""
    written, copies = (r, None) if isinstance(r, str) else (r.cards, r.copies)
    single = _matches(written)[0] == 1
    phrase = card_words(written)
    if copies:
        count = counted(copies, "%(count)s copy", "%(count)s copies")
        if single:
            return _("%(copies)s of the %(cards)s", copies=count, cards=phrase)
        return _("%(copies)s of each of the %(cards)s", copies=count, cards=phrase)
    # From several decks, 'remove 2 of clubs' would read as one card; every copy goes.
    return _("every %(cards)s", cards=phrase) if single and decks != 1 else phrase


def players(body: GameBody) -> str:
    """'2-4 players', 'Any number of players', 'Multiples of 4 players'."""
    return player_count(body.players)


def players_phrase(stated: str | int) -> str:
    """A player-count phrase in the book's language: '2-4', '2, 4 or 6', 'any', '2 or more', 'multiples of 4'."""
    spec = parse_players(stated)
    if spec.allowed is not None:
        nums = [str(n) for n in sorted(spec.allowed)]
        return nums[0] if len(nums) == 1 else _("%(first)s or %(last)s", first=", ".join(nums[:-1]), last=nums[-1])
    if spec.step > 1:
        return _("any even number") if spec.step == 2 else _("multiples of %(count)s", count=spec.step)
    if spec.high is None:
        return _("any") if spec.low <= 2 else _("%(count)s or more", count=spec.low)
    return str(spec.low) if spec.low == spec.high else f"{spec.low}-{spec.high}"


def player_count(stated: str | int) -> str:
    """A player-count phrase as a sentence fragment: 'any even number' -> 'Any even number of players'."""
    spec = parse_players(stated)
    if re.search(r"(\+|or more)\s*$", str(stated)):
        # '2 or more' ('two or more') means 'any', but it is what the source says
        text = n_("%(count)s or more player", "%(count)s or more players", 2, count=spec.low)
    elif spec.high is None and spec.step == 1 and spec.allowed is None and spec.low <= 2:
        text = _("any number of players")
    elif spec.step == 2 and spec.allowed is None:
        text = _("any even number of players")
    else:
        # 'any even number players' is not English; 'any even number of players' is.
        phrase = players_phrase(stated)
        text = n_("%(count)s player", "%(count)s players", 1 if phrase == "1" else 2, count=phrase)
    return f"{text[0].upper()}{text[1:]}"


def partnerships(body: GameBody) -> str | None:
    """How players team up, if they do: 'In partnerships when 4 play', '..., except Game 3 – ...'."""
    kind = body.partnerships or "none"
    text = {"partners": lambda: _("In partnerships"), "teams": lambda: _("Two teams"),
            "optional": lambda: _("With or without partners")}.get(kind, lambda: None)()
    if text and body.partners_when is not None:
        text = _("%(partners)s when %(count)s play", partners=text, count=players_phrase(body.partners_when))
    alone = [r.name for r in (body.rounds.items if body.rounds else []) if r.partners is False]
    if text and alone:  # rounds that say they have no partners (Court Whist's Conspiracy)
        text = _("%(partners)s, except %(rounds)s", partners=text, rounds=", ".join(alone))
    return text


def deck(cards: CardEquipment) -> str:
    """'3-4 decks with jokers, per table; 2s and jokers removed'."""
    decks = cards.decks
    if decks == "players + 1":
        text = _("One more deck than players")
    elif decks == "players":
        text = _("One deck per player")
    elif decks == "enough":
        text = _("Enough decks for at least %(cards)s each", cards=cards_count(cards.min_cards_each)) \
            if cards.min_cards_each else _("Enough decks")
    else:
        text = counted(decks, "%(count)s deck", "%(count)s decks")
    # Jokers taken out again are no jokers: say so once, not 'with jokers; remove jokers'. Where the source does
    # not say (jokers unset), nothing is said: 'no jokers' is a statement, not a default.
    jokers_only = [r for r in cards.remove if _matches(r if isinstance(r, str) else r.cards) == (0, True)
                   and (isinstance(r, str) or not r.copies)]
    if cards.jokers and not jokers_only:
        text = _("%(decks)s, with jokers", decks=text)
    elif cards.jokers is False or jokers_only:
        text = _("%(decks)s, no jokers", decks=text)
    if cards.per != "game":
        text = {"table": lambda: _("%(decks)s, per table", decks=text),
                "couple": lambda: _("%(decks)s, per couple", decks=text),
                "player": lambda: _("%(decks)s, per player", decks=text)}.get(
            cards.per, lambda: f"{text}, per {cards.per}")()
    if cards.keep:
        text = _("%(decks)s; only %(cards)s used", decks=text, cards=cards.keep)
    removed = [removal(r, decks) for r in cards.remove if r not in jokers_only]
    if removed:
        text = _("%(decks)s; remove %(cards)s", decks=text, cards=", ".join(removed))
    if cards.stated_cards:
        text = _("%(decks)s (%(count)s cards)", decks=text, count=cards.stated_cards)
    if cards.players is not None:
        text = _("%(count)s players: %(text)s", count=cards.players, text=f"{text[0].lower()}{text[1:]}")
    return text


def equipment(body: GameBody) -> list[str]:
    """One line per piece of equipment."""
    eq = body.equipment
    if eq is None:
        return []
    lines = [deck(c) for c in eq.cards]
    if eq.dominoes is not None:
        # A set the rules do not name is not named, nor said to be missing: 'Dominoes', as the title says.
        lines.append(_("Double-%(set)s dominoes", set=eq.dominoes.set) if eq.dominoes.set else _("Dominoes"))
    if eq.dice:
        lines.append(counted(eq.dice, "%(count)s die", "%(count)s dice"))
    if eq.board:
        lines.append(eq.board)
    if eq.sticks:
        lines.append(_("Sticks"))
    if eq.stakes:
        coin = eq.stakes.coin
        line = _("%(coins)s each", coins=coins(coin, eq.stakes.start)) if eq.stakes.start else coin_name(coin)
        if eq.stakes.ante:
            line = _("%(stakes)s, ante %(coins)s", stakes=line, coins=coins(coin, eq.stakes.ante))
        if eq.stakes.note:
            line += f" ({eq.stakes.note})"
        lines.append(line)
    lines.extend(eq.other)
    return lines


def cards_count(n: int | float | str) -> str:
    """'1 card', '3 cards': a count of cards in the book's language."""
    return counted(n, "%(count)s card", "%(count)s cards")


def _split(field: str, words: str) -> str:
    """A part of a hand with where it goes: '11 in the hand', '13 in the foot', '3 blind', '1 face up'."""
    return {"hand": lambda: _("%(cards)s in the hand", cards=words),
            "foot": lambda: _("%(cards)s in the foot", cards=words),
            "blind": lambda: _("%(cards)s blind", cards=words),
            "face_up": lambda: _("%(cards)s face up", cards=words)}[field]()


SPLIT = ("hand", "foot", "blind", "face_up")  # the parts of 'each'
CARDS = ("%(count)s card", "%(count)s cards")


def _deal_one(d: Deal) -> str:
    parts = []
    split = [_split(field, stated(d, field)) for field in SPLIT if getattr(d, field)]
    if d.set_by_first_card:
        # The rules deal each player a card face up and let it set the hand: the box says so, not the face-up card
        # alone (which reads as a one-card deal) nor the range the transcriber worked out from the ranks.
        parts.append(_("each player's first card is turned up and sets how many cards they get"))
    elif d.each == "all":
        # Cards kept back for the middle are not 'all cards dealt out'. 'Evenly' only where the data states what
        # makes the hands even (the rest to the middle, cards removed first): else the source did not say so.
        even = bool(d.min_remainder or d.equalize_by_removing)
        if d.min_remainder:
            dealt = _("cards dealt out evenly (hands may differ)") if d.uneven else _("cards dealt out evenly")
        elif d.uneven:
            dealt = _("all cards dealt out (hands may differ)")
        else:
            dealt = _("all cards dealt out evenly") if even else _("all cards dealt out")
        parts.append(dealt)
    elif d.each is not None and "each" in d.worked_out:
        # A total the source does not state (the hand and the foot added up) is not printed: its parts are, the
        # first with its noun ('15 cards in the hand, 13 in the foot').
        named = [f for f in SPLIT if getattr(d, f)]
        parts += [", ".join(_split(f, stated(d, f, counting=CARDS) if i == 0 else stated(d, f))
                            for i, f in enumerate(named))]
    elif d.each is not None and d.dealer_gets is not None:
        parts.append(_("%(cards)s to each player but the dealer", cards=stated(d, "each", counting=CARDS)))
    elif d.each is not None:
        each = _("%(cards)s each", cards=stated(d, "each", counting=CARDS, typical=False))
        typical = d.typically.get("each")
        if typical is not None:
            each = _("%(words)s, typically %(typical)s", words=each, typical=format_value(typical))
        parts.append(each + (f" ({', '.join(split)})" if split else ""))
    elif d.hand is not None:
        hand = _("%(cards)s in the hand", cards=cards_count(d.hand))
        parts.append(_("%(hand)s and %(count)s in the foot", hand=hand, count=d.foot) if d.foot else hand)
    if d.composition:
        parts.append(_("%(cards)s each", cards=" + ".join(cards_phrase(r.copies or 1, r.cards) for r in d.composition)))
    if d.by_round:
        parts.append(_("the number of cards dealt changes each round"))
    if d.dealer_gets is not None:
        parts.append(_("the dealer takes %(cards)s", cards=cards_count(d.dealer_gets)))
    if d.tiles:
        parts.append(_("%(cards)s each", cards=counted(d.tiles, "%(count)s tile", "%(count)s tiles")))
    if d.kitty:
        parts.append(_("%(cards)s to the kitty", cards=cards_count(d.kitty)))
    if d.widow == "hand":
        parts.append(_("an extra widow hand"))
    elif d.widow:
        parts.append(_("%(cards)s to the widow", cards=cards_count(d.widow)))
    if d.min_remainder:
        parts.append(_("the rest, at least %(cards)s, to the middle", cards=cards_count(d.min_remainder)))
    if d.equalize_by_removing:
        parts.append(_("remove %(cards)s first if needed", cards=rank_groups(d.equalize_by_removing)))
    if d.upcard:
        parts.append(_("%(cards)s turned up", cards=cards_count(d.upcard)))
    text = "; ".join(parts) or _("see the rules")
    return _("%(count)s players: %(text)s", count=d.players, text=text) if d.players is not None \
        else text[0].upper() + text[1:]


# What the decks a game needs are, as its rules state them, for the game finder: one deck for the game, one deck for
# each table, couple or player the rules name, a count that depends on the players (one more than the players,
# 'enough' for so many cards each, a different count for different numbers of players), or several.
DECK_KINDS = {"one-deck": "One deck", "one-deck-per-table": "One deck per table",
              "one-deck-per-couple": "One deck per couple", "one-deck-per-player": "One deck per player",
              "depends-on-players": "Depends on players", "several-decks": "Several decks"}
MOST_PLAYERS = 60  # the player counts the finder asks a deck about (its Players field's top)


def _deck_kind(cards: CardEquipment) -> str:
    if cards.decks == 1:
        return "one-deck" if cards.per == "game" else f"one-deck-per-{cards.per}"
    if cards.decks in ("players", "players + 1", "enough"):
        return "depends-on-players"
    return "several-decks"


def deck_kinds(body: GameBody) -> list[str]:
    """The decks a game needs (``DECK_KINDS``), as its equipment states: a count for each number of players that is
    one deck for some and several for others (Trash) depends on the players."""
    if body.equipment is None or not body.equipment.cards:
        return []
    kinds = {_deck_kind(c) for c in body.equipment.cards}
    if len(body.equipment.cards) > 1 and {"one-deck", "several-decks"} <= kinds:
        kinds = (kinds - {"one-deck", "several-decks"}) | {"depends-on-players"}
    return sorted(kinds)


# The decks that depend on how many play: a count by the players, or one deck a table or a couple (two tables, two
# decks: Court Whist for 8 is not a one-deck game, nor the Gin tournament for 4 to 12).
BY_PLAYERS = ("depends-on-players", "one-deck-per-table", "one-deck-per-couple")


def one_deck_counts(body: GameBody) -> list[int]:
    """The numbers of players one deck serves, of a game whose decks depend on the players (Sweep: 'at least 18 cards
    for each person', one deck for two; Trash: one for 4 to 6; one deck per table: one table, 4 players or fewer; per
    couple: one couple): none for a game whose count does not."""
    from ...book.equipment import card_config, deck_counts, groups

    if not set(BY_PLAYERS) & set(deck_kinds(body)):
        return []
    spec = parse_players(body.players) if body.players is not None else None
    out = []
    for n in range(2, MOST_PLAYERS + 1):
        cfg = card_config(body, n)
        if (spec is None or spec.allows(n)) and cfg is not None and cfg.per in ("game", "table", "couple") \
                and groups(cfg.per, n) == 1 and 1 in deck_counts(cfg, n):
            out.append(n)
    return out


def rank_groups(phrase: str) -> str:
    """'2, 3' -> '2s or 3s': a list of ranks as the cards they name."""
    parts = [p.strip() for p in phrase.split(",") if p.strip()]
    named = [_("%(rank)ss", rank=p) if p.isdigit() else rank_plural(p) for p in parts]
    return named[0] if len(named) == 1 else _("%(first)s or %(last)s", first=", ".join(named[:-1]), last=named[-1])


def rank_name(rank: int) -> str:
    """One rank as the book's language names a card of it: 'Ace', 'Queen', '7'."""
    return {1: lambda: _("Ace"), 11: lambda: _("Jack"), 12: lambda: _("Queen"),
            13: lambda: _("King")}.get(rank, lambda: str(rank))()


def rank_cards(rank: int) -> str:
    """The cards of one rank, as the book's language names them: '2s', 'Aces' ('2er', 'Asse' in German)."""
    return {1: lambda: _("Aces"), 11: lambda: _("Jacks"), 12: lambda: _("Queens"),
            13: lambda: _("Kings")}.get(rank, lambda: _("%(rank)ss", rank=rank))()


def suit_name(suit: str) -> str:
    """A suit as the book's language names it: 'hearts' ('Herz' in German)."""
    return {"clubs": lambda: _("clubs"), "diamonds": lambda: _("diamonds"), "hearts": lambda: _("hearts"),
            "spades": lambda: _("spades")}[suit]()


# Between a phrase's card groups: a comma, or one of the joining words between spaces. The space before a comma stays
# with the group before it, and only one space is read before a joining word: taken as a run (\s*, \s+), it was read
# again from each space of a long run of them (quadratic, tests/test_regex_bounded.py).
_SEPARATOR = re.compile(r"(,\s*|\s(?:or|and|except)\s+)")


def _card_group(group: str) -> str | None:
    """One card group of a phrase ('2s', 'K-10', 'queen of spades', 'jokers') in the book's language; None for one
    the tool has no words for (an adjective, a name the game defines), which is shown as written."""
    text = " ".join(group.lower().split())
    if text in ("joker", "jokers"):
        return _("jokers")
    if parse_suit(text):
        return suit_name(parse_suit(text) or "")
    ranged = text.split("-")
    if len(ranged) == 2 and all(parse_rank(r) is not None for r in ranged):
        return _("%(low)s to %(high)s", low=rank_cards(parse_rank(ranged[0]) or 0),
                 high=rank_cards(parse_rank(ranged[1]) or 0))
    rank, _of, suit = text.partition(" of ")
    suit = suit.removeprefix("the ")
    if suit and parse_rank(rank) is not None and parse_suit(suit):
        return _("%(rank)s of %(suit)s", rank=rank_name(parse_rank(rank) or 0), suit=suit_name(parse_suit(suit) or ""))
    if " " not in text and not text.isdigit() and parse_rank(text) is not None:
        return rank_cards(parse_rank(text) or 0)
    return None


def card_words(phrase: str) -> str:
    """A card phrase of the data ('2s, 3s, 4s', 'queen of spades', 'jokers') as the book's language writes it
    ('2er, 3er, 4er', 'Pik-Dame', 'Joker' in German). In English (and a language the tool has no words in) the
    phrase is the data's own, as the book wrote it; so is a group the tool has no words for ('red 3s')."""
    say = current()
    if not say.known or base_language(say.language) == SOURCE:
        return phrase
    joins = {"or": lambda: _("or"), "and": lambda: _("and"), "except": lambda: _("except")}
    out = []
    for part in _SEPARATOR.split(phrase):
        if _SEPARATOR.fullmatch(part):
            word = part.strip(" ,").lower()
            out.append(f" {joins[word]()} " if word else part)
        elif part:
            out.append(_card_group(part) or part)
    return "".join(out)


def rank_plural(rank: str) -> str:
    """'A' -> 'Aces': a court or ace rank as the cards it names; another as written."""
    return {"A": lambda: _("Aces"), "K": lambda: _("Kings"), "Q": lambda: _("Queens"),
            "J": lambda: _("Jacks")}.get(rank.upper(), lambda: rank)()


def deal(body: GameBody) -> list[str]:
    """One line per deal rule the source states (several when it depends on the number of players).

    A deal the transcriber worked out from the rest of the page (``implied``) helps the checks but is
    not the family's rule: the box says nothing rather than print it."""
    if body.deal is None or body.deal.implied:
        return []
    lines = [_deal_one(body.deal)] if body.deal.by_players == [] or body.deal.each or body.deal.upcard else []
    lines += [_deal_one(d) for d in body.deal.by_players]
    return lines


def goal(g: Goal | None) -> str | None:
    """'Low score wins; first to 500; out at -150; 9 rounds'."""
    if g is None or g.implied:  # worked out by the transcriber, not stated: the box says nothing
        return None
    head = {"high": lambda: _("High score wins"), "low": lambda: _("Low score wins"),
            "first_out": lambda: _("First player out wins"), "last_standing": lambda: _("Last player remaining wins"),
            "first_to_target": lambda: _("First to the target wins"),
            "race": lambda: _("First to finish wins")}[g.winner]()
    parts = [head]
    if g.target is not None:  # a target the players choose ("agree beforehand …, typically 100") is not played to
        target = stated(g, "target", g.target_unit)
        parts.append(_("target %(target)s", target=target) if g.qualifiers.get("target") == "typically"
                     else _("play to %(target)s", target=target))
    if g.then_back_to is not None:
        parts.append(_("then back down to %(score)s", score=stated(g, "then_back_to")))
    if g.lose_at is not None:
        parts.append(_("out at %(score)s", score=format_value(g.lose_at)))
    if g.rounds is not None:
        parts.append(counted(g.rounds, "%(count)s round", "%(count)s rounds"))
    return "; ".join(parts)


def glance_label(key: str) -> str:
    """A row's label in the glance box, in the book's language ('Players': the row's key, the English label)."""
    return {"Players": lambda: _("Players"), "Equipment": lambda: _("Equipment"), "Deal": lambda: _("Deal"),
            "Wild cards": lambda: _("Wild cards"), "Card values": lambda: _("Card values"),
            "Counters": lambda: _("Counters"), "To win": lambda: _("To win")}[key]()


def _glance(body: GameBody, stated_players: str | int | None = None) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    count = stated_players if body.players_implied else body.players
    if count is not None:
        teams = partnerships(body)  # lower-case its first letter only: round names keep their capitals
        rows.append(("Players", player_count(count) + (f" ({teams[0].lower()}{teams[1:]})" if teams else "")))
    for line in equipment(body):
        rows.append(("Equipment", line))
    for line in deal(body):
        rows.append(("Deal", line))
    if body.wild:
        rows.append(("Wild cards", card_words(body.wild)))
    for table in body.scoring.values():
        values = card_values(table)
        if values:
            rows.append(("Card values" if table.kind == "card_values" else "Counters", values))
    if goal(body.goal):
        rows.append(("To win", goal(body.goal) or ""))
    return [(key, text[:1].upper() + text[1:]) for key, text in rows]


def glance(body: GameBody, stated_players: str | int | None = None) -> list[tuple[str, str]]:
    """The quick-reference rows for a game or variant: (label, text). A count the page does not state
    (``players_implied``, worked out from a deal table) is not printed: ``stated_players``, the count a source
    states (the edition's index line), is, or none."""
    return [(glance_label(key), text) for key, text in _glance(body, stated_players)]



NO_SCORE = "No score sheet: its rules keep no score."  # in English (``no_score``: in the book's language)


def no_score() -> str:
    """What a game's page says where its sheet would be, for a game whose rules keep no score."""
    return _("No score sheet: its rules keep no score.")


# A variant's box row for a field of its game's box that it does not state (Variant.from_game): what its source says
# of it. A field its source states the same way prints no row: the game's stands, true of the variant.
FROM_GAME = ("unstated", "in_rules")
LABEL_FIELDS = {"Players": "players", "Equipment": "equipment", "Deal": "deal", "Wild cards": "wild",
                "Card values": "scoring", "Counters": "scoring", "To win": "goal"}


def from_game(said: str) -> str:
    """A variant's row for a field of its game's box its source does not state (``FROM_GAME``)."""
    return {"unstated": lambda: _("Its source does not say"), "in_rules": lambda: _("See its rules")}[said]()


def variant_glance(variant: Variant, game_rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A variant's "How it differs" rows: its own, and for each row of its game's box it does not state, what its
    source says of it (``FROM_GAME``), in the box's order; a row its source states the same stays the game's."""
    keys = {glance_label(key): key for key in LABEL_FIELDS}  # the game's rows are labelled in the book's language
    rows = _glance(variant)
    own = {key for key, _text in rows}
    for key in dict.fromkeys(keys[label] for label, _text in game_rows):
        said = variant.from_game.get(LABEL_FIELDS[key], "")  # type: ignore[arg-type]
        if key not in own and said in FROM_GAME:
            rows.append((key, from_game(said)))
    order = list(LABEL_FIELDS)
    return [(glance_label(key), text) for key, text in sorted(rows, key=lambda row: order.index(row[0]))]


def points(item: ScoreItem) -> str:
    """What one item is worth, from its data alone: 'face value', '1 point', '-5 points', '5 cents'."""
    if item.points == "face":
        return _("face value")
    if item.points is not None:
        # The source's 'against you' is part of the value: 5 points against you are not 5 points.
        if item.against:
            return n_("%(count)s point against you", "%(count)s points against you",
                      1 if item.points in (1, -1) else 2, count=format_value(item.points))
        return n_("%(count)s point", "%(count)s points", 1 if item.points in (1, -1) else 2,
                  count=format_value(item.points))
    return coins("cent", item.cents) if item.cents is not None else ""


def card_values(table: ScoreTable) -> str:
    """A card-values or counters table in one line, from the data: 'Jokers: 50 points; Aces: face value'.

    Every card (or tile) item is listed with its points, whatever its printed text says, so the
    summary never drops a value the table gives; combinations (pairs, blocks) stay in the table.
    """
    if table.kind not in ("card_values", "counters"):
        return ""
    # The label may carry the table's verb ('Hearts are'); the summary supplies its own colon.
    lines = [f"{re.sub(r' (is|are)$', '', i.label.strip())}: {points(i)}"
             for i in table.items if i.per != "combination" and points(i)]
    return "; ".join(lines)


# What a score item counts when a round scores it per thing taken: '5 points each' (per card or trick). An event
# ('The last trick') happens once a round: 'each' would say it is counted again and again, unless the source says
# so itself (says_each: Canadian Salad's 'Last trick 75 points each').
COUNTED = ("card", "trick", "pip")


def item_value(item: ScoreItem, game_data: dict[str, Any], in_round: bool = False) -> str:
    """A score item's value as printed: its own ``value`` text, or 'N points (total T)'."""
    if item.value is not None:
        return expand(item.value, item.model_dump(exclude_none=True), game_data)
    text = _("Face value") if item.points == "face" else points(item)
    if in_round and text and (item.unit in COUNTED or item.says_each):
        text = _("%(points)s each", points=text)
    if item.stated_total is not None:
        text = _("%(points)s (total %(total)s)", points=text, total=format_value(item.stated_total))
    if item.threshold is not None:  # a bonus earned at a threshold: '35 points (at 63 or more)'
        text = _("%(points)s (at %(threshold)s or more)", points=text, threshold=format_value(item.threshold))
    return text


class ErratumRow:
    """One correction as a reader sees it: where it is, what the book said, what it says now, and why."""

    def __init__(self, title: str, anchor: str, link: str, published: str, corrected: str, why: str,
                 edition: str = "") -> None:
        self.title, self.anchor, self.link = title, anchor, link
        self.published, self.corrected, self.why = published, corrected, why
        self.edition = edition  # the edition that made the correction
        # What the book said with the words the correction took out marked (<del>), and what it says with the words
        # it put in marked (<ins>): the changed words, not the sentence round them.
        said, says = word_runs(published, corrected)
        self.said, self.says = marked(said, "del"), marked(says, "ins")

    def page(self, pages: dict[str, int], unknown: str = "") -> str:
        """The PDF page the corrected text is on ('00'-like ``unknown`` before layout)."""
        if self.anchor.startswith("game-"):
            return page_range(pages, self.anchor[len("game-"):], unknown)
        found = pages.get(self.anchor)
        return unknown if found is None else str(found)


def marked(runs: list[tuple[str, str, bool]], tag: str) -> Markup:
    """Runs of text (``textdiff.word_runs``) as HTML, each changed run inside ``tag``; the text escaped."""
    return Markup("").join(escape(space) + (Markup(f"<{tag}>{escape(words)}</{tag}>") if changed else escape(words))
                           for space, words, changed in runs)


def edition_name(edition: Edition) -> str:
    """'2026.2 – Revision 2 (Nov/2026)': an edition as readers see it named (the label has its own brackets)."""
    return f"{edition.id} – {edition.label}"


def pdf_name(lib: Library) -> str:
    """The book PDF's file name, with the edition (the PDF is written by it, and the site links it)."""
    return f"{file_stem(lib.book.title)}-{lib.edition.id}.pdf"


def file_stem(title: str) -> str:
    """A title as a file name: 'Rock & Roll <Club>' -> 'rock-roll-club', 'Règles du café' -> 'regles-du-cafe',
    'Das große Regelbuch' -> 'das-grosse-regelbuch' in German.

    Letters are written in plain Latin letters as the book's language writes them (``words.slug``) and everything
    else becomes one hyphen, so the name is the same on every system and in an address; a title with no letter or
    digit is named 'book'."""
    return words_slug(title) or "book"


def possessive(whose: str, start: bool = False) -> str:
    """Whose decisions, in English: 'the family' -> "the family's", 'the editors' -> "the editors'"; ``start``: as a
    sentence starts ("The family's"). The check's summary's (in English); what the book prints is ``decisions``."""
    owner = whose.strip()
    if start:
        owner = owner[:1].upper() + owner[1:]
    return owner + ("'" if owner.endswith("s") else "'s")


def whose(name: str, start: bool = False) -> dict[str, Any]:
    """The name whose decisions a message names, as it is written in it (``start``: as a sentence starts), and
    whether it ends in s (English writes "the editors' decisions"): the values of a ``decisions`` message."""
    owner = name.strip()
    return {"whose": owner[:1].upper() + owner[1:] if start else owner, "s": owner.endswith("s")}


def errata_rows(lib: Library) -> list[ErratumRow]:
    """This edition's corrections named by the game or page they are on, never by file or data path.

    A correction of a game this edition no longer prints (retired since) is left out: there is nothing here
    for the reader to correct."""
    rows = []
    printed = lib.book.printed_index
    for e in (e for e in lib.errata if lib.in_edition(e.edition)):
        stem = e.file.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        game_id, _dot, variant_id = stem.partition(".")
        if e.file == lib.book_doc.path:
            # The book's own data is the printed index (its heading and its lines).
            title, anchor, link = lib.book.index_title, "book-index", addresses.INDEX.doc
            line = re.match(r"printed_index\.sections\.(\w+)\.(\d+)\.", e.path or "")
            if line and printed is not None:
                entry = printed.sections[line[1]][int(line[2])]
                if entry.game not in lib.games:
                    continue
                title = f"{title}: {entry.title}"
        elif game_id in lib.games:
            game = lib.games[game_id].game
            if not variant_id and e.path and e.path.startswith("variants."):
                variant_id = game.variants[int(e.path.split(".")[1])].id
            variant = next((v for v in game.variants if v.id == variant_id), None)
            if variant is not None and not lib.includes(variant):
                continue
            title = game.heading() + (f": {variant.title}" if variant else "")
            anchor, link = f"game-{game_id}", addresses.game(game_id).doc
        elif stem in lib.pages:
            page = next(p for p in lib.book.pages if p.id == stem)
            title, anchor, link = page.title, f"page-{page.id}", addresses.page(page.id).doc
        else:
            continue
        # Data text may refer to the game's own values: the reader sees them as the page prints them.
        scopes = ([lib.games[game_id].doc.data] if game_id in lib.games else []) + [lib.scope()]
        rows.append(ErratumRow(title, anchor, link, expand(str(e.published), *scopes), expand(str(e.corrected), *scopes),
                               e.evidence.why, e.edition))
    return rows


def errata_anchor(edition_id: str) -> str:
    """The anchor of an edition's corrections on the errata page, in print and on the site: 'errata-2026-3'
    (What changed links the corrections of its edition there)."""
    return "errata-" + edition_id.replace(".", "-")


def decision_anchor(revision_id: str) -> str:
    """The anchor of a decision on What changed, in print and on the site (its game's page links there)."""
    return f"decision-{revision_id}"


def revision_game(revision: Any) -> str:
    """The game (or page) a decision changed: the one it names, else its file's ('content/hearts.house-hearts.md')."""
    if revision.game is not None:
        return revision.game
    return (revision.file or "").rsplit("/", 1)[-1].split(".")[0]


def errata_groups(lib: Library) -> list[tuple[str, list[ErratumRow]]]:
    """The corrections grouped by the edition that made them, newest first: [(the edition's name, rows)]."""
    rows = errata_rows(lib)
    editions = sorted((e for e in lib.book.editions if any(r.edition == e.id for r in rows)),
                      key=lambda e: edition_key(e.id), reverse=True)
    return [(edition_name(ed), [r for r in rows if r.edition == ed.id]) for ed in editions]

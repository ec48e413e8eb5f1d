"""Words for data: the phrases templates print for players, equipment, deals, goals and scores.

Templates never compute; they print what these functions say, so the site, the PDF and the score
sheets read the same facts the same way.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from markupsafe import Markup, escape

from ...book import addresses
from ...book.cards import JOKER, CardSet, PredicateError, parse_cards
from ...book.index import page_range
from ...book.library import Library, edition_key
from ...book.model import CardEquipment, Deal, Edition, GameBody, Goal, Removal, ScoreItem, ScoreTable, Variant
from ...book.phrases import parse_players
from ...book.prose import expand, format_value
from ...book.textdiff import word_runs

COINS = {"cent": ("cent", "cents"), "nickel": ("nickel", "nickels"), "dime": ("dime", "dimes"),
         "quarter": ("quarter", "quarters"), "chip": ("chip", "chips")}


def plural(n: int | float | str, one: str, many: str | None = None) -> str:
    """'1 deck', '3 decks', '3-14 cards' (a range is always plural)."""
    return f"{format_value(n)} {one if n == 1 else (many or one + 's')}"


def stated(model: Any, name: str, one: str | None = None, many: str | None = None) -> str:
    """A number as the source states it, with its own qualifier and typical value: '18 or more cards,
    typically 22', 'at least 10,000', '10 or more' (no noun)."""
    n = getattr(model, name)
    qualifier = model.qualifiers.get(name)
    if qualifier in ("or more", "or less"):
        nouns = f" {plural(2, one, many).split(' ', 1)[1]}" if one else ""
        words = f"{format_value(n)} {qualifier}{nouns}"
    else:
        words = plural(n, one, many) if one else format_value(n)
        words = f"{qualifier} {words}" if qualifier else words
    typical = getattr(model, "typically", {}).get(name)
    return words + (f", typically {format_value(typical)}" if typical is not None else "")


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
        return plural(n, f"{phrase} card")
    return f"{format_value(n)} {phrase}"


def removal(r: str | Removal, decks: int | str) -> str:
    """One removed card group as it reads: '2s', 'every 2 of clubs', '1 copy of the 2 of diamonds'."""
    phrase, copies = (r, None) if isinstance(r, str) else (r.cards, r.copies)
    single = _matches(phrase)[0] == 1
    if copies:
        return f"{plural(copies, 'copy', 'copies')} of {'the' if single else 'each of the'} {phrase}"
    # From several decks, 'remove 2 of clubs' would read as one card; every copy goes.
    return f"every {phrase}" if single and decks != 1 else phrase


def players(body: GameBody) -> str:
    """'2-4 players', 'Any number of players', 'Multiples of 4 players'."""
    return player_count(body.players)


def player_count(stated: str | int) -> str:
    """A player-count phrase as a sentence fragment: 'any even number' -> 'Any even number of players'."""
    spec = parse_players(stated)
    text = spec.describe()
    if re.search(r"(\+|or more)\s*$", str(stated)):
        text = f"{spec.low} or more"  # '2 or more' ('two or more') means 'any', but it is what the source says
    elif text == "any":
        text = "any number"
    # 'any even number players' is not English; 'any even number of players' is.
    noun = "of players" if text.endswith("number") else ("player" if text == "1" else "players")
    return f"{text[0].upper()}{text[1:]} {noun}"


def partnerships(body: GameBody) -> str | None:
    """How players team up, if they do: 'In partnerships when 4 play', '..., except Game 3 – ...'."""
    text = {"partners": "In partnerships", "teams": "Two teams", "optional": "With or without partners"}.get(
        body.partnerships or "none")
    if text and body.partners_when is not None:
        text += f" when {parse_players(body.partners_when).describe()} play"
    alone = [r.name for r in (body.rounds.items if body.rounds else []) if r.partners is False]
    if text and alone:  # rounds that say they have no partners (Court Whist's Conspiracy)
        text += ", except " + ", ".join(alone)
    return text


def deck(cards: CardEquipment) -> str:
    """'3-4 decks with jokers, per table; 2s and jokers removed'."""
    decks = cards.decks
    if decks == "players + 1":
        text = "One more deck than players"
    elif decks == "players":
        text = "One deck per player"
    elif decks == "enough":
        text = f"Enough decks for at least {plural(cards.min_cards_each, 'card')} each" if cards.min_cards_each else "Enough decks"
    else:
        text = f"{decks} {'deck' if decks == 1 else 'decks'}"
    # Jokers taken out again are no jokers: say so once, not 'with jokers; remove jokers'. Where the source does
    # not say (jokers unset), nothing is said: 'no jokers' is a statement, not a default.
    jokers_only = [r for r in cards.remove if _matches(r if isinstance(r, str) else r.cards) == (0, True)
                   and (isinstance(r, str) or not r.copies)]
    if cards.jokers and not jokers_only:
        text += ", with jokers"
    elif cards.jokers is False or jokers_only:
        text += ", no jokers"
    if cards.per != "game":
        text += f", per {cards.per}"
    if cards.keep:
        text += f"; only {cards.keep} used"
    removed = [removal(r, decks) for r in cards.remove if r not in jokers_only]
    if removed:
        text += f"; remove {', '.join(removed)}"
    if cards.stated_cards:
        text += f" ({cards.stated_cards} cards)"
    if cards.players is not None:
        text = f"{cards.players} players: {text[0].lower()}{text[1:]}"
    return text


def equipment(body: GameBody) -> list[str]:
    """One line per piece of equipment."""
    eq = body.equipment
    if eq is None:
        return []
    lines = [deck(c) for c in eq.cards]
    if eq.dominoes is not None:
        # A set the rules do not name is not named, nor said to be missing: 'Dominoes', as the title says.
        lines.append(f"Double-{eq.dominoes.set} dominoes" if eq.dominoes.set else "Dominoes")
    if eq.dice:
        lines.append(plural(eq.dice, "die", "dice"))
    if eq.board:
        lines.append(eq.board)
    if eq.sticks:
        lines.append("Sticks")
    if eq.stakes:
        one, many = COINS[eq.stakes.coin]
        line = f"{plural(eq.stakes.start, one, many)} each" if eq.stakes.start else f"{many.capitalize()}"
        if eq.stakes.ante:
            line += f", ante {plural(eq.stakes.ante, one, many)}"
        if eq.stakes.note:
            line += f" ({eq.stakes.note})"
        lines.append(line)
    lines.extend(eq.other)
    return lines


SPLIT = (("hand", "in the hand"), ("foot", "in the foot"), ("blind", "blind"), ("face_up", "face up"))  # of 'each'


def _deal_one(d: Deal) -> str:
    parts = []
    split = [f"{stated(d, field)} {name}" for field, name in SPLIT if getattr(d, field)]
    if d.set_by_first_card:
        # The rules deal each player a card face up and let it set the hand: the box says so, not the face-up card
        # alone (which reads as a one-card deal) nor the range the transcriber worked out from the ranks.
        parts.append("each player's first card is turned up and sets how many cards they get")
    elif d.each == "all":
        # Cards kept back for the middle are not 'all cards dealt out'. 'Evenly' only where the data states what
        # makes the hands even (the rest to the middle, cards removed first): else the source did not say so.
        even = bool(d.min_remainder or d.equalize_by_removing)
        dealt = "cards dealt out evenly" if d.min_remainder else "all cards dealt out"
        parts.append(dealt + (" (hands may differ)" if d.uneven else (" evenly" if even and not d.min_remainder else "")))
    elif d.each is not None and "each" in d.worked_out:
        # A total the source does not state (the hand and the foot added up) is not printed: its parts are, the
        # first with its noun ('15 cards in the hand, 13 in the foot').
        named = [(f, name) for f, name in SPLIT if getattr(d, f)]
        parts += [", ".join(f"{stated(d, f, 'card') if i == 0 else stated(d, f)} {name}" for i, (f, name) in enumerate(named))]
    elif d.each is not None and d.dealer_gets is not None:
        parts.append(f"{stated(d, 'each', 'card')} to each player but the dealer")
    elif d.each is not None:
        each = stated(d, "each", "card")
        each = each.replace(",", " each,", 1) if "typically" in each else f"{each} each"
        parts.append(each + (f" ({', '.join(split)})" if split else ""))
    elif d.hand is not None:
        parts.append(f"{plural(d.hand, 'card')} in the hand" + (f" and {d.foot} in the foot" if d.foot else ""))
    if d.composition:
        parts.append(" + ".join(cards_phrase(r.copies or 1, r.cards) for r in d.composition) + " each")
    if d.by_round:
        parts.append("the number of cards dealt changes each round")
    if d.dealer_gets is not None:
        parts.append(f"the dealer takes {plural(d.dealer_gets, 'card')}")
    if d.tiles:
        parts.append(f"{plural(d.tiles, 'tile')} each")
    if d.kitty:
        parts.append(f"{plural(d.kitty, 'card')} to the kitty")
    if d.widow == "hand":
        parts.append("an extra widow hand")
    elif d.widow:
        parts.append(f"{plural(d.widow, 'card')} to the widow")
    if d.min_remainder:
        parts.append(f"the rest, at least {plural(d.min_remainder, 'card')}, to the middle")
    if d.equalize_by_removing:
        parts.append(f"remove {rank_groups(d.equalize_by_removing)} first if needed")
    if d.upcard:
        parts.append(f"{plural(d.upcard, 'card')} turned up")
    text = "; ".join(parts) or "see the rules"
    return f"{d.players} players: {text}" if d.players is not None else text[0].upper() + text[1:]


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


RANK_PLURALS = {"A": "Aces", "K": "Kings", "Q": "Queens", "J": "Jacks"}


def rank_groups(phrase: str) -> str:
    """'2, 3' -> '2s or 3s': a list of ranks as the cards they name."""
    parts = [p.strip() for p in phrase.split(",") if p.strip()]
    named = [f"{p}s" if p.isdigit() else RANK_PLURALS.get(p.upper(), p) for p in parts]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]


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
    head = {"high": "High score wins", "low": "Low score wins", "first_out": "First player out wins",
            "last_standing": "Last player remaining wins", "first_to_target": "First to the target wins",
            "race": "First to finish wins"}[g.winner]
    parts = [head]
    if g.target is not None:  # a target the players choose ("agree beforehand …, typically 100") is not played to
        verb = "target" if g.qualifiers.get("target") == "typically" else "play to"
        parts.append(f"{verb} {stated(g, 'target', g.target_unit, g.target_unit)}")
    if g.then_back_to is not None:
        parts.append(f"then back down to {stated(g, 'then_back_to')}")
    if g.lose_at is not None:
        parts.append(f"out at {format_value(g.lose_at)}")
    if g.rounds is not None:
        parts.append(plural(g.rounds, "round"))
    return "; ".join(parts)


def glance(body: GameBody, stated_players: str | int | None = None) -> list[tuple[str, str]]:
    """The quick-reference rows for a game or variant: (label, text). A count the page does not state
    (``players_implied``, worked out from a deal table) is not printed: ``stated_players``, the count a source
    states (the edition's index line), is, or none."""
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
        rows.append(("Wild cards", body.wild))
    for table in body.scoring.values():
        values = card_values(table)
        if values:
            rows.append(("Card values" if table.kind == "card_values" else "Counters", values))
    if goal(body.goal):
        rows.append(("To win", goal(body.goal) or ""))
    return [(label, text[:1].upper() + text[1:]) for label, text in rows]


# What a game's page says where its sheet would be, for a game whose rules keep no score (GameBody.keeps_score): a
# race or board game whose rules name no points, or chips and coins that change hands at the table.
NO_SCORE = "No score sheet: its rules keep no score."


# A variant's box row for a field of its game's box that it does not state (Variant.from_game): what its source says
# of it. A field its source states the same way prints no row: the game's stands, true of the variant.
FROM_GAME = {"unstated": "Its source does not say", "in_rules": "See its rules"}
LABEL_FIELDS = {"Players": "players", "Equipment": "equipment", "Deal": "deal", "Wild cards": "wild",
                "Card values": "scoring", "Counters": "scoring", "To win": "goal"}


def variant_glance(variant: Variant, game_rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A variant's "How it differs" rows: its own, and for each row of its game's box it does not state, what its
    source says of it (``FROM_GAME``), in the box's order; a row its source states the same stays the game's."""
    rows = glance(variant)
    own = {label for label, _ in rows}
    for label in dict.fromkeys(label for label, _ in game_rows):
        said = FROM_GAME.get(variant.from_game.get(LABEL_FIELDS[label], ""))  # type: ignore[arg-type]
        if label not in own and said:
            rows.append((label, said))
    order = list(LABEL_FIELDS)
    return sorted(rows, key=lambda row: order.index(row[0]))


def points(item: ScoreItem) -> str:
    """What one item is worth, from its data alone: 'face value', '1 point', '-5 points', '5 cents'."""
    if item.points == "face":
        return "face value"
    if item.points is not None:
        # The source's 'against you' is part of the value: 5 points against you are not 5 points.
        against = " against you" if item.against else ""
        return f"{format_value(item.points)} {'point' if item.points in (1, -1) else 'points'}{against}"
    return plural(item.cents, "cent") if item.cents is not None else ""


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
# How an item earned at a threshold prints it (a bonus: '35 points (at 63 or more)'), unless its ``value`` words it.
THRESHOLD_WORDS = " (at {} or more)"


def item_value(item: ScoreItem, game_data: dict[str, Any], in_round: bool = False) -> str:
    """A score item's value as printed: its own ``value`` text, or 'N points (total T)'."""
    if item.value is not None:
        return expand(item.value, item.model_dump(exclude_none=True), game_data)
    text = "Face value" if item.points == "face" else points(item)
    if in_round and text and (item.unit in COUNTED or item.says_each):
        text += " each"
    if item.stated_total is not None:
        text += f" (total {format_value(item.stated_total)})"
    if item.threshold is not None:
        text += THRESHOLD_WORDS.format(format_value(item.threshold))
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
    """A title as a file name: 'Rock & Roll <Club>' -> 'rock-roll-club', 'Règles du café' -> 'regles-du-cafe'.

    Letters lose their accents and everything else becomes one hyphen, so the name is the same on every system and
    in an address; a title with no Latin letter or digit is named 'book'."""
    # An apostrophe, straight or curly, keeps its word whole ("Tom's" -> 'toms').
    plain = unicodedata.normalize("NFKD", re.sub(r"['\u2019]", "", title)).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "book"


def possessive(whose: str, start: bool = False) -> str:
    """Whose decisions: 'the family' -> "the family's", 'the editors' -> "the editors'"; ``start``: as a sentence
    starts ("The family's"), the rest as written."""
    owner = whose.strip()
    if start:
        owner = owner[:1].upper() + owner[1:]
    return owner + ("'" if owner.endswith("s") else "'s")


def errata_rows(lib: Library) -> list[ErratumRow]:
    """This edition's corrections named by the game or page they are on, never by file or data path.

    A correction of a game this edition no longer prints (retired since) is left out: there is nothing here
    for the reader to correct."""
    rows = []
    printed = lib.book.printed_index
    for e in (e for e in lib.errata if lib.in_edition(e.edition)):
        stem = e.file.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        game_id, _, variant_id = stem.partition(".")
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

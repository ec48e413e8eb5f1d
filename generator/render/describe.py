"""Words for data: the phrases templates print for players, equipment, deals, goals and scores.

Templates never compute; they print what these functions say, so the site, the PDF and the score
sheets read the same facts the same way.
"""

from __future__ import annotations

from typing import Any

from ..model import CardEquipment, Deal, GameBody, Goal, ScoreItem
from ..phrases import parse_players
from ..prose import expand, format_value

COINS = {"cent": ("cent", "cents"), "nickel": ("nickel", "nickels"), "dime": ("dime", "dimes"),
         "quarter": ("quarter", "quarters"), "chip": ("chip", "chips")}


def plural(n: int | float, one: str, many: str | None = None) -> str:
    """'1 deck', '3 decks'."""
    return f"{format_value(n)} {one if n == 1 else (many or one + 's')}"


def players(body: GameBody) -> str:
    """'2-4 players', 'Any number of players', 'Multiples of 4 players'."""
    spec = parse_players(body.players)
    text = spec.describe()
    if text == "any":
        return "Any number of players"
    return f"{text[0].upper()}{text[1:]} players"


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
        text = f"Enough decks for at least {cards.min_cards_each} cards each" if cards.min_cards_each else "Enough decks"
    else:
        text = f"{decks} {'deck' if decks == 1 else 'decks'}"
    text += ", with jokers" if cards.jokers else ", no jokers"
    if cards.per != "game":
        text += f", per {cards.per}"
    if cards.keep:
        text += f"; only {cards.keep} used"
    removed = [r if isinstance(r, str) else (f"{r.copies} of each " if r.copies else "") + r.cards for r in cards.remove]
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
        lines.append(f"Double-{eq.dominoes.set} dominoes" if eq.dominoes.set else "Dominoes (set not stated)")
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


def _deal_one(d: Deal) -> str:
    parts = []
    if d.each == "all":
        parts.append("all cards dealt out" + (" (hands may differ)" if d.uneven else " evenly"))
    elif d.each is not None:
        each = f"{d.each} cards each"
        split = [f"{n} {name}" for name, n in (("in the hand", d.hand), ("in the foot", d.foot),
                                                   ("blind", d.blind), ("face up", d.face_up)) if n]
        parts.append(each + (f" ({', '.join(split)})" if split else ""))
    elif d.hand is not None:
        parts.append(f"{d.hand} cards in the hand" + (f" and {d.foot} in the foot" if d.foot else ""))
    if d.composition:
        parts.append(" + ".join(f"{r.copies or 1} {r.cards}" for r in d.composition) + " each")
    if d.by_round:
        parts.append("cards dealt change each round")
    if d.dealer_gets is not None:
        parts.append(f"the dealer takes {d.dealer_gets}")
    if d.tiles:
        parts.append(f"{d.tiles} tiles each")
    if d.kitty:
        parts.append(f"{d.kitty} to the kitty")
    if d.widow == "hand":
        parts.append("an extra widow hand")
    elif d.widow:
        parts.append(f"{d.widow} to the widow")
    if d.min_remainder:
        parts.append(f"at least {d.min_remainder} left in the middle")
    if d.equalize_by_removing:
        parts.append(f"remove {d.equalize_by_removing} to deal evenly")
    if d.upcard:
        parts.append(f"{plural(d.upcard, 'card')} turned up")
    text = "; ".join(parts) or "see the rules"
    return f"{d.players} players: {text}" if d.players is not None else text[0].upper() + text[1:]


def deal(body: GameBody) -> list[str]:
    """One line per deal rule (several when the deal depends on the number of players)."""
    if body.deal is None:
        return []
    lines = [_deal_one(body.deal)] if body.deal.by_players == [] or body.deal.each or body.deal.upcard else []
    lines += [_deal_one(d) for d in body.deal.by_players]
    if body.deal.implied:
        lines = [line + " (implied, not stated)" for line in lines]
    return lines


def goal(g: Goal | None) -> str | None:
    """'Low score wins; first to 500; out at -150; 9 rounds'."""
    if g is None:
        return None
    head = {"high": "High score wins", "low": "Low score wins", "first_out": "First player out wins",
            "last_standing": "Last player remaining wins", "first_to_target": "First to the target wins",
            "race": "First to finish wins"}[g.winner]
    parts = [head]
    if g.target is not None:
        parts.append(f"play to {format_value(g.target)}")
    if g.then_back_to is not None:
        parts.append(f"then back down to {format_value(g.then_back_to)}")
    if g.lose_at is not None:
        parts.append(f"out at {format_value(g.lose_at)}")
    if g.rounds is not None:
        parts.append(plural(g.rounds, "round"))
    return "; ".join(parts)


def glance(body: GameBody) -> list[tuple[str, str]]:
    """The quick-reference rows for a game or variant: (label, text)."""
    rows: list[tuple[str, str]] = []
    if body.players is not None:
        teams = partnerships(body)  # lower-case its first letter only: round names keep their capitals
        rows.append(("Players", players(body) + (f" ({teams[0].lower()}{teams[1:]})" if teams else "")))
    for line in equipment(body):
        rows.append(("Equipment", line))
    for line in deal(body):
        rows.append(("Deal", line))
    if body.wild:
        rows.append(("Wild cards", body.wild))
    for table in body.scoring.values():
        if table.kind in ("card_values", "counters") and table.items:
            # A value printed from its own item's data ('{points:score}') shows; one that needs the
            # rest of the game's data (a worked example) is left to the table.
            shown = [(i.label, item_value(i, {})) for i in table.items]
            values = ", ".join(f"{label} {text}".strip() for label, text in shown if "{" not in text)
            rows.append(("Card values" if table.kind == "card_values" else "Counters", values))
            break
    if goal(body.goal):
        rows.append(("To win", goal(body.goal) or ""))
    return rows


def item_value(item: ScoreItem, game_data: dict[str, Any], in_round: bool = False) -> str:
    """A score item's value as printed: its own ``value`` text, or 'N points (total T)'."""
    if item.value is not None:
        return expand(item.value, item.model_dump(exclude_none=True), game_data)
    if item.points == "face":
        text = "Face value"
    elif item.points is not None:
        text = f"{format_value(item.points)} {'point' if item.points in (1, -1) else 'points'}"
    elif item.cents is not None:
        text = f"{item.cents} cents"
    else:
        text = ""
    if in_round and item.unit in ("card", "trick", "event") and text:
        text += " each"
    if item.stated_total is not None:
        text += f" (total {format_value(item.stated_total)})"
    return text


def page_range(pages: dict[str, int], game_id: str, unknown: str = "") -> str:
    """Where a game is printed: '15', or '7–8' when it runs over pages; ``unknown`` before layout."""
    start, end = pages.get(f"game-{game_id}"), pages.get(f"end-{game_id}")
    if start is None:
        return unknown
    return str(start) if end in (None, start) else f"{start}–{end}"

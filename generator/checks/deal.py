"""Deal arithmetic: for every player count a game claims, the deal fits the equipment."""

from __future__ import annotations

from collections.abc import Iterator

from ..book import index as book_index
from ..book.cards import domino_tiles, parse_cards
from ..book.equipment import deal_for, each, tables
from ..book.library import Library
from ..book.model import Deal, GameBody
from ..book.phrases import PLAYER_HORIZON, parse_players
from ..book.words import _
from . import Body, Found, bodies, check, listing


def round_sizes(b: Body, players: int) -> list[int]:
    """Cards dealt each round, when the rounds set them."""
    rounds = b.rules.rounds
    if rounds is None:
        return []
    sizes = [r.each for r in rounds.items if r.each is not None]
    for s in rounds.sequences:
        if s.players is None or parse_players(s.players).allows(players):
            sizes.append(s.start)
    if rounds.ranks:
        sizes.append(13)  # one round per rank: the largest hand is a King's 13 (an Ace-high rank: 14)
        if "a" in rounds.ranks.lower().split("-"):
            sizes.append(14)
    return sizes


def needed(deal: Deal, players: int, sizes: list[int]) -> tuple[int, str] | None:
    """Cards (or tiles) the deal needs for ``players``, and the sum written out."""
    per = each(deal, sizes)
    if per is None:
        return None
    parts = [f"{players} x {per}"]
    total = players * per
    if deal.dealer_gets is not None:
        total += deal.dealer_gets - per
        parts = [f"{players - 1} x {per} + {deal.dealer_gets}"]
    if deal.kitty:
        total += deal.kitty
        parts.append(_("%(count)s kitty", count=deal.kitty))
    if deal.upcard:
        total += deal.upcard
        parts.append(_("%(count)s upcard", count=deal.upcard))
    if deal.widow == "hand":
        total += per
        parts.append(_("%(count)s widow", count=per))
    elif isinstance(deal.widow, int):
        total += deal.widow
        parts.append(_("%(count)s widow", count=deal.widow))
    return total, " + ".join(parts)


def claimed_counts(b: Body) -> tuple[list[int], bool]:
    """The player counts to check, and whether the claim is bounded."""
    spec = parse_players(b.rules.players)
    return spec.counts(), spec.bounded


def named_counts(b: Body) -> set[int]:
    """Player counts the data names in a line of its own (a deal, a deck count or a run of hands for
    '7 to 8 players'): a claim of 'any number' does not make those lines any less explicit."""
    rules, named = b.rules, set()
    lines = [*(rules.deal.by_players if rules.deal else []), *(rules.equipment.cards if rules.equipment else []),
             *(rules.rounds.sequences if rules.rounds else [])]
    for line in lines:
        if line.players is not None and parse_players(line.players).bounded:
            named.update(parse_players(line.players).counts())
    return named


def _card_problems(b: Body, n: int) -> tuple[str | None, str | None]:
    """(does not fit, cannot be dealt evenly) messages for ``n`` players, or None; cards or tiles."""
    key = ("deal", n)
    if key not in b.memo:
        b.memo[key] = _work_out(b, n)
    return b.memo[key]


def _work_out(b: Body, n: int) -> tuple[str | None, str | None]:
    deal = deal_for(b.rules, n)
    if deal is not None and deal.tiles is not None:
        return _tiles(b, n, deal.tiles), None
    if deal is None:
        return None, None
    sizes = round_sizes(b, n)
    found = tables(b.rules, n, per_player_cards=each(deal, sizes))
    if not found:
        return None, None
    seats = {"table": 4, "couple": 2}.get(found[0].config.per)
    group = seats or n
    best = max(found, key=lambda t: len(t.cards))
    fit = None
    need = needed(deal, group, sizes)
    if need is not None and need[0] > len(best.cards):
        fit = _("%(players)s players: %(sum)s = %(cards)s cards, but %(deck)s", players=n, sum=need[1], cards=need[0],
                deck=best.describe())
    uneven = None
    if deal.each == "all" and not deal.uneven:
        size = len(best.cards)
        spare = best.cards.count(parse_cards(deal.equalize_by_removing)) if deal.equalize_by_removing else 0
        keep = deal.min_remainder or 0
        leftover = size - group * ((size - keep) // group)
        if group > size:
            uneven = _("%(players)s players: %(deck)s cannot give everyone a card", players=n, deck=best.describe())
        elif deal.min_remainder is None and size % group > spare:
            uneven = (_("%(players)s players: %(size)s cards do not deal out evenly (%(left)s left over, and only "
                        "%(spare)s may be removed)", players=n, size=size, left=size % group, spare=spare)
                      if deal.equalize_by_removing else
                      _("%(players)s players: %(size)s cards do not deal out evenly (%(left)s left over)", players=n,
                        size=size, left=size % group))
        elif deal.min_remainder is not None and (size - keep) // group < 1:
            uneven = _("%(players)s players: %(size)s cards cannot give everyone a card and keep %(keep)s in the middle",
                       players=n, size=size, keep=keep)
        elif deal.min_remainder is not None and leftover < keep:
            uneven = _("%(players)s players: cannot keep %(keep)s cards in the middle", players=n, keep=keep)
    return fit, uneven


def _summarise(counts: list[int]) -> str:
    runs, start = [], None
    for i, n in enumerate(counts):
        if start is None:
            start = n
        if i + 1 == len(counts) or counts[i + 1] != n + 1:
            runs.append(str(start) if start == n else f"{start}-{n}")
            start = None
    return listing(runs)


def players_that_work(body: GameBody) -> list[int]:
    """The player counts a game claims for which its deal actually fits (open claims cut at the horizon)."""
    b = Body(gs=None, rules=body)  # type: ignore[arg-type]  # no file: used for the finder, not for findings
    if body.players is None:
        return []
    counts, _ = claimed_counts(b)
    works = []
    for n in counts:
        fit, even = _card_problems(b, n)
        if not fit and not even:
            works.append(n)
    return works


def _bounded_problems(lib: Library, which: int) -> Iterator[Found]:
    """Findings for each player count a claim must serve: ``which`` 0 = does not fit, 1 = uneven.

    A bounded claim must work for every count it allows. An open-ended one ("any number", "2 or
    more") must at least work for its smallest count: if even that fails, no table can play the
    game; and for every count a line of the data names ("7 to 8 players: 8 tiles"). Its other
    counts are reported once, as a warning, by players.unbounded.
    """
    for b in bodies(lib):
        if b.rules.players is None:
            continue
        counts, bounded = claimed_counts(b)
        named = set() if bounded else named_counts(b) & set(counts)
        for n in counts if bounded else sorted(set(counts[:1]) | named):
            problem = _card_problems(b, n)[which]
            if problem:
                if bounded or n in named:
                    yield b.at("deal"), f"{b.name}{problem}", b.game
                else:
                    yield (b.at("deal"), _("%(name)s'%(players)s' players, even the fewest: %(problem)s", name=b.name,
                                           players=b.rules.players, problem=problem), b.game)


@check("deal.exceeds_deck")
def exceeds_deck(lib: Library) -> Iterator[Found]:
    """For a player count the game claims, the deal needs more cards or tiles than the equipment has."""
    return _bounded_problems(lib, 0)


def _tiles(b: Body, n: int, tiles: int) -> str | None:
    """Why ``n`` players cannot each take ``tiles`` dominoes from the set, or None."""
    eq = b.rules.equipment
    if eq is None or eq.dominoes is None or eq.dominoes.set is None:
        return None  # an unnamed set is spec.vague_equipment's to report
    have = domino_tiles(eq.dominoes.set)
    if n * tiles <= have:
        return None
    return _("%(players)s players: %(players)s x %(tiles)s = %(total)s tiles, but a double-%(set)s set has %(have)s",
             players=n, tiles=tiles, total=n * tiles, set=eq.dominoes.set, have=have)


@check("deal.uneven")
def uneven(lib: Library) -> Iterator[Found]:
    """'Deal all the cards equally' is impossible for a claimed player count, even with the removals allowed."""
    return _bounded_problems(lib, 1)


@check("players.unbounded", "warning")
def unbounded(lib: Library) -> Iterator[Found]:
    """A game claims any number of players, but its deal only works up to some number."""
    for b in bodies(lib):
        if b.rules.players is None:
            continue
        if b.rules.players_implied:  # worked out from the deal: the count a source states is the one printed
            stated = book_index.stated_players(lib, b.gs.game) if b.variant is None else None
            if stated is not None and not parse_players(stated).bounded:
                yield (b.at("players"), _("%(name)s'%(stated)s' players (as the book states), but its deal covers only "
                                          "%(covered)s (players_implied: %(implied)s)", name=b.name, stated=stated,
                                          covered=parse_players(b.rules.players).describe(), implied=b.rules.players),
                       b.game)
            continue
        counts, bounded = claimed_counts(b)
        if bounded:
            continue
        failing = [n for n in counts if any(_card_problems(b, n))]
        if failing:
            works = [n for n in counts if n not in failing]
            values = {"name": b.name, "players": b.rules.players, "failing": _summarise(failing),
                      "horizon": PLAYER_HORIZON}
            yield (b.at("players"), _("%(name)s'%(players)s' players, but the deal fails for %(failing)s (works for "
                                      "%(works)s) (checked up to %(horizon)s)", works=_summarise(works), **values)
                   if works else _("%(name)s'%(players)s' players, but the deal fails for %(failing)s (checked up to "
                                   "%(horizon)s)", **values), b.game)

"""Score-sheet layout from data: which pages, columns and rows a score sheet has, and its files.

A sheet's rows come from the game's data where it lists them (the rounds, a down-and-up
sequence of hands, one round per rank, a counted number of rounds); otherwise a block gets as
many blank hand rows as fit on the page (the PDF stage finds how many). A game whose hands
depend on the number of players (Oh Hell!: 10 down to 1 and back for 3-5 players, 7 down to 1
and back for 6 or 7) gets one page per sequence, each with that many player columns.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...book.equipment import doubles_played, top_double
from ...book.model import ScoreSheet, SheetBlock
from ...book.phrases import parse_players
from ...book.words import _, current
from .describe import coins_plural, partnerships, players_phrase
from .describe import goal as goal_words

ANY_PLAYERS = 8  # columns for a game that allows any number of players (a big family table)
MAX_PLAYER_COLUMNS = 12  # a sheet never has more player columns than this
# The most players a running total is kept for: two boxes a player (12 mm and wider) across a landscape page.
# A sheet for more (Trash, 4-10 players) keeps one box a player and a Total.
MAX_RUNNING_PLAYERS = 8
HAND_DIGITS = 5  # a hand's box beside a running total is drawn for a sign and four digits
RANKS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]


@dataclass(frozen=True)
class SheetPart:
    """One page of a blank sheet: the whole sheet, or the hands of one sequence for some player counts."""

    players: int  # player columns
    sequence: int | None = None  # index into rounds.sequences
    caption: str | None = None  # "For 6 or 7 players"


def _top_players(players: Any) -> int:
    if players is None:
        return ANY_PLAYERS
    spec = parse_players(players)
    top = max(spec.counts()) if spec.bounded else max(ANY_PLAYERS, spec.low)
    return max(2, min(top, MAX_PLAYER_COLUMNS))


def player_count(body: Any) -> int:
    """How many player columns a sheet gets: the most players allowed, within reason."""
    return _top_players(body.players)


def sheet_parts(view: Any) -> list[SheetPart]:
    """The pages of a blank sheet: one per sequence of hands if the sequence depends on the players."""
    sheet, rounds = view.body.score_sheet, view.body.rounds
    by_sequence = sheet is not None and any(b.rows_from == "sequence" for b in sheet.blocks)
    if by_sequence and rounds is not None and len(rounds.sequences) > 1:
        return [SheetPart(_top_players(s.players), i,
                          _("For %(count)s players", count=players_phrase(s.players)) if s.players is not None else None)
                for i, s in enumerate(rounds.sequences)]
    return [SheetPart(player_count(view.body))]


def is_team_sheet(view: Any) -> bool:
    """Partners score together: one column per side."""
    return getattr(view.body, "partnerships", None) in ("partners", "teams")


def sheet_columns(view: Any, block: SheetBlock, part: SheetPart | None = None) -> list[str]:
    """Column headings: the block's own, or one (or several) per player."""
    if not block.player_columns:
        return list(block.columns)
    if is_team_sheet(view):  # a side's boxes as a player's: 500 Rummy's bidding team writes its Bid beside its Score
        return [_("Team %(n)s", n=i) for i in (1, 2)] if len(block.columns) <= 1 else [
            _("Team %(n)s: %(column)s", n=i, column=c) for i in (1, 2) for c in block.columns]
    n = part.players if part else player_count(view.body)
    if len(block.columns) <= 1:
        return [_("Player %(n)s", n=i) for i in range(1, n + 1)]
    return [f"{i}: {c}" for i in range(1, n + 1) for c in block.columns]


def name_cells(view: Any, block: SheetBlock, part: SheetPart | None = None) -> list[int]:
    """The widths (in columns) of the cells a block's players write their names in; none if not by player."""
    if not block.player_columns:
        return []
    per_player = 1 if len(block.columns) <= 1 else len(block.columns)
    return [per_player] * (len(sheet_columns(view, block, part)) // per_player)


def sequence_sizes(view: Any, index: int = 0) -> list[int]:
    """The hand sizes of one down-and-up sequence: 10, 9, ... 1, 2, ... 10."""
    s = view.body.rounds.sequences[index]
    return list(range(s.start, s.low - 1, -1)) + (list(range(s.low + 1, s.start + 1)) if s.back_up else [])


def rank_rounds(ranks: str) -> list[str]:
    """One row per rank of a rounds-by-rank game ('3-K'): '3s', '4s', ... 'Ks'."""
    from ...book.cards import parse_cards, rank_name

    pred = parse_cards(ranks)
    return [f"{rank_name(r)}s" for r in RANKS if pred((r, "spades"))]


def open_ended(body: Any) -> bool:
    """Hands played up the doubles of a set the rules do not name (Chicken Foot: 'First round starts with 0-0 and
    continues up to the next double each round'): the rules say where they start, not which doubles the set has nor
    which is the last, so the sheet names none of them: its rows are numbered hands, as many as the page holds."""
    rounds = body.rounds
    return bool(rounds and rounds.doubles and rounds.doubles.order == "up" and top_double(body) is None)


def double_rows(body: Any) -> list[str]:
    """One row per double in the rules' order, in their notation ('Double 12' … 'Double blank'); none for a set the
    rules do not name."""
    doubles = body.rounds.doubles
    return [doubles.blank if n == 0 and doubles.blank else doubles.label.replace("{n}", str(n))
            for n in doubles_played(body)]


def sheet_rows(view: Any, block: SheetBlock, blank_rows: int | None = None,
               part: SheetPart | None = None) -> list[str]:
    """Row labels: listed, from the rounds, from the named round's hands; padded with blanks."""
    rows: list[str] = [] if block.example_rows and part is not None else list(block.rows)
    rounds = view.body.rounds
    wanted = blank_rows if blank_rows is not None else block.blank_rows
    if block.round and rounds is not None and not rows:
        rnd = sheet_round(view, block)
        rows = list(rnd.hands) if rnd else []
    if block.rows_from == "rounds" and rounds is not None:
        # A round's label carries what the player must know while scoring: its meld or minimum.
        rows = [r.name + (f" – {r.meld}" if r.meld else f" – minimum meld {r.min_meld}" if r.min_meld else "")
                for r in rounds.items]
        if rounds.then_reversed:
            # Numbered on as the rules number the hands ('7-12 are the same hands reversed'): '7 (as 6)'.
            rows += [f"{len(rows) + i} (as {label})" for i, label in enumerate(reversed(rows), 1)]
        if rounds.ranks and not rounds.items:
            rows = [f"{label} wild" for label in rank_rounds(rounds.ranks)]
        if rounds.doubles:
            rows = double_rows(view.body)
    elif block.rows_from == "sequence" and rounds is not None and rounds.sequences:
        rows = [f"{n} card" + ("" if n == 1 else "s") for n in sequence_sizes(view, part.sequence if part and part.sequence else 0)]
    if wanted and len(rows) < wanted:
        rows += [""] * (wanted - len(rows))
    return rows


def sheet_round(view: Any, block: SheetBlock) -> Any:
    """The round a block keeps score for, if it names one."""
    rounds = view.body.rounds
    if block.round is None or rounds is None:
        return None
    return next((r for r in rounds.items if r.name == block.round), None)


def fills_page(view: Any, block: SheetBlock) -> bool:
    """A block whose rows the data does not list: it gets as many blank hand rows as fit."""
    rounds = view.body.rounds
    listed = (bool(block.rows) and not block.example_rows) or block.rows_from is not None \
        or (block.round is not None and rounds is not None)
    if block.rows_from == "rounds" and open_ended(view.body):
        listed = False
    return not block.sample_only and not listed


def sample_cells(view: Any, sheet: Any, block: SheetBlock) -> list[list[str]]:
    """A sample block's cells: each names a figure of the sheet's worked example (or is literal)."""
    from ...book.prose import format_value

    figures = view.examples().get(sheet.example or "", {})
    rows = []
    for row in block.sample:
        cells = []
        for cell in row:
            if cell is None:
                cells.append("")
            elif cell in figures:
                computed, stated, _where = figures[cell]
                cells.append(format_value(stated if stated is not None else computed))
            else:
                cells.append(view.text(cell))
        rows.append(cells)
    return rows


def sample_totals(view: Any, sheet: Any, block: SheetBlock) -> list[str]:
    """A sample block's Total row, as a filled sheet would show it: each column its total adds, its figures added up
    ('' for a column the total does not add, or one with no figure)."""
    from ...book.prose import format_value

    figures = view.examples().get(sheet.example or "", {})
    width = max((len(row) for row in block.sample), default=0)
    out = []
    for c in range(width):
        values = []
        for row in block.sample:
            cell = row[c] if c < len(row) else None
            if cell in figures:
                computed, stated, _ = figures[cell]
                value = stated if stated is not None else computed
                if isinstance(value, int | float) and not isinstance(value, bool):
                    values.append(value)
        heading = block.columns[c % len(block.columns)] if block.columns else ""
        out.append(format_value(sum(values)) if values and _summed(block, heading) else "")
    return out


def sample_running(view: Any, sheet: Any, block: SheetBlock) -> list[list[str]]:
    """A sample block's running totals, as a filled sheet of a block that keeps one (``is_running``) shows them: per
    row, per column, the column's figures added down to that row, shown where the row has a figure in the column."""
    from ...book.prose import format_value

    figures = view.examples().get(sheet.example or "", {})
    sums: dict[int, int | float] = {}
    rows = []
    for row in block.sample:
        cells = []
        for c, cell in enumerate(row):
            computed, stated, _where = figures.get(cell, (None, None, None)) if cell is not None else (None, None, None)
            value = stated if stated is not None else computed
            if isinstance(value, int | float) and not isinstance(value, bool):
                sums[c] = sums.get(c, 0) + value
                cells.append(format_value(sums[c]))
            else:
                cells.append("")
        rows.append(cells)
    return rows


def _generic_block(body: Any) -> SheetBlock:
    """The block a game without a sheet of its own keeps, by what its rules keep (``keeps``)."""
    rounds, goal, keeps = body.rounds, body.goal, body.keeps or "points"
    listed = bool(rounds and (rounds.items or rounds.ranks or rounds.doubles))
    counted = goal.rounds if goal and goal.rounds and not listed else None
    rows = [_("Round %(n)s", n=i) for i in range(1, counted + 1)] if counted else []
    rows_from = "rounds" if listed else None
    if keeps == "melds":  # each player marks the meld they have made; a race has no total
        return SheetBlock(columns=[_("Score")], player_columns=True, rows_from=rows_from, rows=rows)
    title = None
    if keeps == "lives" and body.equipment and body.equipment.stakes:
        title = _("%(coins)s lost", coins=_coins(body).capitalize())  # 'loses a dime'
    elif keeps == "tally" and goal and goal.target_unit:
        title = goal.target_unit.capitalize()  # 'collect 7 sticks'
    if keeps == "bid_made":
        score = _("Score")
        return SheetBlock(title=title, columns=[_("Bid"), score], player_columns=True,
                          rows_from="sequence" if rounds and rounds.sequences else rows_from, rows=rows,
                          total=_("Total"), sums=[score])
    return SheetBlock(title=title, columns=[_("Score")], player_columns=True, rows_from=rows_from, rows=rows,
                      total=_("Total"))


def generic_sheet(heading: str, body: Any) -> ScoreSheet:
    """A score sheet for a game that has none of its own: one column per player, a row per round, kept
    as its rules keep score (``keeps``)."""
    return ScoreSheet(title=_("%(game)s score sheet", game=heading), fields=[_("Date")], blocks=[_generic_block(body)])


def ordinal(n: int) -> str:
    """'1st', '2nd', '3rd', '11th', '22nd'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def row_name(row_label: str, label: str, n: int, after: bool = False) -> str:
    """What row ``n`` (from 1) records, for a box's name: its label, or else its block's ``row_label`` filled in
    ('Hand 3', '3rd time a team scores'); ``after``: as it follows 'Total after' ('hand 3')."""
    if label:
        return label
    # The model's default is the tool's words ('Hand 3'), in the book's language; a row label the rules give is theirs.
    if row_label == "Hand {n}":
        return _("hand %(n)s", n=n) if after else _("Hand %(n)s", n=n)
    name = row_label.replace("{nth}", ordinal(n)).replace("{n}", str(n))
    return name[:1].lower() + name[1:] if after else name


def column_groups(block: SheetBlock) -> list[str | None]:
    """Per column of a block's own, the heading its group gives it (Gin Rummy's 'Guys' over Game 1-3), if any."""
    out: list[str | None] = []
    for group in block.groups:
        out += [group.label] * group.span
    return (out + [None] * len(block.columns))[:len(block.columns)]


def player_heading(view: Any, n: int) -> str:
    """The heading over player (or team) ``n``'s columns, from 1: 'Player 2', 'Team 1'."""
    return _("Team %(n)s", n=n) if is_team_sheet(view) else _("Player %(n)s", n=n)


def player_groups(view: Any, block: SheetBlock, part: SheetPart | None = None) -> list[tuple[str, int]]:
    """The headings a blank sheet (a ``part``) draws over each player's several columns, each (heading, columns
    spanned): 500 Rummy's 'Team 1' over its Bid and Score; none where a player has one column (or on the book's
    sheet, whose columns are headed '1: Bid')."""
    names = name_cells(view, block, part) if part else []
    if not names or names[0] <= 1 or is_running(view, block):
        return []
    return [(player_heading(view, n), span) for n, span in enumerate(names, 1)]


def drawn_columns(view: Any, block: SheetBlock, part: SheetPart | None = None) -> list[tuple[str | None, str]]:
    """Per column, as the sheet draws it: the heading over it and its neighbours (a player's or team's over their
    columns, a group's), if any, and its own heading ('Bid' under 'Team 1', 'Game 1' under 'Guys')."""
    columns = sheet_columns(view, block, part)
    players = player_groups(view, block, part)
    if players:
        per = players[0][1]
        return [(players[i // per][0], block.columns[i % per]) for i in range(len(columns))]
    over: list[str | None] = []
    for group in block.groups:
        over += [view.text(group.label)] * group.span
    return list(zip((over + [None] * len(columns))[:len(columns)], columns, strict=True))


def column_titles(view: Any, block: SheetBlock, part: SheetPart | None = None) -> list[str]:
    """Each column's full name, as a person reads it on the sheet: the heading over its group before its own
    ('Guys – Game 1'; a player's, 'Team 1, Bid'): two columns of one heading under two groups are two boxes, not
    one name twice, and a box is named by what heads it (a form field's tooltip, tests/tagtree.py)."""
    if player_groups(view, block, part):
        return [f"{group}, {label}" for group, label in drawn_columns(view, block, part)]
    return [f"{group} – {label}" if group else label for group, label in drawn_columns(view, block, part)]


@dataclass(frozen=True)
class SheetColumn:
    """A column to write in: whose it is (player or team, from 1; none for a column of the block's own)."""

    label: str  # the heading: 'Player 2', 'Team 1', '2: Bid', 'Game 1'
    player: int | None
    summed: bool  # the block's total adds this column
    group: str | None = None  # the heading over it and its neighbours ('Guys'), if the sheet draws one
    part: str | None = None  # of a block with several columns a player, which of them this is: 'Bid', 'Score'

    @property
    def title(self) -> str:
        """The column's full name: 'Guys – Game 1', or its heading alone."""
        return f"{self.group} – {self.label}" if self.group else self.label


@dataclass(frozen=True)
class SheetTable:
    """One block of a sheet as it is kept: its columns, its rows, and the total that adds them."""

    title: str | None
    columns: tuple[SheetColumn, ...]
    rows: tuple[str, ...]  # row labels; '' for a blank hand row
    total: str | None  # the total row's label (a running block's: the heading of its totals so far); none if no total
    sums: tuple[int, ...]  # the rows (by index) the total adds in each summed column
    names: tuple[int, ...]  # the widths (in columns) of the cells players write their names in
    running: bool = False  # each summed column carries, beside each hand, the total so far (``is_running``)
    carries: tuple[int | None, ...] = ()  # per row, the table (by index) whose total the row carries (a grand total)
    groups: tuple[tuple[str, int], ...] = ()  # headings over runs of columns: (label, how many columns)
    row_label: str = "Hand {n}"  # what an unlabelled row records (SheetBlock.row_label)

    def row_name(self, i: int, after: bool = False) -> str:
        """What row ``i`` (from 0) records, for a box's name: its label, or 'Hand 3' ('hand 3' ``after``)."""
        return row_name(self.row_label, self.rows[i], i + 1, after)


@dataclass(frozen=True)
class Sheet:
    """What a score sheet keeps, for every renderer (the PDF form, the site's score keeper).

    The winner rule is the game's stated goal (``goal.winner``: high, low, first_to_target, ...),
    with its stated target and losing score; none where the rules state no goal."""

    title: str
    caption: str | None
    fields: tuple[str, ...]
    tables: tuple[SheetTable, ...]
    keeps: str  # what the sheet records (GameBody.keeps): points, bid_made, lives, tally, melds
    start: int | None  # lives each player starts with (the stakes), for a sheet that keeps lives
    coins: str | None  # what the lives are, as the stakes name them ('quarters', 'dimes'), for a sheet that keeps lives
    winner: str | None
    target: int | None
    lose_at: int | None
    negative: bool  # an entry can be below zero (``can_be_negative``): the keeper offers a minus key
    to_win: str | None  # the goal in the words of the book's box ("To win", ``describe.goal``); none if unstated
    back_to: int | None = None  # the score played back down to after the target (``goal.then_back_to``: Dice's 0)
    halves: str | None = None  # a sheet scored in halves (``ScoreSheet.halves``): the book's language's decimal sign


def _coins(body: Any) -> str | None:
    """The stakes' coin in the plural ('quarters'), or none if the game plays for no stakes."""
    return coins_plural(body.equipment.stakes.coin) if body.equipment and body.equipment.stakes else None


SIGNED = ("points", "bid_made")  # sheets whose entries are scores; lives, a tally and melds are counts


def can_be_negative(body: Any) -> bool:
    """Whether a score the sheet records can be below zero, by what the data states: a score item below zero
    ('deducts 25 points') or counted against the player, cards in hand counted against the table, a goal
    (a target, a losing score) below zero, or a goal that comes back down from its target (Dice: "at least
    10,000 and then back down to zero or less", each turn then taken off). A sheet of counts never is."""
    if (body.keeps or "points") not in SIGNED:
        return False
    tables = list(body.scoring.values())
    items = [i for t in tables for i in t.items] + [i for r in (body.rounds.items if body.rounds else []) for i in r.scoring]
    goal = body.goal
    return (any(i.against or (isinstance(i.points, int | float) and i.points < 0) for i in items)
            or any(t.held_against for t in tables)
            or any(n is not None and n < 0 for n in ((goal.target, goal.lose_at) if goal else ()))
            or bool(goal and goal.target is not None and goal.then_back_to is not None
                    and goal.then_back_to < goal.target))


def is_running(view: Any, block: SheetBlock) -> bool:
    """Whether a block keeps a running total: beside each hand's box, each player's total so far (a family playing
    to 100 or 500 sees who is near the target). For a game kept in points whose block has one box a player in a
    row of hands, added up; not for bids beside what was made, lives, tallies or melds, not for a named
    round's hands (a card with a Score column of its own), not for rows that carry other blocks' totals, nor for a
    block whose total another block carries (its Total row is drawn, for the row that carries it to read), not for
    more than MAX_RUNNING_PLAYERS."""
    return ((view.body.keeps or "points") == "points" and block.player_columns and len(block.columns) <= 1
            and block.total is not None and block.round is None and not block.carries
            and not carried_by_another(view.body.score_sheet, block)
            and (is_team_sheet(view) or player_count(view.body) <= MAX_RUNNING_PLAYERS))


def running_share(view: Any) -> float:
    """The share of a player's two boxes that the total so far takes: half, or more where the game's largest
    stated score (its target, or the score that loses) has more digits than a hand's box is drawn for."""
    goal = view.body.goal
    stated = [abs(n) for n in (goal.target, goal.lose_at) if n is not None] if goal and not goal.implied else []
    total = max(HAND_DIGITS, len(str(max(stated))) + 1 if stated else 0)  # a digit more for a sign
    return total / (HAND_DIGITS + total)


def _summed(block: SheetBlock, heading: str) -> bool:
    return block.total is not None and (block.sums is None or heading in block.sums)


def sheet_table(view: Any, block: SheetBlock, blank_rows: int | None = None, part: SheetPart | None = None) -> SheetTable:
    """One block of a sheet as a table of columns and rows, with what its total adds."""
    labels = sheet_columns(view, block, part)
    names = tuple(name_cells(view, block, part))
    if block.player_columns:
        per = names[0] if names else 1
        columns = tuple(SheetColumn(label, i // per + 1,
                                    _summed(block, block.columns[i % per] if per > 1 else block.columns[0]),
                                    part=block.columns[i % per] if per > 1 else None)
                        for i, label in enumerate(labels))
    else:
        columns = tuple(SheetColumn(label, None, _summed(block, label), view.text(group) if group else None)
                        for label, group in zip(labels, column_groups(block), strict=True))
    rows = tuple(view.text(r) if r else r for r in sheet_rows(view, block, blank_rows, part))
    rnd = sheet_round(view, block)
    title = block.title or (rnd.name if rnd else None)
    return SheetTable(view.text(title) if title else None, columns, rows,
                      view.text(block.total, block.model_dump(exclude_none=True)) if block.total else None,
                      tuple(range(len(rows))) if block.total else (), names, is_running(view, block),
                      groups=tuple((view.text(g.label), g.span) for g in block.groups), row_label=block.row_label)


def carried_by_another(sheet: Any, block: SheetBlock) -> bool:
    """Whether a row of another block of ``sheet`` (a ScoreSheet, or None) carries ``block``'s total."""
    return bool(sheet and block.heading and any(block.heading in other.carries for other in sheet.blocks
                                                if other is not block))


def carried_blocks(blocks: list[SheetBlock], block: SheetBlock) -> list[int | None]:
    """Per row of a block that carries other blocks' totals (``carries``), the block (its index among ``blocks``)
    whose total the row carries; none for a row of the block's own (a bonus the players write in) or a name that is
    no other block with a total (sheet.unfit reports it)."""
    totalled = {b.heading: i for i, b in enumerate(blocks) if b.total is not None and b is not block}
    return [totalled.get(name) for name in block.carries]


def summed_columns(view: Any, block: SheetBlock, part: SheetPart | None = None) -> list[bool]:
    """Per column of a block, whether its total adds it (the template draws a total box only there)."""
    return [c.summed for c in sheet_table(view, block, None, part).columns]


def sheet_definition(view: Any, heading: str, part: SheetPart | None = None, blank_rows: int | None = None) -> Sheet:
    """The sheet a game (headed ``heading``) is kept on, its own or the generic one: one page of blank rows."""
    body = view.body
    sheet = body.score_sheet or generic_sheet(heading, body)
    goal = body.goal
    kept = [i for i, b in enumerate(sheet.blocks) if not b.sample_only]
    tables = tuple(replace(sheet_table(view, b, blank_rows if fills_page(view, b) else None, part),
                           carries=tuple(kept.index(c) if c in kept else None for c in carried_blocks(sheet.blocks, b)))
                   for b in (sheet.blocks[i] for i in kept))
    return Sheet(view.text(sheet.title), part.caption if part else None,
                 tuple(sheet.fields or ([_("Date")] if part else [])), tables, body.keeps or "points",
                 body.equipment.stakes.start if body.equipment and body.equipment.stakes else None,
                 _coins(body),
                 goal.winner if goal else None, goal.target if goal else None, goal.lose_at if goal else None,
                 can_be_negative(body), goal_words(goal), goal.then_back_to if goal else None,
                 decimal_sign() if sheet.halves else None)


def decimal_sign() -> str:
    """The decimal sign of the book's language ('.' in English, ',' in German): what a score box scored in halves
    reads between a score's whole points and its half, besides '.', and writes a half total with."""
    from babel import Locale, UnknownLocaleError

    try:
        sign = Locale.parse(current().language.replace("-", "_")).number_symbols.get("latn", {}).get("decimal", ".")
    except (UnknownLocaleError, ValueError, TypeError):
        return "."
    return sign if sign in (".", ",") else "."  # a sign the keeper and the form read beside a digit, unquoted


@dataclass(frozen=True)
class SheetFile:
    """One score sheet of the edition: its number in the score pad and its own file."""

    number: int
    game_id: str
    variant_id: str | None
    heading: str

    @property
    def key(self) -> str:
        """The sheet's name in file names and form-field names: 'oh-hell', 'gin-rummy.standard-gin-rummy'."""
        return f"{self.game_id}.{self.variant_id}" if self.variant_id else self.game_id

    @property
    def filename(self) -> str:
        """The sheet's own PDF, under score-sheets/."""
        return f"{self.key}.pdf"


def has_own_sheet(variant: Any) -> bool:
    """A variant has a sheet of its own if it states one, or keeps score otherwise than its game."""
    return bool({"score_sheet", "keeps"} & variant.model_fields_set)


def sheet_files(pages: list[Any]) -> list[SheetFile]:
    """Every score sheet, in book order: each game's that keeps score, then each variant's that has a sheet of its own."""
    out: list[SheetFile] = []
    for page in pages:
        if page.main.body.keeps_score():
            out.append(SheetFile(len(out) + 1, page.id, None, page.heading()))
        for variant, _view in page.variants:
            if has_own_sheet(variant):
                out.append(SheetFile(len(out) + 1, page.id, variant.id, f"{page.heading()} – {variant.title}"))
    return out


def score_pad_name(edition_id: str) -> str:
    """The score pad's file name, beside the book."""
    return f"score-pad-{edition_id}.pdf"


def template_globals() -> dict[str, Any]:
    """What the score-sheet macros call, for the site's and the print templates' environments."""
    return {"sheet_parts": sheet_parts, "sheet_columns": sheet_columns, "sheet_rows": sheet_rows, "sheet_round": sheet_round,
            "sample_cells": sample_cells, "name_cells": name_cells, "fills_page": fills_page,
            "is_team_sheet": is_team_sheet, "sample_totals": sample_totals, "sample_running": sample_running, "is_running": is_running, "carried_blocks": carried_blocks, "running_share": running_share,
            "summed_columns": summed_columns, "row_name": row_name, "column_titles": column_titles,
            "player_groups": player_groups, "decimal_sign": decimal_sign}


KEEPER_BLANK_ROWS = 12  # hand rows the site's score keeper starts with for a game whose rows are not listed
KEEPER_START_PLAYERS = 4  # players a keeper starts with, within the game's stated count


@dataclass(frozen=True)
class Keeper:
    """One sheet of the site's score keeper: the sheet definition and the player counts it may show."""

    sheet: Sheet
    key: str  # the sheet's name in the browser's storage: 'hearts', 'oh-hell-2'
    columns: int  # player columns drawn (the most the keeper shows)
    counts: tuple[int, ...]  # the player counts the keeper offers: the stated ones that fit its columns
    start: int  # the count it starts with
    teams: bool  # one column per side: the count is fixed
    open: bool = False  # the rules set no most players ('Any', '6 or more'): players are added past the columns drawn
    step: int = 1  # of an open count, the players added at a time ('Any even number': 2)
    floor_stated: bool = True  # the least count is the rules' ('at least 6'), not the keeper's 2 for 'Any'
    sides: str = ""  # a team sheet's partnerships, as the box says them ('In partnerships')

    def players(self) -> str:
        """The players the keeper offers, in words ('Any number of players', '6 or more players', '3-5 players')."""
        if self.teams:  # a column a side, whatever the count
            return self.sides
        low, high = self.counts[0], self.counts[-1]
        if self.open:
            return _("%(count)s or more players", count=low) if self.floor_stated else (
                _("Any number of players") if self.step == 1 else _("Multiples of %(count)s players", count=self.step))
        return _("%(count)s players", count=low if low == high else f"{low}-{high}")


def keepers(view: Any, heading: str, key: str, stated_players: str | int | None = None) -> list[Keeper]:
    """The site's score keeper for a game: one per page of its sheet, each the sheet definition the PDF uses.
    ``stated_players``: the count a source states where the page's is worked out (``players_implied``: Mexican
    Train's deal table runs to 8, its index line says 'Any'): the players the keeper offers."""
    out = []
    players = stated_players if view.body.players_implied and stated_players is not None else view.body.players
    stated = parse_players(players) if players is not None else None
    for i, part in enumerate(sheet_parts(view)):
        sheet = sheet_definition(view, heading, part, KEEPER_BLANK_ROWS)
        teams = is_team_sheet(view)
        spec = parse_players(view.body.rounds.sequences[part.sequence].players) if (
            part.sequence is not None and view.body.rounds.sequences[part.sequence].players is not None) else stated
        counts = tuple(n for n in (spec.counts(part.players) if spec else range(2, part.players + 1))
                       if 1 <= n <= part.players) or (part.players,)
        columns = 2 if teams else part.players
        counts = (2,) if teams else counts
        start = min(counts, key=lambda n: (abs(n - KEEPER_START_PLAYERS), n))
        # 'Any' keeps no cap, 'at least 6' keeps 6 as the floor and no ceiling: the count the rules leave open stays
        # open in the keeper (the printed sheet has the columns a page holds; the keeper adds more).
        unbounded = not teams and (spec is None or (spec.high is None and spec.allowed is None))
        out.append(Keeper(sheet, key if i == 0 else f"{key}-{i + 1}", columns, counts, start, teams,
                          unbounded, spec.step if spec else 1, bool(spec and spec.least_stated),
                          (partnerships(view.body) or "") if teams else ""))
    return out

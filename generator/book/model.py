"""Stage 2, the nouns: what a game and the book are, as typed, validated models.

Every model rejects unknown keys and never converts types (``strict``): a value the YAML reader
gives as text stays text. Phrases written the way the book writes them (players ``2-4``, card
groups ``K-10``, melds ``2 sets of 3``) are checked here, on load, by the parsers they use later.
The JSON Schema contributors' editors use is generated from these classes.

What the book prints around its editors' words is generated from these models, so they hold what a
source *states*: a number with the source's own qualifier (``qualifiers``, ``typically``), a part
the transcriber worked out marked ``implied`` (checked, never printed), each document a game cites
named in ``Book.sources`` with the words readers see. docs/transcribing.md, rule 5.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from .arith import names_in
from .cards import PredicateError, parse_cards, parse_rank
from .phrases import MAX_PLAYERS, parse_meld, parse_players, parse_range
from .words import _

# What a count can be in any game this book could hold. A number outside is a slip (or an attack: the checks
# worked through every one of '4-99999999' players, and 'decks: -1' broke them); it gets one line saying what
# is allowed. The players' bounds are phrases.MIN_PLAYERS and MAX_PLAYERS (a phrase such as '2-4' states them).
MAX_DECKS = 20
MAX_CARDS = MAX_DECKS * 54  # a deck and its two jokers
MAX_DEALT = 100  # cards (or tiles) one player is dealt, or a part of a deal (kitty, foot, upcard)
MAX_ROUNDS = 100
MAX_POINTS = 1_000_000  # a score, a target, a value, a figure in a worked example: either side of zero
MAX_COINS = 10_000
MAX_DICE = 20
DIE_FACES = 6
MAX_DOUBLE = 24  # a domino set's top double (double-18 is the largest sold)
MAX_ROWS = 100  # of a score sheet


def within(low: int, high: int, unit: str, ranges: bool = False) -> Callable[[Any], Any]:
    """A validator refusing a number (or, with ``ranges``, a range such as '3-4') outside ``low``-``high``."""
    def check(value: Any) -> Any:
        if value is None or isinstance(value, bool) or (isinstance(value, str) and not ranges):
            return value
        span = parse_range(value) if isinstance(value, str) else None
        ends = (span.low, span.high) if span else (value,) if isinstance(value, (int, float)) else ()
        if any(not low <= end <= high for end in ends):
            also = ", or a range such as '3-4'" if ranges else ""
            raise ValueError(f"must be {low} to {high}{' ' + unit if unit else ''} (try a number from {low} to {high}{also})")
        return value
    return check


def Bounded(low: int, high: int, unit: str, kind: Any = int) -> Any:  # noqa: N802 - a type, as pydantic's are
    """``kind`` (int, or a union of numbers) from ``low`` to ``high``; the range is in the editors' JSON Schema."""
    return Annotated[kind, AfterValidator(within(low, high, unit)),
                     Field(json_schema_extra={"minimum": low, "maximum": high})]


Decks = Bounded(1, MAX_DECKS, "decks")
Cards = Bounded(1, MAX_CARDS, "cards")
Dealt = Bounded(1, MAX_DEALT, "cards")
Extra = Bounded(0, MAX_DEALT, "cards")  # a part of a deal, which may be none
RoundCount = Bounded(1, MAX_ROUNDS, "rounds")
Score = Bounded(-MAX_POINTS, MAX_POINTS, "points")
Figure = Bounded(-MAX_POINTS, MAX_POINTS, "points", int | float)
Coins = Bounded(0, MAX_COINS, "coins")

EDITION_ID = r"^[0-9]{4}\.[0-9]+$"
SLUG = r"^[a-z0-9]+(-[a-z0-9]+)*$"

Slug = Annotated[str, Field(pattern=SLUG, description="lower-case words joined by hyphens")]
EditionId = Annotated[str, Field(pattern=EDITION_ID, description="edition such as '2026.2' (quoted)")]
Points = Figure | Literal["face"]
# The source's own words around a number ("18 or more cards", "at least 10,000", a target the players agree,
# "typically 100"): printed with it, always.
Qualifier = Literal["or more", "at least", "or less", "about", "up to", "typically"]


def _check_qualified(model: BaseModel, names: list[str]) -> None:
    """Qualifiers and typical values name a number the model states (a slip would print nothing)."""
    for name in names:
        if not isinstance(getattr(model, name, None), (int, float)) or isinstance(getattr(model, name), bool):
            raise ValueError(f"'{name}' is not a number stated here: a qualifier names one of this part's numbers")


def edition_key(edition_id: str) -> tuple[tuple[int, str], ...]:
    """Sort key of an edition id: '2026.10' comes after '2026.9'. Each part compared as a number by its length and
    then its digits, never made an int: an id of any length (Python reads no int of over 4,300 digits) sorts."""
    return tuple((len(part.lstrip("0")), part.lstrip("0")) for part in edition_id.split("."))


def _check_lifetime(introduced: str, retired: str | None) -> None:
    if retired is not None and edition_key(retired) <= edition_key(introduced):
        raise ValueError(f"retired: {retired} is not after introduced: {introduced}; a game or variant is retired "
                         "from an edition later than the one that added it")


class Strict(BaseModel):
    """Base for every model: unknown keys and silent type conversions are errors."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _check_cards(value: str | None) -> str | None:
    if value is not None:
        try:
            parse_cards(value, {"wild": "joker"})
        except PredicateError as exc:
            raise ValueError(_("card phrase '%(phrase)s': %(problem)s (try a phrase such as 'K', 'red 7', '9-A', "
                               "'hearts', 'jokers' or 'A, 2-9')", phrase=value, problem=exc)) from None
    return value


def _check_players(value: str | int | None) -> str | int | None:
    if value is not None:
        parse_players(value)
    return value


def _check_points(value: int | str | None) -> int | str | None:
    """A score or a range of scores ('13 to 39'), within what a game can score."""
    return within(-MAX_POINTS, MAX_POINTS, "points", ranges=True)(value)


def _check_faces(value: int | str | None) -> int | str | None:
    """Die faces: '2-6', '1'."""
    return within(1, DIE_FACES, "(a die's faces)", ranges=True)(value)


class SourceCorrection(Strict):
    """A mistake in a source, corrected while transcribing it: never printed by the book, so not an erratum.

    The page citing the source says "The source says “122”; corrected to “95” because …"."""

    says: str | int | float = Field(description="what the source says, word for word")
    corrected: str | int | float = Field(description="what this book prints instead")
    path: str | None = Field(None, description="dotted data path of the corrected value, from the game's file "
                                               "(variants.1.examples…); omit for words in the prose")
    file: str | None = Field(None, description="the prose file the words are in, for a text correction")
    count: Bounded(1, 1000, "times") = Field(1, description="for a text correction: how often the corrected words occur")
    because: str = Field(min_length=1, description="why, one sentence for readers: '76 and 19 make 95'")

    @model_validator(mode="after")
    def _where(self) -> SourceCorrection:
        if (self.path is None) == (self.file is None):
            raise ValueError("a source correction names either the data path (path:) or the prose file (file:)")
        return self


class Source(Strict):
    """Where a game or variant comes from: a document the book names (book.yaml sources) and the part of it.

    Readers see the part as the source marks it, and only so: its heading, quoted (``section``); else the date it is
    posted under; else its opening words, quoted (``opens``); nothing for a document that is all one part."""

    seed: str = Field(min_length=1, description="the document's file, as book.yaml's sources name it")
    section: str | None = Field(None, description="the heading the source prints over the part, as printed; "
                                                  "none where the part has no heading of its own")
    date: str | None = Field(None, description="date the source gives, as written")
    corrections: list[SourceCorrection] = Field(
        [], description="mistakes in the source corrected while transcribing it (the book never printed them)")
    opens: str | None = Field(None, description="a part with no heading or date of its own: its first words, as "
                                                "printed ('Golf is a card game for two or more players')")

    @model_validator(mode="after")
    def _one_opening(self) -> Source:
        if self.opens is not None and (self.section is not None or self.date is not None):
            raise ValueError("opens: only for a part with no heading (section) or date of its own; cite it by those")
        return self


class Removal(Strict):
    """Cards taken out of the decks: all copies, or ``copies`` of each matching card."""

    cards: str
    copies: Bounded(1, MAX_DECKS, "copies") | None = None
    _v = field_validator("cards")(_check_cards)


class CardEquipment(Strict):
    """Playing cards: how many decks, jokers, and which cards are kept or removed."""

    players: str | int | None = Field(None, description="player counts this line applies to")
    decks: Decks | str = Field(description="1, '3-4', 'players + 1', 'players' (one each) or 'enough'")
    per: Literal["game", "table", "couple", "player"] = "game"
    jokers: bool | None = Field(None, description="true: with jokers ('jokers included'); false: the source says there "
                                                  "are none ('not including jokers'); left out: the source does not say, "
                                                  "and nothing is printed (the checks count no jokers)")
    keep: str | None = Field(None, description="card phrase: only these are used (Euchre: '9-A')")
    remove: list[str | Removal] = []
    stated_cards: Cards | None = Field(None, description="deck size the source states ('50 card deck')")
    min_cards_each: Dealt | None = Field(None, description="'enough decks for at least N cards each'")

    _p = field_validator("players")(_check_players)
    _k = field_validator("keep")(_check_cards)

    @field_validator("decks")
    @classmethod
    def _decks(cls, v: int | str) -> int | str:
        if isinstance(v, str) and v.strip() not in ("players", "players + 1", "enough"):
            within(1, MAX_DECKS, "decks", ranges=True)(v)
        return v

    @field_validator("remove")
    @classmethod
    def _remove(cls, v: list[str | Removal]) -> list[str | Removal]:
        # "Remove jokers" means the game has none: one way to say it, so the data cannot say both.
        if any(isinstance(item, str) and "jokers" in [p.strip().lower() for p in item.split(",")] for item in v):
            raise ValueError("remove: 'jokers' takes every joker out; write jokers: false instead")
        for item in v:
            if isinstance(item, str):
                _check_cards(item)
        return v


class Dominoes(Strict):
    """A domino set; ``set`` is the top double (12 for double-12), or null when unstated."""

    set: Bounded(0, MAX_DOUBLE, "(the top double)") | None = None


class Stakes(Strict):
    """Money or chips: the coin, what each player starts with, the ante."""

    coin: Literal["cent", "nickel", "dime", "quarter", "chip"]
    start: Coins | None = None
    ante: Coins | None = None
    note: str | None = None


class Equipment(Strict):
    """Everything needed on the table."""

    cards: list[CardEquipment] = []
    dominoes: Dominoes | None = None
    dice: Bounded(1, MAX_DICE, "dice") | None = None
    board: str | None = None
    sticks: bool = False
    stakes: Stakes | None = None
    other: list[str] = []


class Deal(Strict):
    """What each player receives, and what else is dealt (kitty, foot, blind cards, upcard)."""

    players: str | int | None = Field(None, description="player counts this deal applies to")
    each: Dealt | str | None = Field(None, description="cards each: 12, '3-14', or 'all' (deal all out)")
    by_round: bool = Field(False, description="hand size set by each round (see rounds)")
    hand: Dealt | None = Field(None, description="of 'each', the cards held in the hand")
    foot: Extra | None = None
    kitty: Extra | None = None
    widow: Extra | Literal["hand"] | None = None
    blind: Extra | None = None
    face_up: Extra | None = None
    upcard: Extra = 0
    tiles: Dealt | None = None
    min_remainder: Extra | None = Field(None, description="cards that must stay undealt (Hearts: 2)")
    equalize_by_removing: str | None = Field(None, description="card phrase removed to deal evenly")
    uneven: bool = Field(False, description="players may get different numbers of cards")
    composition: list[Removal] = Field([], description="each hand is made of these cards")
    dealer_gets: Dealt | None = Field(None, description="when the dealer's hand differs (Gin: 12)")
    set_by_first_card: bool = Field(
        False, description="each player's first card is dealt face up and sets how many cards they get (Horseshit "
                           "Rummy: 'This card will indicate how many cards that player will receive')")
    implied: bool = Field(False, description="not stated by the source; implied by its rules")
    worked_out: list[Literal["each"]] = Field(
        [], description="numbers of this deal the source does not state but the transcriber worked out (Hand and "
                        "Foot's 28 each: 15 in the hand and 13 in the foot): kept for the checks, never printed")
    qualifiers: dict[str, Qualifier] = Field({}, description="the source's words around a number: {each: or more}")
    typically: dict[str, Dealt] = Field({}, description="'typically 22 cards are dealt to each player': {each: 22}")
    by_players: list[Deal] = []

    _p = field_validator("players")(_check_players)
    _e = field_validator("equalize_by_removing")(_check_cards)

    @model_validator(mode="after")
    def _qualified(self) -> Deal:
        _check_qualified(self, [*self.qualifiers, *self.typically])
        if self.set_by_first_card and self.face_up not in (None, 1):
            raise ValueError(f"set_by_first_card: each player's first card, one, is dealt face up (face_up: 1), "
                             f"not {self.face_up}")
        return self

    @field_validator("each")
    @classmethod
    def _each(cls, v: int | str | None) -> int | str | None:
        if isinstance(v, str) and v != "all":
            within(1, MAX_DEALT, "cards", ranges=True)(v)
        return v


class ScoreItem(Strict):
    """One line of a scoring table: a card group's value, or points for an event."""

    label: str
    cards: str | None = None
    per: Literal["card", "trick", "event", "hand", "pip", "combination"] | None = None
    points: Points | None = None
    cents: Coins | None = None
    value: str | None = Field(None, description="the value as printed when it is not 'N points'")
    note: str | None = None
    stated_total: int | str | None = None
    conditional: bool = Field(False, description="scores only when something happens")
    against: bool = Field(False, description="counts against the player, taken from what they score: "
                                             "'Black threes are worth 5 points against you'")
    ranks: dict[str, Figure] = Field(
        {}, description="values 'face value' leaves to the wording, for ranks with no number on their face: {A: 1}")
    count: Bounded(1, MAX_DEALT, "alike") | None = Field(None, description="how many alike a combination is: 3 for '3 of a kind'")
    faces: str | None = Field(None, description="the die faces a combination scores for: '2-6', '1'")
    times: Bounded(1, 1000, "times") | None = Field(None, description="the multiplier the wording states: 'x00 times 2'")
    threshold: Score | None = Field(
        None, description="the total that earns this item, a bonus's threshold: Yacht's upper bonus, 35 points "
                          "(points) if the upper total reaches 63 (threshold)")
    says_each: bool = Field(False, description="the source writes 'each' after the amount of an item that scores "
                                               "once a round ('Last trick 75 points each'): printed as it says")

    _c = field_validator("cards")(_check_cards)
    _t = field_validator("stated_total")(_check_points)
    _f = field_validator("faces")(_check_faces)

    @field_validator("ranks")
    @classmethod
    def _ranks(cls, v: dict[str, int | float]) -> dict[str, int | float]:
        for rank in v:
            if parse_rank(rank) is None:
                raise ValueError(f"'{rank}' is not a rank (A, 2-10, J, Q, K)")
        return v

    @property
    def unit(self) -> str:
        """What the item counts: card, trick, event, ..."""
        return self.per or ("card" if self.cards else "event")


class ScoreTable(Strict):
    """A scoring table; ``card_values`` must cover every card in play exactly once."""

    title: str | None = None
    kind: Literal["card_values", "counters", "events", "combinations", "payments", "dice"]
    items: list[ScoreItem]
    stated_total: Score | None = Field(None, description="'Total per hand is 125 points'")
    held_against: bool = Field(False, description="the cards still in a hand count against those the player has on "
                                                  "the table ('count back … against', 'less any cards still in your "
                                                  "hand'), so a hand can score below zero")
    note: str | None = None
    layout: Literal["table", "list", "inline"] = Field(
        "table", description="a table, a bulleted list, or one sentence (items joined by commas)")
    line: str = Field("{label} {value}", description="how a list/inline item reads, e.g. '{label} are {value}'")


class Round(Strict):
    """One round or hand: its deal, wild cards, meld contract, trump and scoring."""

    name: str
    each: Dealt | None = None
    wild: str | None = None
    meld: str | None = None
    min_meld: Score | None = None
    trump: str | None = None
    partners: bool | None = None
    hands: list[str] = Field([], description="the hands of this round, as the score sheet lists them")
    scoring: list[ScoreItem] = []
    possible: int | str | None = Field(None, description="stated best score, '13' or '13 to 39'")
    text: str | None = None

    _w = field_validator("wild")(_check_cards)
    _r = field_validator("possible")(_check_points)

    @field_validator("meld")
    @classmethod
    def _meld(cls, v: str | None) -> str | None:
        if v is not None:
            parse_meld(v)
        return v


class Sequence(Strict):
    """Hand sizes that run down and (optionally) back up: Oh Hell's 10 to 1 and back."""

    players: str | int | None = None
    start: Dealt
    low: Dealt = 1
    back_up: bool = False
    stated_count: RoundCount | None = None
    _p = field_validator("players")(_check_players)


class Doubles(Strict):
    """One hand per double of the domino set, in the order the rules play them (Mexican Train, Chicken Foot)."""

    order: Literal["down", "up"] = Field(
        description="down from the set's top double (equipment.dominoes.set) to the blank; up from the blank")
    label: str = Field("{n}-{n}", description="how the rules write a double, {n} its number: 'Double {n}', '{n}-{n}'")
    blank: str | None = Field(None, description="how the rules name the blank double, where not by its number: "
                                                "'Double blank'")

    @field_validator("label")
    @classmethod
    def _label(cls, v: str) -> str:
        if "{n}" not in v:
            raise ValueError(f"'{v}' does not say where the double's number goes: write {{n}}, e.g. 'Double {{n}}'")
        return v


class Rounds(Strict):
    """The rounds of a game: listed, generated from ranks, hand sizes or a domino set's doubles, or listed then
    reversed."""

    title: str | None = None
    heading: str | None = Field(
        None, description="what the table's first column numbers, where it is not the round: 'Meld' where each "
                          "player is on a meld of their own (Desert Rummy: 'Each player could be on a different meld')")
    items: list[Round] = []
    ranks: str | None = Field(None, description="one round per rank, e.g. '3-K' (Arizona)")
    sequences: list[Sequence] = []
    doubles: Doubles | None = Field(None, description="one hand per double of the domino set, in the rules' order")
    then_reversed: bool = Field(False, description="the listed rounds are played again in reverse")
    stated_count: RoundCount | None = None

    _r = field_validator("ranks")(_check_cards)

    @model_validator(mode="after")
    def _one_way(self) -> Rounds:
        if self.doubles is not None and (self.items or self.ranks or self.sequences):
            raise ValueError("doubles: the hands are one per double; do not list them as items, ranks or sequences too")
        return self


class Goal(Strict):
    """How a game is won and when it ends."""

    winner: Literal["high", "low", "first_out", "last_standing", "first_to_target", "race"]
    target: Score | None = None
    target_unit: str | None = Field(None, description="what the target counts, when not points: 'sticks'")
    lose_at: Score | None = None
    then_back_to: Score | None = None
    rounds: RoundCount | None = None
    qualifiers: dict[str, Qualifier] = Field({}, description="the source's words around a number: {target: at least}")
    implied: bool = Field(False, description="not stated by the source; worked out from its rules (not printed)")

    @model_validator(mode="after")
    def _qualified(self) -> Goal:
        _check_qualified(self, list(self.qualifiers))
        return self


class AlternateRule(Strict):
    """One alternate rule; numbered ones can be referenced ('See Alternate Rule 2')."""

    number: Bounded(1, 99, "") | None = None
    text: str = Field(description="the rule as the source writes it after its number, with its own "
                                  "separator ('– Some people…', '- Each set…', or none)")
    introduced: EditionId | None = None


class AlternateRules(Strict):
    """A game's alternate rules, under the heading the book gives them."""

    # The heading a book gives none of its own is the tool's, in the book's language (its words are in use as its games
    # are read: library.load_library).
    title: str = Field(default_factory=lambda: _("Alternate Rules"),
                       description="the heading; the tool's word for it in the book's language if not given")
    numbering: Literal["alternate_rule", "list"] = Field(
        "alternate_rule", description="how numbered rules are headed: 'alternate_rule' prints the book's bold "
                                      "'Alternate Rule 1', 'list' a numbered list's '1.' (a source's 'Different versions: 1. …')")
    rules: list[AlternateRule]


class ExampleValue(Strict):
    """A figure in a worked example: an expression over earlier figures and the stated result."""

    expr: str | None = None
    stated: Figure | None = None
    label: str | None = None


# A worked example's title and its figures' labels are the program's words around the book's numbers (the book prints
# the numbers, in its own sentences): no edition printed them as the family's, so no erratum corrects them and an
# edition's record does not keep them (book/frozen.py); a slip they repeat is corrected once, where it was printed.
PROGRAM_WORDS = re.compile(r"(?:^|\.)examples\.[^.]+\.(?:title|values\.[^.]+\.label)$")


def program_words(path: str) -> bool:
    """Whether a dotted data path names the program's own words (a worked example's title or a figure's label)."""
    return PROGRAM_WORDS.search(path) is not None


class Example(Strict):
    """A worked example or sample game whose arithmetic can be recomputed."""

    title: str
    values: dict[str, Figure | ExampleValue]

    @model_validator(mode="after")
    def _shown(self) -> Example:
        # Names are for the arithmetic only; a reader sees labels and numbers. A figure with no label
        # is shown only as a number inside the working of a figure that uses it, so it must be used.
        used = {n for v in self.values.values() if isinstance(v, ExampleValue) and v.expr for n in names_in(v.expr)}
        for name, v in self.values.items():
            if not (isinstance(v, ExampleValue) and v.label) and name not in used:
                raise ValueError(f"values.{name}: give it a label (as the book words it); no other figure uses it, "
                                 "so without one the reader would never see it")
        return self


class ColumnGroup(Strict):
    """A heading over several columns of a score sheet (Guys | Girls)."""

    label: str
    span: Bounded(1, MAX_PLAYERS * 4, "columns")


class SheetBlock(Strict):
    """A part of a score sheet: columns, row labels, and the total row."""

    title: str | None = None
    note: str | None = None
    columns: list[str] = Field(default_factory=lambda: [_("Score")],
                               description="the columns' headings; one, the tool's word for 'Score' in the book's "
                                           "language, if not given")
    player_columns: bool = False
    rows: list[str] = []
    rows_from: Literal["rounds", "sequence"] | None = None
    round: str | None = Field(None, description="the round (by name) whose scoring this block keeps")
    blank_rows: Bounded(0, MAX_ROWS, "rows") | None = None
    total: str | None = None
    sums: list[str] | None = Field(
        None, description="the columns (by heading) the total adds, e.g. [Score] beside a Bid; all if not given")
    possible: int | str | None = None
    groups: list[ColumnGroup] = []
    row_label: str = Field(
        "Hand {n}", description="what a row records, as the rules call it, where the sheet does not label its rows "
                                "(a form field's or a keeper box's name): {n} its number, {nth} its ordinal, e.g. "
                                "'{nth} time a team scores'")
    sample_only: bool = Field(False, description="shown only in the filled-in sample, not on the blank sheet")
    example_rows: bool = Field(False, description="the listed rows are the worked example's hands: they label "
                                                  "its sample; the blank sheet gets as many hand rows as fit")
    sample: list[list[str | None]] = Field(
        [], description="a filled-in sample: rows of cells, each the name of an example figure (or empty)")
    carries: list[str | None] = Field(
        [], description="a grand total's rows: for each row, in order, the block (by its round or title) whose "
                        "total the row carries, or null for a row of the block's own that the players write in (a "
                        "bonus: Yacht's Upper bonus between the Upper and Lower totals)")

    _r = field_validator("possible")(_check_points)

    @property
    def heading(self) -> str | None:
        """What the block is called (a grand total's rows name it): the round it keeps, or its title."""
        return self.round or self.title

    @field_validator("row_label")
    @classmethod
    def _row_label(cls, v: str) -> str:
        if "{n}" not in v and "{nth}" not in v:
            raise ValueError(f"'{v}' does not say where the row's number goes: write {{n}} or {{nth}}, e.g. 'Hand {{n}}'")
        return v

    @model_validator(mode="after")
    def _sums(self) -> SheetBlock:
        if self.sums is not None and (self.total is None or not set(self.sums) <= set(self.columns)):
            raise ValueError(f"sums: {self.sums} must name columns of the block ({self.columns}) that has a total")
        if self.carries and len(self.carries) != len(self.rows):
            raise ValueError(f"carries: {len(self.carries)} blocks named for {len(self.rows)} rows: name one a row")
        return self


class ScoreSheet(Strict):
    """A printable score sheet, drawn from data."""

    title: str
    fields: list[str] = []
    landscape: bool = False
    blocks: list[SheetBlock]
    example: str | None = Field(None, description="worked example filled into a sample sheet")
    halves: bool = Field(False, description="a score may be a half ('12.5', or the book's language's decimal sign "
                                            "before a 5): the keeper and the PDF form add it exactly; without it an "
                                            "entry with a decimal is no number, and its box is marked")


class GameBody(Strict):
    """The rule content shared by a game and its variants."""

    players: str | int | None = None
    players_implied: bool = Field(
        False, description="the count is worked out (from a deal table), not stated by the page: the checks use it; "
                           "the book prints the count a source states (the index's line), else none")
    partnerships: Literal["none", "partners", "teams", "optional"] | None = None
    partners_when: str | int | None = Field(
        None, description="player counts that play in partnerships ('with four players opposites are partners': 4)")
    equipment: Equipment | None = None
    wild: str | None = Field(None, description="card phrase for the wild cards")
    deal: Deal | None = None
    rounds: Rounds | None = None
    scoring: dict[str, ScoreTable] = {}
    goal: Goal | None = None
    alternate_rules: AlternateRules | None = None
    examples: dict[str, Example] = {}
    keeps: Literal["points", "bid_made", "lives", "tally", "melds", "nothing"] | None = Field(
        None, description="what the score sheet records, as the rules keep score: points per hand; a bid beside "
                          "what was made; lives (stakes) lost; a tally toward a target (sticks); which of the named "
                          "melds each player has made; nothing where the rules name no scoring (a race or board "
                          "game won by getting there first): no sheet, no keeper")
    score_sheet: ScoreSheet | None = None

    _p = field_validator("players")(_check_players)
    _w = field_validator("wild")(_check_cards)
    _pw = field_validator("partners_when")(_check_players)

    def box_fields(self) -> set[str]:
        """The fields the quick-reference box prints a row from (render/views/describe.glance): each one stated
        (a deal or goal the transcriber worked out, ``implied``, prints none; a count worked out prints the
        index's, the checks cannot tell it: players counts)."""
        out = set()
        if self.players is not None:
            out.add("players")
        if self.equipment is not None:
            out.add("equipment")
        if self.deal is not None and not self.deal.implied:
            out.add("deal")
        if self.wild:
            out.add("wild")
        if any(t.kind in ("card_values", "counters") for t in self.scoring.values()):
            out.add("scoring")
        if self.goal is not None and not self.goal.implied:
            out.add("goal")
        return out

    def keeps_score(self) -> bool:
        """Whether the rules keep a score to write down. Not where they name no scoring (``keeps: nothing``: a race or
        board game, won by getting there first: a sheet would be a page for one tick), nor for a game played for
        stakes whose rules name no winner (no ``goal``): Rummoli's chips and Saskatchewan Rummy's cents change hands
        at the table and the book keeps no score; a sheet or a keeper would invent one (a Score column, a Total)."""
        if self.keeps == "nothing":
            return False
        return not (self.equipment is not None and self.equipment.stakes is not None and self.goal is None)

    @model_validator(mode="after")
    def _partners_when(self) -> GameBody:
        if self.partners_when is not None and self.partnerships != "partners":
            raise ValueError("partners_when: only with partnerships: partners (the other counts play alone)")
        if self.partners_when is not None and self.players is not None:
            allowed = parse_players(self.players)
            if not all(allowed.allows(n) for n in parse_players(self.partners_when).counts()):
                raise ValueError(f"partners_when: {self.partners_when} is not a number of players the game allows ({self.players})")
        return self


# What a variant's source says of a row of its game's box that the variant does not state itself: the same (the
# game's row stands, true of the variant), nothing (the box says its source does not say), or something else the
# box cannot hold (the box points to its rules).
FromGame = Literal["same", "unstated", "in_rules"]
BoxField = Literal["players", "equipment", "deal", "wild", "scoring", "goal"]


class Variant(GameBody):
    """Another way to play a game, from another source, shown beside the book's own rule."""

    id: Slug
    title: str
    from_game: dict[BoxField, FromGame] = Field(
        {}, description="each field of the game's box this variant does not state, and what its source says of it: "
                        "same (the game's row is true of it), unstated (its source does not say), in_rules (its source "
                        "says otherwise, in its rules' words)")
    introduced: EditionId
    retired: EditionId | None = Field(None, description="the first edition without it (the editors' decision, "
                                                        "rules_data/revisions.yaml); earlier editions keep it")
    sources: list[Source]

    @model_validator(mode="after")
    def _lifetime(self) -> Variant:
        _check_lifetime(self.introduced, self.retired)
        return self


# What an equipment game is played with: a game of a section of one of these kinds is of that kind, and a game of an
# equipment section (several kinds) names its own (``equipment_kind``).
EquipmentKind = Literal["dice", "dominoes", "sticks", "board"]
EQUIPMENT_KINDS: tuple[str, ...] = EquipmentKind.__args__


class Game(GameBody):
    """One game of the book."""

    id: Slug
    title: str
    subtitle: str | None = None
    other_names: list[str] = []
    category: Slug = Field(description="the id of the book's section the game is listed in (book.yaml sections)")
    equipment_kind: EquipmentKind | None = None
    status: list[Literal["updated_rule", "under_review"]] = []
    introduced: EditionId
    retired: EditionId | None = Field(None, description="the first edition without the game (the editors' decision, "
                                                        "rules_data/revisions.yaml); earlier editions keep it")
    sources: list[Source]
    variants: list[Variant] = []

    @model_validator(mode="after")
    def _complete(self) -> Game:
        _check_lifetime(self.introduced, self.retired)
        if self.players is None:
            raise ValueError("a game must say how many players it takes")
        ids = [v.id for v in self.variants]
        if len(ids) != len(set(ids)):
            raise ValueError("variant ids must be unique")
        return self

    def heading(self) -> str:
        """The title as the book prints it: 'Oh Hell! (Screw your neighbour)'."""
        return f"{self.title} ({self.subtitle})" if self.subtitle else self.title


def calendar_day(value: str) -> str:
    """A day of the calendar, written YYYY-MM-DD: '2027-02-30' is refused here, not by the build that prints it."""
    try:
        day = datetime.date.fromisoformat(value)
    except ValueError:
        day = None
    if day is None or day.isoformat() != value:
        raise ValueError("not a day of the calendar written YYYY-MM-DD (the year, the month 01 to 12, a day the month "
                         "has), such as \"2026-12-20\"")
    return value


Date = Annotated[str, AfterValidator(calendar_day), Field(description="a day, written YYYY-MM-DD (quoted), e.g. \"2026-12-20\"",
                                                   json_schema_extra={"format": "date"})]


class Edition(Strict):
    """One printing of the book."""

    id: EditionId
    year: Bounded(1900, 2999, "")
    revision: Bounded(1, 999, "")
    label: str = Field(description="as the cover prints it, e.g. 'Revision 1 (Jan/2026)'")
    date: Date
    edition_number: Bounded(1, 999, "") | None = None
    pages_as_printed: bool = Field(False, description="the PDF is laid out as the book was printed: front matter, "
                                   "then each game on the page its printed index names (printed_index)")
    record: Annotated[str, Field(pattern=r"^sha256:[0-9a-f]{64}$")] | None = Field(
        None, description="the digest of rules_data/frozen/<id>/SHA256SUMS, the seal of what this edition printed, "
        "written by `rulebook edition new` when it was published: never edited by hand")


class IndexEntry(Strict):
    """A line of the alphabetical index as printed."""

    page: Bounded(1, 9999, "") | Annotated[str, Field(pattern=r"^[0-9]+(-[0-9]+)?$")] = Field(description="as printed: 12, or '9-10'")
    title: str
    game: Slug
    players: str | int
    _p = field_validator("players")(_check_players)


class PrintedIndex(Strict):
    """The index as typed by hand in the editions that printed one."""

    editions: list[EditionId]
    sections: dict[str, list[IndexEntry]]


# What a section holds, which says what a new game in it needs (``rulebook new-game``) and which checks apply: a card
# game names its deck; a dice, dominoes, sticks or board section's games are equipment games of that kind.
SectionKind = Literal["cards", EquipmentKind, "equipment", "tournament"]
SECTION_KINDS: tuple[str, ...] = SectionKind.__args__
# A section whose id is one of these is of that kind unless it says otherwise (the ids this repository's book uses).
KIND_FROM_ID = ("cards", "equipment", "tournament")


class Section(Strict):
    """A group of games, in book order: the book names it, and says what kind of games it holds."""

    id: Slug
    title: str
    kind: SectionKind | None = Field(None, description="what its games are: cards, dice, dominoes, sticks, board, equipment "
                                          "(several kinds) or tournament; may be left out where the id is "
                                          "cards, equipment or tournament")
    finder: str | None = Field(None, description="what the site's game finder calls the section's games "
                                                 "('Card games'); none: its title")
    games: list[Slug] = Field([], description="its games' ids, in book order (none yet: an empty list)")

    @model_validator(mode="before")
    @classmethod
    def _kind(cls, data: Any) -> Any:
        if isinstance(data, dict) and "kind" not in data and data.get("id") in KIND_FROM_ID:
            return {**data, "kind": data["id"]}
        return data

    @model_validator(mode="after")
    def _kind_given(self) -> Section:
        if self.kind is None:
            raise ValueError(f"section '{self.id}' does not say what kind of games it holds: add kind: (one of "
                             f"{', '.join(SECTION_KINDS)})")
        return self


class Page(Strict):
    """A page of prose that is not a game (general rules, about, board layouts)."""

    id: Slug
    title: str
    after: Slug | None = Field(None, description="the id of the section this page follows; none: before the games")
    editor_note: str | None = Field(None, description="the editors' words, printed once under the title and "
                                                      "set apart from the book's own (what the page lacks, and why)")


class SourceDocument(Strict):
    """A document games and variants are taken from, named once: its file and what it is, for readers."""

    seed: str = Field(min_length=1, description="the file under the sources folder")
    title: str = Field(min_length=1, description="what it is, as a sentence goes on: 'a games blog'")
    transcribed_in: EditionId | None = Field(
        None, description="the edition that took this document's games and variants into the book as they stand: "
        "what it adds then is transcribed, not decided; a game taken from it in a later edition is the editors' "
        "decision (revisions.yaml)")


Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$", description='a colour, "#rrggbb"')]


class AccentShades(Strict):
    """The site's shades of the book's colour, chosen for contrast; each left out is worked out from the colour."""

    light: Colour | None = Field(None, description="a lighter shade (the theme's hover)")
    dark: Colour | None = Field(None, description="a darker shade (the theme's)")
    link: Colour | None = Field(None, description="links and the page open in the navigation, on the light page")
    link_on_dark: Colour | None = Field(None, description="the same on the dark page: a light tint")


class Book(Strict):
    """Book-level data."""

    title: str = Field(min_length=1, description="the book's title, as its cover, site and PDF print it")
    author: str = Field(min_length=1, description="who made the book, as the cover and the PDF name them")
    description: str = Field(min_length=1, description="one sentence about the book: the site's description, the "
                             "PDF's subject, the installed app's")
    decided_by: str = Field("the editors", min_length=1, description="whose decisions the book records, as a "
                            "sentence names them: 'the club', 'the editors' (\"The club's decisions\")")
    contact: str = Field("", description="how readers reach the editors (an e-mail address or a web address); "
                         "empty: none given")
    accent: Colour = Field(
        description="the book's colour, \"#rrggbb\", dark enough for white text on it: the cover, the "
        "headings' rules, the site's header")
    accent_shades: AccentShades = Field(default_factory=AccentShades, description="the site's shades of the accent")
    cover_line: str = Field("", description="a line printed on the cover above the title (empty: none)")
    keywords: list[Annotated[str, Field(min_length=1)]] = Field(
        [], description="what the book is about, a few words each: the PDF's keywords")
    language: str = Field("en", pattern=r"^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?$", description="the book's language, "
                          "as a BCP 47 tag ('de', 'fr', 'en-GB'): the site's and its search's, the PDF's and its "
                          "hyphenation, the spelling check's, and every word the tool writes (its message catalogue)")
    messages: dict[str, str | list[str]] = Field(
        {}, description="the book's own words for any message the tool writes, each named by its English words as "
        "the catalogue (templates/locale/en.po) writes them: 'At a glance: Kurz und knapp'; a message with a "
        "plural takes a list of the language's forms")
    editions: list[Edition]
    current: EditionId
    index_title: str
    sections: list[Section]
    pages: list[Page]
    printed_index: PrintedIndex | None = None
    sources: list[SourceDocument] = Field([], description="every document a game or variant cites")

    @model_validator(mode="after")
    def _current(self) -> Book:
        if self.current not in {e.id for e in self.editions}:
            raise ValueError(f"current edition {self.current} is not among the editions")
        return self

    def kind_of(self, section_id: str) -> str | None:
        """The kind of the book's section ``section_id`` (None: the book has no such section)."""
        return next((s.kind for s in self.sections if s.id == section_id), None)


class Evidence(Strict):
    """What makes the published text wrong: a spelling, a real word slipped for another (usage), the arithmetic,
    or the book's own words elsewhere."""

    kind: Literal["spelling", "usage", "arithmetic", "contradiction"]
    why: str = Field(min_length=1, description="one sentence for the reader, printed on the errata page")
    page: Slug | None = Field(None, description="contradiction: the game or page whose words disagree")
    place: Literal["page", "index", "sheet"] = Field(
        "page", description="contradiction: where the book prints those words: the game's or page's own page, the "
                            "game's line of the printed index (index), or its score sheet (sheet)")
    words: str | None = Field(None, description="contradiction: those words, as the book prints them")

    @model_validator(mode="after")
    def _cited(self) -> Evidence:
        # A contradiction is only evidence when it names where the book says otherwise, and what it says.
        if self.kind == "contradiction" and not (self.page and self.words):
            raise ValueError("a contradiction names the page and the words that disagree (page:, words:)")
        if self.kind != "contradiction" and (self.page or self.words or self.place != "page"):
            raise ValueError(f"page:, place: and words: cite a contradiction, not {self.kind}")
        return self


class Erratum(Strict):
    """A correction: the published value, the corrected one, the check that caught it and the evidence."""

    id: Slug
    edition: EditionId = Field(description="the edition that carries the correction")
    file: str
    path: str | None = Field(None, description="dotted data path; omit for a text correction")
    published: str | int | float | bool | None
    corrected: str | int | float | bool | None
    count: Bounded(1, 1000, "times") = Field(1, description="for text corrections: how often the text occurs")
    check: str
    note: str
    evidence: Evidence


class Errata(Strict):
    """All corrections between editions."""

    errata: list[Erratum]


LIFETIME_KINDS = ("game_added", "game_retired", "variant_added", "variant_retired")


class Revision(Strict):
    """The editors' own decision (book.yaml's decided_by), not a mistake: a rule changed, an alternate rule added, a
    target changed, a game or variant added or retired. Older editions are rebuilt by undoing a change (``before``),
    as errata."""

    id: Slug
    edition: EditionId = Field(description="the first edition with the change")
    date: Date = Field(description="the day it was decided, written YYYY-MM-DD (quoted), e.g. \"2026-12-01\"")
    kind: Literal["rule", "alternate_rule", "target", "game_added", "game_retired", "variant_added", "variant_retired"]
    why: str = Field(min_length=1, description="one sentence for readers: what changed and why")
    file: str | None = Field(None, description="the file changed: rules_data/<game>.yaml or content/<page>.md")
    path: str | None = Field(None, description="dotted data path of the changed value; omit for a text change")
    before: str | int | float | bool | None = Field(None, description="what the edition before printed")
    after: str | int | float | bool | None = Field(None, description="what this edition prints")
    count: Bounded(1, 1000, "times") = Field(1, description="for a text change: how often the new text occurs")
    game: Slug | None = Field(None, description="the game added, retired, or given an alternate rule")
    variant: Slug | None = Field(None, description="the variant added or retired")
    rule: Bounded(1, 99, "") | None = Field(None, description="alternate_rule: the number of the rule added (introduced: this edition)")

    @model_validator(mode="after")
    def _shape(self) -> Revision:
        if not self.why.strip():
            raise ValueError("why: say in one sentence what was changed and why")
        changes = self.file is not None
        if self.kind in LIFETIME_KINDS or (self.kind == "alternate_rule" and not changes):
            if changes or self.path is not None or self.before is not None or self.after is not None:
                raise ValueError(f"a {self.kind} revision names the game{' and the rule' if self.rule else ''}; "
                                 "file:, path:, before: and after: record a changed rule instead")
            if self.game is None:
                raise ValueError(f"a {self.kind} revision names the game (game:)")
            if self.kind.startswith("variant_") and self.variant is None:
                raise ValueError(f"a {self.kind} revision names the variant (variant:) as well as its game")
            if self.kind == "alternate_rule" and self.rule is None:
                raise ValueError("an alternate_rule revision records the change (file:, before:, after:) "
                                 "or names the game and the number of the rule added (game:, rule:)")
            return self
        if not changes or self.before is None or self.after is None:
            raise ValueError(f"a {self.kind} revision records the change: file:, before: and after: "
                             "(and path: for a data value)")
        if self.before == self.after:
            raise ValueError("before: and after: are the same: a revision changes something")
        if self.kind == "target" and not (self.path or "").endswith("target"):
            raise ValueError("a target revision changes a goal's target: its path ends in 'goal.target'")
        if self.game is not None or self.variant is not None or self.rule is not None:
            raise ValueError("game:, variant: and rule: name what is added or retired; a changed rule names its file")
        return self


class Revisions(Strict):
    """The editors' decisions between editions (rules_data/revisions.yaml)."""

    revisions: list[Revision] = []


class Acceptance(Strict):
    """A warning the editors read and let stand in the named files, with the reason they give."""

    check: str = Field(description="the warning's check, area.problem")
    files: list[str] = Field(min_length=1, description="the files it is accepted in, as findings name them")
    matching: str | None = Field(None, description="only findings whose message contains these words")
    edition: EditionId = Field(description="the edition whose editors accepted it; it holds from then on")
    because: str = Field(min_length=1, description="why it stands, printed once by rulebook validate")


class Accepted(Strict):
    """The warnings the book knowingly lets stand (rules_data/accepted.yaml)."""

    accepted: list[Acceptance]


Deal.model_rebuild()

"""Page views: what a game page shows, worked out once for the site and the PDF alike."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ...book import index as book_index
from ...book.arith import ArithmeticError_, example_values, worked
from ...book.library import GameSource, Library
from ...book.model import Game, GameBody, Round, Source, Variant
from ...book.prose import expand, format_value, lookup, split_blocks
from ...book.words import _, n_
from . import describe
from .markup import Markup, escape, inline_markdown


# The rounds table's first column where its rows are not rounds, by what the sheet keeps (GameBody.keeps): a
# function, as the words are the book's language's, read when a page is written.
def _round_headings() -> dict[str, str]:
    return {"melds": _("Each player's meld")}


@dataclass
class BodyView:
    """A game's or a variant's content, ready to print."""

    body: GameBody
    data: dict[str, Any]
    scopes: list[dict[str, Any]]
    segments: list[tuple[str, Any]]
    glance: list[tuple[str, str]]
    includes: Any = None  # Library.includes: is a variant or rule in this edition
    prefix: str = ""  # for element ids: several blocks of one kind can share a page (or the book)
    headed: set[str] = field(default_factory=set)  # blocks whose title the prose prints just before them

    def text(self, value: str | None, local: dict[str, Any] | None = None) -> Markup:
        """YAML text with its {references} filled in, escaped, with **bold** and *italics* kept."""
        if value is None:
            return Markup("")
        return inline_markdown(expand(value, *([local] if local else []), *self.scopes))

    def item_value(self, item: Any, in_round: bool = False) -> str:
        """A score item's value as printed."""
        scope: dict[str, Any] = {}
        for s in reversed(self.scopes):  # the first scope (the variant's own data) wins
            scope.update(s)
        return describe.item_value(item, scope, in_round)

    def item_lines(self, table: Any) -> list[str]:
        """A list/inline table's items as sentences: its ``line`` with label and value filled in."""
        out = []
        for item in table.items:
            local = item.model_dump(exclude_none=True)
            # Markup.replace escapes plain text and keeps the label's markup: nothing is escaped twice.
            line = escape(table.line).replace("{label}", self.text(item.label, local))
            out.append(line.replace("{value}", inline_markdown(self.item_value(item))))
        return out

    def alternate_rules(self) -> list[Any]:
        """The alternate rules that belong to this edition."""
        rules = self.body.alternate_rules.rules if self.body.alternate_rules else []
        return [r for r in rules if self.includes(r)]

    def examples(self) -> dict[str, dict[str, tuple]]:
        """Each example's figures: name -> (computed, stated, problem)."""
        return {k: example_values(ex.values) for k, ex in self.body.examples.items()}

    def example_rows(self, key: str) -> list[tuple[Markup, str, str]]:
        """An example's lines as the book words them: (label, the working in numbers, the result).

        Only labelled figures get a line; an unlabelled one shows as a number in the lines that use it.
        """
        figures = {name: format_value(stated if stated is not None else computed)
                   for name, (computed, stated, _where) in self.examples()[key].items()}
        rows = []
        for name, v in self.body.examples[key].values.items():
            label = getattr(v, "label", None)
            if not label:
                continue
            try:
                working = worked(v.expr, figures) if v.expr else ""
            except ArithmeticError_:  # example.bad_expression reports it; the page shows no working
                working = ""
            if working == figures[name]:
                working = ""  # 'Game 1 – line 1: 5 = 5' says nothing a reader needs
            rows.append((self.text(label), working, figures[name]))
        return rows

    def round_heading(self) -> str | None:
        """What the rounds table's first column numbers, where it is not the round (the table then says 'Round'):
        the data's ``rounds.heading``, else each player's meld in a game whose sheet keeps which melds each player
        has made (``keeps: melds``: Desert Rummy, 'Each player could be on a different meld at any given time')."""
        rounds = self.body.rounds
        if rounds is not None and rounds.heading:
            return str(self.text(rounds.heading))
        return _round_headings()["melds"] if self.body.keeps == "melds" else None

    def round_columns(self) -> list[tuple[str, str]]:
        """Which columns the rounds table needs: (field, heading)."""
        rounds = self.body.rounds.items if self.body.rounds else []
        cols = []
        for name, attr in ((_("Cards"), "each"), (_("Wild"), "wild"), (_("Meld"), "meld"),
                           (_("Minimum meld"), "min_meld"), (_("Trump"), "trump"), (_("Hands"), "hands"),
                           (_("Scoring"), "scoring"), (_("Possible"), "possible")):
            if any(getattr(r, attr) not in (None, [], "") for r in rounds):
                cols.append((attr, name))
        return cols

    def round_cells(self, r: Round) -> dict[str, str]:
        """The cells of one round's row (free text through ``text``: its **bold** is bold, not asterisks)."""
        cells = {
            "each": _("%(cards)s dealt", cards=describe.cards_count(r.each)) if r.each is not None else "",
            "wild": _("%(cards)s wild", cards=describe.card_words(r.wild)) if r.wild else "",
            "meld": r.meld or "",
            "min_meld": str(r.min_meld) if r.min_meld is not None else "",
            "trump": (r.trump if "trump" in r.trump.lower() else _("%(suit)s trump", suit=r.trump)) if r.trump else "",
            "hands": self.hands_cell(r.hands),
            # The label is the rules' words, the value the amount: a colon keeps them apart ('The last trick: 20
            # points'), where a space ran them into one false sentence ('Each trick counts as double 2 points each').
            "scoring": Markup("; ").join(Markup("{}: {}").format(self.text(i.label),
                                                                 inline_markdown(self.item_value(i, in_round=True)))
                                         for i in r.scoring),
            "possible": str(r.possible) if r.possible is not None else "",
        }
        return cells

    def hands_cell(self, hands: list[str]) -> Markup:
        """A round's hands in one cell, their emphasis kept; 'No trump (all 4 hands)' when all are alike."""
        if len(hands) > 1 and len(set(hands)) == 1:
            return escape(_("%(hand)s (all %(hands)s)")) % {
                "hand": self.text(hands[0]), "hands": describe.counted(len(hands), "%(count)s hand", "%(count)s hands")}
        return Markup("; ").join(self.text(h) for h in hands)

    def sequences(self) -> list[str]:
        """Generated rounds, described: 'With 3-5 players: 10, 9, ... 1, ... 10 cards'."""
        out = []
        rounds = self.body.rounds
        if rounds is None:
            return out
        for s in rounds.sequences:
            sizes = list(range(s.start, s.low - 1, -1))
            if s.back_up:
                sizes += list(range(s.low + 1, s.start + 1))
            # The hands as the source lists them ('Play 10 to 1 and then back up to 10'), not a count of them ('19
            # hands') the program works out: that is the checks' (rounds.count_mismatch), not the reader's.
            who = _("With %(count)s players", count=describe.players_phrase(s.players)) if s.players is not None \
                else _("Hands")
            out.append(_("%(who)s: %(cards)s", who=who, cards=n_("%(count)s card", "%(count)s cards",
                                                                  1 if sizes == [1] else 2,
                                                                  count=", ".join(map(str, sizes)))))
        if rounds.ranks:
            out.append(_("One round for each rank %(ranks)s; the rank sets the cards dealt and is wild",
                         ranks=rounds.ranks))
        if rounds.then_reversed:
            out.append(_("The %(hands)s above, then the same hands in reverse order",
                         hands=describe.counted(len(rounds.items), "%(count)s hand", "%(count)s hands")))
        return out

    def placed(self, path: str) -> bool:
        """Whether the prose places the data block ``path`` itself (``{score_sheet}`` in content/<game>.md)."""
        return any(kind == "block" and value == path for kind, value in self.segments)

    def unplaced(self) -> list[str]:
        """Data blocks the prose did not place; the page appends them so that all data shows."""
        placed = {seg[1] for seg in self.segments if seg[0] == "block"}
        out = []
        for key in self.body.scoring:
            if f"scoring.{key}" not in placed:
                out.append(f"scoring.{key}")
        if self.body.rounds and (self.body.rounds.items or self.body.rounds.sequences or self.body.rounds.ranks) \
                and "rounds" not in placed:
            out.append("rounds")
        for key in self.body.examples:
            if f"examples.{key}" not in placed:
                out.append(f"examples.{key}")
        if self.body.alternate_rules and "alternate_rules" not in placed:
            out.append("alternate_rules")
        return out


@dataclass
class DecisionNote:
    """A decision of the family's that changed a game in this edition, as the game's page says so."""

    label: str  # 'Changed in 2026.3' ('Added in 2026.3': the decision added the game)
    why: str  # the decision's one sentence (revisions.yaml's why)
    anchor: str  # the decision on What changed (describe.decision_anchor)


def decision_notes(lib: Library, game_id: str) -> list[DecisionNote]:
    """The decisions of this edition that changed a game: a rule, a target, a variant added or retired, the game
    added. Corrections are not among them: the errata list those."""
    here = lib.edition.id
    # One sentence, on one line: a line break in the YAML would end the site's note box (an indented block).
    return [DecisionNote(_("Added in %(edition)s", edition=here) if r.kind == "game_added"
                         else _("Changed in %(edition)s", edition=here), " ".join(r.why.split()),
                         describe.decision_anchor(r.id))
            for r in lib.revisions
            if r.edition == here and r.kind != "game_retired" and describe.revision_game(r) == game_id]


@dataclass
class GamePage:
    """Everything a game page shows."""

    gs: GameSource
    game: Game
    main: BodyView
    variants: list[tuple[Variant, BodyView]] = field(default_factory=list)
    documents: dict[str, str] = field(default_factory=dict)  # book.yaml's sources: file -> what it is
    decisions: list[DecisionNote] = field(default_factory=list)  # this edition's decisions that changed the game

    def origin(self, source: Source) -> str:
        """What a cited document is, as book.yaml describes it: 'a family games blog'."""
        return self.documents.get(source.seed, source.seed)

    @staticmethod
    def part(source: Source) -> str | None:
        """The part of a document a game comes from, as the source marks it: its heading, quoted; else its date;
        else its opening words, quoted. None: the document is one part (a heading it does not print is not quoted)."""
        if source.section is not None:
            return f"“{source.section}”"
        if source.date is not None:
            return source.date
        return f"the part that opens “{source.opens}”" if source.opens is not None else None

    def origins(self, variant: Variant) -> str:
        """'a family games blog: “Golf”, “Four-Card Golf”': each document a variant cites, with its parts."""
        sections: dict[str, list[str]] = {}
        for s in variant.sources:
            part = self.part(s)
            parts = sections.setdefault(self.origin(s), [])
            if part is not None:
                parts.append(part + (f" ({s.date})" if s.date and s.section is not None else ""))
        return "; ".join(f"{doc}: {', '.join(parts)}" if parts else doc for doc, parts in sections.items())

    @property
    def id(self) -> str:
        return self.game.id

    def heading(self) -> str:
        """The title as the book prints it: 'Oh Hell! (Screw your neighbour)'."""
        return self.game.heading()

    def _cited(self) -> list[Source]:
        return self.game.sources + [s for v, _view in self.variants for s in v.sources]

    def _citation(self, src: Source) -> str:
        part = self.part(src)
        line = self.origin(src) + (f", {part}" if part else "")
        return line[:1].upper() + line[1:]  # it opens the line

    def sources(self) -> list[str]:
        """'The book as published (2026, Revision 1), “Golf”' for the game and each variant (``part``)."""
        out = []
        for src in self._cited():
            line = self._citation(src) + (f", {src.date}" if src.date and src.section is not None else "")
            if line not in out:
                out.append(line)
        return out

    def source_corrections(self) -> list[str]:
        """Each mistake of a source corrected while transcribing it (never printed by the book, so no erratum):
        'A card-games site (Standard Gin Rummy), “Gin Rummy”: the source says “122”; corrected to “95” because …'."""
        return [f"{self._citation(src)}: the source says “{format_value(c.says)}”; corrected to "
                f"“{format_value(c.corrected)}” because {c.because}"
                for src in self._cited() for c in src.corrections]


def _segments(text: str | None) -> list[tuple[str, Any]]:
    return split_blocks(text) if text else []


def _view(lib: Library, body: GameBody, data: dict[str, Any], scopes: list[dict[str, Any]],
          prose: str | None, stated_players: str | int | None = None) -> BodyView:
    segments = []
    for kind, value in _segments(prose):
        segments.append((kind, expand(value, *scopes, lib.scope()) if kind == "md" else value))
    view = BodyView(body, data, scopes, segments, describe.glance(body, stated_players), lib.includes)
    view.headed = _headed_blocks(view)
    return view


def _headed_blocks(view: BodyView) -> set[str]:
    """Blocks the prose already heads with their own title, so the table needs no caption repeating it."""
    def words(text: str) -> str:
        return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()

    headed = set()
    for (kind, text), (next_kind, path) in zip(view.segments, view.segments[1:], strict=False):
        lines = [line for line in text.splitlines() if line.strip()] if kind == "md" else []
        if next_kind != "block" or not lines or not lines[-1].startswith("#"):
            continue
        if path == "rounds":
            title = view.body.rounds.title if view.body.rounds else None
        elif path.startswith("scoring.") and path[8:] in view.body.scoring:
            title = view.body.scoring[path[8:]].title
        else:
            continue
        if title and words(lines[-1].lstrip("#")) == words(title):
            headed.add(path)
    return headed


def game_page(lib: Library, gs: GameSource, book: bool = False) -> GamePage:
    """The view of one game and its variants (those in this edition); ``book``: ids unique book-wide."""
    data = gs.doc.data
    main = _view(lib, gs.game, data, [data], gs.prose.text if gs.prose else None,
                 book_index.stated_players(lib, gs.game))
    main.prefix = f"{gs.id}-" if book else ""
    page = GamePage(gs, gs.game, main, documents={d.seed: d.title for d in lib.book.sources},
                    decisions=decision_notes(lib, gs.id))
    for i, variant in enumerate(gs.game.variants):
        if not lib.includes(variant):
            continue
        vdata = lookup(data, f"variants.{i}")
        prose = gs.variant_prose.get(variant.id)
        view = _view(lib, variant, vdata, [vdata, data], prose.text if prose else None)
        view.glance = describe.variant_glance(variant, main.glance)  # what its reader is left with, row by row
        view.prefix = main.prefix + f"{variant.id}-"
        page.variants.append((variant, view))
    return page

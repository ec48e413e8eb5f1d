"""Mutation test: change any number of the book and the change must be seen.

Every numeric leaf of a game's data (``rules_data/<game>.yaml``), and every number the prose states
that a check binds to the data, is changed in turn (in process, one game at a time). Each change must

(a) show in ``rulebook diff``'s engine (``generator.book.compare.compare_game``) as a change to that game, with
    the old and the new value in its words;
(b) change the game page's rendered text, unless the leaf is on NON_PRINTING below, with its reason;
(c) when the same quantity is stated twice (a stated total, count, deck size or best score, a worked
    example's figure, a score's printed wording, a number in the prose), make a check report an
    error at that file and the line of the second statement.

``book.yaml`` and ``errata.yaml`` are not mutated: their numbers (edition years, printed index pages,
errata values) are no game's rules, so (a) cannot name a game; ``tests/test_corrections.py`` and the
index checks cover them. The counts per kind are printed (``pytest -s``); any miss fails the test.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

import pytest

from generator.book.compare import compare_game
from generator.book.library import GameSource, Library, load_library
from generator.book.loader import TextDoc, YamlDoc
from generator.book.model import Game
from generator.book.numwords import score, to_words
from generator.book.prose import REF, format_value
from generator.checks import effective, load_all, run_checks
from generator.checks.prose_numbers import PHRASES, modelled
from generator.checks.values import stated_values
from generator.render.site.docs import game_markdown, site_environment
from generator.render.views.pages import game_page
from tests.conftest import ROOT

# The checks that read the earlier editions from the files (their fingerprints, the editions rebuilt from disk, the
# published records' seals) find the same things on every mutation, which is made in memory: they are left out (two
# thirds of the checks' time; frozen.changed, which hashes every file of 2026.1's record, a fifth of what was left).
FROM_THE_FILES = {"edition.frozen", "erratum.not_published", "frozen.changed"}
ERROR_CHECKS = sorted(name for name, chk in load_all().items() if chk.severity == "error" and name not in FROM_THE_FILES)

# Numbers that print nowhere on the game page, each with the reason; (b) is not asked of them.
NON_PRINTING: dict[str, str] = {
    # issue 52: a game's web page shows its sheet as printed on its own (views/sheets.py), whose hand rows fill the
    # page; the rows a block states are those of the book's own drawing of it (2026.1's Gin tournament card)
    "score_sheet.blocks.*.blank_rows": "the rows of the book's drawing of a sheet, printed in the book alone",
}


def implied(data: dict, path: tuple) -> bool:
    """The number sits in a part the source does not state (``implied: true``, e.g. Chase the Ace's deal), or is
    one the transcriber worked out (``worked_out``, Hand and Foot's 28 each): the checks use it, the book prints
    nothing of it (say only what the sources say), so (b) is not asked."""
    node = data
    for key in path[:-1]:
        node = node[key]
        if isinstance(node, dict) and node.get("implied") is True:
            return True
    return isinstance(node, dict) and path[-1] in node.get("worked_out", [])


@dataclass
class Leaf:
    """One number in a game's data: its file, its path of keys, and its value."""

    game: str
    path: tuple[str | int, ...]
    value: int | float

    @property
    def dotted(self) -> str:
        return ".".join(map(str, self.path))

    @property
    def pattern(self) -> str:
        """The path with list indexes and the variant prefix folded: 'scoring.*.items.*.points'."""
        tail = self.path[2:] if self.path[:1] == ("variants",) else self.path
        return ".".join("*" if isinstance(p, int) else p for p in tail)


def leaves(node: Any, path: tuple = ()) -> list[tuple[tuple, int | float]]:
    """Every int or float in plain YAML data, with its path."""
    if isinstance(node, dict):
        return [leaf for k, v in node.items() for leaf in leaves(v, path + (k,))]
    if isinstance(node, list):
        return [leaf for i, v in enumerate(node) for leaf in leaves(v, path + (i,))]
    if isinstance(node, (int, float)) and not isinstance(node, bool):
        return [(path, node)]
    return []


def get(data: Any, path: tuple) -> Any:
    for p in path:
        data = data[p]
    return data


def renderings(value: int | float) -> set[str]:
    """The ways a number may be written in words of the diff: '10000', '10,000', 'ten', '30 ½'."""
    out = {str(value), format_value(value), score(value), score(value, "abs")}
    if value == int(value):
        out |= {str(int(value)), f"{int(value):,}", to_words(int(value))}
    return out


def shows(text: str, value: int | float) -> bool:
    # whole numbers only: '13' is not in '113', '1,130' or '13.5', but is in 'possible 13, ...'
    return any(re.search(rf"(?<![\d.])(?<!\d,){re.escape(r)}(?![\d]|[.,]\d)", text, re.IGNORECASE)
               for r in renderings(value))


# --- which numbers are a second statement of something the data already says (part c) -------------

STATEMENT = re.compile(r"(^|\.)(stated_total|stated_cards|stated_count|possible|stated)$")


def item_of(data: dict, path: tuple) -> dict | None:
    """The score item a ``points``/``cents`` leaf belongs to."""
    if path[-1] in ("points", "cents"):
        parent = get(data, path[:-1])
        if isinstance(parent, dict) and "label" in parent:
            return parent
    return None


def must_err_at(gs: GameSource, leaf: Leaf) -> set[int] | None:
    """The lines where a check must report an error when ``leaf`` changes; None if it is said only once."""
    data, path = gs.doc.data, leaf.path
    given = "examples" in path and not get(data, path[:-1]).get("expr") if path[-1] == "stated" else False
    if STATEMENT.search(leaf.dotted) and not given:
        return {gs.where(path).line}
    item = item_of(data, path)
    # A score's printed wording states the number itself, unless it prints it from the data.
    if item is not None and isinstance(item.get("value"), str) and stated_values(REF.sub("", item["value"])):
        return {gs.where(path[:-1] + ("value",)).line}
    if "examples" in path:
        # A worked example's given figure: every result computed from it is stated, so must now be wrong.
        values = get(data, path[: path.index("values") + 1])
        name = path[path.index("values") + 1]
        dependents = [k for k, v in values.items()
                      if isinstance(v, dict) and re.search(rf"\b{re.escape(str(name))}\b", v.get("expr") or "")
                      and v.get("stated") is not None]
        if dependents:
            return {gs.where(path[: path.index("values") + 1] + (k, "stated")).line for k in dependents}
    return None


# --- applying a change -----------------------------------------------------------------------------

def mutated(value: int | float) -> int | float:
    return value + 1


def one_game(lib: Library, gs: GameSource) -> Library:
    """``lib`` with ``gs`` as its only game, sharing ``lib``'s other editions as loaded from the files: a change is made
    in memory, so the edition before (which erratum.false_evidence reads) is the same on every change, and loading it
    again for each of the 500 changes was half of this file's time."""
    new = replace(lib, games={gs.id: gs})
    new.__dict__["_editions"] = lib.__dict__.setdefault("_editions", {})  # Library.edition_library's, filled once
    return new


def with_data(lib: Library, gs: GameSource, data: dict) -> tuple[Library, GameSource] | None:
    """A one-game library holding ``gs`` with new data; None if the model refuses the data."""
    try:
        game = Game.model_validate(data)
    except ValueError:
        return None
    new = GameSource(game, YamlDoc(gs.doc.path, data, gs.doc.marks), gs.prose, gs.variant_prose)
    return one_game(lib, new), new


def with_prose(lib: Library, gs: GameSource, variant: str | None, text: str) -> tuple[Library, GameSource]:
    if variant is None:
        new = replace(gs, prose=TextDoc(gs.prose.path, text))
    else:
        prose = {**gs.variant_prose, variant: TextDoc(gs.variant_prose[variant].path, text)}
        new = replace(gs, variant_prose=prose)
    return one_game(lib, new), new


@dataclass
class Result:
    """What one change did."""

    diff: list[str]
    text: str
    errors: set[tuple[str, int, str]]


def names_game(diff: list[str], title: str) -> bool:
    """Every line of the diff says which game it is about ('Golf, scoring, ...')."""
    return bool(diff) and all(line.startswith(f"{title}, ") or line == title for line in diff)


def observe(env: Any, lib: Library, gs: GameSource, base: GameSource, base_lib: Library) -> Result:
    """The diff against the unchanged game, the page's text, and the errors the checks report."""
    lines = [c.text() for c in compare_game(base, gs, base_lib, lib)]
    text = game_markdown(env, game_page(lib, gs))
    errors = {(f.path, f.line, f.check) for f in run_checks(lib, only=ERROR_CHECKS)}
    return Result(lines, text, errors)


# --- the test --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def current() -> Library:
    return load_library(ROOT)


def prose_numbers(gs: GameSource) -> list[tuple[str | None, Any, int, re.Match, set[int]]]:
    """Every literal number the prose states that a check binds to the data.

    (variant, prose file, line, match, the numbers the data allows there).
    """
    docs = [(None, gs.game, gs.prose)] + [(v.id, v, gs.variant_prose.get(v.id)) for v in gs.game.variants]
    out = []
    for variant, body, doc in docs:
        if doc is None:
            continue
        rules = body if variant is None else effective(gs.game, body)
        known = modelled(rules)
        for n, line in enumerate(doc.text.splitlines(), 1):
            plain = REF.sub(lambda m: "x" * len(m.group(0)), line)
            for kind, _, pattern in PHRASES:
                if kind in known:
                    out += [(variant, doc, n, m, known[kind][0]) for m in pattern.finditer(plain)
                            if not any(o[1] is doc and o[2] == n and o[3].start(1) == m.start(1) for o in out)]
    return out


def test_every_number_change_is_seen(current: Library) -> None:
    assert load_all().keys() >= FROM_THE_FILES  # named as the checks are: a renamed one fails here
    counts: Counter = Counter()
    env = site_environment(current)  # one environment: its templates are compiled once
    misses: list[str] = []
    for gid, gs in current.games.items():
        base_lib = one_game(current, gs)
        base = observe(env, base_lib, gs, gs, base_lib)
        for path, value in leaves(gs.doc.data):
            leaf = Leaf(gid, path, value)
            data = copy.deepcopy(gs.doc.data)
            new_value = mutated(value)
            get(data, path[:-1])[path[-1]] = new_value
            made = with_data(base_lib, gs, data)
            kind = "example figure" if "examples" in path else leaf.pattern.split(".")[-1]
            if made is None:
                counts["refused by the model"] += 1
                continue
            lib, new = made
            seen = observe(env, lib, new, gs, base_lib)
            where = f"{gs.doc.path}:{gs.where(path).line} {leaf.dotted} {value} -> {new_value}"
            diff_text = "\n".join(seen.diff)
            if not (names_game(seen.diff, gs.game.heading()) and shows(diff_text, value) and shows(diff_text, new_value)):
                misses.append(f"(a) diff does not report {where}: {seen.diff}")
            if seen.text == base.text and leaf.pattern not in NON_PRINTING and not implied(gs.doc.data, path):
                misses.append(f"(b) page text unchanged by {where}")
            lines = must_err_at(gs, leaf)
            if lines is not None:
                counts[f"stated twice ({kind})"] += 1
                new_errors = seen.errors - base.errors
                if not any(p == gs.doc.path and line in lines for p, line, _ in new_errors):
                    misses.append(f"(c) no error at {gs.doc.path}:{sorted(lines)} for {where}: {sorted(new_errors)}")
            counts[f"data: {kind}"] += 1
        for variant, doc, line_no, m, allowed in prose_numbers(gs):
            # a number the data does not allow there, written as the prose wrote the old one
            new_number = max(allowed) + 1
            new_word = str(new_number) if m.group(1)[0].isdigit() else to_words(new_number)
            lines = doc.text.splitlines(keepends=True)
            line = lines[line_no - 1]
            lines[line_no - 1] = line[:m.start(1)] + new_word + line[m.end(1):]
            lib, new = with_prose(base_lib, gs, variant, "".join(lines))
            seen = observe(env, lib, new, gs, base_lib)
            where = f"{doc.path}:{line_no} '{m.group(0)}' -> {new_word}"
            if not (names_game(seen.diff, gs.game.heading()) and new_word in "\n".join(seen.diff)):
                misses.append(f"(a) diff does not report {where}: {seen.diff}")
            if seen.text == base.text:
                misses.append(f"(b) page text unchanged by {where}")
            if not any(p == doc.path and n == line_no for p, n, _ in seen.errors - base.errors):
                misses.append(f"(c) no error at {doc.path}:{line_no} for {where}")
            counts["prose number"] += 1
    print("\nmutations by kind:")
    for kind, n in sorted(counts.items()):
        print(f"  {kind}: {n}")
    assert not misses, f"{len(misses)} changes not seen:\n" + "\n".join(misses)


# --- breaks that are not a number's +1: each must make a check report an error ----------------------
# A deal line that names its players, made impossible; a card group's value turned to face value under a
# stated total; a card group dropped from a variant's own value table. Each site is a whole mutation:
# the book with it must have an error in the game's file that the book without it does not.

def _bodies(data: dict) -> list[tuple[tuple, dict]]:
    """(path prefix, data) of the game and each variant (a variant's fields are under variants.N)."""
    return [((), data)] + [(("variants", i), v) for i, v in enumerate(data.get("variants") or [])]


def named_deal_lines(gs: GameSource) -> list[tuple[str, tuple, Any]]:
    """Each deal line naming its players, asked for far more than any deck or set holds (the most the model allows)."""
    from generator.book.model import MAX_DEALT

    out = []
    for prefix, body in _bodies(gs.doc.data):
        for i, line in enumerate((body.get("deal") or {}).get("by_players") or []):
            key = "tiles" if "tiles" in line else "each"
            out.append((f"deal line for {line['players']} players", prefix + ("deal", "by_players", i, key), MAX_DEALT))
    return out


def face_value_under_a_total(gs: GameSource) -> list[tuple[str, tuple, Any]]:
    """Each card group under a stated total whose cards all have a number, valued at face value
    instead where that changes what they are worth ('Each seven: 30' -> four sevens at 7)."""
    from generator.book.cards import parse_cards
    deck = [(rank, suit) for rank in range(1, 14) for suit in "cdhs"]
    out = []
    for prefix, body in _bodies(gs.doc.data):
        tables = [(("scoring", k), t.get("items") or [], t.get("stated_total") is not None)
                  for k, t in (body.get("scoring") or {}).items()]
        tables += [(("rounds", "items", r, "scoring"), rnd.get("scoring") or [], False)
                   for r, rnd in enumerate((body.get("rounds") or {}).get("items") or [])]
        for where, items, table_total in tables:
            for i, item in enumerate(items):
                if not (item.get("cards") and isinstance(item.get("points"), (int, float))
                        and item.get("per", "card") == "card" and (table_total or item.get("stated_total") is not None)):
                    continue
                try:
                    cards = [c for c in deck if parse_cards(item["cards"])(c)]
                except ValueError:
                    continue
                if cards and all(2 <= r <= 10 for r, _ in cards) and sum(r for r, _ in cards) != len(cards) * item["points"]:
                    out.append((f"{item['label']} at face value", prefix + where + ("items",) * (where[0] == "scoring")
                                + (i, "points"), "face"))
    return out


def variant_value_groups(gs: GameSource) -> list[tuple[str, tuple, Any]]:
    """Each card group of a variant's own value table, dropped from it (the game's tables value it).

    Not for a variant whose own equipment names no cards: its fields replace the game's, so it has no
    cards in play to value (Family Four-Card Golf states only its stakes; its source names no deck)."""
    out = []
    for prefix, body in _bodies(gs.doc.data)[1:]:
        if "equipment" in body and not body["equipment"].get("cards"):
            continue
        for key, table in (body.get("scoring") or {}).items():
            if table.get("kind") in ("card_values", "counters"):
                out += [(f"{body['id']}: {item['label']} dropped", prefix + ("scoring", key, "items", i), DROP)
                        for i, item in enumerate(table["items"]) if item.get("cards") and len(table["items"]) > 1]
    return out


DROP = object()  # the mutation removes the item
BREAKS = {"named deal line": (named_deal_lines, {"deal.exceeds_deck", "deal.uneven"}),
          "face value under a total": (face_value_under_a_total, {"scoring.total_mismatch"}),
          "variant value table": (variant_value_groups, {"card_values.variant_drops", "card_values.missing"})}


@pytest.mark.parametrize("family", BREAKS)
def test_every_break_is_an_error(current: Library, family: str) -> None:
    sites, expected = BREAKS[family]
    tried, misses = 0, []
    for gid, gs in current.games.items():
        base_lib = one_game(current, gs)
        before = {(f.path, f.check) for f in run_checks(base_lib, only=ERROR_CHECKS)}
        for what, path, value in sites(gs):
            data = copy.deepcopy(gs.doc.data)
            if value is DROP:
                get(data, path[:-1]).pop(path[-1])
            else:
                get(data, path[:-1])[path[-1]] = value
            made = with_data(base_lib, gs, data)
            if made is None:
                misses.append(f"{gid}: {what}: the model refuses it")
                continue
            after = {(f.path, f.check) for f in run_checks(made[0], only=ERROR_CHECKS)}
            if not any(p == gs.doc.path and c in expected for p, c in after - before):
                misses.append(f"{gs.doc.path} {'.'.join(map(str, path))}: {what}: no {' or '.join(sorted(expected))}")
            tried += 1
    print(f"\n{family}: {tried} breaks")
    assert tried, f"{family}: the book has no site for this break any more"
    assert not misses, f"{len(misses)} breaks not caught:\n" + "\n".join(misses)

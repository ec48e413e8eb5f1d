"""Cross references: 'See Alternate Rule N' resolves, and no numbered alternate rule is orphaned."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..book.library import GameSource, Library
from ..book.words import _
from ..errors import Location
from . import Found, check

SEE_RULE = re.compile(r"alternate rules?\s*(\d{1,9})(?!\d)", re.I)  # (not 5,000 digits: no rule is)
SEE_RULES = re.compile(r"\(?(?:see\s+)?alternate rules\)?(?!\s*\d)", re.I)


def _texts(lib: Library, gs: GameSource) -> Iterator[tuple[Location, str]]:
    """Every prose line of a game and of its variants."""
    proses = [gs.prose] + list(gs.variant_prose.values())
    for prose in proses:
        if prose is None:
            continue
        for n, line in enumerate(prose.text.splitlines(), 1):
            yield Location(prose.path, n), line


def _numbers(gs: GameSource, lib: Library) -> dict[int, int]:
    # Only rules headed 'Alternate Rule N' can be referred to that way; a numbered list's '1.' cannot.
    alt = gs.game.alternate_rules
    rules = alt.rules if alt and alt.numbering == "alternate_rule" else []
    return {r.number: i for i, r in enumerate(rules) if r.number is not None and lib.includes(r)}


@check("xref.unknown_alternate_rule")
def unknown_alternate_rule(lib: Library) -> Iterator[Found]:
    """Prose points to an alternate rule the game does not have."""
    for gs in lib.ordered_games():
        numbers = _numbers(gs, lib)
        has_any = bool(gs.game.alternate_rules and gs.game.alternate_rules.rules)
        for where, line in _texts(lib, gs):
            if "alternate rule" not in line.lower():  # what both patterns start from (most lines do not say it)
                continue
            for m in SEE_RULE.finditer(line):
                if int(m.group(1)) not in numbers:
                    have = ", ".join(map(str, sorted(numbers))) or "none"
                    yield where, _("'Alternate Rule %(group)s' does not exist (numbered rules: %(have)s)",
                                   group=m.group(1), have=have), gs.id
            if SEE_RULES.search(line) and not has_any:
                yield where, _("refers to the alternate rules, but the game has none"), gs.id


@check("alternate_rule.orphaned", "warning")
def orphaned(lib: Library) -> Iterator[Found]:
    """A numbered alternate rule is never referred to from the rules."""
    for gs in lib.ordered_games():
        referred = {int(m.group(1)) for _, line in _texts(lib, gs) for m in SEE_RULE.finditer(line)}
        for number, i in _numbers(gs, lib).items():
            if number not in referred:
                yield (gs.where(("alternate_rules", "rules", i)),
                       _("Alternate Rule %(number)s is numbered but nothing says 'See Alternate Rule %(number)s'",
                         number=number), gs.id)

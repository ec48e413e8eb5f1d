"""No input makes a regular expression of generator/ slow (issue 60, item 1).

Each pattern is fed the worst input `tests/worstcase.py` finds for it (built from the pattern: a prefix it names, a
pumped run of what it matches, a character that makes it fail), at n and 4n characters, tried as the program uses it
(once at the start for a pattern only ever matched there, at every start for one searched). The cost must grow as
the length does: 4 times, where a quadratic pattern costs 16 and a cubic one 64; the bound, 8, leaves room for noise.
A ratio of costs, in CPU time, in one run: no wall-clock limit.
"""

from __future__ import annotations

import re

import pytest

from tests import hostile, worstcase

BOUND = 8.0

# The patterns the issue found slow, as they were: the search must find them slow, or a pass proves nothing.
OLD = {
    "rules_text._NOT_RULES": (re.compile(r"^\s*(#.*|[-*_=\s]*|<!--.*-->)\s*$"), True),
    "references.DOUBLED": (re.compile(r"\{\{\s*([^{}]*?)\s*\}\}|\{\{|\}\}"), False),
    "links._CODE_SPAN": (re.compile(r"(`+)(?:(?!\1).)+?\1"), False),
    "verify.TOKEN's tag": (re.compile(r"""<(?P<tag>[a-zA-Z][^\t\n\f\r />]*)(?P<attrs>(?:"[^"]*"|'[^']*'|[^'">])*)>"""),
                           False),
    "printable's table rule": (re.compile(r"\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*"), True),
}


@pytest.mark.parametrize("name", sorted(OLD))
def test_the_search_finds_the_slow_patterns_of_old(name):
    pattern, at_start = OLD[name]
    ratio, shown = worstcase.worst(pattern, at_start, enough=BOUND)
    assert ratio > BOUND, f"{name}: the search found no slow input (worst growth {ratio:.1f}x)"


def test_every_pattern_grows_linearly():
    found = worstcase.patterns()
    assert len(found) > 150, "the patterns of generator/ were not all found"
    slow = []
    for where, (pattern, at_start) in found.items():
        ratio, shown = worstcase.worst(pattern, at_start)
        if ratio > BOUND:
            slow.append(f"{where}: {pattern.pattern[:80]!r} costs {ratio:.0f}x at 4n on {shown}")
    hostile.tried("regex.worst_case", len(found))
    if slow:
        hostile.through("regex.worst_case", len(slow))
    assert not slow, "\n".join(slow)


def test_each_pattern_kept_is_found_by_its_use():
    """The search tries a pattern once at the start only where every use of it in the program does."""
    found = worstcase.patterns()
    assert found["generator.book.arith._TOKEN"][1]  # `_TOKEN.match(expr, pos)` alone
    assert not found["generator.checks.references.DOUBLED"][1]  # searched
    assert found["generator.book.loader._AMBIGUOUS[0]"][1]  # `for pattern, why in _AMBIGUOUS: pattern.fullmatch`

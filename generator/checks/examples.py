"""Worked examples: every stated figure is recomputed from its parts."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.arith import example_values
from ..book.library import Library
from ..book.model import ExampleValue
from ..book.prose import format_value
from ..book.words import _
from . import Found, bodies, check


@check("example.arithmetic")
def arithmetic(lib: Library) -> Iterator[Found]:
    """A worked example states a figure its own arithmetic does not give."""
    for b in bodies(lib):
        for key, example in b.rules.examples.items():
            for name, (computed, stated, problem) in example_values(example.values).items():
                value = example.values[name]
                if problem or computed is None or stated is None or abs(computed - stated) < 1e-9:
                    continue
                label = value.label if isinstance(value, ExampleValue) and value.label else name
                expr = value.expr if isinstance(value, ExampleValue) else ""
                yield (b.at("examples", key, "values", name),
                       _("%(name)s%(title)s, %(label)s: %(expr)s = %(computed)s, stated %(stated)s", name=b.name,
                         title=example.title, label=label, expr=expr, computed=format_value(round(computed, 6)),
                         stated=format_value(stated)),
                       b.game)


@check("example.bad_expression")
def bad_expression(lib: Library) -> Iterator[Found]:
    """A worked example's expression is not arithmetic over its earlier figures."""
    for b in bodies(lib):
        for key, example in b.rules.examples.items():
            for name, (_value, _shown, problem) in example_values(example.values).items():
                if problem:
                    yield b.at("examples", key, "values", name), f"{b.name}{example.title}, {name}: {problem}", b.game

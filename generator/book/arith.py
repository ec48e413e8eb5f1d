"""Safe arithmetic for worked examples: numbers, names, + - * / and parentheses, nothing else."""

from __future__ import annotations

import ast
import functools
import operator
import re
from collections.abc import Mapping

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
MAX_EXPR = 500  # characters; examples are short, and a bound keeps the parser cheap
_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<name>[A-Za-z_]\w*)|(?P<op>[-+*/×÷()]))")
_PRINTED_OPS = {"-": "−", "*": "×", "/": "÷", "+": "+", "×": "×", "÷": "÷"}


class ArithmeticError_(ValueError):
    """An expression that is not plain arithmetic over known names."""


@functools.lru_cache(maxsize=4096)
def names_in(expr: str) -> frozenset[str]:
    """The names an expression uses (worked out once per expression: every load of a worked example asks)."""
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return frozenset()
    return frozenset(n.id for n in ast.walk(tree) if isinstance(n, ast.Name))


def evaluate(expr: str, names: Mapping[str, float]) -> float:
    """Evaluate ``expr``; raise ArithmeticError_ for anything but arithmetic over ``names``."""
    if len(expr) > MAX_EXPR:
        raise ArithmeticError_(f"expression longer than {MAX_EXPR} characters")
    try:
        tree = ast.parse(expr.replace("×", "*").replace("÷", "/"), mode="eval")
    except SyntaxError:
        raise ArithmeticError_(f"'{expr}' is not arithmetic") from None

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Div) and right == 0:
                raise ArithmeticError_("division by zero")
            try:
                return _OPS[type(node.op)](left, right)
            except OverflowError:  # a whole number too large to divide as a fraction
                raise ArithmeticError_(f"'{expr[:40]}' works out to a number too large for any score") from None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = ev(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise ArithmeticError_(f"unknown name '{node.id}'")
            return names[node.id]
        raise ArithmeticError_(f"'{expr}' uses something other than + - * / and names")

    return ev(tree)


def example_values(values: Mapping[str, object]) -> dict[str, tuple[float | None, float | None, str | None]]:
    """For each figure: (computed, stated, problem). Later figures use earlier *computed* ones,
    so one wrong figure is reported once, not again in every running total after it."""
    computed: dict[str, float] = {}
    out: dict[str, tuple[float | None, float | None, str | None]] = {}
    for name, v in values.items():
        if isinstance(v, (int, float)):
            computed[name] = v
            out[name] = (v, v, None)
            continue
        expr, stated = getattr(v, "expr", None), getattr(v, "stated", None)
        if expr is None:
            if stated is not None:
                computed[name] = stated
            out[name] = (stated, stated, None)
            continue
        try:
            result = evaluate(expr, computed)
        except ArithmeticError_ as exc:
            out[name] = (None, stated, str(exc))
            if stated is not None:
                computed[name] = stated
            continue
        computed[name] = result
        out[name] = (result, stated, None)
    return out


def worked(expr: str, figures: Mapping[str, str]) -> str:
    """An expression as a reader sees it: each name replaced by its figure ('5 − 1', '6 × 2 + 25').

    Names never reach the page: a name without a figure raises ArithmeticError_.
    """
    parts: list[str] = []
    pos = 0
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            if expr[pos:].strip() == "":
                break
            raise ArithmeticError_(f"'{expr}' is not arithmetic")
        pos = m.end()
        if m.group("name"):
            if m.group("name") not in figures:
                raise ArithmeticError_(f"unknown name '{m.group('name')}'")
            figure = figures[m.group("name")]
            parts.append(f"({figure})" if figure.startswith(("-", "−")) else figure)
        elif m.group("num"):
            parts.append(m.group("num"))
        else:
            parts.append(_PRINTED_OPS.get(m.group("op"), m.group("op")))
    text = " ".join(parts)
    return text.replace("( ", "(").replace(" )", ")")

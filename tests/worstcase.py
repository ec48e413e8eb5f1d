"""Every regular expression of generator/, and a search for the input that makes each one slowest.

`patterns()` finds them: each literal pattern handed to a function of `re` in the source (read off the syntax tree),
and each compiled pattern a module keeps (which catches the ones built from parts). `worst(pattern)` searches for a
slow input the way a ReDoS finder does, built from the pattern itself: a prefix the pattern names literally, one to
three characters the pattern can match repeated (the pump), and a character that makes the match fail at the end;
each candidate is timed once at a small size and the slowest few are measured again at n and 4n, where a linear
pattern costs 4 times as much, a quadratic one 16 and a cubic one 64.
"""

from __future__ import annotations

import ast
import functools
import importlib
import itertools
import pkgutil
import re
import time
from pathlib import Path

try:  # Python 3.11 moved the parser
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_parse  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "generator"
_CALLS = {"compile", "search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split"}
# What a hostile text is made of, whatever the pattern names: blanks of every kind, letters, digits, punctuation
# that Markdown and the checks give meaning to.
_ALWAYS = " \u00a0\ta1*_-#{}[]().,:;'\"|<>!=\n"
SMALL, N = 60, 400


def _flags(call: ast.Call) -> int:
    flags = 0
    for node in [*call.args[1:], *(k.value for k in call.keywords if k.arg == "flags")]:
        for name in ast.walk(node):
            if isinstance(name, ast.Attribute) and isinstance(name.value, ast.Name) and name.value.id == "re":
                flags |= int(getattr(re, name.attr, 0)) if isinstance(getattr(re, name.attr, 0), re.RegexFlag) else 0
    return flags


_ANCHORED = {"match", "fullmatch"}


@functools.cache
def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def anchored(module: str, name: str) -> bool:
    """Whether the program only ever tries the pattern kept as ``name`` in ``module`` at one place (its `match` or
    `fullmatch`): then its cost is one attempt's. A pattern searched, or handed on, or used by another module, is
    tried at every start. A pattern kept in a list is followed through the loop over it (``for p, why in LIST``)."""
    path = Path(importlib.import_module(module).__file__)
    source = _source(path)
    stem = module.rsplit(".", 1)[1]
    others = [_source(p) for p in sorted(GENERATOR.rglob("*.py")) if p != path]
    if any(re.search(rf"\b{re.escape(name)}\b", text) for text in others if stem in text):
        return False
    names = [name, *re.findall(rf"for (\w+)(?:, \w+)* in {re.escape(name)}\b", source)]
    uses = {use for n in names for use in re.findall(rf"\b{re.escape(n)}\.(\w+)\(", source)}
    bare = sum(len(re.findall(rf"\b{re.escape(n)}\b(?!\.\w+\()", source)) for n in names)
    return bool(uses) and uses <= _ANCHORED and bare <= 1 + 2 * (len(names) - 1)  # where kept, and each loop's


def literal_patterns() -> dict[str, re.Pattern]:
    """Each pattern written as a literal in a call of `re` in generator/ but `re.compile` (whose pattern a module
    keeps, below), by `file:line` and the function called."""
    found: dict[str, re.Pattern] = {}
    for path in sorted(GENERATOR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CALLS
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, (str, bytes))):
                where = f"{path.relative_to(ROOT).as_posix()}:{node.lineno} re.{node.func.attr}"
                found[where] = re.compile(node.args[0].value, _flags(node))
    return found


def module_patterns() -> dict[str, re.Pattern]:
    """Each compiled pattern a module of generator/ keeps at its top (alone or in a list, tuple or dict)."""
    import generator

    found: dict[str, re.Pattern] = {}
    for info in pkgutil.walk_packages(generator.__path__, "generator."):
        if info.name.endswith("__main__"):  # running it is the command line
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            values = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else [value]
            for i, item in enumerate(values):
                for part in item if isinstance(item, tuple) else [item]:  # (pattern, why) pairs in a list
                    if isinstance(part, re.Pattern):
                        found.setdefault(f"{info.name}.{name}" + (f"[{i}]" if item is not value else ""), part)
    return found


@functools.cache
def patterns() -> dict[str, tuple[re.Pattern, bool]]:
    """Every distinct pattern of generator/, named by where it is, and whether it is only tried anchored."""
    out: dict[str, tuple[re.Pattern, bool]] = {}
    seen: set[tuple] = set()
    for where, pattern in module_patterns().items():
        module, name = where.split("[")[0].rsplit(".", 1)
        key = (pattern.pattern, pattern.flags)
        if key not in seen:
            seen.add(key)
            out[where] = (pattern, anchored(module, name))
    for where, pattern in literal_patterns().items():
        key = (pattern.pattern, pattern.flags)
        if key not in seen:
            seen.add(key)
            out[where] = (pattern, where.endswith(("re.match", "re.fullmatch")))
    return out


def _walk(parsed, literals: list[str], chars: set[str], run: list[str]) -> None:
    for op, av in parsed:
        name = str(op)
        if name == "LITERAL":
            run.append(chr(av))
            chars.add(chr(av))
            continue
        if run:
            literals.append("".join(run))
            run.clear()
        if name in ("IN",):
            negate = any(str(o) == "NEGATE" for o, _ in av)
            for o, a in av:
                if str(o) == "LITERAL" and not negate:
                    chars.add(chr(a))
                elif str(o) == "RANGE" and not negate:
                    chars.update({chr(a[0]), chr(a[1])})
                elif str(o) == "CATEGORY":
                    chars.update({"CATEGORY_DIGIT": "1", "CATEGORY_SPACE": " \u00a0", "CATEGORY_WORD": "a_",
                                  "CATEGORY_NOT_WORD": " ", "CATEGORY_NOT_SPACE": "a",
                                  "CATEGORY_NOT_DIGIT": "a"}.get(str(a), ""))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            _walk(av[2], literals, chars, run)
        elif name in ("SUBPATTERN",):
            _walk(av[-1], literals, chars, run)
        elif name in ("ATOMIC_GROUP",):
            _walk(av, literals, chars, run)
        elif name == "BRANCH":
            for branch in av[1]:
                _walk(branch, literals, chars, run)
                if run:
                    literals.append("".join(run))
                    run.clear()
        elif name in ("ASSERT", "ASSERT_NOT"):
            _walk(av[1], literals, chars, run)
    if run:
        literals.append("".join(run))
        run.clear()


def candidates(pattern: re.Pattern) -> list[tuple[str, str, str]]:
    """(prefix, pump, killer) triples built from the pattern: what a ReDoS finder would try."""
    literals: list[str] = []
    chars: set[str] = set()
    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode("latin-1")
    _walk(sre_parse.parse(source, pattern.flags & ~re.UNICODE if isinstance(pattern.pattern, bytes) else pattern.flags),
          literals, chars, [])
    alphabet = sorted(chars | set(_ALWAYS))
    prefixes = ["", *sorted({lit[:8] for lit in literals if lit.strip(" ")}, key=len)[:4]]
    pumps = [*alphabet, *(a + b for a, b in itertools.permutations(sorted(chars)[:6] + [" ", "a"], 2)),
             *(c + "a" for c in chars), *(c + " " for c in chars), *(lit[:3] + " " for lit in literals if lit)]
    pumps += ["*a ", "_a *", "[a", "a ", " a", "a, ", "1 ", "1,"]
    killers = ["", "!", "\x00"]
    return [(p, u, k) for p in prefixes for u in dict.fromkeys(pumps) for k in killers]


def _cost(pattern: re.Pattern, text, at_start: bool, repeats: int = 1) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        if at_start:
            pattern.match(text)
            pattern.fullmatch(text)
        else:
            for _m in pattern.finditer(text):
                pass
        best = min(best, time.process_time() - start)
        if best > 0.02:  # long enough that noise is small beside it
            break
    return best


def _text(pattern: re.Pattern, prefix: str, pump: str, killer: str, n: int):
    text = prefix + pump * (n // len(pump)) + killer
    return text.encode("utf-8", "replace") if isinstance(pattern.pattern, bytes) else text


def worst(pattern: re.Pattern, at_start: bool = False, keep: int = 4, enough: float = float("inf")) -> tuple[float, str]:
    """The worst growth found, cost at 4n over cost at n, and the input that shows it (by its parts); tried once at
    the start (``at_start``) or searched for, as the program uses the pattern; the search stops at a growth over
    ``enough``."""
    screened = sorted(((_cost(pattern, _text(pattern, *c, SMALL), at_start), c) for c in candidates(pattern)),
                      key=lambda pair: -pair[0])[:keep]
    ratio, shown = 0.0, ""
    for _, c in screened:
        big = _cost(pattern, _text(pattern, *c, N), at_start, 3)
        if big < 2e-3:  # a few thousand steps: no growth worth the name can hide under it
            continue
        small = max(_cost(pattern, _text(pattern, *c, N // 4), at_start, 3), 1e-6)
        if big / small > ratio:
            ratio, shown = big / small, f"{c[0]!r} + {c[1]!r} * n + {c[2]!r}"
        if ratio > enough:  # slow enough to show what was asked
            break
    return ratio, shown

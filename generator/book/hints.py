"""What to write instead: plain-words advice for a bad edit, used by the loader and the model stage.

libyaml and pydantic say what broke in their own terms ("while parsing a block mapping did not
find expected key", "Input should be a valid string"). A contributor needs the line, what is
wrong there, and what to write instead; this module turns the one into the other.
"""

from __future__ import annotations

import difflib
import re
import types
import typing
from typing import Any

from pydantic import BaseModel

from .lookalike import foreign_letters
from .numwords import from_words
from .words import N_, _, n_, slug


def nearest(word: str, candidates: typing.Iterable[str]) -> str | None:
    """The candidate closest to a misspelt word, if any is close."""
    found = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return found[0] if found else None


def paths(data: Any, prefix: str = "") -> typing.Iterator[str]:
    """Every dotted path in plain data ('deal.each', 'scoring.melds.items.0.points')."""
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        path = f"{prefix}{key}"
        yield path
        yield from paths(value, path + ".")


def _line(lines: list[str], n: int) -> str:
    return lines[n - 1] if 0 < n <= len(lines) else ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _spaces(n: int) -> str:
    return n_("%(count)s space", "%(count)s spaces", n)


def _quoted(line: str, limit: int = 60) -> str:
    """A line of the file as a message quotes it: cut at ``limit`` characters (a message is one line)."""
    return line if len(line) <= limit else line[:limit] + "..."


def _no_colon(body: str) -> str:
    if len(body) > 60:  # a paragraph, not a key and its value: no 'write this instead' that long
        return _("'%(line)s' has no colon after a key; write 'key: value' instead, or indent it as a line of the value "
                 "above", line=_quoted(body))
    key, _sep, value = body.partition(" ")
    fixed = f"{key}: {value}".rstrip() if value else f"{key}:"
    return _("'%(line)s' has no colon after its key; write '%(fixed)s' instead", line=body, fixed=fixed)


def yaml_syntax(text: str, problem: str, line: int, context_line: int | None,
                context_col: int | None) -> tuple[int, str]:
    """(line, message) for a libyaml syntax error, the line being where the mistake most likely is."""
    lines = text.splitlines()
    here = _line(lines, line)
    previous = next((n for n in range(line - 1, 0, -1) if _line(lines, n).strip()
                     and not _line(lines, n).lstrip().startswith("#")), 0)
    above = _line(lines, previous)
    if "scanning a quoted scalar" in problem and context_line:
        return context_line, _("a quote opened on this line is never closed; write the closing quote at the end of "
                                "the value instead")
    if "flow" in problem and context_line:
        return context_line, _("a bracket opened on this line is never closed; write [a, b] or {key: value} on one "
                                "line instead")
    if "could not find expected ':'" in problem and context_line:
        body = _line(lines, context_line).strip().removeprefix("- ")
        return context_line, _no_colon(body)
    if "mapping values are not allowed" in problem:
        body = above.strip().removeprefix("- ")
        if previous and _indent(here) > _indent(above) and ": " in body:
            return line, _("this line is indented more than line %(line)s ('%(text)s'), so YAML reads it as part of "
                           "that value; write it with %(spaces)s like line %(line)s instead", line=previous,
                           text=_quoted(above.strip()), spaces=_spaces(_indent(above)))
        if previous and body and ":" not in body:
            return previous, _no_colon(body)
        return line, _("a colon in a value: YAML reads 'key: value' only once per line; put the value in quotes, "
                       "e.g. write 'note: \"Score: 10\"' instead")
    if "expected key" in problem or "expected '-'" in problem or "expected <block end>" in problem:
        if previous and _indent(above) != _indent(here):
            return line, _("wrong indentation: this line is indented %(spaces)s and line %(line)s above it "
                           "%(above)s; keys of one block start in the same column, so write them with the same "
                           "indentation instead", spaces=_spaces(_indent(here)), line=previous, above=_indent(above))
        return line, _("wrong indentation: this line does not line up with the block it belongs to; write it with "
                       "as many spaces as the key above it at the same level instead")
    return line, _("YAML syntax: %(problem)s; check this line and the one above for indentation, a missing colon "
                   "or an unclosed quote, and write 'key: value' with spaces instead", problem=problem)


def _unwrap(tp: Any) -> list[Any]:
    """The model classes a field's annotation can hold (through Optional, list, dict, Annotated)."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(tp)[0])
    if origin in (typing.Union, types.UnionType, list, dict):
        return [m for arg in typing.get_args(tp) for m in _unwrap(arg)]
    return [tp] if isinstance(tp, type) and issubclass(tp, BaseModel) else []


def fields_at(model: type[BaseModel], loc: tuple) -> list[str]:
    """The field names allowed in the mapping at pydantic location ``loc`` under ``model``."""
    current = [model]
    for part in loc:
        if isinstance(part, int):
            continue
        nxt = []
        for m in current:
            if part in m.model_fields:
                nxt += _unwrap(m.model_fields[part].annotation)
            elif part == m.__name__:  # a union branch pydantic names in the path
                nxt.append(m)
        current = nxt or current
        if any(part == m.__name__ for m in current):
            current = [m for m in current if m.__name__ == part]
    return sorted({f for m in current for f in m.model_fields})


def unknown_key(model: type[BaseModel], loc: tuple, key: str) -> str:
    """Message for a key the model does not have: the closest allowed one, or the list."""
    allowed = fields_at(model, loc)
    close = nearest(key, allowed)
    if close:
        return _("unknown key '%(key)s'; write '%(close)s' instead", key=key, close=close)
    return _("unknown key '%(key)s'; write one of %(keys)s instead", key=key, keys=", ".join(allowed))


# What pydantic says of a value of the wrong kind, by its error's type, as pydantic words it in English (its context
# filled in by name): said in the book's language. A type not here, or worded otherwise by another pydantic, is
# said in pydantic's own words.
PYDANTIC = {
    "string_type": N_("Input should be a valid string"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "float_type": N_("Input should be a valid number"),
    "bool_type": N_("Input should be a valid boolean"),
    "list_type": N_("Input should be a valid list"),
    "dict_type": N_("Input should be a valid dictionary"),
    "model_type": N_("Input should be a valid dictionary or instance of %(class_name)s"),
    "model_attributes_type": N_("Input should be a valid dictionary or object to extract fields from"),
    "literal_error": N_("Input should be %(expected)s"),
    "greater_than": N_("Input should be greater than %(gt)s"),
    "greater_than_equal": N_("Input should be greater than or equal to %(ge)s"),
    "less_than": N_("Input should be less than %(lt)s"),
    "less_than_equal": N_("Input should be less than or equal to %(le)s"),
    "string_pattern_mismatch": N_("String should match pattern '%(pattern)s'"),
}


def _try() -> re.Pattern[str]:
    # The example a message gives, '(try ...)', in English or the book's language (its own word for 'try').
    # TRANSLATORS: the word before an example of what to write, as in "(try '2-4')"
    word = _("try")
    return re.compile(r"\s*\((?:try" + (f"|{re.escape(word)}" if word != "try" else "") + r") (.+?)\)")


_SUCH_AS = re.compile(r"(?:such as|e\.g\.) (.+?)\)?$")


def problem(err: dict) -> str:
    """Pydantic's message without its own prefix, and without the example the hint will give; in the book's language
    where the message is one pydantic words as ``PYDANTIC`` has it."""
    message = PYDANTIC.get(err["type"])
    context = {k: str(v) for k, v in (err.get("ctx") or {}).items()}
    try:
        english = message % context if message else None
    except (KeyError, ValueError, TypeError):
        english = None
    if english is not None and english == err["msg"]:
        return _(message, **context)
    return _try().sub("", err["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, "))


def value_hint(err: dict, field: str) -> str:
    """What to write for a value of the wrong kind or shape."""
    kind, found = err["type"], err.get("input")
    number = from_words(found) if isinstance(found, str) else None
    if number is not None and kind in ("value_error", "int_type", "int_parsing"):  # 'each: seven'
        return _("write %(field)s: %(number)s instead (the number in digits; a sentence may still print it as a word)",
                 field=field, number=number)
    if kind in ("int_type", "int_parsing", "int_from_float") and not isinstance(found, str):
        return _("write %(field)s: followed by a whole number instead (e.g. %(field)s: 12)", field=field)
    if kind == "string_type" and isinstance(found, (int, float, bool)):
        return _("write %(field)s: \"%(found)s\" (in quotes) instead: this place takes words, and YAML read a number",
                 field=field, found=found)
    if kind in ("int_type", "int_parsing") and isinstance(found, str):
        return _("write %(field)s: followed by a whole number without quotes instead (e.g. %(field)s: 12)", field=field)
    if kind == "bool_type":
        return _("write %(field)s: true or %(field)s: false instead", field=field)
    if kind == "literal_error":
        expected = err.get("ctx", {}).get("expected", "")
        return _("write one of %(expected)s instead", expected=expected)
    if kind in ("list_type",):
        return _("write %(field)s as a list, one '- item' per line, instead", field=field)
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return _("write %(field)s as a block of 'key: value' lines indented under it instead", field=field)
    if kind == "string_pattern_mismatch":
        letters = foreign_letters(found) if isinstance(found, str) else ""
        from .model import SLUG  # (the model is loaded before any of its errors is read)

        pattern = str(err.get("ctx", {}).get("pattern", ""))
        if isinstance(found, str) and not found.isascii() and pattern == SLUG and slug(found):
            # an id typed with the book's own letters ('großer-schafkopf'): as the language writes them plainly
            plain = _("an id is written in plain Latin letters: write %(id)s instead", id=slug(found))
            return f"{letters}: {plain}" if letters else plain
        if letters:
            return _("%(letters)s: write it in plain Latin letters, in the form the field's description gives (see "
                     "docs/transcribing.md) instead", letters=letters)
        return _("write it in the form the field's description gives (see docs/transcribing.md) instead")
    if kind == "value_error":
        example = _try().search(err["msg"]) or _SUCH_AS.search(err["msg"])
        if example:
            return _("write %(example)s instead", example=example.group(1))
        return _("write it as docs/transcribing.md describes this field instead")
    return _("see docs/transcribing.md for what this field takes, and write that instead")

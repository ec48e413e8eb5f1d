"""Checks on ``{references}`` from prose and YAML text to the data."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..book import hints
from ..book.library import Library
from ..book.loader import TextDoc
from ..book.numwords import SCORE_STYLES, STYLES
from ..book.prose import MISSING, REF, find_refs, is_block_path, lookup
from ..book.words import _
from ..errors import Location
from . import check


def _text_fields(data: Any, loc: tuple = ()) -> Iterator[tuple[tuple, str, tuple]]:
    """(location, text, enclosing item's location) for every string in YAML data."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, str):
                yield loc + (key,), value, loc
            else:
                yield from _text_fields(value, loc + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _text_fields(value, loc + (i,))


def _resolves(path: str, block: bool, scopes: list[Any], style: str | None = None) -> str | None:
    """None if the reference is good, else why not."""
    for scope in scopes:
        value = lookup(scope, path)
        if value is MISSING:
            continue
        if block and not is_block_path(path):
            return _("'{%(path)s}' on a line of its own must name a table (scoring.ID, rounds, alternate_rules, "
                     "examples.ID, score_sheet)", path=path)
        if not block and isinstance(value, (dict, list)):
            return _("'{%(path)s}' is a table, not a value; put it on a line of its own", path=path)
        if style in SCORE_STYLES and (isinstance(value, bool) or not isinstance(value, (int, float))):
            return _("'{%(path)s:%(style)s}' asks for a score, but the value is %(value)s; write '{%(path)s}'",
                     path=path, style=style, value=repr(value))
        if style and style not in SCORE_STYLES and (isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value)):
            return _("'{%(path)s:%(style)s}' asks for a number in words, but the value is %(value)s; write "
                     "'{%(path)s}'", path=path, style=style, value=repr(value))
        return None
    close = hints.nearest(path, (p for scope in scopes for p in hints.paths(scope)))
    instead = _("; write '{%(close)s}' instead", close=close) if close else _("; write a path to a value, such as '{deal.each}', instead")
    return _("'{%(path)s}' does not name anything in the data%(instead)s", path=path, instead=instead)


DOUBLED = re.compile(r"\{\{([^{}]*+)\}\}|\{\{|\}\}")  # what is inside is stripped where it is read


# Anything in single braces: what is not a reference (REF) is printed with its braces, '{deal.each!r}' or
# '{deal.each:>5}' (a Python format's conversion or spec), '{Deal.each}', '{ deal.each }'.
BRACED = re.compile(r"(?<!\{)\{([^{}\n]{1,80})\}(?!\})")
_PATH_START = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_.-]*)")


def _not_references(line: str) -> Iterator[tuple[int, str]]:
    """(column, why) for each braced text on ``line`` that is not a reference, which would print as written."""
    if "{" not in line:
        return
    for m in BRACED.finditer(line):
        if REF.fullmatch(m.group(0)):
            continue
        start = _PATH_START.match(m.group(1))
        path = start.group(1).lower().rstrip(".") if start else ""
        instead = _("write '{%(path)s}' instead", path=path) if path else _("write a path to a value, such as '{deal.each}', instead")
        yield m.start() + 1, (_("'%(group)s' is not a reference and would be printed with its braces: a reference is "
                                "{path} or {path:style} (style: %(value)s); %(instead)s", group=m.group(0),
                                value='|'.join((*STYLES, *SCORE_STYLES)), instead=instead))


def _doubled(text: TextDoc) -> Iterator[tuple[Location, str]]:
    """'{{players}}': template braces around a reference, which would print '{2-4}'."""
    for n, line in enumerate(text.text.splitlines(), 1):
        m = DOUBLED.search(line)
        if m:
            fix = f"{{{m.group(1).strip()}}}" if m.group(1) and m.group(1).strip() else _("one brace on each side")
            yield Location(text.path, n, m.start() + 1), _("doubled braces print a brace around the value: write "
                                                           "%(fix)s instead", fix=fix)


@check("reference.unknown")
def unknown_reference(lib: Library):
    """A {reference} in prose or YAML text names nothing in the game's data (or is written in doubled braces)."""
    texts = [*lib.pages.values(), *(p for gs in lib.ordered_games() for p in [gs.prose, *gs.variant_prose.values()] if p)]
    for text in texts:
        for where, problem in _doubled(text):
            yield where, problem, None
        for n, line in enumerate(text.text.splitlines(), 1):
            for col, problem in _not_references(line):
                yield Location(text.path, n, col), problem, None
    for page in lib.pages.values():
        for ref in find_refs(page.text):
            problem = _resolves(ref.path, False, [lib.scope()], ref.style)
            if problem:
                yield Location(page.path, ref.line, ref.col), problem, None
    for gs in lib.ordered_games():
        data = gs.doc.data
        variants = {v.get("id"): v for v in data.get("variants", []) if isinstance(v, dict)}
        book = lib.scope()
        proses = [(gs.prose, [data, book])] + [(p, [variants.get(vid, {}), data, book]) for vid, p in gs.variant_prose.items()]
        for prose, scopes in proses:
            if prose is None:
                continue
            for ref in find_refs(prose.text):
                problem = _resolves(ref.path, ref.block, scopes, ref.style)
                if problem:
                    yield Location(prose.path, ref.line, ref.col), problem, gs.id
        for loc, text, parent in _text_fields(data):
            # A table's line format ({label}, {value}), a double's label ({n}) and a sheet's row label ({n}, {nth})
            # fill their own slots; a text without a brace has no reference (most have none).
            if loc[-1] in ("line", "row_label") or loc[-2:] == ("doubles", "label") or "{" not in text:
                continue
            local = lookup(data, ".".join(str(p) for p in parent)) if parent else data
            scopes = [local, data]
            if loc and loc[0] == "variants" and len(loc) > 1:
                scopes.insert(1, data["variants"][loc[1]])
            for _found, problem in _not_references(text):
                yield gs.where(loc), problem, gs.id
            for ref in find_refs(text):
                if ref.block:
                    continue
                problem = _resolves(ref.path, False, scopes, ref.style)
                if problem:
                    yield gs.where(loc), problem, gs.id

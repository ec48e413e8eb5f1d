"""A book's own templates: a block one replaces is a block of the tool's template it extends.

A book's template may extend the tool's (``{% extends "tool:print/book.html.j2" %}``, docs/own-book.md) and replace
the blocks it names. A block the tool's template does not have (a misspelt name, or one a release renamed) would
change nothing and say nothing: validate names it, and the blocks there are.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from ..book.files import TOOL_PREFIX, TOOL_TEMPLATES, read_file_text, read_source_text, template_bounds
from ..book.library import Library
from ..book.words import _
from ..errors import Location, SourceError
from . import Found, check


def _blocks(source: str) -> tuple[str | None, list[tuple[str, int]]]:
    """The tool's template a template's source extends (``tool:`` prefix dropped; None: none of the tool's), and each
    block it defines with its line; (None, []) for a source Jinja cannot parse (the render says where)."""
    import jinja2
    from jinja2 import nodes

    try:
        tree = jinja2.Environment().parse(source)
    except jinja2.TemplateSyntaxError:
        return None, []
    extends = next(iter(tree.find_all(nodes.Extends)), None)
    base = getattr(extends.template, "value", None) if extends is not None else None
    tool = base.removeprefix(TOOL_PREFIX) if isinstance(base, str) and base.startswith(TOOL_PREFIX) else None
    return tool, [(b.name, b.lineno) for b in tree.find_all(nodes.Block)]


@check("template.unknown_block", "warning")
def unknown_block(lib: Library) -> Iterator[Found]:
    """A book's template that extends the tool's replaces a block the tool's template does not have: it changes
    nothing."""
    own = lib.root / "templates"
    if not own.is_dir() or os.path.realpath(own) == os.path.realpath(TOOL_TEMPLATES):
        return  # no templates of the book's own (this repository's book uses the tool's)
    for path in sorted(own.rglob("*.j2")):
        display = f"templates/{path.relative_to(own).as_posix()}"
        try:
            tool, blocks = _blocks(read_source_text(path, display, template_bounds(own)))
        except SourceError:
            continue  # a file the door refuses: the render says so in its one line
        if tool is None:
            continue
        parts = [part for part in tool.split("/") if part not in ("", ".")]
        tool_path = TOOL_TEMPLATES.joinpath(*parts)  # '..' is no name: the loader finds no such template either
        if ".." in parts or not parts or not tool_path.is_file() or tool_path.is_symlink():
            yield (Location(display, 1), _("extends '%(template)s', which is none of the tool's templates: name one "
                                           "as docs/own-book.md lists them", template=f"{TOOL_PREFIX}{tool}"), None)
            continue
        _extends, known = _blocks(read_file_text(tool_path))
        names = sorted({name for name, _line in known})
        for name, line in blocks:
            if name not in names:
                yield (Location(display, line), _("block '%(name)s' is no block of the tool's %(template)s, so it "
                                                  "changes nothing: name one of %(blocks)s", name=name, template=tool,
                                                  blocks=", ".join(names)), None)

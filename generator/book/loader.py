"""Stage 1, reading: YAML and Markdown files become plain objects that know their file and line.

The YAML reader is deliberately small and strict. It composes the document with libyaml (the C
parser, when PyYAML has it) into nodes, then builds Python values itself so that:

* no tag is honoured (``!!python/object`` and friends are refused, not constructed);
* anchors and aliases are refused outright, so an alias bomb costs nothing;
* duplicate keys, at any depth, are an error at the second key's line;
* plain scalars that YAML 1.1 would silently convert (``no``, ``013``, ``1:30``, ``2026-01-05``,
  ``.inf``) are refused with a hint to quote them, and ``2026.10`` stays a float that a string
  field then rejects, instead of quietly becoming ``2026.1``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import Location, SourceError, echo
from . import hints
from .files import (
    CONTROL,
    MAX_FILE_BYTES,
    invisible,
    read_file,
    read_source,
    read_source_text,
    store,
    stored_text,
    user_cache,
)
from .words import N_, _

READ_THROUGH_THE_LOADER = (MAX_FILE_BYTES, read_source, user_cache)  # their home before the door was a module

MAX_DIGITS = 4000  # of a plain number: Python refuses to read an int of 4,300 (a traceback); the model says the range
MAX_YAML_DEPTH = 32  # mappings and lists inside each other: a game's data goes 8 deep

Loc = tuple[str | int, ...]

if TYPE_CHECKING:
    import yaml


@functools.cache
def _yaml() -> tuple[Any, type]:
    """PyYAML and the composer, imported when the first file is parsed: a file read from the cache of parsed files
    (``read_yaml``) needs neither, and `rulebook validate` after a save parses one file or none (PyYAML's import is
    10 ms of the 0.3 s it may take)."""
    import yaml

    class NoImplicitLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
        """libyaml composer with no implicit typing: every plain scalar is tagged str."""

        yaml_implicit_resolvers: dict = {}

    return yaml, NoImplicitLoader


_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_FLOAT = re.compile(r"[-+]?(0|[1-9][0-9]*)\.[0-9]+")
_AMBIGUOUS = [
    (re.compile(r"(?i)yes|no|on|off|y|n"), N_("unquoted value %(value)s is a YAML 1.1 boolean; write true/false, or quote it")),
    (re.compile(r"(?i)true|false"), N_("unquoted value %(value)s must be written in lower case (true/false)")),
    (re.compile(r"[-+]?0[0-9_]+"), N_("unquoted value %(value)s has a leading zero (YAML 1.1 octal); quote it")),
    (re.compile(r"[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9]*)?"),
     N_("unquoted value %(value)s looks like a sexagesimal number; quote it")),
    (re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?"), N_("unquoted value %(value)s looks like a date; quote it")),
    (re.compile(r"(?i)[-+]?\.(inf|nan)"), N_("unquoted value %(value)s is a special float; quote it")),
    (re.compile(r"[-+]?[0-9][0-9_]*+(\.[0-9_]*+)?([eE][-+]?[0-9]++)"),
     N_("unquoted value %(value)s is an exponent number; quote it")),
    (re.compile(r"[-+]?+(?:[0-9][0-9_]*+)?\.[0-9_]++|[-+]?+[0-9][0-9_]*+\.|[-+]?+[0-9]++(?:_[0-9]++)++"),
     N_("unquoted value %(value)s is an ambiguous number; write digits only, or quote it")),
]


@dataclass
class YamlDoc:
    """A parsed YAML file: its data and the line/column of every key and item."""

    path: str
    data: Any
    marks: dict[Loc, tuple[int, int]] = field(default_factory=dict)

    def where(self, loc: Loc) -> Location:
        """The location of ``loc`` (a path of keys/indices), or of its nearest ancestor."""
        loc = tuple(loc)
        while loc not in self.marks and loc:
            loc = loc[:-1]
        line, col = self.marks.get(loc, (1, 1))
        return Location(self.path, line, col)


@dataclass
class TextDoc:
    """A Markdown (or other text) source file."""

    path: str
    text: str


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


MAX_LINE = 10_000  # characters: a paragraph is long, a 100 KB line is not prose
MAX_NESTING = 8  # blockquote and list levels: deep nesting only serves to exhaust the renderer


NESTING = re.compile(r"[\s>]*")  # what a line starts with: its quote marks and its indent


MAX_INLINE_DEPTH = 16  # emphasis and links inside each other: a rule needs two or three; a thousand exhaust Markdown
_DELIMITERS = re.compile(r"\*+|_+|\[|\]")


def inline_depth(paragraph: str, depth: int = 0) -> tuple[int, int]:
    """(how deep emphasis and links may nest in ``paragraph``, how many are open at its end), counted as Markdown
    opens and closes them (a run of ``*`` or ``_`` before a letter opens, after one closes; an opening bracket opens
    a link), from ``depth`` open before it: an upper bound."""
    deepest = depth
    for m in _DELIMITERS.finditer(paragraph):
        run = m.group()
        before = paragraph[m.start() - 1] if m.start() else " "
        after = paragraph[m.end()] if m.end() < len(paragraph) else " "
        if run == "[":
            depth += 1
        elif run == "]":
            depth = max(0, depth - 1)
        elif not after.isspace() and before.isspace() or before in "([{\"'":  # opens: *word, (*word
            depth += min(len(run), 2)
        elif not before.isspace():  # closes: word*, or inside a word
            depth = max(0, depth - min(len(run), 2))
        deepest = max(deepest, depth)
    return deepest, depth


def check_prose(text: str, path: str) -> None:
    """Refuse Markdown shaped to exhaust the renderer: huge lines, deep quote or list nesting, emphasis or links nested
    deeper than any rule needs (a thousand deep is a RecursionError in the site's table of contents)."""
    open_ = 0  # emphasis and links open in this paragraph
    for n, line in enumerate(text.splitlines(), 1):
        if len(line) > MAX_LINE:
            raise SourceError(Location(path, n, MAX_LINE), _("line is %(length)s characters; the limit is %(limit)s",
                                                             length=len(line), limit=MAX_LINE))
        if not line.strip():
            open_ = 0
        elif "*" in line or "_" in line or "[" in line:
            depth, open_ = inline_depth(line, open_)
            if depth > MAX_INLINE_DEPTH:
                raise SourceError(Location(path, n), _("emphasis or links nested %(depth)s deep in this paragraph "
                                                       "(the limit is %(limit)s): close each * or _ where its words "
                                                       "end", depth=depth, limit=MAX_INLINE_DEPTH))
        if not line[:1].isspace() and not line.startswith(">"):
            continue  # neither quoted nor indented (``\s`` is what ``str.isspace`` says): most lines
        quotes = NESTING.match(line).group().count(">")
        indent = len(line) - len(line.lstrip(" \t"))
        if quotes > MAX_NESTING or indent > 4 * MAX_NESTING:
            raise SourceError(Location(path, n, 1), _("nested more than %(levels)s levels deep", levels=MAX_NESTING))


def read_text(path: Path, display: str, inside: Path | None = None) -> TextDoc:
    """Read a Markdown file as UTF-8, refusing oversized, undecodable or pathologically nested files."""
    text = read_source_text(path, display, inside)
    check_prose(text, display)
    return TextDoc(display, text)


class _Builder:
    """Turns composed nodes into plain values, recording where each came from."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.marks: dict[Loc, tuple[int, int]] = {}

    def fail(self, node: yaml.Node, problem: str) -> SourceError:
        line, col = _mark(node)
        return SourceError(Location(self.path, line, col), problem)

    def build(self, node: yaml.Node, loc: Loc) -> Any:
        yaml = _yaml()[0]
        self.marks[loc] = _mark(node)
        if isinstance(node, yaml.MappingNode):
            if node.tag != "tag:yaml.org,2002:map":
                raise self.fail(node, _("tags are not allowed (%(tag)s)", tag=node.tag))
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != "tag:yaml.org,2002:str":
                    raise self.fail(key_node, _("keys must be plain words"))
                key = key_node.value
                if key == "<<":
                    raise self.fail(key_node, _("merge keys (<<) are not allowed"))
                if key in out:
                    first = self.marks[loc + (key,)][0]
                    raise self.fail(key_node, _("duplicate key '%(key)s' (first given on line %(line)s)", key=key,
                                                line=first))
                self.marks[loc + (key,)] = _mark(key_node)
                out[key] = self.build(value_node, loc + (key,))
                self.marks[loc + (key,)] = _mark(key_node)
            return out
        if isinstance(node, yaml.SequenceNode):
            if node.tag != "tag:yaml.org,2002:seq":
                raise self.fail(node, _("tags are not allowed (%(tag)s)", tag=node.tag))
            return [self.build(item, loc + (i,)) for i, item in enumerate(node.value)]
        if node.tag != "tag:yaml.org,2002:str":
            raise self.fail(node, _("tags are not allowed (%(tag)s)", tag=node.tag))
        return self.scalar(node)

    def scalar(self, node: yaml.ScalarNode) -> Any:
        value = node.value
        found = CONTROL.search(value) if node.style == '"' else None  # an escape ("\\e", "\\u200b") makes what
        if found and found.group("invisible"):                      # the text cannot hold
            raise self.fail(node, _("%(character)s is written as an escape in this text: a reader sees nothing "
                                    "there, and the text is read as other than it shows; delete it",
                                    character=invisible(found.group())))
        if found:
            raise self.fail(node, _("a control character (U+%(code)s) is written as an escape in this text: a reader "
                                    "or a terminal would get it as it is; delete it",
                                    code=f"{ord(found.group()[0]):04X}"))
        if node.style:  # quoted or block scalar: always text (plain is None or "")
            return value
        if value in ("", "~", "null"):
            return None
        if value == "true":
            return True
        if value == "false":
            return False
        if _INT.fullmatch(value) and len(value.lstrip("+-")) > MAX_DIGITS:
            raise self.fail(node, _("a number of %(digits)s digits: no count or score in a game has that many; write "
                                    "the number the rules give instead (quoted, if it is text)",
                                    digits=len(value.lstrip("+-"))))
        if _INT.fullmatch(value):
            return int(value)
        if _FLOAT.fullmatch(value):
            number = float(value)
            if repr(number) != value.lstrip("+"):  # 2026.10 would silently become 2026.1
                raise self.fail(node, _("unquoted value %(value)s would be read as %(number)s; quote it",
                                        value=echo(value), number=echo(number)))
            return number
        for pattern, why in _AMBIGUOUS:
            if pattern.fullmatch(value):
                raise self.fail(node, _(why, value=echo(value)))
        return value


def _quote_closed_late(text: str, line: int) -> tuple[int, int] | None:
    """Where (line, column) a quoted value spanning lines starts, when it ends on ``line`` (where libyaml found an
    error)."""
    yaml, no_implicit_loader = _yaml()
    opened = None
    try:
        for token in yaml.scan(text, Loader=no_implicit_loader):
            if (isinstance(token, yaml.ScalarToken) and token.style in ('"', "'")
                    and token.start_mark.line < token.end_mark.line and token.end_mark.line + 1 == line):
                opened = token.start_mark.line + 1, token.start_mark.column + 1
    except yaml.YAMLError:
        pass  # the error itself: the tokens before it are what is asked about
    return opened


def parse_yaml(text: str, path: str) -> YamlDoc:
    """Parse one YAML document strictly; raise SourceError at the offending line and column."""
    if "\t" in text:
        line = text[: text.index("\t")].count("\n") + 1
        col = text.index("\t") - (text.rfind("\n", 0, text.index("\t")) + 1) + 1
        raise SourceError(Location(path, line, col),
                          _("a tab character; YAML is indented with spaces only: write spaces instead of the tab"))
    yaml, no_implicit_loader = _yaml()
    try:
        # Refuse anchors and aliases before composing, so an alias bomb is never expanded; and nesting deeper
        # than any game's, which would exhaust the composer's stack (a RecursionError, not a line).
        depth = 0
        for event in yaml.parse(text, Loader=no_implicit_loader):
            anchor = getattr(event, "anchor", None)
            if isinstance(event, yaml.AliasEvent) or anchor:
                m = event.start_mark
                raise SourceError(Location(path, m.line + 1, m.column + 1),
                                  _("anchors and aliases (&name, *name) are not allowed"))
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_YAML_DEPTH:
                    m = event.start_mark
                    raise SourceError(Location(path, m.line + 1, m.column + 1),
                                      _("nested more than %(levels)s levels deep: no game's data is; check the "
                                        "indentation and the brackets of this line instead", levels=MAX_YAML_DEPTH))
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        node = yaml.compose(text, Loader=no_implicit_loader)
    except yaml.MarkedYAMLError as exc:
        mark, context = exc.problem_mark or exc.context_mark, exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        where, message = hints.yaml_syntax(text, problem, line, context and context.line + 1,
                                           context and context.column + 1)
        opened = _quote_closed_late(text, line)
        if opened:  # a quote left open runs on to the next quote, lines below, where libyaml then stumbles
            (where, col), message = opened, _("a quote opened on this line is closed only on line %(line)s, so the "
                                              "lines between are read as its text: write the closing quote at the end "
                                              "of this line's value instead", line=line)
        elif where != line:  # the mistake is earlier than where libyaml noticed it
            col = context.column + 1 if context and where == context.line + 1 else 0
        raise SourceError(Location(path, where, col), message) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow (a control character)
        where = text[: exc.position]
        line, col = where.count("\n") + 1, exc.position - (where.rfind("\n") + 1) + 1
        char = ord(exc.character) if isinstance(exc.character, str) else exc.character
        raise SourceError(Location(path, line, col), _("a character YAML does not allow (%(reason)s, #x%(code)s): "
                                                       "delete it", reason=exc.reason, code=f"{char:04x}")) from None
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SourceError(Location(path, 1, 1), f"YAML: {first}") from None
    if node is None:
        return YamlDoc(path, None, {(): (1, 1)})
    builder = _Builder(path)
    data = builder.build(node, ())
    return YamlDoc(path, data, builder.marks)


# Parsed files, by name and text. The site loads the book twice (this edition, and the one before for
# "What changed"), and the tests load it hundreds of times; parsing was three quarters of a load.
_PARSED: dict[tuple[str, str], YamlDoc] = {}
_PARSED_MAX = 4096  # files; the oldest is let go first (a preview session sees every saved version)
# And between runs, in the user's cache: `rulebook validate` on a save parses only the file saved.
# JSON (reading it runs no code), named by a digest of this reader's code, PyYAML's (its package's first file,
# which states its version: found, not imported) and the file's name and text, so that a change to any of them
# is parsed anew.
_READER = hashlib.sha256(read_file(Path(__file__)) + read_file(Path(__file__).parent / "files.py")
                         + read_file(Path(find_spec("yaml").origin))).digest()
_STORED_MAX = 32768  # files (a 5,000-game book reads 14,000: its games and their records); oldest go first
_STORED_WRITES = 0  # files this process has written


def _stored_name(display: str, text: str) -> Path:
    digest = hashlib.sha256(_READER + display.encode() + b"\0" + text.encode()).hexdigest()[:40]
    return user_cache() / "yaml" / f"{digest}.json"


def _from_store(display: str, text: str) -> YamlDoc | None:
    try:
        body = stored_text(_stored_name(display, text))
        if body is None:
            return None
        stored = json.loads(body)
        marks = {tuple(m[:-2]): (int(m[-2]), int(m[-1])) for m in stored["marks"]}
        return YamlDoc(display, stored["data"], marks)
    except (ValueError, KeyError, TypeError, IndexError, RuntimeError, RecursionError):  # damaged, no home
        return None


def _to_store(display: str, text: str, doc: YamlDoc) -> None:
    try:
        path = _stored_name(display, text)
    except RuntimeError:  # no home folder: no cache
        return
    store(path, json.dumps({"data": doc.data, "marks": [[*loc, *at] for loc, at in doc.marks.items()]},
                           ensure_ascii=False))
    global _STORED_WRITES
    _STORED_WRITES += 1
    # The folder is looked at on a run's first write and every 1024th: listing it on every write made
    # a first load of 1000 new games quadratic (5.6 -> 8.0 s).
    if (_STORED_WRITES - 1) % max(1, _STORED_MAX // 2) == 0:
        try:
            kept = sorted(path.parent.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
            for old in kept[: max(0, len(kept) - _STORED_MAX)]:
                old.unlink()
        except OSError:
            pass  # another run let it go first


def leaves(data: Any, skip: frozenset[str] | set[str] = frozenset(), path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """(path, value) of every scalar in plain YAML data, in order; mappings' keys in ``skip`` left out."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key not in skip:
                yield from leaves(value, skip, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from leaves(value, skip, path + (i,))
    else:
        yield path, data


def _copy(data: Any) -> Any:
    """A copy of parsed YAML (dicts, lists, scalars): loading an older edition edits its data in place."""
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_copy(v) for v in data]
    return data


def read_yaml(path: Path, display: str, inside: Path | None = None) -> YamlDoc:
    """Read and parse a YAML file (through ``read_source``); a file read before is not parsed again."""
    text = read_source_text(path, display, inside)
    key = (display, text)
    parsed = _PARSED.get(key)
    if parsed is None:
        parsed = _from_store(display, text)
        if parsed is None:
            parsed = parse_yaml(text, display)  # a SourceError is raised every time: it is not kept
            _to_store(display, text, parsed)
        if len(_PARSED) >= _PARSED_MAX:
            del _PARSED[next(iter(_PARSED))]
        _PARSED[key] = parsed
    return YamlDoc(display, _copy(parsed.data), parsed.marks)  # marks are only read

"""The one home of writing the book's YAML: a new file emitted, and ``book.yaml`` edited with its comments kept.

A new file (the game ``rulebook new-game`` starts, a value ``rulebook init`` fills in) is emitted by PyYAML as the
book's files are written (lists indented under their key, double quotes where a value must be quoted), and read back
by the book's own loader before it is used: a text it would read otherwise is quoted, and one it cannot read as given
is refused. ``book.yaml``, which the editors keep with their comments, is changed by a round trip (ruamel.yaml): read
with its comments, quotes, flow and block lists, changed as data (a game listed in its section, an edition opened, a
record sealed), and written back; what the edit does not touch is written as it was. Each edited text is read back
by the book's loader (``BookFile.text``): an edit that does not read as meant is refused, never written.
"""

from __future__ import annotations

import datetime
import functools
import io
import re
from collections.abc import Callable
from typing import Any

from ..errors import RulebookError
from .library import BOOK_FILE, DATA_DIR
from .loader import parse_yaml

BOOK_PATH = f"{DATA_DIR}/{BOOK_FILE}"


# -- new files ---------------------------------------------------------------------------------------------------

@functools.cache
def _dumper() -> type:
    """PyYAML's emitter as the book's files are written, imported when a file is first written (validate, which
    imports this module with the frozen records' check, writes none)."""
    import yaml

    class Dumper(yaml.SafeDumper):
        """Lists indented under their key, as the book's files are written (yamllint: indent-sequences)."""

        def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
            super().increase_indent(flow, False)

        def choose_scalar_style(self) -> str:
            # Quoted where it must be, with double quotes, as the book's files quote an edition ("2026.2").
            style = super().choose_scalar_style()
            return '"' if style == "'" else style

    return Dumper


def emit(data: dict[str, Any]) -> str:
    """``data`` as YAML the book's loader reads back as ``data`` (a text it would read otherwise is quoted)."""
    import yaml

    text = yaml.dump(data, Dumper=_dumper(), sort_keys=False, allow_unicode=True, width=1 << 16)
    if parse_yaml(text, "game").data != data:  # YAML 1.1 and the book's loader disagree on a plain word: quote all
        text = yaml.dump(data, Dumper=_dumper(), sort_keys=False, allow_unicode=True, width=1 << 16, default_style='"')
    if parse_yaml(text, "game").data != data:
        raise RulebookError("the game's file could not be written so that it reads back as given: use a title "
                            "without control characters")
    return text


def record(content: dict[str, Any]) -> str:
    """A published edition's record file (``frozen.write``): every value on one line, keys in the order given."""
    import yaml

    return yaml.safe_dump(content, allow_unicode=True, sort_keys=False, width=100_000)


def scalar(value: str) -> str:
    """``value`` as a YAML scalar the book's loader (and a YAML 1.1 reader) reads back as it is, quoted where it
    must be."""
    return emit({"v": value}).removeprefix("v: ").rstrip("\n")


def scalar_value(value: str) -> Any:
    """``value`` as the round trip writes it: plain where ``scalar`` writes it plain, else double-quoted."""
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    return DoubleQuotedScalarString(value) if scalar(value).startswith('"') else value


def quoted(value: str) -> Any:
    """``value`` written in double quotes, as the book writes an edition's id and a date ("2026.2")."""
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    return DoubleQuotedScalarString(value)


# -- round trips -------------------------------------------------------------------------------------------------

_KEY_ALONE = re.compile(r"( *)(- )?[^\s#-][^#]*:\s*(#.*)?")  # a key whose value is on the lines below it


def layout(text: str) -> tuple[int, int]:
    """How a YAML text indents what is under a key: (a mapping's keys, a list's dash), from the first of each it
    has; the book's own way ('  key', '  - item') where it has none. The round trip writes the whole file one way."""
    mapping = offset = None
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    for above, line in zip(lines, lines[1:], strict=False):
        key = _KEY_ALONE.fullmatch(above)
        if key is None:
            continue
        column = len(key[1]) + (2 if key[2] else 0)
        indent = len(line) - len(line.lstrip(" ")) - column
        if line.lstrip().startswith("- ") and offset is None and indent >= 0:
            offset = indent
        elif not line.lstrip().startswith("- ") and mapping is None and indent > 0:
            mapping = indent
    return mapping or 2, 2 if offset is None else offset


class YamlFile:
    """A YAML text as data that remembers its comments and layout (``data``), changed as data and written back by
    ``text()``: what was not changed, as it was written."""

    def __init__(self, text: str, path: str = "") -> None:
        self.path = path
        self.layout = layout(text)
        try:
            self.data = self._round_trip().load(text)
        except Exception as exc:  # noqa: BLE001 - ruamel's errors share no base: what it could not read, said once
            raise RulebookError(f"{path}: cannot be edited: {' '.join(str(exc).split())[:200]}") from None

    def _round_trip(self) -> Any:
        from ruamel.yaml import YAML

        rt = YAML()  # round trip: comments, quotes, flow and block styles and key order kept
        rt.preserve_quotes = True
        rt.width = 1 << 16  # never folds a long line
        mapping, offset = self.layout
        rt.indent(mapping=mapping, sequence=offset + 2, offset=offset)
        return rt

    def text(self) -> str:
        """The file as its data now says, in its own layout."""
        out = io.StringIO()
        self._round_trip().dump(self.data, out)
        return out.getvalue()


def _last_line(node: Any) -> tuple[Any, Any, int] | None:
    """Where the round trip keeps the comment after ``node``'s last line: (the collection, the key or index of its
    last entry, the slot), found in the last entry of the last entry..., as a block collection ends with its last."""
    while isinstance(node, (dict, list)) and node and not node.fa.flow_style():
        key = list(node)[-1] if isinstance(node, dict) else len(node) - 1
        value = node[key]
        if isinstance(value, (dict, list)) and value and not value.fa.flow_style():
            node = value
            continue
        return node, key, 2 if isinstance(node, dict) else 0
    return None


def at_end(node: Any, change: Callable[[Any], None]) -> None:
    """``change(node)`` (an entry appended to a block collection, or its last removed), the lines that followed the
    collection's last line (comments, blank lines: the round trip keeps them with that line) kept after its last line
    as changed, not before a new one nor lost with an old one."""
    from ruamel.yaml.error import CommentMark
    from ruamel.yaml.tokens import CommentToken

    before = _last_line(node)
    token = before[0].ca.items.get(before[1], [None] * 4)[before[2]] if before else None
    after = None
    if token is not None and "\n" in token.value.rstrip("\n") + "\n" and token.value.index("\n") + 1 < len(token.value):
        cut = token.value.index("\n") + 1  # its own line's end (and comment) stays; what follows moves
        after = token.value[cut:]
        if token.value[:cut].strip():
            token.value = token.value[:cut]
        else:
            before[0].ca.items[before[1]][before[2]] = None
    change(node)
    now = _last_line(node)
    if after and now is not None:
        slots = now[0].ca.items.setdefault(now[1], [None] * 4)
        slots[now[2]] = CommentToken("\n" + after, CommentMark(0), None)


def keep_only(items: list[Any], keep: Callable[[Any], bool]) -> None:
    """Remove the entries of a round-trip list for which ``keep`` is false, each with the comments on its lines; the
    lines after the list stay after it."""
    at_end(items, lambda node: [node.__delitem__(i) for i in reversed(range(len(node))) if not keep(node[i])])


def block_list(items: list[Any]) -> Any:
    """A list the round trip writes one item a line."""
    from ruamel.yaml.comments import CommentedSeq

    made = CommentedSeq(items)
    made.fa.set_block_style()
    return made


def mapping(pairs: list[tuple[str, Any]]) -> Any:
    """A mapping the round trip writes one key a line, in this order."""
    from ruamel.yaml.comments import CommentedMap

    return CommentedMap(pairs)


class BookFile(YamlFile):
    """``book.yaml``'s text, edited as data with its comments and layout kept; ``text()`` is the edited file."""

    def __init__(self, text: str, path: str = BOOK_PATH) -> None:
        super().__init__(text, path)
        if not isinstance(self.data, dict):
            raise RulebookError(f"{path} is not a mapping of keys: it cannot be edited")

    def _list(self, key: str) -> list[Any]:
        found = self.data.get(key)
        if not isinstance(found, list):
            raise RulebookError(f"{self.path} has no top-level '{key}:' list")
        return found

    def list_game(self, section: int, game: str, at: int) -> None:
        """List ``game`` in the ``section``-th section's games, at place ``at``, one game a line."""
        entry = self._list("sections")[section]
        games = entry.get("games")
        if not games:  # no games yet (games: [], or no games: key): a list of one, one game a line
            made = block_list([game]) if not entry.fa.flow_style() else [game]
            if "games" in entry:
                entry["games"] = made
            else:
                at_end(entry, lambda e: e.__setitem__("games", made))
            return
        if at < len(games):
            games.insert(at, game)
        else:
            at_end(games, lambda g: g.append(game))
        if not entry.fa.flow_style():
            games.fa.set_block_style()

    def add_edition(self, edition_id: str, label: str, date: str, to_index: bool) -> None:
        """Append the edition ``edition_id`` to ``editions``, make it ``current`` and, with ``to_index``, list it among
        the editions that print the printed index."""
        year, revision = (int(p) for p in edition_id.split("."))
        entry = mapping([("id", quoted(edition_id)), ("year", year), ("revision", revision),
                         ("label", scalar_value(label)), ("date", quoted(date))])
        at_end(self._list("editions"), lambda editions: editions.append(entry))
        if "current" not in self.data:
            raise RulebookError(f"{self.path} has no top-level 'current:' to point at the new edition")
        self.data["current"] = quoted(edition_id)
        if to_index:
            printed = self.data.get("printed_index")
            if not isinstance(printed, dict) or not isinstance(printed.get("editions"), list):
                raise RulebookError(f"{self.path}: printed_index has no 'editions:' to add {edition_id} to")
            at_end(printed["editions"], lambda editions: editions.append(quoted(edition_id)))

    def seal(self, edition: str, digest: str) -> None:
        """Set ``record: DIGEST`` under the edition ``edition`` (replacing the one it has)."""
        entry = next((e for e in self._list("editions") if isinstance(e, dict) and str(e.get("id")) == edition), None)
        if entry is None:
            raise RulebookError(f"{self.path} lists no edition {edition} to keep the digest of its record under")
        if "record" in entry:
            entry["record"] = quoted(digest)
        else:
            at_end(entry, lambda e: e.__setitem__("record", quoted(digest)))

    def text(self) -> str:
        """The edited file; refused (one line) if the book's loader would not read it as the data it was edited to."""
        text = super().text()
        if parse_yaml(text, self.path).data != _plain(self.data):
            raise RulebookError(f"{self.path} could not be edited so that it reads back as meant: edit it by hand")
        return text


def _plain(data: Any) -> Any:
    """Round-trip data as plain Python (dicts, lists, strings), as the book's loader gives it."""
    if isinstance(data, dict):
        return {str(k): _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    if isinstance(data, str):
        return str(data)
    if isinstance(data, datetime.date):  # a date the round trip read as one: the book's loader reads its text
        return data.isoformat()
    return data

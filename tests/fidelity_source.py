"""The sources cut into sentences, each with the page that must print it, word for word.

A seed is read line by line: headings, list items (a list item indented under another is a
sub-item), table rows and paragraphs. Each line is cut into sentences; a sentence's words are
compared with the outputs in order. Only whitespace, list markers, quotes, dashes and markup are
evened out (see `words`); numbers stay as written, digits or words.

Sections map to pages through the `sources:` of the rules data; the book's own pages (general
rules, board layouts, About, the index, the title) through their titles in `book.yaml`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import yaml

from generator.book.library import Library
from generator.book.prose import expand

# A word: letters/digits (and ½ and the suit signs), joined by an apostrophe or a comma/point
# between digits ("10,000", "2's", "dealer's"). Markup characters are words of their own, so a
# page that shows "**" or "<sup>" literally does not match the source, whose markup is removed.
_CH = r"(?:[^\W_]|[½♣♦♥♠])"
TOKEN = re.compile(rf"{_CH}+(?:['.,]{_CH}+)*|[*_#`<>\[\]~|\\]+")
MARKER = re.compile(r"^(\s*)(?:[-*•·‣◦]\s*|\d+[.)]\s+|\d+-(?=[A-Za-z]))")
SENTENCE_END = re.compile(r"(?<=[.!?])[”\"’)]?\s+(?=[“\"(]?[A-Z0-9])")


def words(text: str) -> list[str]:
    """The words of a text, in order: quotes and apostrophes evened out, punctuation and dashes dropped."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    text = re.sub(r"\b(\d+) (st|nd|rd|th)\b", r"\1\2", text)  # a superscript ordinal read back apart
    return TOKEN.findall(text)


def unmark(text: str) -> str:
    """A source line without its markup: export tags, Markdown emphasis, links and escapes."""
    text = re.sub(r"\[bookmark:[^\]]*\]", "", text)  # word-processor export debris
    text = re.sub(r"\s*<sup>(.*?)</sup>", r"\1", text)  # 1 <sup>st</sup> prints as 1st
    text = re.sub(r"</?(?:u|b|i|em|strong)>", "", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)  # a Markdown link shows its text
    text = re.sub(r"(?:\\_)+", " ", text)  # a blank to write on, drawn as a line
    return re.sub(r"\\(.)", r"\1", text.replace("*", ""))


@dataclass
class Sentence:
    """One source sentence and where it must be printed."""

    seed: str  # "000"
    line: int
    n: int  # its place in the line, from 1
    text: str
    target: str  # "game:golf", "page:about", "index", "cover"
    variant: str | None = None
    nested: bool = False
    row: bool = False  # a table row
    parent: Sentence | None = None
    expected: list[list[str]] = field(default_factory=list)  # word lists any of which is right
    errata: list[str] = field(default_factory=list)  # ids of the corrections applied to it

    @property
    def id(self) -> str:
        return f"{self.seed}:{self.line}.{self.n}"


@dataclass
class Section:
    seed: str
    start: int  # 0-based line index of its heading
    target: str
    variant: str | None
    name: str


def heading_text(line: str) -> str:
    return unmark(line.strip().lstrip("#")).strip()


def _sections(path: Path, lines: list[str], libs: list[Library], skip: set[int]) -> list[Section]:
    """Where each section of a seed starts, and the page it belongs to."""
    seed = path.name[:3]
    claims: list[tuple[str, str | None, str | None, str | None]] = []  # target, variant, what marks it, date
    for lib in libs:
        for gs in lib.games.values():
            claims += [(f"game:{gs.id}", None, s.section or s.opens, s.date) for s in gs.game.sources
                       if s.seed == path.name]
            claims += [(f"game:{gs.id}", v.id, s.section or s.opens, s.date)
                       for v in gs.game.variants for s in v.sources if s.seed == path.name]
    found: dict[int, Section] = {}
    unheaded = set()
    for target, variant, name, date in dict.fromkeys(claims):
        want = date or name or ""
        hits = [i for i, line in enumerate(lines) if want and i not in skip and heading_text(line) == want]
        # A section without a heading of its own starts at the first paragraph that opens with its words.
        hits = hits or [i for i, line in enumerate(lines) if want and i not in skip
                        and re.match(re.escape(want) + r"(?!\w)", line)]
        if not hits and len(set(claims)) == 1:  # the seed is that one section (source 002)
            hits = [0]
        if hits:
            found.setdefault(hits[0], Section(seed, hits[0], target, variant, name or ""))
        else:
            unheaded.add(target)
    # Otherwise its lines stay in the section above it, which must then be the same game's.
    lost = unheaded - {s.target for s in found.values()}
    assert not lost, f"{path.name}: no section of {sorted(lost)} can be found in the seed"
    pages = {p.title: p.id for lib in libs for p in lib.book.pages}
    for i, line in enumerate(lines):
        if i in found or i in skip or not line.startswith("# "):
            continue
        title = heading_text(line)
        if title in pages:
            target = f"page:{pages[title]}"
        elif any(title == lib.book.index_title for lib in libs) or title in _published_index_titles(libs):
            target = "index"
        elif any(title.startswith(lib.book.title) for lib in libs):
            target = "cover"
        else:
            raise AssertionError(f"{path.name}:{i + 1}: heading {title!r} belongs to no game or page")
        found[i] = Section(seed, i, target, None, title)
    return [found[i] for i in sorted(found)]


def _published_index_titles(libs: list[Library]) -> set[str]:
    return {str(e.published) for lib in libs for e in lib.errata if getattr(e, "path", None) == "index_title"}


def _items(lines: list[str], start: int, end: int, skip: set[int], cut: dict[int, list[int]], halves: set[int]):
    """(line number, parts, nested, parent line, is a row) for each printed line of a section.

    A line of prose is cut into sentences; a heading or table row is one; a table printed as two
    halves side by side (listed in the exceptions) is two rows."""
    list_indents: list[int] = []  # indents of the list items just above
    parent_line = None
    for i in range(start, end):
        raw = lines[i]
        if i in skip or not raw.strip() or raw.strip() == "---":  # "---" is the export's rule under a title
            continue
        if "\t" in raw:
            cells = [unmark(c) for k, c in enumerate(raw.split("\t")) if k not in cut.get(i, []) and c.strip()]
            half = len(cells) // 2
            rows = [cells[:half], cells[half:]] if i in halves else [cells]
            list_indents = []
            yield i + 1, [" ".join(r) for r in rows], False, None, True
            continue
        m = MARKER.match(raw)
        if raw.lstrip().startswith("#"):
            list_indents = []
            yield i + 1, [heading_text(raw)], False, None, False
            continue
        if m:
            indent = len(m.group(1).expandtabs(4))
            nested = bool(list_indents) and min(list_indents) < indent
            if not nested:
                parent_line = i + 1
            list_indents.append(indent)
            yield i + 1, SENTENCE_END.split(unmark(raw[m.end():])), nested, parent_line if nested else None, False
            continue
        list_indents = []
        yield i + 1, SENTENCE_END.split(unmark(raw)), False, None, False


def seed_sentences(path: Path, libs: list[Library], exceptions: list[dict], edition: str) -> list[Sentence]:
    """Every sentence of a seed that a reader of an edition must find, with its page, minus the listed exceptions."""
    lines = path.read_text(encoding="utf-8").splitlines()
    skip: set[int] = set()
    halves: set[int] = set()
    cut: dict[int, list[int]] = {}
    for ex in exceptions:
        low, _, high = str(ex["lines"]).partition("-")
        rows = range(int(low) - 1, int(high or low))
        if ex["kind"] == "omit" or (ex["kind"] == "edition" and ex["edition"] != edition):
            skip.update(rows)
        elif ex["kind"] == "drop_cells":
            cut.update({r: list(ex["cells"]) for r in rows})
        elif ex["kind"] == "halves":
            halves.update(rows)
    sections = _sections(path, lines, libs, skip)
    out: list[Sentence] = []
    by_line: dict[int, Sentence] = {}
    for k, sec in enumerate(sections):
        end = sections[k + 1].start if k + 1 < len(sections) else len(lines)
        for line, parts, nested, parent, row in _items(lines, sec.start, end, skip, cut, halves):
            for n, part in enumerate(p for p in parts if words(p)):
                s = Sentence(path.name[:3], line, n + 1, part.strip(), sec.target, sec.variant, nested, row,
                             by_line.get(parent) if nested and n == 0 else None)
                s.nested = s.parent is not None
                s.expected = [words(s.text)]
                by_line.setdefault(line, s)
                out.append(s)
    return out


def edition_seeds(lib: Library) -> set[str]:
    """The seed files an edition prints: those its games and variants name as sources."""
    out = set()
    for gs in lib.games.values():
        if lib.in_edition(gs.game.introduced):
            out.update(s.seed for s in gs.game.sources)
        out.update(s.seed for v in gs.game.variants if lib.in_edition(v.introduced) for s in v.sources)
    return out


def edition_sentences(seeds: Path, lib: Library, libs: list[Library], exceptions: dict,
                      root: Path) -> tuple[dict[str, list[Sentence]], list[str]]:
    """Each seed's sentences as an edition must print them (its errata applied), and any erratum
    whose published words are in none of them."""
    out = {name[:3]: seed_sentences(seeds / name, libs, exceptions.get(name[:3], []), lib.edition.id)
           for name in sorted(edition_seeds(lib))}
    problems = apply_errata([s for ss in out.values() for s in ss], lib, root)
    return out, problems


def apply_errata(sentences: list[Sentence], lib: Library, root: Path) -> list[str]:
    """Rewrite the sentences each correction of the edition touches; return errors for any that touch none.

    A correction applies within the page its file belongs to (a variant's, if its path or file
    names one); when its entry names a title (the index), only sentences naming that title. If its
    published words occur in several sentences there, each may read either way, but at least one
    must read corrected: `ambiguous` records those groups.
    """
    problems = []
    for e in _corrections(lib):
        target, variant, title = _erratum_scope(e, lib, root)
        # Data text may refer to the game's own values ({examples.x.values.y.stated}): read as printed.
        game = lib.games.get(Path(e.file).name.split(".")[0])
        scopes = ([game.doc.data] if game else []) + [lib.scope()]
        old = words(expand(str(e.published), *scopes))
        new = words(expand(str(e.corrected), *scopes))
        hits = [s for s in sentences if s.target == target and (variant is None or s.variant == variant)
                and (title is None or _contains(s.expected[0], title)) and _contains(s.expected[0], old)]
        if not hits and any(s.target == target and s.errata and _contains(s.expected[0], new) for s in sentences):
            continue  # the same slip restated in a second field (a worked example's label): corrected once above
        if not hits:
            problems.append(f"erratum {e.id}: its published words {' '.join(old)!r} are in no sentence of {target}")
        for s in hits:
            fixed = _replace(s.expected[0], old, new)
            s.expected = [fixed] if len(hits) == 1 else [fixed, s.expected[0]]
            s.errata.append(e.id)
    return problems


def _corrections(lib: Library) -> list[SimpleNamespace]:
    """Every correction an edition prints: its errata, and the mistakes of its sources corrected while transcribing
    them (kept with each citation: the seed says ``says``, the book prints ``corrected``)."""
    out = [SimpleNamespace(id=e.id, file=e.file, path=e.path, published=e.published, corrected=e.corrected)
           for e in lib.errata if lib.in_edition(e.edition)]
    for gs in lib.games.values():
        cited = [(None, s) for s in gs.game.sources] + [(v, s) for v in gs.game.variants if lib.includes(v)
                                                         for s in v.sources]
        for variant, source in cited:
            for n, c in enumerate(source.corrections):
                out.append(SimpleNamespace(id=f"{gs.id}{'.' + variant.id if variant else ''} source correction {n + 1}",
                                           file=c.file or gs.doc.path, path=c.path, published=c.says,
                                           corrected=c.corrected))
    return out


def _erratum_scope(e, lib: Library, root: Path) -> tuple[str, str | None, list[str] | None]:
    stem = Path(e.file).name.split(".")[0]
    parts = Path(e.file).name.split(".")
    path = str(getattr(e, "path", None) or "")
    if e.file == "rules_data/book.yaml":
        node = yaml.safe_load((root / e.file).read_text(encoding="utf-8"))
        parent = None
        for key in path.split(".")[:-1]:
            node = parent = node[int(key)] if isinstance(node, list) else node[key]
        title = words(parent["title"]) if isinstance(parent, dict) and "title" in parent else None
        return "index", None, title
    if stem in lib.games:
        variant = parts[1] if e.file.startswith("content/") and len(parts) == 3 else None
        if path.startswith("variants."):
            variant = lib.games[stem].game.variants[int(path.split(".")[1])].id
        return f"game:{stem}", variant, None
    return f"page:{stem}", None, None


def _contains(hay: list[str], needle: list[str]) -> bool:
    return any(hay[i:i + len(needle)] == needle for i in range(len(hay) - len(needle) + 1))


def _replace(hay: list[str], old: list[str], new: list[str]) -> list[str]:
    for i in range(len(hay) - len(old) + 1):
        if hay[i:i + len(old)] == old:
            return hay[:i] + new + _replace(hay[i + len(old):], old, new)
    return list(hay)

"""What a change does to the rules, in words: games, players, deals, values, totals, rounds, prose.

Used by ``rulebook diff OLD NEW`` (for a pull-request comment) and by the site's "What changed"
page (one edition against the one before it). Both sides are loaded libraries, so the summary
speaks of rules, not of lines of YAML.
"""

from __future__ import annotations

import re
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

from .errors import RulebookError
from .library import GameSource, Library, load_library
from .prose import expand
from .render import describe


@dataclass
class GameChange:
    """Everything that changed in one game."""

    title: str
    lines: list[str] = field(default_factory=list)


@dataclass
class Summary:
    """A whole change, game by game."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[GameChange] = field(default_factory=list)
    book: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.book)


def _fmt(value: Any) -> str:
    if isinstance(value, list):
        return "; ".join(_fmt(v) for v in value) or "none"
    return "none" if value in (None, "") else str(value)


def _compare(label: str, old: Any, new: Any) -> Iterator[str]:
    if old != new:
        yield f"{label}: {_fmt(old)} → {_fmt(new)}"


def _values(body: Any, data: dict) -> dict[str, dict[str, str]]:
    out = {}
    for key, table in body.scoring.items():
        rows = {}
        for i, item in enumerate(table.items):
            # labels may print the item's own data ('{count} of a kind'): key rows by the label as printed
            label = expand(item.label, item.model_dump(exclude_none=True), data)
            if label in rows:  # two items printed alike: neither may hide the other
                label = f"{label} (item {i + 1})"
            rows[label] = describe.item_value(item, data) + (
                f" (stated total {item.stated_total})" if item.stated_total is not None else "")
        if table.stated_total is not None:
            rows["stated total"] = str(table.stated_total)
        out[table.title or key] = rows
    return out


def _rounds(body: Any, data: dict) -> list[str]:
    r = body.rounds
    if r is None:
        return []
    rows = []
    for rnd in r.items:
        parts = [p for p in (rnd.meld, f"{rnd.each} cards" if rnd.each else None, rnd.trump,
                             f"possible {rnd.possible}" if rnd.possible is not None else None,
                             f"min meld {rnd.min_meld}" if rnd.min_meld is not None else None) if p]
        parts += [f"{i.label} {describe.item_value(i, data, True)}" for i in rnd.scoring]
        rows.append(f"{rnd.name}: {', '.join(parts)}")
    if r.stated_count is not None:
        rows.append(f"{r.stated_count} rounds stated")
    for s in r.sequences:  # hand sizes that run down and back up (Oh Hell)
        rows.append(f"hands of {s.start} down to {s.low}" + (" and back up" if s.back_up else "")
                    + (f" for {s.players} players" if s.players is not None else "")
                    + (f", {s.stated_count} hands stated" if s.stated_count is not None else ""))
    return rows


def _sheet(body: Any) -> dict[str, str]:
    """A score sheet's blocks and the numbers they print: best score, blank rows, column groups."""
    sheet = body.score_sheet
    out = {}
    for i, block in enumerate(sheet.blocks if sheet else []):
        parts = [f"possible {block.possible}" if block.possible is not None else "",
                 f"{block.blank_rows} blank rows" if block.blank_rows is not None else "",
                 *(f"{g.label} over {g.span} columns" for g in block.groups)]
        out[block.title or block.round or f"block {i + 1}"] = ", ".join(p for p in parts if p)
    return out


def _paragraphs(text: str | None) -> list[str]:
    if not text:
        return []
    return [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n|\n(?=\s*[-*] )", text) if p.strip()]


def _excerpt(paragraph: str, others: list[str], width: int = 200) -> str:
    """Up to ``width`` characters of a changed paragraph, from just before where it first differs from
    the most alike of ``others`` (a long paragraph's change is otherwise cut off)."""
    def common(other: str) -> int:
        n = 0
        while n < min(len(paragraph), len(other)) and paragraph[n] == other[n]:
            n += 1
        return n
    start = max((common(o) for o in others), default=0)
    start = 0 if start < width // 2 else paragraph.rfind(" ", 0, start - 40) + 1
    return ("…" if start else "") + paragraph[start:start + width]


def _examples(body: Any) -> dict[str, Any]:
    return {f"{ex.title} – {name}": (v if isinstance(v, (int, float)) else v.stated)
            for ex in body.examples.values() for name, v in ex.values.items()}


def _rules(prefix: str, old: Any, new: Any, old_data: dict, new_data: dict) -> list[str]:
    """Rule changes between two bodies (a game, or one of its variants)."""
    lines: list[str] = []
    add = lines.extend
    if old.players is not None or new.players is not None:
        add(_compare(f"{prefix}Players", old.players and describe.players(old), new.players and describe.players(new)))
    add(_compare(f"{prefix}Equipment", describe.equipment(old), describe.equipment(new)))
    add(_compare(f"{prefix}Deal", describe.deal(old), describe.deal(new)))
    add(_compare(f"{prefix}Wild cards", old.wild, new.wild))
    add(_compare(f"{prefix}To win", describe.goal(old.goal), describe.goal(new.goal)))
    old_values, new_values = _values(old, old_data), _values(new, new_data)
    for table in sorted(set(old_values) | set(new_values)):
        a, b = old_values.get(table, {}), new_values.get(table, {})
        for label in sorted(set(a) | set(b)):
            add(_compare(f"{prefix}{table}, {label}", a.get(label), b.get(label)))
    old_rounds, new_rounds = _rounds(old, old_data), _rounds(new, new_data)
    lines += [f"{prefix}Round removed or changed: {line}" for line in old_rounds if line not in new_rounds]
    lines += [f"{prefix}Round added or changed: {line}" for line in new_rounds if line not in old_rounds]
    old_sheet, new_sheet = _sheet(old), _sheet(new)
    for block in sorted(set(old_sheet) | set(new_sheet)):
        add(_compare(f"{prefix}Score sheet, {block}", old_sheet.get(block), new_sheet.get(block)))
    old_ex, new_ex = _examples(old), _examples(new)
    for key in sorted(set(old_ex) | set(new_ex)):
        add(_compare(f"{prefix}Worked example {key}", old_ex.get(key), new_ex.get(key)))
    return lines


def compare_game(old: GameSource, new: GameSource, old_lib: Library, new_lib: Library) -> GameChange:
    """The rule changes between two versions of one game."""
    change = GameChange(new.game.title)
    change.lines += _rules("", old.game, new.game, old.doc.data, new.doc.data)
    old_variants = {v.id: (i, v) for i, v in enumerate(old.game.variants) if old_lib.in_edition(v.introduced)}
    for i, v in enumerate(new.game.variants):
        if new_lib.in_edition(v.introduced) and v.id in old_variants:
            j, ov = old_variants[v.id]
            change.lines += _rules(f"{v.title}: ", ov, v, old.doc.data["variants"][j], new.doc.data["variants"][i])
    old_alt = [r.text for r in (old.game.alternate_rules.rules if old.game.alternate_rules else [])
               if old_lib.in_edition(r.introduced)]
    new_alt = [r.text for r in (new.game.alternate_rules.rules if new.game.alternate_rules else [])
               if new_lib.in_edition(r.introduced)]
    old_numbers = {r.text: r.number for r in (old.game.alternate_rules.rules if old.game.alternate_rules else [])}
    for r in new.game.alternate_rules.rules if new.game.alternate_rules else []:
        if r.text in old_numbers and old_numbers[r.text] != r.number and new_lib.in_edition(r.introduced):
            change.lines.append(f"Alternate rule renumbered: {_fmt(old_numbers[r.text])} → {_fmt(r.number)}: {r.text}")
    change.lines += [f"Alternate rule removed: {t}" for t in old_alt if t not in new_alt]
    change.lines += [f"Alternate rule added: {t}" for t in new_alt if t not in old_alt]
    old_var = {v.id: v.title for v in old.game.variants if old_lib.in_edition(v.introduced)}
    new_var = {v.id: v.title for v in new.game.variants if new_lib.in_edition(v.introduced)}
    change.lines += [f"Variant added: {new_var[v]}" for v in new_var if v not in old_var]
    change.lines += [f"Variant removed: {old_var[v]}" for v in old_var if v not in new_var]
    old_p, new_p = _paragraphs(old.prose.text if old.prose else None), _paragraphs(new.prose.text if new.prose else None)
    for p in old_p:
        if p not in new_p:
            change.lines.append(f"Text removed or reworded: “{_excerpt(p, new_p)}”")
    for p in new_p:
        if p not in old_p:
            change.lines.append(f"Text added or reworded: “{_excerpt(p, old_p)}”")
    for v in new.game.variants:  # a variant's own prose file
        if v.id in old_var and v.id in new_var:
            was, now = old.variant_prose.get(v.id), new.variant_prose.get(v.id)
            was_p, now_p = _paragraphs(was.text if was else None), _paragraphs(now.text if now else None)
            change.lines += [f"{v.title}: Text removed or reworded: “{_excerpt(p, now_p)}”" for p in was_p if p not in now_p]
            change.lines += [f"{v.title}: Text added or reworded: “{_excerpt(p, was_p)}”" for p in now_p if p not in was_p]
    return change


def compare(old: Library, new: Library) -> Summary:
    """Everything that changed between two libraries."""
    summary = Summary()
    summary.added = [gs.game.title for gs in new.ordered_games() if gs.id not in old.games]
    summary.removed = [gs.game.title for gs in old.ordered_games() if gs.id not in new.games]
    for gs in new.ordered_games():
        if gs.id in old.games:
            change = compare_game(old.games[gs.id], gs, old, new)
            if change.lines:
                summary.changed.append(change)
    summary.book.extend(_compare("Index title", old.book.index_title, new.book.index_title))
    for pid, page in new.pages.items():
        old_page = old.pages.get(pid)
        if old_page is None or _paragraphs(old_page.text) != _paragraphs(page.text):
            summary.book.append(f"Page “{pid}” changed")
    return summary


def markdown(summary: Summary, heading: str) -> str:
    """The summary as Markdown, fit for a pull-request comment or a site page."""
    out = [f"## {heading}", ""]
    if summary.empty:
        return "\n".join(out + ["No change to the rules.", ""])
    if summary.added:
        out += ["### Games added", ""] + [f"- {t}" for t in summary.added] + [""]
    if summary.removed:
        out += ["### Games removed", ""] + [f"- {t}" for t in summary.removed] + [""]
    for change in summary.changed:
        out += [f"### {change.title}", ""] + [f"- {line}" for line in change.lines] + [""]
    if summary.book:
        out += ["### The book", ""] + [f"- {line}" for line in summary.book] + [""]
    return "\n".join(out)


def _checkout(ref: str, repo: Path, dest: Path) -> Path:
    """The sources at a git ref, unpacked into ``dest`` (only what the book is made of)."""
    try:
        data = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", ref, "rules_data", "content"],
                              capture_output=True, check=True).stdout
    except subprocess.CalledProcessError as exc:
        raise RulebookError(f"cannot read '{ref}' from git: {exc.stderr.decode(errors='replace').strip()}") from None
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def load_side(spec: str, repo: Path, tmp: Path) -> Library:
    """A library from a folder, or from a git ref of ``repo``."""
    path = Path(spec)
    if path.is_dir() and (path / "rules_data").is_dir():
        return load_library(path.resolve())
    return load_library(_checkout(spec, repo, tmp / re.sub(r"\W", "_", spec)))


def diff(old: str, new: str, repo: Path) -> str:
    """``rulebook diff OLD NEW``: Markdown describing what NEW changes in the rules of OLD."""
    with tempfile.TemporaryDirectory() as tmp:
        a = load_side(old, repo, Path(tmp))
        b = load_side(new, repo, Path(tmp))
        return markdown(compare(a, b), f"What this change does to the rules ({old} → {new})")

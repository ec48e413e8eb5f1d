"""What the pull request's pictures of both outputs share: a page's pictures before and after, the colours that box
the words a change removes and adds, a change of words, and the pages a change alters alike.

The book's pages are drawn by ``render/pdf/pictures.py``, the site's by ``render/site/pictures.py``; the pull-request
check (``commands/check_pr``) draws both sides of a change with them and lays the pictures out side by side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher

REMOVED, ADDED = "#d62728", "#2ca02c"  # the boxes: red before, green after
FEW = 3  # pages drawn of those a change alters alike (every game page: a few say it)

Words = tuple[tuple[str, ...], tuple[str, ...]]  # a page's change: the runs of words it removes, and those it adds


@dataclass
class Picture:
    """One page the change alters: what it is, and its pictures before and after (files in the folder; none on a
    side the page is not on)."""

    kind: str  # "book" or "site"
    name: str
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    marked: int = 0  # words boxed, both sides


@dataclass
class Alike:
    """Pages changed by the same words, none of a game whose own rules the change edits (a template renaming a box
    on every game page): said once in the summary, the first ``FEW`` drawn."""

    kind: str  # "book" or "site"
    change: Words
    names: list[str]  # every such page, in the book's (the site's) order
    games: set[str] = field(default_factory=set)  # the games whose pages they are


def changed_words(before: list[str], after: list[str]) -> tuple[set[int], set[int]]:
    """The positions of the words ``after`` removes from ``before``, and of those it adds."""
    gone: set[int] = set()
    came: set[int] = set()
    for op, i1, i2, j1, j2 in SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if op != "equal":
            gone.update(range(i1, i2))
            came.update(range(j1, j2))
    return gone, came


def runs(words: list[str], marked: set[int]) -> tuple[str, ...]:
    """The ``marked`` words (positions in ``words``) as runs of neighbours, each run one text, each text once."""
    out: list[list[str]] = []
    last = None
    for i in sorted(marked):
        if last is None or i != last + 1:
            out.append([])
        out[-1].append(words[i])
        last = i
    return tuple(dict.fromkeys(" ".join(run) for run in out))  # a box renamed twice on a page: the same change


def group_alike(changed: list[tuple[set[str], Words | None]], edited: set[str]) -> dict[Words, list[int]]:
    """Of the pages changed by words (each: the games on it, and its change, None for a page new or gone), those
    changed alike, by change: more than ``FEW`` pages with the same change, none a page of a game in ``edited``
    (whose own data or text the change edits: a correction to several games draws each of them)."""
    groups: dict[Words, list[int]] = {}
    for n, (games, change) in enumerate(changed):
        if change is not None and change != ((), ()) and not games & edited:
            groups.setdefault(change, []).append(n)
    return {change: pages for change, pages in groups.items() if len(pages) > FEW}


def said_alike(change: Words) -> str:
    """A change of words in a phrase: '“Deal” is now “Dealing”', or what it removes and adds."""
    gone, came = (", ".join(f"“{w}”" for w in side) for side in change)
    if len(change[0]) == 1 and len(change[1]) == 1:
        return f"{gone} is now {came}"
    return "; ".join(part for part in (f"{gone} removed" if gone else "", f"{came} added" if came else "") if part)

"""Copy-fitting a part's last pages: the end of a part set again, tighter, from a page boundary.

A part (a section with its games) whose last page would be nearly empty is set with tighter leading
until it takes a page less. Setting the whole part again costs as much as the first layout, and the
cards section is two thirds of the book, so only its last pages are set again: from a page that
opens with a whole element (a paragraph, a list item, a table, not the rest of one), the part's
HTML with everything before that element left out is laid out on its own and its pages replace the
first layout's from that page on. The pages before it are the first layout's, untouched.

The tail document starts with an empty page that carries the running header's strings in force at
the cut (the game and section named at the top of the page), and is dropped; the elements the cut
opens inside (the section, the game, a list) lose their top margin, their ids (the anchors are on
the earlier pages) and, for a numbered list, the numbers already used.

The same cut lays out a long section a run of games at a time (``Layout.runs`` in book.py): a run's
pages are kept up to a page, well before the run's last, that opens with a whole element of a later
game, and the next run starts from that element, as a tail would (``next_run``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any
from xml.etree.ElementTree import Element

from .weasy import page_fill

STRING_NAME = re.compile(r"^[a-z][a-z0-9-]*$")  # a string-set name from our own stylesheet


def _flow_root(page: Any) -> Any:
    """The page's <html> box (the page box's other children are its margin boxes)."""
    return next(child for child in page._page_box.children if child.element is not None)


def fresh_start(document: Any, n: int) -> Element | None:
    """The element that page ``n`` opens with, if it opens with a whole one (None if the page opens
    with the rest of a paragraph, a table or anything else begun on the page before)."""
    from weasyprint.formatting_structure import boxes

    before = {id(box.element) for box in _flow_root(document.pages[n - 1]).descendants() if box.element is not None}
    box = _flow_root(document.pages[n])
    while id(box.element) in before:  # begun on the page before: the page opens inside it
        if type(box) is not boxes.BlockBox:
            return None  # inside a table, a line or a replaced box: no whole element to start from
        children = [c for c in box.children if c.is_in_normal_flow() or c.is_floated()]
        if not children or children[0].element is box.element:
            return None  # empty, or an anonymous box around loose text
        box = children[0]
    return box.element


def entry_strings(document: Any, n: int) -> dict[str, str]:
    """The running header's strings (``string-set``) in force where page ``n`` begins."""
    strings: dict[str, str] = {}
    for page in document.pages[:n]:
        for box in _flow_root(page).descendants():
            for name, text in box.string_set or ():
                strings[name] = text
    return strings


def cut_page(document: Any, need: float) -> int | None:
    """The last page from which the part's pages hold at least ``need`` pages of text before its last
    page, and that opens with a whole element; None if no page qualifies."""
    pages, held = document.pages, 0.0
    for n in range(len(pages) - 2, 0, -1):
        held += page_fill(pages[n])
        if held >= need and fresh_start(document, n) is not None:
            return n
    return None


def split_openings(document: Any) -> list[str]:
    """The games and variants (their ids) whose heading is on one page and first line of text on the next."""
    page_of: dict[str, int] = {}
    for n, page in enumerate(document.pages):
        for anchor in page.anchors:
            page_of.setdefault(anchor, n)
    # A game begun before a run or tail (its heading not in this layout) is not split here.
    return [name[7:] for name, n in page_of.items()
            if name.startswith("opened-") and name[7:] in page_of and page_of[name[7:]] != n]


# A table taller than this share of the text area may break between its rows (its head repeats): kept whole, it
# would leave the page before it that much short. A smaller table is kept whole, as a typesetter keeps it.
TALL_TABLE = 1 / 3
# A page ending above this share of its text area, while its part goes on overleaf, ends early.
EARLY = 0.75


def pushed_tables(document: Any) -> list[str]:
    """The data tables (their ids) taller than TALL_TABLE of the text area that open a page after one that
    ended early (EARLY): kept whole, they left the page before them short."""
    from weasyprint.formatting_structure import boxes

    found = []
    for n, page in enumerate(document.pages[1:], 1):
        if page_fill(document.pages[n - 1]) >= EARLY:
            continue
        area = page._page_box.height
        for box in _flow_root(page).descendants():
            if isinstance(box, boxes.TableBox) and box.element is not None and "data" in box.element.get("class", "").split():
                top = box.position_y - page._page_box.content_box_y()
                if top < area * (1 - EARLY) and box.margin_height() > area * TALL_TABLE and box.element.get("id"):
                    found.append(box.element.get("id"))
    return found


def tail_tries(document: Any, steps: Sequence[tuple[float, float]], base: float,
               margins: Sequence[float]) -> list[tuple[int, tuple[float, float]]]:
    """The (first page, fit step) of each tail worth setting again, in the order to try them.

    For each step's leading, the tail holds enough text for that leading to save the last page's lines
    (it shortens text by at most 1 - leading / base) times each margin in turn. Shortest tail first,
    each try lays its pages out again; among tails as long, the gentler leading first."""
    fill, tries = page_fill(document.pages[-1]), []
    for margin in margins:
        cuts = {step: cut_page(document, fill * margin / (1 - step[0] / base)) for step in steps}
        tries += sorted(((cut, step) for step, cut in cuts.items() if cut is not None and (cut, step) not in tries),
                        key=lambda t: (-t[0], -t[1][0]))
    return tries


def _path(root: Element, target: Element) -> list[int]:
    """Child indices from ``root`` down to ``target``."""
    parent = {child: node for node in root.iter() for child in node}
    path = []
    while target is not root:
        up = parent[target]
        path.append(list(up).index(target))
        target = up
    return path[::-1]


def tail_edit(document: Any, n: int) -> Callable[[Element], None]:
    """A change to a fresh parse of the part's HTML that leaves only what page ``n`` and the pages
    after it hold, behind an empty first page that sets the running header as it stood."""
    start = fresh_start(document, n)
    if start is None:
        raise ValueError(f"page {n + 1} of the part opens inside an element")
    return resume_edit(_path(_flow_root(document.pages[n]).element, start), _strings(document, n))


def _strings(document: Any, n: int) -> dict[str, str]:
    return {k: v for k, v in entry_strings(document, n).items() if STRING_NAME.match(k)}


RUN_ANCESTORS = ("article", "section", "div")  # what a run may start inside: not a list, a table or a line


def next_run(document: Any, margin: int) -> tuple[int, int, list[int], dict[str, str]] | None:
    """Where the next run of a long section starts: the last page at least ``margin`` pages before the
    run's last that opens with a whole element of a later game than the run's first, inside nothing
    but the section, the game and its variants (so nothing the cut opens inside draws a marker or a
    border). Returns (that page, the game's place among the run's games, the element's path inside
    the game, the running strings in force there), or None."""
    for n in range(len(document.pages) - 1 - margin, 0, -1):
        start = fresh_start(document, n)
        if start is None:
            continue
        body = next(child for child in _flow_root(document.pages[n]).element if child.tag == "body")
        section = next((el for el in body if "book-section" in (el.get("class") or "").split()), None)
        if section is None:
            return None
        path = _path(section, start) if start is not section else []
        titled = len(section) > 0 and "section-title" in (section[0].get("class") or "").split()
        game = path[0] - (1 if titled else 0) if path else -1
        node, inside = section, []
        for index in path[:-1]:
            node = node[index]
            inside.append(node.tag)
        if game >= 1 and all(tag in RUN_ANCESTORS for tag in inside):
            return n, game, path[1:], _strings(document, n)
    return None


def then(first: Callable[[Element], None] | None, second: Callable[[Element], None]) -> Callable[[Element], None]:
    """Two changes to a parse, one after the other (``first`` may be None)."""
    if first is None:
        return second

    def both(root: Element) -> None:
        first(root)
        second(root)

    return both


def resume_edit(path: list[int], strings: dict[str, str]) -> Callable[[Element], None]:
    """A change to a fresh parse that leaves only the element at ``path`` (child indices from <html>) and
    what follows it, behind an empty first page that sets the running ``strings`` as they stood."""

    def edit(root: Element) -> None:
        node = root
        for depth, index in enumerate(path):
            child = node[index]
            if depth > 0:  # below <html>: <head> stays
                dropped = list(node)[:index]
                if node.tag == "ol":  # the numbers the items on earlier pages took (WeasyPrint reads no `start`)
                    style = node.get("style", "")
                    node.set("style", f"{style}; counter-reset: list-item {sum(d.tag == 'li' for d in dropped)}".lstrip("; "))
                for element in dropped:
                    node.remove(element)
                if depth > 1:  # an element the cut opens inside (body itself is not marked)
                    node.text = None
                    node.attrib.pop("id", None)
                    node.set("class", (node.get("class", "") + " continued").strip())
            node = child
        node.set("class", (node.get("class", "") + " resumes").strip())
        body = root[path[0]]
        entry = Element("div", {"class": "entry-strings", "aria-hidden": "true"})
        declarations = []
        for i, (name, text) in enumerate(sorted(strings.items())):
            entry.set(f"data-string-{i}", text)  # an attribute value: contributor text stays text
            declarations.append(f"{name} attr(data-string-{i})")
        if declarations:
            entry.set("style", "string-set: " + ", ".join(declarations))
        body.insert(0, entry)

    return edit

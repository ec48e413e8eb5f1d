"""A score sheet's filled-in samples are set apart from its blank sheet (issue 60, item 7): in the book, after every
blank block, under their own heading, on a page no blank block is on; and a sample shows every row a filled sheet
would, its Total row, or beside each hand the total so far where the blank block keeps a running total.

Cheap: each game with samples laid out alone (its article of the book), no book built."""

from __future__ import annotations

from functools import partial

import pytest

from tests.conftest import CURRENT, PUBLISHED

SAMPLED = [(CURRENT, "gin-rummy"), (CURRENT, "gin-rummy-tournament"), (PUBLISHED, "gin-rummy-tournament")]


def _classes(box) -> set[str]:
    element = getattr(box, "element", None)
    return set((element.get("class") or "").split()) if element is not None else set()


def _page_kinds(page) -> list[str]:
    """What a laid-out page holds of a sheet, in order: 'blank' (a blank sheet's block), 'heading' (the samples'),
    'sample' (a sample block), each once per element."""
    out, seen = [], set()

    def walk(box):
        element = getattr(box, "element", None)
        if element is not None and id(element) not in seen:
            classes = _classes(box)
            kind = ("sample" if "sheet-sample" in classes else "blank" if "sheet-block" in classes
                    else "heading" if "sheet-samples-title" in classes else None)
            if kind and box.element_tag in ("table", "p"):
                seen.add(id(element))
                out.append(kind)
        for child in getattr(box, "children", []) or []:
            walk(child)

    walk(page._page_box)
    return out


@pytest.mark.parametrize(("edition", "game_id"), SAMPLED, ids=[f"{e}-{g}" for e, g in SAMPLED])
def test_samples_are_set_apart_from_the_blank_sheet(library, published_library, edition, game_id):
    from generator.render.pdf.book import BookParts, book_prints_sheet, document_maker
    from generator.render.pdf.weasy import Engine

    lib = library if edition == CURRENT else published_library
    parts = BookParts(lib)
    page = next(p for p in parts.games if p.id == game_id)
    section = next(s for s in lib.book.sections if game_id in s.games)
    html = document_maker(lib, False)(str(parts.templates.game(page, section, partial(book_prints_sheet, lib),
                                                              parts.sheets.get(game_id, []))))
    pages = [_page_kinds(p) for p in Engine().document(html).pages]
    kinds = [k for p in pages for k in p]
    assert "blank" in kinds and "sample" in kinds, kinds
    assert kinds.index("heading") < kinds.index("sample")  # the samples' heading comes before them
    assert max(i for i, k in enumerate(kinds) if k == "blank") < kinds.index("heading")  # after every blank block
    assert [p for p in pages if "blank" in p and ("sample" in p or "heading" in p)] == []  # never on one page


def test_a_sample_of_a_running_block_shows_the_total_so_far_beside_each_hand(library):
    """Basic Rummy's sheet keeps a running total beside each hand: a sample of it (its worked example's figures in
    the hands' boxes) shows, as a filled sheet would, each player's total so far beside each hand they scored, and no
    Total row (the blank sheet has none either)."""
    import re
    from dataclasses import replace

    from generator.render.pdf.book import _env
    from generator.render.views.sheets import is_running
    from tests.test_sheets import _definitions

    _file, _heading, view = next(d for d in _definitions(library) if d[0].key == "basic-rummy")
    block = view.body.score_sheet.blocks[0]
    assert is_running(view, block)
    figures = view.examples()["no-one-out"]
    sample = [["a", None, "b"], [None, "c", "d"], ["b", "a", None]]
    sheet = view.body.score_sheet.model_copy(update={"example": "no-one-out", "blocks": [
        block.model_copy(update={"sample": sample})]})
    view = replace(view, body=view.body.model_copy(update={"score_sheet": sheet}))
    html = str(_env(library).get_template("blocks.html.j2").module.sheet_samples(view))
    rows = [re.findall(r'<td( class="running")?>([^<]*)</td>', row) for row in
            re.findall(r"<tr><th scope=\"row\">.*?</tr>", html.split("<tbody>", 1)[1], re.S)]

    def value(name):
        computed, stated, _ = figures[name]
        return stated if stated is not None else computed

    so_far: dict[int, float] = {}
    expected = []
    for row in sample:
        cells = []
        for c, name in enumerate(row):
            if name is not None:
                so_far[c] = so_far.get(c, 0) + value(name)
            cells += [("", str(value(name)) if name else ""),
                      (' class="running"', str(so_far[c]) if name else "")]
        expected.append(cells)
    assert rows == expected
    assert "sheet-total" not in html  # no Total row: the total is beside each hand
    assert html.count('scope="colgroup"') == html.count('<th scope="col">Score</th>') >= 3  # a hand and its total, a player

"""A score box reads what a person types the same way on the site (the keeper, templates/site/assets/keeper.js) and in
the PDF (the form's scripts, generator/render/pdf/writer.py, run by PDF.js as Firefox runs them): one table of
entries for both. A number is added; what is no number marks its box and makes the total show "?", never a misread
sum, NaN or Infinity. The keeper's saved game (localStorage, which anything on the device may write) is checked.

Cheap: no book is built. The keeper runs on a page made here (a keeper's markup as keeper.md.j2 writes it) at a
phone's 360 px, the PDF is a one-page form the writer writes; one page load each for the whole table."""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading
from pathlib import Path

import pytest

from generator.book.files import TOOL_TEMPLATES, read_file_text
from tests.conftest import CHROMIUM
from tests.test_pdfjs_calc import JS, PDFJS, _missing, _Served

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium package is not installed")]

KEEPER = TOOL_TEMPLATES / "site" / "assets" / "keeper.js"
OTHER = "10"  # typed in the column's other box: the total is OTHER and the entry, added
# What a person types: what the box reads (a number), "" (an empty box: adds nothing), or None (no number: the box is
# marked and the total shows "?"). Each row is what issue 60 found misread, or a neighbour of it.
ENTRIES = {
    "5": 5, "-5": -5, "\u22125": -5, "+7": 7, " 42 ": 42, "007": 7, "0": 0, "": "",
    "1,000": 1000,  # the keeper read it as 1, the PDF as 0
    "1 000": 1000, "1\u00a0000": 1000, "12,345,678": 12345678, "-1,000": -1000,
    "1e3": None,  # the keeper read it as 1, PDF.js as 1000
    "12.5": None,  # the keeper read it as 12: no game of the book scores halves
    "1.000": None,  # a European thousand: never read as 1
    "1,00": None, "1,000,00": None, "1,,000": None, "--5": None, "0x10": None, "Infinity": None, "abc": None,
    "999999999999": 999999999999, "1000000000000": None,  # more than twelve digits: a total would not be exact
    "9" * 400: None,  # the PDF's total was Infinity
}
# The same boxes in a German book (issue 62): its thousands grouped by "." (Babel's sign for German, given to the
# keeper as data-group and to the form's scripts), and English's "1,000" no number there: it could be a decimal.
GERMAN = {
    "5": 5, "-5": -5, "": "", "1000": 1000,
    "1.000": 1000, "-1.000": -1000, "12.345.678": 12345678, "1 000": 1000, "1\u202f000": 1000,
    "1,000": None,  # one, to a German reader; never read as a thousand
    "12,5": None,  # twelve and a half, on a sheet not scored in halves: never read as 125
    "1.00": None, "1.000,5": None, "1.000.00": None, "1,000.5": None, "1e3": None,
}
TABLES = {"en": ENTRIES, "de": GERMAN}


# A sheet scored in halves (``halves: true``; the keeper's data-halves and the form's boxes' carry the book's decimal
# sign): what a person types there, per sign, read as ENTRIES reads it (None: no number, the box marked). The whole
# points are readScore's; a half is one digit, 5 (or 0), after "." or the sign, or "½".
HALVES = {
    ".": {"12.5": 12.5, "-0.5": -0.5, "−3.5": -3.5, "+.5": 0.5, "3½": 3.5, "½": 0.5, "12.0": 12,
          "1,000.5": 1000.5, "1,000": 1000, "999999999999.5": 999999999999.5, "5": 5, "": "",
          "12,5": None,  # English writes its decimals with a point: a comma is a thousands' group, and this no group
          "12.25": None, "12.50": None, "12.7": None, "1.000": None, "12 .5": None, "--0.5": None, "12.5.5": None,
          "1e3": None, ".": None, "-": None, "abc.5": None},
    ",": {"12,5": 12.5, "12.5": 12.5, "-0,5": -0.5, "1,0": 1, "1 000,5": 1000.5, "3½": 3.5,
          "12,25": None, "12,": None},
}


def _halves_total(reads: float | str | None, point: str) -> str:
    """What a halves column's total shows with an entry that ``reads`` so and OTHER: a half with ``point``."""
    if reads is None:
        return "?"
    total = int(OTHER) + (reads or 0)
    return str(int(total) if total == int(total) else total).replace(".", point)


def _total(entry: str, table: dict | None = None) -> str:
    """What the column's total shows with ``entry`` and OTHER in its boxes."""
    reads = (table or ENTRIES)[entry]
    return "?" if reads is None else str(int(OTHER) + (reads or 0))


KEEPER_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width"></head><body>
<div class="keeper" data-key="test:game%s" data-counts="2,3,4" data-start="2" data-open="1" data-step="1"
 data-winner="high" data-keeps="points"%s>
<p class="keeper-status" role="status"></p>
<button type="button" data-act="add">Add a player</button>
<table class="keeper-table" data-table="1" data-per="1"><thead><tr><td class="keeper-corner"></td>
<th scope="col" data-player="1"><input type="text" class="keeper-name" data-player="1"></th>
<th scope="col" data-player="2"><input type="text" class="keeper-name" data-player="2"></th></tr></thead>
<tbody>
<tr data-sum="1"><th scope="row">1</th>
<td data-player="1"><input type="text" inputmode="numeric" data-cell="t1_r1_c1" data-col="1" aria-label="a"></td>
<td data-player="2"><input type="text" inputmode="numeric" data-cell="t1_r1_c2" data-col="2" aria-label="c"></td></tr>
<tr data-sum="1"><th scope="row">2</th>
<td data-player="1"><input type="text" inputmode="numeric" data-cell="t1_r2_c1" data-col="1" aria-label="b"></td>
<td data-player="2"><input type="text" inputmode="numeric" data-cell="t1_r2_c2" data-col="2" aria-label="d"></td></tr>
<tr class="keeper-total"><th scope="row">Total</th><td data-player="1"><output data-col="1" data-player="1">0</output></td>
<td data-player="2"><output data-col="2" data-player="2">0</output></td></tr>
</tbody></table></div>
<script>%s</script></body></html>"""
ADDRESS = "http://keeper.test/keep/"


def _group(language: str) -> str:
    """The keeper's line that gives the language's group sign (keeper.md.j2's data-group), as the site writes it."""
    from generator.book.words import number_group

    return f'<p class="keeper-back" data-words="{{}}" data-group="{number_group(language)}"></p>\n'


@pytest.fixture(scope="module")
def keeper(browser):
    """A phone's page (360 px) that opens the keeper page made here at ADDRESS (an English page that gives no group
    sign, as a book's own older keeper.md.j2 writes it), at ADDRESS + "de/" (a German book's) and at ADDRESS +
    "halves…" (a sheet scored in halves), with its script errors."""
    page = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block").new_page()
    script = read_file_text(KEEPER).replace("</script", "<\\/script")
    plain = KEEPER_PAGE % ("", "", script)
    german = plain.replace('<div class="keeper"', _group("de") + '<div class="keeper"', 1)
    page.route(ADDRESS, lambda route: route.fulfill(body=plain, content_type="text/html"))
    page.route(ADDRESS + "de/", lambda route: route.fulfill(body=german, content_type="text/html"))
    for point in HALVES:  # the same keeper, its sheet scored in halves
        html = KEEPER_PAGE % (":halves", f' data-halves="{point}"', script)
        page.route(ADDRESS + "halves" + ("comma" if point == "," else ""),
                   functools.partial(lambda html, route: route.fulfill(body=html, content_type="text/html"), html))
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    page.context.close()


@pytest.mark.parametrize("language", TABLES)
def test_the_keeper_reads_each_entry(keeper, language):
    """Typed into the first player's box (OTHER in the box below it): the total, the box's mark, and who leads."""
    entries = TABLES[language]
    keeper.goto(ADDRESS if language == "en" else ADDRESS + language + "/")
    keeper.evaluate("localStorage.clear()")
    keeper.reload()
    keeper.locator('[data-cell="t1_r2_c1"]').fill(OTHER)
    keeper.locator('[data-cell="t1_r1_c2"]').fill("1")
    box, total = keeper.locator('[data-cell="t1_r1_c1"]'), keeper.locator('output[data-col="1"]')
    seen = {}
    for entry in entries:
        box.fill(entry)
        seen[entry] = (total.text_content(), box.get_attribute("aria-invalid"),
                       keeper.locator(".keeper-status").text_content())
    expected = {}
    for entry, reads in entries.items():
        leads = "" if reads is None else ("Player 1" if int(OTHER) + (reads or 0) >= 1 else "Player 2")
        expected[entry] = (_total(entry, entries), "true" if reads is None else None, leads)
    got = {entry: (t, mark, ("Player 1" if "Player 1" in s else "Player 2" if "Player 2" in s else ""))
           for entry, (t, mark, s) in seen.items()}
    assert got == expected
    assert "no number" in seen["1e3"][2]  # the status says why it names no leader
    assert not keeper.errors


@pytest.mark.parametrize("point", HALVES)
def test_a_sheet_scored_in_halves_adds_them_exactly(keeper, point):
    """On a sheet scored in halves a half is added exactly and shown with the book's decimal sign; what is no number
    is marked, as ENTRIES are on any sheet."""
    keeper.goto(ADDRESS + "halves" + ("comma" if point == "," else ""))
    keeper.evaluate("localStorage.clear()")
    keeper.reload()
    keeper.locator('[data-cell="t1_r2_c1"]').fill(OTHER)
    box, total = keeper.locator('[data-cell="t1_r1_c1"]'), keeper.locator('output[data-col="1"]')
    seen, expected = {}, {}
    for entry, reads in HALVES[point].items():
        box.fill(entry)
        seen[entry] = (total.text_content(), box.get_attribute("aria-invalid"))
        expected[entry] = (_halves_total(reads, point), "true" if reads is None else None)
    assert seen == expected
    box.fill("12.25")
    assert "12.5" in box.get_attribute("title")  # the marked box says how a half is written
    assert not keeper.errors


# A saved game (localStorage) as anything on the device may have left it: the page still opens, with the players
# the keeper allows (2 where what was saved is not allowed), and the boxes' text where it is text.
STORED = {
    "2,000 players": ({"players": 2000}, 2),
    "10^9 players": ({"players": 1e9}, 2),
    "a fraction of a player": ({"players": 2.5}, 2),
    "players as text": ({"players": "3"}, 2),
    "3 players": ({"players": 3, "cells": {"t1_r1_c1": "4"}}, 3),
    "cells not a map": ({"players": 3, "cells": [1, 2]}, 3),
    "a cell not text": ({"cells": {"t1_r1_c1": {"x": 1}}}, 2),
    "a list": ([1, 2, 3], 2),
    "not JSON": ("{players", 2),
}


@pytest.mark.parametrize("saved, players", STORED.values(), ids=STORED.keys())
def test_a_saved_game_is_checked_before_use(keeper, saved, players):
    keeper.goto(ADDRESS)
    keeper.errors.clear()
    stored = saved if isinstance(saved, str) else json.dumps(saved)
    keeper.evaluate("stored => localStorage.setItem('rulebook-keeper:test:game', stored)", stored)
    keeper.reload()
    keeper.wait_for_function("document.querySelector('.keeper').dataset.ready === '1'", timeout=5000)
    shown = keeper.locator("th[data-player]:not([hidden])").count()
    assert shown == players
    value = keeper.locator('[data-cell="t1_r1_c1"]').input_value()
    assert value == (saved.get("cells", {}).get("t1_r1_c1") if isinstance(saved, dict)
                     and isinstance(saved.get("cells"), dict) and isinstance(saved["cells"].get("t1_r1_c1"), str) else "")
    assert not keeper.errors


def _form(target: Path, point: str | None = None, language: str = "en") -> Path:
    """A one-page form as a sheet's column: two score boxes (a, b) and their Total (t), written by the writer for a
    book in ``language`` (its scripts read a box by the language's group sign); scored in halves with the decimal sign
    ``point``, if given."""
    from generator.book import words
    from generator.render.pdf.weasy import Engine

    halves = f' data-halves="{point}"' if point else ""
    box = ('<input type="text" inputmode="numeric" name="{0}" title="{0}"' + halves
           + ' style="appearance: auto; width: 4cm; height: 8mm">')
    total = (f'<input type="text" name="t" title="t" data-sum="a b"{halves} '
             'style="appearance: auto; width: 4cm; height: 8mm">')
    words.use(words.Words(language))
    try:
        Engine.write([Engine().document(f"<html lang='{language}'><body><form>{box.format('a')}{box.format('b')}"
                                        f"{total}</form></body></html>")], target)
    finally:
        words.use(words.Words())
    return target


@pytest.fixture(scope="module")
def served(browser, tmp_path_factory):
    """PDF.js (its viewer, tests/js) served with the forms: one as any sheet's, one a sheet's scored in halves for
    each decimal sign; a function that opens one of them, its scripting sandbox ready."""
    if (reason := _missing()) is not None:
        if os.environ.get("CI"):  # CI installs PDF.js (.ci/run): there the test must run, not skip
            pytest.fail(reason)
        pytest.skip(reason)
    folder = tmp_path_factory.mktemp("entries")
    (folder / "pdfjs").symlink_to(PDFJS)
    (folder / "viewer.html").symlink_to(JS / "viewer.html")
    for language in TABLES:
        _form(folder / f"form-{language}.pdf", language=language)
    for point, name in ((".", "point"), (",", "comma")):
        _form(folder / f"halves-{name}.pdf", point)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Served, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    context = browser.new_context(viewport={"width": 700, "height": 900})

    def open_form(name: str):
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/viewer.html?file={name}")
        page.wait_for_function("window.scriptingManager?.ready === true", polling=100, timeout=30_000)
        return page

    yield open_form
    context.close()
    httpd.shutdown()


def _commit(page, name: str, text: str) -> str:
    """Type ``text`` into the box ``name`` in place of what it holds, leave with Tab; what the box then shows."""
    box = page.locator(f'input[name="{name}"]')
    element = box.get_attribute("data-element-id")
    page.evaluate("() => { window.fromSandbox.length = 0; }")
    box.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    if text:
        page.keyboard.insert_text(text)
    page.keyboard.press("Tab")
    page.wait_for_function("id => window.fromSandbox.some(update => update.id === id && 'formattedValue' in update)",
                           arg=element, polling=100, timeout=10_000)
    return box.input_value()


@pytest.mark.parametrize("language", TABLES)
def test_the_pdf_form_reads_each_entry_as_the_keeper_does(served, language):
    """The same table in PDF.js: the total, and the box as the form leaves it (a number written back as its digits,
    what is no number marked with "? " before it)."""
    entries = TABLES[language]
    viewer = served(f"form-{language}.pdf")
    _commit(viewer, "b", OTHER)
    seen, expected = {}, {}
    for entry, reads in entries.items():
        box = _commit(viewer, "a", entry)
        seen[entry] = (viewer.locator('input[name="t"]').input_value(), box)
        shown_box = "" if reads == "" else ("? " + entry.strip() if reads is None else str(reads))
        expected[entry] = (_total(entry, entries), shown_box)
    viewer.close()
    assert seen == expected


@pytest.mark.parametrize("point", HALVES)
def test_the_pdf_form_reads_halves_as_the_keeper_does(served, point):
    """HALVES in PDF.js, on a form scored in halves: the total, with the sign, and the box as the form leaves it (a
    number written back with the sign, what is no number marked)."""
    page = served(f"halves-{'comma' if point == ',' else 'point'}.pdf")
    _commit(page, "b", OTHER)
    seen, expected = {}, {}
    for entry, reads in HALVES[point].items():
        box = _commit(page, "a", entry)
        seen[entry] = (page.locator('input[name="t"]').input_value(), box)
        shown_box = "" if reads == "" else ("? " + entry.strip() if reads is None else
                                            str(int(reads) if reads == int(reads) else reads).replace(".", point))
        expected[entry] = (_halves_total(reads, point), shown_box)
    page.close()
    assert seen == expected

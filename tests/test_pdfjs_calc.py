"""The score sheets add up in Firefox's own PDF viewer: PDF.js (pdfjs-dist from npm, tests/js) opens a game's
sheet from the built edition with its scripting sandbox on, in Debian's Chromium; numbers are typed into a
player's boxes with the keyboard (click, type, Tab), as a family at the table would, and the column's Total
box shows what PDF.js's own AFSimple_Calculate, run along the form's calculation order (/CO), made of them.

tests/test_forms.py reads the actions and /CO; here they are run. One page load per sheet."""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import CURRENT
from tests.test_browser import ARGS, CHROMIUM, _Quiet

JS = Path(__file__).resolve().parent / "js"
PDFJS = JS / "node_modules" / "pdfjs-dist"
pytestmark = pytest.mark.browser


def _drop_total_action(writer, total: str) -> None:
    """Take the calculate action (/AA /C) off the field ``total``, leaving the rest of the form as it is."""
    for page in writer.pages:
        for ref in page.get("/Annots") or []:
            widget = ref.get_object()
            if widget.get("/T") == total:
                del widget["/AA"]
                return
    raise AssertionError(f"no field {total}")


def _drop_calculation_order(writer, _total: str) -> None:
    """Take the calculation order (/CO) out of the form: PDF.js then calculates nothing."""
    del writer._root_object["/AcroForm"]["/CO"]


@dataclass(frozen=True)
class Case:
    sheet: str  # the game's sheet: pdf/score-sheets/<sheet>.pdf of the current edition
    typed: tuple[tuple[str, str], ...]  # (field, what is typed into it), in the order typed
    shows: dict[str, str]  # total field: what PDF.js shows in it; every other total on the page shows '' or '0'
    broken: Callable | None = field(default=None)  # the negative control: how the sheet is broken first


CASES = {
    # points each hand, a running total: three hands of the first player
    "hearts": Case("hearts", (("hearts_s1_b1_r1_p1", "15"), ("hearts_s1_b1_r2_p1", "7"), ("hearts_s1_b1_r3_p1", "4")),
                   {"hearts_s1_b1_total_p1": "26"}),
    # bid and made: the first player's Bid (column 1) beside the Score (column 2); the Total adds the Score only
    "oh-hell": Case("oh-hell", (("oh-hell_s1_b1_r1_p1", "3"), ("oh-hell_s1_b1_r1_p2", "13"),
                                ("oh-hell_s1_b1_r2_p1", "0"), ("oh-hell_s1_b1_r2_p2", "10")),
                    {"oh-hell_s1_b1_total_p2": "23"}),
    # the tournament card: Game 2 (Prosperity) scored on its own card table; Game 1's total stays empty.
    # Extension point: a Grand Total linked to the games' totals gets a case here (it shows the games' sum,
    # which PDF.js computes in one pass only if /CO lists it after them).
    "court-whist": Case("court-whist", (("court-whist_s1_b2_r1_p1", "8"), ("court-whist_s1_b2_r2_p1", "6"),
                                        ("court-whist_s1_b2_r3_p1", "9")),
                        {"court-whist_s1_b2_total_p1": "23"}),
    # negative controls, proving the harness can fail: the same typing into a broken Hearts sheet. Without its
    # calculate action the filled column's Total stays empty while the next column's (whose action is kept) adds up
    "hearts, one total without /AA /C": Case(
        "hearts", (("hearts_s1_b1_r1_p1", "15"), ("hearts_s1_b1_r2_p1", "7"), ("hearts_s1_b1_r1_p2", "5")),
        {"hearts_s1_b1_total_p1": "", "hearts_s1_b1_total_p2": "5"}, _drop_total_action),
    # without the calculation order no total is computed at all
    "hearts, no /CO": Case("hearts", (("hearts_s1_b1_r1_p1", "15"), ("hearts_s1_b1_r2_p1", "7")),
                           {"hearts_s1_b1_total_p1": ""}, _drop_calculation_order),
}


def _missing() -> str | None:
    """Why the test cannot run here, or None."""
    if not CHROMIUM.exists():
        return "Debian's chromium package is not installed"
    if not (PDFJS / "build" / "pdf.sandbox.min.mjs").exists():
        return "pdfjs-dist is not installed: run .ci/js-packages (npm ci in tests/js)"
    return None


class _Served(_Quiet):
    # PDF.js is ES modules: a browser runs a module only when it is served as JavaScript
    extensions_map = {**_Quiet.extensions_map, ".mjs": "text/javascript"}


@pytest.fixture(scope="module")
def viewer(built, tmp_path_factory):
    """The folder served on 127.0.0.1 (viewer.html, PDF.js, the current edition's sheets) and a browser page
    opener: ``open(pdf)`` loads ``pdf`` (a path in that folder) in the viewer, its scripting sandbox ready."""
    if (reason := _missing()) is not None:
        if os.environ.get("CI"):  # CI installs both (.ci/run): there the test must run, not skip
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    folder = tmp_path_factory.mktemp("pdfjs")
    (folder / "pdfjs").symlink_to(PDFJS)
    (folder / "viewer.html").symlink_to(JS / "viewer.html")
    (folder / "sheets").symlink_to(built[CURRENT] / "pdf" / "score-sheets")
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Served, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(viewport={"width": 700, "height": 900})
        errors: list[str] = []

        def open_pdf(pdf: str):
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/viewer.html?file={pdf}")
            page.wait_for_function("window.scriptingManager?.ready === true", timeout=30_000)
            assert not errors, errors
            return page

        yield folder, open_pdf
        browser.close()
    httpd.shutdown()


def _type(page, name: str, text: str) -> None:
    """Click the box ``name``, type ``text`` key by key, leave with Tab; return once PDF.js's sandbox has
    committed the value (it sends the typed field back after running every calculation along /CO)."""
    box = page.locator(f'input[name="{name}"]')
    element = box.get_attribute("data-element-id")
    box.click()
    page.keyboard.type(text)
    page.keyboard.press("Tab")
    page.wait_for_function("id => window.fromSandbox.some(update => update.id === id && 'formattedValue' in update)",
                           arg=element, timeout=10_000)


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_pdfjs_computes_the_total_of_the_column_typed_into(viewer, case, tmp_path):
    """What Firefox shows once the numbers are typed: the filled column's Total is their sum, the other totals
    on the page stay empty or 0; a sheet broken for the negative control shows no sum where it was broken."""
    folder, open_pdf = viewer
    pdf = f"sheets/{case.sheet}.pdf"
    if case.broken is not None:
        from pypdf import PdfReader, PdfWriter

        writer = PdfWriter(clone_from=PdfReader(folder / pdf))
        case.broken(writer, next(iter(case.shows)))
        pdf = f"{tmp_path.name}-{case.sheet}.pdf"
        writer.write(folder / pdf)
    page = open_pdf(pdf)
    for name, text in case.typed:
        _type(page, name, text)
    totals = dict(page.eval_on_selector_all('input[name*="_total_"]', "boxes => boxes.map(b => [b.name, b.value])"))
    assert set(case.shows) <= set(totals), f"{case.sheet}: no total field {set(case.shows) - set(totals)} on the page"
    shown = {name: value for name, value in totals.items() if name in case.shows or value not in ("", "0")}
    assert shown == case.shows, f"{case.sheet}: typed {case.typed}, PDF.js shows {shown}"
    page.close()

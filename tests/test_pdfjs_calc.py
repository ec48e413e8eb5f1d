"""The score sheets add up in Firefox's own PDF viewer: PDF.js (pdfjs-dist from npm, tests/js) opens a game's
sheet, or the score pad, from the built edition with its scripting sandbox on, in Debian's Chromium; numbers are
typed into a player's boxes with the keyboard (click, type, Tab), as a family at the table would, and the totals
show what the writer's sum (generator/render/pdf/writer.py SUM_SCRIPT), run by PDF.js along the form's calculation
order (/CO), made of them: a total shows nothing until a box it waits for is written (a running total: its own
hand), so the hands nobody played stay blank.

tests/test_forms.py reads the actions and /CO; here they are run. One page load per case. The pad is typed into
too: with AFSimple_Calculate its first entry took PDF.js 20-28 s (each term's getArray() scanned every field name
of the document, Doc._getTerminalChildren, PDF.js 5.4.624), with the plain sum well under a second; no test here
is timed, test_forms holds every total to the plain sum."""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM, CURRENT
from tests.pagetext import pdf_reader
from tests.test_browser import _Quiet
from tests.test_forms import awaited, summed, widgets
from tests.test_writer import form_pdf

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


def _drop_calculation_order(writer) -> None:
    """Take the calculation order (/CO) out of the form: PDF.js then calculates nothing."""
    del writer._root_object["/AcroForm"]["/CO"]


def _broken(sheet: str, breaking: Callable) -> Callable[[Path, Path], None]:
    """A maker of ``sheet`` (the current edition's) broken by ``breaking`` (given a pypdf writer of it)."""
    def make(folder: Path, target: Path) -> None:
        from pypdf import PdfReader, PdfWriter

        writer = PdfWriter(clone_from=PdfReader(folder / "pdf" / "score-sheets" / f"{sheet}.pdf"))
        breaking(writer)
        writer.write(target)
    return make


@dataclass(frozen=True)
class Case:
    pdf: str  # what the viewer opens: pdf/... (the current edition's PDFs) or a file ``make`` writes
    typed: tuple[tuple[str, str], ...]  # (field, what is typed into it), in the order typed
    shows: dict[str, str]  # total field: what PDF.js shows in it ("": nothing)
    make: Callable[[Path, Path], None] | None = field(default=None)  # writes ``pdf`` (given the served folder)
    calculates: bool = True  # False: a form PDF.js must calculate nothing in (every total stays empty)


def _blank(names: list[str], *shown: str) -> dict[str, str]:
    """``names`` each showing nothing, but those listed in ``shown``, as their sums."""
    return {name: "" for name in names} | dict(shown)


HEARTS = (("hearts_s1_b1_r1_p1", "5"), ("hearts_s1_b1_r2_p1", "7"))
HEARTS_RUNNING = [f"hearts_s1_b1_r{r}_total_p{p}" for p in range(1, 9) for r in range(1, 17)]
CASES = {
    # points each hand, a running total: two hands of the first player, the total so far beside each; rows 3-16 (no
    # hand written) and the other players' columns (no hand written) show nothing
    "hearts": Case("pdf/score-sheets/hearts.pdf", HEARTS, _blank(
        HEARTS_RUNNING, ("hearts_s1_b1_r1_total_p1", "5"), ("hearts_s1_b1_r2_total_p1", "12"))),
    # the same in the score pad (5,664 fields): every total of /CO runs on the first entry
    "score pad, hearts": Case(f"pdf/score-pad-{CURRENT}.pdf", HEARTS, _blank(
        HEARTS_RUNNING, ("hearts_s1_b1_r1_total_p1", "5"), ("hearts_s1_b1_r2_total_p1", "12"))),
    # bid and made: the first player's Bid (column 1) beside the Score (column 2); the Total adds the Score only;
    # the other players' Totals show nothing
    "oh-hell": Case("pdf/score-sheets/oh-hell.pdf", (("oh-hell_s1_b1_r1_p1", "3"), ("oh-hell_s1_b1_r1_p2", "13"),
                                                     ("oh-hell_s1_b1_r2_p1", "0"), ("oh-hell_s1_b1_r2_p2", "10")),
                    _blank([f"oh-hell_s1_b1_total_p{p}" for p in range(2, 11, 2)], ("oh-hell_s1_b1_total_p2", "23"))),
    # the tournament card: Game 2 (Prosperity) scored on its own card table; its total, the card's 'Game 2 total'
    # row and the Grand Total show it; the other games' totals and rows show nothing
    "court-whist": Case("pdf/score-sheets/court-whist.pdf", (("court-whist_s1_b2_r1_p1", "8"), ("court-whist_s1_b2_r2_p1", "6"),
                                                             ("court-whist_s1_b2_r3_p1", "9")),
                        _blank([f"court-whist_s1_b{b}_total_p1" for b in range(1, 8)]
                               + [f"court-whist_s1_b8_r{r}_p1" for r in range(1, 8)],
                               ("court-whist_s1_b2_total_p1", "23"), ("court-whist_s1_b8_r2_p1", "23"),
                               ("court-whist_s1_b8_total_p1", "23"))),
    # totals of totals, as the writer writes them (tests/test_writer.py): a grand total laid out above the games'
    # totals it adds, running totals each adding the one laid out below it. PDF.js runs /CO once per change, in
    # its order: with /CO in layout order the last box typed (b) left the grand total at 4 and run3 at 2
    "linked totals": Case("made/linked.pdf", (("c", "2"), ("a", "4"), ("b", "5")),
                          {"grand": "9", "game1": "4", "game2": "5", "run1": "4", "run2": "9", "run3": "11"},
                          lambda _, target: form_pdf({"grand": "game1 game2", "game1": "a", "game2": "b",
                                                      "run3": "run2 c", "run2": "run1 b", "run1": "a"}, target)),
    # negative controls, proving the harness can fail: the same typing into a broken Hearts sheet. Without its
    # calculate action the filled column's total stays empty while the next column's (whose action is kept) adds up
    "hearts, one total without /AA /C": Case(
        "made/hearts-without-action.pdf", HEARTS + (("hearts_s1_b1_r1_p2", "5"),),
        {"hearts_s1_b1_r2_total_p1": "", "hearts_s1_b1_r1_total_p2": "5"},
        _broken("hearts", functools.partial(_drop_total_action, total="hearts_s1_b1_r2_total_p1"))),
    # without the calculation order no total is computed at all
    "hearts, no /CO": Case("made/hearts-without-co.pdf", HEARTS, _blank(HEARTS_RUNNING),
                           _broken("hearts", _drop_calculation_order), calculates=False),
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
def viewer(built, tmp_path_factory, request):
    """The folder served on 127.0.0.1 (viewer.html, PDF.js, the current edition's sheets) and a browser page
    opener: ``open(pdf)`` loads ``pdf`` (a path in that folder) in the viewer, its scripting sandbox ready."""
    if (reason := _missing()) is not None:
        if os.environ.get("CI"):  # CI installs both (.ci/run): there the test must run, not skip
            pytest.fail(reason)
        pytest.skip(reason)
    browser = request.getfixturevalue("browser")  # the worker's Chromium (tests/conftest.py), once it is there
    folder = tmp_path_factory.mktemp("pdfjs")
    (folder / "pdfjs").symlink_to(PDFJS)
    (folder / "viewer.html").symlink_to(JS / "viewer.html")
    (folder / "pdf").symlink_to(built[CURRENT] / "pdf")
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Served, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    # One page for every case, navigated to the viewer of each PDF: a new page costs Chromium 0.5 CPU-seconds more
    # (its window, a renderer process started, PDF.js's modules compiled again).
    page = browser.new_context(viewport={"width": 700, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def open_pdf(pdf: str):
        page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/viewer.html?file={pdf}")
        # asked every 100 ms, not at every frame (Playwright's default: the page then draws 60 frames a second)
        page.wait_for_function("window.scriptingManager?.ready === true", polling=100, timeout=30_000)
        assert not errors, errors
        return page

    yield folder, open_pdf
    page.context.close()
    httpd.shutdown()


def _show_page(page, number: int) -> None:
    """Scroll page ``number`` (from 1) into view and wait for its fields: PDF.js draws a page's fields when it
    comes into view, with what the sandbox set while it was not."""
    page.evaluate("number => window.pdfViewer.scrollPageIntoView({ pageNumber: number })", number)
    page.locator(f'.page[data-page-number="{number}"] .annotationLayer input').first.wait_for()


def _type(page, name: str, text: str, on_page: int) -> None:
    """Click the box ``name`` (on page ``on_page``), type ``text`` key by key, leave with Tab; return once PDF.js's
    sandbox has committed the value (it sends the typed field back after running every calculation along /CO)."""
    _show_page(page, on_page)
    box = page.locator(f'input[name="{name}"]')
    element = box.get_attribute("data-element-id")
    box.click()
    page.keyboard.type(text)
    page.keyboard.press("Tab")
    page.wait_for_function("id => window.fromSandbox.some(update => update.id === id && 'formattedValue' in update)",
                           arg=element, polling=100, timeout=10_000)


def _shown(page, pages: list[int]) -> dict[str, str]:
    """Every field of ``pages`` (numbered from 1) as PDF.js shows it."""
    shown: dict[str, str] = {}
    for number in pages:
        _show_page(page, number)
        boxes = page.locator(f'.page[data-page-number="{number}"] .annotationLayer input')
        shown.update(boxes.evaluate_all("boxes => boxes.map(box => [box.name, box.value])"))
    return shown


def _reached(found: list, typed: set[str]) -> list:
    """The calculated fields among ``found`` that read a field of ``typed``, or a calculated field that does."""
    reads = {w.name: set(summed(w.script) or ()) | set(awaited(w.script) or ()) for w in found if w.script}
    reached: dict[str, object] = {}
    while more := [w for w in found if w.name in reads and w.name not in reached
                   and reads[w.name] & (typed | set(reached))]:
        reached.update((w.name, w) for w in more)
    return list(reached.values())


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_pdfjs_computes_the_total_of_the_column_typed_into(viewer, case):
    """What Firefox shows once the numbers are typed: each total the case names shows its sum, or nothing (in a
    sheet broken for a negative control, nothing where it was broken). Every other calculated field on the pages
    read (those typed into, the named totals', and those of every total the typed boxes reach, directly or through
    other totals) shows the sum of the boxes its action names, as PDF.js shows them, if a box it waits for shows
    something, and else nothing: a running total beside a hand not written, a Total under a column left empty."""
    folder, open_pdf = viewer
    if case.make is not None:
        (folder / case.pdf).parent.mkdir(exist_ok=True)
        case.make(folder, folder / case.pdf)
    found, _ = widgets(pdf_reader(folder / case.pdf))  # the pad parsed once: test_sheets reads it with pdf_reader too
    on_page = {w.name: w.page + 1 for w in found}
    assert not (missing := {*dict(case.typed), *case.shows} - set(on_page)), f"{case.pdf} has no field {missing}"
    page = open_pdf(case.pdf)
    for name, text in case.typed:
        _type(page, name, text, on_page[name])
    reached = _reached(found, {name for name, _ in case.typed})
    shown = _shown(page, sorted({on_page[name] for name in {*dict(case.typed), *case.shows}}
                                | {w.page + 1 for w in reached}))
    assert {name: shown.get(name) for name in case.shows} == case.shows, f"{case.pdf}: typed {case.typed}"
    assert {w.name for w in reached} <= set(shown)
    for total in (w for w in found if w.name in shown):
        terms, waits = summed(total.script), awaited(total.script)
        if terms is None:
            continue
        if not case.calculates or not any(shown[name] for name in waits):
            assert shown[total.name] == "", f"{case.pdf}: {total.name} shows {shown[total.name]!r}, " \
                f"its boxes {waits} show {[shown[name] for name in waits]}"
            continue
        adds_up = sum(float(shown[term] or 0) for term in terms)
        assert shown[total.name] != "" and float(shown[total.name]) == adds_up, \
            f"{case.pdf}: {total.name} shows {shown[total.name]!r}, its boxes {[shown[t] for t in terms]} add to {adds_up:g}"

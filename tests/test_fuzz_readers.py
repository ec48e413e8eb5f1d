"""Random search over what readers meet (issue 60, item 9), in Chromium: what a person types in a score box, a
keeper's saved game as anything on the device may have left it, and the offline copy of editions published in turn.

- A score box: the keeper's readScore (templates/site/assets/keeper.js, the function the PDF form's scripts carry)
  reads each random entry as an independent reading of its documented rule does (``expected``): a number (digits,
  thousands grouped by a space or by the book's language's sign, a sign), else no number; never a misread, NaN where a
  number is, or Infinity. Each entry is read with each language's group sign (``GROUPS``).
- A box of a sheet scored in halves: the keeper's readHalves (beside readScore) reads each random entry, with either
  decimal sign, as an independent reading of its documented rule does (``expected_halves``).
- Offline editions: editions published one after another at /latest/, each file sent with a random Cache-Control,
  pages read online between publishes in a random order; offline, every page is the last edition's (its worker's).
- A saved game: any JSON in localStorage leaves the keeper working (no script error, the players shown within what
  the keeper allows, totals that are numbers or '?').

`make test` runs a few examples with a fixed seed; `make fuzz` a long random search (RULEBOOK_FUZZ_EXAMPLES)."""

from __future__ import annotations

import json
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.book.files import TOOL_TEMPLATES, read_file_text
from tests.conftest import CHROMIUM
from tests.test_score_entries import ADDRESS, KEEPER_PAGE

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium package is not installed")]

LONG_SEARCH = "RULEBOOK_FUZZ_EXAMPLES" in os.environ
EXAMPLES = int(os.environ.get("RULEBOOK_FUZZ_EXAMPLES", "10"))
SPACES = " \u00a0\u2009\u202f"
# The signs languages group thousands with (Babel's: English, German, French, Swiss German), and "]" and "-", which
# a character class would misread unescaped; None: the page gives none (English's).
GROUPS = [None, ",", ".", "\u202f", "\u2019", "]", "-"]


def grouped(group: str | None) -> re.Pattern[str]:
    """An entry's form with thousands grouped by a space or by ``group``: digits 0-9 only."""
    return re.compile(r"([+\-\u2212]?)(\d{1,3}(?:[" + re.escape(group or ",") + r" \u00a0\u2009\u202f]\d{3})+|\d+)",
                      re.ASCII)


def expected(text: str, group: str | None = None) -> float | str | None:
    """What a score box reads ``text`` as, by the rule keeper.js documents: '' for nothing, None for no number."""
    s = text.strip()
    if s == "":
        return ""
    match = grouped(group).fullmatch(s) if len(s) <= 40 else None
    if match is None:
        return None
    digits = re.sub(r"\D", "", match[2], flags=re.ASCII).lstrip("0") or "0"
    if len(digits) > 12:
        return None
    return -int(digits) if match[1] in ("-", "\u2212") and int(digits) else int(digits)


# What a person might type: digits, the separators and signs the rule knows, and what it must refuse.
ENTRY = st.lists(st.sampled_from(list("0123456789") * 4 + list(",. +-\u2212eExX_'\u2019]") + list(SPACES)
                                 + ["\u00bd", "\u0663", "\uff11", "Infinity", "NaN", "\n", "000", ",000", ".000", "\u2019000"]),
                 max_size=20).map("".join)
# A number with its thousands grouped, by any sign a language groups them with or none does: "1.000", "12,345,678".
GROUPED_ENTRY = st.tuples(st.integers(1, 999), st.lists(st.integers(0, 999), min_size=1, max_size=4),
                          st.sampled_from(list(",.'\u2019]-") + list(SPACES))).map(
    lambda t: str(t[0]) + "".join(f"{t[2]}{n:03d}" for n in t[1]))


@pytest.fixture(scope="module")
def page(browser):
    """A phone's page with the keeper (ADDRESS) open: readScore is the page's (keeper.js's own text)."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block")
    page = context.new_page()
    html = KEEPER_PAGE % ("", "", read_file_text(TOOL_TEMPLATES / "site" / "assets" / "keeper.js").replace("</script",
                                                                                                     "<\\/script"))
    page.route(ADDRESS, lambda route: route.fulfill(body=html, content_type="text/html"))
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(ADDRESS)
    script = read_file_text(TOOL_TEMPLATES / "site" / "assets" / "keeper.js")
    reader = script[script.index("function readScore"):script.index("// score-box reader: end")]
    page.evaluate(f"() => {{ window.readScoreForTest = (function () {{ {reader} return readScore; }})(); "
                  f"window.readHalvesForTest = (function () {{ {reader} return readHalves; }})(); }}")
    yield page
    context.close()


@settings(max_examples=EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=st.lists(ENTRY | GROUPED_ENTRY, min_size=1, max_size=200))
def test_a_score_box_reads_what_is_typed_by_its_rule(page, entries):
    read = page.evaluate("""([entries, groups]) => groups.map(g => entries.map(e => {
        const v = g === null ? window.readScoreForTest(e) : window.readScoreForTest(e, g);
        return typeof v === "number" ? (Number.isNaN(v) ? null : (Number.isFinite(v) ? v : "infinite")) : v; }))""",
                         [entries, GROUPS])
    misread = {(g, e): r for g, reads in zip(GROUPS, read, strict=True)
               for e, r in zip(entries, reads, strict=True) if r != expected(e, g)}
    assert misread == {}


HALF = re.compile(r"([+\-\u2212]?)(.*?)(?:[.,]([05])|\u00bd)", re.S)


def expected_halves(text: str, point: str) -> float | str | None:
    """What a box of a sheet scored in halves reads ``text`` as, by the rule keeper.js documents for readHalves: a
    score as ``expected`` reads it, or one whose last two characters are "." or ``point`` then 5 (or 0), or "\u00bd",
    its whole points (possibly none) read by ``expected`` with no sign or space of their own."""
    s = text.strip()
    match = HALF.fullmatch(s) if len(s) <= 40 else None
    if match is None or (match[3] is not None and s[-2] not in (".", point)):
        return expected(s) if len(s) <= 40 else None
    sign, whole = match[1], match[2]
    if whole != whole.strip() or whole[:1] in ("+", "-", "\u2212"):
        return None
    points = 0 if whole == "" else expected(whole)
    if points is None or points == "":
        return None
    n = points + (0 if match[3] == "0" else 0.5)
    return -n if sign in ("-", "\u2212") and n else n


@settings(max_examples=EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=st.lists(st.tuples(ENTRY, st.sampled_from(["", ".5", ",5", ".0", ",0", "\u00bd", ".25", ".05"])).map(
    "".join), min_size=1, max_size=200), point=st.sampled_from([".", ","]))
def test_a_box_scored_in_halves_reads_what_is_typed_by_its_rule(page, entries, point):
    read = page.evaluate("""([entries, point]) => entries.map(e => { const v = window.readHalvesForTest(e, point);
        return typeof v === "number" ? (Number.isNaN(v) ? null : (Number.isFinite(v) ? v : "infinite")) : v; })""",
                         [entries, point])
    assert {e: r for e, r in zip(entries, read, strict=True) if r != expected_halves(e, point)} == {}


SAVED = st.recursive(st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False)
                     | st.text(max_size=30),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                         st.sampled_from(["players", "names", "cells", "1", "t1_r1_c1", "__proto__"]), inner, max_size=4),
                     max_leaves=12)


@settings(max_examples=EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(saved=st.one_of(SAVED, st.fixed_dictionaries({"players": st.integers(-5, 10**9) | st.floats(allow_nan=True)
                                                                | st.text(max_size=5)}, optional={"cells": SAVED})))
def test_any_saved_game_leaves_the_keeper_working(page, saved):
    page.errors.clear()
    page.evaluate("stored => localStorage.setItem('rulebook-keeper:test:game', stored)", json.dumps(saved))
    page.reload()
    page.wait_for_function("document.querySelector('.keeper').dataset.ready === '1'", timeout=5000)
    shown = page.locator("th[data-player]:not([hidden])").count()
    totals = page.locator("tr.keeper-total output").all_text_contents()
    assert not page.errors and 2 <= shown <= 100
    assert all(t == "?" or re.fullmatch(r"-?\d+", t) for t in totals), totals


# --- Offline, editions never mix (issue 60, item 3): editions published one after another at /latest/, each file sent
# with a random Cache-Control, pages read online between the publishes in a random order; then, offline, every page
# is the edition whose worker is in charge, the last published. A few examples in `make test` (each a browser's
# session); `make fuzz` searches longer.

HEADERS = ["max-age=600", "no-cache", "max-age=0", None, "public, max-age=31536000, immutable", "no-store"]
# A browser's session an example (several seconds): `make fuzz` tries a thirtieth of its count (3000: 100).
WORKER_EXAMPLES = max(2, int(os.environ.get("RULEBOOK_FUZZ_EXAMPLES", "60")) // 30)


@settings(max_examples=WORKER_EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(editions=st.lists(st.sampled_from(["2026.1", "2026.2", "2026.3"]), min_size=2, max_size=3, unique=True),
       header=st.sampled_from(HEADERS), reads=st.lists(st.permutations([0, 1, 2, 3]), min_size=3, max_size=3))
def test_offline_every_page_is_the_edition_in_charge(browser, tmp_path_factory, editions, header, reads):
    import functools
    import http.server
    import threading

    from tests.test_offline_editions import PAGES, _edition, _GitHubPages, _in_charge

    class Served(_GitHubPages):
        def end_headers(self):
            if header is not None:
                self.send_header("Cache-Control", header)
            http.server.SimpleHTTPRequestHandler.end_headers(self)

    root = tmp_path_factory.mktemp("gh-pages")
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Served, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    server = f"http://127.0.0.1:{httpd.server_address[1]}/latest/"
    addresses = [rel.removesuffix("index.html") for rel in PAGES]
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        for edition, order in zip(editions, reads, strict=False):
            _edition(root / "latest", edition)
            page.goto(server)
            # (a worker still installing refuses an update: the next edition's is fetched when it is done)
            page.evaluate("navigator.serviceWorker.getRegistration().then(r => r && r.update()).catch(() => null)")
            _in_charge(page, edition.replace(".", ""))
            for i in order:  # read online, in this order: the browser may keep each as the header lets it
                page.goto(server + addresses[i])
        context.set_offline(True)
        shown = {}
        for address in addresses:
            page.goto(server + address)
            shown[address] = page.locator("h1").inner_text()
        assert all(text.startswith(f"Edition {editions[-1]}:") for text in shown.values()), (header, shown)
    finally:
        context.close()
        httpd.shutdown()

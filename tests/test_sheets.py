"""Every score sheet read back from its PDF: rows to write in, cells wide enough, fillable, no scripts.

The expected rows come from the rules data by the validator's own counting (rounds listed or
reversed, one per rank, a down-and-up sequence, a counted number of rounds), not from the sheet
layout code; a sheet whose data lists no rows must be filled with blank rows down to its total.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest

from generator.book.files import read_file_text
from generator.book.library import load_library
from generator.checks.rounds import sequence_length
from generator.render.pdf.writer import KEEPER_SCRIPT, SUM_SCRIPT, score_reader
from generator.render.views.describe import pdf_name
from generator.render.views.sheets import has_own_sheet
from tests.conftest import CURRENT, PUBLISHED, ROOT
from tests.pagetext import pdf_reader

poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
MM = 72 / 25.4
MIN_CELL_MM = 12
MIN_HEIGHT_MM = 7  # a box a score is written in by hand (issue 26)
DIGIT_MM = 2.5  # a digit written by hand
EDGE = 5 * MM  # no text within 5 mm of the paper's edge
# A hand's box (r3), the total so far beside it (r3_total), the block's total, a player's name; p: the column.
FIELD = re.compile(r"^(?P<key>.+)_(?P<block>s\d+_b\d+)_(?:r(?P<row>\d+)(?P<running>_total)?|(?P<named>total|name))"
                   r"_p(?P<col>\d+)$")


def _sheets(edition: str) -> list[tuple[str, str, str | None]]:
    lib = load_library(ROOT, edition)
    out = []
    for gs in lib.ordered_games():
        if gs.game.keeps_score():  # a game whose rules keep no score has no sheet (Rummoli)
            out.append((edition, gs.id, None))
        out += [(edition, gs.id, v.id) for v in gs.game.variants
                if lib.in_edition(v.introduced) and has_own_sheet(v)]
    return out


SHEETS = _sheets(CURRENT) + _sheets(PUBLISHED)


def _body(lib, game_id: str, variant_id: str | None):
    game = lib.games[game_id].game
    return next(v for v in game.variants if v.id == variant_id) if variant_id else game


def _round_count(rounds) -> int | None:
    from generator.book.cards import parse_cards

    if rounds is None:
        return None
    if rounds.ranks:
        pred = parse_cards(rounds.ranks)
        return sum(1 for rank in range(1, 14) if pred((rank, "spades")))
    if rounds.items:
        return len(rounds.items) * (2 if rounds.then_reversed else 1)
    return None


def _hand_count(body) -> int | None:
    """Hands the rules data counts: its rounds, or one per double of a named set (blank included)."""
    rounds, dominoes = body.rounds, body.equipment.dominoes if body.equipment else None
    if rounds is not None and rounds.doubles is not None:
        return dominoes.set + 1 if dominoes and dominoes.set is not None else None  # an unnamed set fills the page
    return _round_count(rounds)


def expected_rows(body) -> list[int | None]:
    """Rows to write in on each blank page: a number where the data lists them, None for 'fill the page'."""
    from generator.render.views.sheets import generic_sheet

    sheet, rounds = body.score_sheet or generic_sheet("", body), body.rounds  # a game's own sheet, or the one it keeps
    blocks = [b for b in sheet.blocks if not b.sample_only]
    if any(b.rows_from == "sequence" for b in blocks) and len(rounds.sequences) > 1:
        return [sequence_length(s.start, s.low, s.back_up) for s in rounds.sequences]
    total = 0
    for b in blocks:
        if b.rows_from == "sequence":
            s = rounds.sequences[0]
            total += sequence_length(s.start, s.low, s.back_up)
        elif b.rows_from == "rounds":
            if _hand_count(body) is None:
                return [None]
            total += _hand_count(body)
        elif b.rows and not b.example_rows:
            total += len(b.rows)
        elif b.round:
            total += len(next(r for r in rounds.items if r.name == b.round).hands)
        else:
            return [None]
    return [total]


def _fields(page) -> list[tuple[str, tuple[float, float, float, float]]]:
    out = []
    for annot in page.get("/Annots", []) or []:
        a = annot.get_object()
        if a.get("/FT") == "/Tx":
            x0, y0, x1, y1 = (float(v) for v in a["/Rect"])
            out.append((str(a["/T"]), (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))))
    return out


def _words(pdf: Path, tmp_path: Path) -> list[list[tuple[float, float, float, float, str]]]:
    html = tmp_path / "bbox.html"
    subprocess.run(["pdftotext", "-bbox", str(pdf), str(html)], check=True)
    pages = re.findall(r"<page [^>]*>(.*?)</page>", html.read_text(encoding="utf-8"), re.S)
    word = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
    return [[(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in word.findall(p)] for p in pages]


NAMES = r'"[\w-]+"(?:, "[\w-]+")*'  # quoted field names, as the writer checks them: letters, digits, _ and -
# The scripts a PDF may carry, a total's sum and a score box's reading: the writer's templates
# (generator/render/pdf/writer.py SUM_SCRIPT, READ_SCRIPT) written out here, so that changing what the book's PDFs run
# changes this test too; READER is the score keeper's readScore (templates/site/assets/keeper.js), which both carry.
# Group 1: the fields a sum adds; 2: the fields it waits for. A plain loop over getField(name).value: no getArray, no
# AFSimple_Calculate (tests/test_pdfjs_calc.py)
READER = re.escape(score_reader(read_file_text(KEEPER_SCRIPT)))
# The sign the book's language groups thousands with, one character as JSON quotes it (writer._scripts, from Babel).
GROUP = r'"(?:[^"\\\x00-\x1f]|\\u[0-9a-f]{4})"'
POINT = r'(null|"[.,]")'  # the decimal sign of a sheet scored in halves, or null
SUM_ACTION = re.compile(re.escape('(function (doc, terms, awaited, point) { ') + READER + re.escape(
    ' var sum = 0, shown = false, unread = false, value, i, read = point ? function (text) { return readHalves(text, '
    'point, ') + GROUP + re.escape('); } : function (text) { return readScore(text, ') + GROUP + re.escape('); }; '
    'for (i = 0; i < awaited.length; i++) { value = doc.getField(awaited[i]).value; '
    'if (value !== "" && value !== null && value !== undefined) shown = true; } '
    'for (i = 0; i < terms.length; i++) { value = read(doc.getField(terms[i]).value); '
    'if (value === "") continue; if (isNaN(value)) unread = true; else sum += value; } '
    'event.value = shown ? (unread ? "?" : (point ? String(sum).replace(".", point) : sum)) : ""; })(this, [')
    + f"({NAMES})" + re.escape("], [") + f"({NAMES})" + re.escape("], ") + POINT + re.escape(");"))
READ_ACTION = re.compile(re.escape('(function (point) { ') + READER + re.escape(
    ' var text = String(event.value === null || event.value === undefined ? "" : event.value), '
    'value = point ? readHalves(text, point, ') + GROUP + re.escape(') : readScore(text, ') + GROUP + re.escape(
    '), mark = "? "; if (value === "") return; '
    'if (!isNaN(value)) event.value = String(value).replace(".", point || "."); '
    'else if (text.indexOf(mark) !== 0) event.value = mark + text; })(') + POINT + re.escape(");"))


def _adds_up(obj: dict, key: str) -> bool:
    """Whether ``obj[key]`` is a total's calculation and nothing else: a field's calculate action adding up fields."""
    actions = obj[key].get_object()
    if key != "/AA" or obj.get("/Subtype") != "/Widget" or list(actions) not in (["/C"], ["/V"]):
        return False
    action = actions[list(actions)[0]].get_object()
    allowed = SUM_ACTION if list(actions) == ["/C"] else READ_ACTION
    return (sorted(action) == ["/JS", "/S"] and action["/S"] == "/JavaScript"
            and bool(allowed.fullmatch(str(action["/JS"]))))


def _scripts(reader: pypdf.PdfReader) -> list[str]:
    """Any JavaScript or additional action anywhere in the file's object graph but a total's sum."""
    found, seen = [], set()

    def walk(obj, path):
        if isinstance(obj, pypdf.generic.IndirectObject):
            if obj.idnum in seen:
                return
            seen.add(obj.idnum)
            obj = obj.get_object()
        if isinstance(obj, dict):
            for key, value in obj.items():
                if key == "/AA" and _adds_up(obj, key):
                    continue
                if key in ("/JavaScript", "/JS", "/AA") or value in ("/JavaScript",):
                    found.append(f"{path}{key}")
                if key not in ("/Parent", "/P"):
                    walk(value, f"{path}{key}")
        elif isinstance(obj, list):
            for i, value in enumerate(obj):
                walk(value, f"{path}[{i}]")

    walk(reader.trailer, "")
    return found


def score_width_mm(body) -> float:
    """How wide a box must be for the largest score ``body``'s game states (its target or the score that loses),
    written by hand with a sign before it; at least MIN_CELL_MM."""
    goal = body.goal
    stated = [abs(n) for n in (goal.target, goal.lose_at) if n is not None] if goal and not goal.implied else []
    return max(MIN_CELL_MM, (len(str(max(stated))) + 1) * DIGIT_MM if stated else 0)


def sheet_problems(pdf: Path, key: str, wanted: list[int | None], totals: bool, tmp_path: Path,
                   width_mm: float = MIN_CELL_MM) -> list[str]:
    """What keeps a sheet PDF from being kept score on: each problem in words (none for a good sheet).
    ``width_mm``: how wide a box the game's scores need."""
    reader = pdf_reader(pdf)
    words = _words(pdf, tmp_path)
    problems = [f"scripts in the PDF: {found}" for found in _scripts(reader)]
    for n, page in enumerate(reader.pages):
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        problems += [f"page {n + 1}: '{w}' runs off the page" for x0, y0, x1, y1, w in words[n]
                     if not (x0 >= EDGE and x1 <= width - EDGE and y0 >= EDGE and y1 <= height - EDGE)]
        if sum(w[4].lower() == "edition" for w in words[n]) > 1:  # the sheet's footer line and a running one
            problems.append(f"page {n + 1}: two footers name the edition")
    # A part is one page unless it needs more: its pages are those whose fields are named for it (key_s1_...).
    parts: dict[str, list] = {}
    for n, p in enumerate(reader.pages):
        if fields := _fields(p):
            parts.setdefault(fields[0][0][len(key.replace(".", "_")):].split("_")[1], []).append((n, p))
    if len(parts) != len(wanted):
        return [*problems, f"{len(parts)} fillable parts, wanted {len(wanted)}"]
    carried = 0  # hand rows on the part's earlier pages
    for (n, page), rows_wanted, last in [(np, w, i == len(pages) - 1) for pages, w in zip(parts.values(), wanted, strict=True)
                                         for i, np in enumerate(pages)]:
        height = float(page.mediabox.height)
        fields = _fields(page)
        rows: dict[tuple[str, str], list] = {}
        names = {name for name, _ in fields}
        for name, rect in fields:
            if rect[3] - rect[1] < MIN_HEIGHT_MM * MM - 0.01:  # every box, the date's and the name's too
                problems.append(f"box {name} is {(rect[3] - rect[1]) / MM:.1f} mm tall")
            m = FIELD.match(name)
            if m is None:
                continue
            if m["key"] != key.replace(".", "_"):
                problems.append(f"field {name} is not named for {key}")
            # A hand's box beside the total so far holds one hand's score; the total holds the game's largest.
            need = MIN_CELL_MM if m["row"] and not m["running"] and f"{name[:m.start('col') - 2]}_total_p{m['col']}" in \
                names else width_mm
            if rect[2] - rect[0] < need * MM - 0.01:
                problems.append(f"cell {name} is {(rect[2] - rect[0]) / MM:.1f} mm wide, its scores need {need}")

            rows.setdefault((m["block"], m["row"] or m["named"]), []).append(rect)
        hand_rows = [k for k in rows if k[1].isdigit()]
        if not hand_rows:
            problems.append("no rows to write in")
            continue
        for (block, row), rects in rows.items():
            if len({(round(r[1]), round(r[3])) for r in rects}) != 1:
                problems.append(f"row {block}.{row}: its cells are not level")
            # The row's label (left of its first cell) is on one line: no second line before the next row.
            left, bottom, top = min(r[0] for r in rects), rects[0][1], rects[0][3]
            h = top - bottom
            below = [r[3] for rs in rows.values() for r in rs if abs(r[0] - left) < 1 and bottom - 2 * h < r[3] < top - 1]
            band_low = max([*below, bottom - h / 2])  # not into a block below (its heading and note rows)
            start = max([r[2] for _, r in fields if r[2] <= left], default=0)  # a table to the left ends here
            label = [w for w in words[n] if start <= w[0] and w[2] <= left
                     and band_low < height - (w[1] + w[3]) / 2 <= top + 1]  # not the wrapped note above
            if len({round(w[1]) for w in label}) > 1:
                problems.append(f"label {' '.join(w[4] for w in label)!r} wraps")
        if not last:  # the part goes on: only if its boxes are as small as handwriting allows
            carried += len(hand_rows)
            if max(r[3] - r[1] for rects in rows.values() for r in rects) > (MIN_HEIGHT_MM + 0.5) * MM:
                problems.append(f"page {n + 1}: the sheet goes on to another page, its boxes taller than "
                                f"{MIN_HEIGHT_MM} mm")
            continue
        hand_count, carried = len(hand_rows) + carried, 0
        if rows_wanted is not None:
            if hand_count != rows_wanted:
                problems.append(f"page {n + 1}: {hand_count} rows, the data lists {rows_wanted}")
            continue
        # Blank rows fill the page: under the last row there is no room for another row and the footer.
        row_height = max(r[3] - r[1] for rects in rows.values() for r in rects)
        lowest = min(r[1] for rects in rows.values() for r in rects)
        if lowest >= 14 * MM + 10 * MM + row_height:
            problems.append(f"page {n + 1}: {lowest / MM:.0f} mm left under the last row")
        running = any(FIELD.match(name)["running"] for name, _ in fields if FIELD.match(name))
        if totals and not any(k[1] == "total" for k in rows) and not running:  # a running total ends at the last hand
            problems.append("no total row")
    return problems


@poppler
@pytest.mark.parametrize(("edition", "game_id", "variant_id"), SHEETS, ids=[
    f"{e}-{g}{'.' + v if v else ''}" for e, g, v in SHEETS])
def test_sheet_can_be_kept(built, library, published_library, edition, game_id, variant_id, tmp_path):
    lib = library if edition == CURRENT else published_library
    key = f"{game_id}.{variant_id}" if variant_id else game_id
    body = _body(lib, game_id, variant_id)
    from generator.render.views.sheets import generic_sheet

    totals = any(b.total for b in (body.score_sheet or generic_sheet("", body)).blocks)  # the generic sheet's too
    pdf = built[edition] / "pdf" / "score-sheets" / f"{key}.pdf"
    assert sheet_problems(pdf, key, expected_rows(body), totals, tmp_path, score_width_mm(body)) == []


def _broken_sheet(tmp_path: Path, label: str, columns: int, rows: int, total: bool, script: str = "",
                  footers: int = 0, field_script: bool = False, cell_height: str = "") -> Path:
    from generator.render.pdf.weasy import Engine

    style = f" style='height: {cell_height}'" if cell_height else ""
    cell = f"<td><input type='text' name='bad_s1_b1_{{r}}_p{{c}}'{style}></td>"  # the sheets' own style: print.css
    body = "".join(f"<tr><th style='width: 20mm'>{label}</th>" + "".join(cell.format(r=f"r{r}", c=c) for c in range(columns))
                   + "</tr>" for r in range(1, rows + 1))
    if total:
        body += "<tr><th>Total</th>" + "".join(cell.format(r="total", c=c) for c in range(columns)) + "</tr>"
    running = "<style>@page { @bottom-left { content: 'Edition 9999.9'; } }</style>" if footers > 1 else ""
    footer = "<p class='sheet-footer'>Book · edition 9999.9</p>" if footers else ""
    html = (f"<html><head>{running}</head><body class='sheet-only'><div class='score-sheet'><table>{body}</table>"
            f"</div>{footer}</body></html>")
    target = tmp_path / "bad.pdf"
    document = Engine().document(html)
    document.write_pdf(str(target))
    if script:
        writer = pypdf.PdfWriter(clone_from=target)
        from pypdf.generic import DictionaryObject, NameObject, TextStringObject

        action = DictionaryObject({NameObject("/S"): NameObject("/JavaScript"),
                                   NameObject("/JS"): TextStringObject(script)})
        if field_script:  # a field's calculate action that is not a sum of fields
            writer.pages[0]["/Annots"][0].get_object()[NameObject("/AA")] = DictionaryObject({NameObject("/C"): action})
        else:
            writer._root_object[NameObject("/OpenAction")] = action
        writer.write(target)
    return target


@poppler
@pytest.mark.parametrize(("case", "layout", "wanted", "problem"), [
    ("narrow cells", dict(label="1", columns=20, rows=5, total=True), [5], "mm wide"),
    ("wrapped label", dict(label="Round one of many words", columns=4, rows=5, total=True), [5], "wraps"),
    ("too few rows", dict(label="1", columns=4, rows=5, total=True), [7], "5 rows, the data lists 7"),
    ("page not filled", dict(label="1", columns=4, rows=5, total=True), [None], "left under the last row"),
    ("no total", dict(label="1", columns=4, rows=30, total=False), [None], "no total row"),
    ("script", dict(label="1", columns=4, rows=5, total=True, script="app.alert('hi');"), [5], "scripts in the PDF"),
    ("field script", dict(label="1", columns=4, rows=5, total=True, field_script=True,
                          script=SUM_SCRIPT % ('"a"', '"a"', "null") + ' app.alert("hi");'), [5], "scripts in the PDF"),
    ("field script in a name", dict(label="1", columns=4, rows=5, total=True, field_script=True,
                                    script=SUM_SCRIPT % ('"a"], [app.alert("hi")', '"a"', "null")), [5], "scripts in the PDF"),
    ("field script as the decimal sign", dict(label="1", columns=4, rows=5, total=True, field_script=True,
                                              script=SUM_SCRIPT % ('"a"', '"a"', 'app.alert("hi")')), [5],
     "scripts in the PDF"),
    ("the standard sum", dict(label="1", columns=4, rows=5, total=True, field_script=True,
                              script='AFSimple_Calculate("SUM", new Array("a"));'), [5], "scripts in the PDF"),
    ("two footers", dict(label="1", columns=4, rows=5, total=True, footers=2), [5], "two footers"),
    ("short cells", dict(label="1", columns=4, rows=5, total=True, cell_height="6mm"), [5], "mm tall"),
    ("spilt with room to spare", dict(label="1", columns=4, rows=40, total=True), [40], "goes on to another page"),
    ("scores wider than cells", dict(label="1", columns=10, rows=5, total=True, width_mm=20), [5],
     "its scores need 20"),
])
def test_reading_back_finds_a_broken_sheet(tmp_path, case, layout, wanted, problem):
    width = layout.pop("width_mm", MIN_CELL_MM)
    pdf = _broken_sheet(tmp_path, **layout)
    found = sheet_problems(pdf, "bad", wanted, True, tmp_path, width)
    assert any(problem in p for p in found), f"{case}: {found}"


def _fill_sheet(rows: int, after_mm: int, landscape: bool) -> str:
    """A sheet of the print stylesheet's kind: heading, blank rows, a total row, ``after_mm`` of notes, a footer."""
    cells = "".join(f"<td><input type='text' name='f_s1_b1_{{r}}_p{c}'></td>" for c in range(12 if landscape else 6))
    body = "".join(f"<tr class='sheet-row fill-row'><th scope='row'>{r}</th>{cells.format(r=f'r{r}')}</tr>"
                   for r in range(rows))
    page = " landscape" if landscape else ""
    return (f"<html><body class='sheet-only'><section class='sheet-page{page}'><h1 class='sheet-heading'>A game</h1>"
            f"<div class='score-sheet'><table><tbody>{body}<tr class='sheet-total'><th>Total</th>"
            f"{cells.format(r='total')}</tr></tbody></table><div style='height: {after_mm}mm'></div></div>"
            "<p class='sheet-footer'>Book · edition 9999.9</p></section></body></html>")


@pytest.mark.parametrize("landscape", [False, True])
@pytest.mark.parametrize("after_mm", [0, 17, 60, 120])
def test_blank_rows_worked_out_from_the_trial_are_the_most_that_fit(after_mm, landscape):
    """The trial layout's two rows give the count (scorepad.rows_that_fit): that many fit one page, one more does not."""
    from generator.render.pdf.scorepad import TRIAL_ROWS, rows_that_fit
    from generator.render.pdf.weasy import Engine

    engine = Engine()
    rows = rows_that_fit(engine.document(_fill_sheet(TRIAL_ROWS, after_mm, landscape)))
    assert rows > TRIAL_ROWS
    assert len(engine.document(_fill_sheet(rows, after_mm, landscape)).pages) == 1
    assert len(engine.document(_fill_sheet(rows + 1, after_mm, landscape)).pages) == 2


@pytest.fixture(scope="module")
def small_library():
    """The tests' own small book (tests/conftest.py ``SMALL_BOOK``), its current edition."""
    from tests.conftest import SMALL_BOOK

    return load_library(SMALL_BOOK)


@pytest.mark.parametrize(("game_id", "variant_id"), [("hearts", None), ("skull-and-roses", None),
                                                    ("gin-rummy-tournament", None)])
def test_each_sheet_that_fills_its_page_has_the_most_rows_that_fit(small_library, game_id, variant_id):
    """A sheet of a book (portrait; turned landscape for 12 players; with more blocks under its rows), the tests' own:
    one row more than it was given would push it onto a second page."""
    from generator.render.pdf.book import game_pages
    from generator.render.pdf.scorepad import render_sheet_documents, samples_html, sheet_html, sheet_view
    from generator.render.pdf.weasy import Engine
    from generator.render.views.sheets import sheet_files, sheet_parts

    library = small_library
    engine, page = Engine(), next(p for p in game_pages(library) if p.id == game_id)
    file = next(f for f in sheet_files([page]) if f.variant_id == variant_id)
    result = render_sheet_documents(library, page, file, engine)
    heading, view = sheet_view(page, variant_id)
    parts = sheet_parts(view)
    assert result.rows > 0 and len(result.documents[0].pages) == len(parts)
    if game_id == "skull-and-roses":
        assert any(result.landscape)
    more = engine.document(sheet_html(library, file, heading, view, result.rows + 1, result.landscape))
    assert len(more.pages) > len(parts)
    assert samples_html(library, heading, view, file.number) is None or len(result.documents) == 2


def test_score_pad_has_every_sheet(built, library, published_library):
    from generator.render.views.sheets import score_pad_name

    for edition, lib in ((CURRENT, library), (PUBLISHED, published_library)):
        pdf_dir = built[edition] / "pdf"
        pad = pdf_reader(pdf_dir / score_pad_name(lib.edition.id))
        singles = [pdf_reader(pdf_dir / "score-sheets" / f"{k}.pdf")
                   for k in [f"{g}.{v}" if v else g for e, g, v in SHEETS if e == edition]]
        assert len(pad.pages) == 1 + sum(len(r.pages) for r in singles)
        names = [name for page in pad.pages for name, _ in _fields(page)]
        assert len(names) == len(set(names)), "form field names repeat in the score pad"
        assert len(names) == sum(len(_fields(p)) for r in singles for p in r.pages)
        assert not _scripts(pad)
        contents = " ".join(pad.pages[0].extract_text().split())
        files = [f for f, _, _ in _definitions(lib)]
        assert [f.key for f in files] == [f"{g}.{v}" if v else g for e, g, v in SHEETS if e == edition]
        for file in files:  # each sheet by its number and heading; paper names no file (score-sheets/...)
            assert re.search(rf"(?<!\S){file.number} {re.escape(file.heading)} \d+(?!\S)", contents), file.heading
        assert ".pdf" not in contents


def test_every_form_field_is_flat_unique_and_owns_its_appearance(built):
    """In every PDF of both editions: no period in a field's name (PDF reads it as a hierarchy), no name
    twice, and no two boxes drawing from one appearance stream (filling one would fill them all). Each file is
    read with pdf_reader, which the tests above opened every sheet and pad with (read once, in this worker)."""
    checked = 0
    for edition, out in built.items():
        for pdf in sorted((out / "pdf").rglob("*.pdf")):
            names, streams = set(), set()
            for page in pdf_reader(pdf).pages:
                for ref in page.get("/Annots") or []:
                    widget = ref.get_object()
                    if widget.get("/Subtype") != "/Widget":
                        continue
                    name = widget["/T"]
                    assert "." not in name and name not in names, f"{edition} {pdf.name}: field {name!r}"
                    names.add(name)
                    normal = widget.get("/AP", {}).get("/N")
                    if normal is not None:
                        key = normal.indirect_reference.idnum
                        assert key not in streams, f"{edition} {pdf.name}: {name} shares an appearance"
                        streams.add(key)
                    checked += 1
    assert checked > 1000


@poppler
def test_book_and_site_name_each_sheet(built, library):
    """The book names each sheet by its number in the printed score pad (a file name means nothing on
    paper), in book order, and the pad's contents gives that number to that sheet; the site links the files."""
    from generator.render.views.sheets import score_pad_name

    # pdftotext reads the book in 0.1 s (pypdf's extract_text took 3.5 s)
    pdf = built[CURRENT] / "pdf" / pdf_name(library)
    book = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout.split())
    pad = " ".join(pdf_reader(built[CURRENT] / "pdf" / score_pad_name(CURRENT)).pages[0].extract_text().split())
    site = built[CURRENT] / "site"
    assert (site / "downloads" / score_pad_name(CURRENT)).exists()
    names = [f"{g}.{v}.pdf" if v else f"{g}.pdf" for e, g, v in SHEETS if e == CURRENT]
    numbers = [int(n) for n in re.findall(r"Score sheet(?: for [^:]+)?: number (\d+) in the score pad\.", book)]
    assert numbers == list(range(1, len(names) + 1)), "the book does not number the pad's sheets in order"
    # Each sheet prints the number the book and the contents give it, at its foot (the pad prints no folios).
    pad_pages = subprocess.run(["pdftotext", str(built[CURRENT] / "pdf" / score_pad_name(CURRENT)), "-"],
                               capture_output=True, text=True, check=True).stdout.split("\f")[:-1]
    starts = []
    headings = [f.heading for f, _, _ in _definitions(library)]
    for number, (name, heading) in enumerate(zip(names, headings, strict=True), 1):
        row = re.search(rf"(?<!\S){number} {re.escape(heading)} (\d+)(?!\S)", pad)
        assert row, f"pad row {number}: {name}"
        starts.append(int(row.group(1)))
    for number, (start, end) in enumerate(zip(starts, [*starts[1:], len(pad_pages) + 1], strict=True), 1):
        assert any(f"score pad sheet {number}" in " ".join(p.split()) for p in pad_pages[start - 1:end - 1]), number
        g = name.split(".")[0]
        page = (site / "games" / g / "index.html").read_text(encoding="utf-8")
        assert f"downloads/score-sheets/{name}" in page, f"{g}: no link to {name}"
        assert (site / "downloads" / "score-sheets" / name).exists()


def _definitions(library):
    from generator.render.pdf.book import game_pages
    from generator.render.pdf.scorepad import sheet_view
    from generator.render.views.sheets import sheet_files

    pages = {p.id: p for p in game_pages(library)}
    for file in sheet_files(list(pages.values())):
        yield file, *sheet_view(pages[file.game_id], file.variant_id)


def test_sheet_definition_is_the_sheet_printed(library):
    """The definition the form layer and the score keeper read has the printed sheet's cells: per block as many
    rows and columns as the fillable HTML has fields, and a total field (or, for a running total, one beside each
    hand) in exactly the columns the total adds."""
    from generator.render.pdf.scorepad import sheet_html
    from generator.render.views.sheets import sheet_definition, sheet_parts

    field = re.compile(r'name="[^"]+_s(\d+)_b(\d+)_(r\d+(?:_total)?|total)_p(\d+)"')
    for file, heading, view in _definitions(library):
        parts = sheet_parts(view)
        html = sheet_html(library, file, heading, view, 2, (False,) * len(parts))
        printed: dict[tuple[int, int], set[tuple[str, int]]] = {}
        for s, b, row, p in field.findall(html):
            printed.setdefault((int(s), int(b)), set()).add((row, int(p)))
        for s, part in enumerate(parts, 1):
            sheet = sheet_definition(view, heading, part, 2)
            blocks = [i for i, b in enumerate(view.body.score_sheet.blocks, 1) if not b.sample_only]
            for b, table in zip(blocks, sheet.tables, strict=True):
                wanted = {(f"r{r + 1}", p + 1) for r in range(len(table.rows)) for p in range(len(table.columns))}
                if table.running:  # the total so far beside each hand, and no Total row to repeat the last
                    wanted |= {(f"r{r + 1}_total", p + 1) for r in range(len(table.rows))
                               for p, c in enumerate(table.columns) if c.summed}
                else:
                    wanted |= {("total", p + 1) for p, c in enumerate(table.columns) if c.summed}
                assert printed.get((s, b), set()) == wanted, (file.key, s, b)
                assert table.sums == (tuple(range(len(table.rows))) if table.total else ())


def sheet_tables(html: str) -> list[list[str]]:
    """The sheet tables of an HTML page as a person reads them: each table's rows, each row its cells' text (a
    numbered blank row, as many as the page holds, read as one blank row)."""
    out = []
    for part in re.findall(r'<div class="score-sheet[^"]*">(.*?)</div>\s*</div>', html, re.S):
        caption = re.findall(r'<p class="sheet-part">(.*?)</p>', part)
        for table in re.findall(r'<table class="sheet-block[^"]*">(.*?)</table>', part, re.S):
            rows = []
            for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S):
                cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr, re.S)]
                cells = ["" if i == 0 and c.isdigit() else c for i, c in enumerate(cells)]  # a numbered blank row
                if not (rows and cells == rows[-1] and not any(cells)):
                    rows.append(cells)
            out.append(caption + [" | ".join(r) for r in rows])
    return out


def test_the_web_preview_of_a_sheet_is_its_printed_sheet(library, published_library):
    """Issue 52: every sheet a game's web page shows is one of the sheets printed: the same pages (Oh Hell!'s for 3-5
    players and for 6 or 7, not one of 7 players' columns on the 3-5 players' hands), the same columns for the same
    players, the same rows, then the same filled-in samples."""
    from generator.render.pdf.scorepad import samples_html, sheet_html
    from generator.render.site.docs import game_markdown, site_environment
    from generator.render.views.pages import game_page
    from generator.render.views.sheets import sheet_parts

    for lib in (library, published_library):
        env = site_environment(lib)
        previews = 0
        for file, heading, view in _definitions(lib):
            page = game_page(lib, lib.games[file.game_id])
            web = game_markdown(env, page)
            sections = re.split(r"^## ", web, flags=re.M)
            if file.variant_id is None:  # the game's own sections, not its variants'
                web = "".join(x for x in sections if not x.startswith("Variant: "))
                own = page.main
            else:
                variant, own = next((v, bv) for v, bv in page.variants if v.id == file.variant_id)
                web = next(x for x in sections if x.startswith(f"Variant: {variant.title}\n"))
            if own.body.score_sheet is None:
                assert sheet_tables(web) == [], file.key  # a generic sheet: the page links it and shows none
                continue
            parts = sheet_parts(view)
            printed = sheet_tables(sheet_html(lib, file, heading, view, 2, (False,) * len(parts)))
            printed += sheet_tables(samples_html(lib, heading, view, file.number) or "")
            assert sheet_tables(web) == printed, (lib.edition.id, file.key)
            previews += 1
        assert previews >= 3, previews


def test_a_merged_preview_is_caught():
    """The comparison above tells Oh Hell!'s old preview (seven players' columns on the 3-5 players' hands) from the
    sheets printed (two pages: five players' columns on 10…1…10, seven on 7…1…7)."""
    head = '<div class="score-sheet"><p class="sheet-title">S</p>{}<table class="sheet-block"><thead><tr><th></th>{}</tr></thead><tbody>{}</tbody></table>\n</div>\n</div>'
    def sheet(caption, players, rows):
        return head.format(f'<p class="sheet-part">{caption}</p>' if caption else "",
                           "".join(f"<th>Player {i}</th>" for i in range(1, players + 1)),
                           "".join(f"<tr><th>{r} cards</th>{'<td></td>' * players}</tr>" for r in rows))
    printed = sheet("For 3-5 players", 5, [10, 9, 10]) + sheet("For 6 or 7 players", 7, [7, 6, 7])
    merged = sheet(None, 7, [10, 9, 10])
    assert len(sheet_tables(printed)) == 2 and sheet_tables(merged) != sheet_tables(printed)
    assert sheet_tables(merged) != sheet_tables(printed)[:1]


# Every game whose rules speak of a bid, and why its sheet keeps the bid or not (issue 42: a score that depends on a
# bid is kept beside it). A new game that speaks of bids fails until it is listed here.
BIDS = {
    "five-hundred-rummy": "bid_made",  # the bidding team scores what it took if it made its bid, else loses the bid
    "oh-hell": "bid_made",  # 'If the player is successful in getting their exact bid they get a 1 in front of their bid'
    "oh-hell.oh-heck": "bid_made",  # 'scores 10 plus the number of tricks bid' (Oh Hell's sheet)
    "euchre": "points",  # its 'bidding' names trump, no number: the points are by tricks taken
    "skull-and-roses": "tally",  # a won bet counts one toward two, whatever was bid
    "rummoli": None,  # the widow is auctioned for chips; the book keeps no score
}


def test_a_score_that_depends_on_a_bid_is_kept_beside_it(library):
    """Each game (or variant) whose prose speaks of a bid is in BIDS, and its sheet keeps what BIDS says."""
    import re

    from generator.render.views.sheets import sheet_definition, sheet_parts

    spoken = {path.stem for path in (ROOT / "content").glob("*.md") if re.search(r"\bbid", path.read_text(encoding="utf-8"), re.I)
              and path.stem.split(".")[0] in library.games}
    assert spoken == set(BIDS)
    kept = {file.key: sheet_definition(view, heading, sheet_parts(view)[0]).keeps for file, heading, view in _definitions(library)}
    for key, keeps in BIDS.items():
        game, _, variant = key.partition(".")
        assert kept.get(key, kept.get(game) if variant else None) == keeps, key
        if keeps == "bid_made":
            sheet = next(sheet_definition(v, h, sheet_parts(v)[0]) for f, h, v in _definitions(library) if f.key in (key, game))
            assert any(c.part == "Bid" or c.label.endswith("Bid") for t in sheet.tables for c in t.columns), key


@pytest.mark.parametrize(("game_id", "summed"), [
    ("oh-hell", ["Score"]),  # sums: [Score]: the bid is not added
    ("five-hundred-rummy", ["Score"]),  # the bidding team's bid beside each team's score (issue 42)
    ("hearts", ["Player"]),  # no sums given: every column of the block is added
    ("gin-rummy-tournament", []),  # no total
])
def test_sheet_definition_says_which_columns_a_total_adds(library, game_id, summed):
    """A total adds the columns the data names in ``sums`` (all if none), each player's own."""
    from generator.render.views.sheets import sheet_definition, sheet_parts

    file, heading, view = next(d for d in _definitions(library) if d[0].key == game_id)
    sheet = sheet_definition(view, heading, sheet_parts(view)[0])
    columns = [c for t in sheet.tables for c in t.columns]
    assert sorted({c.label.split(": ")[-1].split(" ")[0] for c in columns if c.summed}) == summed
    players = [c.player for c in columns if c.summed]
    assert players == sorted(players) and len(set(players)) == len(players)


# Hands the rules name, in their order and words: by double down from the set the rules name, and Trash's twelve,
# 7-12 'the same hands reversed'. Chicken Foot's hands go up from 0-0 in a set no source names: neither its doubles
# nor a last one are known, so its rows are numbered hands, in the PDF and the keeper alike (it printed 0-0 to 15-15
# on paper and stopped at 11-11 in the keeper). None: no row is named.
NAMED_HANDS = [
    ("mexican-train", [f"Double {n}" for n in range(12, 0, -1)] + ["Double blank"]),
    ("chicken-foot", None),
    ("trash", ["1", "2", "3", "4", "5", "6", "7 (as 6)", "8 (as 5)", "9 (as 4)", "10 (as 3)", "11 (as 2)", "12 (as 1)"]),
]


@pytest.mark.parametrize(("game_id", "labels"), NAMED_HANDS, ids=[g for g, _ in NAMED_HANDS])
def test_named_hands_are_the_rows_of_the_sheet_and_the_keeper(built, library, game_id, labels):
    """The printed sheet's row labels (read from its PDF) and the keeper's are the hands as the rules name them."""
    from generator.render.views.sheets import keepers

    pdf = built[CURRENT] / "pdf" / "score-sheets" / f"{game_id}.pdf"
    lines = pdf_reader(pdf).pages[0].extract_text().splitlines()
    rows = lines[lines.index("Names") + 1:-1]  # down to the footer
    printed = rows[:rows.index("Total")] if "Total" in rows else rows  # a running total has no Total row
    file, heading, view = next(d for d in _definitions(library) if d[0].key == game_id)
    kept = list(keepers(view, heading, game_id)[0].sheet.tables[0].rows)
    if labels is None:  # numbered hands: the PDF prints each row's number, the keeper's rows carry no name
        assert printed == [str(n) for n in range(1, len(printed) + 1)] and len(printed) > 10, printed
        assert kept == [""] * len(kept) and len(kept) > 10, kept
    else:
        assert printed == labels and kept == labels


@pytest.mark.parametrize(("rounds", "problem"), [
    ({"doubles": {"order": "down", "label": "Double"}}, "write {n}"),
    ({"doubles": {"order": "up"}, "items": [{"name": "1"}]}, "one per double"),
    ({"doubles": {"order": "sideways"}}, "order"),
])
def test_doubles_are_refused_at_load_where_they_cannot_be_read(rounds, problem):
    """A double's label must say where its number goes, and hands by double are not also listed otherwise."""
    from pydantic import ValidationError

    from generator.book.model import Rounds

    with pytest.raises(ValidationError, match=problem):
        Rounds(**rounds)


def _stated_below_zero(data) -> bool:
    """Anywhere in a body's scoring, rounds or goal: a number below zero stated as points, a target or a losing
    score, a score said to count against the player, or a goal played back down from its target to a lower score
    (each score after the target is taken off)."""
    if isinstance(data, dict):
        down = data.get("then_back_to")
        if isinstance(data.get("target"), int) and isinstance(down, int) and down < data["target"]:
            return True
        return any((k in ("points", "target", "lose_at") and isinstance(v, int | float) and not isinstance(v, bool)
                    and v < 0) or (k in ("against", "held_against") and v is True) or _stated_below_zero(v)
                   for k, v in data.items())
    return isinstance(data, list) and any(_stated_below_zero(v) for v in data)


def test_the_keeper_offers_a_minus_key_only_where_a_score_can_be_negative(library):
    """Every sheet: the definition's ``negative`` is whether any score its data states is below zero (or counted
    against the player), on a sheet of scores; lives, tallies and melds are never negative."""
    from generator.render.views.sheets import sheet_definition, sheet_parts

    flags = {}
    for file, heading, view in _definitions(library):
        body = view.body
        stated = _stated_below_zero(body.model_dump(include={"scoring", "rounds", "goal"}))
        flags[file.key] = sheet_definition(view, heading, sheet_parts(view)[0]).negative
        assert flags[file.key] == (stated and (body.keeps or "points") in ("points", "bid_made")), file.key
    # 'deducts 25 points'; 'minus 150 loses'; 'count back … against'; 'then back down to zero'; a hand of points;
    # lives; a tally
    assert [flags[k] for k in ("trash", "five-hundred-rummy", "five-hundreds", "dice-10000", "hearts", "chase-the-ace",
                               "sticks")] == [True, True, True, True, False, False, False]


def test_sums_must_name_the_block_columns():
    """``sums`` naming a column the block does not have (or a block with no total) is refused at load."""
    from pydantic import ValidationError

    from generator.book.model import SheetBlock

    with pytest.raises(ValidationError, match="sums"):
        SheetBlock(columns=["Bid", "Score"], total="Total", sums=["Points"])
    with pytest.raises(ValidationError, match="sums"):
        SheetBlock(columns=["Score"], sums=["Score"])
    with pytest.raises(ValidationError, match="carries: 1 blocks named for 2 rows"):  # one a row
        SheetBlock(rows=["Game 1 total", "Game 2 total"], carries=["Game 1"], total="Grand Total")


# What each game's sheet records, and the words of its rules (content/<game>.md or the rules data) that say so.
KEEPS = [
    ("arizona-rummy", None, "points", "Low score wins"),
    ("basic-rummy", None, "points", "Add the value of all cards in the hands of other players to the winner's score"),
    ("canadian-salad", None, "points", "Low score wins"),
    ("chase-the-ace", None, "lives", "whoever has the lowest card loses a dime"),
    ("chicken-foot", None, "points", "Each player gets the total number of pips left in his hand"),
    ("court-whist", None, "points", "High score at the end of the"),
    ("desert-rummy", None, "melds", "Score keeping only consists of tracking who has melded on each hand"),
    ("dice-10000", None, "points", "score all that was rolled to that point"),
    ("euchre", None, "points", "First team to {goal.target} wins the game"),
    ("fast-track", None, "nothing", "To get all of your pegs “Home”"),  # a race or board game: its rules name no scoring
    ("five-hundred-rummy", None, "bid_made", "If the bidding team made the amount they bid or more"),
    ("five-hundreds", None, "points", "First person to {goal.target} wins"),
    ("five-in-a-row", None, "nothing", "To get three rows of five discs"),  # a race or board game: its rules name no scoring
    ("gin-rummy", None, "points", "Players agree beforehand on a winning amount of points, typically {goal.target}."),
    ("gin-rummy-tournament", None, "points", "each game ends when one team reaches {goal.target} points in that game"),
    ("golf", None, "points", "Low score wins the pot"),
    ("golf", "family-four-card-golf", "lives", "Highest score puts a quarter in the jar. When you are out of quarters"),
    ("hand-and-foot", None, "points", "High score wins"),
    ("hearts", None, "points", "Played to {goal.target} points. The player with the lowest score wins."),
    ("honeymoon-whist", None, "points", "you score tricks after you take 6"),
    ("horseshit-rummy", None, "points", "Count all points played out in front of you"),
    ("jokers-wild", None, "nothing", "The team getting all their marbles into their “Castle” first is the winner."),  # a race or board game: its rules name no scoring
    ("mexican-train", None, "points", "The player with the lowest total score after all rounds is the winner."),
    ("oh-hell", None, "bid_made", "If the player is successful in getting their exact bid"),
    ("push", None, "points", "Low score wins."),
    # played for stakes, and the rules name no winner: the coins change hands at the table, no score is kept
    ("rummoli", None, None, "Play out cards that allow you to claim the chips"),
    ("saskatchewan-rummy", None, None, "Pay as little as possible in the first 5 hands"),
    ("skull-and-roses", None, "tally", "If you win your second bet, you win the game!"),
    ("sticks", None, "tally", "The first person to collect {goal.target} sticks is the winner."),
    ("sweep", None, "points", "total their points left in their hand and down cards and they are counted against them"),
    ("ten-dime-rummy", None, "points", "To score, count all points played out in front of you less any cards still in your hand."),
    ("thirty-one", None, "lives", "Whoever has the lowest score loses a quarter"),
    ("trash", None, "points", "Low score wins."),
]


def test_every_game_says_what_its_sheet_keeps(library):
    """The table covers every game of the edition and every variant that keeps score its own way."""
    listed = {(g, v) for g, v, _, _ in KEEPS}
    games = {(gs.id, None) for gs in library.ordered_games()}
    variants = {(gs.id, v.id) for gs in library.ordered_games() for v in gs.game.variants if "keeps" in v.model_fields_set}
    assert listed == games | variants


@pytest.mark.parametrize(("game_id", "variant_id", "keeps", "rule"), KEEPS,
                         ids=[g + (f".{v}" if v else "") for g, v, _, _ in KEEPS])
def test_sheet_keeps_what_the_rules_keep(library, game_id, variant_id, keeps, rule):
    """Each game's data says what its sheet keeps, the words of its rules say so, and its sheet is drawn for it:
    points and bids add up to a Total (a bid is not added), lives, a tally and wins count marks, melds have no total."""
    from generator.render.views.sheets import sheet_definition, sheet_parts

    body = _body(library, game_id, variant_id)
    assert body.keeps == keeps
    page = f"{game_id}.{variant_id}.md" if variant_id else f"{game_id}.md"
    assert rule in (ROOT / "content" / page).read_text(encoding="utf-8")  # every row quotes its rule
    key = f"{game_id}.{variant_id}" if variant_id else game_id
    if keeps in (None, "nothing"):  # no sheet, no keeper: the book keeps no score (Rummoli had a Score/Total sheet
        # and keeper; the board games a page of one 'Won (1)' row)
        assert not body.keeps_score() and all(d[0].key != key for d in _definitions(library))
        return
    assert body.keeps_score()
    file, heading, view = next(d for d in _definitions(library) if d[0].key == key)
    sheet = sheet_definition(view, heading, sheet_parts(view)[0])
    assert sheet.keeps == keeps
    kept = sheet.tables
    if keeps == "melds":
        assert all(t.total is None for t in kept)
        assert [r.split(" – ")[0] for r in kept[0].rows] == [r.name for r in view.body.rounds.items]
    elif keeps == "bid_made":
        assert {c.label.split(": ")[-1] for c in kept[0].columns if not c.summed} == {"Bid"}
    elif keeps in ("lives", "tally"):
        assert all(t.total for t in kept) and all(c.summed for t in kept for c in t.columns)
    if keeps == "lives":
        assert sheet.start == view.body.equipment.stakes.start and sheet.winner == "last_standing"
        assert sheet.coins == view.body.equipment.stakes.coin + "s" and sheet.tables[0].title == f"{sheet.coins.capitalize()} lost"


def test_a_game_that_keeps_no_score_has_no_sheet_and_no_keeper(built, library, published_library):
    """Where the rules keep no score (played for stakes, no winner named; a race or board game whose rules name no
    scoring), the site has no keeper and no sheet for the game, its page offers neither and says in one line that
    its rules keep no score, and the book names no score pad sheet for it; every other game has both."""
    from generator.render.views.describe import NO_SCORE

    for lib in (library, published_library):
        site = built[lib.edition.id] / "site"
        none = [gs.id for gs in lib.ordered_games() if not gs.game.keeps_score()]
        assert set(none) == {g for g, _, keeps, _ in KEEPS if keeps in (None, "nothing") and g in lib.games}, none
        for gs in lib.ordered_games():
            page = (site / "games" / gs.id / "index.html").read_text(encoding="utf-8")
            kept = gs.id not in none
            assert (site / "keep" / gs.id / "index.html").exists() == kept, gs.id
            assert (site / "downloads" / "score-sheets" / f"{gs.id}.pdf").exists() == kept, gs.id
            assert (f"keep/{gs.id}/" in page) == kept and ('id="score-sheet"' in page) == kept, gs.id
            # issue 52: the page says so, in one line, where the sheet would be
            assert page.count(NO_SCORE) == (0 if kept else 1), gs.id


def test_the_keeper_states_the_goal_in_the_words_of_the_book_s_box(built, library):
    """A keeper's "To win" line is the game page's "To win" row, word for word (with its qualifier: Gin Rummy's
    target is "typically 100"), and a game whose goal the rules do not state has none."""
    import html

    from generator.render.views.describe import glance

    site = built[CURRENT] / "site"
    stated = 0
    for gs in library.ordered_games():
        if not gs.game.keeps_score():
            continue  # no keeper (test_a_game_that_keeps_no_score_has_no_sheet_and_no_keeper)
        page = (site / "keep" / gs.id / "index.html").read_text(encoding="utf-8")
        shown = [html.unescape(m) for m in re.findall(r'<p class="keeper-goal">To win: (.*?)</p>', page)]
        box = [text for label, text in glance(gs.game) if label == "To win"]
        assert shown[:1] == box and len(set(shown)) <= 1, (gs.id, shown, box)
        stated += bool(box)
    assert stated > 10 and "; target typically 100" in dict(glance(library.games["gin-rummy"].game))["To win"]


GAME_1 = {"round": "1st", "total": "Total"}
GRAND = {"title": "Grand total", "rows": ["1st total"], "carries": ["1st"], "total": "Grand Total"}


@pytest.mark.parametrize(("keeps", "block", "problem"), [
    ("melds", {"rows_from": "rounds", "player_columns": True, "total": "Total"}, "no total"),
    ("melds", {"rows": ["a", "b"], "player_columns": True}, "rows_from: rounds"),
    ("bid_made", {"columns": ["Bid", "Score"], "player_columns": True, "total": "Total"}, "sums"),
    ("points", {"round": "3rd", "total": "Total"}, "the rounds do not list"),
    ("melds", {"rows_from": "rounds", "player_columns": True}, None),  # fits: nothing reported
    ("bid_made", {"columns": ["Bid", "Score"], "player_columns": True, "total": "Total", "sums": ["Score"]}, None),
    # a grand total's rows carry the totals of blocks of the sheet (a list: the sheet's blocks)
    ("points", [GAME_1, {**GRAND, "carries": ["2nd"]}], "not another block of the sheet with a total"),
    ("points", [{"round": "1st"}, GRAND], "not another block of the sheet with a total"),
    ("points", [{**GAME_1, "player_columns": True}, GRAND], "whose columns are not this block's"),
    ("points", [GAME_1, GRAND], None),
])
def test_a_sheet_that_does_not_fit_its_game_is_reported(tmp_path, keeps, block, problem):
    """sheet.unfit: one case per way a stated sheet can disagree with what its game keeps."""
    import yaml

    from generator.checks import run_checks
    from tests.checkfix import make_project

    game = {"id": "demo", "title": "Demo", "category": "cards", "introduced": "2026.1",
            "sources": [{"seed": "000_321aee1cc9de258a.txt", "section": "Demo"}], "players": "2-4",
            "equipment": {"cards": [{"decks": 2}]}, "deal": {"each": 10}, "keeps": keeps,
            "goal": {"winner": "race"},
            "rounds": {"items": [{"name": "1st", "meld": "2 sets of 3"}, {"name": "2nd", "meld": "2 runs of 3"}]},
            "score_sheet": {"title": "Demo", "blocks": block if isinstance(block, list) else [block]}}
    project = make_project(tmp_path / "project", {"games": [yaml.safe_dump(game)]})
    found = [f.message for f in run_checks(load_library(project), only={"sheet.unfit"}) if f.check == "sheet.unfit"]
    assert (len(found) == 1 and problem in found[0]) if problem else not found, found


def test_a_blank_sheet_is_the_game_s_not_its_worked_example_s(library):
    """A sheet is titled for its game, not after a worked example, and a block whose rows are the example's hands
    (example_rows) is printed blank with hand rows to fill the page, its labels kept for the sample."""
    from generator.render.views.sheets import fills_page, sheet_definition, sheet_parts, sheet_rows

    for file, heading, view in _definitions(library):
        sheet = view.body.score_sheet
        titles = {e.title for e in view.body.examples.values()}
        assert view.text(sheet.title) not in titles, file.key
        for block in sheet.blocks:
            if block.example_rows:
                assert fills_page(view, block) and sheet_rows(view, block) == block.rows
                table = sheet_definition(view, heading, sheet_parts(view)[0], 5).tables[sheet.blocks.index(block)]
                assert table.rows == ("",) * 5, file.key


# Which sheets keep a running total (each player's total so far beside each hand): games kept in points whose
# hands are rows, one box a player; not bids, lives, tallies or melds, not a card of named rounds with its
# own Score column, not a sheet without a total, not more players than fit two boxes each across a page.
RUNNING = {"hearts": True, "five-hundreds": True, "euchre": True, "hand-and-foot": True, "canadian-salad": True,
           "dice-10000": True, "golf": True, "trash": False, "oh-hell": False, "court-whist": False,
           "gin-rummy-tournament": False, "gin-rummy.standard-gin-rummy": False, "chase-the-ace": False,
           "golf.family-four-card-golf": False, "sticks": False, "skull-and-roses": False,
           "desert-rummy": False}


@pytest.mark.parametrize(("key", "running"), RUNNING.items())
def test_which_sheets_keep_a_running_total(library, key, running):
    """The sheet definition's running flag, for a game of each kind (read from its rules data)."""
    from generator.render.views.sheets import sheet_definition, sheet_parts

    file, heading, view = next(d for d in _definitions(library) if d[0].key == key)
    tables = sheet_definition(view, heading, sheet_parts(view)[0]).tables
    assert [t.running for t in tables] == [running and t.total is not None for t in tables]


@pytest.mark.parametrize(("body", "block", "running"), [
    ({"keeps": "points", "players": "3-6"}, {"player_columns": True, "total": "Total"}, True),
    ({"keeps": "points", "players": 4, "partnerships": "partners"}, {"player_columns": True, "total": "Total"}, True),
    ({"keeps": "points", "players": "4-10"}, {"player_columns": True, "total": "Total"}, False),  # too many
    ({"keeps": "points", "players": "3-6"}, {"player_columns": True}, False),  # no total
    ({"keeps": "points", "players": "3-6"}, {"round": "Game 1", "total": "Total"}, False),  # a named round's card
    ({"keeps": "bid_made", "players": "3-6"},
     {"player_columns": True, "columns": ["Bid", "Score"], "total": "Total", "sums": ["Score"]}, False),
    ({"keeps": "lives", "players": "3-6"}, {"player_columns": True, "total": "Total"}, False),
    ({"keeps": "tally", "players": "3-6"}, {"player_columns": True, "total": "Total"}, False),
    # carried into a totals block (issue 60): its Total row is drawn for the row that carries it
    ({"keeps": "points", "players": "3-6", "score_sheet": {"title": "Card", "blocks": [
        {"title": "Upper", "player_columns": True, "total": "Total"},
        {"title": "Totals", "player_columns": True, "rows": ["Upper"], "carries": ["Upper"], "total": "Grand total"}]}},
     {"title": "Upper", "player_columns": True, "total": "Total"}, False),
])
def test_running_total_rule(body, block, running):
    """sheets.is_running: one case a way a block does or does not keep a running total."""
    from types import SimpleNamespace

    from generator.book.model import ScoreSheet, SheetBlock
    from generator.render.views.sheets import is_running

    sheet = ScoreSheet(**body["score_sheet"]) if "score_sheet" in body else None
    view = SimpleNamespace(body=SimpleNamespace(**{"partnerships": None, **body, "score_sheet": sheet}))
    assert is_running(view, SheetBlock(**block)) is running


def _keeper_pages(lib):
    """(game id, the keeper page's HTML) for every game of an edition, rendered as the site renders it."""
    from generator.render.site.docs import site_environment
    from generator.render.views.pages import game_page
    from generator.render.views.sheets import keepers

    template = site_environment(lib).get_template("site/keeper.md.j2")
    for gs in lib.ordered_games():
        page = game_page(lib, gs)
        if not gs.game.keeps_score():  # the site writes no keeper for a game whose rules keep no score
            continue
        yield gs.id, template.render(page_id=page.id, heading=page.heading(), edition=lib.edition.id,
                                     keepers=keepers(page.main, page.heading(), page.id))


def test_every_box_of_a_keeper_and_a_sheet_has_a_name_of_its_own(library, published_library):
    """A box's name (a keeper's aria-label, a PDF form field's title) says which row and which column it is, and no
    two boxes of a table share one: Gin Rummy (Tournament Rules) has Game 1-3 under Guys and again under Girls, so
    its boxes are 'Guys – Game 1' and 'Girls – Game 1', and its rows are each time a team scores, not hands."""
    from generator.render.pdf.scorepad import sheet_html
    from generator.render.views.sheets import sheet_parts

    groups_seen = 0
    for lib in (library, published_library):
        for game_id, html in _keeper_pages(lib):
            # (a row's name may repeat where the rules repeat a hand: Oh Hell's '10 cards' going down and back up)
            for row in re.findall(r'<tr[^>]*><th scope="row">.*?</tr>', html, re.S):
                names = re.findall(r'<input [^>]*data-cell[^>]*aria-label="([^"]*)"', row)
                assert len(names) == len(set(names)), (game_id, [n for n in names if names.count(n) > 1][:4])
        for file, heading, view in _definitions(lib):
            html = sheet_html(lib, file, heading, view, 2, (False,) * len(sheet_parts(view)))
            for row in re.findall(r'<tr class="sheet-row.*?</tr>', html, re.S):
                titles = re.findall(r'<input type="text" name="[^"]+" [^>]*title="([^"]*)"', row)
                assert len(titles) == len(set(titles)), (file.key, [t for t in titles if titles.count(t) > 1][:4])
            groups_seen += sum(bool(b.groups) for b in view.body.score_sheet.blocks)
    assert groups_seen >= 2  # the tournament's sheet, in both editions: the test saw a sheet with column groups


def test_the_gin_tournament_keeper_shows_the_book_s_sheet(library):
    """The keeper draws what the book's score sheet draws: Guys and Girls over three games each, one row each time
    a team scores (seed 000: "SCORE SHEET / Guys Girls / Game 1 Game 2 Game 3 Game 1 Game 2 Game 3")."""
    html = dict(_keeper_pages(library))["gin-rummy-tournament"]
    head = re.search(r"<thead>(.*?)</thead>", html, re.S).group(1)
    assert re.findall(r'<th scope="colgroup" colspan="(\d)">(\w+)</th>', head) == [("3", "Guys"), ("3", "Girls")]
    assert re.findall(r'<th scope="col">(Game \d)</th>', head) == ["Game 1", "Game 2", "Game 3"] * 2
    assert 'aria-label="2nd time a team scores: Girls – Game 3"' in html
    assert "Hand" not in re.sub(r"<[^>]+>", " ", html.split("<thead>", 1)[1]) and 'aria-label="Hand' not in html


def test_a_row_label_must_say_where_the_row_s_number_goes():
    """A block's row_label names each unlabelled row by its number: without {n} or {nth} every row would have one name."""
    from pydantic import ValidationError

    from generator.book.model import SheetBlock
    from generator.render.views.sheets import row_name

    with pytest.raises(ValidationError, match="write {n} or {nth}"):
        SheetBlock(row_label="Time a team scores")
    assert [row_name("{nth} time a team scores", "", n) for n in (1, 2, 3, 11, 22)] == [
        "1st time a team scores", "2nd time a team scores", "3rd time a team scores", "11th time a team scores",
        "22nd time a team scores"]
    assert row_name("Hand {n}", "", 3, after=True) == "hand 3" and row_name("Hand {n}", "First hand", 1) == "First hand"


def test_sheets_and_their_pad_give_the_print_engine_nothing_to_warn_of(library, tmp_path):
    """Every row header's id is one in its document: Oh Hell!'s sheet prints its blocks again on its second part's
    page (WeasyPrint said 'Anchor defined twice' for each of its rows), Golf's variants have sheets of their own, and
    all of them share the score pad, whose writer kept only the first anchor of a name (every sheet's rows were
    'sheet-0-row-…'). WeasyPrint warns of nothing, and the pad keeps every anchor of every sheet."""
    import logging

    import pikepdf

    from generator.render.pdf.book import game_pages
    from generator.render.pdf.scorepad import render_score_pad
    from generator.render.pdf.weasy import Engine
    from generator.render.views.sheets import score_pad_name

    said: list[str] = []

    class Told(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append(record.getMessage())

    def anchors(pdf: Path) -> set[str]:
        with pikepdf.open(pdf) as opened:
            return set(pikepdf.NameTree(opened.Root.Names.Dests).keys())

    pages = [p for p in game_pages(library) if p.id in ("oh-hell", "golf")]
    (tmp_path / "score-sheets").mkdir()
    logger, told = logging.getLogger("weasyprint"), Told(logging.WARNING)
    logger.addHandler(told)  # as the render's process does (render/pdf/worker.py): WeasyPrint's own handler drops it
    try:
        results = render_score_pad(library, pages, tmp_path, Engine())
    finally:
        logger.removeHandler(told)
    assert said == []
    assert [r.file.key for r in results] == ["golf", "golf.family-four-card-golf", "oh-hell"]
    assert [len(r.landscape) for r in results][-1] == 2  # Oh Hell!'s two parts
    each = [anchors(tmp_path / "score-sheets" / r.file.filename) for r in results]
    assert all(each) and sum(len(a) for a in each) == len(set().union(*each))  # no two sheets share an anchor
    assert anchors(tmp_path / score_pad_name(library.edition.id)) == set().union(*each)


# A sheet scored in halves (``halves: true``): the decimal sign each of its score boxes and totals carries, on the
# keeper's page and in the PDF form, per book language; a sheet without it carries none.
HALVES = [("en", "."), ("de", ","), (None, None)]


@pytest.mark.parametrize(("language", "point"), HALVES, ids=["English", "German", "no halves"])
def test_a_sheet_scored_in_halves_says_so_to_the_keeper_and_the_form(library, language, point):
    """Court Whist's sheet (its own: games carried into a grand total) with ``halves`` set or not: the keeper's root
    and every box the PDF form adds, and every total, carry the book's decimal sign, or none do."""
    from dataclasses import replace

    from generator.book import words
    from generator.render.pdf.scorepad import sheet_html
    from generator.render.site.docs import site_environment
    from generator.render.views.sheets import keepers, sheet_parts

    file, heading, view = next(d for d in _definitions(library) if d[0].key == "court-whist")
    sheet = view.body.score_sheet.model_copy(update={"halves": language is not None})
    view = replace(view, body=view.body.model_copy(update={"score_sheet": sheet}))
    before = words.current()
    words.use(words.Words(language or "en"))
    try:
        made = keepers(view, heading, "court-whist")
        keeper = site_environment(library).get_template("site/keeper.md.j2").render(
            page_id="court-whist", heading=heading, edition=library.edition.id, keepers=made)
        html = sheet_html(library, file, heading, view, 2, (False,) * len(sheet_parts(view)))
    finally:
        words.use(before)
    roots = re.findall(r'<div class="keeper"[^>]*>', keeper)
    assert roots and {re.search(r'data-halves="([^"]*)"', r)[1] if "data-halves" in r else None for r in roots} == {point}
    boxes = re.findall(r'<input type="text"[^>]*(?:inputmode="numeric"|data-sum=)[^>]*>', html)
    assert len(boxes) > 20 and any("data-sum" in box for box in boxes)
    assert {re.search(r'data-halves="([^"]*)"', box)[1] if "data-halves" in box else None for box in boxes} == {point}

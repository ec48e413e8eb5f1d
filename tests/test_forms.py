"""The score sheets' form fields, read from every PDF both editions build (the book, the score pad, each
game's sheet): totals the PDF adds up, a tab order across a round then down."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import CURRENT, PUBLISHED
from tests.test_sheets import SUM_ACTION

ROW = re.compile(r"_r\d+_p\d+$")


@dataclass(frozen=True)
class Widget:
    page: int
    name: str
    rect: tuple[float, float, float, float]  # x0, y0, x1, y1 (PDF points, y up)
    script: str | None  # the calculate action's JavaScript
    number: int  # the object number (what /CO refers to)
    tabs: str  # the page's tab order


def widgets(pdf: Path | PdfReader) -> tuple[list[Widget], list[int]]:
    """Every widget of ``pdf`` (a file, or one already open) in annotation order, page by page, and the form's
    calculation order."""
    reader = pdf if isinstance(pdf, PdfReader) else PdfReader(pdf)
    out = []
    for number, page in enumerate(reader.pages):
        for ref in page.get("/Annots") or []:
            widget = ref.get_object()
            if widget.get("/Subtype") != "/Widget":
                continue
            x0, y0, x1, y1 = (float(v) for v in widget["/Rect"])
            action = widget.get("/AA", {}).get("/C")
            out.append(Widget(number, widget["/T"], (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)),
                              action.get_object()["/JS"] if action else None, ref.idnum, page.get("/Tabs", "")))
    form = reader.trailer["/Root"].get("/AcroForm", {})
    return out, [ref.idnum for ref in form.get("/CO", [])]


@pytest.fixture(scope="module")
def readers(built) -> dict[str, PdfReader]:
    """Each PDF that may have form fields (edition/file), opened once: the current edition's pad and each game's
    sheet, the published edition's pad (every sheet it has; its sheet files are the same sheets). The fill test
    writes from the objects ``forms`` parsed (parsing the pad's 30,000 objects again took most of its time)."""
    pdfs = [(CURRENT, pdf) for pdf in sorted((built[CURRENT] / "pdf").rglob("score-*.pdf"))]
    pdfs += [(CURRENT, pdf) for pdf in sorted((built[CURRENT] / "pdf" / "score-sheets").glob("*.pdf"))]
    pdfs += [(PUBLISHED, pdf) for pdf in sorted((built[PUBLISHED] / "pdf").glob("score-pad-*.pdf"))]
    return {f"{edition}/{pdf.relative_to(built[edition] / 'pdf')}": PdfReader(pdf) for edition, pdf in pdfs}


@pytest.fixture(scope="module")
def forms(readers) -> dict[str, tuple[list[Widget], list[int]]]:
    """Each PDF with form fields (edition/file): its widgets and calculation order."""
    return {name: found for name, reader in readers.items() if (found := widgets(reader))[0]}


def summed(script: str | None, group: int = 1) -> list[str] | None:
    """The fields a calculate action adds up (the writer's sum, test_sheets.SUM_ACTION), in its order; None if it
    is no such sum. ``group`` 2: the fields it waits for (it shows nothing until one of them is written)."""
    match = SUM_ACTION.fullmatch(script or "")
    return re.findall(r'"([\w-]+)"', match.group(group)) if match else None


def awaited(script: str | None) -> list[str] | None:
    """The fields a total waits for: it shows its sum once one of them is written, else nothing."""
    return summed(script, 2)


RUNNING = re.compile(r"_r(?P<row>\d+)_total_p(?P<col>\d+)$")  # the total so far, beside a hand's box


def _block(name: str) -> str:
    """The sheet and block a field belongs to (``hearts_s1_b1``), from its name."""
    return re.sub(r"_(?:name|total|r\d+(?:_total)?)_p\d+$", "", name)


def _terms(widget: Widget) -> list[str]:
    """The fields a calculated field adds up, in the order its calculation names them."""
    terms = summed(widget.script)
    assert terms is not None, f"{widget.name} adds nothing up: {widget.script!r}"
    return terms


def test_every_total_is_the_one_plain_sum(forms):
    """Every calculated field's action is the writer's sum and nothing else (test_sheets.SUM_ACTION): a loop over
    getField(name).value. Not AFSimple_Calculate, whose getArray() made PDF.js scan every field name of the
    document for each term (the score pad's first entry took 28 s; tests/test_pdfjs_calc.py types into the pad)."""
    calculated = [(pdf, w) for pdf, (found, _) in forms.items() for w in found if w.script is not None]
    for pdf, w in calculated:
        assert SUM_ACTION.fullmatch(w.script), f"{pdf}: {w.name} runs {w.script!r}"
        assert "getArray" not in w.script and "AFSimple" not in w.script, f"{pdf}: {w.name} runs {w.script!r}"
    assert len(calculated) > 1000


def test_every_total_adds_up_the_boxes_above_it_in_its_column(forms):
    """Each Total box sums, by the calculation Acrobat, PDF.js and PDFium run (/AA /C), exactly the round boxes of
    its block whose column it stands under, top to bottom, and shows once any of them is written; the form's
    calculation order (/CO, without which PDF.js and Acrobat calculate nothing) lists every total once."""
    totals = 0
    for pdf, (found, order) in forms.items():
        calculated = [w for w in found if w.script is not None]
        assert sorted(order) == sorted(w.number for w in calculated), f"{pdf}: /CO is not the calculated fields"
        assert len(set(order)) == len(order), f"{pdf}: /CO lists a field twice"
        rounds: dict[str, list[Widget]] = {}  # each block's round boxes, in annotation order
        for w in found:
            if ROW.search(w.name):
                rounds.setdefault(_block(w.name), []).append(w)
        for total in (w for w in found if "_total_" in w.name and not RUNNING.search(w.name)):
            terms = _terms(total)
            column = [w for w in rounds.get(_block(total.name), [])
                      if total.rect[0] <= (w.rect[0] + w.rect[2]) / 2 <= total.rect[2]
                      and (w.page, -w.rect[1]) < (total.page, -total.rect[1])]
            column.sort(key=lambda w: (w.page, -w.rect[3]))
            assert terms == [w.name for w in column] and terms, f"{pdf}: {total.name} sums {terms}"
            assert awaited(total.script) == terms, f"{pdf}: {total.name} waits for {awaited(total.script)}"
            totals += 1
    assert totals > 100


def test_every_running_total_adds_up_its_player_s_hands_so_far(forms):
    """Each running total (the total so far beside a hand's box) sums exactly the hand boxes of its player's column
    from the first hand down to its own row, which stand left of it and not below it, and waits for its own row's
    box (a hand not played shows no total); the form calculates the running totals of a column in row order, and
    every calculated field after the calculated fields it reads."""
    running = 0
    for pdf, (found, order) in forms.items():
        by_name = {w.name: w for w in found}
        place = {number: i for i, number in enumerate(order)}
        for total in (w for w in found if RUNNING.search(w.name)):
            row, col = (int(v) for v in RUNNING.search(total.name).groups())
            terms = _terms(total)
            assert terms == [f"{_block(total.name)}_r{r}_p{col}" for r in range(1, row + 1)], f"{pdf}: {total.name}"
            hands = [by_name[t] for t in terms]
            assert all(w.rect[2] <= total.rect[0] + 1 and (w.page, -w.rect[1]) <= (total.page, -total.rect[1] + 1)
                       for w in hands), f"{pdf}: {total.name} adds a box right of it or below it"
            assert abs(hands[-1].rect[1] - total.rect[1]) < 1, f"{pdf}: {total.name} is not level with its hand"
            assert awaited(total.script) == [terms[-1]], f"{pdf}: {total.name} waits for {awaited(total.script)}"
            if row > 1:
                above = by_name[f"{_block(total.name)}_r{row - 1}_total_p{col}"]
                assert place[above.number] < place[total.number], f"{pdf}: {total.name} is calculated before {above.name}"
            running += 1
        for field in (w for w in found if w.script is not None):
            for term in _terms(field) + awaited(field.script):
                if by_name[term].script is not None:
                    assert place[by_name[term].number] < place[field.number], f"{pdf}: {field.name} before {term}"
    assert running > 1000


def test_a_row_that_carries_a_total_is_calculated_from_it(forms, library):
    """A grand total's row ('Game 1 total') is calculated from exactly the Total of the block the sheet definition
    says it carries (sheets.carried_blocks), column by column, shown once that Total shows, and after it in the
    form's calculation order; the Grand Total adds the rows (test_every_total_adds_up...) after them
    (test_every_running_total...)."""
    from generator.render.pdf.book import game_pages
    from generator.render.pdf.scorepad import sheet_view
    from generator.render.views.sheets import carried_blocks, sheet_files

    pages = {p.id: p for p in game_pages(library)}
    carried = {}  # a carried row's field name, less its column: the Total field it carries, less its column
    for file in sheet_files(list(pages.values())):
        blocks = sheet_view(pages[file.game_id], file.variant_id)[1].body.score_sheet.blocks
        flat = file.key.replace(".", "_")
        for b, block in enumerate(blocks, 1):
            for r, c in enumerate(carried_blocks(blocks, block), 1):
                carried[f"{flat}_s1_b{b}_r{r}"] = f"{flat}_s1_b{c + 1}_total"
    assert carried, "no sheet carries a total"
    checked = 0
    for pdf, (found, order) in forms.items():
        by_name, place = {w.name: w for w in found}, {number: i for i, number in enumerate(order)}
        for w in found:
            row, _, col = w.name.rpartition("_p")
            if row in carried:
                assert summed(w.script) == awaited(w.script) == [f"{carried[row]}_p{col}"], \
                    f"{pdf}: {w.name} carries {w.script!r}"
                assert place[by_name[f"{carried[row]}_p{col}"].number] < place[w.number], f"{pdf}: {w.name} first"
                checked += 1
    assert checked >= 2 * len(carried)  # each in its sheet and in the score pad


def test_tab_order_goes_across_a_round_then_down(forms):
    """Within each block the fields come (annotation order, which the tagged page's /Tabs /S structure order
    follows) row by row from the top, left to right in a row: the names, each round, the totals."""
    blocks = 0
    for pdf, (found, _) in forms.items():
        by_block: dict[str, list[Widget]] = {}
        for w in found:
            by_block.setdefault(_block(w.name), []).append(w)
        for name, fields in by_block.items():
            reading = sorted(fields, key=lambda w: (w.page, -round(w.rect[3]), w.rect[0]))
            assert [w.name for w in fields] == [w.name for w in reading], f"{pdf}: {name} is tabbed out of order"
            blocks += 1
            assert all(w.tabs == "/S" for w in fields), f"{pdf}: {name}'s page is not tabbed in structure order"
    assert blocks > 100


# --- filling one box shows in that box alone, filled by two independent libraries ----------------------

SCALE = 40 / 72  # pixels per point: 40 dpi is enough to see a value drawn, and cheap
VALUE = "88"


def _field_to_fill(found: list[Widget], page: int) -> Widget:
    """The field a test fills on ``page``: a round's box in a middle column if the page has one, else its first."""
    fields = [w for w in found if w.page == page]
    rounds = [w for w in fields if ROW.search(w.name)]
    return (rounds or fields)[len(rounds) // 2 if rounds else 0]


def _changed_outside(before, after, rect, height: float) -> tuple[int, int]:
    """How many pixels ``after`` changed from ``before`` inside and outside ``rect`` (PDF points, y up)."""
    from PIL import ImageChops

    changed = ImageChops.difference(after.convert("L"), before.convert("L")).point(lambda v: 255 if v > 60 else 0)
    x0, y0, x1, y1 = (int(v * SCALE) for v in (rect[0], height - rect[3], rect[2], height - rect[1]))
    box = (max(x0 - 1, 0), max(y0 - 1, 0), x1 + 2, y1 + 2)  # a pixel of rounding either side
    inside = changed.crop(box).histogram()[255]
    return inside, changed.histogram()[255] - inside


def _render(page, forms: bool):
    """A page as PDFium draws it, with the form as a PDFium viewer draws it (``forms``) or without it."""
    return page.render(scale=SCALE, may_draw_forms=forms).to_pil()


def _poppler(pdf: Path, folder: Path) -> list:
    """Every page of ``pdf`` as poppler draws it (the fields' appearance streams, as a viewer that fills nothing)."""
    import subprocess

    from PIL import Image

    folder.mkdir()
    # As PPM, the pixels as they are: PNG's compression took half of poppler's time (the pad's 36 pages, twice).
    subprocess.run(["pdftoppm", "-r", str(round(SCALE * 72)), pdf, folder / "p"], check=True)
    return [Image.open(ppm) for ppm in sorted(folder.glob("p-*.ppm"), key=lambda f: int(f.stem.split("-")[1]))]


def _pdfium_fill(document, page, widget: Widget) -> None:
    """Type ``VALUE`` into ``widget`` as a PDFium viewer does: focus it, replace its text, leave it."""
    import ctypes

    import pypdfium2.raw as raw

    form = document.formenv.raw
    for i in range(raw.FPDFPage_GetAnnotCount(page.raw)):
        annot = raw.FPDFPage_GetAnnot(page.raw, i)
        length = raw.FPDFAnnot_GetFormFieldName(form, annot, None, 0)
        name = ctypes.create_string_buffer(length)
        raw.FPDFAnnot_GetFormFieldName(form, annot, ctypes.cast(name, ctypes.POINTER(raw.FPDF_WCHAR)), length)
        if name.raw[:length - 2].decode("utf-16-le") == widget.name:
            assert raw.FORM_SetFocusedAnnot(form, annot)
            text = ctypes.create_string_buffer((VALUE + "\0").encode("utf-16-le"))
            raw.FORM_ReplaceSelection(form, page.raw, ctypes.cast(text, raw.FPDF_WIDESTRING))
            raw.FORM_ForceToKillFocus(form)
            raw.FPDFPage_CloseAnnot(annot)
            return
        raw.FPDFPage_CloseAnnot(annot)
    raise AssertionError(f"PDFium finds no field {widget.name}")


def test_filling_one_box_shows_the_value_in_that_box_alone(forms, readers, built, tmp_path):
    """On every page of the current edition's score pad and every game's sheet, one box is filled by pypdf
    (which writes the value into the box's own appearance stream; drawn by poppler) and, separately, typed
    into by PDFium (which draws the form as Chrome does). Each page drawn at 40 dpi before and after differs
    inside that box, and nowhere else."""
    import pypdfium2 as pdfium
    from pypdf import PdfWriter

    pages = 0
    for n, (name, (found, _)) in enumerate(forms.items()):
        if not name.startswith(CURRENT):
            continue
        source = built[CURRENT] / "pdf" / name.partition("/")[2]
        chosen = {page: _field_to_fill(found, page) for page in sorted({w.page for w in found})}
        # Written as an update appended to the file (what a viewer saves), from the objects already parsed.
        writer = PdfWriter(readers[name], incremental=True)
        for page, widget in chosen.items():
            writer.update_page_form_field_values(writer.pages[page], {widget.name: VALUE}, auto_regenerate=False)
        writer.write(tmp_path / f"{n}.pdf")
        blank, filled = _poppler(source, tmp_path / f"{n}-blank"), _poppler(tmp_path / f"{n}.pdf", tmp_path / f"{n}-filled")
        typed = pdfium.PdfDocument(source)
        typed.init_forms()
        for page, widget in chosen.items():
            drawn = typed[page]  # loaded once: loading a page of the pad parses it again
            height = drawn.get_height()
            shown = {"pypdf": _changed_outside(blank[page], filled[page], widget.rect, height)}
            before = _render(drawn, True)
            _pdfium_fill(typed, drawn, widget)
            shown["PDFium"] = _changed_outside(before, _render(drawn, True), widget.rect, height)
            for how, (inside, outside) in shown.items():
                assert inside > 10 and outside == 0, \
                    f"{name} page {page + 1}: {how} filled {widget.name}: {inside} pixels in it, {outside} elsewhere"
            pages += 1
        typed.close()
    assert pages >= 60  # every page of the pad and of each sheet (fewer since the board games keep no sheet)

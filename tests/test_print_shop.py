"""rulebook print-shop: the interior and cover a print-on-demand service takes, and the preflight that checks them.

Each trim's files are made once a session from the small project (``printed``); every item of the preflight passes on
them, and fails on a copy made wrong on purpose with pikepdf (``BROKEN``), each item failing alone where it can. The
words are the small project's letter book's; each section opens on a right-hand page.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pikepdf
import pytest

from generator.book.library import load_library
from generator.commands import print_shop
from generator.errors import Problem, RulebookError
from generator.render.pdf import preflight, printshop
from generator.render.pdf.book import game_pages
from generator.render.views.describe import pdf_name

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

TRIMS = ("6x9", "5.5x8.5")
STOCK = "white"


@pytest.fixture(scope="session")
def printed(small_built, tmp_path_factory) -> dict[str, tuple[Path, int]]:
    """Each trim's folder of interior.pdf and cover.pdf, made once a session, and the interior's page count."""
    project, _ = small_built
    lib = load_library(project)
    out = {}
    for trim in TRIMS:
        folder = tmp_path_factory.mktemp(f"print-shop-{trim}")
        out[trim] = (folder, print_shop.make(lib, folder, trim, STOCK))
    return out


def _item(problem: Problem) -> str:
    return problem.check.removeprefix("preflight.")


def _results(folder: Path, trim: str, pages: int) -> dict[tuple[str, str], Problem]:
    size = printshop.TRIMS[trim]
    results = {("interior", _item(r)): r for r in preflight.check_interior(folder / "interior.pdf", size)}
    results |= {("cover", _item(r)): r for r in preflight.check_cover(folder / "cover.pdf", size, pages, STOCK)}
    return results


@pytest.mark.parametrize("trim", TRIMS)
def test_every_item_passes_on_what_the_command_makes(printed, trim):
    folder, pages = printed[trim]
    results = _results(folder, trim, pages)
    assert [key for key, r in results.items() if r.severity != "passed"] == []
    covered = {item for _, item in results}
    assert covered == set(preflight.ITEMS)


# --- what a service would refuse, made on purpose: (name, file, what it does to a copy, the items that fail) -----

def _no_trimbox(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    del pdf.pages[2].obj["/TrimBox"]


def _no_bleed(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    page = pdf.pages[1].obj
    page["/BleedBox"] = page["/TrimBox"]


def _wrong_trim(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    for page in pdf.pages:  # a quarter inch narrower: the page is set for another trim (its bleed as it was)
        for key in ("/MediaBox", "/BleedBox", "/TrimBox"):
            box = [float(v) for v in page.obj[key]]
            box[2] -= 18
            page.obj[key] = pikepdf.Array(box)


def _not_pdfx(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
        for key in ("pdfxid:GTS_PDFXVersion", "pdfx:GTS_PDFXVersion", "pdfx:GTS_PDFXConformance"):
            if key in meta:
                del meta[key]


def _pdfx3(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
        meta["pdfxid:GTS_PDFXVersion"] = "PDF/X-3:2003"


def _no_intent(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    del pdf.Root["/OutputIntents"]


def _unembedded(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    font = next(iter(pdf.pages[0].obj.Resources.Font.values()))
    descendant = font.DescendantFonts[0] if font.get("/Subtype") == "/Type0" else font
    descriptor = descendant.FontDescriptor
    for key in ("/FontFile", "/FontFile2", "/FontFile3"):
        if key in descriptor:
            del descriptor[key]


def _shifted(dx: float, dy: float, page: int = 2):
    """Every mark of page ``page`` moved by (dx, dy) points: its words leave the safe area."""

    def shift(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
        pdf.pages[page].contents_add(pikepdf.Stream(pdf, f"q 1 0 0 1 {dx} {dy} cm\n".encode()), prepend=True)
        pdf.pages[page].contents_add(pikepdf.Stream(pdf, b"\nQ"))

    return shift


def _into_barcode(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    # The back's first line (its top-left corner, SAFE in) moved to the middle of the barcode's zone.
    x = (trim.width - printshop.BARCODE_INSET - printshop.BARCODE[0] / 2 - printshop.SAFE) * 72
    y = -(trim.height - printshop.BARCODE_INSET - printshop.BARCODE[1] / 2 - printshop.SAFE - 0.1) * 72
    _shifted(x, y, 0)(pdf, trim)


def _onto_thin_spine(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    # The back's words moved onto the spine, too thin for text in the small book.
    _shifted((trim.width - printshop.SAFE) * 72 + 1, -2 * 72, 0)(pdf, trim)


def _odd(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    del pdf.pages[-1]


def _too_few(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    while len(pdf.pages) > printshop.LEAST_PAGES - 2:
        del pdf.pages[-1]


def _link(page: int):
    """A link on page ``page``."""

    def link(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
        pdf.pages[page].obj["/Annots"] = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[72, 72, 144, 90],
            A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String("https://example.org/"))))]))

    return link


def _field(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    field = pdf.make_indirect(pikepdf.Dictionary(FT=pikepdf.Name.Tx, T=pikepdf.String("score"),
                                                 Rect=[72, 72, 144, 90]))
    pdf.Root["/AcroForm"] = pikepdf.Dictionary(Fields=[field])


def _wider_spine(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    page = pdf.pages[0].obj
    for key in ("/MediaBox", "/BleedBox", "/TrimBox"):
        box = [float(v) for v in page[key]]
        box[2] += 0.1 * 72  # a tenth of an inch more spine than the page count makes
        page[key] = pikepdf.Array(box)


def _two_covers(pdf: pikepdf.Pdf, trim: printshop.Trim) -> None:
    pdf.pages.append(pdf.pages[0])


BROKEN = [
    ("missing TrimBox", "interior", _no_trimbox, {"boxes", "bleed"}),
    ("no bleed", "interior", _no_bleed, {"bleed"}),
    ("another trim", "interior", _wrong_trim, {"boxes"}),
    ("not PDF/X", "interior", _not_pdfx, {"pdfx"}),
    ("PDF/X-3, not X-4", "cover", _pdfx3, {"pdfx"}),
    ("no output intent", "interior", _no_intent, {"output-intent"}),
    ("no output intent", "cover", _no_intent, {"output-intent"}),
    ("unembedded font", "interior", _unembedded, {"fonts"}),
    ("unembedded font", "cover", _unembedded, {"fonts"}),
    ("words past the outside edge", "interior", _shifted(0.3 * 72, 0), {"safe-area"}),
    ("words in the gutter", "interior", _shifted(-0.3 * 72, 0), {"safe-area"}),
    ("words past the foot", "interior", _shifted(0, -0.6 * 72), {"safe-area"}),
    ("words in the barcode's zone", "cover", _into_barcode, {"safe-area"}),
    ("words on a thin spine", "cover", _onto_thin_spine, {"safe-area"}),
    ("odd page count", "interior", _odd, {"pages"}),
    ("fewer than 24 pages", "interior", _too_few, {"pages"}),
    ("a link", "interior", _link(1), {"annotations"}),
    ("a form field", "interior", _field, {"annotations"}),
    ("a link", "cover", _link(0), {"annotations"}),
    ("wrong spine", "cover", _wider_spine, {"spine"}),
    ("two pages", "cover", _two_covers, {"spine"}),
]


@pytest.mark.parametrize("trim", TRIMS)
@pytest.mark.parametrize(("name", "which", "breaks", "fails"), BROKEN, ids=[f"{b[1]}: {b[0]}" for b in BROKEN])
def test_a_file_made_wrong_fails_its_item(printed, tmp_path, trim, name, which, breaks, fails):
    folder, pages = printed[trim]
    copy = tmp_path
    with pikepdf.open(folder / f"{which}.pdf") as pdf:
        breaks(pdf, printshop.TRIMS[trim])
        pdf.save(copy / f"{which}.pdf")
    size = printshop.TRIMS[trim]
    results = (preflight.check_interior(copy / "interior.pdf", size) if which == "interior"
               else preflight.check_cover(copy / "cover.pdf", size, pages, STOCK))
    assert {_item(r) for r in results if r.severity == "error"} == fails  # the item that checks it, and no other


def test_the_command_prints_a_line_an_item_and_exits_1_on_a_failure(printed, tmp_path, monkeypatch, capsys):
    folder, pages = printed["6x9"]
    with pikepdf.open(folder / "interior.pdf") as pdf:
        _odd(pdf, printshop.TRIMS["6x9"])
        pdf.save(tmp_path / "interior.pdf")
    shutil.copy(folder / "cover.pdf", tmp_path / "cover.pdf")
    monkeypatch.setattr(print_shop, "load_library", lambda root, edition: SimpleNamespace(is_current=False))
    monkeypatch.setattr(print_shop, "make", lambda lib, out, trim, stock: pages - 1)  # the files are there already
    assert print_shop.run(tmp_path, "6x9", out=tmp_path) == 1
    lines = capsys.readouterr().out.splitlines()
    failed = [line for line in lines if ": preflight." in line and ": ok: " not in line]  # an error, as said
    assert len(failed) == 1 and "interior.pdf: preflight.pages: " in failed[0] and "odd" not in failed[0]
    assert lines[-1] == f"preflight: 1 of {2 * len(preflight.ITEMS) - 2} items failed"  # counted, not read back
    assert len([line for line in lines if ": ok: " in line]) == 2 * len(preflight.ITEMS) - 2 - 1
    monkeypatch.setattr(print_shop, "make", lambda lib, out, trim, stock: pages)
    shutil.copy(folder / "interior.pdf", tmp_path / "interior.pdf")
    assert print_shop.run(tmp_path, "6x9", out=tmp_path) == 0


def test_the_command_counts_the_items_that_failed_not_the_words_it_printed(tmp_path, monkeypatch, capsys):
    """An item that passed whose words read like a failure (': FAILED: ', quoted from a file) is counted as passed, and
    one that failed as failed, whatever it says: the command counts problems, never its own printed lines."""
    said = {"preflight.fonts": "the font 'Title: FAILED: Bold' is embedded"}

    def items(path: Path, *args) -> list[Problem]:
        return [Problem(str(path), 0, f"preflight.{item}", said.get(f"preflight.{item}", "fine"),
                        "error" if item == "spine" and path.name == "cover.pdf" else "passed")
                for item in preflight.ITEMS]

    monkeypatch.setattr(preflight, "check_interior", items)
    monkeypatch.setattr(preflight, "check_cover", items)
    monkeypatch.setattr(printshop, "page_count", lambda path: 100)
    monkeypatch.setattr(print_shop, "load_library", lambda root, edition: SimpleNamespace(is_current=False))
    monkeypatch.setattr(print_shop, "make", lambda lib, out, trim, stock: 100)
    assert print_shop.run(tmp_path, "6x9", out=tmp_path) == 1
    lines = capsys.readouterr().out.splitlines()
    assert f"{tmp_path / 'interior.pdf'}: preflight.fonts: ok: the font 'Title: FAILED: Bold' is embedded" in lines
    assert f"{tmp_path / 'cover.pdf'}: preflight.spine: fine" in lines
    assert lines[-1] == f"preflight: 1 of {2 * len(preflight.ITEMS)} items failed"


def _body_words(pdf: Path, top: float, bottom: float) -> Counter:
    """The words between ``top`` and ``bottom`` (points from each page's top): the running heads and folios left out;
    a word hyphenated at a line's end joined, hyphens and punctuation dropped (where lines break moves them)."""
    height = bottom - top
    out = subprocess.run(["pdftotext", "-r", "72", "-x", "0", "-y", str(int(top)), "-W", "2000", "-H", str(int(height)),
                          str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    out = re.sub(r"[\u2010-]\s*\n\s*", "", out).replace("\u2010", "").replace("-", "")
    return Counter(w.strip(".,;:!?()“”\"'") for w in out.split() if re.search(r"[A-Za-z]", w))


@pytest.mark.parametrize("trim", TRIMS)
def test_the_interior_has_the_words_of_the_book(printed, small_built, trim):
    """Every word of the letter book is in the interior as often, and no word the book does not have (a table's
    head, repeated where the table breaks, may add words the book has)."""
    project, out = small_built
    folder, _ = printed[trim]
    book = _body_words(out / "pdf" / pdf_name(load_library(project)), 50, 740)
    head = printshop.BLEED * 72 + printshop.HEAD * 72 - 4  # the running head's baseline sits just above the text
    interior = _body_words(folder / "interior.pdf", head, (printshop.TRIMS[trim].height - printshop.HEAD) * 72 + 13)
    assert book - interior == Counter()
    assert set(interior) <= set(book)
    text = subprocess.run(["pdftotext", str(folder / "interior.pdf"), "-"], capture_output=True, text=True,
                          check=True).stdout
    headings = [page.heading() for page in game_pages(load_library(project))]
    assert headings and [h for h in headings if h not in text] == []  # every game


@pytest.mark.parametrize("trim", TRIMS)
def test_each_section_opens_on_a_right_hand_page(printed, small_built, trim):
    folder, _ = printed[trim]
    with pikepdf.open(folder / "interior.pdf") as pdf:
        number = {page.objgen: n for n, page in enumerate(pdf.pages, 1)}
        names = pikepdf.NameTree(pdf.Root.Names.Dests)
        sections = {name: number[dest[0].objgen] for name, dest in names.items() if name.startswith("section-")}
    assert len(sections) == len(load_library(small_built[0]).book.sections)
    assert {name: page % 2 for name, page in sections.items()} == dict.fromkeys(sections, 1)


GUTTER_TABLE = [(24, 0.375), (150, 0.375), (151, 0.5), (300, 0.5), (301, 0.625), (500, 0.625), (501, 0.75),
                (700, 0.75), (701, 0.875), (828, 0.875)]


@pytest.mark.parametrize(("pages", "inches"), GUTTER_TABLE)
def test_the_gutter_grows_with_the_page_count(pages, inches):
    assert printshop.gutter(pages) == inches


def test_more_pages_than_a_paperback_holds_is_one_line():
    with pytest.raises(RulebookError, match="829 pages; a paperback has at most 828"):
        printshop.gutter(829)


SPINES = [(24, "white", 0.054048, False), (100, "white", 0.2252, False), (111, "white", 0.249972, False),
          (112, "white", 0.252224, True), (78, "cream", 0.195, False), (100, "cream", 0.25, True),
          (300, "cream", 0.75, True)]


@pytest.mark.parametrize(("pages", "stock", "width", "text"), SPINES)
def test_the_spine_is_the_page_count_times_the_paper(pages, stock, width, text):
    assert printshop.spine_width(pages, stock) == pytest.approx(width)
    assert printshop.spine_has_text(pages, stock) is text


COVER = ("import sys; from pathlib import Path; from generator.book.library import load_library; "
         "from generator.render.pdf import printshop; "
         "printshop.render_cover(load_library(Path('.')), Path(sys.argv[1]), printshop.TRIMS['6x9'], 300, 'cream')")


def test_a_cover_with_spine_text_passes_and_is_the_same_twice(tmp_path):
    """A 300-page book's cover on cream paper: the spine's text between its folds, the same bytes from two runs of
    the command (each its own process, as the command is)."""
    import sys

    lib, trim = load_library(Path(".")), printshop.TRIMS["6x9"]
    for name in ("a.pdf", "b.pdf"):
        subprocess.run([sys.executable, "-c", COVER, str(tmp_path / name)], check=True, capture_output=True)
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    results = preflight.check_cover(tmp_path / "a.pdf", trim, 300, "cream")
    assert [r for r in results if r.severity != "passed"] == []
    spine = [text for _, _, text, box in preflight.text_boxes(tmp_path / "a.pdf")
             if box[0] > 6 * 72 and box[2] < (6 + 0.75) * 72]
    assert any(lib.book.title.split()[0] in text for text in spine)


def test_an_edition_laid_out_as_printed_is_refused_in_one_line(tmp_path):
    lib = load_library(Path("."), "2026.1")
    with pytest.raises(RulebookError, match="laid out as it was printed"):
        print_shop.make(lib, tmp_path, "6x9")
    assert list(tmp_path.iterdir()) == []


def test_a_broken_book_is_one_line_a_problem_and_nothing_is_written(small_built, tmp_path, capsys):
    from generator.cli import main

    project = tmp_path / "project"
    for name in ("rules_data", "content", "templates", "schema"):
        shutil.copytree(small_built[0] / name, project / name)
    shutil.copy(small_built[0] / "mkdocs.yml", project / "mkdocs.yml")
    golf = project / "rules_data" / "golf.yaml"
    golf.write_text(golf.read_text(encoding="utf-8") + "\nbroken: [\n", encoding="utf-8")  # not YAML
    out = tmp_path / "out"
    assert main(["--root", str(project), "print-shop", "--trim", "6x9", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and re.search(r"golf\.yaml:\d+(:\d+)?: ", err) and err.splitlines()[-1].startswith("error: ")
    assert not out.exists()


def test_a_trim_the_command_does_not_know_is_refused(capsys):
    from generator.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["print-shop", "--trim", "9x12"])
    assert stopped.value.code == 2 and "invalid choice: '9x12'" in capsys.readouterr().err


def test_a_book_past_a_gutter_band_is_laid_out_again_with_the_wider_gutter(small_built, tmp_path, monkeypatch):
    """With a band ending below the small book's page count, the interior is laid out again with the next band's
    gutter, and every word keeps clear of it (the safe area's inside edge is that gutter)."""
    monkeypatch.setattr(printshop, "GUTTERS", ((printshop.LEAST_PAGES, 0.375), (828, 0.75)))
    pages, inside = printshop.render_interior(load_library(small_built[0]), tmp_path / "interior.pdf",
                                              printshop.TRIMS["6x9"])
    assert pages > printshop.LEAST_PAGES and inside == 0.75
    result = preflight.interior_safe_area(tmp_path / "interior.pdf", printshop.TRIMS["6x9"], pages)
    assert result.severity == "passed" and "gutter 0.75 in" in result.message

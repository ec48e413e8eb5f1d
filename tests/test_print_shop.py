"""rulebook print-shop: the interior and cover each print-on-demand service takes, and the preflight that checks them.

Each case's files (a service at a trim) are made once a session from the small project (``printed``); every item of
the preflight passes on them, and fails on a copy made wrong on purpose with pikepdf (``BROKEN``), each item failing
alone where it can, for each service. The words are the small project's letter book's; each section opens on a
right-hand page.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from dataclasses import replace
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

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None or not printshop.PRINTER_PROFILE.is_file(),
                                reason="poppler-utils or ghostscript (its printer profile) is not installed")

CASES = (("kdp", "6x9"), ("lulu", "5.5x8.5"))  # KDP's interior without bleed, Lulu's with it all round
STOCK = "white"


@pytest.fixture(scope="session")
def printed(small_built, tmp_path_factory) -> dict[tuple[str, str], tuple[Path, int]]:
    """Each case's folder of interior.pdf and cover.pdf, made once a session, and the interior's page count."""
    project, _ = small_built
    lib = load_library(project)
    out = {}
    for service, trim in CASES:
        folder = tmp_path_factory.mktemp(f"print-shop-{service}-{trim}")
        out[service, trim] = (folder, print_shop.make(lib, folder, trim, STOCK, service))
    return out


def _item(problem: Problem) -> str:
    return problem.check.removeprefix("preflight.")


def _results(folder: Path, service: str, trim: str, pages: int) -> dict[tuple[str, str], Problem]:
    size, chosen = printshop.TRIMS[trim], printshop.SERVICES[service]
    results = {("interior", _item(r)): r for r in preflight.check_interior(folder / "interior.pdf", size, chosen)}
    results |= {("cover", _item(r)): r for r in preflight.check_cover(folder / "cover.pdf", size, pages, STOCK, chosen)}
    return results


@pytest.mark.parametrize(("service", "trim"), CASES)
def test_every_item_passes_on_what_the_command_makes(printed, service, trim):
    folder, pages = printed[service, trim]
    results = _results(folder, service, trim, pages)
    assert [f"{key}: {r.message}" for key, r in results.items() if r.severity != "passed"] == []
    assert {item for _, item in results} == set(preflight.ITEMS)


@pytest.mark.parametrize(("service", "trim"), CASES)
def test_the_pages_are_what_the_service_takes(printed, service, trim):
    """KDP: the trim alone (nothing in the interior bleeds); Lulu: the trim and 0.125 in round it. The cover's spine
    is the service's formula within 0.01 in; every page's output intent is a printer's profile."""
    folder, pages = printed[service, trim]
    size = printshop.TRIMS[trim]
    with pikepdf.open(folder / "interior.pdf") as pdf:
        media = [float(v) for v in pdf.pages[0].mediabox]
        bleed = 0 if service == "kdp" else 0.125
        assert (media[2] - media[0]) / 72 == pytest.approx(size.width + 2 * bleed, abs=0.005)
        assert (media[3] - media[1]) / 72 == pytest.approx(size.height + 2 * bleed, abs=0.005)
        profile = bytes(pdf.Root.OutputIntents[0].DestOutputProfile.read_bytes())
        assert profile[12:16] == b"prtr"
    with pikepdf.open(folder / "cover.pdf") as pdf:
        trim_box = [float(v) for v in pdf.pages[0].obj.TrimBox]
    spine = (trim_box[2] - trim_box[0]) / 72 - 2 * size.width
    want = pages * 0.002252 if service == "kdp" else pages / 444 + 0.06  # the services' own formulas, written out
    assert spine == pytest.approx(want, abs=0.01)


# --- what a service would refuse, made on purpose: (name, file, what it does to a copy, the items that fail) -----

def _draw(pdf: pikepdf.Pdf, page: int, ops: str) -> None:
    """Draw ``ops`` on page ``page`` in the page's own coordinates (the page's content kept in a q/Q of its own)."""
    pdf.pages[page].contents_add(pikepdf.Stream(pdf, b"q\n"), prepend=True)
    pdf.pages[page].contents_add(pikepdf.Stream(pdf, f"\nQ q {ops} Q\n".encode()))


def _trim(pdf: pikepdf.Pdf, page: int) -> list[float]:
    return [float(v) for v in pdf.pages[page].obj.TrimBox]


def _no_trimbox(pdf, case) -> None:
    del pdf.pages[2].obj["/TrimBox"]


def _other_bleed(pdf, case) -> None:
    """KDP's interior given Lulu's bleed all round (the first round's mistake); Lulu's given none."""
    for page in pdf.pages:
        trim = [float(v) for v in page.obj.TrimBox]
        grow = 9 if case.service == "kdp" else 0
        box = pikepdf.Array([trim[0] - grow, trim[1] - grow, trim[2] + grow, trim[3] + grow])
        page.obj.MediaBox = page.obj.BleedBox = box
        page.obj.TrimBox = pikepdf.Array(trim)


def _wrong_trim(pdf, case) -> None:
    for page in pdf.pages:  # a quarter inch narrower: the page is set for another trim (its bleed as it was)
        for key in ("/MediaBox", "/BleedBox", "/TrimBox"):
            box = [float(v) for v in page.obj[key]]
            box[2] -= 18
            page.obj[key] = pikepdf.Array(box)


def _not_pdfx(pdf, case) -> None:
    with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
        for key in ("pdfxid:GTS_PDFXVersion", "pdfx:GTS_PDFXVersion", "pdfx:GTS_PDFXConformance"):
            if key in meta:
                del meta[key]


def _pdfx3(pdf, case) -> None:
    with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
        meta["pdfxid:GTS_PDFXVersion"] = "PDF/X-3:2003"


def _no_intent(pdf, case) -> None:
    del pdf.Root["/OutputIntents"]


def _display_intent(pdf, case) -> None:
    """The first round's intent: sRGB, a display's profile (device class 'mntr')."""
    from importlib.resources import files

    data = (files("weasyprint.pdf") / "sRGB2014.icc").read_bytes()
    pdf.Root.OutputIntents[0].DestOutputProfile = pdf.make_stream(data, N=3)


def _rgb_under_cmyk(pdf, case) -> None:
    """A DeviceRGB fill under the CMYK intent, drawn where it is safe on every page it goes on."""
    x0, y0, x1, y1 = _trim(pdf, 0)
    _draw(pdf, 0, f"0.2 0.3 0.2 rg {x1 - 72 * 3} {y0 + 72 * 3} 6 6 re f")


def _unembedded(pdf, case) -> None:
    font = next(iter(pdf.pages[0].obj.Resources.Font.values()))
    descendant = font.DescendantFonts[0] if font.get("/Subtype") == "/Type0" else font
    descriptor = descendant.FontDescriptor
    for key in ("/FontFile", "/FontFile2", "/FontFile3"):
        if key in descriptor:
            del descriptor[key]


def _shifted(dx: float, dy: float, page: int = 2):
    """Every mark of page ``page`` moved by (dx, dy) points: its words leave the safe area."""

    def shift(pdf, case) -> None:
        pdf.pages[page].contents_add(pikepdf.Stream(pdf, f"q 1 0 0 1 {dx} {dy} cm\n".encode()), prepend=True)
        pdf.pages[page].contents_add(pikepdf.Stream(pdf, b"\nQ"))

    return shift


def _into_gutter(pdf, case) -> None:
    """A rule (no text) on a right-hand page whose inside end is 4 pt into the gutter's margin."""
    x0, y0, x1, y1 = _trim(pdf, 2)
    inside = max(printshop.gutter(len(pdf.pages)), case.chosen.safe) * 72
    _draw(pdf, 2, f"0 g {x0 + inside - 4} {(y0 + y1) / 2} 72 1 re f")


def _past_the_trim(pdf, case) -> None:
    """A rule past the outside edge of a right-hand page's trim (nothing in the interior bleeds)."""
    x0, y0, x1, y1 = _trim(pdf, 2)
    _draw(pdf, 2, f"0 g {x1 - 36} {(y0 + y1) / 2} 40 1 re f")


def _at_the_head(pdf, case) -> None:
    """A rule across the page's head, touching the top of the trim (at KDP, the page's first row of pixels)."""
    x0, y0, x1, y1 = _trim(pdf, 2)
    _draw(pdf, 2, f"0 g {(x0 + x1) / 2 - 36} {y1 - 4} 72 4 re f")


def _bleeding_picture(pdf, case) -> None:
    """A grey panel from the outside edge of a right-hand page into its bleed (Lulu's page has bleed there): art
    that bleeds, not a stray mark."""
    x0, y0, x1, y1 = (float(v) for v in pdf.pages[2].obj.MediaBox)
    _draw(pdf, 2, f"0.5 g {x1 - 40} {(y0 + y1) / 2} 40 60 re f")


def _colour(pdf, case) -> None:
    """A red fill in the ICC-based sRGB space: no device colour the intent would refuse, yet a colour on grey."""
    from importlib.resources import files

    data = (files("weasyprint.pdf") / "sRGB2014.icc").read_bytes()
    space = pikepdf.Array([pikepdf.Name.ICCBased, pdf.make_stream(data, N=3)])
    resources = pdf.pages[2].obj.Resources
    resources.ColorSpace = pikepdf.Dictionary(cs0=space)
    x0, y0, x1, y1 = _trim(pdf, 2)
    _draw(pdf, 2, f"/cs0 cs 0.9 0.1 0.1 sc {(x0 + x1) / 2} {(y0 + y1) / 2} 20 20 re f")


def _faint(pdf, case) -> None:
    """A 5 % grey shading: prints faint or not at all."""
    x0, y0, x1, y1 = _trim(pdf, 2)
    _draw(pdf, 2, f"0.95 g {(x0 + x1) / 2} {(y0 + y1) / 2} 20 20 re f")


def _small_type(pdf, case) -> None:
    """A word set at 5 pt in the middle of a page (KDP's review asks for 7 pt at least)."""
    x0, y0, x1, y1 = _trim(pdf, 2)
    ops = pikepdf.parse_content_stream(pdf.pages[2])
    font = next(operands for operands, op in ops if str(op) == "Tf")
    words = next(operands for operands, op in ops if str(op) == "TJ")[0]
    text = pikepdf.unparse_content_stream([([font[0], 5], pikepdf.Operator("Tf")), ([words], pikepdf.Operator("TJ"))])
    _draw(pdf, 2, f"BT 0 g 1 0 0 1 {(x0 + x1) / 2 - 20} {(y0 + y1) / 2} Tm {text.decode('latin-1')} ET")


def _hairline(pdf, case) -> None:
    """A rule 0.3 pt wide (0.4 CSS pixels under WeasyPrint's scale, as the first round's table rules were)."""
    x0, y0, x1, y1 = _trim(pdf, 2)
    _draw(pdf, 2, f"0.75 0 0 0.75 0 0 cm 0 G 0.4 w {(x0 + x1) / 1.5} {(y0 + y1) / 1.5} m {(x0 + x1) / 1.5 + 40} "
                  f"{(y0 + y1) / 1.5} l S")


def _blank_run(pdf, case) -> None:
    """Twelve blank pages at the end (the first round's padding): KDP takes ten."""
    x0, y0, x1, y1 = _trim(pdf, 0)
    for _ in range(12):
        pdf.add_blank_page(page_size=(x1 - x0, y1 - y0))
        pdf.pages[-1].obj.TrimBox = pdf.pages[-1].obj.BleedBox = pikepdf.Array([x0, y0, x1, y1])
        pdf.pages[-1].obj.MediaBox = pikepdf.Array(pdf.pages[0].obj.MediaBox)
        pdf.pages[-1].obj.TrimBox = pdf.pages[0].obj.TrimBox
        pdf.pages[-1].obj.BleedBox = pdf.pages[0].obj.BleedBox


def _odd(pdf, case) -> None:
    del pdf.pages[-1]


def _too_few(pdf, case) -> None:
    while len(pdf.pages) > case.chosen.least_pages - 2:
        del pdf.pages[-1]


def _link(page: int):
    """A link on page ``page``."""

    def link(pdf, case) -> None:
        pdf.pages[page].obj["/Annots"] = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[72, 72, 144, 90],
            A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String("https://example.org/"))))]))

    return link


def _field(pdf, case) -> None:
    field = pdf.make_indirect(pikepdf.Dictionary(FT=pikepdf.Name.Tx, T=pikepdf.String("score"),
                                                 Rect=[72, 72, 144, 90]))
    pdf.Root["/AcroForm"] = pikepdf.Dictionary(Fields=[field])


def _javascript(pdf, case) -> None:
    script = pdf.make_indirect(pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS=pikepdf.String("app.alert(1)")))
    pdf.Root.Names = pikepdf.Dictionary(JavaScript=pikepdf.Dictionary(Names=[pikepdf.String("a"), script]))


def _attachment(pdf, case) -> None:
    pdf.attachments["notes.txt"] = pikepdf.AttachedFileSpec(pdf, b"an attached file", mime_type="text/plain")


def _narrower_spine(pdf, case) -> None:
    page = pdf.pages[0].obj
    for key in ("/MediaBox", "/BleedBox", "/TrimBox"):
        box = [float(v) for v in page[key]]
        box[2] -= 0.05 * 72  # a twentieth of an inch less spine than the page count makes (the front cut, its art
        page[key] = pikepdf.Array(box)  # still to the bleed)


def _two_covers(pdf, case) -> None:
    pdf.pages.append(pdf.pages[0])


def _cut_back(pdf, case) -> None:
    """The cover's art stopped at the trim on the left: the bleed painted white."""
    x0, y0, x1, y1 = _trim(pdf, 0)
    _draw(pdf, 0, f"/srgb cs 1 1 1 sc {x0 - 9} {y0 - 9} 9 {y1 - y0 + 18} re f")


def _dark_panel(pdf, case) -> None:
    """A dark panel where KDP prints its barcode (the back's foot, by the spine)."""
    x0, y0, x1, y1 = _trim(pdf, 0)
    width = case.size.width * 72
    _draw(pdf, 0, f"/srgb cs 0.05 0.05 0.05 sc {x0 + width - 0.25 * 72 - 100} {y0 + 0.25 * 72 + 20} 80 40 re f")


def _onto_thin_spine(pdf, case) -> None:
    """A word set on the spine, too thin for text in the small book."""
    x0, y0, x1, y1 = _trim(pdf, 0)
    ops = pikepdf.parse_content_stream(pdf.pages[0])
    font = next(operands for operands, op in ops if str(op) == "Tf")  # the cover's first font, and its first words
    words = next(operands for operands, op in ops if str(op) == "TJ")[0]
    text = pikepdf.unparse_content_stream([([font[0], 7], pikepdf.Operator("Tf")), ([words], pikepdf.Operator("TJ"))])
    x = x0 + case.size.width * 72 + 1
    _draw(pdf, 0, f"BT 0 1 -1 0 {x + 4} {(y0 + y1) / 2} Tm {text.decode('latin-1')} ET")


def _stroked_past(pdf, case) -> None:
    """A word whose glyph box is inside the front's safe area but whose thick outline (text stroked 16 pt wide)
    inks past its top edge: found on the ink, not the boxes."""
    x0, y0, x1, y1 = _trim(pdf, 0)
    ops = pikepdf.parse_content_stream(pdf.pages[0])
    font = next(operands for operands, op in ops if str(op) == "Tf")
    words = next(operands for operands, op in ops if str(op) == "TJ")[0]
    text = pikepdf.unparse_content_stream([([font[0], 12], pikepdf.Operator("Tf")), ([words], pikepdf.Operator("TJ"))])
    top = y1 - case.chosen.cover_safe * 72 - 12  # the baseline: the glyphs' boxes end just inside the safe area
    _draw(pdf, 0, f"BT 2 Tr 16 w /srgb CS 1 1 1 SC 1 0 0 1 {x1 - 4 * 72} {top} Tm {text.decode('latin-1')} ET")


BROKEN = [
    ("missing TrimBox", "interior", _no_trimbox, {"boxes", "bleed"}),
    ("the other service's bleed", "interior", _other_bleed, {"bleed"}),
    ("another trim", "interior", _wrong_trim, {"boxes", "ink"}),  # its text no longer fits the narrower page
    ("not PDF/X", "interior", _not_pdfx, {"pdfx"}),
    ("PDF/X-3, not X-4", "cover", _pdfx3, {"pdfx"}),
    ("no output intent", "interior", _no_intent, {"output-intent"}),
    ("no output intent", "cover", _no_intent, {"output-intent"}),
    ("a display's profile as the intent", "interior", _display_intent, {"output-intent"}),
    ("DeviceRGB under a CMYK intent", "cover", _rgb_under_cmyk, {"output-intent"}),
    ("DeviceRGB on a grey interior", "interior", _rgb_under_cmyk, {"output-intent", "colour"}),
    ("unembedded font", "interior", _unembedded, {"fonts"}),
    ("unembedded font", "cover", _unembedded, {"fonts"}),
    ("words past the outside edge", "interior", _shifted(0.3 * 72, 0), {"safe-area", "ink"}),
    ("words in the gutter", "interior", _shifted(-0.3 * 72, 0), {"safe-area", "ink"}),
    ("words past the foot", "interior", _shifted(0, -0.6 * 72), {"safe-area", "ink"}),
    ("a rule 4 pt into the gutter", "interior", _into_gutter, {"ink"}),
    ("a rule past the trim", "interior", _past_the_trim, {"ink"}),
    ("a rule at the head of the page", "interior", _at_the_head, {"ink"}),
    ("a colour on a grey page", "interior", _colour, {"colour"}),
    ("a 5 % tint", "interior", _faint, {"colour"}),
    ("a 0.3 pt rule", "interior", _hairline, {"colour"}),
    ("a word at 5 pt", "interior", _small_type, {"type"}),
    ("odd page count", "interior", _odd, {"pages"}),
    ("fewer pages than the service binds", "interior", _too_few, {"pages"}),
    ("a link", "interior", _link(1), {"annotations"}),
    ("a form field", "interior", _field, {"annotations"}),
    ("a link", "cover", _link(0), {"annotations"}),
    ("JavaScript", "interior", _javascript, {"file"}),
    ("an attached file", "cover", _attachment, {"file"}),
    ("wrong spine", "cover", _narrower_spine, {"spine"}),
    ("two pages", "cover", _two_covers, {"spine"}),
    ("art cut back to the trim", "cover", _cut_back, {"ink"}),
    ("words on a thin spine", "cover", _onto_thin_spine, {"safe-area"}),
    ("text inked past the front's safe area", "cover", _stroked_past, {"safe-area"}),
]
# What one service states and another does not: KDP's limit on blank pages and its barcode zone.
LULU_ONLY = [  # Lulu's interior bleeds, so art may run into its bleed; KDP's has none, so the same panel is past the trim
    ("a picture bleeding off the outside edge", "interior", _bleeding_picture, set()),
]
KDP_ONLY = [
    ("twelve blank pages at the end", "interior", _blank_run, {"blanks"}),
    ("a dark panel in the barcode's zone", "cover", _dark_panel, {"barcode"}),
]
SHORT = 4  # the pages a broken interior keeps: the title page, the contents, a section's first pages
BROKEN_CASES = ([(case, b) for case in CASES for b in BROKEN] + [(("kdp", "6x9"), b) for b in KDP_ONLY]
                + [(("lulu", "5.5x8.5"), b) for b in LULU_ONLY] + [(("kdp", "6x9"), (
                    "a picture past the trim (no bleed)", "interior", _bleeding_picture, {"ink"}))])


@pytest.mark.parametrize(("case", "broken"), BROKEN_CASES,
                         ids=[f"{c[0]}-{c[1]}: {b[1]}: {b[0]}" for c, b in BROKEN_CASES])
def test_a_file_made_wrong_fails_its_item(printed, tmp_path, case, broken):
    """Each broken interior is the made one's first SHORT pages (the service's least pages made that, so only what
    is broken fails): every page is rendered, and a few pages show each check as well as the whole book."""
    (service, trim), (_, which, breaks, fails) = case, broken
    folder, pages = printed[case]
    chosen, size = printshop.SERVICES[service], printshop.TRIMS[trim]
    if which == "interior":
        chosen = replace(chosen, least_pages=SHORT)
    with pikepdf.open(folder / f"{which}.pdf") as pdf:
        if which == "interior":
            del pdf.pages[SHORT:]
        breaks(pdf, SimpleNamespace(service=service, chosen=chosen, size=size))
        pdf.save(tmp_path / f"{which}.pdf")
    results = (preflight.check_interior(tmp_path / "interior.pdf", size, chosen) if which == "interior"
               else preflight.check_cover(tmp_path / "cover.pdf", size, pages, STOCK, chosen))
    failed = {_item(r): r.message for r in results if r.severity == "error"}
    assert set(failed) == fails, failed  # the item that checks it, and no other


@pytest.mark.parametrize(("service", "trim"), CASES)
def test_an_encrypted_file_is_one_line_and_exit_1(printed, tmp_path, capsys, service, trim):
    from generator.cli import main

    folder, _ = printed[service, trim]
    with pikepdf.open(folder / "interior.pdf") as pdf:
        pdf.save(tmp_path / "interior.pdf", encryption=pikepdf.Encryption(owner="o", user="u"))
    assert main(["print-shop", "--check", str(tmp_path / "interior.pdf"), str(folder / "cover.pdf"), "--trim", trim,
                 "--service", service]) == 1
    out = capsys.readouterr()
    failed = [line for line in out.out.splitlines() if ": preflight." in line and ": ok: " not in line]
    assert "Traceback" not in out.err and len(failed) == 2, failed  # the interior, and the cover it sizes
    assert "interior.pdf: preflight.file: the file is encrypted" in failed[0]


def test_a_file_that_is_no_pdf_or_has_no_pages_is_one_line(printed, tmp_path, capsys):
    from generator.cli import main

    folder, _ = printed["kdp", "6x9"]
    (tmp_path / "notes.pdf").write_text("not a PDF", encoding="utf-8")
    pikepdf.new().save(tmp_path / "empty.pdf")
    for interior, cover, said in ((tmp_path / "notes.pdf", folder / "cover.pdf", "notes.pdf: preflight.file: not a PDF "),
                                  (folder / "interior.pdf", tmp_path / "empty.pdf",
                                   "empty.pdf: preflight.file: the file has no pages"),
                                  (tmp_path / "missing.pdf", folder / "cover.pdf", "missing.pdf: preflight.file: ")):
        assert main(["print-shop", "--check", str(interior), str(cover), "--trim", "6x9"]) == 1
        out = capsys.readouterr()
        failed = [line for line in out.out.splitlines() if ": preflight." in line and ": ok: " not in line]
        assert out.err == "" and said in failed[0] and "0x" not in failed[0], (out, failed)


def test_check_passes_the_files_the_command_made_and_fails_a_rule_in_the_gutter(printed, tmp_path, capsys):
    from generator.cli import main

    folder, _ = printed["kdp", "6x9"]
    args = ["--trim", "6x9", "--service", "kdp"]
    assert main(["print-shop", "--check", str(folder / "interior.pdf"), str(folder / "cover.pdf"), *args]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("preflight: all ")
    with pikepdf.open(folder / "interior.pdf") as pdf:
        _into_gutter(pdf, SimpleNamespace(chosen=printshop.SERVICES["kdp"]))
        pdf.save(tmp_path / "interior.pdf")
    assert main(["print-shop", "--check", str(tmp_path / "interior.pdf"), str(folder / "cover.pdf"), *args]) == 1
    failed = [line for line in capsys.readouterr().out.splitlines() if ": preflight." in line and ": ok: " not in line]
    assert len(failed) == 1 and "preflight.ink: page 3: ink " in failed[0] and "inside edge" in failed[0]


def test_the_command_keeps_the_last_good_files_when_the_preflight_fails(printed, tmp_path, monkeypatch, capsys):
    folder, pages = printed["kdp", "6x9"]
    out = tmp_path / "out"
    out.mkdir()
    for name in print_shop.FILES:  # the last good pair
        shutil.copy(folder / name, out / name)
    before = {name: (out / name).read_bytes() for name in print_shop.FILES}

    def make_odd(lib, scratch, trim, stock, service, grey):
        with pikepdf.open(folder / "interior.pdf") as pdf:
            _odd(pdf, None)
            pdf.save(scratch / "interior.pdf")
        shutil.copy(folder / "cover.pdf", scratch / "cover.pdf")
        return pages - 1

    monkeypatch.setattr(print_shop, "load_library", lambda root, edition: SimpleNamespace(is_current=False))
    monkeypatch.setattr(print_shop, "make", make_odd)
    assert print_shop.run(tmp_path, "6x9", out=out) == 1
    lines = capsys.readouterr().out.splitlines()
    failed = [line for line in lines if ": preflight." in line and ": ok: " not in line]
    assert len(failed) == 1 and f"{out / 'interior.pdf'}: preflight.pages: " in failed[0]
    assert lines[-3] == f"preflight: 1 of {len(preflight.INTERIOR_ITEMS) + len(preflight.COVER_ITEMS)} items failed"
    assert lines[-2] == "the cover: no spine text: the spine is under 79 pages"  # which, said
    assert {name: (out / name).read_bytes() for name in print_shop.FILES} == before
    assert sorted(p.name for p in out.iterdir()) == sorted(print_shop.FILES)  # the scratch folder gone

    def make_good(lib, scratch, trim, stock, service, grey):
        for name in print_shop.FILES:
            shutil.copy(folder / name, scratch / name)
        return pages

    (out / "interior.pdf").write_bytes(b"stale")
    monkeypatch.setattr(print_shop, "make", make_good)
    assert print_shop.run(tmp_path, "6x9", out=out) == 0
    assert (out / "interior.pdf").read_bytes() == (folder / "interior.pdf").read_bytes()


def test_the_command_counts_the_items_that_failed_not_the_words_it_printed(tmp_path, capsys, monkeypatch):
    """An item that passed whose words read like a failure (': FAILED: ', quoted from a file) is counted as passed, and
    one that failed as failed, whatever it says: the command counts problems, never its own printed lines."""
    said = {"preflight.fonts": "the font 'Title: FAILED: Bold' is embedded"}

    def items(path: Path, *args) -> list[Problem]:
        return [Problem(str(path), 0, f"preflight.{item}", said.get(f"preflight.{item}", "fine"),
                        "error" if item == "spine" and path.name == "cover.pdf" else "passed")
                for item in preflight.ITEMS]

    monkeypatch.setattr(preflight, "check_interior", items)
    monkeypatch.setattr(preflight, "check_cover", items)
    monkeypatch.setattr(preflight, "pages_in", lambda path: 100)
    assert print_shop.check(tmp_path / "interior.pdf", tmp_path / "cover.pdf", "6x9", "kdp") == 1
    lines = capsys.readouterr().out.splitlines()
    assert f"{tmp_path / 'interior.pdf'}: preflight.fonts: ok: the font 'Title: FAILED: Bold' is embedded" in lines
    assert f"{tmp_path / 'cover.pdf'}: preflight.spine: fine" in lines
    assert lines[-1] == f"preflight: 1 of {2 * len(preflight.ITEMS)} items failed"  # the stand-ins' items, counted


@pytest.mark.parametrize(("service", "trim"), CASES)
def test_one_title_on_the_title_page_the_cover_and_in_the_metadata(printed, small_built, service, trim):
    """The title as the title page prints it, the same on the cover and in both files' metadata; the edition's
    label apart, as the subtitle."""
    folder, _ = printed[service, trim]
    lib = load_library(small_built[0])
    title = printshop.print_title(lib)

    def text(name: str, *args: str) -> str:
        out = subprocess.run(["pdftotext", *args, str(folder / name), "-"], capture_output=True, text=True, check=True)
        return " ".join(out.stdout.split())

    assert f"{title} {lib.edition.label}" in text("interior.pdf", "-l", "1")  # the title page, its subtitle below
    cover = text("cover.pdf")
    assert cover.count(title) == 2 and cover.count(lib.edition.label) == 2  # the back and the front
    for name in print_shop.FILES:
        info = subprocess.run(["pdfinfo", str(folder / name)], capture_output=True, text=True, check=True).stdout
        assert re.search(rf"^Title: +{re.escape(title)}$", info, re.M), info


def test_a_one_game_book_reaches_the_least_pages_with_note_pages(tmp_path):
    """A book of one game at Lulu's largest trim is short of its 32 pages: it is brought there with ruled note pages,
    never a run of blanks."""
    from tests.conftest import small_project

    project = small_project(tmp_path / "one", games=("golf",))
    out = tmp_path / "out"
    pages = print_shop.make(load_library(project), out, "8.5x11", STOCK, "lulu")
    assert pages == 32
    results = {_item(r): r for r in preflight.check_interior(out / "interior.pdf", printshop.TRIMS["8.5x11"],
                                                             printshop.SERVICES["lulu"])}
    assert [r.message for r in results.values() if r.severity != "passed"] == []
    text = subprocess.run(["pdftotext", str(out / "interior.pdf"), "-"], capture_output=True, text=True,
                          check=True).stdout.split("\f")
    notes = [n for n, page in enumerate(text, 1) if page.strip() == printshop.words()["notes"]]
    assert len(notes) >= 4 and notes == list(range(notes[0], notes[0] + len(notes)))  # at the end, in a row
    assert "at most 1 blank pages in a row, 0 at the end" in results["blanks"].message


def _body_words(pdf: Path, top: float, bottom: float) -> Counter:
    """The words between ``top`` and ``bottom`` (points from each page's top): the running heads and folios left out;
    a word hyphenated at a line's end joined, hyphens and punctuation dropped (where lines break moves them)."""
    height = bottom - top
    out = subprocess.run(["pdftotext", "-r", "72", "-x", "0", "-y", str(int(top)), "-W", "2000", "-H", str(int(height)),
                          str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    out = re.sub(r"[\u2010-]\s*\n\s*", "", out).replace("\u2010", "").replace("-", "")
    return Counter(w.strip(".,;:!?()“”\"'") for w in out.split() if re.search(r"[A-Za-z]", w))


@pytest.mark.parametrize(("service", "trim"), CASES)
def test_the_interior_has_the_words_of_the_book(printed, small_built, service, trim):
    """Every word of the letter book is in the interior as often, and no word the book does not have but the note
    pages' heading (a table's head, repeated where the table breaks, may add words the book has)."""
    project, out = small_built
    folder, _ = printed[service, trim]
    book = _body_words(out / "pdf" / pdf_name(load_library(project)), 50, 740)
    bleed = printshop.BLEED if printshop.SERVICES[service].interior_bleed == "all" else 0
    head = bleed * 72 + printshop.HEAD * 72 - 4  # the running head's baseline sits just above the text
    interior = _body_words(folder / "interior.pdf", head,
                           (bleed + printshop.TRIMS[trim].height - printshop.HEAD) * 72 + 4)
    interior.pop(printshop.words()["notes"], None)
    assert book - interior == Counter()
    assert set(interior) <= set(book)
    text = subprocess.run(["pdftotext", str(folder / "interior.pdf"), "-"], capture_output=True, text=True,
                          check=True).stdout
    headings = [page.heading() for page in game_pages(load_library(project))]
    assert headings and [h for h in headings if h not in text] == []  # every game


@pytest.mark.parametrize(("service", "trim"), CASES)
def test_each_section_opens_on_a_right_hand_page(printed, small_built, service, trim):
    folder, _ = printed[service, trim]
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


# (service, pages, paper, the spine's width by the service's own formula, the spine's type size or None)
SPINES = [("kdp", 24, "white", 0.054048, None), ("kdp", 100, "white", 0.2252, None),
          ("kdp", 150, "white", 0.3378, 9.19), ("kdp", 78, "cream", 0.195, None), ("kdp", 300, "cream", 0.75, 11.0),
          ("kdp", 120, "cream", 0.3, 7.56), ("kdp", 119, "white", 0.267988, None),
          ("lulu", 32, "white", 32 / 444 + 0.06, None), ("lulu", 104, "cream", 104 / 444 + 0.06, 7.31),
          ("lulu", 96, "white", 96 / 444 + 0.06, None), ("lulu", 300, "white", 300 / 444 + 0.06, 11.0)]


@pytest.mark.parametrize(("service", "pages", "stock", "width", "size"), SPINES)
def test_the_spine_is_the_services_formula_and_its_text_at_least_7_pt(service, pages, stock, width, size):
    chosen = printshop.SERVICES[service]
    assert printshop.spine_width(pages, stock, chosen) == pytest.approx(width)
    assert printshop.spine_type(pages, stock, chosen) == (pytest.approx(size, abs=0.01) if size else None)


# (the spine's room along it, in; what it says) for the Metzker book's title and authors at 11 pt
SPINE_WORDS = [(8.25, "the title and author on the spine at 11 pt"), (4.0, "the title on the spine at 11 pt"),
               (2.0, "the title shortened to 'Metzker Book Of Card…' on the spine at 11 pt"),
               (0.3, "no spine text: not one word of the title fits along it")]


@pytest.mark.parametrize(("room", "said"), SPINE_WORDS)
def test_a_title_too_long_for_the_spine_is_shortened_or_left_off_and_said(room, said):
    lib, kdp = load_library(Path(".")), printshop.SERVICES["kdp"]
    trim = printshop.Trim("test", 6.0, room + 2 * printshop.COVER_PADDING)
    words, size, message = printshop.spine_words(lib, trim, 300, "cream", kdp)
    assert message == said
    assert printshop.text_length(words, size) <= room


def test_a_service_whose_spine_could_not_be_confirmed_is_refused_in_one_line(tmp_path):
    with pytest.raises(RulebookError, match="IngramSpark's spine width per paper could not be confirmed"):
        print_shop.make(load_library(Path(".")), tmp_path, "6x9", STOCK, "ingram")
    assert list(tmp_path.iterdir()) == []


COVER = ("import sys; from pathlib import Path; from generator.book.library import load_library; "
         "from generator.render.pdf import printshop; "
         "printshop.render_cover(load_library(Path('.')), Path(sys.argv[1]), printshop.TRIMS['6x9'], 300, 'cream', "
         "printshop.SERVICES['kdp'])")


def test_a_cover_with_spine_text_passes_and_is_the_same_twice(tmp_path):
    """A 300-page book's cover on cream paper: the spine's text between its folds, the same bytes from two runs of
    the command (each its own process, as the command is)."""
    import sys

    lib, trim, kdp = load_library(Path(".")), printshop.TRIMS["6x9"], printshop.SERVICES["kdp"]
    for name in ("a.pdf", "b.pdf"):
        subprocess.run([sys.executable, "-c", COVER, str(tmp_path / name)], check=True, capture_output=True)
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    results = preflight.check_cover(tmp_path / "a.pdf", trim, 300, "cream", kdp)
    assert [r.message for r in results if r.severity != "passed"] == []
    opened = preflight._open(tmp_path / "a.pdf")
    try:
        spine = [text for _, _, text, box in preflight.text_boxes(opened)
                 if box[0] > 6 * 72 and box[2] < (6 + 0.75) * 72]
    finally:
        opened.close()
    words, size, said = printshop.spine_words(lib, trim, 300, "cream", kdp)
    assert said == f"the title and author on the spine at {size:g} pt" and size >= 7
    assert " ".join(spine).split() == words.split()  # the title and the author, as the cover says them


def test_an_edition_laid_out_as_printed_is_refused_in_one_line(tmp_path):
    lib = load_library(Path("."), "2026.1")
    with pytest.raises(RulebookError, match="laid out as it was printed"):
        print_shop.make(lib, tmp_path / "out", "6x9")
    assert list((tmp_path / "out").iterdir()) == []


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
    kdp = printshop.SERVICES["kdp"]
    monkeypatch.setattr(printshop, "GUTTERS", ((kdp.least_pages, 0.375), (828, 0.75)))
    monkeypatch.setattr(preflight, "gutter", printshop.gutter)
    pages, inside = printshop.render_interior(load_library(small_built[0]), tmp_path / "interior.pdf",
                                              printshop.TRIMS["6x9"], kdp)
    assert pages > kdp.least_pages and inside == 0.75
    results = {_item(r): r for r in preflight.check_interior(tmp_path / "interior.pdf", printshop.TRIMS["6x9"], kdp)}
    assert results["safe-area"].severity == "passed" and "gutter 0.75 in" in results["safe-area"].message
    assert results["ink"].severity == "passed" and "0.75 in on the gutter" in results["ink"].message, results["ink"].message


def _tiny(path: Path, ops: bytes) -> None:
    """A one-page PDF of ``ops``, with the ICC-based sRGB space the writer defines (``/srgb``)."""
    from importlib.resources import files

    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 200))
    icc = pdf.make_stream((files("weasyprint.pdf") / "sRGB2014.icc").read_bytes(), N=3)
    pdf.pages[0].obj.Resources = pikepdf.Dictionary(ColorSpace=pikepdf.Dictionary(srgb=[pikepdf.Name.ICCBased, icc]))
    pdf.pages[0].obj.Contents = pdf.make_stream(ops)
    pdf.save(path)


PAINTED = b"0.121569 0.301961 0.168627 rg 10 10 50 50 re f 0.952941 0.945098 0.909804 rg 70 10 50 50 re f " \
          b"0.2 0.2 0.2 RG 0.4 w 10 100 m 190 100 l S q 0.75 0 0 0.75 0 0 cm 0.8 w 10 150 m 190 150 l S Q"


@pytest.mark.parametrize(("grey", "want"), [
    # The green's lightness; 5 % made 10 %; a rule 0.75 pt on the page, under a scale too (0.8 x 0.75 = 0.6 pt)
    (True, [("g", [0.2662]), ("g", [0.9]), ("G", [0.2]), ("w", [0.75]), ("w", [1.0])]),
    (False, [("cs", ["/srgb"]), ("sc", [0.121569, 0.301961, 0.168627]), ("cs", ["/srgb"]),
             ("sc", [0.952941, 0.945098, 0.909804]), ("CS", ["/srgb"]), ("SC", [0.2, 0.2, 0.2]), ("w", [0.75]),
             ("w", [1.0])]),
])
def test_the_colours_become_greys_or_managed_colours_and_the_intent_a_printers(tmp_path, grey, want):
    path = tmp_path / "page.pdf"
    _tiny(path, PAINTED)
    printshop.finish(path, grey, "The One Title 2026")
    with pikepdf.open(path) as pdf:
        assert str(pdf.docinfo.Title) == "The One Title 2026"
        assert pdf.open_metadata()["dc:title"] == "The One Title 2026"
        ops = [(str(op), [float(v) if not isinstance(v, pikepdf.Name) else str(v) for v in operands])
               for operands, op in pikepdf.parse_content_stream(pdf.pages[0])
               if str(op) in ("g", "G", "cs", "CS", "sc", "SC", "rg", "RG", "w")]
        assert [(op, [pytest.approx(v, abs=0.001) if isinstance(v, float) else v for v in args]) for op, args in ops] \
            == want
        intent = pdf.Root.OutputIntents[0]
        assert bytes(intent.DestOutputProfile.read_bytes())[12:20] == b"prtrCMYK"
    opened = preflight._open(path)
    try:
        assert preflight.colour_objects(opened, grey) is None  # no device colour, no faint tint
        assert preflight.output_intent(opened, preflight.painting(opened)["spaces"]).severity == "passed"
    finally:
        opened.close()


def _bleeding(pdf: pikepdf.Pdf, sides: str) -> None:
    """Every page given 0.125 in of bleed on ``sides`` ("outside": the outside edge, top and bottom; "inside": the
    gutter, top and bottom), its TrimBox kept."""
    for n, page in enumerate(pdf.pages, 1):
        x0, y0, x1, y1 = (float(v) for v in page.obj.TrimBox)
        right_hand = n % 2 == 1
        grow_right = (sides == "outside") == right_hand
        box = pikepdf.Array([x0 - (0 if grow_right else 9), y0 - 9, x1 + (9 if grow_right else 0), y1 + 9])
        page.obj.MediaBox = page.obj.BleedBox = box


@pytest.mark.parametrize(("sides", "passes"), [("outside", True), ("inside", False)])
def test_kdp_takes_bleed_on_the_outside_edge_top_and_bottom_never_the_gutter(printed, sides, passes):
    folder, _ = printed["kdp", "6x9"]
    with pikepdf.open(folder / "interior.pdf") as pdf:
        _bleeding(pdf, sides)
        result = preflight.bleed(preflight.Opened(folder, pdf, None), "none", printshop.BLEED)
    assert (result.severity == "passed") is passes, result.message
    assert passes or "none in the gutter" in result.message


def test_a_colour_interior_may_carry_colour_a_grey_one_may_not(printed, tmp_path):
    """--interior colour: a colour on a page passes the colour item (still no device colour the intent cannot
    print); the same file checked as black and white fails it."""
    folder, _ = printed["kdp", "6x9"]
    kdp = replace(printshop.SERVICES["kdp"], least_pages=SHORT)
    with pikepdf.open(folder / "interior.pdf") as pdf:
        del pdf.pages[SHORT:]
        _colour(pdf, None)
        pdf.save(tmp_path / "interior.pdf")
    for grey in (False, True):
        results = {_item(r): r for r in preflight.check_interior(tmp_path / "interior.pdf", printshop.TRIMS["6x9"],
                                                                 kdp, grey=grey)}
        assert [k for k, r in results.items() if r.severity != "passed"] == ([] if not grey else ["colour"])


@pytest.mark.parametrize(("service", "trim"), CASES)
def test_no_heading_ends_a_page_of_the_interior(printed, service, trim):
    """The print shop's interior keeps each heading with what follows it, as the book does (tests/test_headings_kept.py:
    the next thing after each heading or table caption is on its page, read from the interior's structure tree)."""
    from tests.pagetext import HEADING_TAGS, _marked, lone_headings

    folder, _ = printed[service, trim]
    assert sum(bool(set(path) & HEADING_TAGS) for path, _ in _marked(folder / "interior.pdf")) > 20  # it is tagged
    assert lone_headings(folder / "interior.pdf") == []

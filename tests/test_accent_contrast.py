"""The book's colour must carry white text (issue 49): ``book.accent_contrast`` at book.yaml's line, with the contrast
ratio and a darker colour that reads; WCAG 2's formula, proven on the ratios WebAIM's contrast checker gives."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from generator.book.colour import AA_NORMAL, ON_WHITE, SHADES, WHITE, contrast, darkened, mix, shade
from generator.book.library import load_library
from generator.checks import run_checks
from generator.cli import main
from tests.checkfix import make_project
from tests.conftest import ROOT

FIXTURE = yaml.safe_load((Path(__file__).parent / "fixtures" / "checks" / "book.accent_contrast.yaml")
                         .read_text(encoding="utf-8"))

# A colour, its contrast with white (to two places, as WebAIM's contrast checker gives it; None where no reference is
# at hand), and whether white text reads on it (AA).
COLOURS = {
    "yellow": ("#ffff00", 1.07, False),
    "white": ("#ffffff", 1.0, False),
    "light grey": ("#d3d3d3", 1.5, False),
    "red": ("#ff0000", 4.0, False),
    "grey just under AA": ("#777777", 4.48, False),
    "grey just over AA": ("#767676", 4.54, True),
    "the Metzker green": ("#1f4d2b", None, True),
    "init's blue": ("#1f5f8b", None, True),
    "navy": ("#000080", 16.01, True),
    "blue": ("#0000ff", 8.59, True),
    "black": ("#000000", 21.0, True),
}


def _findings(tmp_path: Path, accent: str, book: str = "") -> tuple[list, str]:
    project = make_project(tmp_path / "project", {**FIXTURE, "accent": accent, "book": book})
    found = [f for f in run_checks(load_library(project), only=["book.accent_contrast"])]
    return found, (project / "rules_data" / "book.yaml").read_text(encoding="utf-8")


def _line_of(text: str, key: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(f"{key}:"))


@pytest.mark.parametrize("name", sorted(COLOURS))
def test_white_text_reads_on_the_accent_only_at_aa_contrast(name: str, tmp_path: Path) -> None:
    colour, ratio, reads = COLOURS[name]
    assert ratio is None or round(contrast(colour, WHITE), 2) == pytest.approx(ratio, abs=0.005)
    found, text = _findings(tmp_path, colour)
    if reads:
        assert found == []
        return
    [finding] = found
    assert (finding.path, finding.line, finding.severity) == ("rules_data/book.yaml", _line_of(text, "accent"),
                                                                 "warning")
    fix = darkened(colour)
    assert f"{contrast(colour, WHITE):.2f}:1" in finding.message and f"write {fix}" in finding.message
    # The fix reads, and is the least darkening that does (one step lighter does not).
    assert contrast(fix, WHITE) >= AA_NORMAL
    share = next(s for s in range(1, 101) if mix(colour, "#000000", s / 100) == fix)
    assert share == 1 or contrast(mix(colour, "#000000", (share - 1) / 100), WHITE) < AA_NORMAL
    # Put in its place, the fix passes.
    assert _findings(tmp_path / "fixed", fix)[0] == []


# A shade book.yaml gives: (accent_shades, the shade the finding names, if any). Only the shades white text is printed
# on or that are text on the white page are judged against white.
SHADE_CASES = {
    "a light dark shade": ('{dark: "#c0c0c0"}', "dark"),
    "a light link shade": ('{link: "#ffd700"}', "link"),
    "a light tint for the dark page": ('{link_on_dark: "#9ad7a8"}', None),
    "a light hover shade": ('{light: "#e0e0e0"}', None),
    "the Metzker shades": ('{light: "#2e6b3d", dark: "#163a20", link: "#1e6b35", link_on_dark: "#9ad7a8"}', None),
}


@pytest.mark.parametrize("case", sorted(SHADE_CASES))
def test_a_shade_book_yaml_gives_is_judged_at_its_own_line(case: str, tmp_path: Path) -> None:
    shades, named = SHADE_CASES[case]
    found, text = _findings(tmp_path, "#1f4d2b", f"accent_shades: {shades}\n")
    if named is None:
        assert found == []
        return
    [finding] = found
    assert finding.line == _line_of(text, "accent_shades") and f"accent_shades.{named}" in finding.message


@pytest.mark.parametrize("name", sorted(COLOURS))
def test_a_worked_out_shade_reads_whenever_the_accent_does(name: str) -> None:
    # Why the check judges only the shades book.yaml gives: the rest are the accent or darker.
    colour = COLOURS[name][0]
    for shade_name in ON_WHITE:
        assert SHADES[shade_name][0] in ("#000000", "#ffffff")
        assert contrast(shade(colour, shade_name), WHITE) >= contrast(colour, WHITE) - 1e-9


def test_the_metzker_book_and_a_book_from_init_pass(library, tmp_path: Path) -> None:
    assert [f for f in run_checks(library, only=["book.accent_contrast"])] == []
    book = tmp_path / "book"
    assert main(["init", str(book), "--title", "Pine Street Games", "--pipeline", "rulebook==0.1.0"]) == 0
    assert run_checks(load_library(book), only=["book.accent_contrast"]) == []
    assert load_library(ROOT).book.accent == library.book.accent


def test_the_print_shops_cover_is_in_the_books_colour(tmp_path: Path) -> None:
    from generator.render.pdf.printshop import SERVICES, TRIMS, cover_html

    book = tmp_path / "book"
    assert main(["init", str(book), "--title", "Pine Street Games", "--pipeline", "rulebook==0.1.0"]) == 0
    data = book / "rules_data" / "book.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace('accent: "#1f5f8b"', 'accent: "#8E720E"'), encoding="utf-8")
    html = cover_html(load_library(book), next(iter(TRIMS.values())), 120, "white", SERVICES["kdp"])
    assert "background: #8e720e;" in html and "#1f4d2b" not in html


@pytest.mark.parametrize("shades", ["", 'accent_shades: {link: "#0b0ffd", link_on_dark: "#ffd7aa"}\n'])
def test_a_colour_is_no_word_to_spell(shades: str, tmp_path: Path) -> None:
    project = make_project(tmp_path / "project", {**FIXTURE, "accent": "#0b0ffd", "book": shades})
    found = run_checks(load_library(project), only=["spelling.unknown_word", "book.accent_contrast"])
    assert [(f.check, f.message) for f in found if f.path == "rules_data/book.yaml"] == []

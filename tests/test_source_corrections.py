"""A mistake in a source the book never printed is corrected with its citation, never as an erratum (issue 36).

Each correction says what the source says, what the book prints instead, and why; the source must really
say it, the page must print the correction and the note, and the errata page must not list it.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess

import pytest

from generator.book.library import load_library
from generator.render.views.describe import pdf_name
from generator.render.views.pages import game_page
from tests.conftest import CURRENT, ROOT
from tests.test_fidelity import SEEDS, needs_seeds


def _corrections():
    lib = load_library(ROOT, CURRENT)
    out = []
    for gs in lib.ordered_games():
        cited = [(None, s) for s in gs.game.sources] + [(v, s) for v in gs.game.variants if lib.includes(v)
                                                         for s in v.sources]
        out += [(gs.id, variant, source, c) for variant, source in cited for c in source.corrections]
    return out


CORRECTIONS = _corrections()
IDS = [f"{game}:{c.says}" for game, _, _, c in CORRECTIONS]


def test_the_book_has_source_corrections_to_check():
    # Standard Gin's sample game (122 for 95) and unit scoring (182 for 180); Four-Card Golf's 'notallowed'.
    assert {str(c.says) for *_, c in CORRECTIONS} == {"122", "182", "notallowed"}


@needs_seeds
@pytest.mark.parametrize("game,variant,source,correction", CORRECTIONS, ids=IDS)
def test_the_source_says_what_the_correction_says_it_says(game, variant, source, correction):
    [path] = SEEDS.glob(f"{source.seed[:3]}_*.txt")
    text = path.read_text(encoding="utf-8")
    assert source.section in text, source.section
    section = text[text.index(source.section):]
    assert re.search(rf"(?<![\w]){re.escape(str(correction.says))}(?![\w])", section), correction.says


@pytest.mark.parametrize("game,variant,source,correction", CORRECTIONS, ids=IDS)
def test_the_page_says_the_source_said_it_and_the_errata_do_not(built, game, variant, source, correction):
    site = built[CURRENT] / "site"
    page = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", (site / "games" / game / "index.html")
                                         .read_text(encoding="utf-8"))).split())
    note = f"the source says “{correction.says}”; corrected to “{correction.corrected}” because {correction.because}"
    assert note in page
    assert game_page(load_library(ROOT, CURRENT), load_library(ROOT, CURRENT).games[game]).source_corrections()
    errata = (site / "errata" / "index.html").read_text(encoding="utf-8")
    assert f"<del>{correction.says}</del>" not in errata and "The book said" not in note


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
def test_the_book_prints_each_correction_with_its_game(built):
    lib = load_library(ROOT, CURRENT)
    text = " ".join(subprocess.run(["pdftotext", str(built[CURRENT] / "pdf" / pdf_name(lib)), "-"],
                                   capture_output=True, text=True, check=True).stdout.split()).replace("‐ ", "")
    for _, _, _, c in CORRECTIONS:
        assert f"the source says “{c.says}”; corrected to “{c.corrected}”" in text, c.says

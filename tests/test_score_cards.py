"""What the build would refuse on a score card, validate refuses first (issue 60, item 5): for each card of the table,
either validate reports it at the card's line, or the fillable sheet the build draws is a whole form (every total reads
boxes the form has, as the PDF writer requires: generator/render/pdf/writer.py refuses a total that reads a field the
form does not have). Cheap: the sheet's HTML is rendered, not laid out into a PDF."""

from __future__ import annotations

import re

import pytest
import yaml

from generator.book.library import load_library
from generator.checks import run_checks
from generator.render.pdf.scorepad import sheet_html, sheet_view
from generator.render.views.pages import game_page
from generator.render.views.sheets import sheet_files, sheet_parts
from tests.checkfix import make_project

GAME = """\
id: demo
title: Demo Yacht
category: equipment
introduced: "2026.1"
sources: [{{seed: 000_321aee1cc9de258a.txt, section: Demo}}]
players: 2-4
equipment: {{dice: 5}}
keeps: {keeps}
goal: {{winner: high}}
score_sheet:
  title: Demo score sheet
  blocks:
{blocks}
"""

# (the card's blocks, the check validate reports, or None where the build draws a whole form)
CARDS = {
    # issue 60: a per-player block (a running total beside each hand) carried into a totals block: the build drew no
    # Total row for the carried block, and refused the form; now a carried block keeps its Total row
    "a per-player block carried into a totals block": ("points", """\
    - {title: Upper, player_columns: true, rows: [Ones, Twos, Threes], total: Upper total}
    - {title: Lower, player_columns: true, rows: [Yacht, Chance], total: Lower total}
    - {title: Totals, player_columns: true, rows: [Upper, Lower], carries: [Upper, Lower], total: Grand total}
""", None),
    # a totals block with a bonus row of its own, written in between the carried totals and added into the grand total
    "a totals block with a bonus row of its own": ("points", """\
    - {title: Upper, player_columns: true, rows: [Ones, Twos, Threes], total: Upper total}
    - {title: Lower, player_columns: true, rows: [Yacht, Chance], total: Lower total}
    - {title: Totals, player_columns: true, rows: [Upper, Upper bonus, Lower], carries: [Upper, null, Lower], total: Grand total}
""", None),
    "a bid beside the score carried column by column": ("bid_made", """\
    - {title: Game 1, columns: [Bid, Score], player_columns: true, blank_rows: 3, total: Total, sums: [Score]}
    - {title: Grand, columns: [Bid, Score], player_columns: true, rows: [Game 1], carries: [Game 1], total: Grand total, sums: [Score]}
""", "sheet.uncarried"),
    "a block only in the sample carried onto the blank sheet": ("points", """\
    - {title: Example, player_columns: true, rows: [One, Two], total: Total, sample_only: true}
    - {title: Grand, player_columns: true, rows: [Example], carries: [Example], total: Grand total}
""", "sheet.uncarried"),
    "a row carrying a block with no total": ("points", """\
    - {title: Upper, player_columns: true, rows: [Ones, Twos]}
    - {title: Grand, player_columns: true, rows: [Upper], carries: [Upper], total: Grand total}
""", "sheet.unfit"),
    "a row carrying a block of other columns": ("points", """\
    - {title: Upper, columns: [A, B], rows: [Ones, Twos], total: Total}
    - {title: Grand, player_columns: true, rows: [Upper], carries: [Upper], total: Grand total}
""", "sheet.unfit"),
}

FIELD = re.compile(r'<input[^>]*\bname="([^"]+)"[^>]*>')
SUM = re.compile(r'\bdata-(?:sum|show-when)="([^"]*)"')


@pytest.mark.parametrize(("keeps", "blocks", "check"), CARDS.values(), ids=CARDS.keys())
def test_validate_refuses_what_the_form_could_not_add_up(tmp_path, keeps, blocks, check):
    project = make_project(tmp_path / "book", {"games": [GAME.format(keeps=keeps, blocks=blocks)]})
    lib = load_library(project)
    found = [f for f in run_checks(lib, only=["sheet.unfit", "sheet.uncarried"])]
    if check is not None:
        assert [f.check for f in found] == [check], [(f.check, f.message) for f in found]
        assert found[0].path == "rules_data/demo.yaml" and found[0].line > 12  # the card's block, not the file
        return
    assert found == [], [(f.check, f.message) for f in found]
    page = game_page(lib, lib.games["demo"])
    for file in sheet_files([page]):
        heading, view = sheet_view(page, file.variant_id)
        html = sheet_html(lib, file, heading, view, 3, (False,) * len(sheet_parts(view)))
        fields = set(FIELD.findall(html))
        read = {name for names in SUM.findall(html) for name in names.split()}
        assert read and read <= fields, f"the form reads boxes it does not have: {sorted(read - fields)}"
        if "Upper bonus" in blocks:  # the bonus row is a box of its own, which the grand total adds
            tags = {FIELD.search(tag)[1]: tag for tag in re.findall(r"<input[^>]*>", html)}
            assert "data-sum" not in tags["demo_s1_b3_r2_p1"]
            adds = SUM.search(tags["demo_s1_b3_total_p1"])[1].split()
            assert adds == ["demo_s1_b3_r1_p1", "demo_s1_b3_r2_p1", "demo_s1_b3_r3_p1"]


def test_the_table_covers_both_checks():
    assert {c for _, _, c in CARDS.values()} == {None, "sheet.unfit", "sheet.uncarried"}
    assert all(yaml.safe_load(GAME.format(keeps=k, blocks=b)) for k, b, _ in CARDS.values())


SAMPLED = """\
id: demo
title: Demo Yacht
category: equipment
introduced: "2026.1"
sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]
players: 2
equipment: {dice: 5}
keeps: points
goal: {winner: high}
examples:
  game:
    title: A game
    values:
      a1: {expr: "3", stated: 3, label: Ann's ones}
      a2: {expr: "12", stated: 12, label: Ann's twos}
      b1: {expr: "4", stated: 4, label: Ben's ones}
score_sheet:
  title: Demo score sheet
  example: game
  blocks:
    - {title: Upper, columns: [Ann, Ben], rows: [Ones, Twos], total: Upper total, sample: [[a1, b1], [a2, null]]}
"""


def test_a_sample_shows_its_total_row_as_a_filled_sheet_would(tmp_path):
    """Issue 60: the filled-in sample never showed its Total row; it shows it, each column's figures added up."""
    from generator.render.site.docs import site_environment

    project = make_project(tmp_path / "book", {"games": [SAMPLED]})
    lib = load_library(project)
    assert run_checks(lib, only=["sheet.unfit", "sheet.uncarried"]) == []
    page = game_page(lib, lib.games["demo"])
    html = site_environment(lib).from_string(
        '{% import "blocks.html.j2" as blocks %}{{ blocks.sheet_samples(view) }}').render(view=page.main)
    rows = [re.sub(r"<[^>]+>", "|", row) for row in re.findall(r"<tr[^>]*>.*?</tr>", html, re.S)]
    cells = [[c for c in row.split("|") if c.strip()] for row in rows]
    assert cells[-1] == ["Upper total", "15", "4"], cells

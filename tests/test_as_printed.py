"""An edition laid out as printed (``pages_as_printed``), on a four-game fixture book: each game on the page its
printed index names, a page the book left empty blank, a game too long for its pages numbered on as inserted
leaves ('2a') with a warning naming it, and the PDF's page labels the printed numbers. The real 2026.1 is read
in test_published_edition.py (test_the_published_edition_is_laid_out_as_printed)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from generator.book.library import load_library
from generator.errors import BuildError
from generator.render.pdf.book import render_book
from tests.checkfix import make_project
from tests.pagetext import pdf_reader
from tests.test_published_edition import poppler


def _long(rules: int) -> str:
    return "## Rules\n\n" + "".join(f"- Rule {n}: play a card, then the next player plays one, and so on round the table.\n"
                                   for n in range(rules))


EDITION = '{id: "2026.1", year: 2026, revision: 1, label: Revision 1 (Jan/2026), date: "2026-01-01", pages_as_printed: true}'


def _game(gid: str) -> str:
    return (f"id: {gid}\ntitle: {gid.title()}\ncategory: cards\nintroduced: \"2026.1\"\n"
            "sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]\n"
            "players: 4\nequipment: {cards: [{decks: 1}]}\ndeal: {each: 13}\ngoal: {winner: high, rounds: 3}\n")


def _project(root: Path, pages: dict[str, str], games: tuple[str, ...] = (), rules: int = 140) -> Path:
    """A book whose printed index gives each game of ``pages`` its page; ``games`` are in the book but not the index."""
    rows = "".join(f"      - {{page: {page}, title: {gid.title()}, game: {gid}, players: 4}}\n" for gid, page in pages.items())
    book = f"printed_index:\n  editions: [\"2026.1\"]\n  sections:\n    cards:\n{rows}"
    return make_project(root, {"games": [_game(g) for g in (*pages, *games)], "prose": {"beta": _long(rules)},
                               "book": book, "edition": EDITION})


# (two-sided, Beta's rules, the page labels, Beta's extra pages the warning names, the blank pages)
CASES = [
    # Title page, index, About (roman); Beta's two extra pages after its own; Gamma's second page left blank.
    (False, 140, ["i", "ii", "iii", "1", "2", "2a", "2b", "3", "4", "5"], "2a, 2b", ["4"]),
    # Two-sided: the front matter ends on a left-hand page and Beta's one extra page gets a blank back, so that
    # every odd page stays on the right.
    (True, 60, ["i", "ii", "iii", "iv", "1", "2", "2a", "2b", "3", "4", "5"], "2a", ["iv", "2b", "4"]),
]


@poppler
@pytest.mark.parametrize(("duplex", "rules", "labels", "extra", "blank"), CASES)
def test_each_game_on_its_printed_page_and_a_long_one_on_inserted_leaves(tmp_path, duplex, rules, labels, extra,
                                                                          blank):
    lib = load_library(_project(tmp_path / "book", {"alpha": "1", "beta": "2", "gamma": "3-4", "delta": "5"},
                                rules=rules))
    warnings: list[str] = []
    pdf = tmp_path / "book.pdf"
    render_book(lib, pdf, duplex=duplex, warn=warnings.append)
    assert pdf_reader(pdf).page_labels == labels
    assert len(warnings) == 1 and warnings[0].startswith("rules_data/book.yaml:")
    assert ": Beta takes" in warnings[0] and warnings[0].endswith(f"numbered {extra}")
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = [[line.strip() for line in page.splitlines() if line.strip()] for page in text.split("\f")]
    for label, game in (("1", "Alpha"), ("2", "Beta"), ("3", "Gamma"), ("5", "Delta")):
        lines = pages[labels.index(label)]
        assert lines[1] == game and lines[-1].endswith(f" {label}"), (label, lines[:2], lines[-1])
    assert pages[labels.index("2a")][-1].endswith(" 2a")  # the folio prints the label
    assert [label for label, page in zip(labels, pages, strict=False) if not page] == blank  # no head, no folio
    outline = pdf_reader(pdf).outline  # the games under their section, not under the front matter's last page
    assert [item.title for item in outline if not isinstance(item, list)] == [
        "Fixture Book 2026", "Index of Games", "About", "Cards required"]
    assert [item.title for item in outline[-1] if not isinstance(item, list)] == ["Alpha", "Beta", "Gamma", "Delta"]
    index = pages[labels.index("ii")]
    assert any(line.startswith("3-4") and "Gamma" in line for line in index), index  # the printed page, as typed


def test_a_game_the_printed_index_does_not_list_stops_the_build(tmp_path):
    lib = load_library(_project(tmp_path / "book", {"alpha": "1"}, games=("beta",)))
    with pytest.raises(BuildError, match=r"^rules_data/book.yaml:\d+:\d+: Beta: the printed index gives it no page"):
        render_book(lib, tmp_path / "book.pdf")

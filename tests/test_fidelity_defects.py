"""The fidelity check fails on each kind of defect, in the site and in the PDF.

One small source (tests/fixtures/fidelity/900_fixture.txt), its page as the site prints it
(sweep.html) and as pdftotext reads the book (sweep.pdf.txt: running header and footer, a
bullet, a nested bullet, a word hyphenated at a line end). The faithful pages pass; each row of
DEFECTS breaks them one way and must be reported for the sentence it breaks, and only that one.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.fidelity import check
from tests.fidelity_output import bbox_pages, pdf_text, site_text
from tests.fidelity_source import apply_errata, seed_sentences

HERE = Path(__file__).parent / "fixtures" / "fidelity"
SEED = HERE / "900_fixture.txt"
BAND = 14 * 72 / 25.4
ERRATUM = SimpleNamespace(id="dramatically", edition="2026.2", file="content/sweep.md", path=None,
                          published="dramitically", corrected="dramatically")

# kind, the sentence it breaks, the edit to the site page, the edit to the PDF text, the finding
DEFECTS = [
    ("number word turned into a digit", "900:9.1", ("the four blind", "the 4 blind"),
     ("the four blind", "the 4 blind"), "number word printed as digits"),
    ("flattened sub-item", "900:9.1", ("player<ul>\n<li>4 are", "player</li>\n<li>4 are"),
     ("80 149 ◦", "67 149 •"), "flattened sub-item"),
    ("dropped sentence", "900:10.2", (" Jokers are wild.", ""), (" Jokers are wild.", ""), "missing"),
    ("reordered words", "900:7.1", ("people can play", "people play can"), ("people can play", "people play can"),
     "reordered"),
    ("a word changed", "900:10.1", ("from melded", "from played"), ("from melded", "from played"), "changed"),
    ("literal Markdown shown", "900:10.1", ("<strong>cannot steal wild cards</strong>", "**cannot steal wild cards**"),
     ("cannot steal wild cards", "**cannot steal wild cards**"), "literal markup"),
    ("an erratum leaking into 2026.1", "900:11.1", ("dramitically", "dramatically"), ("mitically", "matically"),
     "changed"),
]


def stub_library(errata: list) -> SimpleNamespace:
    """Just enough of a Library: one game whose source is the fixture seed's Sweep section."""
    game = SimpleNamespace(sources=[SimpleNamespace(seed=SEED.name, section="Sweep", date=None, corrections=[])], variants=[])
    return SimpleNamespace(games={"sweep": SimpleNamespace(id="sweep", game=game, doc=SimpleNamespace(data={}))},
                           errata=errata,
                           book=SimpleNamespace(pages=[], index_title="Index", title="Book"),
                           in_edition=lambda edition: True, scope=lambda: {})


def pdf_xml(lines: str) -> str:
    """The XHTML `pdftotext -bbox-layout` writes for a letter page holding these "x y words" lines."""
    out = ['<html xmlns="http://www.w3.org/1999/xhtml"><body><doc><page width="612" height="792"><flow>']
    for line in lines.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        x, y, text = line.split(" ", 2)
        out.append("<block><line>")
        left = float(x)
        for word in text.split():
            out.append(f'<word xMin="{left}" yMin="{y}" xMax="{left + 5 * len(word)}" yMax="{float(y) + 12}">'
                       f"{escape(word)}</word>")
            left += 5 * len(word) + 3
        out.append("</line></block>")
    return "".join(out) + "</flow></page></doc></body></html>"


def findings(site_html: str, pdf_lines: str, errata: list | None = None) -> dict[str, list]:
    """(sentence id, kind) of everything the check reports for the fixture, by output."""
    lib = stub_library(errata or [])
    sentences = seed_sentences(SEED, [lib], [], "2026.2" if errata else "2026.1")
    if errata:
        assert not apply_errata(sentences, lib, HERE)
    site = site_text(site_html)
    pdf = pdf_text(bbox_pages(pdf_xml(pdf_lines), BAND), range(1, 2))
    return {output: [(f.sentence.id, f.kind) for f in check(sentences, lambda _t, _r, t=text: [t], output)]
            for output, text in (("site", site), ("pdf", pdf))}


def faithful() -> tuple[str, str]:
    return (HERE / "sweep.html").read_text(encoding="utf-8"), (HERE / "sweep.pdf.txt").read_text(encoding="utf-8")


def test_the_faithful_pages_pass_and_every_sentence_is_read():
    site, pdf = faithful()
    lib = stub_library([])
    sentences = seed_sentences(SEED, [lib], [], "2026.1")
    assert [s.id for s in sentences] == ["900:1.1", "900:5.1", "900:7.1", "900:8.1", "900:9.1", "900:10.1",
                                         "900:10.2", "900:11.1"]
    assert [s.id for s in sentences if s.nested] == ["900:9.1"]
    assert findings(site, pdf) == {"site": [], "pdf": []}
    words = pdf_text(bbox_pages(pdf_xml(pdf), BAND), range(1, 2)).tokens
    assert "dramitically" in words, "a word hyphenated at a line end is read whole"
    assert "Edition" not in words and words[:2] == ["Sweep", "Players"], "the running header and footer are left out"


@pytest.mark.parametrize("kind,sentence,site_edit,pdf_edit,finding", DEFECTS, ids=[d[0] for d in DEFECTS])
def test_each_defect_is_reported(kind, sentence, site_edit, pdf_edit, finding):
    site, pdf = faithful()
    assert site_edit[0] in site and pdf_edit[0] in pdf, "the edit must apply to the fixture"
    found = findings(site.replace(*site_edit), pdf.replace(*pdf_edit))
    for output, reported in found.items():
        assert [s for s, _ in reported] == [sentence], f"{kind} ({output}): {reported}"
        assert finding in reported[0][1], f"{kind} ({output}): reported as {reported[0][1]!r}"


def test_2026_2_must_print_the_correction():
    site, pdf = faithful()
    corrected = findings(site.replace("dramitically", "dramatically"), pdf.replace("mitically", "matically"), [ERRATUM])
    assert corrected == {"site": [], "pdf": []}
    uncorrected = findings(site, pdf, [ERRATUM])
    assert uncorrected == {"site": [("900:11.1", "words changed, reordered or missing")],
                           "pdf": [("900:11.1", "words changed, reordered or missing")]}


def block_xml(lines: list[tuple[float, float, str]]) -> str:
    """The XHTML `pdftotext -bbox-layout` writes for one block holding these (x, y, words) lines."""
    out = ['<html xmlns="http://www.w3.org/1999/xhtml"><body><doc><page width="612" height="792"><flow><block>']
    for x, y, text in lines:
        out.append("<line>")
        for word in text.split():
            out.append(f'<word xMin="{x}" yMin="{y}" xMax="{x + 5 * len(word)}" yMax="{y + 10}">{escape(word)}</word>')
            x += 5 * len(word) + 3
        out.append("</line>")
    return "".join(out) + "</block></flow></page></doc></body></html>"


# pdftotext puts a floated box's row into the block of the prose beside it, between two lines of
# one sentence; the reader reads it after the block. A wrapped line under the first is no box.
BESIDE = [
    ([(60, 150, "look at the outer"), (400, 156, "To win"), (440, 156, "Low score"), (60, 162, "corners. Then play")],
     ["look", "at", "the", "outer", "corners", "Then", "play", "To", "win", "Low", "score"]),
    ([(60, 150, "look at the outer"), (66, 162, "corners. Then play")],
     ["look", "at", "the", "outer", "corners", "Then", "play"]),
]


@pytest.mark.parametrize("lines,read", BESIDE)
def test_a_box_row_beside_the_prose_is_read_after_it(lines, read):
    assert pdf_text(bbox_pages(block_xml(lines), BAND), range(1, 2)).tokens == read


def test_a_word_hyphenated_at_the_foot_of_a_page_is_read_whole():
    """'dead‐' ends one page and 'wood' starts the next: the reader reads 'deadwood' where it starts."""
    first = pdf_xml("60 700 an opponent has less dead\u2010")
    second = pdf_xml("60 100 wood than the caller")
    two = first.replace("</doc></body></html>", "") + second[second.index("<page"):]
    pages = bbox_pages(two, BAND)
    assert [w for w, _, _ in pages[0]] == ["an", "opponent", "has", "less", "deadwood"]
    assert [w for w, _, _ in pages[1]] == ["than", "the", "caller"]
    assert pdf_text(pages, range(1, 3)).tokens == ["an", "opponent", "has", "less", "deadwood", "than", "the", "caller"]

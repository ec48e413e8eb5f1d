"""The printed book fits its paper (issue 12), read back from the PDF's text boxes and tags.

Each edition, on letter and A4 paper: at most its page budget; no page less than a quarter full but
the cover, the contents and the errata's last page; no heading, caption or list's first line as the
last line of a page; no game whose heading and first line of text are on different pages; no table
row split across pages. Each rule is also shown to catch a small document broken on purpose.

The tests of each edition are the book's own (the Metzker book fits its page budget, its pages read well); the rules
and the layout's machinery (a section laid out in runs) are the tool's, on small documents and on a book of the
tests' own.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.book import index as book_index
from generator.book.library import Library
from generator.render.pdf import cache
from generator.render.pdf.book import book_html, render_book
from generator.render.pdf.weasy import Engine, page_fill
from generator.render.pdf.worker import KEPT_RENDERS, RENDERS
from generator.render.views.describe import pdf_name
from tests.conftest import BUILD_CACHE, CURRENT, PUBLISHED
from tests.pagetext import (
    early_ends,
    header_mismatches,
    lone_trailers,
    openers,
    pdf_reader,
    reaches,
    read_pages,
    section_head_mismatches,
    sparse,
    split_boxes,
    split_openings,
    split_rows,
    stranded,
)

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

BUDGET = {PUBLISHED: 42, CURRENT: 56}  # pages at most, on either paper (issue 12)
CASES = [(edition, paper) for edition in (PUBLISHED, CURRENT) for paper in ("letter", "a4")]
BROKEN = Path(__file__).resolve().parent / "fixtures" / "print"


def kept_book(lib: Library, paper: str) -> Path:
    """The book PDF of ``lib`` on ``paper``, laid out by ``render_book`` as a build lays it out, and kept in the
    cache `make` keeps (BUILD_CACHE), beside a build's whole renders, under a digest of what the layout reads (the
    code, the templates, the versions, the sources: render/pdf/cache.py): laid out the first time, read back by the
    next sessions while none of that changes (no build is made on A4, whose score sheets would cost as much again)."""
    digest = cache.new_digest(lib.edition.id, paper, "book")
    cache.add_files(digest, lib.root, ("rules_data", "content"))
    entry = cache.kept(BUILD_CACHE / RENDERS / f"{lib.edition.id}-{paper}-book", digest.hexdigest()[:32],
                       lambda staged: render_book(lib, staged / "book.pdf", paper=paper), newest=KEPT_RENDERS)
    return entry / "book.pdf"


@pytest.fixture(scope="session")
def printed(built, library, published_library):
    """(edition, paper) -> (the book's PDF, its HTML); letter is the build's, A4 is laid out here (``kept_book``)."""
    libraries, found, html = {CURRENT: library, PUBLISHED: published_library}, {}, {}

    def get(edition: str, paper: str) -> tuple[Path, str]:
        if (edition, paper) not in found:
            lib = libraries[edition]
            pdf = built[edition] / "pdf" / pdf_name(lib) if paper == "letter" else kept_book(lib, paper)
            if edition not in html:  # the book's HTML is the same on either paper (the stylesheet sets the page)
                html[edition] = book_html(lib)
            found[edition, paper] = pdf, html[edition]
        return found[edition, paper]

    return get


def _exempt(pdf: Path, has_errata: bool, as_printed: bool) -> set[int]:
    """Pages that may be nearly empty: the cover, the contents, the errata's last page; in an edition laid out
    as printed, where each game has pages of its own, the page before each part and the last."""
    reader = pdf_reader(pdf)
    if as_printed:  # a part's last page (a game's end; the page before the next part, blank where the book left one)
        pages = {name: reader.get_destination_page_number(dest) + 1 for name, dest in reader.named_destinations.items()}
        opening = [n for name, n in pages.items() if re.match(r"(game|page)-|book-index$", name)]
        return {1, *(n - 1 for n in opening), *(n for name, n in pages.items() if name.startswith("end-")),
                len(reader.pages)}
    marks = [(item.title, reader.get_destination_page_number(item) + 1)
             for item in reader.outline if not isinstance(item, list)]
    contents = next(n for title, n in marks if title == "Contents")
    after = min(n for _title, n in marks if n > contents)
    return {1, *range(contents, after)} | ({len(reader.pages)} if has_errata else set())


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_the_book_fits_its_page_budget(printed, edition, paper):
    pdf, _ = printed(edition, paper)
    assert len(pdf_reader(pdf).pages) <= BUDGET[edition]


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_no_page_is_less_than_a_quarter_full(printed, edition, paper, library, published_library):
    pdf, _ = printed(edition, paper)
    lib = library if edition == CURRENT else published_library
    has_errata = any(lib.in_edition(e.edition) for e in lib.errata)
    pages = read_pages(pdf)  # a blank score sheet's page is as full as its rows reach (they hold no text)
    assert sparse(pages, _exempt(pdf, has_errata, bool(book_index.printed_pages(lib))), reach=reaches(pdf, pages)) == []


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_no_page_ends_on_a_heading_caption_or_first_line_of_a_list(printed, edition, paper):
    pdf, html = printed(edition, paper)
    assert stranded(read_pages(pdf), openers(html)) == []


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_every_game_heading_is_on_the_page_its_text_starts(printed, edition, paper):
    pdf, html = printed(edition, paper)
    assert html.count('class="opened"') >= html.count('class="game"')  # every game is checked
    assert split_openings(pdf) == []


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_no_table_row_is_split_across_pages(printed, edition, paper):
    pdf, html = printed(edition, paper)
    assert split_rows(pdf, html) is None


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_every_summary_box_is_printed_whole_with_its_heading(printed, edition, paper):
    pdf, html = printed(edition, paper)
    assert html.count('class="box-end"') == html.count('class="glance"') > 0  # every box is checked
    assert split_boxes(pdf) == []


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_at_most_two_pages_end_early_while_their_game_goes_on(printed, paper):
    """Issue 27: a page ends above three quarters of its text area, with its game going on overleaf, only where
    a block kept whole (a variant's opening with its box, a score card a page long) needs the next page."""
    pdf, _ = printed(CURRENT, paper)
    assert len(early_ends(pdf)) <= 2, early_ends(pdf)


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_a_games_trailer_stays_with_its_last_lines(printed, edition, paper):
    """Issue 34: a game's score-sheet lines and sources are printed on one page, below some of the game's own lines,
    never alone atop the next page (where they read as the next game's, under the game before's running head)."""
    pdf, html = printed(edition, paper)
    assert len(re.findall(r'class="trailer" id="trailer-', html)) == html.count('class="game-title"') > 0  # all checked
    assert lone_trailers(pdf) == []


def game_headings(html: str) -> dict[str, str]:
    """Each game's id and the title its heading prints, in book order, from the book's HTML."""
    import re
    from html import unescape

    return {ident: " ".join(unescape(re.sub(r"<[^>]+>", "", title)).split()) for ident, title in
            re.findall(r'<article class="game" id="([^"]+)"[^>]*>\s*<h2 class="game-title">(.*?)</h2>', html, re.S)}


def game_sections(html: str) -> dict[str, str]:
    """Each game heading's section title, from the book's HTML."""
    from html import unescape

    return {" ".join(unescape(re.sub(r"<[^>]+>", "", title)).split()): unescape(section) for section, title in
            re.findall(r'<article class="game" id="[^"]+" data-section="([^"]*)"[^>]*>\s*<h2 class="game-title">(.*?)</h2>',
                       html, re.S)}


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_a_part_outside_a_section_carries_no_section_head(printed, edition, paper):
    """Issue 42: the header's right-hand side names the section of the game the page is in, and nothing on a part
    that is no game (2026.1's About the Book carried 'Tournament', the section before it): General Rules, Game Board
    Layouts, About the Book, the index, the errata, What changed."""
    pdf, html = printed(edition, paper)
    assert len(game_sections(html)) == len(game_headings(html)) > 0
    assert section_head_mismatches(pdf, game_sections(html)) == []


@pytest.mark.parametrize(("edition", "paper"), CASES)
def test_every_running_header_names_the_game_on_the_page(printed, edition, paper):
    """Pages set again by copy-fitting carry the header over from the pages before them."""
    pdf, html = printed(edition, paper)
    headings = game_headings(html)
    assert len(headings) == html.count('class="game-title"') > 0
    assert header_mismatches(pdf, headings) == []


def title_lines(pdf: Path, title: str) -> list[str]:
    """The lines the cover (page 1) sets ``title`` in, as pdftotext reads them."""
    words = title.split()
    lines, at = [], 0
    for line in read_pages(pdf)[0].lines:
        got = line.text.split()
        if at < len(words) and got == words[at:at + len(got)]:
            lines.append(line.text)
            at += len(got)
    assert at == len(words), f"the cover does not print {title!r}: {lines}"
    return lines


def balanced(lines: list[str], least: float = 0.6) -> bool:
    """Whether a title's lines are about as long as each other: no line (a word or two left over) shorter
    than ``least`` of the longest."""
    return min(map(len, lines)) >= least * max(map(len, lines))


@pytest.mark.parametrize(("lines", "ok"), [(["Metzker Book Of Card", "Game Rules 2026"], True),
                                           (["Metzker Book Of Card Game", "Rules 2026"], False),
                                           (["One Line Title 2026"], True)])
def test_a_title_break_is_balanced(lines, ok):
    assert balanced(lines) is ok


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_cover_title_breaks_into_balanced_lines(printed, library, paper):
    pdf, _ = printed(CURRENT, paper)
    lines = title_lines(pdf, f"{library.book.title} {library.edition.year}")
    assert balanced(lines), lines


# The rules above, each shown to catch a document broken on purpose (tests/fixtures/print/).
BROKEN_CASES = [
    ("heading-at-foot.html", lambda pdf, html: stranded(read_pages(pdf), openers(html)), "Lonely Heading"),
    ("caption-at-foot.html", lambda pdf, html: stranded(read_pages(pdf), openers(html)), "Lonely Caption"),
    ("list-first-line.html", lambda pdf, html: stranded(read_pages(pdf), openers(html)), "first line of a list"),
    ("sparse-page.html", lambda pdf, html: sparse(read_pages(pdf), set()), "page 2"),
    ("split-row.html", lambda pdf, html: [split_rows(pdf, html) or ""], "3 table rows are printed in 4 pieces"),
    ("opening-split.html", lambda pdf, html: split_openings(pdf), "game-lonely: heading on page 1, text from page 2"),
    ("box-split.html", lambda pdf, html: split_boxes(pdf), "game-boxed: heading on page 1, box from page 1 to page 2"),
    ("early-end.html", lambda pdf, html: early_ends(pdf), "page 1: 10% full, gappy goes on overleaf"),
    ("trailer-alone.html", lambda pdf, html: lone_trailers(pdf), "page 2: opens with the trailer of lone"),
    ("trailer-split.html", lambda pdf, html: lone_trailers(pdf), "split: trailer from page 1 to page 2"),
    ("header-stale.html", lambda pdf, html: header_mismatches(pdf, game_headings(html)),
     "page 2: header 'First Game', expected 'Second Game'"),
    ("section-head-outside.html", lambda pdf, html: section_head_mismatches(pdf, game_sections(html)),
     "page 2: 'About the Book' under the section head 'Tournament', expected ''"),
]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


@pytest.mark.parametrize(("fixture", "rule", "expected"), BROKEN_CASES, ids=[c[0] for c in BROKEN_CASES])
def test_each_rule_catches_a_broken_page(engine, tmp_path, fixture, rule, expected):
    html = (BROKEN / fixture).read_text(encoding="utf-8")
    pdf = tmp_path / "broken.pdf"
    engine.write([engine.document(html)], pdf)
    found = rule(pdf, html)
    assert any(expected in message for message in found), found


def test_copy_fitting_starts_from_the_stylesheets_leading():
    """pdf/book.BASE_LEADING (which fit steps can save a page) is print.css's leading for the body text."""
    import re

    from generator.render.pdf import book as pdf

    css = (Path(__file__).parent.parent / "templates" / "print" / "print.css").read_text(encoding="utf-8")
    leadings = re.findall(r"(?m)^html\s*\{[^}]*?line-height:\s*([\d.]+)", css)
    assert leadings and float(leadings[-1]) == pdf.BASE_LEADING  # the last html rule wins
    assert all(leading < pdf.BASE_LEADING for leading, _ in pdf.FIT_STEPS)


# ---- Setting a part's last pages again (generator/render/pdf/copyfit.py) ---------------------------------

def _tail_fixture() -> str:
    """A section of games whose pages open in every way a page can: a game, a paragraph, a numbered
    list's item, a nested item, a table, the rest of a paragraph."""
    words = "A rule of the game that runs on long enough to fill a few lines of the page. " * 4
    games = []
    for g in range(2):
        items = "".join(f"<li>Step {i}: {words if i % 3 == 0 else 'short step.'}</li>" for i in range(1, 41))
        subs = "".join(f"<li>Sub-case {i} of a case whose list runs on over a page.</li>" for i in range(1, 31))
        nested = "".join(f"<li>Case {i}<ul><li>Sub-case {i}.1 {words}</li><li>Sub-case {i}.2</li></ul></li>" for i in range(3))
        nested += f"<li>Case with many sub-cases<ul>{subs}</ul></li>"
        rows = "".join(f"<tr><th>Hand {i}</th><td>{i * 5} points</td></tr>" for i in range(12))
        games.append(f'<article class="game" id="game-g{g}" data-section="Cards"><h2 class="game-title">Game {g}</h2>'
                     f'<p><span class="opened" id="opened-game-g{g}"></span>{words}</p><ol>{items}</ol><ul>{nested}</ul>'
                     f'<table class="data"><tbody>{rows}</tbody></table>' + f"<p>{words}</p>" * 3 + "</article>")
    return ('<html lang="en"><head><title>Fixture</title></head><body data-edition="9999.1">'
            '<section class="book-section" id="section-cards" data-section="Cards">'
            f'<h1 class="section-title">Cards</h1>{"".join(games)}</section></body></html>')


def _printed(document, pages: list, pdf: Path) -> list[str]:
    """What ``pages`` of ``document`` print, read back with `pdftotext -layout`: list numbers, running
    header and footer, and where each line sits on the page (as spacing), one string a page."""
    import subprocess

    document.copy(pages).write_pdf(pdf)
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout.split("\f")[:len(pages)]


def test_the_last_pages_set_again_from_any_page_read_as_the_first_layout(engine, tmp_path):
    """With no tighter leading, a part's tail from each page that opens with a whole element prints
    what the first layout printed on those pages: header, page numbers, list numbers, line places."""
    from generator.render.pdf import copyfit

    html = _tail_fixture()
    document = engine.document(html, [engine.css("@page :first { counter-reset: page 5; }")])
    cuts = [n for n in range(1, len(document.pages)) if copyfit.fresh_start(document, n) is not None]
    assert len(document.pages) >= 5 and len(cuts) >= 4
    first = _printed(document, document.pages, tmp_path / "first.pdf")
    assert "27. Step 27" in " ".join(first[1].split())  # a page that opens with a numbered list's 27th item
    for n in cuts:
        tail = engine.document(html, [engine.css(f"@page :first {{ counter-reset: page {4 + n}; }}")],
                               copyfit.tail_edit(document, n))
        assert page_fill(tail.pages[0]) == 0 and not tail.pages[0].anchors  # the running header's page only
        assert _printed(tail, tail.pages[1:], tmp_path / f"tail-{n}.pdf") == first[n:], f"from page {n + 1}"


def test_a_page_that_opens_inside_a_paragraph_is_not_a_place_to_cut(engine):
    from generator.render.pdf import copyfit

    html = "<html><body><p>" + "Words that run on across the page break. " * 400 + "</p></body></html>"
    document = engine.document(html)
    assert len(document.pages) > 1 and copyfit.fresh_start(document, 1) is None
    with pytest.raises(ValueError, match="opens inside"):
        copyfit.tail_edit(document, 1)


# Five card games of the tests' own book: with runs of 3000 characters of HTML, the cards section is laid out in runs,
# and its last run, one that resumes, has its last pages set tighter on letter.
RUN_GAMES = ("euchre", "five-hundreds", "golf", "hand-and-foot", "hearts")


@pytest.mark.parametrize(("games", "paper", "run_html"), [(RUN_GAMES, "letter", 3000)])
def test_a_section_laid_out_in_runs_prints_what_one_layout_prints(games, paper, run_html, tmp_path, monkeypatch):
    """A build lays a long section out a run of games at a time (book.Layout.runs, for a 1000-game book). With
    runs of one or two games, every page is as the one layout of the whole section gives it: drawn the same,
    tagged the same, linked the same (tests/pdffacts.py), copy-fitted tails included: the cards section's last run
    (one that resumes) has its last pages set tighter. On a book of the tests' own (``RUN_GAMES``); the one layout
    is ``render_book``'s, as a build lays the book out."""
    import generator.render.pdf.book as pdf
    from generator.book.library import load_library
    from tests.conftest import small_project
    from tests.pdffacts import differences, pdf_facts

    lib = load_library(small_project(tmp_path / "book", games))
    pdf.render_book(lib, tmp_path / "one.pdf", paper=paper)
    monkeypatch.setattr(pdf, "RUN_HTML", run_html)
    tails, then = [], pdf.copyfit.then  # the edits each copy-fitted tail is set with: a resumed run's first
    monkeypatch.setattr(pdf.copyfit, "then", lambda first, second: tails.append(first) or then(first, second))
    layout = pdf.Layout(Engine(paper), keep=False)
    pdf.render_book(lib, tmp_path / "runs.pdf", paper=paper, layout=layout)
    assert layout.laid_out > 2 * len(pdf.BookParts(lib).numbered(None))  # the sections were laid out in runs
    assert any(first is not None for first in tails), "no run that resumes had its tail copy-fitted"
    assert differences(pdf_facts(tmp_path / "one.pdf"), pdf_facts(tmp_path / "runs.pdf")) == []


def test_a_page_of_no_games_longer_than_a_run_is_laid_out_whole(small_built, tmp_path, monkeypatch):
    """With runs shorter than a prose page (the General Rules), the page is laid out whole, as one layout gives it:
    it has no games to cut it at, and was once laid out empty (its anchor then linked to from the contents missing)."""
    import generator.render.pdf.book as pdf
    from generator.book.library import load_library
    from tests.pdffacts import differences, pdf_facts

    project, out = small_built
    lib = load_library(project)
    parts = pdf.BookParts(lib).numbered(None)
    run_html = 3000
    assert any(not part.pieces and len(part.body) > run_html for part in parts)  # the case is there
    monkeypatch.setattr(pdf, "RUN_HTML", run_html)
    pdf.render_book(lib, tmp_path / "runs.pdf", layout=pdf.Layout(Engine(), keep=False))
    assert differences(pdf_facts(out / "pdf" / pdf_name(lib)), pdf_facts(tmp_path / "runs.pdf")) == []

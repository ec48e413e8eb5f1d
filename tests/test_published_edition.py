"""The book's own tests: 2026.1 is the Metzker book as published, everywhere; a correction shows only in the edition
that carries it. (That an edition has only the games it introduced is the tool's: tests/test_build.py, on a fixture.)

Read from the built outputs: the 2026.1 PDF index and the site's index page are seed 000's index line
for line (title, player-count words, order; the page numbers are this PDF's own), and for every record
of rules_data/errata.yaml the published value is what 2026.1 prints where that value is printed (PDF,
index, home page, finder, game page) and the corrected value is what 2026.2 prints there. The table of
places is keyed by the kind of erratum, so a new erratum is checked without a new test.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from generator.book import index as book_index
from generator.book.library import load_library
from generator.book.loader import read_yaml
from generator.book.model import Errata
from generator.book.prose import expand, format_value
from generator.render.views import describe
from generator.render.views.describe import pdf_name
from generator.render.views.pages import game_page
from tests.conftest import CURRENT, PUBLISHED, ROOT
from tests.pagetext import pdf_reader

# The sources sit beside the repository (as CI checks it out); RULEBOOK_SEEDS can point elsewhere.
SEED = Path(os.environ.get("RULEBOOK_SEEDS", ROOT.parent / "shared" / "seeds")) / "000_321aee1cc9de258a.txt"
poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
ERRATA = Errata.model_validate(read_yaml(ROOT / "rules_data" / "errata.yaml", "rules_data/errata.yaml").data).errata
INDEX_PITCH = 3.0  # points a character when reading the index's columns (pdf_index)


def seed_index() -> list[tuple[str, str, str]]:
    """(section heading, title, players) of every line of seed 000's index, in order."""
    return [(section, title, players) for section, _, title, players in seed_index_lines()]


def seed_index_lines() -> list[tuple[str, str, str, str]]:
    """(section heading, page, title, players) of every line of seed 000's index, in order."""
    if not SEED.exists():
        pytest.skip(f"the sources are not at {SEED.parent}")
    text = SEED.read_text(encoding="utf-8")
    block = text[text.index("Index of Games"):text.index("# General Rules")]
    rows, section = [], None
    for line in block.splitlines():
        head = re.match(r"<u>Page</u>\t<u>(.+?)</u>", line) or re.match(r"## (.+)", line)
        if head:
            section = head.group(1).strip(" .")
            continue
        m = re.fullmatch(r"(\d+(?:-\d+)?)\t(.+?)\s*\.+\t(.+)", line)
        if m:
            rows.append((section, m.group(1), m.group(2).strip(), m.group(3).strip()))
    assert len(rows) > 20, "seed 000's index was not found"
    return rows


@cache
def library(edition: str):
    return load_library(ROOT, edition)


@cache
def pdf_pages(pdf: Path, pitch: float | None = None) -> list[str]:
    """The PDF's text, page by page, as laid out (columns kept apart by runs of spaces); ``pitch``
    (points a character) spaces the columns by their real gaps rather than pdftotext's guess."""
    out = subprocess.run(["pdftotext", "-layout", *layout_pitch(pitch), str(pdf), "-"], capture_output=True,
                         text=True, check=True).stdout
    return out.split("\f")


@cache
def bookmarks(pdf: Path) -> list[tuple[str, int, int, float]]:
    """(title, 1-based page, level, points from the page's top) of every bookmark, in outline order."""
    reader, out = pdf_reader(pdf), []

    def walk(items, level):
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
            else:
                page = reader.get_destination_page_number(item)
                down = float(reader.pages[page].mediabox.height) - float(item.top or 0)
                out.append((item.title, page + 1, level, down))
    walk(reader.outline, 1)
    return out


def layout_pitch(pitch: float | None) -> list[str]:
    return ["-fixed", str(pitch)] if pitch else []


def pdf_part(pdf: Path, title: str, pitch: float | None = None) -> list[str]:
    """The pages of one bookmarked part (a game, a prose page, the index), up to the next part as high.

    Parts run on (games within a section; the errata after the index), so the page the next part
    starts on is included down to that part's heading: the part may end on it."""
    marks = bookmarks(pdf)
    i, start, level = next((i, page, lvl) for i, (t, page, lvl, _) in enumerate(marks) if t == title)
    end, down = next(((page, d) for _, page, lvl, d in marks[i + 1:] if lvl <= level and page > start),
                     (len(pdf_pages(pdf)) + 1, 0.0))
    tail = [] if end > len(pdf_pages(pdf)) else [page_above(pdf, end, down, pitch)]
    return pdf_pages(pdf, pitch)[start - 1:end - 1] + tail


def page_above(pdf: Path, page: int, down: float, pitch: float | None = None) -> str:
    """The layout text of one page above ``down`` points from its top."""
    width = float(pdf_reader(pdf).pages[page - 1].mediabox.width)
    return subprocess.run(["pdftotext", "-layout", *layout_pitch(pitch), "-f", str(page), "-l", str(page), "-x", "0", "-y", "0",
                           "-W", str(int(width)), "-H", str(int(down)), str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout


def flat(text: str) -> str:
    """Text with its line breaks and runs of spaces as single spaces (a value may wrap)."""
    return " ".join(text.split())


def html_text(path: Path) -> str:
    """A built page's visible article text."""
    page = path.read_text(encoding="utf-8")
    body = page[page.find("<article"):page.rfind("</article>")]
    return flat(html.unescape(re.sub(r"<[^>]+>", " ", body)))


def table_rows(path: Path, table_class: str) -> list[list[str]]:
    """The body rows of every table with ``table_class`` on a built page, as cell texts."""
    page = path.read_text(encoding="utf-8")
    rows = []
    for table in re.findall(rf'<table class="[^"]*\b{table_class}\b[^"]*">(.*?)</table>', page, re.S):
        for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[-1], re.S):
            cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
            rows.append([flat(html.unescape(re.sub(r"<[^>]+>", "", c))) for c in cells])
    return rows


def pdf_index(built: dict[str, Path], edition: str) -> list[tuple[str, str, str, str]]:
    """(section, page, title, players) of every line of the PDF's index, in order.

    Columns are runs of two or more spaces apart; the players are the last column (a computed
    index also has an equipment column between).
    """
    lib = library(edition)
    pdf = built[edition] / "pdf" / pdf_name(lib)
    sections = {s.title for s in lib.book.sections}
    rows, section = [], None
    # At a 3 pt pitch, a cell whose text runs up to the next column (2026.2's equipment) is still
    # two spaces or more from it; words within a cell (about 2.5 pt apart at 9 pt) stay one apart.
    for page in pdf_part(pdf, lib.book.index_title, pitch=INDEX_PITCH):
        for line in page.splitlines():
            cells = re.split(r"\s{2,}", line.strip())
            if line.strip() in sections:  # a section's caption or heading row
                section = line.strip()
            elif cells[0] == "Page" and len(cells) > 1 and cells[1] in sections:  # headed as the book heads it
                section = cells[1]
            if len(cells) >= 3 and re.fullmatch(r"\d+(?:[–-]\d+)?", cells[0]):
                rows.append((section, cells[0], cells[1], cells[-1]))
    return rows


# ---- The index as printed -------------------------------------------------------------------

def index_errata(edition: str) -> dict[tuple[str, int], str]:
    """(section id, row) -> corrected player count, for every index erratum ``edition`` carries."""
    out = {}
    for e in ERRATA:
        m = re.fullmatch(r"printed_index\.sections\.(\w+)\.(\d+)\.players", e.path or "")
        if m and library(edition).in_edition(e.edition):
            out[m.group(1), int(m.group(2))] = str(e.corrected)
    return out


def seed_rows(edition: str) -> list[tuple[str, str, str]]:
    """Seed 000's index lines as ``edition`` prints them: the edition's index errata applied."""
    titles = {s.title: s.id for s in library(edition).book.sections}
    corrected, rows, seen = index_errata(edition), [], Counter()
    for section, title, players in seed_index():
        key = (titles[section], seen[section])
        seen[section] += 1
        rows.append((section, title, corrected.get(key, players)))
    return rows


def added_rows(edition: str) -> dict[str, tuple[str, str, str]]:
    """game id -> (section, heading, players as its page says) of the games added since the book."""
    lib, published = library(edition), library(PUBLISHED)
    titles = {s.id: s.title for s in lib.book.sections}
    return {gs.id: (titles[gs.game.category], game_page(lib, gs).heading(), str(gs.game.players))
            for gs in lib.ordered_games() if gs.id not in published.games}


def check_index_rows(rows: list[tuple[str, str, str]], edition: str) -> None:
    """The rows an edition's index prints: seed 000's (errata applied), then the added games in alphabetical place."""
    added = added_rows(edition)
    assert (edition == PUBLISHED) == (not added)
    assert [r for r in rows if r not in added.values()] == seed_rows(edition)
    for row in added.values():
        assert rows.count(row) == 1, f"{row}: not once in the {edition} index"
    for section in {s for s, _, _ in seed_index()}:
        printed = [t for s, t, _ in seed_index() if s == section]
        if printed == sorted(printed, key=str.lower):  # the book sorts this section: '10 Dime Rummy' < '500 Rummy' < 'Arizona'
            titles = [t for s, t, _ in rows if s == section]
            assert titles == sorted(titles, key=str.lower), f"{edition}: {section} is not in alphabetical order"


@poppler
@pytest.mark.parametrize("edition", [PUBLISHED, CURRENT])
def test_pdf_index_is_seed_000s_index_as_the_edition_corrects_it(built, edition):
    check_index_rows([(s, t, p) for s, _, t, p in pdf_index(built, edition)], edition)


@poppler
@pytest.mark.parametrize("edition", [PUBLISHED, CURRENT])
def test_pdf_index_pages_are_this_pdfs_pages(built, edition):
    """The page numbers are where each game starts in this PDF, and the errata page says what differs."""
    lib = library(edition)
    pdf = built[edition] / "pdf" / pdf_name(lib)
    starts = {title: page for title, page, _, _ in reversed(bookmarks(pdf))}  # first page of each title
    entries = [r for rows in book_index.index_rows(lib).values() for r in rows]
    printed = pdf_index(built, edition)
    assert len(printed) == len(entries)
    labels = pdf_reader(pdf).page_labels  # the numbers the pages print (1, 2, ... where the PDF gives none)
    for (_, page, title, _), entry in zip(printed, entries, strict=True):
        heading = game_page(lib, lib.games[entry.game]).heading()
        first = re.match(r"\d+", page)[0]
        assert first == labels[starts[heading] - 1], f"{title}: page {page}, the game starts on {labels[starts[heading] - 1]}"
    if not book_index.printed_pages(lib):  # an edition laid out as printed has no errata page, as the printed book had none
        errata = flat(" ".join(pdf_part(pdf, "Errata")))
        assert book_index.printed_index_note(lib) in errata, "the errata page must say what the index changes"


@poppler
def test_the_published_edition_is_laid_out_as_printed(built):
    """Every row of 2026.1's index prints the page seed 000's index gives the game, and the page labelled with that
    number opens the game (its heading the first text under the running head), its folio printing that number;
    the pages are labelled as the book numbers them: front matter in roman, then 1, 2, ... from the first game,
    a page the book did not have numbered after the page before it ('30a')."""
    lib = library(PUBLISHED)
    pdf = built[PUBLISHED] / "pdf" / pdf_name(lib)
    printed, texts = pdf_index(built, PUBLISHED), pdf_pages(pdf)
    assert [page for _, page, _, _ in printed] == [page for _, page, _, _ in seed_index_lines()]
    labels = pdf_reader(pdf).page_labels
    body = next(n for n, label in enumerate(labels) if label == "1")
    assert all(re.fullmatch(r"[ivxl]+", label) for label in labels[:body]), labels[:body]
    number = 0
    for label in labels[body:]:
        number += not re.fullmatch(rf"{number}[a-z]", label)
        assert re.fullmatch(rf"{number}[a-z]?", label), f"page {label} after page {number}"
    entries = [r for rows in book_index.index_rows(lib).values() for r in rows]
    for (_, page, title, _), entry in zip(printed, entries, strict=True):
        at = labels.index(re.match(r"\d+", page)[0])
        lines = [line.strip() for line in texts[at].splitlines() if line.strip()]
        heading = game_page(lib, lib.games[entry.game]).heading()
        assert lines[1] == heading, f"{title}: page {labels[at]} opens with {lines[1]!r}, not the game"
        assert lines[-1].endswith(f" {labels[at]}"), f"{title}: page {labels[at]} prints {lines[-1]!r}"


def site_index_sections(path: Path) -> list[str]:
    """The section each body row of the site's index tables is headed by (the second header cell)."""
    out = []
    for table in re.findall(r'<table class="[^"]*\bbook-index\b[^"]*">(.*?)</table>', path.read_text(encoding="utf-8"), re.S):
        head, body = table.split("<tbody>", 1)
        section = flat(html.unescape(re.sub(r"<[^>]+>", "", re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)[1])))
        out += [section] * len(re.findall(r"<tr>", body))
    return out


@pytest.mark.parametrize("edition", [PUBLISHED, CURRENT])
def test_site_index_is_the_pdfs_index(built, edition):
    lib = library(edition)
    page = built[edition] / "site" / "book-index" / "index.html"
    rows = table_rows(page, "book-index")
    check_index_rows([(s, t, p) for s, (_, t, p) in zip(site_index_sections(page), rows, strict=True)], edition)
    pdf_pages_of = {t: page for _, page, t, _ in pdf_index(built, edition)} if shutil.which("pdftotext") else {}
    for page, title, _ in rows:
        assert page, f"{title}: no page number"
        if pdf_pages_of:
            assert page == pdf_pages_of[title], f"{title}: the site says page {page}, the PDF {pdf_pages_of[title]}"
    note = book_index.printed_index_note(lib)
    assert note in html_text(built[edition] / "site" / "errata" / "index.html")
    assert note in html_text(built[edition] / "site" / "book-index" / "index.html")


# ---- Every erratum, where it shows ----------------------------------------------------------

def home_players(built, edition: str, game_id: str) -> str:
    page = (built[edition] / "site" / "index.html").read_text(encoding="utf-8")
    m = re.search(rf'<a href="games/{game_id}/"[^>]*>[^<]*</a></td><td>(.*?)</td>', page)
    assert m, f"{game_id}: not on the {edition} home page"
    return html.unescape(m.group(1))


def finder_players(built, edition: str, game_id: str) -> str:
    page = (built[edition] / "site" / "finder" / "index.html").read_text(encoding="utf-8")
    m = re.search(rf'data-game="{game_id}".*?<span class="finder-players">(.*?)</span>', page, re.S)
    assert m, f"{game_id}: not in the {edition} finder"
    return html.unescape(m.group(1))


def index_players(built, edition: str, game_id: str) -> tuple[str, str]:
    """A game's players cell in the PDF index and in the site's index page."""
    lib = library(edition)
    heading = game_page(lib, lib.games[game_id]).heading()
    entry = book_index.index_entry(lib, game_id)
    title = entry.title if entry else heading
    in_pdf = [p for _, _, t, p in pdf_index(built, edition) if t == title]
    in_site = [r[-1] for r in table_rows(built[edition] / "site" / "book-index" / "index.html", "book-index")
               if r[1] == title]
    assert len(in_pdf) == 1 and len(in_site) == 1, f"{title}: not once in the {edition} index"
    return in_pdf[0], in_site[0]


def check_index_players(built, e, game_id: str) -> None:
    """An index player count: verbatim in the published index, and everywhere a reader picks a game."""
    published, corrected = describe.player_count(e.published), describe.player_count(e.corrected)
    assert index_players(built, PUBLISHED, game_id) == (str(e.published), str(e.published))
    assert index_players(built, CURRENT, game_id) == (str(e.corrected), str(e.corrected))
    assert home_players(built, PUBLISHED, game_id) == published
    assert home_players(built, CURRENT, game_id) == corrected
    assert finder_players(built, PUBLISHED, game_id).startswith(published)
    assert finder_players(built, CURRENT, game_id).startswith(corrected)


def check_index_title(built, e) -> None:
    for edition, value in ((PUBLISHED, e.published), (CURRENT, e.corrected)):
        lib = library(edition)
        pdf = built[edition] / "pdf" / pdf_name(lib)
        first_line = next(line for line in pdf_part(pdf, str(value))[0].splitlines() if line.strip())
        assert first_line.strip() == value, (e.id, edition)
        assert html_text(built[edition] / "site" / "book-index" / "index.html").startswith(str(value))


def text_outputs(built, edition: str, file: str) -> tuple[str, str] | None:
    """(site text, PDF text) of the page a prose file prints on; None if the edition does not print it."""
    lib = library(edition)
    name = Path(file).stem
    game_id, _, variant = name.partition(".")
    if game_id in lib.games:
        gs = lib.games[game_id]
        if variant and variant not in {v.id for v, _ in game_page(lib, gs).variants}:
            return None
        site, title = built[edition] / "site" / "games" / game_id / "index.html", game_page(lib, gs).heading()
    elif name in lib.pages:
        site, title = built[edition] / "site" / name / "index.html", next(p.title for p in lib.book.pages if p.id == name)
    else:
        return None
    return html_text(site), flat(" ".join(pdf_part(built[edition] / "pdf" / pdf_name(lib), title)))


def check_text(built, e) -> None:
    """A prose correction: 2026.1 prints the published words where 2026.2 prints the corrected ones."""
    published = str(e.published)
    corrected = expand(str(e.corrected), library(CURRENT).scope())
    old, new = text_outputs(built, PUBLISHED, e.file), text_outputs(built, CURRENT, e.file)
    assert new is not None, f"{e.file} is not printed in {CURRENT}"
    for where, now in zip(("site", "PDF"), new, strict=True):
        if old is None:  # the page came later: the published slip was never printed by the book
            assert now.count(corrected) >= e.count and published not in now, (e.id, where)
            continue
        then = old[("site", "PDF").index(where)]
        assert then.count(published) - now.count(published) == e.count, (e.id, where, "published")
        assert now.count(corrected) - then.count(corrected) == e.count, (e.id, where, "corrected")


def check_example(built, e, game_id: str, variant: int | None, key: str, name: str) -> None:
    """A worked-example figure: its row of the example table shows the edition's value."""
    for edition, value in ((PUBLISHED, e.published), (CURRENT, e.corrected)):
        lib = library(edition)
        gs = lib.games.get(game_id)
        page = game_page(lib, gs) if gs else None
        if variant is None:
            view = page.main if page else None
        else:
            vid = gs.game.variants[variant].id if gs else None
            view = next((v for var, v in page.variants if var.id == vid), None) if page else None
        site = built[edition] / "site" / "games" / game_id / "index.html"
        table = f'id="{view.prefix if view else ""}example-{key}"'
        if view is None:
            assert edition == PUBLISHED, f"{e.id}: nothing to show in {edition}"
            assert not site.exists() or f"example-{key}" not in site.read_text(encoding="utf-8")
            continue
        label = view.body.examples[key].values[name]
        label = getattr(label, "label", None) or name.replace("_", " ")
        page_html = site.read_text(encoding="utf-8")
        part = page_html[page_html.index(table):]
        part = part[:part.index("</table>")]
        row = next(r for r in re.findall(r"<tr>(.*?)</tr>", part, re.S) if html.unescape(re.sub(r"<[^>]+>", "", r)).startswith(label))
        assert re.search(rf'class="figure">{re.escape(format_value(value))}</td>', row), (e.id, edition, row)
        pdf_lines = [flat(line) for p in pdf_part(built[edition] / "pdf" / pdf_name(lib), page.heading())
                     for line in p.splitlines()]
        assert any(line.startswith(label) and line.endswith(f" {format_value(value)}") for line in pdf_lines), \
            (e.id, edition, label)


def changed_words(published: str, corrected: str) -> tuple[str, str]:
    """The words a text correction changes ('3 4,s is' -> '3 4's is': "4,s", "4's"), whole words."""
    start = next((i for i, (a, b) in enumerate(zip(published, corrected, strict=False)) if a != b), min(len(published), len(corrected)))
    end = 0
    while end < min(len(published), len(corrected)) - start and published[-1 - end] == corrected[-1 - end]:
        end += 1
    start = max(published.rfind(" ", 0, start), corrected.rfind(" ", 0, start)) + 1

    def word_end(text: str) -> int:
        space = text.find(" ", len(text) - end)
        return len(text) if space < 0 else space

    return published[start:word_end(published)], corrected[start:word_end(corrected)]


def check_data_text(built, e) -> None:
    """A word corrected in a game's data text: its page prints the slip in 2026.1, the correction in 2026.2."""
    slip, fixed = changed_words(str(e.published), str(e.corrected))
    assert slip and fixed and slip != fixed, e.id
    page = f"content/{Path(e.file).stem}.md"
    for where, then, now in zip(("site", "PDF"), text_outputs(built, PUBLISHED, page), text_outputs(built, CURRENT, page),
                                strict=True):
        # The corrected word may print in 2026.1 too, in the program's own words (a worked example's label, issue
        # 52: never a slip the book printed there): the correction adds it where the slip was.
        assert slip in then and then.count(fixed) < now.count(fixed), (e.id, where, PUBLISHED)
        assert fixed in now and slip not in now, (e.id, where, CURRENT)


def check(built, e) -> None:
    """Dispatch an erratum to the places its kind of value is printed."""
    path = e.path or ""
    if e.path is None:
        return check_text(built, e)
    m = re.fullmatch(r"printed_index\.sections\.(\w+)\.(\d+)\.players", path)
    if m:
        book = read_yaml(ROOT / "rules_data" / "book.yaml", "rules_data/book.yaml").data
        return check_index_players(built, e, book["printed_index"]["sections"][m.group(1)][int(m.group(2))]["game"])
    if e.file == "rules_data/book.yaml" and path == "index_title":
        return check_index_title(built, e)
    m = re.fullmatch(r"(?:variants\.(\d+)\.)?examples\.(\w+)\.values\.(\w+)(?:\.stated)?", path)
    if m and e.file.startswith("rules_data/"):
        variant = int(m.group(1)) if m.group(1) else None
        return check_example(built, e, Path(e.file).stem, variant, m.group(2), m.group(3))
    if isinstance(e.published, str) and isinstance(e.corrected, str) and e.file.startswith("rules_data/") \
            and re.fullmatch(r"(scoring\.\w+\.items\.\d+\.value|examples\.\w+\.values\.\w+\.label)", path):
        return check_data_text(built, e)
    raise AssertionError(f"erratum '{e.id}' ({e.file}: {path}): no rule says where this kind of value is printed; "
                         "add one to tests/test_published_edition.py")


@poppler
@pytest.mark.parametrize("erratum", ERRATA, ids=[e.id for e in ERRATA])
def test_each_correction_shows_only_in_its_edition(built, erratum):
    check(built, erratum)


# ---- Summaries the reader sees before the rules --------------------------------------------

@pytest.mark.parametrize("edition", [PUBLISHED, CURRENT])
def test_glance_boxes_show_the_editions_own_data(built, edition):
    """Every "at a glance" box on the built site is the one described from this edition's data.

    The published edition's data has every erratum undone (generator/book/library.py), so a corrected
    value in a 2026.1 box, or a published one in 2026.2, fails here.
    """
    lib = library(edition)
    for gs in lib.ordered_games():
        page = game_page(lib, gs)
        site = built[edition] / "site" / "games" / gs.id / "index.html"
        boxes = table_rows(site, "glance-table")
        expected = [[label, text] for view in [page.main] + [v for _, v in page.variants] for label, text in view.glance]
        assert boxes == expected, gs.id


@pytest.mark.parametrize("edition", [PUBLISHED, CURRENT])
def test_home_and_finder_repeat_the_editions_player_counts(built, edition):
    """The home page and finder give each game the count this edition states (its printed index, if any)."""
    lib = library(edition)
    for gs in lib.ordered_games():
        stated = book_index.index_entry(lib, gs.id).players if book_index.printed_index(lib) else gs.game.players
        assert home_players(built, edition, gs.id) == describe.player_count(stated), gs.id
        assert finder_players(built, edition, gs.id).startswith(describe.player_count(stated)), gs.id


def test_the_published_edition_has_only_the_games_it_printed(library, published_library):
    """The book's: 2026.2 adds five games to those the family printed."""
    new = set(library.games) - set(published_library.games)
    assert new == {"trash", "chase-the-ace", "basic-rummy", "skull-and-roses", "gin-rummy"}
    assert all(gs.game.introduced == "2026.1" for gs in published_library.games.values())

"""Structure as the sources write it, read back from the built site and PDF: nesting, bold, diagrams.

Sub-items are found in the seeds themselves (a list item indented under a list item), so a sub-rule
added to a source is tested without touching this file.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.book.prose import expand
from generator.render.views.describe import pdf_name
from generator.render.views.pages import game_page
from generator.render.views.sheets import sheet_round, sheet_rows
from tests.conftest import CURRENT, PUBLISHED, ROOT
from tests.test_published_edition import pdf_pages
from tests.textmatch import normalise, page_text, source_line

SEEDS = Path(os.environ.get("RULEBOOK_SEEDS", ROOT.parent / "shared" / "seeds"))
ITEM = re.compile(r"^( *)(?:[-*+•]|\d+[.)]) +\S")
poppler = pytest.mark.skipif(shutil.which("pdftotext") is None or shutil.which("pdftohtml") is None,
                             reason="poppler-utils is not installed")


def seed_sub_items() -> list[tuple[str, int, str, str]]:
    """(seed, line number, parent line, sub-item line) for each list item indented under a list item."""
    out: list[tuple[str, int, str, str]] = []
    for seed in sorted(SEEDS.glob("*.txt")):
        lines = seed.read_text(encoding="utf-8").splitlines()
        stack: list[tuple[int, str]] = []  # the open items: (indent, line)
        for n, line in enumerate(lines, 1):
            m = ITEM.match(line)
            if not m:
                if line.strip():
                    stack = []  # a paragraph (or heading) ends the list
                continue
            indent = len(m.group(1))
            while stack and stack[-1][0] >= indent:
                stack.pop()
            if stack:
                out.append((seed.name, n, stack[-1][1], line))
            stack.append((indent, line))
    return out


SUB_ITEMS = seed_sub_items()


@pytest.mark.skipif(not SEEDS.exists(), reason=f"the sources are not at {SEEDS}")
def test_the_seeds_have_sub_items():
    """The sources' nesting this file tests is really found (Hearts, Sweep, Push, Arizona Rummy)."""
    assert len(SUB_ITEMS) >= 11 and {s for s, *_ in SUB_ITEMS} >= {"000_321aee1cc9de258a.txt"}


def _edition(seed: str) -> str:
    return PUBLISHED if seed.startswith("000") else CURRENT  # 2026.1 is seed 000 word for word


# --- the site: nested <li> --------------------------------------------------------------------------

@dataclass
class Li:
    parent: Li | None
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return normalise("".join(self.parts))


class _Items(HTMLParser):
    """Every <li> of a page with its own text (not its sub-list's) and the <li> it is nested in."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[Li] = []
        self.open: list[Li] = []
        self.lists: list[int] = []  # len(self.open) when each open <ul>/<ol> began

    def handle_starttag(self, tag, attrs):
        if tag in ("ul", "ol"):
            self.lists.append(len(self.open))
        elif tag == "li":
            li = Li(self.open[-1] if self.open else None)
            self.items.append(li)
            self.open.append(li)

    def handle_endtag(self, tag):
        if tag == "li" and self.open:
            self.open.pop()
        elif tag in ("ul", "ol") and self.lists:
            del self.open[self.lists.pop():]

    def handle_data(self, data):
        if self.open:
            self.open[-1].parts.append(data)


def _site_items(site: Path) -> list[Li]:
    items = []
    for page in sorted((site / "games").glob("*/index.html")):
        parser = _Items()
        parser.feed(page.read_text(encoding="utf-8"))
        items += parser.items
    return items


@pytest.fixture(scope="module")
def site_items(built) -> dict[str, list[Li]]:
    return {edition: _site_items(out / "site") for edition, out in built.items()}


@pytest.mark.parametrize(("seed", "line", "parent", "child"), SUB_ITEMS,
                         ids=[f"{s[:3]}:{n}" for s, n, _, _ in SUB_ITEMS])
def test_source_sub_item_is_a_nested_li_on_the_site(site_items, seed, line, parent, child):
    want = normalise(source_line(child))
    found = [li for li in site_items[_edition(seed)] if li.text == want]
    assert found, f"{seed}:{line}: no list item reads {child.strip()!r}"
    for li in found:
        assert li.parent is not None, f"{seed}:{line}: {child.strip()!r} is a top-level item, not under its rule"
        assert li.parent.text == normalise(source_line(parent)), f"{seed}:{line}: nested under the wrong item"


# --- the PDF: the sub-item's text starts right of its parent's ------------------------------------

def _bbox(pdf: Path, tmp_path: Path) -> list[tuple[int, float, float, str]]:
    """(page, x, y, word) for every word of a PDF, as pdftotext -bbox reads it."""
    out_file = tmp_path / f"{pdf.stem}.bbox.html"
    subprocess.run(["pdftotext", "-bbox", str(pdf), str(out_file)], check=True)
    words = []
    for n, page in enumerate(out_file.read_text(encoding="utf-8").split("<page ")[1:], 1):
        for x, y, word in re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)</word>', page):
            words.append((n, float(x), float(y), unescape(word)))
    return words


def _words(pdf: Path, tmp_path: Path) -> list[tuple[int, float, str]]:
    """(page, x, word) for every word of a PDF, each normalised word on its own (one PDF word may give two)."""
    return [(n, x, w) for n, x, _, word in _bbox(pdf, tmp_path) for w in normalise(word).split()]


def _find(words: list[tuple[int, float, str]], seq: list[str], start: int = 0) -> int:
    for i in range(start, len(words) - len(seq) + 1):
        if all(words[i + k][2] == w for k, w in enumerate(seq)):
            return i
    return -1


@pytest.fixture(scope="module")
def book_words(built, library, published_library, tmp_path_factory) -> dict[str, list[tuple[int, float, str]]]:
    tmp = tmp_path_factory.mktemp("bbox")
    return {edition: _words(built[edition] / "pdf" / pdf_name(lib), tmp)
            for edition, lib in ((CURRENT, library), (PUBLISHED, published_library))}


INDENT = 6.0  # points: a nested list starts its text at least this far right of its parent's text


@poppler
@pytest.mark.parametrize(("seed", "line", "parent", "child"), SUB_ITEMS,
                         ids=[f"{s[:3]}:{n}" for s, n, _, _ in SUB_ITEMS])
def test_source_sub_item_is_indented_under_its_parent_in_the_pdf(book_words, seed, line, parent, child):
    words = book_words[_edition(seed)]
    parent_words = normalise(source_line(parent)).split()
    at = _find(words, parent_words[:8])
    assert at >= 0, f"{seed}:{line}: the rule {parent.strip()!r} is not in the PDF"
    siblings = [c for s, n, p, c in SUB_ITEMS if s == seed and p == parent and n <= line]
    pos = at + len(parent_words) // 2
    for sibling in siblings:  # the sub-items in order after their rule, this one last
        pos = _find(words, normalise(source_line(sibling)).split()[:4], pos)
        assert pos >= 0, f"{seed}:{line}: {sibling.strip()!r} is not in the PDF after its rule"
    (page, x_parent, _), (child_page, x_child, _) = words[at], words[pos]
    assert x_child >= x_parent + INDENT, \
        f"{seed}:{line}: {child.strip()!r} starts at x {x_child}, its rule at {x_parent} (p. {page}/{child_page})"


# --- no Markdown printed as text ------------------------------------------------------------------

LITERAL = re.compile(r"\*\*|__|`")  # the PDFs are scanned for it with the rest in test_reader_text


def test_no_literal_markdown_on_any_site_page(built):
    for edition, out in built.items():
        for page in sorted((out / "site").rglob("*.html")):
            text = page_text(page.read_text(encoding="utf-8"))
            m = LITERAL.search(text)
            assert not m, f"{edition} {page.relative_to(out)}: {text[max(0, m.start() - 40):m.end() + 40]!r}"


# --- bold exactly where the YAML has **bold** -----------------------------------------------------

BOLD = re.compile(r"\*\*(.+?)\*\*")


def _yaml_strings(data) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in _yaml_strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in _yaml_strings(v)]
    return []


def test_every_bold_phrase_in_the_data_is_bold_on_its_page(built, library):
    pages = 0
    for gs in library.ordered_games():
        phrases = {m for s in _yaml_strings(gs.doc.data) for m in BOLD.findall(s)}
        if not phrases:
            continue
        pages += 1
        html = (built[CURRENT] / "site" / "games" / gs.id / "index.html").read_text(encoding="utf-8")
        for phrase in phrases:
            assert f"<strong>{phrase}</strong>" in html, f"{gs.id}: **{phrase}** is not bold on the site"
    assert pages >= 3  # Court Whist, Sticks, Sweep


def _sheet_labels(lib, gs) -> list[tuple[str, list[bool]]]:
    """Each row label of a game's score sheet as plain words, with whether the source bolds each word."""
    view = game_page(lib, gs).main
    sheet = view.body.score_sheet
    out = []
    for block in sheet.blocks if sheet else []:
        if block.sample_only:
            continue
        rnd = sheet_round(view, block)
        note = block.note or (rnd.text if rnd else None)
        total = expand(block.total, block.model_dump(exclude_none=True)) if block.total else None
        for label in [note, *sheet_rows(view, block), total]:
            if not label:
                continue
            label = expand(label, *view.scopes)
            words: list[tuple[str, bool]] = []
            for i, part in enumerate(re.split(r"\*\*", label)):  # odd parts are between ** and **
                words += [(w, i % 2 == 1) for w in part.split()]
            out.append((" ".join(w for w, _ in words), [b for _, b in words]))
    return out


def _pdf_bold_words(pdf: Path) -> list[tuple[str, bool, bool, bool]]:
    """Every word of a PDF in order: (word, set in a bold face, first of its line, last of its line).

    pdftohtml marks bold runs <b> and gives each line of text (a table cell's line) its own element.
    """
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", "-q", str(pdf)], check=True, capture_output=True,
                         text=True).stdout
    words = []
    for body in re.findall(r"<text [^>]*>(.*?)</text>", xml):
        bold, line = False, []
        for token in re.split(r"(</?b>)", body):
            if token in ("<b>", "</b>"):
                bold = token == "<b>"
            else:
                line += [(unescape(re.sub(r"<[^>]+>", "", w)), bold) for w in token.split()]
        words += [(w, b, i == 0, i == len(line) - 1) for i, (w, b) in enumerate(line)]
    return words


@poppler
def test_score_sheet_labels_are_bold_exactly_where_the_source_bolds(built, library, published_library):
    """Court Whist's King-Spades, Hearts, Diamonds, extra are bold; their neighbours and the totals are not."""
    checked_bold = 0
    for edition, lib in ((CURRENT, library), (PUBLISHED, published_library)):
        for gs in lib.ordered_games():
            if not gs.game.keeps_score():
                continue  # no sheet: the rules keep no score
            sheet = built[edition] / "pdf" / "score-sheets" / f"{gs.id}.pdf"
            words = _pdf_bold_words(sheet)
            texts = [w[0] for w in words]
            pos = 0
            for plain, bold in _sheet_labels(lib, gs):
                seq = plain.split()
                # In order, and a whole cell: a row labelled "1" is not the "1" of the heading "Player 1".
                at = next((i for i in range(pos, len(texts) - len(seq) + 1) if texts[i:i + len(seq)] == seq
                           and words[i][2] and words[i + len(seq) - 1][3]), -1)
                assert at >= 0, f"{edition} {gs.id}: row {plain!r} is not on its score sheet in its place"
                pos = at + len(seq)
                got = [w[1] for w in words[at:at + len(seq)]]
                assert got == bold, f"{edition} {gs.id}: row {plain!r} bold {got}, the source {bold}"
                checked_bold += sum(bold)
    assert checked_bold >= 2 * 13  # not vacuous: Court Whist has 4 King-…, 4 x Hearts and Diamonds, extra


def test_score_sheet_labels_on_the_site_are_strong_only_where_bold(built, library):
    """The site's row labels carry <strong> only around the source's **bold** (the CSS keeps th plain)."""
    for gs in library.ordered_games():
        html = (built[CURRENT] / "site" / "games" / gs.id / "index.html").read_text(encoding="utf-8")
        sheet = html[html.find('<div class="score-sheet'):]
        cells = re.findall(r'<th scope="row"[^>]*>(.*?)</th>', sheet)
        for plain, bold in _sheet_labels(library, gs):
            strong = [w for w, b in zip(plain.split(), bold, strict=True) if b]
            matches = [c for c in cells if " ".join(re.sub(r"<[^>]+>", " ", unescape(c)).split()) == plain]
            assert matches, f"{gs.id}: row {plain!r} is not on the site's score sheet"
            for cell in matches:
                assert " ".join(re.findall(r"<strong>(.*?)</strong>", cell)).split() == strong, f"{gs.id}: {cell!r}"


# --- preformatted blocks: every line, in order, each character in its column -------------------------

FENCE = re.compile(r"^```[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)


def _fenced_blocks(library) -> list[tuple[str, str]]:
    """(game id, block text) for each fenced block in the prose of the edition's games and variants."""
    out = []
    for gs in library.ordered_games():
        for prose in [gs.prose, *gs.variant_prose.values()]:
            if prose is not None:
                out += [(gs.id, m.group(1)) for m in FENCE.finditer(prose.text)]
    return out


def _line_fit(points: list[tuple[float, float]]) -> tuple[float, float, float]:
    """Least-squares line v = a + b*u through (u, v) points: (a, b, largest miss)."""
    n = len(points)
    mu, mv = sum(u for u, _ in points) / n, sum(v for _, v in points) / n
    b = sum((u - mu) * (v - mv) for u, v in points) / sum((u - mu) ** 2 for u, _ in points)
    a = mv - b * mu
    return a, b, max(abs(v - (a + b * u)) for u, v in points)


@poppler
def test_preformatted_blocks_print_line_for_line_and_column_for_column(built, library, tmp_path):
    """Family Golf's card layout: the PDF has each line of the block, in order, blank lines kept, and every
    character where its column puts it (one character width per column, one line height per line)."""
    blocks = _fenced_blocks(library)
    assert blocks, "no fenced block in the prose (Family Golf's diagram is one)"
    rows: dict[tuple[int, float], list[tuple[float, str]]] = {}
    for page, x, y, word in _bbox(built[CURRENT] / "pdf" / pdf_name(library), tmp_path):
        rows.setdefault((page, round(y, 2)), []).append((x, word))
    ordered = sorted(rows)
    for game, block in blocks:
        lines = [(i, line) for i, line in enumerate(block.splitlines()) if line.strip()]
        want = [line.split() for _, line in lines]
        found = None
        for k, first in enumerate(ordered):  # each line on a later row of the same page than the line before
            keys, at = [], k
            for words in want:
                at = next((m for m in range(at, len(ordered)) if ordered[m][0] == first[0]
                           and [w for _, w in sorted(rows[ordered[m]])] == words), -1)
                if at < 0:
                    break
                keys.append(ordered[at])
                at += 1
            if len(keys) == len(want):
                found = keys
                break
        assert found, f"{game}: the block's lines are not on one page of the PDF in order: {block!r}"
        columns, heights = [], []
        for (i, line), key in zip(lines, found, strict=True):
            heights.append((i, key[1]))
            cols = [m.start() for m in re.finditer(r"\S+", line)]
            columns += [(c, x) for c, (x, _) in zip(cols, sorted(rows[key]), strict=True)]
        _, width, miss = _line_fit(columns)
        assert width > 3 and miss < 0.5, f"{game}: characters off their columns by {miss:.2f} pt (width {width:.2f})"
        _, height, miss = _line_fit(heights)
        assert height > 5 and miss < 0.5, f"{game}: lines off their places by {miss:.2f} pt (blank lines lost?)"


# --- nothing of the sources' machinery reaches a reader ---------------------------------------------



# --- running heads name the game the reader is in at the top of the page ---------------------------

def _running_head_faults(pdf: Path, titles: set[str]) -> list[tuple[int, str, str]]:
    """(page, head, the title the page's top belongs to) for each page whose head names another."""
    current, faults = None, []
    # One pdftotext for the book, split at its form feeds: each page's text as pdftotext -f n -l n gives it.
    for n, text in enumerate(pdf_pages(pdf)[:-1], 1):
        head, *body = [line.strip() for line in text.splitlines() if line.strip()] or [""]
        at_top = body[0] if body and body[0] in titles else current  # a title opening the page, else the one read last
        if at_top and head and head not in titles and not head.startswith(at_top):
            faults.append((n, head, at_top))
        current = next((line for line in reversed(body) if line in titles), current)
    return faults


@poppler
def test_every_running_head_names_the_game_at_the_top_of_its_page(built, library):
    titles = ({game_page(library, gs).heading() for gs in library.ordered_games()}
              | {p.title for p in library.book.pages} | {s.title for s in library.book.sections}
              | {"Contents", "Errata", library.book.index_title,
                                                        "Alphapetical Index of Games"}
              | {f"What changed in {e.id}" for e in library.book.editions})
    for edition, out in built.items():
        pdf = out / "pdf" / pdf_name(library).replace(CURRENT, edition)
        assert _running_head_faults(pdf, titles) == [], edition

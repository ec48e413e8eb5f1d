"""What a reader sees never shows the machinery: no unresolved reference or template syntax, no file
or data path, no check id, on any site page, in the search index, or in any PDF of either edition.

The one exception is the contributor's box under each game ("Found a mistake? Correct the rules in
rules_data/x.yaml ..."), which names the files to edit on purpose.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from generator.checks import load_all
from generator.render.views.describe import pdf_name
from tests.conftest import ROOT
from tests.test_structure import LITERAL, poppler
from tests.textmatch import page_text

FORBIDDEN = {  # what a reader must not see: the developer's names for where and what
    "unresolved reference": r"\{[a-z_]+(?:\\?[._][a-z0-9_]+)+(?::[a-z_]+)?\}",
    "template syntax": r"\{\{|\}\}|\{%|%\}",
    "data folder": r"rules_data/|content/",
    "source file": r"\.ya?ml\b|\.md\b",
    "dotted data path": r"\b[a-z_]+\.\d+\.[a-z_]|\b[a-z_]+\.[a-z_]+\.[a-z_]+\b",  # variants.1.x, printed_index.sections.x
    "check id": "|".join(rf"\b{re.escape(name)}\b" for name in sorted(load_all())),
}
SCAN = re.compile("|".join(f"(?P<{re.sub(r'[^a-z]', '_', name)}>{p})" for name, p in FORBIDDEN.items()))
CONTRIBUTOR = re.compile(r"Found a mistake\?\s+Correct the rules in .*?how to contribute\s*\.", re.S)


def site_texts(out: Path):
    """(where, text) of every built site page and every search-index entry, as a reader sees them."""
    for page in sorted((out / "site").rglob("*.html")):
        yield page.relative_to(out), page_text(page.read_text(encoding="utf-8"))
    index = out / "site" / "search" / "search_index.json"
    if index.exists():  # what the search shows a reader: each entry's title and text
        for doc in json.loads(index.read_text(encoding="utf-8"))["docs"]:
            yield f"{index.relative_to(out)} {doc['location']}", f"{doc['title']} {page_text(doc['text'])}"


def found(text: str) -> re.Match | None:
    """The first thing in a reader's text that only a developer should see."""
    return SCAN.search(CONTRIBUTOR.sub(" ", text))


@pytest.mark.parametrize("text, expected", [
    ("Deal {deal.each} cards", "unresolved_reference"), ("to {goal.then\\_back\\_to:word}", "unresolved_reference"),
    ("{{ game.title }}", "template_syntax"), ("{% if x %}", "template_syntax"),
    ("see rules_data/book.yaml", "data_folder"), ("errata.yaml", "source_file"),
    ("printed_index.sections.equipment", "dotted_data_path"), ("variants.1.examples", "dotted_data_path"),
    ("spelling.unknown_word", "check_id"), ("caught by scoring.total_mismatch", "check_id"),
    ("Deal 13 cards {+match+}", None), ("e.g. 3 2's is 200", None), ("brent.metzker@gmail.com", None),
    ("Found a mistake? Correct the rules in rules_data/golf.yaml or content/golf.md; see how to contribute.", None),
])
def test_the_scan_knows_what_a_reader_must_not_see(text, expected):
    m = found(text)
    assert (m.lastgroup if m else None) == expected


def test_no_site_page_or_search_entry_shows_the_machinery(built):
    for edition, out in built.items():
        for where, text in site_texts(out):
            m = found(text)
            assert not m, f"{edition} {where}: {m.lastgroup}: {text[max(0, m.start() - 60):m.end() + 60]!r}"


@poppler
def test_no_pdf_shows_the_machinery_or_literal_markdown(built):
    for edition, out in built.items():
        for pdf in sorted((out / "pdf").rglob("*.pdf")):
            text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True,
                                  text=True).stdout
            m = found(text) or LITERAL.search(text)
            assert not m, f"{edition} {pdf.name}: {text[max(0, m.start() - 60):m.end() + 60]!r}"


# --- print speaks of paper --------------------------------------------------------------------------

# What a reader of the printed book cannot follow: a file name or a web or mail address. The family's own
# address, which the sources print, is the one exception (read from the sources, not written here).
ON_PAPER = re.compile(r"[\w./-]+\.(?:pdf|ya?ml|md)\b|https?://\S+|\bwww\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
                      r"|(?<![\w.])[\w-]+\.(?:com|org|net|io)\b")


def source_addresses() -> set[str]:
    """Every address the sources print (the family's e-mail): the only ones the book may print."""
    texts = [f.read_text(encoding="utf-8") for d in ("content", "rules_data") for f in sorted((ROOT / d).rglob("*"))
             if f.is_file()]
    return {m.group(0) for text in texts for m in ON_PAPER.finditer(text)
            if not m.group(0).endswith((".pdf", ".yaml", ".yml", ".md"))}


@pytest.mark.parametrize("text, expected", [
    ("number 4 in the score pad (score-pad-2026.2.pdf); on its own, score-sheets/basic-rummy.pdf.", "score-pad-2026.2.pdf"),
    ("at https://example.org/rules today", "https://example.org/rules"), ("www.pagat.com", "www.pagat.com"),
    ("write to someone@example.org.", "someone@example.org"), ("pagat.com has it", "pagat.com"),
    ("Score sheet: number 4 in the score pad.", None), ("a 2.5 point meld; e.g. the 10s", None),
    ("{examples.sample_game.values.net.stated}", None),
])
def test_the_paper_scan_knows_a_file_name_or_address(text, expected):
    m = ON_PAPER.search(text)
    assert (m.group(0) if m else None) == expected


@poppler
def test_the_book_and_the_score_pad_name_no_file_and_only_the_addresses_the_sources_print(built, library, published_library):
    allowed = source_addresses()
    assert allowed, "the sources print the family's e-mail; the scan must find it"
    from generator.render.views.sheets import score_pad_name

    # the book, and the score pad, whose contents once gave each sheet's file (score-sheets/….pdf)
    for pdf in [built[lib.edition.id] / "pdf" / name for lib in (library, published_library)
                for name in (pdf_name(lib), score_pad_name(lib.edition.id))]:
        text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
        for m in ON_PAPER.finditer(text):
            assert m.group(0) in allowed, (f"{pdf.name}: {text[max(0, m.start() - 60):m.end() + 20]!r}: a reader of "
                                           "paper cannot follow a file name or address: name the page or the sheet's number")


def test_an_editors_note_is_printed_once_and_set_apart(built):
    """The editors' words (a page's editor_note: what the page lacks) print once, marked as theirs, in both
    editions' site and book; they are not written into the family's prose (Game Board Layouts said it four times)."""
    from generator.book.library import load_library
    from tests.conftest import ROOT

    checked = 0
    for edition, out in built.items():
        lib = load_library(ROOT, edition)
        pdf = next((out / "pdf").glob("metzker-*[0-9].pdf"))
        book = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout.split())
        for page in lib.book.pages:
            if page.editor_note is None:
                continue
            note = " ".join(page.editor_note.split())
            site = (out / "site" / page.id / "index.html").read_text(encoding="utf-8")
            assert site.count('class="editor-note"') == 1 and " ".join(page_text(site).split()).count(note) == 1
            assert book.count(note) == 1 and note not in lib.pages[page.id].text
            checked += 1
    assert checked >= 2

"""A word too long for its line is broken or hyphenated, never cut at the edge of the PDF page (issue 60, item 5): a
word of a data text in each kind of place the book prints one (a heading, a paragraph, a table's row label and cell,
a summary box, a caption), laid out with the book's stylesheet, printed whole within the page. Cheap: one page."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from generator.book.files import TOOL_TEMPLATES, read_file_text
from generator.render.pdf.weasy import Engine
from tests.conftest import CURRENT

WORD = "Zyxwvutsrqponmlkjihgfedcba" * 4  # no dictionary's: hyphenation patterns alone would not place its breaks
PLACES = {
    "heading": f"<h2>{WORD}</h2>",
    "subheading": f"<h3>Play {WORD}</h3>",
    "paragraph": f"<p>Before {WORD} after.</p>",
    "row label": f"<table class='data score-table'><tbody><tr><th scope='row'>{WORD}</th><td>5 points</td></tr></tbody></table>",
    "summary box": f"<table class='glance-table'><tbody><tr><th scope='row'>Deal</th><td>{WORD}</td></tr></tbody></table>",
    "caption": f"<table class='data'><caption>{WORD}</caption><tbody><tr><th scope='row'>A</th><td>5</td></tr></tbody></table>",
}
BOX = re.compile(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>')


@pytest.mark.parametrize("place", PLACES, ids=PLACES.keys())
def test_a_long_word_is_printed_whole_within_the_page(tmp_path, place):
    css = read_file_text(TOOL_TEMPLATES / "print" / "print.css")
    pdf = tmp_path / "long.pdf"
    engine = Engine()
    engine.write([engine.document(f"<html lang='en'><head><style>{css}</style></head><body>{PLACES[place]}</body></html>")],
                 pdf)
    layout = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    width = float(re.search(r'<page width="([\d.]+)"', layout)[1])
    words = BOX.findall(layout)
    assert [text for _, right, text in words if float(right) > width] == [], "a word runs past the page's edge"
    text = re.sub(r"[\u2010-]\n?|\s", "", "".join(t for *_, t in words))  # the pieces joined, their hyphens dropped
    assert WORD in text, "a piece of the word is missing"


# Every word of the book's data, in its printed PDF (issue 60, item 5): for every game of the current edition, each
# word of its data's texts (values, table cells, rule texts, its variants') is among the words of the pages the game is
# printed on, and each word of its score sheet's among the score pad's. A word cut at a page's or a column's edge, or
# clipped by its box, is missing. The fields below are data but no text the book prints as written (a field whose type
# is a fixed choice, a Literal, is one too: its words are the book's own); each with why.
NOT_PRINTED = {
    "id": "a file name: the page prints the title",
    "sources": "where the rules came from: a seed file's name, and corrections' places in it",
    "cards": "a card phrase ('K', 'hearts'): printed as the cards it names, with their symbols",
    "wild": "a card phrase, as cards",
    "expr": "a worked example's formula over its figures' names: the book prints the working in numbers",
    "sample": "a sample sheet's cells name the worked example's figures: the sample prints their numbers",
    "example": "a sample sheet's worked example, by its id",
    "from_game": "what a variant's source says of a box row: a fixed choice",
    "row_label": "what a sheet's unlabelled row records, said in its boxes' names (a form field's title), not printed",
}
WORD_OF = re.compile(r"[^\W\d_]+")  # a run of letters: digits and signs are numbers, checked elsewhere


def printed_words(text: str) -> tuple[set[str], str]:
    """The words of a PDF's text (pdftotext's, which drops a glyph drawn off the page), lower-cased: a word hyphenated
    at a line's end joined, by the hyphen the book's hyphenation writes (U+2010) or by a hyphen of the word's own
    ('no-\\nbreak': both 'nobreak' and its halves); and the text with no white space, where a word broken at a line's
    end with no hyphen (a word longer than its column) is whole."""
    text = text.replace("\u00ad", "")
    joined = re.sub("\u2010[ \t]*\n\\s*", "", text)
    words = {w.lower() for w in WORD_OF.findall(joined)} | {
        w.lower() for w in WORD_OF.findall(re.sub("[\u2010-][ \t]*\n\\s*", "", joined))}
    return words, re.sub(r"\s+", "", joined).lower()


def data_texts(obj: object, path: tuple[str, ...] = ()):
    """(field path, text) for each text of a model's data, but what NOT_PRINTED names and fixed choices (Literals)."""
    from pydantic import BaseModel

    if isinstance(obj, BaseModel):
        for name, field in type(obj).model_fields.items():
            value = getattr(obj, name)
            if name in NOT_PRINTED or value is None or (isinstance(value, str) and not _is_text(field.annotation)):
                continue
            yield from data_texts(value, (*path, name))
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from data_texts(value, path)
    elif isinstance(obj, list | tuple):
        for value in obj:
            yield from data_texts(value, path)
    elif isinstance(obj, str):
        yield ".".join(path), obj


def _is_text(annotation: object) -> bool:
    """Whether a field's type lets it hold free text (a str, not only a Literal's choices)."""
    import typing

    if typing.get_origin(annotation) is typing.Literal:
        return False
    return annotation is str or any(_is_text(a) for a in typing.get_args(annotation))


def unprinted(texts, printed: tuple[set[str], str]) -> list[tuple[str, str]]:
    """(field path, word) for each word of ``texts`` that is not among ``printed`` (``printed_words``): neither one of
    its words nor in its text run together. {ref} placeholders and a link's address are no words the book prints."""
    words, run_together = printed
    out = []
    for path, text in texts:
        text = re.sub(r"\]\([^)]*\)", "]", re.sub(r"\{[^}]*\}", " ", text))
        out += [(path, word) for word in WORD_OF.findall(text)
                if word.lower() not in words and word.lower() not in run_together]
    return out


# The comparison itself, on a text where a word was cut at the page's edge: it is missed; hyphenated, it is not.
CUT = {
    "cut at the edge": ("Each player draws Zyxwvuts\nrqponm.", [("rule", "Zyxwvutsrqponmlk")]),
    "hyphenated": ("Each player draws Zyxwvuts\u2010\nrqponmlk.", []),
    "broken with no hyphen": ("Each player draws Zyxwvuts\nrqponmlk.", []),
    "a hyphen of its own at the line's end": ("a no-\nbreak space", []),
}


@pytest.mark.parametrize(("pdf_text", "missing"), CUT.values(), ids=CUT.keys())
def test_a_word_cut_in_the_pdf_text_is_missed(pdf_text, missing):
    words = ["Each player draws Zyxwvutsrqponmlk."] if "Zyx" in pdf_text else ["a no-break space"]
    assert unprinted([("rule", w) for w in words], printed_words(pdf_text)) == missing


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
def test_every_word_of_the_data_is_in_the_pdf(built, library):
    """The current edition's book PDF and score pad (the suite's one build): no word of a game's data is missing."""
    from generator.render.views.describe import pdf_name
    from generator.render.views.sheets import score_pad_name
    from tests.fidelity_output import pdf_ranges

    folder = built[CURRENT] / "pdf"
    book = folder / pdf_name(library)
    pages = subprocess.run(["pdftotext", str(book), "-"], capture_output=True, text=True, check=True).stdout.split("\f")
    pad = printed_words(subprocess.run(["pdftotext", str(folder / score_pad_name(CURRENT)), "-"],
                                       capture_output=True, text=True, check=True).stdout)
    ranges, missing, checked = pdf_ranges(book), [], 0
    for gs in library.ordered_games():
        printed = printed_words("\n".join(pages[p - 1] for p in ranges[f"game:{gs.id}"]))
        texts = list(data_texts(gs.game.model_copy(update={"score_sheet": None, "variants": [
            v.model_copy(update={"score_sheet": None}) for v in gs.game.variants]})))
        sheets = [t for body in (gs.game, *gs.game.variants) if body.score_sheet
                  for t in data_texts(body.score_sheet, ("score_sheet",))]
        checked += len(texts) + len(sheets)
        missing += [(gs.id, *m) for m in unprinted(texts, printed) + unprinted(sheets, pad)]
    assert checked > 500  # the walk found the book's texts (772 in 2026.2)
    assert missing == []

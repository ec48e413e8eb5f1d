"""What validate passes prints whole: nothing the Markdown, the site engine or the PDF's layout would drop or cut.

Each check measures conservatively (a letter as wide as the widest a font draws, the narrowest column text may be
set in), so that what it passes fits, and says at which line to change what does not.

- ``title.breaks_heading``: a title is set as a Markdown heading on the site (``# Title``) and in the PDF's page
  head: one line, not empty, no Markdown of its own, no longer than a page head holds.
- ``prose.image``: an image in prose is dropped by the sanitizer of both outputs, and its alt text with it.
- ``prose.long_word``: a word (or a title's word) wider than the narrowest line it may be set on runs off the page.
- ``prose.wide_table``: a Markdown table whose columns' longest words add up to more than the page is cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..book.library import Library
from ..book.loader import TextDoc
from ..book.prose import REF
from ..book.words import _
from ..errors import Location, echo
from . import Found, check

MM_PER_PT = 25.4 / 72
# The page's text width on the narrower paper (A4: 210 mm less 18 mm margins each side, templates/print/print.css).
MEASURE_MM = 210 - 2 * 18
# The narrowest line body text is set on: two levels of list (6 mm each) inside an alternate rules box (its border
# and padding, 7 mm). A word that fits there fits anywhere in the prose.
NARROWEST_MM = MEASURE_MM - 2 * 6 - 7
BODY_PT = 10.5  # html's font-size in print.css
EM = 1.0  # no letter of the book's fonts is wider than its em (a W is 0.9-1.0): the conservative width of one
TITLE_PT = 20  # h1, the largest a title is set (a game's title is 18 pt, a variant's 13 pt)
MAX_TITLE = 120  # characters: a page head (@top-right: string(game-title)) is one line
CELL_PADDING_MM = 2 * 2.5  # a table cell's left and right padding (table.data td)
TITLE_LETTERS = int(MEASURE_MM / (EM * TITLE_PT * MM_PER_PT))  # a title's word of fewer letters fits its page head
LINE_LETTERS = int(NARROWEST_MM / (EM * BODY_PT * MM_PER_PT))  # the letters the narrowest line surely holds

# Where a line may break: spaces, and after a hyphen or a dash; a soft hyphen or a zero-width space.
_BREAKS = re.compile(r"[\s\u00ad\u200b]+|(?<=[-\u2010\u2013\u2014])")
_MARKDOWN_IN_TITLE = re.compile(r"[*_`\[\]\\]|^\s*#|#\s*$|^\s*[-+=>]\s|^\s*\d+[.)]\s")
IMAGE = re.compile(r"!\[[^\]\n]*\]\s*[(\[]")


def longest_word(text: str, shorter_than: int = 0) -> str:
    """The longest run of ``text`` a line cannot break (references taken as the value they print: short); "" when
    every run between spaces is shorter than ``shorter_than`` (a break at a hyphen only makes runs shorter)."""
    if shorter_than and max(map(len, text.split()), default=0) < shorter_than:
        return ""
    text = REF.sub("0000", text) if "{" in text else text
    return max(_BREAKS.split(text), key=len, default="")


def word_fits(word: str, points: float, measure_mm: float) -> bool:
    """Whether ``word`` set at ``points`` fits ``measure_mm``, every letter taken as wide as an em."""
    return len(word) * EM * points * MM_PER_PT <= measure_mm


def _proses(lib: Library) -> list[tuple[TextDoc, str | None]]:
    found: list[tuple[TextDoc, str | None]] = [(p, None) for p in lib.pages.values()]
    for gs in lib.ordered_games():
        found += [(p, gs.id) for p in [gs.prose, *gs.variant_prose.values()] if p is not None]
    return found


def _titles(lib: Library) -> Iterator[tuple[Location, str, str | None]]:
    """(where, title, game) of every title the book prints as a heading."""
    yield lib.book_doc.where(("title",)), lib.book.title, None
    for i, section in enumerate(lib.book.sections):
        yield lib.book_doc.where(("sections", i, "title")), section.title, None
    for i, page in enumerate(lib.book.pages):
        yield lib.book_doc.where(("pages", i)), page.title, None
    for gs in lib.ordered_games():
        yield gs.where(("title",)), gs.game.title, gs.id
        if gs.game.subtitle is not None:
            yield gs.where(("subtitle",)), gs.game.subtitle, gs.id
        for i, variant in enumerate(gs.game.variants):
            if lib.includes(variant):
                yield gs.where(("variants", i, "title")), variant.title, gs.id


@check("title.breaks_heading")
def title_breaks_heading(lib: Library) -> Iterator[Found]:
    """A title would not print as one heading: empty, on two lines, too long, a word too wide, or Markdown in it."""
    for where, title, game in _titles(lib):
        if not title.strip():
            yield where, _("the title is empty: a page head would print nothing; write the title"), game
        elif "\n" in title.strip():
            yield where, (_("the title %(title)s runs over two lines: a heading is one line; write it on one line",
                            title=echo(title))), game
        elif len(title) > MAX_TITLE:
            yield where, (_("the title is %(title_count)s characters: a page head holds one line of %(max_title)s; "
                            "write a shorter title (other names go in other_names)", title_count=len(title),
                            max_title=MAX_TITLE)), game
        elif _MARKDOWN_IN_TITLE.search(title):
            yield where, (_("the title %(title)s holds Markdown (%(group)s): the heading would print it as markup, "
                            "not as written; write the title in words", title=echo(title),
                            group=echo(_MARKDOWN_IN_TITLE.search(title).group()))), game
        elif not word_fits(longest_word(title, TITLE_LETTERS), TITLE_PT, MEASURE_MM):
            yield where, (_("'%(longest_word)s...' in the title is wider than the page at the title's size: break it "
                            "with a space or a hyphen", longest_word=longest_word(title)[:40])), game


@check("prose.image")
def prose_image(lib: Library) -> Iterator[Found]:
    """Prose shows an image: both outputs drop it, and its alt text with it."""
    for prose, game in _proses(lib):
        for n, line in enumerate(prose.text.splitlines(), 1):
            m = IMAGE.search(line) if "![" in line else None
            if m:
                yield (Location(prose.path, n), _("an image (%(group)s...): the book prints no images, and the site "
                                                  "and the PDF would drop it with its alt text; describe it in words "
                                                  "instead", group=echo(m.group()[:40])), game)


@check("prose.long_word")
def long_word(lib: Library) -> Iterator[Found]:
    """A word in prose is wider than the narrowest line the PDF sets it on: it would run off the page."""
    for prose, game in _proses(lib):
        for n, line in enumerate(prose.text.splitlines(), 1):
            if len(line) <= LINE_LETTERS:  # no word of so few letters is too wide (a quick pass over most lines)
                continue
            word = longest_word(line.lstrip("#>*-+ |"), LINE_LETTERS)
            if not word_fits(word, BODY_PT, NARROWEST_MM):
                yield (Location(prose.path, n), _("%(word)s is %(word_count)s characters with no space or hyphen: "
                                                  "the PDF cannot break it, and a line holds about %(line_letters)s; "
                                                  "break it with a space or a hyphen, or shorten it",
                                                  word=echo(word, 50), word_count=len(word), line_letters=LINE_LETTERS), game)


def _cells(line: str) -> list[str]:
    # The row without its spaces and its outer pipes, each optional; by string methods, not a pattern: '^\s*\|?(.*?)\|?
    # \s*$' read the row's trailing spaces again for each character of it (quadratic, tests/test_regex_bounded.py).
    row = line.strip()
    row = row[1:] if row.startswith("|") else row
    row = row.rstrip()
    row = row[:-1] if row.endswith("|") else row
    return [c.strip() for c in re.split(r"(?<!\\)\|", row)]


@check("prose.wide_table")
def wide_table(lib: Library) -> Iterator[Found]:
    """A Markdown table in prose is wider than the page, each column as wide as its longest word: the PDF cuts it."""
    for prose, game in _proses(lib):
        lines = prose.text.splitlines()
        n = 0
        while n < len(lines):
            if "|" not in lines[n] or n + 1 >= len(lines) or not re.fullmatch(r"\s*+\|?\s*+:?-++:?\s*+(?:\|\s*+:?-++:?\s*+)*+\|?\s*+",
                                                                             lines[n + 1]):
                n += 1
                continue
            start, rows = n, []
            while n < len(lines) and "|" in lines[n]:
                rows.append(_cells(lines[n]))
                n += 1
            del rows[1]  # the |---| line under the head
            columns = max(map(len, rows))
            widest = [max((len(longest_word(r[c])) for r in rows if c < len(r)), default=0) for c in range(columns)]
            width = sum(w * EM * BODY_PT * MM_PER_PT + CELL_PADDING_MM for w in widest)
            if width > MEASURE_MM:
                yield (Location(prose.path, start + 1), _("a table of %(columns)s columns needs at least %(width)s "
                                                          "mm (each column as wide as its longest word), and the "
                                                          "page is %(measure_mm)s mm: the PDF would cut it; use "
                                                          "fewer columns, or shorter words in them", columns=columns,
                                                          width=format(width, '.0f'), measure_mm=MEASURE_MM), game)



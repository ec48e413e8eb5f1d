"""Stage 4b, the print book: Jinja to HTML, WeasyPrint to PDF, in two passes for page numbers.

The first pass lays the book out and reads where every game starts and ends; the second prints
those page numbers in the contents and the index. Nothing is typed by hand. Score sheets are
printed after their game and, separately, one PDF per game with as many blank rows as fit.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from ..library import Library
from ..model import ScoreSheet, SheetBlock
from ..prose import expand, format_value
from . import describe
from .fetcher import ASSET_ROOT, ProjectFetcher, RefusedResource
from .markup import demote_headings, environment, prose_html
from .pages import BodyView, GamePage, game_page
from .sheets import sample_cells, sheet_columns, sheet_round, sheet_rows

PAPER = {"letter": "letter", "a4": "A4"}
TRIAL_ROWS = 60


def _weasy():
    import weasyprint  # imported late: it is slow to import and only the PDF needs it

    return weasyprint


def _md(text: str, levels: int = 1) -> Any:
    return prose_html(demote_headings(text, levels))


def _env(lib: Library):
    return environment(fmt=format_value, sheet_columns=sheet_columns, sheet_rows=sheet_rows, sheet_round=sheet_round,
                      sample_cells=sample_cells, describe=describe,
                       book=lib.book, edition=lib.edition, md=_md)


def generic_sheet(heading: str, body: Any) -> ScoreSheet:
    """A score sheet for a game that has none of its own: one column per player, a row per round."""
    rounds = body.rounds
    listed = bool(rounds and rounds.items)
    counted = body.goal.rounds if body.goal and body.goal.rounds and not listed else None
    block = SheetBlock(title=None, player_columns=True, rows_from="rounds" if listed else None,
                       rows=[f"Round {i}" for i in range(1, counted + 1)] if counted else [], total="Total")
    return ScoreSheet(title=f"{heading} score sheet", fields=["Date"], blocks=[block])


def book_html(lib: Library, pages: dict[str, int] | None = None, duplex: bool = False) -> str:
    """The whole book as one HTML document (page numbers from a previous layout, if given)."""
    env = _env(lib)
    game_pages = [game_page(lib, gs, book=True) for gs in lib.ordered_games()]
    by_section = {s.id: [p for p in game_pages if p.id in s.games] for s in lib.book.sections}
    pages = pages or {}

    def page_range(game_id: str) -> str:
        start, end = pages.get(f"game-{game_id}"), pages.get(f"end-{game_id}")
        if start is None:
            return "00"  # first pass: a placeholder as wide as a real number
        return str(start) if end in (None, start) else f"{start}-{end}"

    def index_rows(section_id: str) -> list[GamePage]:
        return sorted(by_section[section_id], key=lambda p: p.heading().lower())

    return env.get_template("print/book.html.j2").render(
        games=game_pages, sections=lib.book.sections, by_section=by_section, pages=pages, page_range=page_range,
        index_rows=index_rows, duplex=duplex,
        front_pages=[p for p in lib.book.pages if p.after is None],
        after_pages={s.id: [p for p in lib.book.pages if p.after == s.id] for s in lib.book.sections},
        page_prose={p.id: _md(expand(lib.pages[p.id].text, lib.scope())) for p in lib.book.pages},
        errata=[e for e in lib.errata if lib.in_edition(e.edition)],
    ).replace("<body class=", f'<body data-edition="{lib.edition.id}" class=', 1)


def _stylesheets(paper: str, fonts: Any) -> list[Any]:
    weasyprint = _weasy()
    sheets = [weasyprint.CSS(filename=str(ASSET_ROOT / "print.css"), url_fetcher=ProjectFetcher(), font_config=fonts)]
    if paper != "letter":
        sheets.append(weasyprint.CSS(string=f"@page {{ size: {PAPER[paper]}; }} .cover {{ height: 297mm; }}",
                                     font_config=fonts))
    return sheets


def _document(html: str, paper: str) -> Any:
    weasyprint = _weasy()
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import FatalURLFetchingError

    fonts = FontConfiguration()  # makes the bundled @font-face fonts available, not the system's
    fetcher = ProjectFetcher()
    doc = weasyprint.HTML(string=html, base_url=str(ASSET_ROOT) + "/", url_fetcher=fetcher)
    try:
        return doc.render(stylesheets=_stylesheets(paper, fonts), font_config=fonts, pdf_tags=True)
    except FatalURLFetchingError as exc:  # a BaseException in WeasyPrint: turn it into a build error
        raise RefusedResource(fetcher.refused[-1] if fetcher.refused else str(exc)) from None


def anchor_pages(document: Any) -> dict[str, int]:
    """Page number (1-based) of every anchor in a laid-out document."""
    found: dict[str, int] = {}
    for number, page in enumerate(document.pages, 1):
        for anchor in page.anchors:
            found.setdefault(anchor, number)
    return found


def _write(document: Any, target: Path) -> None:
    document.write_pdf(str(target), pdf_variant="pdf/ua-1", uncompressed_pdf=False, custom_metadata=False)


def render_book(lib: Library, target: Path, paper: str = "letter", duplex: bool = False) -> dict[str, int]:
    """Write the book PDF to ``target``; return the page of every anchor (games, pages, index)."""
    first = _document(book_html(lib, None, duplex), paper)
    pages = anchor_pages(first)
    final = _document(book_html(lib, pages, duplex), paper)
    checked = anchor_pages(final)
    _write(final, target)
    return checked


def sheet_html(lib: Library, heading: str, view: BodyView, blank_rows: int | None) -> str:
    """One score sheet (a game's, or a variant's) as a printable HTML page."""
    env = _env(lib)
    if view.body.score_sheet is None:
        sheet = generic_sheet(heading, view.body)
        view = replace(view, body=view.body.model_copy(update={"score_sheet": sheet}))
    return env.get_template("print/sheet.html.j2").render(heading=heading, view=view, blank_rows=blank_rows)


def render_sheet(lib: Library, page: GamePage, target: Path, paper: str = "letter", variant: Any = None) -> int:
    """Write a score sheet PDF (the game's, or a variant's), with as many blank rows as fit; return the rows."""
    view = page.main
    heading = page.heading()
    if variant is not None:
        view = next(v for var, v in page.variants if var.id == variant.id)
        heading = f"{page.heading()} – {variant.title}"
    sheet = view.body.score_sheet
    if sheet is not None and len([b for b in sheet.blocks if not b.sample_only]) > 1:
        document = _document(sheet_html(lib, heading, view, None), paper)  # a designed sheet prints as designed
        _write(document, target)
        return 0
    # Lay out a sheet with more rows than can fit, see how many landed on page one, then print that many.
    document = _document(sheet_html(lib, heading, view, TRIAL_ROWS), paper)
    first = set(document.pages[0].anchors)
    rows = sum(1 for i in range(TRIAL_ROWS) if f"{view.prefix}row-{i}" in first) - 1  # keep room for the total row
    while True:
        document = _document(sheet_html(lib, heading, view, max(rows, 0)), paper)
        if len(document.pages) == 1 or rows <= 0:
            break
        rows -= 1
    _write(document, target)
    return rows


def game_pages(lib: Library) -> list[GamePage]:
    """Every game page of the edition, in book order."""
    return [game_page(lib, gs) for gs in lib.ordered_games()]

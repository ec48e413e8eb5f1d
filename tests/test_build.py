"""The build: a page for every game and variant, the book PDF, a score sheet per game."""

from __future__ import annotations

import pypdf

from generator.prose import expand
from generator.render.site import pdf_name
from tests.conftest import CURRENT, PUBLISHED
from tests.textmatch import normalise, page_text


def test_every_game_and_variant_has_its_page(built, library, published_library):
    for edition, lib in ((CURRENT, library), (PUBLISHED, published_library)):
        site = built[edition] / "site"
        for gs in lib.ordered_games():
            page = site / "games" / gs.id / "index.html"
            assert page.exists(), f"{edition}: no page for {gs.id}"
            text = normalise(page_text(page.read_text(encoding="utf-8")))
            assert normalise(gs.game.title) in text
            for variant in gs.game.variants:
                shown = normalise(f"Variant: {variant.title}") in text
                assert shown == lib.in_edition(variant.introduced), f"{edition}: variant {variant.id} of {gs.id}"


def test_published_edition_has_only_published_games(library, published_library):
    new = set(library.games) - set(published_library.games)
    assert new == {"trash", "chase-the-ace", "basic-rummy", "skull-and-roses", "gin-rummy"}
    assert all(gs.game.introduced == "2026.1" for gs in published_library.games.values())


def test_every_game_page_shows_its_data(built, library):
    """Each number kept in a game's card-value tables and deal is on its page."""
    site = built[CURRENT] / "site"
    for gs in library.ordered_games():
        text = normalise(page_text((site / "games" / gs.id / "index.html").read_text(encoding="utf-8")))
        for table in gs.game.scoring.values():
            for item in table.items:
                label = expand(item.label, item.model_dump(exclude_none=True), gs.doc.data)  # as printed
                assert normalise(label) in text, f"{gs.id}: {label}"
        if gs.game.deal and isinstance(gs.game.deal.each, int):
            assert str(gs.game.deal.each) in text.split(), f"{gs.id}: deal {gs.game.deal.each}"


def test_book_pdf_has_every_game(built, library):
    pdf = built[CURRENT] / "pdf" / pdf_name(library)
    reader = pypdf.PdfReader(pdf)
    text = normalise(" ".join(page.extract_text() or "" for page in reader.pages))
    for gs in library.ordered_games():
        assert normalise(gs.game.title) in text, gs.id
    assert reader.metadata.title.startswith(library.book.title)


def test_score_sheet_per_game(built, library, published_library):
    for edition, lib in ((CURRENT, library), (PUBLISHED, published_library)):
        sheets = built[edition] / "pdf" / "score-sheets"
        for gs in lib.ordered_games():
            pdf = sheets / f"{gs.id}.pdf"
            assert pdf.exists(), f"{edition}: {gs.id}"
            assert len(pypdf.PdfReader(pdf).pages) >= 1

"""Stage 4a, the site: the Markdown pages generated from the library, for MkDocs to build (``engine.py``)."""

from __future__ import annotations

import functools
import html
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...book import addresses
from ...book import index as book_index
from ...book.addresses import CHANGES, ERRATA, FINDER, HOME, INDEX, OFFLINE, Address
from ...book.files import MAX_ASSET_BYTES, copy_tree, read_file_text, template_bounds, template_folders
from ...book.library import Library
from ...book.phrases import parse_players
from ...book.prose import expand, format_value
from ...book.words import _
from ..views import describe
from ..views.markup import TEMPLATES, demote_headings, environment, prose_markdown, text_markdown
from ..views.pages import GamePage, game_page
from ..views.sheets import keepers, score_pad_name, template_globals
from . import offline
from .repository import correction_address

SITE_ASSETS = TEMPLATES / "site" / "assets"


def built_url(doc: str, at: str = ERRATA.doc) -> str:
    """Where the page built from Markdown file ``doc`` is, seen from the page built from ``at`` (raw HTML
    links are not rewritten by MkDocs, so they name the built page)."""
    return Address(doc).url_from(Address(at))


def finder_record(page: GamePage, stated_players: str | int | None = None) -> dict[str, Any]:
    """What the game finder needs to know about a game, from its data (``stated_players``: the edition's count,
    ``book/index.py``'s ``stated_players``; None: no source states one, and the finder neither prints nor filters
    by one)."""
    game = page.game
    eq = game.equipment
    kinds = set()
    if eq:
        for cards in eq.cards:
            kinds.add("jokers" if cards.jokers else "")
        # One deck for the game, a table, a couple or a player, or as many as the players need (describe.DECK_KINDS)
        kinds.update(describe.deck_kinds(game))
        if eq.dice:
            kinds.add("dice")
        if eq.dominoes is not None:
            kinds.add("dominoes")
        if eq.board:
            kinds.add("board")
        if eq.sticks:
            kinds.add("sticks")
    kinds.discard("")
    # Only what a source states: "Any number" stays any number, with no least number (the 2 the checks start from is
    # theirs). How many players a deck can really serve is the validator's business (players.unbounded), not a rule
    # to print or filter by.
    players: dict[str, Any] = {"min": None, "max": None, "step": 1, "set": None, "text": ""}
    if stated_players is not None:
        spec = parse_players(stated_players)
        players = {"min": spec.low if spec.least_stated else None, "max": spec.high, "step": spec.step,
                   "set": sorted(spec.allowed) if spec.allowed is not None else None,
                   "text": describe.player_count(stated_players)}
    return {
        "id": game.id, "title": page.heading(), "url": addresses.game(game.id).url,
        "category": game.category,
        # Partners only at some counts: the finder offers the game with and without partners. Where the rules say
        # nothing of partners, nor does the finder ('' , not 'none'): its 'No partners' leaves out only the games
        # played in partnerships or teams.
        "partnerships": "optional" if game.partners_when is not None else (game.partnerships or ""),
        "players": players,
        "equipment": sorted(kinds),
        # The player counts one deck serves, where the decks depend on the players (the finder's 'One deck' at a count)
        "one_deck": describe.one_deck_counts(game),
    }


def site_environment(lib: Library, repo_url: str = "") -> Any:
    """The Jinja environment the site's pages are rendered in; ``repo_url``: the configured repository
    (``repository.repository``), '' for none: a page then offers the book's own address for corrections."""
    return environment(lib.root, fmt=format_value, **template_globals(), describe=describe,
                       book=lib.book, edition=lib.edition, prose=prose_markdown, md=text_markdown,
                       demote=lambda text: demote_headings(text, 1), repo_url=repo_url.rstrip("/"),
                       correction_address=correction_address(lib))


def game_markdown(env: Any, page: GamePage) -> str:
    """One game page's Markdown as the site builds it, without its download links."""
    return env.get_template("site/game.md.j2").render(page=page, has_sheet=False, has_book=False, book_pdf="", keeper=False,
                                                      variant_sheets={v.id: False for v, _view in page.variants})


def write_docs(lib: Library, docs: Path, downloads: Path | None = None, book_pages: dict[str, int] | None = None,
               repo_url: str = "", listed: Callable[[dict[str, Any]], None] | None = None,
               written: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Write every page of the site into ``docs``; return the MkDocs nav, each page's source to edit and every
    file in the order MkDocs is to read them.

    ``listed`` is given that answer once the copied files are in place and before any page is written, and
    ``written`` each file written after that once it is (the pages, and the finder's data, which MkDocs copies
    once it has read every page): MkDocs can start on the first pages while the others are written.
    """
    if docs.exists():
        shutil.rmtree(docs)
    (docs / addresses.GAMES).mkdir(parents=True)
    (docs / addresses.KEEP).mkdir()
    result, pages = _site_pages(lib, docs, downloads, book_pages, repo_url)
    pages[CHANGES.doc] = functools.partial(changes_page, lib)  # the edition before loaded and compared: last
    result["files"] = reading_order(docs, pages)
    if listed is not None:
        listed(result)
    for rel in result["files"]:
        if rel in pages:
            (docs / rel).write_text(pages[rel](), encoding="utf-8")
            if written is not None:
                written(rel)
    return result


def reading_order(docs: Path, pages: dict[str, Any]) -> list[str]:
    """The files in ``docs`` and the pages still to be written, as MkDocs lists a docs folder (by folder, an index
    first), but for "What changed", read last: it loads the edition before and compares (the longer, the more
    games the book has), which the site worker does while MkDocs reads the other pages."""
    names = {p.relative_to(docs).as_posix() for p in docs.rglob("*") if p.is_file()} | set(pages)

    def key(rel: str) -> tuple:
        folder, _slash, name = rel.rpartition("/")
        return (rel == CHANGES.doc, folder.split("/") if folder else [], _file_sort_key(name))

    return sorted(names, key=key)


def _file_sort_key(name: str) -> tuple[bool, str]:
    """MkDocs's order of the files in a folder (``mkdocs.structure.files._file_sort_key``): an index first."""
    return (os.path.splitext(name)[0] not in ("index", "README"), name)


def _site_pages(lib: Library, docs: Path, downloads: Path | None, book_pages: dict[str, int] | None,
                repo_url: str) -> tuple[dict[str, Any], dict[str, Callable[[], str]]]:
    """Copy the site's assets and downloads into ``docs``; return the nav and edit sources, and how to make each
    file still to be written (every page's Markdown, the finder's data), by its path (made when it is written)."""
    env = site_environment(lib, repo_url)
    game_pages = [game_page(lib, gs) for gs in lib.ordered_games()]
    by_section = {s.id: [p for p in game_pages if p.id in s.games] for s in lib.book.sections}
    pages: dict[str, Callable[[], str]] = {}

    game_tpl = env.get_template("site/game.md.j2")
    pad = score_pad_name(lib.edition.id)
    has_pad = downloads is not None and (downloads / pad).exists()
    has_book = downloads is not None and (downloads / describe.pdf_name(lib)).exists()

    def game(page: GamePage) -> str:
        has_sheet = downloads is not None and (downloads / "score-sheets" / f"{page.id}.pdf").exists()
        variant_sheets = {v.id: downloads is not None and (downloads / "score-sheets" / f"{page.id}.{v.id}.pdf").exists()
                          for v, _view in page.variants}
        return game_tpl.render(page=page, has_sheet=has_sheet, has_book=has_book, book_pdf=describe.pdf_name(lib),
                               variant_sheets=variant_sheets, pad=pad if has_pad else None,
                               keeper=page.main.body.keeps_score())

    keeper_tpl = env.get_template("site/keeper.md.j2")

    def keeper(page: GamePage) -> str:
        return keeper_tpl.render(page_id=page.id, heading=page.heading(), edition=lib.edition.id,
                                 keepers=keepers(page.main, page.heading(), page.id,
                                                 book_index.stated_players(lib, page.game)))

    kept = [p for p in game_pages if p.main.body.keeps_score()]  # a game whose rules keep no score has no keeper
    for page in game_pages:
        pages[addresses.game(page.id).doc] = functools.partial(game, page)
    for page in kept:
        pages[addresses.keeper(page.id).doc] = functools.partial(keeper, page)
    # Shown offline in place of a page never kept on the device (offline.py: the book's service worker).
    pages[OFFLINE.doc] = lambda: env.get_template("site/offline.md.j2").render()

    def prose(page_id: str, title: str, note: str | None) -> str:
        text = expand(lib.pages[page_id].text, lib.scope())
        return env.get_template("site/prose.md.j2").render(title=title, text=text, note=note)

    for page_data in lib.book.pages:
        pages[addresses.page(page_data.id).doc] = functools.partial(prose, page_data.id, page_data.title,
                                                                   page_data.editor_note)

    # An edition with a printed index tells readers its player counts; home and finder repeat them.
    stated = {p.id: book_index.stated_players(lib, p.game) for p in game_pages}
    pages[HOME.doc] = lambda: env.get_template("site/index.md.j2").render(
        sections=lib.book.sections, by_section=by_section, pdf_name=describe.pdf_name(lib),
        players={k: describe.player_count(v) if v is not None else "" for k, v in stated.items()},
        has_pdf=downloads is not None and (downloads / describe.pdf_name(lib)).exists())
    printed, index_note = book_index.index_rows(lib), book_index.printed_index_note(lib)
    anchors = book_pages or {}

    def page_range(game_id: str) -> str:
        return book_index.index_page(lib, anchors, game_id)

    sorted_sections = {k: sorted(v, key=lambda p: p.heading().lower()) for k, v in by_section.items()}
    pages[INDEX.doc] = lambda: env.get_template("site/book-index.md.j2").render(
        printed=printed, index_note=index_note, sections=lib.book.sections, by_section_sorted=sorted_sections,
        page_range=page_range)
    # What the finder knows of each game works out which player counts its deal supports: made when the finder's
    # page or its data is written, after the list of files is given.
    records = functools.cache(lambda: [finder_record(p, stated[p.id]) for p in game_pages])
    pages[FINDER.doc] = lambda: env.get_template("site/finder.md.j2").render(games=records(), sections=lib.book.sections)
    pages["assets/games.json"] = lambda: json.dumps(records(), indent=1, sort_keys=True)
    pages[ERRATA.doc] = lambda: env.get_template("site/errata.md.j2").render(
        groups=describe.errata_groups(lib), index_note=index_note, url=built_url)

    # Copied files first: the list of files given to MkDocs names them.
    for templates in reversed(template_folders(lib.root)):  # the tool's assets, then the book's own over them
        copy_tree(templates / "site" / "assets", docs / "assets", "templates/site/assets", template_bounds(templates),
                  MAX_ASSET_BYTES)
    stylesheet = docs / "assets" / offline.STYLESHEET.name
    stylesheet.write_text(offline.in_colour(read_file_text(stylesheet),
                                            offline.palette(lib.book.accent, lib.book.accent_shades)), encoding="utf-8")
    if downloads is not None and downloads.exists():
        copy_tree(downloads, docs / "downloads", "downloads")

    edit = {HOME.doc: "rules_data/book.yaml", FINDER.doc: "rules_data/book.yaml", INDEX.doc: "rules_data/book.yaml",
            ERRATA.doc: "rules_data/errata.yaml", CHANGES.doc: "rules_data/revisions.yaml"}
    edit.update({addresses.game(p.id).doc: f"content/{p.id}.md" for p in game_pages})
    edit.update({addresses.keeper(p.id).doc: f"rules_data/{p.id}.yaml" for p in game_pages})
    edit.update({addresses.page(p.id).doc: f"content/{p.id}.md" for p in lib.book.pages})

    # The theme prints navigation titles as raw HTML, so titles from the data are escaped here.
    nav: list[Any] = [{html.escape(_("Home")): HOME.doc}, {html.escape(_("Find a game")): FINDER.doc}]
    front = [p for p in lib.book.pages if p.after is None]
    nav += [{html.escape(p.title): addresses.page(p.id).doc} for p in front]
    for section in lib.book.sections:
        nav.append({html.escape(section.title): section_nav(by_section[section.id])})
        nav += [{html.escape(p.title): addresses.page(p.id).doc} for p in lib.book.pages if p.after == section.id]
    nav.append({html.escape(_("What changed")): CHANGES.doc})
    nav.append({html.escape(lib.book.index_title): INDEX.doc})
    nav.append({html.escape(_("Errata")): ERRATA.doc})
    return {"nav": nav, "edit": edit}, pages


NAV_GROUP = 40  # games in one navigation list before they are grouped by initial letter


def section_nav(pages: list[GamePage]) -> list[Any]:
    """A section's navigation: its games, grouped by initial letter when there are many.

    Material draws the whole navigation on every page; with navigation.prune only the open group is
    drawn, so grouping keeps each page's navigation (and the build) from growing with the book.
    """
    items = [{html.escape(p.heading()): addresses.game(p.id).doc} for p in pages]
    if len(pages) <= NAV_GROUP:
        return items
    groups: dict[str, list[Any]] = {}
    for page, item in zip(pages, items, strict=True):
        first = page.heading()[:1].upper()
        groups.setdefault(first if first.isalpha() else "0-9", []).append(item)
    return [{letter: groups[letter]} for letter in sorted(groups)]


def changes_page(lib: Library) -> str:
    """The 'What changed' page: this edition against the one before (``render/views/changes.py``)."""
    from ..views.changes import edition_changes, line_markdown

    return site_environment(lib).get_template("site/changes.md.j2").render(
        changes=edition_changes(lib), line=line_markdown)

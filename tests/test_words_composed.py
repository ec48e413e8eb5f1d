"""What changed, ``rulebook diff`` and check-pr's summary in the book's language (issue 62): the lines the tool composes
from the data it compares (a field's name, 'added', 'rule 1', 'for 3 players', yes/no) come from the catalogue.

One German book in two editions, made once for the file from the German fixture book (tests/fixtures/books/german):
its second edition changes a value (Herzeln's target), a player count (Herzeln's), adds a game (Elfer raus) and
adds a numbered rule (Herzeln's alternate rule 1). The English words looked for are the English catalogue's own
messages (tests/english_words.py), never a list kept here. The page is rendered by its view alone: no site build.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.book import words
from generator.book.words import Words
from tests.conftest import FIXTURES, ROOT
from tests.english_words import english_only, found, page_text

GERMAN_BOOK = FIXTURES / "books" / "german"

EDITION_2 = """  - id: "2026.2"
    year: 2026
    revision: 2
    label: Fassung 2 (Dez/2026)
    date: "2026-12-20"
current: "2026.2"
"""
REVISIONS = """revisions:
  - {id: herzeln-ziel, edition: "2026.2", date: "2026-12-15", kind: target, why: Die Runden dauerten zu lange.,
     file: rules_data/herzeln.yaml, path: goal.target, before: 100, after: 50}
  - {id: herzeln-spieler, edition: "2026.2", date: "2026-12-15", kind: rule, why: Zu sechst passt es nicht.,
     file: rules_data/herzeln.yaml, path: players, before: 3-6, after: 3-5}
  - {id: herzeln-regel, edition: "2026.2", date: "2026-12-15", kind: alternate_rule, why: So spielt der Verein.,
     game: herzeln, rule: 1}
  - {id: elfer-raus, edition: "2026.2", date: "2026-12-15", kind: game_added, why: Neu im Verein., game: elfer-raus}
"""
NEW_GAME = """# yaml-language-server: $schema=../schema/game.schema.json
id: elfer-raus
title: Elfer raus
category: cards
introduced: "2026.2"
sources: []
players: 2-6
equipment:
  cards:
    - decks: 1
      jokers: false
deal:
  each: all
  uneven: true
keeps: points
goal:
  winner: first_out
"""
NEW_PAGE = "## Spielablauf\n\n- Wer eine Elf hat, legt sie aus; die Reihen wachsen nach oben und unten.\n"
ALTERNATE = """alternate_rules:
  rules:
    - number: 1
      text: – Wer die Pik-Dame nimmt, gibt die nächste Runde.
      introduced: "2026.2"
"""


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def german_copy(dest: Path) -> Path:
    """The German fixture book as init makes one (its own mkdocs.yml and the tool's schemas)."""
    shutil.copytree(GERMAN_BOOK, dest)
    shutil.copytree(ROOT / "schema", dest / "schema")
    return dest


def open_second_edition(project: Path) -> Path:
    """The German book with its second edition open, changing nothing yet."""
    _edit(project / "rules_data" / "book.yaml", 'current: "2026.1"\n', EDITION_2)
    return project


def second_edition(project: Path, opened: bool = False, rule: bool = True) -> Path:
    """The German book's second edition (``opened``: already open), each change recorded as the family's decision
    (``rule``: with the alternate rule added)."""
    data = project / "rules_data"
    if not opened:
        open_second_edition(project)
    _edit(data / "book.yaml", "      - herzeln\n", "      - herzeln\n      - elfer-raus\n")
    _edit(data / "revisions.yaml", "revisions: []\n", REVISIONS if rule else re.sub(r"  - \{id: herzeln-regel.*\n.*\n", "",
                                                                                      REVISIONS))
    _edit(data / "herzeln.yaml", "players: 3-6", "players: 3-5")
    _edit(data / "herzeln.yaml", "target: 100", "target: 50")
    if rule:
        (data / "herzeln.yaml").write_text((data / "herzeln.yaml").read_text(encoding="utf-8") + ALTERNATE,
                                           encoding="utf-8")
    (data / "elfer-raus.yaml").write_text(NEW_GAME, encoding="utf-8")
    (project / "content" / "elfer-raus.md").write_text(NEW_PAGE, encoding="utf-8")
    return project


@pytest.fixture(scope="module")
def books(tmp_path_factory) -> tuple[Path, Path]:
    """(the German book's first edition, its second), each a folder of its own."""
    where = tmp_path_factory.mktemp("changes")
    return german_copy(where / "erste"), second_edition(german_copy(where / "zweite"))


@pytest.fixture(autouse=True)
def _english_after():
    """The words in use are the last loaded book's: each test leaves English, as a fresh process has."""
    yield
    words.use(Words())


def english_in(text: str) -> list[str]:
    """The English catalogue's messages (those German writes otherwise) that ``text`` shows."""
    return found(text, english_only("de"))


def test_what_changed_is_written_in_the_books_language(books):
    from generator.book.library import load_library
    from generator.render.site.docs import changes_page

    _first, second = books
    page = changes_page(load_library(second))
    assert english_in(page_text(page)) == [], page
    # each change of the edition, in German, under the decision that made it: a value and a player count changed,
    # a numbered rule and a game added
    decisions = page[page.index("## Was"):page.index("## Berichtigte Fehler")]
    for line in ("Herzeln: Ziel geändert", "- Ziel: 100 → 50", "- Spieler: 3-6 → 3-5",
                 "- Andere Regeln, Regel 1: hinzugefügt (Text – Wer die Pik-Dame nimmt, gibt die nächste Runde., "
                 "eingeführt 2026.2)", "Elfer raus: Spiel aufgenommen"):
        assert line in decisions, (line, page)
    assert "## Aus den Quellen" not in page  # every change is a decision's


# --- the words a page composes from the data: the keeper's coins, a sheet's one column -----------------------------

def _keeper_page(lib, game_id: str) -> str:
    """A game's keeper page as the site writes it (render/site/docs.py), without building the site."""
    from generator.book import index as book_index
    from generator.render.site.docs import site_environment
    from generator.render.views.pages import game_page
    from generator.render.views.sheets import keepers

    words.use(Words(lib.book.language, lib.book.messages))  # (the book's words, as loading it set them)
    page = game_page(lib, lib.games[game_id])
    text = site_environment(lib).get_template("site/keeper.md.j2").render(
        page_id=page.id, heading=page.heading(), edition=lib.edition.id,
        keepers=keepers(page.main, page.heading(), page.id, book_index.stated_players(lib, page.game)))
    return text.split("---\n", 2)[2]  # the page, not its front matter (the site's settings for it, unprinted)


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    """The German book with Mäxchen kept in lives (three 'dimes' each) and Herzeln's own sheet, whose one block names
    no column, loaded."""
    from generator.book.library import load_library

    project = german_copy(tmp_path_factory.mktemp("kept") / "buch")
    data = project / "rules_data"
    _edit(data / "maexchen.yaml", "  dice: 2\nkeeps: points", "  dice: 2\n  stakes: {coin: dime, start: 3}\nkeeps: lives")
    _edit(data / "maexchen.yaml", "  winner: high\n  target: 10\n", "  winner: last_standing\n")
    (data / "herzeln.yaml").write_text((data / "herzeln.yaml").read_text(encoding="utf-8") + (
        "score_sheet:\n  title: Herzeln\n  blocks:\n    - {player_columns: true, total: Summe}\n"), encoding="utf-8")
    return load_library(project)


def test_the_keepers_coins_are_the_books_words(kept):
    page = _keeper_page(kept, "maexchen")
    assert english_in(page_text(page)) == [], page
    assert 'data-coins="Zehner"' in page and "Zehner verloren" in page


def test_a_sheets_one_column_is_headed_in_the_books_language(kept):
    assert kept.games["herzeln"].game.score_sheet.blocks[0].columns == ["Punkte"]
    page = _keeper_page(kept, "herzeln")
    assert english_in(page_text(page)) == [], page


# --- the cards a game's data names, in the book's language ----------------------------------------------------------

CARD_WORDS = {
    # phrase as the data writes it: (German, English)
    "2s, 3s, 4s": ("2er, 3er, 4er", "2s, 3s, 4s"),
    "2-6": ("2er bis 6er", "2-6"),
    "K-10 except hearts": ("Könige bis 10er außer Herz", "K-10 except hearts"),
    "queen of spades": ("Pik-Dame", "queen of spades"),
    "jacks or jokers": ("Buben oder Joker", "jacks or jokers"),
    "red 3s": ("red 3s", "red 3s"),  # a group the tool has no words for: as the data writes it
}


@pytest.mark.parametrize("phrase", CARD_WORDS)
def test_a_card_phrase_is_written_in_the_books_language(phrase):
    from generator.render.views.describe import card_words

    german, english = CARD_WORDS[phrase]
    words.use(Words("de"))
    assert card_words(phrase) == german
    words.use(Words("en"))
    assert card_words(phrase) == english


def test_the_cards_a_deck_leaves_out_are_named_in_german(kept):
    from generator.render.views.describe import glance

    words.use(Words(kept.book.language, kept.book.messages))
    rows = dict(glance(kept.games["grosser-schafkopf-fuer-anfaenger"].game))
    assert rows["Material"] == "1 Kartenspiel, ohne Joker; 2er, 3er, 4er, 5er, 6er herausnehmen (32 Karten)", rows


# --- rulebook diff and check-pr's summary: in the base book's language ---------------------------------------------

@pytest.mark.parametrize("change_sets", ["de", "en"])
def test_diff_is_written_in_the_base_books_language(books, tmp_path, change_sets):
    from generator.commands import diff

    first, second = books
    if change_sets == "en":  # a change that sets the book's language to English is still said in the base's German
        second = shutil.copytree(second, tmp_path / "zweite")
        _edit(second / "rules_data" / "book.yaml", "language: de", "language: en")
    text = diff.render(str(first), str(second), first, form="text")
    assert text.splitlines() == [
        "Herzeln, Spieler: 3-6 → 3-5",
        "Herzeln, Ziel: 100 → 50",
        "Herzeln, andere Regeln: hinzugefügt (Nummer 1, Text – Wer die Pik-Dame nimmt, gibt die nächste Runde., "
        "eingeführt 2026.2)",
        "Elfer raus, Spiel aufgenommen",
    ] + (["Sprache: de → en"] if change_sets == "en" else []) + [
        "Fassung 2 (Dez/2026): hinzugefügt (Jahr 2026, Fassung 2, Datum 2026-12-20)",
        "Aktuelle Ausgabe: 2026.1 → 2026.2",
        "Kartenspiele, Spiele: hinzugefügt (elfer-raus)",
    ], text
    page = diff.render(str(first), str(second), first)
    assert page.startswith("## Was diese Änderung an den Regeln ändert (") and english_in(page) == [], page


def test_check_prs_summary_is_written_in_the_base_books_language(tmp_path):
    from generator.book.frozen import write
    from generator.book.library import load_library
    from generator.commands.check_pr import check_pr
    from tests.pullrequests import commit, git

    repo = open_second_edition(german_copy(tmp_path / "repo"))  # the base: 2026.2 open, 2026.1 published
    write(load_library(repo, "2026.1"))
    _edit(repo / "rules_data" / "dictionary.txt", "\n", "\nelfer\n")  # (a word the change needs is landed first)
    git(repo, "init", "-q")
    commit(repo, "base")
    second_edition(repo, opened=True, rule=False)
    code, _annotations, summary = check_pr(repo, "HEAD")
    # What the summary says in its own words: not a finding's message (its check's: the checks' words are another part
    # of the work on this issue), nor the words of a page it quotes (“…”: the site's source, its markup too), nor a
    # file's name (`finder.md`).
    said = "\n".join(line for line in summary.splitlines() if not re.match(r"- (`[^`]*` )?[a-z_]+\.[a-z_]+: ", line))
    said = re.sub(r"`[^`]*`", "`…`", re.sub(r"“[^”]*”", "“…”", said))
    assert english_in(said) == [], summary
    assert code == 0, summary
    for line in ("## Prüfung des Buchs\n\nKeine Fehler.", "### Was Die Herausgeber entschieden hat",
                 "- Ziel: 100 → 50", "### Spiele, die diese Änderung hinzufügt", "- Spieler: 2-6 Spieler",
                 "## Jede Datei, die diese Änderung berührt", "- `…` (hinzugefügt)"):
        assert line in said, (line, summary)

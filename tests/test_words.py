"""A book in its own language (issue 62): one setting, the tool's words from message catalogues, ids kept whole,
spelling in the language, and a German book whose outputs hold no English word the tool wrote.

The German fixture book (tests/fixtures/books/german: three games with sheets and keepers, a variant) is built once
for the file; the English words looked for are the English catalogue's own messages (tests/english_words.py), never a
list kept here.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.book import words
from generator.book.words import Words, catalogue, languages, plain_letters, slug
from tests.conftest import FIXTURES, ROOT
from tests.english_words import english_only, found, page_text, pdf_text
from tests.messages import extract

GERMAN_BOOK = FIXTURES / "books" / "german"


def german_project(dest: Path) -> Path:
    """A copy of the German fixture book as init makes one: its own mkdocs.yml, the tool's schemas, no templates (the
    tool's are used)."""
    shutil.copytree(GERMAN_BOOK, dest)
    shutil.copytree(ROOT / "schema", dest / "schema")
    return dest


# A book's own template replacing one block of the tool's, and its own stylesheet added to the tool's print.css.
OWN_GAME_PAGE = """{% extends "tool:site/game.md.j2" %}
{% block glance %}
<p class="own-box">Unser Kasten</p>
{{ super() }}
{% endblock %}
"""
OWN_PRINT_CSS = '.cover-title::after, .title-page-title::after { content: " – Vereinsausgabe"; }\n'



@pytest.fixture(autouse=True)
def _english_after():
    """The words in use are the last loaded book's: each test leaves English, as a fresh process has."""
    yield
    words.use(Words())


# --- the catalogues -------------------------------------------------------------------------------------------------

def missing(language: str, held: dict[str, str], written: set[str]) -> list[str]:
    """The messages the code writes that a catalogue lacks, or (any language but English) leaves untranslated."""
    return sorted(m for m in written if m not in held or (language != "en" and not held[m]))


def _written() -> set[str]:
    return {m[0] if isinstance(m, tuple) else m for m in extract()}


@pytest.mark.parametrize("language", languages())
def test_every_catalogue_has_every_message_the_code_writes(language):
    assert set(languages()) >= {"en", "de"}
    assert missing(language, catalogue(language), _written()) == []


@pytest.mark.parametrize("case", ["one message taken out", "one message left untranslated"])
def test_a_catalogue_missing_a_message_is_found(case):
    written = _written()
    german = dict(catalogue("de"))
    if case == "one message taken out":
        del german["At a glance"]
    else:
        german["At a glance"] = ""
    assert missing("de", german, written) == ["At a glance"]


def test_every_template_and_module_message_is_extracted():
    # A message written in a template and one in the code, as the catalogues read them, each found.
    found_messages = extract()
    assert any("templates/blocks.html.j2" in path for path, _line in found_messages["At a glance"])
    assert ("%(count)s player", "%(count)s players") in found_messages
    assert any(path.endswith("keeper.md.j2") for path, _line in found_messages["Clear every score on this sheet and "
                                                                                   "start a new game?"])


# --- the words, in a language ---------------------------------------------------------------------------------------

WORDS = {
    # name: (language, the book's own messages, (message, plural or None, count or None, values), what is written)
    "German": ("de", {}, ("At a glance", None, None, {}), "Auf einen Blick"),
    "German, one": ("de", {}, ("%(count)s player", "%(count)s players", 1, {}), "1 Spieler"),
    "German, three": ("de", {}, ("%(count)s point", "%(count)s points", 3, {}), "3 Punkte"),
    "regional, from its base": ("de-AT", {}, ("Contents", None, None, {}), "Inhalt"),
    "no catalogue: English": ("xx", {}, ("Contents", None, None, {}), "Contents"),
    "the book's own word": ("de", {"At a glance": "Kurz und knapp"}, ("At a glance", None, None, {}),
                            "Kurz und knapp"),
    "the book's own plural forms": ("de", {"%(count)s point": ["%(count)s Pünktchen", "%(count)s Punkte"]},
                                    ("%(count)s point", "%(count)s points", 1, {}), "1 Pünktchen"),
    "a name in a whole message": ("de", {}, ("%(whose)s's decisions", None, None, {"whose": "der Vorstand"}),
                                  "Was der Vorstand entschieden hat"),
    "English possessive": ("en", {}, ("%(whose)s's decisions", None, None, {"whose": "The family"}),
                           "The family's decisions"),
}


@pytest.mark.parametrize("name", WORDS)
def test_words_in_a_language(name):
    language, own, (message, plural, count, values), expected = WORDS[name]
    say = Words(language, own)
    assert (say.n(message, plural, count, **values) if plural else say(message, **values)) == expected


def test_a_template_escapes_the_books_own_words_not_the_catalogues():
    from generator.render.views.markup import environment

    template = environment().from_string('{{ _("Found a mistake? Send it to %(address)s.", address=link("mailto:a@b", '
                                         '"a@b")) }}|{{ _("At a glance") }}')
    words.use(Words("en", {"At a glance": "<b>Glance</b>"}))
    assert template.render() == 'Found a mistake? Send it to <a href="mailto:a@b">a@b</a>.|&lt;b&gt;Glance&lt;/b&gt;'


# --- ids and file names, spelling -----------------------------------------------------------------------------------

SLUGS = {
    ("Großer Schafkopf für Anfänger", "de"): "grosser-schafkopf-fuer-anfaenger",
    ("Das große Regelbuch", "de"): "das-grosse-regelbuch",
    ("Règles du café", "fr"): "regles-du-cafe",
    ("Smørrebrød", "da"): "smoerrebroed",
    ("Tom's Rummy", "en"): "toms-rummy",
    ("Über", "en"): "uber",
}


@pytest.mark.parametrize(("title", "language"), SLUGS)
def test_ids_keep_every_letter_as_the_language_writes_it(title, language):
    assert slug(title, language) == SLUGS[(title, language)]
    assert plain_letters(title, language).isascii()


@pytest.mark.parametrize(("text", "language", "unknown"), [
    ("Die Weißen spielen gegen die Schwarzen; der Geber teilt die Karten aus.", "de", []),
    ("STRASSE und Straße", "de", []),
    ("The players deal the cards", "en", []),
    ("Weißen", "en", ["weissen"]),  # English's list has no German word
])
def test_spelling_in_the_books_language(text, language, unknown):
    from generator.checks.editorial import unknown_in

    assert unknown_in(text, language) == unknown


# --- validate: one line each ----------------------------------------------------------------------------------------

def _validate(project: Path) -> str:
    from generator.commands import validate

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        validate.run(project)
    return out.getvalue()


@pytest.mark.parametrize(("edit", "line"), [
    (("rules_data/book.yaml", "language: de", "language: xx"),
     "rules_data/book.yaml:12: book.language_unknown: the tool has no words in 'xx'"),
    (("rules_data/book.yaml", "language: de", "language: xx"),
     "rules_data/book.yaml:12: spelling.no_word_list: no spelling word list for 'xx'"),
    (("mkdocs.yml", "  name: material\n", "  name: material\n  language: en\n"),
     "mkdocs.yml:12: site.language: theme.language ist 'en', aber die Sprache in book.yaml ist 'de'"),
    (("rules_data/book.yaml", "current:", "messages: {At a glance: Kurz, At a glimpse: Kurz}\ncurrent:"),
     "rules_data/book.yaml:19: book.message_unknown: 'At a glimpse' ist keine Meldung, die das Werkzeug schreibt"),
    (("content/herzeln.md", "## Spielablauf\n", "## Spielablauf\n\n- Die Weißen beginnen; dann gibt der Geber die "
      "übrigen Karten reihum aus, bis keine mehr übrig sind.\n"), None),  # ordinary German: no warning
])
def test_validate_says_each_language_problem_in_one_line(tmp_path, edit, line):
    project = german_project(tmp_path / "book")
    path, old, new = edit
    text = (project / path).read_text(encoding="utf-8")
    assert old in text
    (project / path).write_text(text.replace(old, new, 1), encoding="utf-8")
    said = _validate(project)
    if line is None:
        assert "0 Fehler, 0 Warnungen" in said, said
    else:
        assert [x for x in said.splitlines() if x.startswith(line)], said


def test_a_typed_id_with_the_books_letters_says_what_to_write(tmp_path):
    project = german_project(tmp_path / "book")
    data = project / "rules_data" / "herzeln.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("category: cards", "category: kärtchen"),
                    encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "generator", "--root", str(project), "validate"],
                          capture_output=True, text=True)
    said = [line for line in (done.stdout + done.stderr).splitlines() if "kärtchen" in line]
    assert len(said) == 1 and said[0].startswith("rules_data/herzeln.yaml:4") and said[0].endswith(
        "schreiben Sie stattdessen kaertchen"), done.stdout + done.stderr  # in the book's language


# --- the German book, built -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def german_built(tmp_path_factory) -> tuple[Path, Path]:
    project = german_project(tmp_path_factory.mktemp("german") / "book")
    (project / "templates" / "site").mkdir(parents=True)
    (project / "templates" / "print").mkdir()
    (project / "templates" / "site" / "game.md.j2").write_text(OWN_GAME_PAGE, encoding="utf-8")
    (project / "templates" / "print" / "book.css").write_text(OWN_PRINT_CSS, encoding="utf-8")
    out = project / "out"
    for args in (["build", "--out", str(out)], ["print-shop", "--trim", "6x9", "--out", str(out / "print-shop")]):
        done = subprocess.run([sys.executable, "-m", "generator", "--root", str(project), *args], capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stdout + done.stderr
    return project, out


def test_the_german_book_shows_no_english_word_of_the_tools(german_built):
    _project, out = german_built
    english = english_only("de")
    assert len(english) > 200  # the catalogue's messages, read from it
    pages = sorted((out / "site").rglob("*.html"))
    pdfs = sorted((out / "pdf").rglob("*.pdf")) + sorted((out / "print-shop").glob("*.pdf"))
    assert len(pages) > 10 and len(pdfs) >= 6
    shown = {p.relative_to(out).as_posix(): found(page_text(p.read_text(encoding="utf-8")), english) for p in pages}
    shown |= {p.relative_to(out).as_posix(): found(pdf_text(p), english) for p in pdfs}
    assert {k: v for k, v in shown.items() if v} == {}
    # ... and the tool's words are there, in German
    home = (out / "site" / "index.html").read_text(encoding="utf-8")
    assert 'lang="de"' in home and "Ein Spiel für die Runde heute Abend finden" in home
    game = page_text((out / "site" / "games" / "herzeln" / "index.html").read_text(encoding="utf-8"))
    assert "Auf einen Blick" in game and "3-6 Spieler" in game
    # the keeper reads a score box as German writes a number, and its tooltip's examples are written so (Babel's signs)
    keeper = (out / "site" / "keep" / "herzeln" / "index.html").read_text(encoding="utf-8")
    assert 'data-group="."' in keeper and "etwa 1000, 1.000 oder -5" in keeper
    assert "Ausgabe" in pdf_text(out / "print-shop" / "interior.pdf")


def test_the_german_books_site_searches_in_german_and_names_its_files_whole(german_built):
    project, out = german_built
    config = json.loads((out / "site" / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]
    assert config["lang"] == ["de"]
    assert (out / "pdf" / "das-grosse-regelbuch-2026.1.pdf").is_file()
    assert (project / "rules_data" / "grosser-schafkopf-fuer-anfaenger.yaml").is_file()
    assert re.search(r"gross", " ".join(p.name for p in (out / "pdf").iterdir()))


def test_a_books_template_replaces_one_block_and_its_stylesheet_adds_to_the_tools(german_built):
    _project, out = german_built
    game = (out / "site" / "games" / "herzeln" / "index.html").read_text(encoding="utf-8")
    # the book's block, then the tool's box it keeps (super()), then the rest of the tool's page
    assert game.index('class="own-box"') < game.index('class="glance"') < game.index('id="spielablauf"')
    assert "Quellen" not in page_text(game)  # the book's own game cites none: the tool's page as it writes it
    # the book's stylesheet in the book and in the print shop's interior, the tool's print.css still there
    for pdf in (out / "pdf" / "das-grosse-regelbuch-2026.1.pdf", out / "print-shop" / "interior.pdf"):
        text = pdf_text(pdf)
        assert "Vereinsausgabe" in text and "Ausgabe 2026.1" in text, pdf


def test_a_book_started_in_german_is_written_in_german(tmp_path):
    from generator.commands import init, new_game

    book = tmp_path / "buch"
    with contextlib.redirect_stdout(io.StringIO()):
        init.run(book, "Das große Regelbuch", "Der Vorstand", "rulebook @ git+https://example.org/rulebook@v0.2.0",
                 language="de")
        new_game.run(book, "Großer Schafkopf für Anfänger", "cards")
    import yaml

    pages = {p.relative_to(book).as_posix(): p.read_text(encoding="utf-8") for p in sorted((book / "content").glob("*.md"))}
    assert "content/grosser-schafkopf-fuer-anfaenger.md" in pages
    data = yaml.safe_load((book / "rules_data" / "book.yaml").read_text(encoding="utf-8"))
    # what the tool wrote for the book to print: its pages (their data references aside) and book.yaml's words
    printed = {path: re.sub(r"\{[^}]*\}", " ", text) for path, text in pages.items()}
    printed["rules_data/book.yaml"] = "\n".join(
        [data["description"], data["decided_by"], data["index_title"], data["editions"][0]["label"],
         *(p["title"] for p in data["pages"]), *(s["title"] for s in data["sections"])])
    site = (book / "mkdocs.yml").read_text(encoding="utf-8")
    printed["mkdocs.yml"] = "\n".join(re.findall(r"name: ([^}\n]*)}", site))  # the colour switches' labels (one line each)
    english = english_only("de")
    assert {path: found(text, english) for path, text in printed.items() if found(text, english)} == {}
    assert "Zum dunklen Modus wechseln" in site
    assert data["language"] == "de" and data["index_title"] == "Verzeichnis der Spiele"
    assert "## Spieler und Karten" in pages["content/grosser-schafkopf-fuer-anfaenger.md"]
    # the only word of it the German list lacks is the game's name, for the house dictionary
    said = _validate(book).splitlines()
    assert said[-1] == "0 Fehler, 1 Warnung in 1 Spiel" and "unbekanntes Wort 'schafkopf'" in said[0], said

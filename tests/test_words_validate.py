"""validate's findings in the book's language (issue 62): a German book made to have a finding of each area says each
in German, as one ``path:line: check: message`` line, and holds none of the English catalogue's messages.

The book is the German fixture book (tests/fixtures/books/german) with one slip per area (the table ``SLIPS``),
validated once for the file: a small book, no build. The English words looked for are the English catalogue's own
messages that German writes otherwise (tests/english_words.py), never a list kept here. That the English lines are
unchanged is the other tests' to show (test_checks.py, test_bad_input.py, test_cli.py ...: their expected messages).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from generator.book import words
from generator.book.words import Words
from tests.conftest import FIXTURES, ROOT
from tests.english_words import english_only, found

GERMAN_BOOK = FIXTURES / "books" / "german"

# area: (the file, what it says, what it is made to say, the check that finds it)
SLIPS = {
    "deal": ("rules_data/herzeln.yaml", "  each: all\n  uneven: true\n", "  each: all\n", "deal.uneven"),
    "scoring": ("rules_data/herzeln.yaml", "    kind: counters\n", "    kind: counters\n    stated_total: 20\n",
                "scoring.total_mismatch"),
    "deck": ("rules_data/herzeln.yaml", "      jokers: false\n", "      jokers: false\n      stated_cards: 50\n",
             "deck.size_mismatch"),
    # prose_numbers reads English phrases (its patterns are English): one in a German page still finds the number
    "prose numbers": ("content/herzeln.md", "- Alle Karten werden ausgeteilt.\n",
                      "- Alle Karten werden ausgeteilt (play to 500).\n", "prose.number_mismatch"),
    "spelling": ("content/herzeln.md", "Man muss die Farbe bedienen.", "Man muss die Frabe bedienen.",
                 "spelling.unknown_word"),
    "links": ("content/herzeln.md", "- Jedes Herz", "- Siehe [die Regeln](nirgendwo.md).\n- Jedes Herz",
              "link.broken"),
    "references": ("content/herzeln.md", "es spielen {players} Personen", "es spielen {player} Personen",
                   "reference.unknown"),
    "structure": ("rules_data/maexchen.yaml", "equipment_kind: dice\n", "equipment_kind: sticks\n",
                  "game.kind_mismatch"),
    "edition": ("rules_data/book.yaml", "label: Fassung 1 (Dez/2026)", "label: Fassung 1 (Dez/2025)",
                "edition.mismatch"),
    "acceptances": ("rules_data/accepted.yaml", "accepted: []\n",
                    "accepted:\n  - check: players.unbounded\n    files: [rules_data/maexchen.yaml]\n    edition: \"2026.1\"\n"
                    "    because: Die Wörter stimmen.\n", "accepted.stale"),
}

LINE = re.compile(r"^(?P<path>[^:\s]+):(?P<line>\d+)(?::\d+)?: (?P<check>[a-z_]+\.[a-z_]+): (?P<message>.+?)"
                  r"(?: \(warning\))?$")


def _validate(project: Path) -> dict[str, list[str]]:
    """validate's lines on ``project``, by check (the summary under '')."""
    from generator.commands import validate

    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            validate.run(project)
    finally:
        words.use(Words())  # the words in use are the last loaded book's: English again, as a fresh process has
    lines: dict[str, list[str]] = {}
    for line in out.getvalue().splitlines():
        m = LINE.match(line)
        lines.setdefault(m.group("check") if m else "", []).append(line)
    return lines


@pytest.fixture(scope="module")
def books(tmp_path_factory) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """validate's lines on the German book with every slip made, and on the same book set to English."""
    said = []
    for language in ("de", "en"):
        project = tmp_path_factory.mktemp(language) / "book"
        shutil.copytree(GERMAN_BOOK, project)
        shutil.copytree(ROOT / "schema", project / "schema")
        for path, old, new, _check in [*SLIPS.values(), ("rules_data/book.yaml", "language: de", f"language: {language}",
                                                          "")]:
            text = (project / path).read_text(encoding="utf-8")
            assert old in text, (path, old)
            (project / path).write_text(text.replace(old, new, 1), encoding="utf-8")
        said.append(_validate(project))
    return said[0], said[1]


@pytest.fixture(scope="module")
def said(books) -> dict[str, list[str]]:
    """The German book's lines."""
    return books[0]


def _english(message: str) -> list[str]:
    # What the book wrote is quoted in a message ('Frabe', 'nirgendwo.md'), and a path of its YAML is named as
    # written (goal.target): the tool's words are the rest.
    return found(re.sub(r"'[^']*'|“[^”]*”|\{[^}]*\}|\b[a-z_]+(?:\.[a-z_0-9]+)+\b", " ", message), english_only("de"))


def _at(line: str) -> tuple[str, ...]:
    # A finding, in any language: where, which check, and the first of the book's words it quotes (a line may hold
    # several findings of one check, each of another word).
    m = LINE.match(line)
    return m.group("path"), m.group("line"), m.group("check"), *re.findall(r"'([^']*)'", m.group("message"))[:1]


@pytest.mark.parametrize("area", SLIPS)
def test_each_finding_is_one_line_in_the_books_language(books, area):
    said, in_english = books
    check = SLIPS[area][3]
    assert said.get(check), f"no {check} finding: {said}"
    english = {_at(line): line for line in in_english.get(check, [])}
    for line in said[check]:
        m = LINE.match(line)
        assert m and m.group("path") and int(m.group("line")) >= 1, line
        assert _english(m.group("message")) == [], line
        # the same finding of the same book in English says it in other words (its own, not the catalogue's only)
        assert english.get(_at(line)) != line, line
    assert set(english) & {_at(line) for line in said[check]}, (said[check], in_english.get(check))


def test_every_line_is_a_finding_or_the_summary_in_the_books_language(said):
    assert len(said[""]) == 1, said[""]  # the closing line, and no other line that is not a finding
    summary = said[""][0]
    assert re.fullmatch(r"\d+ Fehler, \d+ Warnung(en)? in 3 Spielen", summary), summary
    for check, lines in said.items():
        for line in lines:
            message = LINE.match(line).group("message") if check else line
            assert _english(message) == [], line


# --- what the loader says: a game file it cannot read, or whose data the model refuses -----------------------------

# area: (the file, what it says, what it is made to say, the start of the German line's message); a book with these
# slips stops at loading (no check runs), so they are made in a book of their own
LOAD_SLIPS = {
    "YAML structure": ("rules_data/maexchen.yaml", "equipment:\n  dice: 2\n", "equipment:\n  dice: 2\n   faces: 6\n",
                       "diese Zeile ist weiter eingerückt als Zeile 10"),
    "model (a value of the wrong kind)": ("rules_data/grosser-schafkopf-fuer-anfaenger.yaml", 'introduced: "2026.1"\n',
                                          "introduced: 2026.1\n", "introduced: Der Wert muss ein Text sein"),
    "model (an unknown key)": ("rules_data/herzeln.yaml", "keeps: points\n", "keeps: points\nplayer: 3\n",
                               "unbekannter Schlüssel 'player'"),
    "card phrase": ("rules_data/herzeln.yaml", "cards: hearts,", "cards: herzen,",
                    "scoring.strafen.items.0.cards: Kartenausdruck 'herzen'"),
    "a character no text holds": ("content/maexchen.md", "einem Becher.", "einem Becher.\x07",
                                  "ein Steuerzeichen (U+0007) steht im Text"),
}
SOURCE_LINE = re.compile(r"^(?P<path>[^:\s]+):(?P<line>\d+):\d+: (?P<message>.+)$")


def _refused(project: Path) -> list[str]:
    """What `rulebook validate` says of a book it cannot load, through the command line, as a user reads it."""
    from generator.cli import main

    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            assert main(["--root", str(project), "validate"]) == 1
    finally:
        words.use(Words())
    return out.getvalue().splitlines()


@pytest.fixture(scope="module")
def loaded(tmp_path_factory) -> tuple[dict[str, str], dict[str, str]]:
    """validate's lines on the German book with every load slip made, and on it set to English, each by its place."""
    said = []
    for language in ("de", "en"):
        project = tmp_path_factory.mktemp(f"load-{language}") / "book"
        shutil.copytree(GERMAN_BOOK, project)
        shutil.copytree(ROOT / "schema", project / "schema")
        for path, old, new, _start in [*LOAD_SLIPS.values(), ("rules_data/book.yaml", "language: de",
                                                                f"language: {language}", "")]:
            text = (project / path).read_text(encoding="utf-8")
            assert old in text, (path, old)
            (project / path).write_text(text.replace(old, new, 1), encoding="utf-8")
        lines = _refused(project)
        said.append({f"{m['path']}:{m['line']}": line for line in lines if (m := SOURCE_LINE.match(line))}
                    | {"": "\n".join(line for line in lines if not SOURCE_LINE.match(line))})
    return said[0], said[1]


@pytest.mark.parametrize("area", LOAD_SLIPS)
def test_a_game_file_the_loader_refuses_is_said_in_the_books_language(loaded, area):
    german, english = loaded
    path, _old, _new, start = LOAD_SLIPS[area]
    lines = [line for at, line in german.items() if at.startswith(f"{path}:") and start in line]
    assert len(lines) == 1, (start, german)
    message = SOURCE_LINE.match(lines[0]).group("message")
    # the file's keys are named as it writes them (YAML's keys are the schema's, in any language)
    keys = set(re.findall(r"^[\s-]*([a-z_]+):", (GERMAN_BOOK / path).read_text(encoding="utf-8"), re.M))
    if keys:
        message = re.sub(r"\b(?:" + "|".join(sorted(keys)) + r")\b", " ", message)
    assert _english(message) == [], lines[0]
    at = lines[0].split(":", 2)
    assert english[f"{at[0]}:{at[1]}"] != lines[0]  # the same slip in an English book: the English words
    assert german[""].startswith("Fehler: "), german[""]


# --- the commands' lines ----------------------------------------------------------------------------------------

def _init(tmp_path: Path) -> None:
    from generator.commands import init

    init.run(tmp_path / "buch", "Das große Regelbuch", "Der Vorstand", "rulebook @ git+https://example.org/rulebook@v0.2.0",
             language="de")


def _new_game(tmp_path: Path) -> None:
    from generator.commands import new_game

    new_game.run(_german_copy(tmp_path), "Großer Hase", "cards")


def _new_game_refused(tmp_path: Path) -> None:
    from generator.cli import main

    assert main(["--root", str(_german_copy(tmp_path)), "new-game", "Herzeln", "--section", "cards"]) == 1


def _new_game_reserved(tmp_path: Path) -> None:
    from generator.cli import main

    assert main(["--root", str(_german_copy(tmp_path)), "new-game", "Index", "--section", "cards"]) == 1


def _german_copy(tmp_path: Path) -> Path:
    project = tmp_path / "book"
    shutil.copytree(GERMAN_BOOK, project)
    shutil.copytree(ROOT / "schema", project / "schema")
    return project


# command: (how it is run, the start of a line it must say)
COMMANDS = {
    "init, in the language it is given": (_init, "weiter: cd "),
    "new-game": (_new_game, "weiter: füllen Sie die Regeln aus"),
    "new-game refused, through the command line": (_new_game_refused, "Fehler: "),
    "new-game of a name the site keeps": (_new_game_reserved, "Fehler: 'Index' ergibt eine Kennung"),
}


@pytest.mark.parametrize("command", COMMANDS)
def test_the_commands_lines_are_in_the_books_language(tmp_path, capsys, command):
    run, expected = COMMANDS[command]
    try:
        run(tmp_path)
    finally:
        words.use(Words())
    out = capsys.readouterr()
    lines = (out.out + out.err).splitlines()
    assert any(line.startswith(expected) for line in lines), lines
    for line in lines:  # the paths and the commands it names are typed as written, in any language
        typed = re.sub(r"rulebook [\w-]+|`[^`]*`|\"[^\"]*\"|--[\w-]+ [\w-]+|\S*/\S*", " ", line)
        assert _english(typed) == [], line


# --- print-shop's preflight ------------------------------------------------------------------------------------------

def test_the_preflights_lines_are_in_the_books_language(tmp_path, capsys):
    """The preflight's items and its count in German: a one-page PDF made here (no book built), its file, fonts and
    annotations items, as `rulebook print-shop` prints them; the same in English says them in other words."""
    import pikepdf

    from generator.commands import print_shop
    from generator.render.pdf import preflight

    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.save(tmp_path / "one.pdf")
    said = {}
    for language in ("de", "en"):
        words.use(Words(language))
        try:
            opened = preflight._open(tmp_path / "one.pdf")
            try:
                items = [replace(check(opened), path="one.pdf") for check in
                         (preflight._safety, preflight.fonts, preflight.annotations)]
            finally:
                opened.pdf.close()
            assert print_shop._report(items) == 0
        finally:
            words.use(Words())
        said[language] = capsys.readouterr().out.splitlines()
    assert said["de"][-1] == "Druckvorstufenprüfung: alle 3 Punkte bestanden", said["de"]
    assert len(said["de"]) == len(said["en"]) == 4
    for german, english in zip(said["de"], said["en"], strict=True):
        assert _english(german.removeprefix("one.pdf: ")) == [] and german != english, (german, english)


# --- the operating system's lines ------------------------------------------------------------------------------------

@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES, errno.ENOENT])
def test_an_operating_system_problem_is_said_in_the_books_language(code):
    from generator.errors import os_problem

    problem = OSError(code, os.strerror(code), "out/site")
    english = os_problem(problem)
    words.use(Words("de"))
    try:
        german = os_problem(problem)
    finally:
        words.use(Words())
    assert os_problem(problem) == english  # the book's words let go with it
    assert german.startswith("out/site: ") and german != english, german
    assert _english(german.removeprefix("out/site: ")) == [], german

"""The settings a user may set, read in one place (generator/settings.py) and listed in one table
(docs/maintaining.md): each is read as it says, a bad value is one line naming the variable and what it takes,
from every command, and the table is the settings' own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator import settings
from generator.errors import RulebookError
from tests.conftest import ROOT
from tests.test_faults import one_line, run, tiny

# (variable, a value it is given, the setting read from it)
READ = [
    ("RULEBOOK_PDF_TIMEOUT", "0.5", ("pdf_timeout", 0.5)),
    ("RULEBOOK_PDF_TIMEOUT", " 900 ", ("pdf_timeout", 900.0)),
    ("RULEBOOK_PDF_MEMORY_MB", "150", ("pdf_memory_mb", 150)),
    ("RULEBOOK_PDF_JOBS", "1", ("pdf_jobs", 1)),
    ("RULEBOOK_PDF_CACHE", "/tmp/renders", ("pdf_cache", Path("/tmp/renders"))),
    ("RULEBOOK_REPO", "git@example.org:family/book.git", ("repo", "git@example.org:family/book.git")),
    ("RULEBOOK_REQUEST", "/tmp/request.json", ("request", Path("/tmp/request.json"))),
    ("XDG_CACHE_HOME", "/home/u/.cache", ("cache_home", Path("/home/u/.cache"))),
    ("SOURCE_DATE_EPOCH", "1765000000", ("source_date_epoch", 1765000000)),
    ("COLUMNS", "120", ("columns", 120)),
    ("COLUMNS", "wide", ("columns", None)),  # as a shell sets it, or nothing: the terminal's own
    ("LINES", "0", ("lines", None)),
    ("RULEBOOK_PDF_TIMEOUT", "", ("pdf_timeout", None)),  # set to nothing: not set
]

# (variable, a value it does not take, what the line says it takes)
REFUSED = [
    ("RULEBOOK_PDF_TIMEOUT", "ten minutes", "a number of seconds above 0"),
    ("RULEBOOK_PDF_TIMEOUT", "0", "a number of seconds above 0"),
    ("RULEBOOK_PDF_TIMEOUT", "-5", "a number of seconds above 0"),
    ("RULEBOOK_PDF_TIMEOUT", "inf", "a number of seconds above 0"),
    ("RULEBOOK_PDF_TIMEOUT", "nan", "a number of seconds above 0"),
    ("RULEBOOK_PDF_MEMORY_MB", "4.5", "a whole number of megabytes above 0"),
    ("RULEBOOK_PDF_MEMORY_MB", "4G", "a whole number of megabytes above 0"),
    ("RULEBOOK_PDF_JOBS", "0", "a whole number of processes above 0"),
    ("RULEBOOK_PDF_JOBS", "two", "a whole number of processes above 0"),
    ("SOURCE_DATE_EPOCH", "2026-01-01", "a whole number of seconds since 1970-01-01 UTC"),
    ("SOURCE_DATE_EPOCH", "-1", "a whole number of seconds since 1970-01-01 UTC"),
]


@pytest.mark.parametrize("name, value, read", READ, ids=[f"{n}={v!r}" for n, v, _ in READ])
def test_each_setting_is_read_as_it_says(name, value, read):
    field, expected = read
    assert getattr(settings.read({name: value}), field) == expected
    assert getattr(settings.read({}), field) == getattr(settings.Settings(), field)  # not set: its default


@pytest.mark.parametrize("name, value, accepts", REFUSED, ids=[f"{n}={v!r}" for n, v, _ in REFUSED])
def test_a_value_a_setting_does_not_take_is_one_line_naming_it(name, value, accepts):
    with pytest.raises(RulebookError) as refused:
        settings.read({name: value})
    said = str(refused.value)
    assert said.startswith(f"{name}={value!r} is not {accepts}") and "unset it" in said and "\n" not in said


@pytest.mark.parametrize("command", [["validate"], ["build", "--pdf-only", "--out", "{out}"],
                                     ["print-shop", "--trim", "6x9", "--out", "{out}"]], ids=lambda c: c[0])
def test_every_command_says_so_before_it_does_anything(command, tmp_path, monkeypatch):
    project = tiny(tmp_path / "project")
    monkeypatch.setenv("RULEBOOK_PDF_MEMORY_MB", "lots")
    code, output = run("--root", str(project), *(arg.format(out=tmp_path / "out") for arg in command))
    assert code == 1
    one_line(output, "error: RULEBOOK_PDF_MEMORY_MB='lots' is not a whole number of megabytes above 0")
    assert not (tmp_path / "out").exists()


def _table() -> list[list[str]]:
    """The rows of docs/maintaining.md's table of settings, each cell as written."""
    text = (ROOT / "docs" / "maintaining.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Settings\n"):]
    section = section[:section.find("\n## ", 1)] if "\n## " in section[1:] else section
    rows = [line for line in section.splitlines() if line.startswith("|")]
    assert rows[0].split(" | ")[0] == "| name" and set(rows[1]) <= set("|- "), rows[:2]
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows[2:]]


def test_the_table_in_the_docs_is_the_settings_own():
    """One table, a row a setting, in the order settings.py reads them, each saying what the schema says."""
    assert _table() == [[f"`{s.name}`", s.does, s.default, s.who] for s in settings.SETTINGS]


def test_a_table_that_forgets_one_is_found(tmp_path, monkeypatch):
    text = (ROOT / "docs" / "maintaining.md").read_text(encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "maintaining.md").write_text(re.sub(r"\n\| `RULEBOOK_PDF_JOBS` \|[^\n]*", "", text), encoding="utf-8")
    monkeypatch.setattr("tests.test_settings.ROOT", tmp_path)
    with pytest.raises(AssertionError):
        test_the_table_in_the_docs_is_the_settings_own()

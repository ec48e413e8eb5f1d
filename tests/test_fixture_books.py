"""The tool's tests read books of their own (issue 58): a correction to the Metzker book breaks none of them.

The small book (tests/fixtures/books/small, conftest's ``SMALL_BOOK``) is the tests' own: ``small_project`` cuts it and
``copy_project(..., SMALL_BOOK)`` copies it, and neither reads the Metzker book's data or prose, whatever they say (a
copy of the project whose sentences and values were corrected gives the same books). The tests that pinned the tool's
behaviour to the Metzker book's words and now read a fixture (``MOVED``) take none of the book's fixtures and name none
of its files. The Metzker book's own tests (fidelity to the sources, sourced statements, the published edition as
printed, its golden files, its page budget) read the book: they are the book's, and say so.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from tests import conftest

TESTS = Path(__file__).resolve().parent
# The tests that pinned the tool's behaviour to the Metzker book and read a fixture book now: file -> their names
# (None: every test of the file).
MOVED = {
    "test_bad_edits.py": None,
    "test_loader.py": ("test_every_bad_file_is_reported_in_one_run", "test_schema_rejects_wrong_types_with_the_line",
                       "test_a_file_read_again_is_not_parsed_again_and_editions_do_not_leak",
                       "test_the_next_run_reads_a_parsed_file_from_the_users_cache"),
    "test_build.py": ("test_an_earlier_edition_has_only_the_games_it_introduced",
                      "test_a_render_of_the_same_inputs_is_copied_from_the_pdf_cache",
                      "test_a_build_keeps_its_newest_whole_renders_and_copies_them",
                      "test_a_whole_build_records_what_it_was_made_from", "test_site_worker",
                      "test_the_pages_are_listed_as_mkdocs_lists_a_docs_folder_but_what_changed_last"),
    "test_sheets.py": ("test_each_sheet_that_fills_its_page_has_the_most_rows_that_fit",),
    "test_copyfit.py": ("test_a_section_laid_out_in_runs_prints_what_one_layout_prints",),
    "test_pdf.py": ("test_court_whist_score_card_from_data", "test_a4_paper"),
    "test_publish.py": ("test_publish_refuses_what_does_not_validate",),
}
BOOK_FIXTURES = {"library", "published_library", "built", "root", "printed"}  # conftest's: the Metzker book's


def reads_the_book(function: ast.FunctionDef, source: str) -> list[str]:
    """How a test reads the Metzker book: a fixture of the book's it takes, a file of ROOT's data or prose it names,
    a library of ROOT it loads, or a copy of ROOT it makes (``copy_project`` with no book named)."""
    found = [f"takes {arg.arg}" for arg in function.args.args if arg.arg in BOOK_FIXTURES]
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name == "copy_project" and len(node.args) < 2:
                found.append(f"line {node.lineno}: copies the Metzker book")
            if name == "load_library" and node.args and getattr(node.args[0], "id", "") == "ROOT":
                found.append(f"line {node.lineno}: loads the Metzker book")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and getattr(node.left, "id", "") == "ROOT" \
                and isinstance(node.right, ast.Constant) and str(node.right.value).split("/")[0] in ("rules_data",
                                                                                                     "content"):
            found.append(f"line {node.lineno}: names ROOT / {node.right.value!r}")
    return found


def _tests(file: str) -> dict[str, ast.FunctionDef]:
    tree = ast.parse((TESTS / file).read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


@pytest.mark.parametrize("file", MOVED)
def test_the_moved_tests_read_no_file_of_the_metzker_book(file):
    tests = _tests(file)
    names = MOVED[file] or tuple(tests)
    assert set(names) <= set(tests), f"{file} has no test {set(names) - set(tests)}"
    source = (TESTS / file).read_text(encoding="utf-8")
    assert {name: found for name in names if (found := reads_the_book(tests[name], source))} == {}


@pytest.mark.parametrize(("case", "test"), [
    ("the book's library", "def test_x(library):\n    assert library.games\n"),
    ("a copy of the book", "def test_x(tmp_path):\n    copy_project(tmp_path)\n"),
    ("the book loaded", "def test_x():\n    load_library(ROOT)\n"),
    ("a file of the book's prose", "def test_x():\n    (ROOT / 'content/hearts.md').read_text()\n"),
])
def test_a_test_reading_the_book_is_found(case, test):
    function = ast.parse(test).body[0]
    assert reads_the_book(function, test), case


def test_a_test_reading_a_fixture_book_passes():
    test = ("def test_x(tmp_path):\n    copy_project(tmp_path, SMALL_BOOK)\n    load_library(SMALL_BOOK)\n"
            "    (SMALL_BOOK / 'content/hearts.md').read_text()\n    shutil.copy(ROOT / 'mkdocs.yml', tmp_path)\n")
    assert reads_the_book(ast.parse(test).body[0], test) == []


def _corrected(dest: Path) -> Path:
    """A copy of the project whose every prose file has a sentence corrected and every game a value changed, as an
    editor's correction to the Metzker book would (the tool's templates, schemas and configuration as they are)."""
    for name in ("rules_data", "content", "templates", "schema"):
        shutil.copytree(conftest.ROOT / name, dest / name)
    shutil.copy(conftest.ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    for prose in (dest / "content").glob("*.md"):
        prose.write_text(prose.read_text(encoding="utf-8").replace(" the ", " the corrected ", 1), encoding="utf-8")
    for data in (dest / "rules_data").glob("*.yaml"):
        text = data.read_text(encoding="utf-8")
        data.write_text(text.replace("target: ", "target: 1", 1).replace("title: ", "title: Corrected ", 1),
                        encoding="utf-8")
    return dest


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_correction_to_the_metzker_book_reaches_no_fixture_book(tmp_path, monkeypatch):
    """The fixture books made from the project as it is and from a copy of it whose sentences and values were
    corrected are the same, file for file (on the code before the tests had books of their own, small_project cut
    the Metzker book, and the corrections reached it)."""
    made, real = {}, conftest.ROOT
    for name, root in (("as it is", real), ("corrected", _corrected(tmp_path / "corrected-root"))):
        monkeypatch.setattr(conftest, "ROOT", root)
        made[name] = (_files(conftest.small_project(tmp_path / name / "small")),
                      _files(conftest.small_project(tmp_path / name / "printed", ("hearts", "trash", "euchre"),
                                                    as_printed=True, index_errata=True)),
                      _files(conftest.copy_project(tmp_path / name / "copy", conftest.SMALL_BOOK)))
    corrected_prose = (tmp_path / "corrected-root" / "content" / "hearts.md").read_text(encoding="utf-8")
    assert corrected_prose != (real / "content" / "hearts.md").read_text(encoding="utf-8")  # it was corrected
    assert made["as it is"] == made["corrected"]

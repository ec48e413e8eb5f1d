"""Reserved names (issue 60, item 5): a game or page named as one of the site's own pages or folders, or as a device
Windows keeps, is refused by new-game before it writes anything and by validate at the id's line, in one line each;
once, "Index" passed validate and the build then failed with eight broken links."""

from __future__ import annotations

import contextlib
import io

import pytest

from generator.book.library import load_library
from generator.checks import run_checks
from generator.cli import main
from tests import hostile
from tests.checkfix import DEMO_GAME, make_project

NAMES = ["Index", "Search", "Keep", "Assets", "404", "Con", "Nul", "Aux", "PRN", "com1", "LPT9"]
FINE = ["Console", "Nullo", "Indexed Rummy", "Keeps"]  # names that only start like one


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    return make_project(tmp_path_factory.mktemp("reserved") / "book", {"games": [DEMO_GAME]})


def _new_game(root, name) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["--root", str(root), "new-game", name])
    return code, err.getvalue()


@pytest.mark.parametrize("name", NAMES)
def test_new_game_refuses_a_reserved_name_and_writes_nothing(book, name):
    hostile.tried("names.reserved")
    before = {p: p.read_bytes() for p in book.rglob("*") if p.is_file()}
    code, err = _new_game(book, name)
    assert code == 1 and err.count("\n") == 1 and err.startswith("error: ") and name in err, err
    assert {p: p.read_bytes() for p in book.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("name", [n for n in NAMES if not n.isdigit()])  # (a book lists '404' quoted: the fixture can't)
def test_validate_refuses_a_game_with_a_reserved_id_at_its_line(tmp_path, name):
    hostile.tried("names.reserved")
    game_id = name.lower()
    root = make_project(tmp_path / "book", {"games": [DEMO_GAME.replace("id: demo", f"id: '{game_id}'", 1)]})
    found = [f for f in run_checks(load_library(root), only={"game.reserved_id"})]
    assert [(f.path, f.line) for f in found] == [(f"rules_data/{game_id}.yaml", 1)], found
    assert "\n" not in found[0].message


@pytest.mark.parametrize("name", FINE)
def test_a_name_that_only_starts_like_one_is_fine(tmp_path, name):
    root = make_project(tmp_path / "book", {"games": [DEMO_GAME]})
    code, err = _new_game(root, name)
    assert code == 0, err


ODD = ["A\xad", "\n", "-:", "Zero\u200bWidth"]  # found by tests/test_fuzz.py's names


@pytest.mark.parametrize("name", ODD, ids=[repr(n) for n in ODD])
def test_new_game_refuses_a_name_the_loader_would_refuse_in_one_line(book, name):
    """A name with a character no title may hold (the loader refuses the file new-game would write), or none to
    make a file name of: one line, quoting the name escaped, and nothing written."""
    hostile.tried("names.odd")
    before = {p: p.read_bytes() for p in book.rglob("*") if p.is_file()}
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["--root", str(book), "new-game", "--", name])
    assert code == 1 and err.getvalue().count("\n") == 1 and err.getvalue().startswith("error: "), err.getvalue()
    assert {p: p.read_bytes() for p in book.rglob("*") if p.is_file()} == before

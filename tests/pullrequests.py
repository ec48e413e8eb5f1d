"""Pull requests on a small book of the tests' own (tests/fixtures/books/pull-requests/), for the tests of the
pull-request check: its games, prose and lists are written for them, never the Metzker book's, so that a correction
to the Metzker book changes none of these tests.

``pr_book`` copies the book, seals the record of its published edition (2026.1) and commits it: the base every fixture
pull request starts from. A change is made by ``edit`` (a text replaced once, which must be there) or ``append``, and
committed by ``commit``.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

BOOK = Path(__file__).resolve().parent / "fixtures" / "books" / "pull-requests"


def git(repo: Path, *args: str) -> None:
    """git, run in ``repo`` by a committer of the tests'."""
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@localhost", *args],
                   check=True, capture_output=True)


def commit(repo: Path, message: str) -> Path:
    """Every change in ``repo`` committed."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return repo


def edit(repo: Path, file: str, old: str, new: str) -> None:
    """``old`` in ``file`` (which must hold it) replaced once by ``new``."""
    path = repo / file
    text = path.read_text(encoding="utf-8")
    assert old in text, (file, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def append(repo: Path, file: str, text: str) -> None:
    """``text`` added at the end of ``file``."""
    path = repo / file
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def line_of(repo: Path, file: str, words: str, which: int = -1) -> int:
    """The line of ``file`` that holds ``words`` (the last such line, or the ``which``-th)."""
    lines = (repo / file).read_text(encoding="utf-8").splitlines()
    return [n for n, line in enumerate(lines, 1) if words in line][which]


def pr_book(dest: Path, games: tuple[str, ...] | None = None, first: Callable[[Path], None] | None = None) -> Path:
    """The book at ``dest``, with a site configuration as ``rulebook init`` writes one and its 2026.1 recorded as
    published (``first`` changes the book before that: what 2026.1 printed, say), committed to a new repository;
    with ``games``, only those (the others' files and lines gone)."""
    from generator.book import editor
    from generator.book.files import TOOL_TEMPLATES
    from tests.conftest import as_published

    shutil.copytree(BOOK, dest)
    config = (TOOL_TEMPLATES / "init" / "mkdocs.yml").read_text(encoding="utf-8")
    (dest / "mkdocs.yml").write_text(config.replace("@title_yaml@", "The Parlour Book of Games")
                                     .replace("@author_yaml@", "The Parlour Club")
                                     .replace("@dark_mode@", "Switch to dark mode")
                                     .replace("@light_mode@", "Switch to light mode"), encoding="utf-8")
    if games is not None:
        book = editor.YamlFile((dest / "rules_data" / "book.yaml").read_text(encoding="utf-8"))
        for section in book.data["sections"]:
            gone = [game for game in section["games"] if game not in games]
            editor.keep_only(section["games"], lambda game: game in games)
            for game in gone:
                for path in [dest / "rules_data" / f"{game}.yaml", *(dest / "content").glob(f"{game}.*md")]:
                    path.unlink()
        (dest / "rules_data" / "book.yaml").write_text(book.text(), encoding="utf-8")
        errata = editor.YamlFile((dest / "rules_data" / "errata.yaml").read_text(encoding="utf-8"))
        editor.keep_only(errata.data["errata"], lambda entry: (dest / entry["file"]).exists())
        (dest / "rules_data" / "errata.yaml").write_text(errata.text(), encoding="utf-8")
    if first is not None:
        first(dest)
    as_published(dest)
    git(dest, "init", "-q")
    return commit(dest, "base")

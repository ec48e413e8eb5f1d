"""``rulebook publish`` validates first: on an error it builds nothing and leaves gh-pages as it was. On books of the
tests' own: a one-game book, and the small book (tests/conftest.py ``SMALL_BOOK``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from generator.cli import main
from generator.commands.publish import DIGEST, built_commit
from tests.conftest import SMALL_BOOK

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("book.yaml", "mkdocs.yml", "pyproject.toml", "rules_data", "content", "templates", "schema", "docs")
BOOK = ("rules_data", "content")  # of COPIED, the small book's; the rest the tool's

# (file, text as it is, text broken): each edit is an error `rulebook validate` reports.
BROKEN = {
    "stated-total": ("rules_data/canadian-salad.yaml", "cards: red, points: 5, stated_total: 130",
                     "cards: red, points: 5, stated_total: 135"),
    # a word 2026.1 printed, changed without an erratum: edition.frozen
    "published-word": ("content/hearts.md", "Hearts may not be led", "Hearts may never be led"),
}


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False).stdout


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_publish_refuses_what_does_not_validate(case: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    repo = tmp_path / "book"
    repo.mkdir()
    for name in COPIED:
        src = (SMALL_BOOK if name in BOOK else ROOT) / name
        if src.is_dir():
            shutil.copytree(src, repo / name)
        elif src.exists():
            shutil.copy2(src, repo / name)
    rel, before, after = BROKEN[case]
    text = (repo / rel).read_text(encoding="utf-8")
    assert before in text
    (repo / rel).write_text(text.replace(before, after, 1), encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-q", "-m", "broken")
    head = _git(repo, "rev-parse", "HEAD")
    assert main(["--root", str(repo), "publish"]) == 1
    err = capsys.readouterr().err
    assert f"{rel}:" in err and "Traceback" not in err
    assert not _git(repo, "branch", "--list", "gh-pages").strip()
    assert _git(repo, "rev-parse", "HEAD") == head and not _git(repo, "status", "--porcelain").strip()


# -- only what was committed is published, and every edition that did not change is kept ---------------------------


GAME = ("id: demo\ntitle: Demo Rummy\ncategory: cards\nintroduced: \"2026.1\"\n"
        "sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]\nplayers: 2-4\n"
        "equipment: {cards: [{decks: 1}]}\ndeal: {each: 7, upcard: 1}\ngoal: {winner: high, target: 500}\n")
EDITIONS = ('{id: "2026.1", year: 2026, revision: 1, label: Revision 1 (Jan/2026), date: "2026-01-01"}\n'
            '  - {id: "2026.2", year: 2026, revision: 2, label: Revision 2 (Nov/2026), date: "2026-11-01"}')
# A decision of the current edition (2026.2): Demo Rummy is played to 400, not 500.
DECISION = ("revisions:\n  - {id: demo-400, edition: \"2026.2\", date: \"2026-10-01\", kind: target, "
            "file: rules_data/demo.yaml, path: goal.target, before: 500, after: 400, why: Games ran too long.}\n")


def _tiny_book(dest: Path) -> Path:
    """A one-game book of two editions, 2026.1 published (recorded), committed."""
    from tests.checkfix import make_project

    root = make_project(dest, {"games": [GAME], "edition": EDITIONS, "current": "2026.2", "freeze": "2026.1",
                               "then": []})
    for name in ("templates", "mkdocs.yml"):
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy)(ROOT / name, root / name)
    _commit(root, "the book")
    return root


def _commit(root: Path, message: str) -> str:
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-q", "-m", message)
    return _git(root, "rev-parse", "HEAD").strip()


# (what is left uncommitted, the file the refusal names)
DIRTY = {
    "an edited game": (lambda r: (r / "content/demo.md").write_text("## Rules\n\nPlay fair.\n", encoding="utf-8"),
                       "content/demo.md"),
    "a new data file": (lambda r: (r / "rules_data/dictionary.txt").write_text("meld\n", encoding="utf-8"),
                        "rules_data/dictionary.txt"),
    "an edited template": (lambda r: (r / "templates/site/game.md.j2").write_text("{# x #}\n", encoding="utf-8"),
                           "templates/site/game.md.j2"),
    "a staged edit": (lambda r: ((r / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8"),
                                 _git(r, "add", "mkdocs.yml")), "mkdocs.yml"),
}


@pytest.mark.parametrize("case", sorted(DIRTY))
def test_publish_refuses_uncommitted_sources_in_one_line(case, tmp_path, capsys):
    root = _tiny_book(tmp_path / "book")
    change, named = DIRTY[case]
    change(root)
    assert main(["--root", str(root), "publish"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and named in err and "--allow-dirty" in err and "Traceback" not in err, err
    assert not _git(root, "branch", "--list", "gh-pages").strip()  # nothing built, nothing committed
    assert built_commit(root, allow_dirty=True).endswith(" + uncommitted changes")


def test_what_is_not_the_book_does_not_hold_a_publish(tmp_path):
    root = _tiny_book(tmp_path / "book")
    head = _git(root, "rev-parse", "HEAD").strip()
    (root / "notes.txt").write_text("a maintainer's notes\n", encoding="utf-8")  # not read by a build
    assert built_commit(root) == head


def test_a_folder_with_no_commit_is_refused_in_one_line(tmp_path, capsys):
    root = _tiny_book(tmp_path / "book")
    shutil.rmtree(root / ".git")
    _git(root, "init", "-q")
    assert main(["--root", str(root), "publish"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "commit" in err, err


def _tree(root: Path, rev: str) -> str:
    return _git(root, "rev-parse", rev).strip()


def _versions(root: Path) -> dict[str, dict]:
    import json

    return {v["version"]: v for v in json.loads(_git(root, "show", "gh-pages:versions.json"))}


def test_publish_keeps_an_edition_that_did_not_change_and_builds_one_that_did(tmp_path, capsys, monkeypatch):
    """Publish, a decision in the current edition, publish: 2026.1 kept byte for byte, 2026.2 built from the new
    commit; then a template changed (and, apart, 2026.1's record made again after a change to what it prints):
    2026.1 is built again."""
    monkeypatch.setenv("RULEBOOK_PDF_JOBS", "1")
    # The publishes keep their renders in a cache of the test's (as a build keeps its own): the third publish copies
    # 2026.2's, which the second rendered from the same sources and code (a site template is no input of the PDF).
    # Each edition is deployed all the same: its site built by the engine and committed, as the asserts below read.
    monkeypatch.setenv("RULEBOOK_PDF_CACHE", str(tmp_path / "renders"))
    root = _tiny_book(tmp_path / "book")
    first = _git(root, "rev-parse", "HEAD").strip()
    assert main(["--root", str(root), "publish"]) == 0
    assert "deployed 2026.1, 2026.2 to" in capsys.readouterr().out
    log = _git(root, "log", "--format=%s", "gh-pages")
    assert f"Deployed 2026.1 (Revision 1 (Jan/2026)) built from commit {first}" in log
    assert f"Deployed 2026.2 (Revision 2 (Nov/2026)) built from commit {first}" in log
    published = _tree(root, "gh-pages:2026.1")
    digests = {v: e["properties"][DIGEST] for v, e in _versions(root).items()}

    text = (root / "rules_data/demo.yaml").read_text(encoding="utf-8")
    (root / "rules_data/demo.yaml").write_text(text.replace("target: 500", "target: 400"), encoding="utf-8")
    (root / "rules_data/revisions.yaml").write_text(DECISION, encoding="utf-8")
    second = _commit(root, "Demo Rummy to 400")
    assert main(["--root", str(root), "publish"]) == 0
    out = capsys.readouterr().out
    assert "deployed 2026.2; kept 2026.1 as deployed" in out and second in out, out
    assert _tree(root, "gh-pages:2026.1") == published  # byte for byte: the same tree object
    assert _versions(root)["2026.1"]["properties"][DIGEST] == digests["2026.1"]
    assert _versions(root)["2026.2"]["properties"][DIGEST] != digests["2026.2"]
    assert f"Deployed 2026.2 (Revision 2 (Nov/2026)) built from commit {second}" in _git(root, "log", "-3", "--format=%s", "gh-pages")
    assert "400" in _git(root, "show", "gh-pages:2026.2/games/demo/index.html")
    assert "400" not in _git(root, "show", "gh-pages:2026.1/games/demo/index.html")

    # The code and templates: a change to the site's templates (published uncommitted, as --allow-dirty lets it)
    # builds every edition again.
    (root / "templates/site/overrides/main.html").write_text(
        (root / "templates/site/overrides/main.html").read_text(encoding="utf-8") + "\n{#- a comment -#}\n",
        encoding="utf-8")
    assert main(["--root", str(root), "publish", "--allow-dirty"]) == 0
    assert "deployed 2026.1, 2026.2 to" in capsys.readouterr().out
    assert _versions(root)["2026.1"]["properties"][DIGEST] != digests["2026.1"]
    assert (f"Deployed 2026.1 (Revision 1 (Jan/2026)) built from commit {second} + uncommitted changes"
            in _git(root, "log", "--format=%s", "gh-pages"))


def test_an_edition_whose_sources_as_printed_change_is_built_again(tmp_path):
    """The digest follows what an edition's build reads: a change that a later edition makes (undone for it) leaves it
    as it was; a change to what it prints (its words, its edition's label, the label of the edition before) does not."""
    from generator.book.frozen import write
    from generator.book.library import load_library
    from generator.commands.publish import build_digest

    root = _tiny_book(tmp_path / "book")
    before = {ed: build_digest(load_library(root, ed)) for ed in ("2026.1", "2026.2")}
    (root / "rules_data/demo.yaml").write_text(GAME.replace("target: 500", "target: 400"), encoding="utf-8")
    (root / "rules_data/revisions.yaml").write_text(DECISION, encoding="utf-8")
    decided = {ed: build_digest(load_library(root, ed)) for ed in ("2026.1", "2026.2")}
    assert decided["2026.1"] == before["2026.1"] and decided["2026.2"] != before["2026.2"]
    # A word 2026.1 printed, changed and recorded again (`rulebook freeze`, as a change of the record's format is).
    (root / "content/demo.md").write_text("## Rules\n\nPlay fair.\n", encoding="utf-8")
    write(load_library(root, "2026.1"))
    assert build_digest(load_library(root, "2026.1")) != decided["2026.1"]
    (root / "content/demo.md").write_text("## Rules\n\nPlay well.\n", encoding="utf-8")
    write(load_library(root, "2026.1"))
    assert build_digest(load_library(root, "2026.1")) == decided["2026.1"]
    # An edition's label: its own cover prints it, and the next edition's "What changed" (from it); an earlier
    # edition prints neither.
    book = (root / "rules_data/book.yaml").read_text(encoding="utf-8")
    (root / "rules_data/book.yaml").write_text(book.replace('label: Revision 2 (Nov/2026)', 'label: Revision 2 (Dec/2026)'),
                                               encoding="utf-8")
    assert build_digest(load_library(root, "2026.1")) == decided["2026.1"]
    assert build_digest(load_library(root, "2026.2")) != decided["2026.2"]
    (root / "rules_data/book.yaml").write_text(book.replace('label: Revision 1 (Jan/2026)', 'label: Revision 1 (Feb/2026)'),
                                               encoding="utf-8")
    assert build_digest(load_library(root, "2026.1")) != decided["2026.1"]
    assert build_digest(load_library(root, "2026.2")) != decided["2026.2"]  # "What changed" from it

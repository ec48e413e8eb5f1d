"""A released edition's site reads the same in a reader's browser (issue 59, item 1): when a change alters what the
site is made with (its templates, styles, scripts, settings), each edition published at the base is built from the
base's and from the change's, both by the running code, served over http and read in Chromium, every page, its styles'
``content:`` words and what its scripts write included; a page that reads otherwise fails the check
(released.read_changed), naming the edition, the page and the words. A ``hooks:`` entry in mkdocs.yml is the change's
code: it is never run, and the check fails saying the published site could not be built as the change would publish
it. Without Playwright, the site cannot be read: that fails too, never passes. On the tests' own small book
(``tests/pullrequests.py``: 2026.1 published)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.book.files import TOOL_TEMPLATES
from generator.commands.check_pr import check_pr
from tests.pullrequests import append, pr_book

pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return pr_book(tmp_path_factory.mktemp("released-read") / "repo", games=("knock-golf", "ten-dice"))


def _site_asset(name: str, added: str):
    """The book's own site asset ``name`` (templates/site/assets/): the tool's, and ``added``."""
    def change(repo: Path) -> None:
        (repo / "templates/site/assets").mkdir(parents=True, exist_ok=True)
        text = (TOOL_TEMPLATES / "site/assets" / name).read_text(encoding="utf-8")
        (repo / "templates/site/assets" / name).write_text(text + "\n" + added + "\n", encoding="utf-8")
    return change


# A script that rewrites the goal of Ten Thousand, only where the page is served over http (never on a file: address).
OVER_HTTP = """if (location.protocol.startsWith("http")) {
  for (const cell of document.querySelectorAll("td, p, li")) {
    cell.innerHTML = cell.innerHTML.replace("10,000", "5,000");
  }
}"""

# case: (the change; (page, words) one of the errors on 2026.1's site says, or (None, words) a check.not_judged; or
# None: the change is free)
CASES = {
    "a stylesheet that writes a rule through content:": (
        _site_asset("rulebook.css", '.md-typeset h1::after { content: " (hearts may be led at any time)"; }'),
        ("games/ten-dice/index.html", "{+(hearts may be led at any time)+}")),
    "a script that rewrites a number only when served over http": (
        _site_asset("a11y.js", OVER_HTTP), ("games/ten-dice/index.html", "[-10,000-] {+5,000+}")),
    "a stylesheet that hides the rules' tables": (
        _site_asset("rulebook.css", ".md-typeset table { display: none; }"), ("games/ten-dice/index.html", "[-")),
    "a hooks: entry in mkdocs.yml": (
        lambda r: append(r, "mkdocs.yml", "hooks:\n  - hooks.py\n"),
        (None, "could not be built as this change would publish it: its mkdocs.yml names hooks")),
    "a stylesheet that only recolours": (_site_asset("rulebook.css", ".md-typeset h1 { color: #c00; }"), None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_published_editions_site_reads_as_it_did(base, tmp_path, case):
    change, named = CASES[case]
    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    change(repo)
    code, annotations, summary = check_pr(repo, "HEAD")
    read = [a for a in annotations if "title=released.read_changed::" in a]
    if named is None:
        assert read == [] and not [a for a in annotations if "check.not_judged" in a], annotations
        return
    page, words = named
    assert code == 1, summary
    if page is None:
        assert any("check.not_judged" in a and words in a for a in annotations), annotations
        return
    [said] = [a for a in read if f"the page {page} (changed)" in a]
    assert "the readers of 2026.1, published, read on its site as a browser shows it" in said and words in said, said
    assert "released.read_changed" in summary.split("## What this change")[0]  # among the errors the summary leads with
    # The open edition's pages, read the same way, every one of them: the page named in the summary with its words
    section = summary[summary.index("### Every page of the open edition this change alters"):].split("\n## ")[0]
    [row] = [row for row in section.splitlines() if row.startswith(f"- `{page}` (changed, as read): ")]
    assert words.replace("[", "\\[").replace("]", "\\]") in row, row


def test_without_playwright_the_site_is_not_read_and_the_check_fails(base, tmp_path, monkeypatch):
    """No Playwright (the review extra), no reading: a change to how the site is made fails, in one line saying so."""
    import builtins

    real = builtins.__import__

    def no_playwright(name, *args, **kwargs):
        if name.startswith("playwright"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    CASES["a stylesheet that only recolours"][0](repo)
    monkeypatch.setattr(builtins, "__import__", no_playwright)
    code, annotations, _ = check_pr(repo, "HEAD")
    assert code == 1 and any("check.not_judged" in a and "playwright is not installed" in a for a in annotations), \
        annotations


def test_each_sides_reading_is_kept_by_all_it_read(base, tmp_path, monkeypatch):
    """A side's site, as read, is kept in the user's cache by a digest of everything its build and reading read: the
    same base checked against two changes is built and read once; an edit to its sources is another entry; an entry
    damaged or edited is not trusted, and the side is built and read again. (The site's build and its reading are
    stood in for by a page that holds the side's own sources' words: what is tested is which sides are built.)"""
    import generator.render.site.engine as engine
    import generator.render.site.reading as reading
    from generator.book.library import load_library
    from generator.commands.check_pr.reading import KEPT, sites_read

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    built = []

    def render_site(lib, site, staging, downloads):
        built.append(lib.root.name)
        site.mkdir(parents=True)
        (site / "index.html").write_text((lib.root / "content/about.md").read_text(encoding="utf-8"), encoding="utf-8")

    monkeypatch.setattr(engine, "render_site", render_site)
    monkeypatch.setattr(reading, "pages_read", lambda sites: [{"index.html": (s / "index.html").read_text(
        encoding="utf-8")} for s in sites])

    def check(name: str, change) -> tuple[dict[str, str], dict[str, str]]:
        repo = tmp_path / name
        shutil.copytree(base, repo)
        change(repo)
        return sites_read(load_library(base_root, "2026.1"), load_library(repo, "2026.1"), tmp_path / "out" / name)

    base_root = tmp_path / "base-copy"
    shutil.copytree(base, base_root)
    recolour = CASES["a stylesheet that only recolours"][0]
    before, after = check("first", recolour)
    assert built == ["base-copy", "first"] and before == after, built
    check("second", CASES["a stylesheet that hides the rules' tables"][0])
    assert built[2:] == ["second"], built  # the base's reading kept: read once
    check("first-again", recolour)
    assert built[3:] == [], built  # the same inputs in another folder: kept too
    # An edit to the base's sources: another entry, read anew, and its words are the edited ones
    append(base_root, "content/about.md", "\nEdited.\n")
    before, _ = check("third", recolour)
    assert built[3:] == ["base-copy"] and before["index.html"].endswith("Edited.\n"), built
    # A kept entry edited: not trusted, built and read again
    for entry in (tmp_path / "cache" / "rulebook" / KEPT).iterdir():
        entry.write_bytes(entry.read_bytes().replace(b"Edited.", b"Edited!"))
    before, _ = check("fourth", recolour)
    assert built[4:] == ["base-copy"] and before["index.html"].endswith("Edited.\n"), built

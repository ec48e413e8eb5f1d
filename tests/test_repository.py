"""No invented address (issue 42): the repository a page's "Found a mistake?" line and edit button open is configuration
(a setting, CI's repository, the git remote), never built in; with none, the line offers the address the book itself
gives for corrections (About the Book's e-mail). No generated page gives an address the sources do not give."""

from __future__ import annotations

import re
import subprocess
from functools import cache

import pytest

from generator.book.library import load_library
from generator.render.site.docs import game_markdown, site_environment
from generator.render.site.repository import correction_address, repository, web_address
from generator.render.views.pages import game_page
from tests.conftest import CURRENT, PUBLISHED, ROOT

ADDRESS = re.compile(r"https?://[^\s\"'<>)]+|mailto:[^\s\"'<>)]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


@pytest.mark.parametrize(("remote", "address"), [
    ("https://github.com/someone/rules.git", "https://github.com/someone/rules"),
    ("https://someone:ghp_secret@github.com/someone/rules.git", "https://github.com/someone/rules"),  # no token
    ("https://x-access-token:abc@github.com/o/r", "https://github.com/o/r"),
    ("git@github.com:someone/rules.git", "https://github.com/someone/rules"),
    ("ssh://git@gitlab.example.org:2222/family/book.git", "https://gitlab.example.org/family/book"),
    ("http://git.local:8080/family/book/", "http://git.local:8080/family/book"),
    ("/work/main", None), ("../rulebook", None), ("file:///srv/git/book.git", None), ("", None),
])
def test_a_remote_is_read_as_its_repository_s_web_address(remote, address):
    assert web_address(remote) == address


def _git(folder, *args):
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True)


@pytest.fixture
def project(tmp_path):
    """A project folder in a git repository of its own with no remote."""
    _git(tmp_path, "init", "-q")
    return tmp_path


CI = {"GITHUB_SERVER_URL": "https://github.example.com", "GITHUB_REPOSITORY": "family/rulebook"}


@pytest.mark.parametrize(("setting", "env", "remote", "expected"), [
    ("", {}, None, None),  # nothing configured: no repository
    ("", {}, "git@github.com:cousin/rules.git", "https://github.com/cousin/rules"),  # the git remote
    ("", {}, "/somewhere/local", None),  # a local remote is no address
    ("", CI, "git@github.com:cousin/rules.git", "https://github.example.com/family/rulebook"),  # CI's, over the remote
    ("", {"GITHUB_REPOSITORY": "family/rulebook"}, None, "https://github.com/family/rulebook"),
    ("https://codeberg.org/family/book", CI, "git@github.com:cousin/rules.git", "https://codeberg.org/family/book"),
    ("", {"RULEBOOK_REPO": "https://codeberg.org/family/book.git", **CI}, None, "https://codeberg.org/family/book"),
], ids=["none", "remote", "local-remote", "ci", "ci-default-server", "setting", "env-setting"])
def test_the_repository_is_configuration(project, setting, env, remote, expected):
    if remote is not None:
        _git(project, "remote", "add", "origin", remote)
    assert repository(project, setting, env) == expected


def test_a_folder_outside_git_has_no_repository(tmp_path):
    assert repository(tmp_path / "nowhere", "", {}) is None


@cache
def _libraries():
    return [load_library(ROOT, edition) for edition in (CURRENT, PUBLISHED)]


def source_addresses() -> set[str]:
    """Every address the book's own text gives (read from content/ and rules_data/, not written here)."""
    texts = [f.read_text(encoding="utf-8") for d in ("content", "rules_data") for f in sorted((ROOT / d).rglob("*"))
             if f.is_file()]
    return {m.group(0).removeprefix("mailto:") for text in texts for m in ADDRESS.finditer(text)}


def test_the_book_gives_an_address_for_corrections():
    assert {correction_address(lib) for lib in _libraries()} == {"brent.metzker@gmail.com"}
    assert "brent.metzker@gmail.com" in source_addresses()


@pytest.mark.parametrize("repo", ["", "https://github.example.com/family/rulebook"], ids=["no-repository", "repository"])
def test_every_game_page_links_only_the_configured_repository_or_the_book_s_address(repo):
    allowed = source_addresses()
    for lib in _libraries():
        env = site_environment(lib, repo)
        for gs in lib.ordered_games():
            text = game_markdown(env, game_page(lib, gs))
            assert "Found a mistake?" in text
            for m in ADDRESS.finditer(text):
                address = m.group(0).removeprefix("mailto:")
                assert address in allowed or (repo and address.startswith(repo + "/")), (gs.id, address)
            if repo:
                assert f"{repo}/edit/main/rules_data/{gs.id}.yaml" in text and "mailto:" not in text
            else:
                assert "mailto:brent.metzker@gmail.com" in text and "/edit/" not in text


def test_no_built_page_gives_an_address_the_sources_do_not(built):
    """The built site (both editions): every link out of the site is the book's own address or the repository the
    build was configured with (the test build's project has none unless CI names one)."""
    import os

    configured = repository(ROOT, "", os.environ) or ""
    allowed = source_addresses()
    for edition, out in built.items():
        for page in sorted((out / "site").rglob("*.html")):
            html = page.read_text(encoding="utf-8")
            assert "metzker-family" not in html, page
            for href in re.findall(r'href="((?:https?|mailto):[^"]+)"', html):
                address = href.removeprefix("mailto:")
                assert address in allowed or (configured and address.startswith(configured + "/")), (edition, page, href)


@pytest.mark.parametrize("repo", ["", "https://github.example.com/family/rulebook"], ids=["no-repository", "setting"])
def test_the_site_build_links_the_configured_repository_or_none(tmp_path, monkeypatch, repo):
    """The plugin's request to the page worker, the worker's answer and the edit button (a page's edit_url): the
    setting is used, and with none configured (no CI, a remote that is no address) no page has an edit button."""
    from types import SimpleNamespace

    from generator.render.process import PAGES, Request
    from generator.render.site.plugin import RulebookPlugin
    from generator.render.site.worker import generate

    for name in ("RULEBOOK_REPO", "GITHUB_REPOSITORY", "GITHUB_SERVER_URL"):
        monkeypatch.delenv(name, raising=False)
    answer = generate(Request(PAGES, str(ROOT), out=str(tmp_path / "generated"), repo=repo))
    expected = repo or repository(ROOT, "", {})  # this checkout's remote, if it is an address
    assert answer["repo"] == (expected or "")
    hearts = (tmp_path / "generated" / CURRENT / "docs" / "games" / "hearts.md").read_text(encoding="utf-8")
    assert (f"{expected}/edit/main/rules_data/hearts.yaml" in hearts) if expected else "mailto:" in hearts
    plugin = RulebookPlugin()
    plugin._use(answer, {})  # as the plugin takes the worker's answer
    page = SimpleNamespace(file=SimpleNamespace(src_uri="games/hearts.md"), edit_url=None)
    plugin.on_page_markdown("", page, {}, None)
    assert page.edit_url == (f"{expected}/edit/main/content/hearts.md" if expected else None)

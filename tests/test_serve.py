"""`make serve` (rulebook serve) under a contributor's slips: the served page says what is wrong, where,
and turns back into the book when the file is saved right; it never stops answering."""

from __future__ import annotations

import html
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import copy_project, small_project


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(url: str, wanted, timeout: float = 60) -> str:
    """The page at ``url`` once ``wanted(text)`` holds (polled), or fail after ``timeout`` seconds."""
    end, text = time.monotonic() + timeout, ""
    while time.monotonic() < end:
        try:
            text = urllib.request.urlopen(url, timeout=5).read().decode("utf-8")  # noqa: S310 (localhost)
        except OSError:
            text = ""
        if wanted(text):
            return text
        time.sleep(0.5)
    raise AssertionError(f"{url} did not turn as expected in {timeout} s; last: {text[:300]!r}")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_serve_shows_a_slip_in_the_page_and_recovers(tmp_path):
    project = copy_project(tmp_path / "project")
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(project), "serve",
                               "--addr", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    home, euchre = f"http://127.0.0.1:{port}/", f"http://127.0.0.1:{port}/games/euchre/"
    try:
        _wait_for(euchre, lambda t: "Euchre" in t and "rulebook-errors" not in t, 120)
        # A YAML slip: the preview says the book cannot be built, and where.
        _edit(project / "rules_data" / "euchre.yaml", "\n  each: 5\n", "\n  each 5\n")
        page = _wait_for(home, lambda t: "The book cannot be built" in t)
        assert "rules_data/euchre.yaml:16" in page and "write 'each: 5' instead" in html.unescape(page)
        # Saved right: the book again.
        _edit(project / "rules_data" / "euchre.yaml", "\n  each 5\n", "\n  each: 5\n")
        _wait_for(euchre, lambda t: "Euchre" in t and "rulebook-errors" not in t)
        # A finding the checks make: every page carries it atop, until it is corrected.
        _edit(project / "rules_data" / "canadian-salad.yaml", "points: 5, stated_total: 130}", "points: 5, stated_total: 135}")
        page = _wait_for(euchre, lambda t: "rulebook-errors" in t)
        assert re.search(r"rules_data/canadian-salad.yaml:\d+: scoring.total_mismatch", page)
        _edit(project / "rules_data" / "canadian-salad.yaml", "points: 5, stated_total: 135}", "points: 5, stated_total: 130}")
        _wait_for(euchre, lambda t: "Euchre" in t and "rulebook-errors" not in t)
    finally:
        server.terminate()
        server.wait(timeout=30)


def _lines(stream, into: queue.Queue) -> None:
    for line in stream:
        into.put(line.rstrip("\n"))


def _next_line(lines: queue.Queue, wanted: str, timeout: float = 60) -> str:
    """The next line the server prints that holds ``wanted`` (the lines before it skipped), or fail."""
    end = time.monotonic() + timeout
    seen = []
    while time.monotonic() < end:
        try:
            line = lines.get(timeout=max(0.1, end - time.monotonic()))
        except queue.Empty:
            break
        seen.append(line)
        if wanted in line:
            return line
    raise AssertionError(f"no line with {wanted!r} in {timeout} s; printed: {seen}")


@pytest.fixture(scope="module")
def one_game(tmp_path_factory) -> Path:
    """A book of one game (Golf), its 2026.1 recorded as published."""
    return small_project(tmp_path_factory.mktemp("one-game") / "project", games=("golf",))


def test_serve_tells_its_address_and_each_build_and_writes_nothing_in_the_book(one_game, tmp_path):
    """The address a person can open once it answers; one line a build: what changed, how long, what is wrong (the
    engine's words at the source); and the book's folder as it was, so that `make` after `make serve` builds."""
    project = tmp_path / "book"
    shutil.copytree(one_game, project)
    build = [sys.executable, "-m", "generator", "--root", str(project), "build", "--site-only"]
    assert subprocess.run(build, capture_output=True).returncode == 0  # `make`, then `make serve`, then `make`
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(project), "serve", "--addr",
                               f"127.0.0.1:{port}"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=_lines, args=(server.stdout, lines), daemon=True).start()
        assert re.fullmatch(r"built in \d+\.\d s", _next_line(lines, "built in", 120))
        address = _next_line(lines, "serving the site at ")
        url = re.search(r"http://127\.0\.0\.1:\d+/", address)[0]
        assert url == f"http://127.0.0.1:{port}/"
        assert "Golf" in _wait_for(url + "games/golf/", lambda t: "Golf" in t)
        prose = project / "content" / "golf.md"
        prose.touch()
        assert re.fullmatch(r"content/golf\.md changed: rebuilt in \d+\.\d s", _next_line(lines, "changed: "))
        lines_before = prose.read_text(encoding="utf-8").count("\n")
        prose.write_text(prose.read_text(encoding="utf-8") + "See [the rules](nowhere.md).\n", encoding="utf-8")
        warned = _next_line(lines, "MkDocs: ")
        assert warned.startswith(f"content/golf.md:{lines_before + 1}: MkDocs: Doc file 'games/golf.md' contains a "
                                 "link 'nowhere.md'"), warned
        told = _next_line(lines, "changed: ")
        assert told.startswith("content/golf.md changed: rebuilt in ") and "broken link nowhere.md" in told
        prose.write_text(prose.read_text(encoding="utf-8").replace("See [the rules](nowhere.md).\n", ""),
                         encoding="utf-8")
        assert re.fullmatch(r"content/golf\.md changed: rebuilt in \d+\.\d s", _next_line(lines, "changed: "))
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before  # nothing made in the book
    built = subprocess.run(build, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr


def test_serve_on_an_address_in_use_is_one_line(one_game):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        addr = f"127.0.0.1:{taken.getsockname()[1]}"
        result = subprocess.run([sys.executable, "-m", "generator", "--root", str(one_game), "serve", "--addr", addr],
                                capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr == (f"error: {addr} is in use (another preview, or another server): stop it, or give another "
                             "address with --addr, such as 127.0.0.1:8001\n")


def test_a_rebuild_that_fails_is_one_line_where_it_fails_and_the_page_says_so(one_game, tmp_path):
    """An exception in a rebuild (a template of the book's own that does not parse, mkdocs.yml that does not) is one
    line, at the file and line, never MkDocs's traceback and 'Aborted with a BuildError!'; the served page says why,
    and the book comes back once the file is saved right."""
    project = tmp_path / "book"
    shutil.copytree(one_game, project)
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(project), "serve", "--addr",
                               f"127.0.0.1:{port}"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue = queue.Queue()
    printed: list[str] = []  # every line, those _next_line skips too

    def pump() -> None:
        for line in server.stdout:
            printed.append(line.rstrip("\n"))
            lines.put(line.rstrip("\n"))

    try:
        threading.Thread(target=pump, daemon=True).start()
        _next_line(lines, "serving the site at ", 120)
        url = f"http://127.0.0.1:{port}/"
        template = project / "templates" / "site" / "overrides" / "main.html"
        good = template.read_text(encoding="utf-8")
        broken_at = good.count("\n") + 1
        template.write_text(good + "{% block %\n", encoding="utf-8")
        told = _next_line(lines, "not built: ")
        assert told == (f"templates/site/overrides/main.html changed: not built: templates/site/overrides/"
                        f"main.html:{broken_at}: expected token 'name', got '%' (TemplateSyntaxError); the preview "
                        "says so until it is corrected")
        page = html.unescape(_wait_for(url, lambda t: "The book cannot be built" in t))
        assert f"templates/site/overrides/main.html:{broken_at}: expected token 'name'" in page
        template.write_text(good, encoding="utf-8")
        told = _next_line(lines, "changed: ")
        assert re.fullmatch(r"templates/site/overrides/main\.html changed: rebuilt in \d+\.\d s", told)
        _wait_for(url + "games/golf/", lambda t: "Golf" in t)
        config = project / "mkdocs.yml"
        text = config.read_text(encoding="utf-8")
        at = text[:text.index("\nsite_name:") + 1].count("\n") + 1
        config.write_text(text.replace("\nsite_name:", "\nsite_name: [unclosed\n#", 1), encoding="utf-8")
        told = _next_line(lines, "not built: ")
        assert told.startswith(f"not built: mkdocs.yml:{at}: MkDocs encountered an error parsing the "
                               "configuration file: "), told
        config.write_text(text, encoding="utf-8")
        # Back as it was when last built: the build after a configuration MkDocs could not read may find nothing of
        # the book's changed since the last build that ran (mkdocs.yml is as it was then), and then names nothing.
        told = _next_line(lines, "rebuilt in ")
        assert re.fullmatch(r"(mkdocs\.yml changed: )?rebuilt in \d+\.\d s", told), told
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert not [line for line in printed if "Traceback" in line or "Aborted" in line or line.startswith(" ")], printed

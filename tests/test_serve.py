"""`make serve` (rulebook serve) under a contributor's slips: the served page says what is wrong, where,
and turns back into the book when the file is saved right; it never stops answering."""

from __future__ import annotations

import html
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.conftest import copy_project


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

"""The score keeper's service worker (generator/render/offline.py): what it caches is what the keeper pages load.

The worker at work in a browser, offline, is tested in test_browser.py."""

from __future__ import annotations

import json
import posixpath
import re
from html.parser import HTMLParser

import pytest

from generator.render.offline import WORKER, page_loads

CONFIG = '<script id="__config" type="application/json">{}</script>'
# Each case: a page at keep/hearts/index.html (its head and scripts) and the site's files it loads.
LOADS = {
    "stylesheet and icon": ('<link rel="stylesheet" href="../../assets/a.css"><link rel="icon" href="../../i.png">',
                            {"assets/a.css", "i.png"}),
    "script": ('<script src="../../assets/keeper.js"></script>', {"assets/keeper.js"}),
    "not loaded as the page opens": ('<link rel="canonical" href="../../x/"><a href="../../y.css">y</a>', set()),
    "another site's": ('<script src="https://cdn.example/x.js"></script><link rel="stylesheet" href="//f.example/a.css">',
                       set()),
    "the theme's search": (CONFIG.format('{"base": "../..", "search": "../../assets/js/search.js"}'),
                           {"assets/js/search.js", "search/search_index.json"}),
    "no search": (CONFIG.format('{"base": "../..", "search": null}'), set()),
}


@pytest.mark.parametrize("case", LOADS)
def test_what_a_page_loads(case):
    page, loads = LOADS[case]
    assert page_loads("keep/hearts/index.html", f"<html><head>{page}</head></html>") == loads


class _Loads(HTMLParser):
    """What a page loads as it opens, read by the standard library's parser (not the build's regular expression)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("src"):
            self.found.add(attrs["src"])
        if tag == "link" and attrs.get("rel") in ("stylesheet", "icon"):
            self.found.add(attrs["href"])


@pytest.mark.parametrize("edition", ["2026.1", "2026.2"])
def test_the_worker_caches_what_the_keepers_load(built, edition):
    site = built[edition] / "site"
    worker = (site / WORKER).read_text(encoding="utf-8")
    assert re.search(r"^var EDITION = (.*);$", worker, re.M)[1] == json.dumps(edition)  # the cache's name has it
    precache = json.loads(re.search(r"^var PRECACHE = (.*);$", worker, re.M)[1])
    fallback = json.loads(re.search(r"^var FALLBACK = (.*);$", worker, re.M)[1])
    cached = {posixpath.normpath(posixpath.join("keep", path)) for path in precache}
    assert all((site / path).is_file() for path in cached)
    assert (site / "keep" / fallback / "index.html").is_file()
    for game in ("hearts", "euchre"):
        parser = _Loads()
        parser.feed((site / "keep" / game / "index.html").read_text(encoding="utf-8"))
        loads = {posixpath.normpath(posixpath.join("keep", game, src)) for src in parser.found}
        assert loads and loads <= cached, loads - cached
    assert "search/search_index.json" in cached  # the theme's search reads it as the page opens: an error offline

"""The book's service worker and web app manifest (generator/render/site/offline.py): the worker keeps every page of the
edition and what the pages load, no PDF, under a version that changes with any file it keeps.

The worker at work in a browser, offline, and the manifest as Chromium reads it, are tested in test_browser.py."""

from __future__ import annotations

import json
import posixpath
import re
from html.parser import HTMLParser

import pytest

from generator.render.site.offline import MANIFEST, WORKER, kept_page, page_loads, write_offline

CONFIG = '<script id="__config" type="application/json">{}</script>'
# Each case: a page at keep/hearts/index.html (its head and scripts) and the site's files it loads.
LOADS = {
    "stylesheet and icon": ('<link rel="stylesheet" href="../../assets/a.css"><link rel="icon" href="../../i.png">',
                            {"assets/a.css", "i.png"}),
    "script": ('<script src="../../assets/keeper.js"></script>', {"assets/keeper.js"}),
    "not loaded as the page opens": ('<link rel="canonical" href="../../x/"><a href="../../y.css">y</a>', set()),
    "another site's": ('<script src="https://cdn.example/x.js"></script><link rel="stylesheet" href="//f.example/a.css">',
                       set()),
    "the manifest and the home screen's icon": ('<link rel="manifest" href="../../manifest.webmanifest">'
                                                '<link rel="apple-touch-icon" href="../../assets/icons/icon-192.png">',
                                                {"manifest.webmanifest", "assets/icons/icon-192.png"}),
    "from the server's root (the 404 page's)": ('<script src="/assets/keeper.js"></script>', set()),
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
        if tag == "link" and attrs.get("rel") in ("stylesheet", "icon", "manifest", "apple-touch-icon"):
            self.found.add(attrs["href"])


def _worker(site) -> dict:
    """The worker's edition, version, what it keeps and its page for what it never kept, as it states them."""
    worker = (site / WORKER).read_text(encoding="utf-8")
    return {name: json.loads(re.search(rf"^var {name} = (.*);$", worker, re.M)[1])
            for name in ("EDITION", "VERSION", "PRECACHE", "FALLBACK")}


def _address(rel: str) -> str:
    return "./" if rel == "index.html" else rel.removesuffix("index.html")


@pytest.mark.parametrize("edition", ["2026.1", "2026.2"])
def test_the_worker_keeps_every_page_and_what_it_loads(built, edition):
    site = built[edition] / "site"
    worker = _worker(site)
    assert worker["EDITION"] == edition  # the cache's name has it
    kept = set(worker["PRECACHE"])
    assert len(kept) == len(worker["PRECACHE"])  # a request twice would make the worker fail to install
    assert all((site / (path + "index.html" if path.endswith("/") else path)).is_file() for path in kept)
    assert worker["FALLBACK"] in kept and (site / worker["FALLBACK"] / "index.html").is_file()
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert {_address(rel) for rel in pages if rel != "404.html"} <= kept  # every page of the edition
    loads = set()
    for rel in pages:
        parser = _Loads()
        parser.feed((site / rel).read_text(encoding="utf-8"))
        loads |= {posixpath.normpath(posixpath.join(posixpath.dirname(rel), src)) for src in parser.found
                  if not src.startswith("/")}
    assert loads and loads <= kept, loads - kept
    assert "search/search_index.json" in kept  # the theme's search reads it as the page opens: an error offline
    assert MANIFEST in kept
    assert not [path for path in kept if path.startswith("downloads/")], "a PDF is kept only once it is opened"


def test_a_corrected_edition_is_another_version(built, tmp_path):
    """The worker's version is a digest of everything it keeps: a corrected page makes another (the device keeps the
    new edition and removes the old copy); a file it does not keep (a PDF) does not."""
    import shutil

    site = shutil.copytree(built["2026.2"] / "site", tmp_path / "site")
    pages = [p.relative_to(site).as_posix() for p in site.rglob("*.html")]
    loads = set().union(*(page_loads(rel, (site / rel).read_text(encoding="utf-8")) for rel in pages))
    manifest = json.loads((site / MANIFEST).read_text(encoding="utf-8"))

    def version() -> str:
        write_offline(site, "2026.2", manifest["name"], pages, loads, manifest.get("description"),
                      manifest["theme_color"])
        return _worker(site)["VERSION"]

    first = version()
    assert version() == first == _worker(built["2026.2"] / "site")["VERSION"]  # the same files, the same version
    (site / "downloads").mkdir(exist_ok=True)
    (site / "downloads" / "corrected.pdf").write_bytes(b"%PDF-1.7")
    assert version() == first
    hearts = site / "games" / "hearts" / "index.html"
    hearts.write_text(hearts.read_text(encoding="utf-8").replace("Hearts", "Hearts, corrected", 1), encoding="utf-8")
    assert version() != first
    assert not kept_page("404.html") and kept_page("games/hearts/index.html")


def test_the_manifest_opens_the_edition(built):
    """What a phone installs: the edition's name as its pages give it, at the edition's home page, in the book's
    green (the site's stylesheet's), with icons of the sizes it states."""
    from PIL import Image

    site = built["2026.2"] / "site"
    manifest = json.loads((site / MANIFEST).read_text(encoding="utf-8"))
    home = (site / "index.html").read_text(encoding="utf-8")
    assert re.search(r"<title>(.*?)</title>", home)[1].endswith(manifest["name"])
    assert manifest["start_url"] == manifest["scope"] == "./" and manifest["display"] == "standalone"
    css = (site / "assets" / "rulebook.css").read_text(encoding="utf-8")
    assert f"--md-primary-fg-color: {manifest['theme_color']};" in css
    sizes = set()
    for entry in manifest["icons"]:
        with Image.open(site / entry["src"]) as picture:
            assert f"{picture.width}x{picture.height}" == entry["sizes"] and picture.format == "PNG"
        sizes.add(entry["sizes"])
    assert {"192x192", "512x512"} <= sizes

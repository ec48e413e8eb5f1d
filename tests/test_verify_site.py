"""The built-site check finds every broken link and anchor, and passes links that resolve (one small site per case)."""

from __future__ import annotations

import pytest

from generator.render.verify import verify_site

PAGE = '<html><body><article class="md-content__inner">{}</article></body></html>'
# Each case: the site's pages (path -> content) and the problem expected, or None for a clean site.
CASES = {
    "file link": ({"index.html": '<a href="games/euchre/">E</a>', "games/euchre/index.html": "x"}, None),
    "anchor on another page": ({"index.html": '<a href="a.html#deal">D</a>', "a.html": '<h2 id="deal">D</h2>'}, None),
    "anchor on the same page": ({"index.html": '<a href="#top">T</a><p id="top"></p>'}, None),
    "up and down again": ({"a/index.html": '<a href="../b/c.html">C</a>', "b/c.html": "x"}, None),
    "missing page": ({"index.html": '<a href="games/whist/">W</a>'}, "index.html:1: broken link games/whist/"),
    "missing file": ({"index.html": '<a href="nope.pdf">P</a>'}, "index.html:1: broken link nope.pdf"),
    "missing anchor": ({"index.html": '<a href="a.html#score">S</a>', "a.html": '<h2 id="deal">D</h2>'},
                       "index.html:1: broken anchor a.html#score"),
    "missing anchor, same page": ({"index.html": '<a href="#gone">G</a>'}, "index.html:1: broken anchor #gone"),
    "folder without an index": ({"index.html": '<a href="games/">G</a>', "games/x.html": "x"},
                                "index.html:1: broken link games/"),
    "outside the site": ({"a/index.html": '<a href="../../../etc/passwd">P</a>'},
                         "a/index.html:1: broken link ../../../etc/passwd"),
}


@pytest.mark.parametrize("case", CASES)
def test_links(tmp_path, case):
    pages, expected = CASES[case]
    site = tmp_path / "site"
    for rel, body in pages.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(PAGE.format(body), encoding="utf-8")
    assert verify_site(site) == ([expected] if expected else [])

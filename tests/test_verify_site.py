"""The built-site check finds every broken link and anchor and every piece of active content in a page, and passes
what is sound (one small site per case)."""

from __future__ import annotations

import pytest

from generator.errors import problem_line
from generator.render.site.verify import verify_site as verified


def verify_site(*args, **kwargs) -> list[str]:
    """The problems the site check finds, each as every command prints one."""
    return [problem_line(p) for p in verified(*args, **kwargs)]

PAGE = '<html><body><article class="md-content__inner">{}</article></body></html>'
# Each case: the site's pages (path -> content) and the problem expected, or None for a clean site.
CASES = {
    "file link": ({"index.html": '<a href="games/euchre/">E</a>', "games/euchre/index.html": "x"}, None),
    "anchor on another page": ({"index.html": '<a href="a.html#deal">D</a>', "a.html": '<h2 id="deal">D</h2>'}, None),
    "anchor on the same page": ({"index.html": '<a href="#top">T</a><p id="top"></p>'}, None),
    "up and down again": ({"a/index.html": '<a href="../b/c.html">C</a>', "b/c.html": "x"}, None),
    "missing page": ({"index.html": '<a href="games/whist/">W</a>'}, "index.html:1: site.broken_link: broken link games/whist/"),
    "missing file": ({"index.html": '<a href="nope.pdf">P</a>'}, "index.html:1: site.broken_link: broken link nope.pdf"),
    "missing anchor": ({"index.html": '<a href="a.html#score">S</a>', "a.html": '<h2 id="deal">D</h2>'},
                       "index.html:1: site.broken_anchor: broken anchor a.html#score"),
    "missing anchor, same page": ({"index.html": '<a href="#gone">G</a>'}, "index.html:1: site.broken_anchor: broken anchor #gone"),
    "folder without an index": ({"index.html": '<a href="games/">G</a>', "games/x.html": "x"},
                                "index.html:1: site.broken_link: broken link games/"),
    "outside the site": ({"a/index.html": '<a href="../../../etc/passwd">P</a>'},
                         "a/index.html:1: site.broken_link: broken link ../../../etc/passwd"),
    "link on a later line": ({"index.html": '<p>\n\n<a\nhref="nope.html">N</a></p>'}, "index.html:3: site.broken_link: broken link nope.html"),
    "anchor by name": ({"index.html": '<a href="#old">O</a><a name="old"></a>'}, None),
    "escaped link": ({"index.html": '<a href="a.html?x=1&amp;y=2#d">A</a>', "a.html": '<p id="d"></p>'}, None),
    "id given twice": ({"index.html": '<h2 id="rounds">R</h2>\n<table id="rounds"></table>'},
                       "index.html:2: site.id_twice: id 'rounds' is given twice"),
    "anchor named as an id": ({"index.html": '<p id="x"></p><a name="x"></a>'}, "index.html:1: site.id_twice: id 'x' is given twice"),
    "id in capitals": ({"index.html": '<p ID="x"></p><p class="y" Id="x"></p>'}, "index.html:1: site.id_twice: id 'x' is given twice"),
    "link in capitals": ({"index.html": '<A class="nav" HREF="nope.html">N</A>'}, "index.html:1: site.broken_link: broken link nope.html"),
}
# Active content in a page's own content (the theme's frame is outside <article class="md-content__inner">).
UNSAFE = {
    "script": ("<script>alert(1)</script>", "<script> in page content"),
    "script, upper case": ("<SCRIPT>alert(1)</SCRIPT>", "<script> in page content"),
    "frame": ('<iframe src="x.html"></iframe>', "<iframe> in page content"),
    "style": ("<style>p { color: red }</style>", "<style> in page content"),
    "handler": ('<p onclick="alert(1)">x</p>', "event handler onclick on <p> in page content"),
    "handler, no quotes": ("<img src=a.png onerror=alert(1)>", "event handler onerror on <img> in page content"),
    "javascript URL": ('<a href="javascript:alert(1)">x</a>', "unsafe URL in <a href>: javascript:alert(1)"),
    "data URL, spaced": ('<a href=" data:text/html,x">x</a>', "unsafe URL in <a href>"),
    "remote image": ('<img src="https://tracker.example/p.png">', "remote image https://tracker.example/p.png"),
    "svg object": ('<object data="x.svg"></object>', "<object> in page content"),
    "frame, no attributes": ("<iframe></iframe>", "<iframe> in page content"),
    "embed, a class only": ('<embed class="x">', "<embed> in page content"),
    "nested": ("<div><p><span><script>1</script></span></p></div>", "<script> in page content"),
}
# Where the same words are not active: text, the theme's own frame, a title or textarea's words.
SAFE = {
    "words": "<p>&lt;script&gt;alert(1)&lt;/script&gt; onclick=</p>",
    "title words": "<title><script>alert(1)</script></title><p>x</p>",
    "textarea words": "<textarea><script>alert(1)</script></textarea>",
    "comment": "<!-- <script>alert(1)</script> --><p>x</p>",
    "inline svg": '<svg viewBox="0 0 24 24"><path d="M1 1"></path></svg>',
}


def _site(tmp_path, pages: dict[str, str], frame: str = PAGE):
    site = tmp_path / "site"
    for rel, body in pages.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(frame.format(body), encoding="utf-8")
    return site


@pytest.mark.parametrize("case", UNSAFE)
def test_active_content_in_a_page_is_found(tmp_path, case):
    content, problem = UNSAFE[case]
    found = verify_site(_site(tmp_path, {"index.html": content}))
    assert any(problem in p for p in found), found


@pytest.mark.parametrize("case", SAFE)
def test_words_that_only_look_active_pass(tmp_path, case):
    assert verify_site(_site(tmp_path, {"index.html": SAFE[case]})) == []


THEME = ('<html><head><title>T</title><script src="assets/javascripts/bundle.js"></script>'
         '<script id="__config" type="application/json">{{"base": "."}}</script>'
         '<script>__md_scope=new URL(".",location)</script></head>'
         '<body><article class="md-content__inner">{}</article></body></html>')


SHIPPED = frozenset({"assets/javascripts/bundle.js", "assets/keeper.js"})  # what this small site ships


@pytest.mark.parametrize(("frame", "page", "problem"), [
    (THEME, "index.html", None),
    (THEME.replace("assets/javascripts/bundle.js", "../assets/keeper.js"), "keep/index.html", None),
    (THEME.replace("assets/javascripts/bundle.js", "/assets/keeper.js"), "keep/index.html", None),  # the 404 page's
    (THEME.replace("__md_scope=", "steal()//"), "index.html", "inline script that is not the theme's: steal()"),
    (THEME.replace("assets/javascripts/bundle.js", "https://cdn.example/x.js"), "index.html",
     "script from outside the site's assets"),
    (THEME.replace("assets/javascripts/bundle.js", "assets/evil.js"), "index.html",
     "index.html:1: site.unshipped_script: script that is not one the site ships: assets/evil.js"),
    (THEME.replace("assets/javascripts/bundle.js", "x/assets/keeper.js"), "index.html",
     "script that is not one the site ships: x/assets/keeper.js"),  # the name, elsewhere: not the project's file
    (THEME.replace("assets/javascripts/bundle.js", "assets/keeper.js"), "keep/index.html",
     "keep/index.html:1: site.unshipped_script: script that is not one the site ships"),  # resolved from the page's own folder
    (THEME.replace('{{"base": "."}}', '{{"base": "<b>"}}'), "index.html", "markup inside the theme's configuration"),
])
def test_the_theme_frame_may_hold_only_the_scripts_the_site_ships(tmp_path, frame, page, problem):
    found = verify_site(_site(tmp_path, {page: "<p>x</p>"}, frame), scripts=SHIPPED)
    assert (any(problem in p for p in found) if problem else found == []), found


def test_the_scripts_the_site_ships_are_the_projects_and_the_themes(root):
    """mkdocs.yml's own scripts and the theme's bundle, found from the config; nothing else."""
    from mkdocs.config import load_config

    from generator.render.site.verify import shipped_scripts

    config = load_config(config_file=str(root / "mkdocs.yml"))
    shipped = shipped_scripts(config)
    from generator.render.site.plugin import EDITIONS_SCRIPT

    own = {p.relative_to(root / "templates" / "site").as_posix() for p in (root / "templates/site/assets").glob("*.js")}
    # Every one listed, but the script that joins the editions mike deploys: the plugin adds it to those builds only
    # (tests/test_release.py: a plain build has none, each deployed version has it).
    listed = {str(getattr(js, "path", js)) for js in config["extra_javascript"]}
    assert own == listed | {EDITIONS_SCRIPT} and EDITIONS_SCRIPT not in listed
    shipped |= {EDITIONS_SCRIPT}
    assert own <= shipped and any(s.startswith("assets/javascripts/bundle.") for s in shipped)
    assert {s for s in shipped if s not in own} == {s for s in shipped if s.startswith("assets/javascripts/")}


def test_the_built_site_loads_only_the_scripts_it_ships(built, root):
    from mkdocs.config import load_config

    from generator.render.site.verify import shipped_scripts
    from tests.conftest import CURRENT

    config = load_config(config_file=str(root / "mkdocs.yml"))
    site = built[CURRENT] / "site"
    assert verify_site(site, scripts=shipped_scripts(config)) == []
    assert verify_site(site) != []  # it does load scripts, each checked against the list


# Script files: those the site ships (the theme's and the project's) and the book's service worker, none other.
SHIPS = frozenset({"assets/keeper.js", "assets/javascripts/bundle.js"})
SCRIPT_FILES = [
    ({"assets/keeper.js": "", "assets/javascripts/bundle.js": "", "sw.js": ""}, []),
    ({"keep/sw.js": ""}, ["keep/sw.js: site.unshipped_file: script file that the site does not ship"]),
    ({"assets/evil.js": ""}, ["assets/evil.js: site.unshipped_file: script file that the site does not ship"]),
    ({"games/sw.js": "", "downloads/x.mjs": ""}, ["downloads/x.mjs: site.unshipped_file: script file", "games/sw.js: site.unshipped_file: script file"]),
]


@pytest.mark.parametrize(("files", "problems"), SCRIPT_FILES, ids=["shipped", "another worker", "in assets", "elsewhere"])
def test_script_files_are_those_shipped_and_the_books_worker(tmp_path, files, problems):
    site = _site(tmp_path, {"index.html": "<p>x</p>"})
    for rel, text in files.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text, encoding="utf-8")
    found = verify_site(site, scripts=SHIPS)
    assert len(found) == len(problems) and all(p.startswith(q) for p, q in zip(found, problems, strict=True)), found


# The theme's frame (navigation, header) is outside the content: links and ids are checked there too.
NAVIGATION = '<html><body><nav class="md-nav">{}</nav><article class="md-content__inner"></article></body></html>'


@pytest.mark.parametrize("frame", [PAGE, NAVIGATION], ids=["content", "navigation"])
@pytest.mark.parametrize("case", CASES)
def test_links(tmp_path, case, frame):
    pages, expected = CASES[case]
    assert verify_site(_site(tmp_path, pages, frame)) == ([expected] if expected else [])


# --- the check as a build runs it: a second process told of each page once it is written -------------


@pytest.mark.parametrize("told", ["every page", "no page", "half the pages"])
@pytest.mark.parametrize("case", ["missing anchor", "id given twice", "up and down again", "missing page"])
def test_the_check_beside_the_build_finds_what_the_whole_check_finds(tmp_path, case, told):
    from generator.render.site.verify import SiteCheck

    pages, expected = CASES[case]
    site = _site(tmp_path, {**pages, "b.html": "<script>steal()</script>"})
    check = SiteCheck(site)
    names = sorted(pages) + ["b.html"]
    for rel in {"every page": names, "no page": [], "half the pages": names[::2]}[told]:
        check.written(rel)
    found = check.problems()
    assert found == verified(site)
    found = [problem_line(p) for p in found]
    assert "b.html:1: site.active_content: <script> in page content" in found and (expected in found if expected else True)


def test_a_check_that_cannot_read_a_page_stops_the_build_with_the_reason(tmp_path):
    from generator.errors import BuildError
    from generator.render.site.verify import SiteCheck

    site = _site(tmp_path, {"index.html": "<p>x</p>"})
    (site / "bad.html").write_bytes(b"\xff\xfe not text")
    check = SiteCheck(site)
    check.written("bad.html")
    # The page is read through the door (issue 51): it names the page and the byte.
    with pytest.raises(BuildError, match=r"the site check stopped before it finished: .*bad\.html:1:1: not UTF-8 text"):
        check.problems()


def test_a_stopped_check_leaves_no_process(tmp_path):
    from generator.render.site.verify import SiteCheck

    check = SiteCheck(_site(tmp_path, {"index.html": "<p>x</p>"}))
    check.stop()
    assert check.process.poll() is not None


def test_the_plugin_tells_the_check_of_each_page_and_refuses_a_broken_site(tmp_path):
    """Driven as MkDocs drives it: each page is announced as the next begins, the last at the end."""
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    from generator.render.site.plugin import RulebookPlugin

    site = tmp_path / "site"
    pages = {"index.html": '<a href="a/">A</a>', "a/index.html": '<a href="../index.html#gone">G</a>'}
    plugin = RulebookPlugin()
    config = {"site_dir": str(site), "docs_dir": str(tmp_path / "docs"), "use_directory_urls": True,
              "extra_javascript": [], "theme": SimpleNamespace(dirs=[]), "site_name": "A book"}
    plugin.on_files([], config)  # the pages are listed (here, written below): the check starts
    for rel, body in pages.items():
        page = SimpleNamespace(file=SimpleNamespace(dest_uri=rel))
        plugin.on_post_page("", page, config)
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(PAGE.format(body), encoding="utf-8")
    with pytest.raises(PluginError, match=r"a/index.html:1: site.broken_anchor: broken anchor ../index.html#gone"):
        plugin.on_post_build(config)
    assert plugin.check is None and plugin.verified is None


def test_a_check_that_died_is_reported_not_a_broken_pipe(tmp_path):
    from generator.errors import BuildError
    from generator.render.site.verify import SiteCheck

    check = SiteCheck(_site(tmp_path, {"index.html": "<p>x</p>"}))
    check.process.kill()
    check.process.wait()
    check.written("index.html")  # told after it died: no error here
    with pytest.raises(BuildError, match="the site check stopped before it finished"):
        check.problems()

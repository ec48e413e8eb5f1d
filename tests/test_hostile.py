"""Hostile and broken input: nothing gets through, nothing leaks, nothing half-written is published.

One copy of the project (a small one: Hearts and Dice 10,000, tests/conftest.py ``small_project``) is
loaded with every payload below (in prose and in YAML strings), then built whole, site and PDF, while a server on 127.0.0.1 counts requests and a canary file sits
outside the project. Each payload is counted for the summary `make test` prints.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.server
import os
import random
import subprocess
import sys
import threading
import tracemalloc
from html.parser import HTMLParser
from pathlib import Path

import pypdf
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.book.library import load_library
from generator.book.loader import parse_yaml
from generator.checks import run_checks
from generator.commands.build import build
from generator.errors import BuildError, EngineErrors, RulebookError
from generator.render.pdf.book import book_html
from tests import hostile
from tests.checkfix import make_project
from tests.conftest import ROOT, as_published, copy_project, sharing_pdfs, small_project
from tests.test_faults import render_processes

CANARY = "CANARY-7f3a9c51-do-not-publish"
MARKDOWN = [
    "<script>alert('md')</script>",
    '<img src="http://{host}/img.png" onerror="alert(1)">',
    "[js](javascript:alert(1))",
    "[js2](JaVaScRiPt:alert(2))",
    "[js3](  javascript:alert(3))",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    '<a href="vbscript:msgbox(1)">vb</a>',
    '<iframe src="http://{host}/frame"></iframe>',
    "<svg><script>alert(4)</script></svg>",
    "<style>@import url(http://{host}/x.css);</style>",
    "<style>@page {{ size: 100000in }}</style>",
    '<div style="font-size: 1e9px; background: url(http://{host}/bg.png)">big</div>',
    "![pixel](http://{host}/pixel.png)",
    "![canary](file://{canary})",
    '<link rel="attachment" href="file://{canary}">',
    "[attachment](file://{canary})",
    '--8<-- "{canary}"',
    '<object data="http://{host}/obj"></object>',
    '<form action="javascript:alert(5)"><button>go</button></form>',
    "{{{{ config }}}} {{% include '/etc/passwd' %}}",
]
YAML_STRINGS = {
    "title": 'Hearts <script>alert("title")</script>',
    "label": "<img src=x onerror=alert(6)>",
    "rule": "[rule](javascript:alert(7)) {{ 7*7 }}",
}


class _Counter(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802 - the http.server API
        self.hits.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"x")

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def trap():
    """A server on 127.0.0.1 that records every request it gets."""
    _Counter.hits = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counter)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"127.0.0.1:{server.server_address[1]}", _Counter.hits
    server.shutdown()


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory, trap):
    host, hits = trap
    base = tmp_path_factory.mktemp("hostile")
    (base / "outside").mkdir()
    canary = base / "outside" / "canary.txt"
    canary.write_text(CANARY, encoding="utf-8")
    project = small_project(base / "project", ("hearts", "dice-10000"))
    payloads = [p.format(host=host, canary=canary) for p in MARKDOWN]
    prose = project / "content" / "hearts.md"
    prose.write_text(prose.read_text(encoding="utf-8") + "\n## Hostile\n\n" + "\n\n".join(payloads) + "\n",
                     encoding="utf-8")
    data = project / "rules_data" / "hearts.yaml"
    text = data.read_text(encoding="utf-8").replace("title: Hearts", f"title: '{YAML_STRINGS['title']}'", 1)
    text += ("alternate_rules:\n  rules:\n"
             f"    - text: \"{YAML_STRINGS['rule']}\"\n")
    doc = yaml.safe_load(text)
    first_table = next(iter(doc["scoring"]))
    text = text.replace(f"label: {doc['scoring'][first_table]['items'][0]['label']}",
                        f"label: \"{YAML_STRINGS['label']}\"", 1)
    data.write_text(text, encoding="utf-8")
    as_published(project)  # past the frozen-edition check (which refuses the edit): this tests the renderers
    # The validator refuses the template payloads ('{{ config }}' is doubled braces: reference.unknown), the images,
    # the data: URL longer than a line and the title's word wider than a page head (prose.image, prose.long_word,
    # title.breaks_heading), the links to no page or with another scheme (link.broken), the first line of defence (test_the_validator_refuses_template_payloads). `make serve`
    # renders whatever the files say, errors and all, so the renderers must be safe on their own: this build skips
    # that refusal.
    refused = [f for f in run_checks(load_library(project)) if f.severity == "error"]
    assert any(f.message.startswith("doubled braces") for f in refused), refused
    assert {f.check for f in refused} <= {"reference.unknown", "prose.image", "prose.long_word",
                                          "title.breaks_heading", "link.broken", "prose.dropped"}, refused
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("generator.commands.build.run_checks", lambda lib: [f for f in run_checks(lib) if f not in refused])
        out = build(project, out=base / "out")
    hostile.tried("markup (prose)", len(MARKDOWN))
    hostile.tried("markup (YAML strings)", len(YAML_STRINGS))
    return {"project": project, "out": out, "hits": hits, "canary": canary}


def test_the_validator_refuses_template_payloads(hostile_build):
    """Before any renderer sees them, `rulebook validate` names the template syntax in the prose at its line."""
    found = [f for f in run_checks(load_library(hostile_build["project"])) if f.severity == "error"]
    assert any(f.path == "content/hearts.md" and "doubled braces" in f.message for f in found)


class _Scan(HTMLParser):
    """Finds active content: scripts with payload code, handlers, unsafe URLs, embedded frames."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.in_script = False
        self.in_title = False  # <title> is text only in a browser (RCDATA)

    def handle_starttag(self, tag, attrs):
        if self.in_title:
            return
        if tag == "title":
            self.in_title = True
            return
        if tag in ("iframe", "object", "embed", "frame"):
            self.problems.append(f"<{tag}>")
        if tag == "style":
            self.problems.append("<style>")
        if tag == "link" and dict(attrs).get("rel") == "attachment":
            self.problems.append("attachment link")
        for key, value in attrs:
            if key.startswith("on"):
                self.problems.append(f"{key} on <{tag}>")
            if value and key in ("href", "src", "action", "data", "style") and any(
                    s in value.lower().replace(" ", "") for s in ("javascript:", "data:text", "vbscript:", "file:",
                                                                   "1e9px", "127.0.0.1")):
                self.problems.append(f"{key}={value[:50]} on <{tag}>")
        self.in_script = tag == "script"

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        self.in_script = False

    def handle_data(self, data):
        if self.in_script and "alert(" in data:
            self.problems.append("payload inside <script>")


def scan(html: str) -> list[str]:
    parser = _Scan()
    parser.feed(html)
    return parser.problems


def test_no_payload_reaches_the_published_html(hostile_build):
    site = hostile_build["out"] / "site"
    problems = {}
    for page in site.rglob("*.html"):
        found = scan(page.read_text(encoding="utf-8"))
        # The theme's own <style>/<link> live in <head>; only content pages' problems count.
        found = [p for p in found if p != "<style>" or "games/" in page.as_posix()]
        if found:
            problems[page.relative_to(site).as_posix()] = found
    hearts = (site / "games" / "hearts" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;" in hearts  # the payload shows as text, harmlessly
    assert "{{ 7*7 }}" in hearts and "{{ config }}" in hearts  # contributor text is never a template
    # The score keeper's page carries the game's words only as escaped text; its one script is the site's asset.
    keeper = (site / "keep" / "hearts" / "index.html").read_text(encoding="utf-8")
    assert "Keep score: Hearts &lt;script&gt;alert(" in keeper
    assert 'src="../../assets/keeper.js"' in keeper
    # The book's service worker is the build's own script, and no word of the data reaches it.
    assert "alert(" not in (site / "sw.js").read_text(encoding="utf-8")
    if problems:
        hostile.through("markup (prose)")
    assert problems == {}


def test_no_payload_reaches_the_html_sent_to_weasyprint(hostile_build):
    html = book_html(load_library(hostile_build["project"]))
    problems = [p for p in scan(html) if p != "<style>"]
    assert "<style" not in html.split("<body", 1)[1]
    assert problems == []


def test_nothing_outside_the_project_is_read_or_fetched(hostile_build):
    out = hostile_build["out"]
    for path in out.rglob("*"):
        if path.is_file():
            assert CANARY.encode() not in path.read_bytes(), path
    book = next((out / "pdf").glob("*.pdf"))
    reader = pypdf.PdfReader(book)
    assert reader.attachments == {}
    assert hostile_build["hits"] == [], "the build made requests"
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)  # no 100000in page
    hostile.tried("file and network access", 8)


def test_the_fetcher_refuses_what_is_not_a_print_asset(tmp_path, trap):
    from generator.render.pdf.fetcher import ProjectFetcher, RefusedResource

    host, hits = trap
    outside = tmp_path / "secret.txt"
    outside.write_text(CANARY, encoding="utf-8")
    fetcher = ProjectFetcher()
    urls = [f"http://{host}/x.css", f"https://{host}/y.png", f"file://{outside}", "file:///etc/passwd",
            f"file://{fetcher.root}/../../../etc/passwd", "data:text/css,body{}", "ftp://example.org/x",
            f"file://{fetcher.root}/missing.css"]
    for url in urls:
        with pytest.raises(RefusedResource):
            fetcher.fetch(url)
    assert fetcher.fetch(f"file://{fetcher.root}/print.css").read().startswith(b"/*")
    assert hits == []
    hostile.tried("file and network access", len(urls))


def test_a_refused_resource_fails_the_render_clearly():
    from generator.render.pdf.fetcher import RefusedResource
    from generator.render.pdf.weasy import document

    with pytest.raises(RefusedResource, match="refused"):
        document('<html><body><img src="http://127.0.0.1:9/x.png"></body></html>', "letter")
    hostile.tried("file and network access")


def test_non_utf8_and_oversized_files_are_refused(tmp_path):
    from generator.book.loader import MAX_FILE_BYTES, read_yaml

    for name, raw, problem in (("latin.yaml", b"title: caf\xe9\n", "not UTF-8"),
                               ("utf16.yaml", "title: x\n".encode("utf-16"), "not UTF-8"),
                               ("huge.yaml", b"a: 1\n" * (MAX_FILE_BYTES // 4), "limit")):
        path = tmp_path / name
        path.write_bytes(raw)
        with pytest.raises(RulebookError, match=problem):
            read_yaml(path, name)
        hostile.tried("YAML")


def test_relative_paths_out_of_the_project_are_refused(tmp_path):
    project = copy_project(tmp_path / "project")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "canary.txt").write_text(CANARY, encoding="utf-8")
    prose = project / "content" / "sweep.md"
    # (An image, ![x](../../outside/canary.txt), is refused before: prose.image, tests/test_bad_input.py.)
    prose.write_text(prose.read_text(encoding="utf-8") + "\n[x](../../outside/canary.txt)\n\n[y](../../../etc/passwd)\n",
                     encoding="utf-8")
    as_published(project)  # past the frozen-edition check: this tests the site build's own refusal
    # Validate refuses both first (link.broken, issue 51): one line each, at its line.
    refused = [f for f in run_checks(load_library(project)) if f.check == "link.broken"]
    assert [(f.path, "leads out of the book" in f.message) for f in refused] == [("content/sweep.md", True)] * 2
    with pytest.MonkeyPatch.context() as patch:  # and past it, the site's build refuses them on its own
        patch.setattr("generator.commands.build.run_checks",
                      lambda lib: [f for f in run_checks(lib) if f.check != "link.broken"])
        with pytest.raises(EngineErrors, match="content/sweep.md:37: MkDocs: .* a link '../../outside/canary.txt'"):
            build(project, out=tmp_path / "out", pdf=False)
    leftovers = [p for p in (tmp_path / "out").rglob("*") if p.is_file() and p.name != ".rulebook-build"
                 ] if (tmp_path / "out").exists() else []  # (the mark of the folder as a build's: not output)
    assert leftovers == []
    hostile.tried("file and network access", 2)


@pytest.mark.parametrize("text,problem", [
    ("> " * 50 + "deep", "nested"),
    (" " * 200 + "- deep", "nested"),
    ("x" * 20_000, "characters"),
])
def test_hostile_layout_in_prose_is_refused(tmp_path, text, problem):
    project = copy_project(tmp_path)
    (project / "content" / "sweep.md").write_text("## Play\n\n" + text + "\n", encoding="utf-8")
    with pytest.raises(RulebookError, match=problem) as info:
        load_library(project)
    assert "content/sweep.md:3:" in str(info.value)
    hostile.tried("layout")


def _digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def good_build(tmp_path_factory):
    """A small project built once (one game, site, PDF and score sheet: what a failure could leave half-written, at a
    fraction of the Metzker book's build): the 'previous good output' the failures below must not touch."""
    project = small_project(tmp_path_factory.mktemp("atomic") / "project", ("canadian-salad",))
    with sharing_pdfs(tmp_path_factory, book_as_it_is=False):
        out = build(project, out=project / "build")
    return project, out, _digest(out)


def _no_staging_left(out: Path) -> None:
    assert not [p for p in out.iterdir() if p.name.startswith((".staging", ".old"))]


def test_validation_error_leaves_the_last_build(good_build):
    project, out, before = good_build
    path = project / "rules_data" / "canadian-salad.yaml"
    original = path.read_text(encoding="utf-8")
    path.write_text(original.replace("stated_total: 130", "stated_total: 125", 1), encoding="utf-8")
    try:
        with pytest.raises(BuildError, match="scoring.total_mismatch"):
            build(project, out=out)
    finally:
        path.write_text(original, encoding="utf-8")
    assert _digest(out) == before
    _no_staging_left(out)
    hostile.tried("failed builds")


def test_broken_link_leaves_the_last_build(good_build):
    project, out, before = good_build
    path = project / "content" / "canadian-salad.md"
    original = path.read_text(encoding="utf-8")
    path.write_text(original + "\n[a page that is not there](no-such-page.md#nowhere)\n", encoding="utf-8")
    try:
        with pytest.raises(BuildError):
            build(project, out=out, pdf=False)
    finally:
        path.write_text(original, encoding="utf-8")
    assert _digest(out) == before
    _no_staging_left(out)
    hostile.tried("failed builds")


def test_refused_resource_leaves_the_last_build(good_build, monkeypatch):
    from generator.commands import build as build_module
    from generator.render.pdf.fetcher import RefusedResource

    project, out, before = good_build

    def refuse(*args, **kwargs):
        raise RefusedResource("refused to fetch 'http://127.0.0.1/x.png'")

    monkeypatch.setattr(build_module, "render_pdfs", refuse)
    with pytest.raises(BuildError, match="refused"):
        build(project, out=out)
    assert _digest(out) == before
    _no_staging_left(out)
    hostile.tried("failed builds")


# A memory ceiling is also given a time limit: a render that hung short of memory (as a process pool's did at
# 100 MB) fails the test with the time limit's message instead of holding the suite up.
@pytest.mark.parametrize("env,message", [({"RULEBOOK_PDF_TIMEOUT": "0.5"}, "longer than"),
                                         ({"RULEBOOK_PDF_MEMORY_MB": "100", "RULEBOOK_PDF_TIMEOUT": "120"},
                                          "more than 100 MB"),
                                         ({"RULEBOOK_PDF_MEMORY_MB": "150", "RULEBOOK_PDF_TIMEOUT": "120"},
                                          "more than 150 MB")])
def test_a_runaway_pdf_render_is_stopped_and_leaves_the_last_build(good_build, monkeypatch, env, message):
    project, out, before = good_build
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(BuildError, match=message):
        build(project, out=out)
    assert _digest(out) == before
    _no_staging_left(out)
    assert render_processes(os.getpid()) == []
    hostile.tried("failed builds")


def test_a_stopped_render_takes_the_processes_it_forked_with_it(tmp_path, monkeypatch):
    """The render forks a process for the sheets; stopped at its time limit, neither may be left running (a
    stand-in worker that forks at once and sleeps, so that the stop comes after the fork on any machine)."""
    from generator.render.pdf import worker

    monkeypatch.setattr(worker, "WORKER", "tests.sleepy_worker")
    monkeypatch.setenv("RULEBOOK_PDF_TIMEOUT", "1")
    monkeypatch.delenv("RULEBOOK_PDF_CACHE", raising=False)
    started = []
    monkeypatch.setattr(worker.process, "_stop_group", lambda pid, stop=worker.process._stop_group: (
        started.extend(render_processes(os.getpid(), wait=False)), stop(pid)))
    with pytest.raises(BuildError, match="longer than 1 s"):
        worker.render_pdfs(load_library(ROOT), tmp_path / "pdf")
    assert [p.split()[1:3] for p in started] == [["-m", "tests.sleepy_worker"]] * 2  # the two it stopped
    assert render_processes(os.getpid()) == []


def test_a_failed_publish_leaves_gh_pages_unchanged(tmp_path):
    from generator.commands.publish import publish

    repo = copy_project(tmp_path)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "book"], check=True)
    subprocess.run(git + ["branch", "gh-pages"], check=True)
    before = subprocess.run(git + ["rev-parse", "gh-pages"], capture_output=True, text=True, check=True).stdout
    (repo / "rules_data" / "euchre.yaml").write_text("id: euchre\nid: twice\n", encoding="utf-8")
    with pytest.raises(RulebookError):
        publish(repo, allow_dirty=True)  # the slip itself refuses it, not only its being uncommitted
    after = subprocess.run(git + ["rev-parse", "gh-pages"], capture_output=True, text=True, check=True).stdout
    assert before == after
    hostile.tried("failed builds")


def test_site_is_identical_across_folders_time_zones_and_hash_seeds(tmp_path):
    digests = []
    for i, (tz, seed) in enumerate((("UTC", "0"), ("Asia/Kolkata", "424242"))):
        project = copy_project(tmp_path / f"p{i}")
        env = dict(os.environ, TZ=tz, PYTHONHASHSEED=seed)
        subprocess.run([sys.executable, "-m", "generator", "--root", str(project), "build", "--site-only",
                        "--out", str(tmp_path / f"out{i}")], env=env, check=True, capture_output=True)
        digests.append(_digest(tmp_path / f"out{i}" / "site"))
    assert digests[0] == digests[1]


def test_alias_bomb_is_bounded_in_time_and_memory():
    bomb = "a: &a ['lol','lol','lol','lol','lol','lol','lol','lol','lol']\n" + "".join(
        f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True))
    tracemalloc.start()
    with pytest.raises(RulebookError):
        parse_yaml(bomb, "bomb.yaml")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 20 * 1024 * 1024
    hostile.tried("YAML")


YAML_ATTACKS = [
    "x: !!python/object/apply:os.system ['touch /tmp/pwned']\n",
    "x: !!python/name:os.system\n",
    "x: !!binary aGVsbG8=\n",
    "a: 1\nb:\n  c: 1\n  c: 2\n",
    "flag: no\n", "n: 013\n", "t: 1:30\n", "e: 2026.10\n", "d: 2026-01-01\n",
    "a:\n\tb: 1\n", 'a: "open\n',
]


@pytest.mark.parametrize("text", YAML_ATTACKS)
def test_yaml_attacks_are_refused(text):
    with pytest.raises(RulebookError):
        parse_yaml(text, "attack.yaml")
    assert not Path("/tmp/pwned").exists()
    hostile.tried("YAML")


GAME = (ROOT / "rules_data" / "hand-and-foot.yaml").read_text(encoding="utf-8")


def _mutate(text: str, rnd: random.Random, steps: int) -> str:
    lines = text.splitlines()
    for _ in range(steps):
        i = rnd.randrange(len(lines))
        op = rnd.randrange(6)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[rnd.randrange(len(lines))])
        elif op == 2:
            lines[i] = " " * rnd.randrange(8) + lines[i].lstrip()
        elif op == 3 and lines[i]:
            j = rnd.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + rnd.choice([":", "-", "{", "[", "'", '"', "&a", "*a", "!x", "#", "9"]) + lines[i][j:]
        elif op == 4:
            lines[i] = lines[i].replace(rnd.choice(["1", "2", "4", "a", "e"]), rnd.choice(["0", "-1", "x", "999"]))
        else:
            lines[i] = lines[i][: rnd.randrange(len(lines[i]) + 1)]
        if not lines:
            lines = ["id: x"]
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=5000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**32), steps=st.integers(min_value=1, max_value=6))
def test_mutated_game_files_raise_only_our_errors(tmp_path_factory, seed, steps):
    text = _mutate(GAME, random.Random(seed), steps)
    root = tmp_path_factory.mktemp("fuzz")
    try:
        game_id = yaml.safe_load(text).get("id", "hand-and-foot")
    except Exception:
        game_id = "hand-and-foot"
    if not isinstance(game_id, str) or not game_id.replace("-", "").isalnum():
        game_id = "hand-and-foot"
    project = make_project(root, {"games": ["id: placeholder\ntitle: P\ncategory: cards\nintroduced: \"2026.1\"\n"
                                            "sources: [{seed: 000_321aee1cc9de258a.txt, section: P}]\nplayers: 2\n"]})
    (project / "rules_data" / "placeholder.yaml").unlink()
    (project / "content" / "placeholder.md").unlink()
    book = project / "rules_data" / "book.yaml"
    book.write_text(book.read_text(encoding="utf-8").replace("placeholder", game_id), encoding="utf-8")
    (project / "rules_data" / f"{game_id}.yaml").write_text(text, encoding="utf-8")
    (project / "content" / f"{game_id}.md").write_text("## Play\n\n{deal.hand} cards.\n", encoding="utf-8")
    with contextlib.suppress(RulebookError):
        run_checks(load_library(project))
    hostile.tried("fuzzed game files")


@settings(max_examples=150, deadline=2000)
@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=400))
def test_random_text_raises_only_our_errors(text):
    with contextlib.suppress(RulebookError):
        parse_yaml(text, "random.yaml")
    hostile.tried("fuzzed YAML text")

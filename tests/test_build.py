"""The build: a page for every game and variant, the book PDF, a score sheet per game."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.book.prose import expand
from generator.render.views.describe import pdf_name
from tests.conftest import CURRENT, PUBLISHED, ROOT
from tests.pagetext import page_count
from tests.textmatch import normalise, page_text


def test_every_game_and_variant_has_its_page(built, library, published_library):
    for edition, lib in ((CURRENT, library), (PUBLISHED, published_library)):
        site = built[edition] / "site"
        for gs in lib.ordered_games():
            page = site / "games" / gs.id / "index.html"
            assert page.exists(), f"{edition}: no page for {gs.id}"
            text = normalise(page_text(page.read_text(encoding="utf-8")))
            assert normalise(gs.game.title) in text
            for variant in gs.game.variants:
                shown = normalise(f"Variant: {variant.title}") in text
                assert shown == lib.in_edition(variant.introduced), f"{edition}: variant {variant.id} of {gs.id}"


def test_an_earlier_edition_has_only_the_games_it_introduced():
    """On the tests' own book: 2026.1 has the games introduced in it, and not the three 2026.2 adds."""
    from generator.book.library import load_library
    from tests.conftest import SMALL_BOOK

    current, published = load_library(SMALL_BOOK), load_library(SMALL_BOOK, PUBLISHED)
    assert set(current.games) - set(published.games) == {"trash", "basic-rummy", "skull-and-roses"}
    assert all(gs.game.introduced == "2026.1" for gs in published.games.values())


def test_every_game_page_shows_its_data(built, library):
    """Each number kept in a game's card-value tables and deal is on its page."""
    site = built[CURRENT] / "site"
    for gs in library.ordered_games():
        text = normalise(page_text((site / "games" / gs.id / "index.html").read_text(encoding="utf-8")))
        for table in gs.game.scoring.values():
            for item in table.items:
                label = expand(item.label, item.model_dump(exclude_none=True), gs.doc.data)  # as printed
                assert normalise(label) in text, f"{gs.id}: {label}"
        deal = gs.game.deal
        if deal and isinstance(deal.each, int) and "each" not in deal.worked_out:  # a worked-out total is not printed
            assert str(deal.each) in text.split(), f"{gs.id}: deal {deal.each}"
        if deal and "each" in deal.worked_out:
            assert all(str(n) in text.split() for n in (deal.hand, deal.foot) if n), f"{gs.id}: deal {deal}"


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
def test_book_pdf_has_every_game(built, library):
    pdf = built[CURRENT] / "pdf" / pdf_name(library)
    # Read by poppler: pdftotext and pdfinfo in 0.1 s, where pypdf's extract_text took 3.5 s
    text = normalise(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout)
    info = subprocess.run(["pdfinfo", "-enc", "UTF-8", str(pdf)], capture_output=True, text=True, check=True).stdout
    for gs in library.ordered_games():
        assert normalise(gs.game.title) in text, gs.id
    assert re.search(r"^Title:\s+(.*)$", info, re.M)[1].startswith(library.book.title)


@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="poppler-utils is not installed")
def test_score_sheet_per_game(built, library, published_library):
    for edition, lib in ((CURRENT, library), (PUBLISHED, published_library)):
        sheets = built[edition] / "pdf" / "score-sheets"
        for gs in lib.ordered_games():
            pdf = sheets / f"{gs.id}.pdf"
            assert pdf.exists() == gs.game.keeps_score(), f"{edition}: {gs.id}"  # none where no score is kept
            assert not pdf.exists() or page_count(pdf) >= 1


def test_a_render_of_the_same_inputs_is_copied_from_the_pdf_cache(tmp_path, monkeypatch):
    """With RULEBOOK_PDF_CACHE set, the same sources, paper and sides are rendered once; a change
    to any source file, the paper or the sides is rendered afresh."""
    from generator.book.library import load_library
    from generator.render.pdf import worker
    from tests.conftest import SMALL_BOOK, copy_project

    renders: list[tuple[str, str, bool]] = []

    def render(lib, pdf_dir, paper, duplex, keep, progress=None):  # stands in for WeasyPrint: the cache is what is tested
        renders.append((lib.edition.id, paper, duplex))
        (pdf_dir / "score-sheets").mkdir(parents=True)
        (pdf_dir / "book.pdf").write_bytes(f"{len(renders)} {paper}".encode())
        (pdf_dir / "score-sheets" / "golf.pdf").write_bytes(b"sheet")
        return {"game-golf": len(renders)}

    monkeypatch.setattr(worker, "_render_pdfs", render)
    monkeypatch.setenv("RULEBOOK_PDF_CACHE", str(tmp_path / "cache"))
    project = copy_project(tmp_path / "project", SMALL_BOOK)

    def pdfs(name: str, paper: str = "letter", duplex: bool = False) -> tuple[dict, dict[str, bytes]]:
        out = tmp_path / name
        anchors = worker.render_pdfs(load_library(project), out, paper, duplex)
        return anchors, {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    first = pdfs("first")
    assert first == ({"game-golf": 1}, {"book.pdf": b"1 letter", "score-sheets/golf.pdf": b"sheet"})
    assert pdfs("again") == first and len(renders) == 1  # copied whole, anchors and all
    assert pdfs("a4", "a4")[0] == {"game-golf": 2} and pdfs("duplex", duplex=True)[0] == {"game-golf": 3}
    prose = project / "content" / "golf.md"
    prose.write_text(prose.read_text(encoding="utf-8") + " ", encoding="utf-8")
    assert pdfs("edited")[0] == {"game-golf": 4}
    data = project / "rules_data" / "golf.yaml"
    data.write_text(data.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert pdfs("edited-data")[0] == {"game-golf": 5}
    half_written = [p for p in (tmp_path / "cache").iterdir() if p.name.startswith(".") and p.suffix != ".lock"]
    assert not half_written


def test_a_build_keeps_its_newest_whole_renders_and_copies_them(tmp_path, monkeypatch):
    """Without RULEBOOK_PDF_CACHE, a build keeps its whole renders in its own cache folder (``keep``), a folder for
    each edition, paper and sides holding the ``KEPT_RENDERS`` used last: a build of what was rendered before copies
    it (an edit undone too), one of anything else renders, and the oldest render goes. With RULEBOOK_PDF_CACHE, that
    folder is used in its place (the suite's: the one `make` keeps)."""
    from generator.book.library import load_library
    from generator.render.pdf import worker
    from tests.conftest import SMALL_BOOK, copy_project

    renders: list[str] = []

    def render(lib, pdf_dir, paper, duplex, keep, progress=None):  # stands in for WeasyPrint: the cache is what is tested
        renders.append(lib.edition.id)
        pdf_dir.mkdir(parents=True, exist_ok=True)
        (pdf_dir / "book.pdf").write_bytes(str(len(renders)).encode())
        return {"game-golf": len(renders)}

    monkeypatch.setattr(worker, "_render_pdfs", render)
    monkeypatch.delenv("RULEBOOK_PDF_CACHE", raising=False)
    project = copy_project(tmp_path / "project", SMALL_BOOK)
    prose = project / "content" / "golf.md"
    original = prose.read_text(encoding="utf-8")
    keep = tmp_path / "build" / ".cache"

    def book(text: str, edition: str | None = None, cache: Path = keep) -> int:
        prose.write_text(text, encoding="utf-8")
        out = tmp_path / f"pdf-{len(renders)}"
        anchors = worker.render_pdfs(load_library(project, edition), out, keep=cache)
        assert (out / "book.pdf").read_bytes() == str(anchors["game-golf"]).encode()  # the render's own files
        return anchors["game-golf"]

    assert book(original) == 1 and book(original) == 1  # copied
    assert book(original + " ") == 2 and book(original + "  ") == 3  # edits render; the first render goes
    assert book(original + " ") == 2  # an edit undone: kept
    assert book(original) == 4  # the oldest went (KEPT_RENDERS)
    kind = keep / worker.RENDERS / "2026.2-letter-simplex"
    assert len([e for e in kind.iterdir() if not e.name.startswith(".")]) == worker.KEPT_RENDERS == 2
    assert book(original, "2026.1") == 5 and book(original) == 4  # each edition in a folder of its own
    assert worker.render_pdfs(load_library(project), tmp_path / "uncached") == {"game-golf": 6}  # no cache
    monkeypatch.setenv("RULEBOOK_PDF_CACHE", str(keep))  # the suite's: the cache a build kept
    assert book(original, cache=tmp_path / "elsewhere") == 4 and not (tmp_path / "elsewhere").exists()
    assert len(renders) == 6


def test_a_whole_build_records_what_it_was_made_from(tmp_path, monkeypatch):
    """A build of both halves keeps the digest of what it read and how it was asked (``made_from``), which the suite
    compares before reading the build `make` made: the same for a copy of the same sources, another for an edit of a
    source, a template or the site's configuration, another edition, paper or sides, a booklet or a half; a build of
    one half carries no record (it holds the other half as it was)."""
    from generator.book.library import load_library
    from generator.commands import build as build_module
    from tests.conftest import SMALL_BOOK, copy_project

    def render_pdfs(lib, pdf_dir, **kwargs):  # the renders stand in: the record is what is tested
        pdf_dir.mkdir(parents=True)
        return {}

    def render_site(lib, site_dir, *args):
        site_dir.mkdir(parents=True)

    monkeypatch.setattr(build_module, "render_pdfs", render_pdfs)
    monkeypatch.setattr(build_module, "render_site", render_site)
    project = copy_project(tmp_path / "project", SMALL_BOOK)
    out = build_module.build(project, out=tmp_path / "out")
    record = (out / "current" / build_module.RECORD).read_text(encoding="utf-8").strip()
    assert record == build_module.made_from(load_library(project))
    assert record == build_module.made_from(load_library(copy_project(tmp_path / "copy", SMALL_BOOK)))  # not the folder
    others = {build_module.made_from(load_library(project, "2026.1")), build_module.made_from(load_library(project),
              "a4"), build_module.made_from(load_library(project), duplex=True),
              build_module.made_from(load_library(project), site=False),
              build_module.made_from(load_library(project), booklet=True)}
    for name, edit in (("content/golf.md", "\n"), ("templates/print/print.css", "\n"), ("mkdocs.yml", "\n# x\n"),
                       ("rules_data/errata.yaml", "\n")):
        path = project / name
        before = path.read_text(encoding="utf-8")
        path.write_text(before + edit, encoding="utf-8")
        others.add(build_module.made_from(load_library(project)))
        path.write_text(before, encoding="utf-8")
    assert record not in others and len(others) == 9
    assert build_module.made_from(load_library(project)) == record  # every edit undone
    build_module.build(project, out=tmp_path / "out", pdf=False)
    assert not (out / "current" / build_module.RECORD).exists()


def test_the_cache_key_is_the_same_whatever_the_process_did_before():
    """The key counts the system's text libraries WeasyPrint uses, not a copy another package brings: once the site
    drew its icons with Pillow (which loads its own HarfBuzz and FreeType), publish laid out again a book it had kept.
    In a Python of its own, where nothing else has loaded Pillow."""
    script = ("from generator.render.pdf.cache import new_digest\n"
              "before = new_digest('x').hexdigest()\n"
              "from generator.render.site.offline import icon\n"
              "icon(48)\n"
              "print(before == new_digest('x').hexdigest())")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    assert run.stdout.split() == ["True"]


def test_the_cache_key_finds_the_text_libraries_weasyprint_loads_without_importing_it():
    """The build's own process needs only the key (a worker renders): it opens the text libraries by WeasyPrint's
    names, and finds the very files, with the same Pango version, that WeasyPrint's text layer loads. Two Pythons of
    their own: one that never imports WeasyPrint, one that has imported its text layer first."""
    script = ("import sys\n"
              "if sys.argv[1] == 'weasyprint':\n"
              "    import weasyprint.text.ffi\n"
              "from generator.render.pdf.cache import text_libraries\n"
              "found = text_libraries()\n"
              "print(repr(('weasyprint' in sys.modules, found)))")
    runs = {way: subprocess.run([sys.executable, "-c", script, way], capture_output=True, text=True, cwd=ROOT,
                                check=True).stdout for way in ("own", "weasyprint")}
    own, through = eval(runs["own"]), eval(runs["weasyprint"])  # noqa: S307 (our own repr of a bool and strs)
    assert own[0] is False and through[0] is True
    assert own[1] == through[1] and any(line.startswith("pango ") for line in own[1])
    assert any("libpango" in line for line in own[1]) or sys.platform != "linux", own


def test_finding_the_text_libraries_leaves_pillow_drawing_as_it_does():
    """Opening the text libraries for the key must not lend their symbols to Pillow's own FreeType: opened globally,
    the site's icons came out of random sizes (a 'decompression bomb') on one build in two. The icon drawn after the
    key is made is the icon drawn in a Python that never made it."""
    script = ("import sys, hashlib\n"
              "if sys.argv[1] == 'key':\n"
              "    from generator.render.pdf.cache import text_libraries\n"
              "    text_libraries()\n"
              "from generator.render.site.offline import icon\n"
              "print(hashlib.sha256(b''.join(icon(size) for size in (48, 192, 512))).hexdigest())")
    drawn = {way: subprocess.run([sys.executable, "-c", script, way], capture_output=True, text=True, cwd=ROOT,
                                 check=True).stdout for way in ("key", "none", "key")}
    assert len(set(drawn.values())) == 1 and len(drawn["none"].strip()) == 64, drawn


def test_a_build_keeps_its_score_sheets_one_by_one(tmp_path, monkeypatch):
    """The sheets are kept beside the build one by one, each under a digest of what it prints, the score pad under
    a digest of all of them: a prose edit lays no sheet out; an edit to one sheet lays that one out, and the others
    once each, as they were laid out before, for the pad; another paper lays them all out; only the newest entries
    of each edition and paper stay. What is copied or laid out as before is, byte for byte, a render from nothing.
    On two games' sheets: two parts, one of them landscape (Oh Hell!), and blank rows to the foot with a page of
    samples after them (the Gin tournament)."""
    from generator.book.library import load_library
    from generator.render.pdf import scorepad
    from generator.render.pdf import worker as pdf_worker
    from generator.render.pdf.book import game_pages
    from tests.conftest import small_project

    project = small_project(tmp_path / "project", ("oh-hell", "gin-rummy-tournament"))
    laid_out: list[tuple[str, str]] = []  # (how, sheet): "whole" (with its trials) or "as before"

    def counting(how: str, real):
        def counted(lib, page, file, *args):
            laid_out.append((how, file.key))
            return real(lib, page, file, *args)
        return counted

    monkeypatch.setattr(scorepad, "render_sheet_documents", counting("whole", scorepad.render_sheet_documents))
    monkeypatch.setattr(scorepad, "lay_out_as_before", counting("as before", scorepad.lay_out_as_before))
    keep = tmp_path / "build" / ".cache"

    def sheets(name: str, paper: str = "letter", keeping: bool = True) -> dict[str, bytes]:
        laid_out.clear()
        lib = load_library(project)
        out = tmp_path / name
        (out / "score-sheets").mkdir(parents=True)
        pdf_worker._sheets(lib, game_pages(lib), out, paper, keep if keeping else None)
        return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    first = sheets("first")
    pad, oh_hell = "score-pad-2026.2.pdf", "score-sheets/oh-hell.pdf"
    assert len(first) == 3 and pad in first and oh_hell in first
    assert sorted(laid_out) == [("whole", key) for key in ("gin-rummy-tournament", "oh-hell")]
    prose = project / "content" / "oh-hell.md"
    assert " player" in prose.read_text(encoding="utf-8")
    prose.write_text(prose.read_text(encoding="utf-8").replace(" player", " person", 1), encoding="utf-8")
    assert sheets("prose-edited") == first and laid_out == []
    data = project / "rules_data" / "oh-hell.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("total: Total", "total: Sum", 1), encoding="utf-8")
    edited = sheets("sheet-edited")
    assert sorted(laid_out) == [("as before", "gin-rummy-tournament"), ("whole", "oh-hell")]
    assert [name for name in first if edited[name] != first[name]] == [pad, oh_hell]
    assert sheets("from-nothing", keeping=False) == edited  # what was kept and laid out as before is a fresh render
    assert sheets("a4", "a4")[pad] != edited[pad] and len(laid_out) == 2 and {how for how, _ in laid_out} == {"whole"}
    kept = sorted(p.name.rsplit("-", 1)[0] for p in keep.iterdir() if not p.name.startswith("."))
    assert kept == ["pad-2026.2-a4", "pad-2026.2-letter"] + ["sheet-2026.2-a4"] * 2 + ["sheet-2026.2-letter"] * 2
    assert len(list(keep.iterdir())) == 6  # the letter sheet and pad before the edit are gone


# The site's pages are generated by a worker forked when MkDocs makes the plugin (render/site/worker.py). A fork
# is only safe where no other thread runs, as in `mkdocs build`, so each case runs in a Python of its own on a
# copy of the project; each prints three words that must all be True.
SITE_WORKER_CASES = {
    "asked, it lists the files, then writes each page, as generate() writes them here": """
worker = SiteWorker()
worker.ask(request("by-worker"))
listing = worker.listing()
pages = [rel for rel in listing["files"] if rel.endswith(".md")]
each = all(worker.wait_for(rel) and (Path(listing["docs"]) / rel).is_file() for rel in pages)
ended = worker.finish()
here = generate(request("here"))
same = lambda a, b: {p.relative_to(a): p.read_bytes() for p in Path(a).rglob("*") if p.is_file()} == \\
    {p.relative_to(b): p.read_bytes() for p in Path(b).rglob("*") if p.is_file()}
print(each and ended and listing["docs"] != here["docs"] and same(listing["docs"], here["docs"]),
      {k: v for k, v in listing.items() if k != "docs"} == {k: v for k, v in here.items() if k != "docs"},
      gone(worker.pid))
""",
    "a contributor's mistake comes back as the library's own error": """
(project / "rules_data" / "golf.yaml").write_text("id: golf\\ntitle: [unclosed\\n", encoding="utf-8")
worker = SiteWorker()
worker.ask(request("by-worker"))
try:
    worker.listing()
except RulebookError as exc:
    told = str(exc)
try:
    generate(request("here"))
except RulebookError as exc:
    print(told == str(exc), "golf.yaml" in told, gone(worker.pid))
""",
    "a worker that died before the list, or while writing, leaves the build to make the pages": """
def killed_first(method):
    def run(worker, *args):
        os.kill(worker.pid, signal.SIGKILL)
        return method(worker, *args)
    return run
built = []
for name in ("listing", "wait_for"):
    original = getattr(SiteWorker, name)
    setattr(SiteWorker, name, killed_first(original))
    out = build(project, site=True, pdf=False, out=project / name)
    setattr(SiteWorker, name, original)
    built.append((out / "site" / "games" / "golf" / "index.html").is_file())
worker = SiteWorker()
worker.ask(request("by-worker"))
os.kill(worker.pid, signal.SIGKILL)
print(all(built), worker.listing() is None, gone(worker.pid))
""",
    "a fork that fails leaves nothing behind, and the build makes the pages itself": """
real_fork, raised = os.fork, False
def no_fork():
    raise OSError(11, "Resource temporarily unavailable")
os.fork = no_fork
before = sorted(os.listdir("/proc/self/fd"))
try:
    SiteWorker()
except OSError:
    raised = True
left = sorted(os.listdir("/proc/self/fd")) == before and gc.get_freeze_count() == 0
out = build(project, site=True, pdf=False, out=project / "no-fork")
os.fork = real_fork
print(raised, left, (out / "site" / "games" / "golf" / "index.html").is_file())
""",
    "stopped, or let go of unasked, it is gone": """
stopped, unasked = SiteWorker(), SiteWorker()
stopped.stop()
pid = unasked.pid
del unasked
gc.collect()
print(gone(stopped.pid), gone(pid), True)
""",
}


@pytest.mark.parametrize("case", SITE_WORKER_CASES)
def test_site_worker(case, tmp_path):
    """``site.worker.SiteWorker``: the pages made in a forked process are the ones made here; the library's error
    comes back as itself; a worker that died leaves the build to make the pages; none is left running. On the tests'
    own small book."""
    import sys

    from tests.conftest import ROOT, SMALL_BOOK, copy_project

    copy_project(tmp_path / "project", SMALL_BOOK)
    code = f"""import gc, os, signal
from pathlib import Path
from generator.commands.build import build
from generator.errors import RulebookError
from generator.render.process import PAGES, Request
from generator.render.site.worker import SiteWorker, generate
project = Path({str(tmp_path / "project")!r})
def request(folder):
    return Request(PAGES, str(project), out=str(project / folder))
def gone(pid):
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:  # reaped: no longer this process's child
        return True
    return False
""" + SITE_WORKER_CASES[case]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.stdout.split() == ["True", "True", "True"], out.stdout + out.stderr


def test_the_live_preview_watches_the_sources_not_the_pages_it_writes(tmp_path):
    """`mkdocs serve` watches the docs folder, which each build writes anew: watched, every build started another."""
    import os

    from generator.render.site.plugin import RulebookPlugin

    class Server:  # what MkDocs has watched by the time plugins are asked (its LiveReloadServer's calls)
        watched = {os.path.abspath(tmp_path / "docs"), os.path.abspath(tmp_path / "content")}

        def unwatch(self, path: str) -> None:
            self.watched.remove(os.path.abspath(path))

        def builder(self) -> None:  # MkDocs's rebuild, which the plugin wraps to tell a failure in one line
            """Nothing to build here."""

    plugin = RulebookPlugin()
    server = plugin.on_serve(Server(), config={"docs_dir": str(tmp_path / "docs")}, builder=None)
    assert server.watched == {os.path.abspath(tmp_path / "content")}


def test_the_pages_are_listed_as_mkdocs_lists_a_docs_folder_but_what_changed_last(tmp_path):
    """The plugin gives MkDocs the files the worker lists (some not yet written): MkDocs's own order, by folder
    and an index first, but for "What changed", which another process makes and is read last. On the tests' own
    small book."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files

    from generator.render.process import PAGES, Request
    from generator.render.site.worker import generate
    from tests.conftest import SMALL_BOOK, copy_project

    project = copy_project(tmp_path / "project", SMALL_BOOK)
    result = generate(Request(PAGES, str(project), out=str(tmp_path / "generated")))
    config = load_config(config_file=str(project / "mkdocs.yml"))
    config["docs_dir"] = result["docs"]
    mkdocs_order = [f.src_uri for f in get_files(config)]
    assert any("/" in rel for rel in mkdocs_order) and mkdocs_order.index("changes.md") < len(mkdocs_order) - 1
    assert result["files"] == [rel for rel in mkdocs_order if rel != "changes.md"] + ["changes.md"]


def test_a_render_leaves_nothing_in_the_temporary_folder(tmp_path, monkeypatch):
    """WeasyPrint copies the bundled fonts into a temporary folder and removes it only when its font configuration is
    collected; the render's process ends without collecting: every build left two 3.5 MB folders in /tmp. The render
    is given a temporary folder of the build's, removed when it ends. On a book of one game."""
    import tempfile

    from generator.book.library import load_library
    from generator.render.pdf import worker
    from tests.checkfix import make_project

    game = ("id: demo\ntitle: Demo Rummy\ncategory: cards\nintroduced: \"2026.1\"\n"
            "sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]\nplayers: 2-4\n"
            "equipment: {cards: [{decks: 1}]}\ndeal: {each: 7, upcard: 1}\ngoal: {winner: high, target: 500}\n")
    project = make_project(tmp_path / "book", {"games": [game]})
    shutil.copytree(ROOT / "templates", project / "templates")
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    monkeypatch.delenv("RULEBOOK_PDF_CACHE", raising=False)
    worker.render_pdfs(load_library(project), tmp_path / "pdf")
    assert sorted(p.name for p in (tmp_path / "pdf").iterdir()) != []
    assert sorted(p.name for p in scratch.iterdir()) == []


def test_a_build_ends_naming_the_site_and_the_pdf_a_reader_opens(built, library, monkeypatch):
    """`make` ends with the paths a newcomer opens: the site's home page and the book PDF, from the folder it ran in."""
    from generator.commands.build import outputs

    out = built[CURRENT]
    monkeypatch.chdir(out.parent)
    lines = outputs(library, out)
    assert [line.split(": ")[0] for line in lines] == ["site", "PDF"]
    paths = [Path(line.split(": ", 1)[1]) for line in lines]
    assert paths[0] == Path(out.name) / "site" / "index.html" and paths[1].suffix == ".pdf"
    assert all(path.is_file() for path in paths)
    assert outputs(library, out, site=False) == lines[1:] and outputs(library, out, pdf=False) == lines[:1]

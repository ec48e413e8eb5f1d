"""One snapshot (issue 51, item 1): a build lays out the bytes it validated. A source that changes while the book is
built is one line, and nothing is switched in (the next `make` builds again). Cheap: the renders are stubbed; a
stub reads the sources as a render's process does (``load_library`` held to what the build validated, as its
request says: ``lib.validated``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.book.library import load_library
from generator.commands import build as build_module
from tests.test_faults import one_line, run, tiny


def _edit(project: Path, what: str) -> None:
    content, data = project / "content", project / "rules_data"
    game = next(p for p in data.glob("*.yaml") if p.name not in ("book.yaml",))
    prose = content / f"{game.stem}.md"
    if what == "prose edited":
        prose.write_text(prose.read_text(encoding="utf-8") + "\n{rounds.nonexistent}\n", encoding="utf-8")
    elif what == "data edited":
        game.write_text(game.read_text(encoding="utf-8").replace("each: 7", "each: 8"), encoding="utf-8")
    elif what == "a page edited":
        (content / "about.md").write_text("Another text.\n", encoding="utf-8")
    elif what == "a file added":
        (content / f"{game.stem}.extra.md").write_text("More rules.\n", encoding="utf-8")
    elif what == "a file gone":
        (content / "about.md").unlink()
    elif what == "an optional file gone":  # the loader reads a book without it, and says nothing
        (data / "revisions.yaml").unlink()
    elif what == "a file made a folder":
        (content / "about.md").unlink()
        (content / "about.md").mkdir()


# (what changes, and when: while the renders read the sources, or after they did)
EDITS = [("prose edited", "before a render reads"), ("data edited", "before a render reads"),
         ("a page edited", "before a render reads"), ("a file added", "before a render reads"),
         ("prose edited", "after the renders read"), ("data edited", "after the renders read"),
         ("a file added", "after the renders read"), ("a file gone", "after the renders read"),
         ("prose edited", "and put back, between"), ("an optional file gone", "before a render reads"),
         ("an optional file gone", "and put back, between"), ("a file gone", "and put back, between"),
         ("a file made a folder", "before a render reads")]


@pytest.mark.parametrize(("what", "when"), EDITS, ids=[f"{w} {t}" for w, t in EDITS])
def test_a_source_changed_while_the_book_is_built_is_one_line_and_nothing_is_switched_in(tmp_path, monkeypatch,
                                                                                         what, when):
    project = tiny(tmp_path / "project")
    (project / "rules_data" / "revisions.yaml").write_text("revisions: []\n", encoding="utf-8")
    out = tmp_path / "out"
    originals = {p: p.read_bytes() for folder in ("content", "rules_data") for p in (project / folder).glob("*.*")}

    def render_pdfs(lib, pdf_dir, **_):
        assert lib.validated  # what the build validated, which the render's request carries
        _edit(project, what)
        if when != "after the renders read":
            load_library(project, validated=lib.validated)  # what a render's process does first: it must not lay
            # out what no check saw
        if when == "and put back, between":
            for path, body in originals.items():
                if path.is_dir():
                    path.rmdir()
                path.write_bytes(body)
        pdf_dir.mkdir(parents=True)
        (pdf_dir / "book.pdf").write_bytes(b"%PDF-1.7 a stand-in")
        return {}

    monkeypatch.setattr(build_module, "render_pdfs", render_pdfs)
    code, output = run("--root", str(project), "build", "--pdf-only", "--out", str(out))
    assert code == 1
    line = one_line(output, "", "changed while the book was being built", "nothing was switched in")
    assert ("content/" in line or "rules_data/" in line), line
    assert not (out / "current").exists() and not (out / "pdf").exists()


def test_a_build_whose_sources_stay_as_validated_is_switched_in(tmp_path, monkeypatch):
    project = tiny(tmp_path / "project")

    def render_pdfs(lib, pdf_dir, **_):
        load_library(project, validated=lib.validated)
        pdf_dir.mkdir(parents=True)
        (pdf_dir / "book.pdf").write_bytes(b"%PDF-1.7 a stand-in")
        return {}

    monkeypatch.setattr(build_module, "render_pdfs", render_pdfs)
    code, output = run("--root", str(project), "build", "--pdf-only", "--out", str(tmp_path / "out"))
    assert code == 0, output
    assert (tmp_path / "out" / "pdf" / "book.pdf").read_bytes() == b"%PDF-1.7 a stand-in"


@pytest.mark.parametrize("render", ["pdf", "site"])
def test_a_renders_own_process_is_held_to_what_the_build_validated(tmp_path, monkeypatch, render):
    """What the build validated reaches the render's own process in its request (the PDF worker, the site's page
    worker): a source edited since is one line there, and nothing is made of it. The real renders, on one game."""
    from generator.book.files import recording
    from generator.book.library import CHANGED
    from generator.errors import RulebookError
    from generator.render.pdf.worker import render_pdfs
    from generator.render.site.engine import render_site

    monkeypatch.delenv("RULEBOOK_PDF_CACHE", raising=False)
    project = tiny(tmp_path / "project")
    with recording() as validated:
        lib = load_library(project)
    lib.validated = validated
    _edit(project, "a page edited")
    with pytest.raises(RulebookError, match=re.escape(f"content/about.md: {CHANGED}")):
        if render == "pdf":
            render_pdfs(lib, tmp_path / "pdf")
        else:
            (tmp_path / "staging").mkdir()
            render_site(lib, tmp_path / "site", tmp_path / "staging", None)
    assert not list(tmp_path.glob(f"{render}/**/*.{'pdf' if render == 'pdf' else 'html'}"))
    lib.validated = None  # held to nothing, the same render makes the book as it now is
    if render == "pdf":
        render_pdfs(lib, tmp_path / "pdf")
    else:
        render_site(lib, tmp_path / "site", tmp_path / "staging", None)
    assert list(tmp_path.glob(f"{render}/**/*.{'pdf' if render == 'pdf' else 'html'}"))

"""`rulebook preview`: the book PDF rebuilt on every change, laying out only what changed."""

from __future__ import annotations

import re

import pypdf

from generator.book.library import load_library
from generator.commands.preview import Preview, sources_stamp, watch
from generator.render.pdf.book import BookParts, Layout, render_book
from generator.render.pdf.weasy import Engine
from tests.conftest import EDITED_GAME, edit_one_word, small_project


def test_preview_relays_out_only_the_changed_game_as_a_fresh_render_would_and_keeps_the_last_good_pdf(tmp_path):
    """On a small book (tests/conftest.py ``small_project``): what a preview lays out again does not depend on
    how many other games the book has, and a fresh render of the whole book to compare with costs a fifth."""
    project = small_project(tmp_path / "project", (EDITED_GAME, "hearts", "dice-10000"))  # two sections
    target = tmp_path / "out" / "book.pdf"
    preview = Preview(project, target)
    lines: list[str] = []
    watch(preview, report=lines.append, interval=0, rounds=1)
    assert lines and lines[0].startswith(f"wrote {target}") and target.read_bytes().startswith(b"%PDF")
    parts = len(BookParts(load_library(project)).numbered(None))
    assert preview.layout.laid_out >= parts  # every part, the first time

    stamp = sources_stamp(project)
    edit_one_word(project)
    assert sources_stamp(project) != stamp  # the watcher sees the edit
    assert preview.rebuild() == 1  # the edited game's section alone; the contents and index did not change
    assert len(preview.layout.cache) == len(preview.layout.used)  # the section as it was is forgotten
    good = target.read_bytes()
    # Games run on within a section: the game's text is on the pages from its heading to its end mark.
    anchors = preview.layout.pages
    pages = pypdf.PdfReader(target).pages[anchors[f"game-{EDITED_GAME}"] - 1:anchors[f"end-{EDITED_GAME}"]]
    assert "the next person doesn’t want" in " ".join(" ".join(page.extract_text() for page in pages).split())
    # The section laid out again among the kept ones is the book a build lays out from nothing, which lays each part
    # out once but the contents (again, with the real numbers) and the end (again if it prints its own pages, the
    # errata's): laying the whole book out again for those doubled every build.
    fresh = Layout(Engine(), keep=False)
    render_book(load_library(project), tmp_path / "fresh.pdf", layout=fresh)
    assert (tmp_path / "fresh.pdf").read_bytes() == good
    assert fresh.laid_out <= parts + 2, fresh.laid_out

    game = project / "rules_data" / f"{EDITED_GAME}.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "\nplayers: [\n", encoding="utf-8")  # broken YAML
    watch(preview, report=lines.append, interval=0, rounds=1)
    assert lines[-1].startswith("error: ") and f"{EDITED_GAME}.yaml" in lines[-1]
    assert target.read_bytes() == good
    assert not list(target.parent.glob(".*partial"))


def test_what_weasyprint_warns_of_is_told_by_the_preview_as_a_build_tells_it(tmp_path):
    """The preview lays the book out in its own process, where WeasyPrint's logger drops its warnings: they are told
    before the rebuild's line, each kind once, as `rulebook build` tells them; a rebuild with nothing to warn of tells
    none (what an earlier one said is not told again)."""
    project = small_project(tmp_path / "project", ("dice-10000",))
    page = project / "templates" / "print" / "document.html.j2"  # the book's own template (files.template_folders)
    good = page.read_text(encoding="utf-8")
    page.write_text(good.replace("</head>", "<style>p { colr: red; }</style>\n</head>"), encoding="utf-8")
    preview, lines = Preview(project, tmp_path / "out" / "book.pdf"), []
    watch(preview, report=lines.append, interval=0, rounds=1)
    assert len(lines) == 2 and lines[1].startswith("wrote "), lines
    assert re.fullmatch(r"warning: WeasyPrint: Ignored `colr: red` at 1:5, unknown property\.( \(and \d+ more like it\))?",
                        lines[0]), lines
    page.write_text(good, encoding="utf-8")
    watch(preview, report=lines.append, interval=0, rounds=1)
    assert len(lines) == 3 and lines[2].startswith("wrote "), lines

"""A book's own print stylesheet and fonts (issue 49): its ``templates/print/`` files override the tool's, file by
file, read through the one door (files.py), so a link out of the book or a pipe is one line, never read.

One small book made by ``init`` with one game; the book PDF alone is laid out in process (a few pages), and one
refusal goes through the command line.
"""

from __future__ import annotations

import ast
import inspect
import os
from pathlib import Path

import pikepdf
import pytest

from generator.book.files import TOOL_TEMPLATES
from generator.book.library import load_library
from generator.cli import main
from generator.render.pdf import printshop, weasy
from generator.render.pdf.fetcher import RefusedResource

GENERATOR = Path(__file__).resolve().parents[1] / "generator"
HEADING = "#123456"  # a colour the tool's print.css never names
HEADING_RGB = (0x12 / 255, 0x34 / 255, 0x56 / 255)
CANARY = "h1 { color: #654321; } /* outside the book */\n"


def _book(tmp_path: Path) -> Path:
    book = tmp_path / "book"
    assert main(["init", str(book), "--title", "Pine Street Games", "--pipeline", "rulebook==0.1.0"]) == 0
    assert main(["--root", str(book), "new-game", "Crazy Eights", "--section", "cards"]) == 0
    prose = book / "content" / "crazy-eights.md"
    prose.write_text(prose.read_text(encoding="utf-8").replace("Describe a turn here.", "Play goes to the left."),
                     encoding="utf-8")
    (book / "templates" / "print").mkdir(parents=True)
    return book


def _own_css(book: Path, more: str) -> None:
    tool = (TOOL_TEMPLATES / "print" / "print.css").read_text(encoding="utf-8")
    (book / "templates" / "print" / "print.css").write_text(tool + more, encoding="utf-8")


def _render(book: Path, target: Path) -> Path:
    from generator.render.pdf.book import render_book

    render_book(load_library(book), target)
    return target


def _fill_colours(pdf: Path) -> set[tuple[float, ...]]:
    found = set()
    with pikepdf.open(pdf) as doc:
        for page in doc.pages:
            for operands, operator in pikepdf.parse_content_stream(page):
                if str(operator) == "rg":
                    found.add(tuple(round(float(v), 3) for v in operands))
    return found


def _fonts(pdf: Path) -> set[str]:
    with pikepdf.open(pdf) as doc:
        return {str(font.get("/BaseFont", "")) for page in doc.pages
                for font in (page.Resources.get("/Font") or {}).values()}


def test_the_books_own_print_css_and_font_are_what_the_pdf_is_printed_with(tmp_path: Path) -> None:
    assert HEADING not in (TOOL_TEMPLATES / "print" / "print.css").read_text(encoding="utf-8")
    book = _book(tmp_path)
    # A font of the book's own (the tool has none of it), named by the book's print.css.
    import mkdocs

    lato = Path(mkdocs.__file__).parent / "themes" / "readthedocs" / "css" / "fonts" / "lato-normal.woff"
    (book / "templates" / "print" / "fonts").mkdir()
    (book / "templates" / "print" / "fonts" / "Club.woff").write_bytes(lato.read_bytes())
    _own_css(book, f'@font-face {{ font-family: "Club"; src: url("fonts/Club.woff"); }}\n'
                   f'h1 {{ color: {HEADING}; font-family: "Club"; }}\n')
    pdf = _render(book, tmp_path / "own.pdf")
    rgb = tuple(round(v, 3) for v in HEADING_RGB)
    assert rgb in _fill_colours(pdf)
    fonts = _fonts(pdf)  # by the family the CSS names: the book's font, and the tool's the book's fonts/ lacks
    assert any("+Club" in name for name in fonts) and any("+Book-Serif" in name for name in fonts), fonts


# A print asset of the book's that must not be read: (what is put in the book's templates/print/, what the one line
# names). Each is made from files of the test's own (never a system file).
def _link_out(book: Path, outside: Path) -> None:
    (book / "templates" / "print" / "print.css").symlink_to(outside / "print.css")


def _font_link_out(book: Path, outside: Path) -> None:
    _own_css(book, '@font-face { font-family: "Club"; src: url("fonts/Club.woff"); } h1 { font-family: "Club"; }\n')
    (book / "templates" / "print" / "fonts").mkdir()
    (book / "templates" / "print" / "fonts" / "Club.woff").symlink_to(outside / "print.css")


def _folder_link_out(book: Path, outside: Path) -> None:
    (book / "templates" / "print").rmdir()
    (book / "templates" / "print").symlink_to(outside)


def _templates_link_out(book: Path, outside: Path) -> None:
    (book / "templates" / "print").rmdir()
    (book / "templates").rmdir()
    (outside / "print").mkdir()
    (outside / "print" / "print.css").write_text(CANARY, encoding="utf-8")
    (book / "templates").symlink_to(outside)


def _pipe(book: Path, outside: Path) -> None:
    os.mkfifo(book / "templates" / "print" / "print.css")


def _a_folder(book: Path, outside: Path) -> None:
    (book / "templates" / "print" / "print.css").mkdir()


def _escape(book: Path, outside: Path) -> None:
    (book / "templates" / "print" / "print.css").write_text('@import url("../../../outside/print.css");\n',
                                                            encoding="utf-8")


REFUSED = {
    "print.css a link out of the book": (_link_out, "templates/print/print.css: leads out of"),
    "a font a link out of the book": (_font_link_out, "templates/print/fonts/Club.woff: leads out of"),
    "templates/print a link out of the book": (_folder_link_out, "templates/print/print.css: leads out of"),
    "templates/ a link out of the book": (_templates_link_out, "templates/print/print.css: leads out of"),
    "print.css a pipe": (_pipe, "templates/print/print.css: is not a plain file"),
    "print.css a folder": (_a_folder, "templates/print/print.css: is a folder"),
    "an @import out of the print folder": (_escape, "refused to read"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_print_asset_the_door_refuses_stops_the_render_in_one_line(case: str, tmp_path: Path) -> None:
    make, said = REFUSED[case]
    book = _book(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "print.css").write_text(CANARY, encoding="utf-8")
    make(book, outside)
    with pytest.raises(RefusedResource) as refused:
        _render(book, tmp_path / "out.pdf")
    message = str(refused.value)
    assert said in message and "\n" not in message, message
    assert not (tmp_path / "out.pdf").exists()


def test_the_build_says_a_link_out_of_the_books_print_folder_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    book = _book(tmp_path)
    secret = tmp_path / "secret.css"
    secret.write_text(CANARY, encoding="utf-8")
    (book / "templates" / "print" / "print.css").symlink_to(secret)
    capsys.readouterr()
    assert main(["--root", str(book), "build", "--pdf-only", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "templates/print/print.css" in line]
    assert len(lines) == 1 and "symbolic link" in lines[0] and "Traceback" not in err, err
    assert not list((tmp_path / "out").rglob("*.pdf"))


def _engine_calls() -> list[tuple[str, int, inspect.BoundArguments]]:
    """Every call of an engine class in generator/, with the arguments it binds."""
    classes = {"Engine": weasy.Engine, "TrimEngine": printshop.TrimEngine}
    found = []
    for path in sorted(GENERATOR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in classes:
                bound = inspect.signature(classes[node.func.id]).bind(
                    *[None] * len(node.args), **{k.arg: None for k in node.keywords if k.arg})
                found.append((path.relative_to(GENERATOR).as_posix(), node.lineno, bound))
    return found


def test_every_engine_the_generator_makes_is_given_the_books_folder() -> None:
    calls = _engine_calls()
    assert len(calls) >= 6  # the book, the sheets, the print shop's interior and cover, the preview, the pair
    forgot = [f"{path}:{line}" for path, line, bound in calls if "book" not in bound.arguments]
    assert forgot == [], f"an engine made without the book's folder prints with the tool's styles only: {forgot}"


def test_the_pull_requests_pair_shares_a_layout_only_between_books_printed_alike(tmp_path: Path) -> None:
    from generator.render.pdf.pair import print_assets

    book = _book(tmp_path)
    alike = print_assets(book)
    assert alike == print_assets(TOOL_TEMPLATES.parent) == {}  # the tool's own: nothing of the book's
    _own_css(book, f"h1 {{ color: {HEADING}; }}\n")
    assert print_assets(book) != alike and HEADING.encode() in print_assets(book)["print/print.css"]


def test_a_site_template_through_a_templates_folder_that_links_out_of_the_book_is_one_line(tmp_path: Path) -> None:
    import jinja2

    from generator.render.site.docs import write_docs

    book = _book(tmp_path)
    (book / "templates" / "print").rmdir()
    (book / "templates").rmdir()
    outside = tmp_path / "outside"
    (outside / "site").mkdir(parents=True)
    (outside / "site" / "prose.md.j2").write_text("A SECRET\n", encoding="utf-8")
    (book / "templates").symlink_to(outside)
    with pytest.raises(jinja2.TemplateError) as refused:  # the loader's refusal, which the build says in one line
        write_docs(load_library(book), tmp_path / "docs")
    assert "templates/site/prose.md.j2" in str(refused.value) and "leads out of" in str(refused.value)
    assert "A SECRET" not in "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "docs").rglob("*.md"))

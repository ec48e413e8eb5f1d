"""The book's identity comes from its data (issue 49): nothing of one book in the tool's code, and anything typed in
book.yaml's title, description and author prints as typed in every output that names the book: the web app manifest
(JSON), the site's pages (the <title>, the logo's tooltips, the description and author), the PDF's metadata and
cover, and the PDF's file name (a slug of the title)."""

from __future__ import annotations

import dataclasses
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pypdf
import pytest
from markupsafe import Markup

from generator.book.library import load_library
from generator.book.model import AccentShades
from generator.commands.build import build
from generator.render.pdf.book import _env, print_colours
from generator.render.pdf.weasy import Engine
from generator.render.site.offline import MANIFEST, STYLESHEET, in_colour, manifest, palette
from generator.render.views.describe import file_stem, pdf_name, possessive
from tests.checkfix import DEMO_GAME, make_project
from tests.conftest import ROOT

# The book whose name the tool once carried, in any case: none of it may be left in the tool's code or templates.
BOOK_NAME = re.compile(r"metzker", re.I)
TOOL = ("generator", "templates")


def book_name_mentions(root: Path) -> list[str]:
    """Every line of the tool's code and templates (and pyproject.toml) that names the book, as 'path:line'."""
    files = [f for folder in TOOL for f in sorted((root / folder).rglob("*")) if f.is_file()]
    found = []
    for file in [*files, root / "pyproject.toml"]:
        try:
            text = file.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):  # a font, a picture: no words to read
            continue
        found += [f"{file.relative_to(root)}:{n}" for n, line in enumerate(text.splitlines(), 1) if BOOK_NAME.search(line)]
    return found


def test_the_tool_names_no_book():
    assert book_name_mentions(ROOT) == []


@pytest.mark.parametrize(("path", "line"), [
    ("generator/render/views/describe.py", 'NAME = "metzker-book-of-card-game-rules"'),
    ("templates/print/book.html.j2", '<p class="cover-family">The METZKER Family</p>'),
    ("templates/site/assets/rulebook.css", "/* the Metzker green */"),
    ("pyproject.toml", 'description = "Publishing pipeline for the Metzker Book"'),
], ids=["code", "template", "asset", "pyproject"])
def test_a_book_name_planted_in_the_tool_is_found(tmp_path, path, line):
    for folder in TOOL:
        (tmp_path / folder).mkdir()
    (tmp_path / "templates" / "font.otf").write_bytes(b"\xff\xfe\x00Metzker")  # binary: not read
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "rulebook"\n', encoding="utf-8")
    assert book_name_mentions(tmp_path) == []
    target = tmp_path / path
    target.parent.mkdir(parents=True, exist_ok=True)
    before = target.read_text(encoding="utf-8") if target.exists() else ""
    target.write_text(before + "# one line\n" + line + "\n", encoding="utf-8")
    assert book_name_mentions(tmp_path) == [f"{path}:{len(before.splitlines()) + 2}"]


# Titles as a club might type them: each prints as typed, and its file name is a slug of it.
TITLES = [
    ("markup", 'Rock & Roll <Club> "Rules" \'n\' Stuff', "rock-roll-club-rules-n-stuff"),
    ("accents", "Règles du Café – «Belote» & Coinche", "regles-du-cafe-belote-coinche"),
    ("entity-typed", "Tom's <b>Bold</b> &amp; Co", "toms-b-bold-b-amp-co"),
    ("apostrophes", "The O’Briens' Games", "the-obriens-games"),
    ("no-latin-letter", "Правила игр", "pravila-igr"),  # transliterated, never dropped (issue 62)
    ("no-letter", "★ ☆ 🂡", "book"),
]
IDS = [case[0] for case in TITLES]

GAME = DEMO_GAME


def identity_project(root: Path, title: str, description: str, author: str) -> Path:
    """A one-game book titled ``title`` (with the tool's templates and this repository's mkdocs.yml)."""
    import shutil

    make_project(root, {"games": [GAME]})
    book = root / "rules_data" / "book.yaml"
    text = book.read_text(encoding="utf-8")
    for key, value in (("title", title), ("author", author), ("description", description)):
        # json.dumps writes a YAML double-quoted scalar: the value exactly as typed
        text, n = re.subn(rf"(?m)^{key}: .*$", lambda _m, k=key, v=value: f"{k}: {json.dumps(v)}", text)
        assert n == 1, key
    book.write_text(text + "cover_line: Made by the club & friends\n", encoding="utf-8")
    shutil.copytree(ROOT / "templates", root / "templates")
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    return root


class Reader(HTMLParser):
    """What a browser reads of a page: each element's attributes and its text, entities decoded."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.texts: dict[str, list[str]] = {}
        self.open: list[tuple[str, list[str]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag not in ("meta", "link", "br", "img", "input"):  # its text is filed by its tag and its classes
            self.open.append((tag, [tag, *(f".{c}" for c in (dict(attrs).get("class") or "").split())]))

    def handle_endtag(self, tag: str) -> None:
        tags = [t for t, _ in self.open]
        if tag in tags:
            del self.open[len(tags) - 1 - tags[::-1].index(tag):]

    def handle_data(self, data: str) -> None:
        for _, keys in self.open:
            for key in keys:
                self.texts.setdefault(key, []).append(data)

    def meta(self, name: str) -> str | None:
        return next((a.get("content") for t, a in self.elements if t == "meta" and a.get("name") == name), None)

    def with_class(self, part: str) -> list[dict[str, str | None]]:
        return [a for _, a in self.elements if part in (a.get("class") or "").split()]


@pytest.fixture(scope="module")
def tiny_library(tmp_path_factory):
    root = identity_project(tmp_path_factory.mktemp("identity") / "book", "Fixture", "A fixture.", "Tests")
    return load_library(root)


def _as(lib, title: str):
    """``lib`` with its book titled ``title``, described and authored by words as hard to print."""
    book = lib.book.model_copy(update={"title": title, "description": f"About {title}.", "author": f"{title} & co"})
    return dataclasses.replace(lib, book=book)


@pytest.mark.parametrize(("case", "title", "stem"), TITLES, ids=IDS)
def test_the_file_name_is_a_slug_of_the_title(tiny_library, case, title, stem):
    assert file_stem(title) == stem
    assert pdf_name(_as(tiny_library, title)) == f"{stem}-2026.1.pdf"


@pytest.mark.parametrize(("case", "title", "stem"), TITLES, ids=IDS)
def test_the_manifest_names_the_book_as_typed(case, title, stem):
    read = json.loads(manifest(f"{title} · 2026.1", f"About {title}.", "#7a1212"))
    assert (read["name"], read["description"], read["theme_color"]) == (f"{title} · 2026.1", f"About {title}.", "#7a1212")


@pytest.mark.parametrize(("case", "title", "stem"), TITLES, ids=IDS)
def test_the_pdf_prints_the_title_as_typed(tiny_library, tmp_path, case, title, stem):
    """The printed book's <head> (its metadata) and cover, read by an HTML parser, then the PDF WeasyPrint writes from
    that <head>, read by pypdf."""
    lib = _as(tiny_library, title)
    env = _env(lib)
    front = str(env.get_template("print/book.html.j2").module.front([], [], {}, [], {}, [], {}, lambda *a: ""))
    cover = front[:front.index("</section>") + len("</section>")]  # the cover alone (the contents link onwards)
    html = env.get_template("print/document.html.j2").render(body=Markup(cover), duplex=False)
    page = Reader(html)
    assert "".join(page.texts["title"]).startswith(f"{title} – 2026")
    assert (page.meta("author"), page.meta("description")) == (f"{title} & co", f"About {title}.")
    assert "".join(page.texts[".cover-title"]) == f"{title} 2026"
    assert "".join(page.texts[".cover-family"]) == "Made by the club & friends"
    target = tmp_path / pdf_name(lib)
    engine = Engine()
    Engine.write([engine.document(html)], target)
    info = pypdf.PdfReader(target).metadata
    assert (info.title, info.author, info.subject) == (f"{title} – 2026, Revision 1 (Jan/2026)", f"{title} & co",
                                                      f"About {title}.")


@pytest.mark.parametrize(("whose", "said", "start"), [
    ("the family", "the family's", "The family's"), ("the editors", "the editors'", "The editors'"),
    ("Brent and Barb", "Brent and Barb's", "Brent and Barb's"), ("the O'Neill family", "the O'Neill family's",
                                                                 "The O'Neill family's"),
])
def test_whose_decisions(whose, said, start):
    assert (possessive(whose), possessive(whose, start=True)) == (said, start)


@pytest.mark.parametrize(("accent", "faded"), [("#1f4d2b", "rgb(219.7 222.35 207.05)"), ("#000000", "rgb(215.05 210.8 200.6)"),
                                               ("#FFFFFF", "rgb(253.3 249.05 238.85)")])
def test_the_print_colour_is_the_book_s(accent, faded):
    assert str(print_colours(accent)) == f":root {{ --accent: {accent.lower()}; --accent-faded: {faded}; }}"


def test_the_site_is_in_the_book_s_colours():
    """The Metzker book gives its shades: its stylesheet is the template's, byte for byte. Another book's colour, with
    its shades worked out or given, leaves none of the template's own colours where they stood for a shade."""
    css = STYLESHEET.read_text(encoding="utf-8")
    book = load_library(ROOT).book
    assert in_colour(css, palette(book.accent, book.accent_shades)) == css
    template = set(palette(book.accent, book.accent_shades).values())
    for shades in (None, AccentShades(link_on_dark="#F0C0C0")):
        colours = palette("#7A1212", shades)
        red = in_colour(css, colours)
        assert not template & {c.lower() for c in re.findall(r"#[0-9a-fA-F]{6}", red)}, red
        assert colours["primary"] == colours["link"] == "#7a1212" and "--md-primary-fg-color: #7a1212;" in red
        assert (colours["link_on_dark"] == "#f0c0c0") == (shades is not None)
        assert f".md-nav__link--active {{ color: {colours['link']}; }}" in red


# One title with every character HTML escapes, an accent and a typed entity, built whole (site and PDF) once.
BUILT_TITLE = 'Rock & Roll <Club> "Rules" \'n\' Café &amp;'
BUILT_DESCRIPTION = 'Rules for "rock" & <roll>, as the club\'s players play them.'
BUILT_AUTHOR = "Ann & Bob <the club>"


@pytest.fixture(scope="module")
def built_book(tmp_path_factory) -> Path:
    root = identity_project(tmp_path_factory.mktemp("identity-built") / "book", BUILT_TITLE, BUILT_DESCRIPTION,
                            BUILT_AUTHOR)
    (root / "rules_data" / "book.yaml").write_text((root / "rules_data" / "book.yaml").read_text(encoding="utf-8")
                                                   .replace('accent: "#1f4d2b"', 'accent: "#7a1212"'), encoding="utf-8")
    return build(root, out=root / "out")


def test_a_built_book_names_itself_as_typed(built_book):
    out = built_book
    name = f"{BUILT_TITLE} · 2026.1"
    read = json.loads((out / "site" / MANIFEST).read_text(encoding="utf-8"))
    assert (read["name"], read["description"], read["theme_color"]) == (name, BUILT_DESCRIPTION, "#7a1212")
    pages = sorted((out / "site").rglob("*.html"))
    assert len(pages) > 3
    for path in pages:
        page = Reader(path.read_text(encoding="utf-8"))
        assert "".join(page.texts["title"]).endswith(name), path
        tips = [a.get("title") for a in page.with_class("md-logo")]
        assert tips and set(tips) == {name}, (path, tips)  # the header's and the navigation's logo
        assert (page.meta("description"), page.meta("author")) == (BUILT_DESCRIPTION, BUILT_AUTHOR), path
    pdfs = sorted(p.name for p in (out / "pdf").glob("*.pdf"))
    assert f"{file_stem(BUILT_TITLE)}-2026.1.pdf" in pdfs, pdfs
    info = pypdf.PdfReader(out / "pdf" / f"{file_stem(BUILT_TITLE)}-2026.1.pdf").metadata
    assert (info.title, info.author, info.subject) == (f"{BUILT_TITLE} – 2026, Revision 1 (Jan/2026)", BUILT_AUTHOR,
                                                      BUILT_DESCRIPTION)
    css = (out / "site" / "assets" / "rulebook.css").read_text(encoding="utf-8")
    assert "#7a1212" in css and "#1f4d2b" not in css

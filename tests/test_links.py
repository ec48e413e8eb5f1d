"""Links in prose (issue 51): validate resolves each as the site and print will; print never links a file: address;
no output of a build names the machine that built it. Cheap: a two-game fixture book, no render."""

from __future__ import annotations

import pytest

from generator.book.library import load_library
from generator.book.links import book_pages, printed_target
from generator.checks import run_checks
from generator.render.leaks import leaks
from generator.render.views.markup import print_links, prose_html
from tests.checkfix import findings_with, make_project

GAME = """\
id: {id}
title: {title}
category: cards
introduced: "2026.1"
sources: [{{seed: 000_321aee1cc9de258a.txt, section: Demo}}]
players: 2-4
equipment: {{cards: [{{decks: 1}}]}}
deal: {{each: 7}}
goal: {{winner: low, target: 100}}
"""
STAKES = GAME.replace("equipment: {{cards: [{{decks: 1}}]}}", "equipment: {{cards: [{{decks: 1}}], stakes: {{coin: chip}}}}") \
    .replace("goal: {{winner: low, target: 100}}\n", "")


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    """Two games (Demo Rummy keeps score, and has two variants, one with prose; Penny Ante is played for chips: no keeper) and the About page."""
    demo = GAME.format(id="demo", title="Demo Rummy") + "variants:\n  - {id: short, title: Short Demo, introduced: \"2026.1\", sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]}\n" \
        "  - {id: long, title: Long Demo, introduced: \"2026.1\", sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]}\n"
    ante = STAKES.format(id="ante", title="Penny Ante").replace("deal: {each: 7}", "deal: {by_round: true}") \
        + "rounds: {ranks: 3-K}\n"  # one round a rank: told in a line, no table
    fixture = {"games": [demo, ante],
               "prose": {"demo": "## Rules\n\nPlay well.\n\n## Scoring\n\nCount.\n", "ante": "## Rules\n\nBet.\n",
                         "demo.short": "Play to 50.\n"}}
    return make_project(tmp_path_factory.mktemp("links") / "project", fixture)


def _findings(book, where: str, text: str):
    return findings_with(book, where, text, "link.broken")


# (the prose file, the link written, what the line must say: the form that works, or why none does)
BROKEN = [
    ("content/demo.md", "[x](nothere.md)", "no page of the book is there"),
    ("content/demo.md", "[Ante](../ante/)", "write '[Ante](ante.md)'"),
    ("content/demo.md", "[Ante](ante)", "write '[Ante](ante.md)'"),
    ("content/demo.md", "[Ante](ante.html)", "write '[Ante](ante.md)'"),
    ("content/demo.md", "[Ante](antee.md)", "write '[Ante](ante.md)'"),
    ("content/demo.md", "[Ante](/games/ante.md)", "write '[Ante](ante.md)'"),
    ("content/demo.md", "[Ante](../../games/ante.md)", "it leads out of the book"),
    ("content/demo.md", "[part](#no-such-part)", "Demo Rummy has no part '#no-such-part'"),
    ("content/demo.md", "[part](#scorring)", "write '[part](#scoring)'"),
    ("content/demo.md", "[part](ante.md#scoring)", "Penny Ante has no part '#scoring'"),
    ("content/demo.md", "[rounds](ante.md#rounds-table)", "Penny Ante has no part '#rounds-table'"),
    ("content/demo.md", "[keep](../keep/ante.md)", "no page of the book is there"),  # no keeper: played for chips
    ("content/demo.md", "[about](about.md)", "write '[about](../about.md)'"),
    ("content/demo.md", "[js](javascript:alert(1))", "'javascript:' addresses are not kept"),
    ("content/demo.md", "[ftp](ftp://example.com/rules)", "'ftp:' addresses are not kept"),
    ("content/demo.md", "[f](file:///etc/hostname)", "'file:' addresses are not kept"),
    ("content/demo.md", "[site](http:example.com)", "write '[site](http://example.com)'"),
    ("content/demo.md", "[site](//example.com)", "write '[site](https://example.com)'"),
    ("content/demo.md", "[ref][gone]\n\n[gone]: gone.md\n", "no page of the book is there"),
    ("content/demo.md", "[empty]()", "no address"),
    ("content/demo.md", "[Ante](<ante.md>)", "write '[Ante](ante.md)'"),  # both outputs print '<' as written
    ("content/demo.md", "[ref][a]\n\n[a]: <ante.md#rules>\n", "write '[ref](ante.md#rules)'"),
    ("content/demo.md", "[Ante](<antee.md>)", "angle brackets works in neither"),
    ("content/demo.md", "[Ante](ante.md/)", "write '[Ante](ante.md)'"),
    ("content/about.md", "[Demo](games/demo.md/#scoring)", "write '[Demo](games/demo.md#scoring)'"),
    ("content/about.md", "[Demo](demo.md)", "write '[Demo](games/demo.md)'"),
    ("content/about.md", "[Demo](games/demo.md#nope)", "Demo Rummy has no part '#nope'"),
    # The pages the site makes as it builds: their parts are not known to validate, so no link may promise one
    ("content/demo.md", "[errata](../errata.md#nope)", "write '[errata](../errata.md)'"),
    ("content/demo.md", "[home](../index.md#top)", "Home is made as the site is built"),
    ("content/about.md", "[index](book-index.md#a)", "write '[index](book-index.md)'"),
    ("content/about.md", "[changes](changes.md#2026-1)", "its parts cannot be checked before"),
]


@pytest.mark.parametrize(("where", "link", "says"), BROKEN, ids=[case[1] for case in BROKEN])
def test_a_link_to_nothing_is_one_line_with_the_form_that_works(book, where, link, says):
    found = _findings(book, where, f"See {link}.")
    assert len(found) == 1, [(f.path, f.line, f.message) for f in found]
    assert found[0].path == where and found[0].line > 1 and found[0].severity == "error"
    assert says in found[0].message, found[0].message


GOOD = [
    ("content/demo.md", "[Ante](ante.md)"),
    ("content/demo.md", "[Ante](./ante.md)"),
    ("content/demo.md", "[scoring](#scoring)"),
    ("content/demo.md", "[its rules](ante.md#rules)"),
    ("content/demo.md", "[keep score](../keep/demo.md)"),
    ("content/demo.md", "[About](../about.md)"),
    ("content/demo.md", "[the errata](../errata.md) and [the index](../book-index.md)"),
    ("content/demo.md", "[site](https://example.com/a_(b)) <https://example.com> [mail](mailto:a@example.com)"),
    ("content/demo.md", "[ref][here]\n\n[here]: ante.md\n"),
    ("content/demo.md", "`[code](nothere.md)` and\n\n```\n[fenced](nothere.md)\n```"),
    ("content/about.md", "[Demo](games/demo.md#scoring) and [its keeper](keep/demo.md)"),
]


@pytest.mark.parametrize(("where", "link"), GOOD, ids=[case[1] for case in GOOD])
def test_a_link_that_leads_somewhere_passes(book, where, link):
    assert _findings(book, where, f"See {link}.") == []


# (the page the prose is on, the link, where the PDF takes it: the page where the book prints it, or None: text)
PRINTED = [
    ("games/demo.md", "ante.md", "#game-ante"),
    ("games/demo.md", "ante.md#rules", "#game-ante"),  # print's headings of prose have no ids: the page
    ("games/demo.md", "#scoring", "#game-demo"),
    ("games/demo.md", "#variant-short-demo", "#demo-short-variant"),  # a variant: its box in print
    ("about.md", "games/demo.md#variant-long-demo", "#demo-long-variant"),
    ("games/demo.md", "../about.md", "#page-about"),
    ("games/demo.md", "../errata.md", "#errata"),
    ("games/demo.md", "../keep/demo.md", None),  # print has no keeper
    ("games/demo.md", "../finder.md", None),
    ("games/demo.md", "nothere.md", None),
    ("about.md", "games/demo.md", "#game-demo"),
    ("about.md", "https://example.com/", "https://example.com/"),
]


@pytest.mark.parametrize(("here", "target", "printed"), PRINTED, ids=[f"{c[0]}->{c[1]}" for c in PRINTED])
def test_print_links_a_page_of_the_book_inside_the_pdf_never_by_file(book, here, target, printed):
    pages = book_pages(load_library(book))
    assert printed_target(target, here, pages) == printed
    html = print_links(str(prose_html(f"See [the text]({target}).")), here, lambda t, h: printed_target(t, h, pages))
    assert "the text" in html and ".md" not in html and "file:" not in html
    assert (f'href="{printed}"' in html) if printed else ("<a" not in html), html


def test_an_output_naming_a_file_address_or_a_build_folder_is_found(tmp_path):
    import pikepdf

    out = tmp_path / "out"
    (out / "site").mkdir(parents=True)
    (out / "site" / "ok.html").write_text('<a href="https://example.com/">x</a> location.protocol==="file:"'
                                          # a contributor's words about an address are text, not a link
                                          '<p>write file:///x as text, href="file:///y"</p>'
                                          f'<p>{tmp_path / "project-old"} is another folder</p>')
    (out / "site" / "app.js").write_text('if (location.protocol === "file:") { load("file:///x") }')
    assert leaks(out, [str(tmp_path / "project")]) == []
    (out / "site" / "page.html").write_text('<a href="file:///home/builder/templates/print/hearts.md">Hearts</a>')
    (out / "site" / "data.json").write_text(f'{{"where": "{tmp_path / "project"}/content/a.md"}}')
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.pages[0].Annots = pdf.make_indirect(pikepdf.Array([pikepdf.Dictionary(
        Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[0, 0, 10, 10],
        A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String("file:///srv/build/x.md")))]))
    pdf.save(out / "book.pdf", compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    found = leaks(out, [str(tmp_path / "project")])
    assert [line.split(" ")[0] for line in found] == ["book.pdf", "site/data.json", "site/page.html"], found
    assert all("links a file: address" in line for line in found if not line.startswith("site/data.json")), found
    assert "holds a folder of the build" in found[1], found


# --- Every file under content/ and rules_data/ is read or reported -------------------------------------------------

# (a file put beside the book's, what the line must say: the file it was meant to be, or that there is none)
UNREAD = [
    ("content/demo.shrot.md", "content/demo.short.md is"),  # a variant's id misspelt
    ("content/demo.short-.md", "content/demo.short.md is"),
    ("content/Demo.md", "content/demo.md is"),  # case
    ("content/demo.MD", "content/demo.md is"),
    ("content/about.markdown", "content/about.md is"),  # extension
    ("content/demo.txt", "content/demo.md is"),
    ("rules_data/demo.yml", "rules_data/demo.yaml is"),
    ("rules_data/demo.yaml~", "rules_data/demo.yaml is"),  # an editor's backup
    ("rules_data/dictionary.text", "rules_data/dictionary.txt"),
    ("rules_data/Confusables.txt", "rules_data/confusables.txt"),
    ("content/demo.lnog.md", "rename it to content/demo.long.md"),  # the variant has no prose yet
    ("content/notes.txt", "move it out of content/"),  # a stray file
    ("rules_data/notes", "move it out of rules_data/"),
    ("content/drafts/demo.md", "a folder, which the book does not read"),
    ("rules_data/old/demo.yaml", "a folder, which the book does not read"),
    ("content/.demo.md", "content/demo.md is"),  # hidden, but named as a source is
    ("content/.demo.short.md", "content/demo.short.md is"),
    ("rules_data/.demo.yml", "rules_data/demo.yaml is"),
]
# An editor's or a system's hidden file is neither read nor reported.
LEFT = ["content/.demo.md.swp", "content/.DS_Store", "rules_data/.demo.yaml.swp", "content/.gitkeep"]


@pytest.mark.parametrize(("name", "says"), UNREAD, ids=[case[0] for case in UNREAD])
def test_a_file_no_game_variant_or_page_reads_is_one_line_with_its_name(book, name, says):
    path = book / name
    path.parent.mkdir(exist_ok=True)
    path.write_text("Play to 50 instead.\n", encoding="utf-8")
    try:
        found = [f for f in run_checks(load_library(book)) if f.check == "file.unread"]
    finally:
        path.unlink()
        if path.parent.name in ("drafts", "old"):
            path.parent.rmdir()
    assert [(f.path, f.line) for f in found] == [("/".join(name.split("/")[:2]), 1)], found
    assert says in found[0].message and found[0].severity == "error", found[0].message


@pytest.mark.parametrize("name", LEFT)
def test_an_editors_or_a_systems_hidden_file_is_left_alone(book, name):
    path = book / name
    path.write_text("x\n", encoding="utf-8")
    try:
        assert [f for f in run_checks(load_library(book), only=["file.unread"])] == []
    finally:
        path.unlink()


def test_every_part_of_a_game_print_links_to_is_a_place_in_the_printed_book(built, library):
    """Each part of each game page of the real book (its data blocks, its variants) that print links to by an id of
    its own is a named destination of the built PDF; every other part goes to the game's page."""
    import pikepdf

    from generator.book.addresses import game
    from generator.render.views.describe import pdf_name
    from tests.conftest import CURRENT

    with pikepdf.open(built[CURRENT] / "pdf" / pdf_name(library)) as pdf:
        destinations = set(pikepdf.NameTree(pdf.Root.Names.Dests).keys())
    pages = book_pages(library)
    by_id, to_page = 0, 0
    for gs in library.ordered_games():
        doc = game(gs.id).doc
        for part in sorted(pages[doc].anchors() or ()):
            printed = printed_target(f"{gs.id}.md#{part}", doc, pages)
            assert printed is not None and printed[1:] in destinations, (doc, part, printed)
            by_id, to_page = (by_id + 1, to_page) if printed != f"#game-{gs.id}" else (by_id, to_page + 1)
    assert by_id > 0 and to_page > 0, (by_id, to_page)  # both kinds are in the real book

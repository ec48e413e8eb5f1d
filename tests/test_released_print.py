"""A released edition's printed files are the same files (issue 59, item 1): every PDF publish makes of each edition
published at the base (its book, each score sheet, the score pad) is laid out from the base's sources, templates,
styles and fonts and from the change's, both by the running code, and compared page by page, by what each page's text
layer reads and by what it inks, and by what each file says of itself (its keywords, its subject); a page or a file
that differs fails the check (released.pdf_changed), naming the edition, the file, the page and the words, or that its
ink differs where its words read the same. The ways of the issue (a print font whose digits 3 and 8 are swapped; a
print stylesheet that writes words through ``content:``; a data change that alters only the printed book) and others
of the same kinds (a template that alters one game's score sheet, and so the score pad); a change the published
edition's own record allows (a correction, recorded as an erratum of the open edition) and a change to the open
edition alone are free. On the tests' own small book (``tests/pullrequests.py``: 2026.1 published)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.book.files import TOOL_TEMPLATES
from generator.commands.check_pr import check_pr
from tests.pullrequests import append, edit, pr_book

BOOK = "its printed book the-parlour-book-of-games-2026.1.pdf: page "
SLIP = ("content/knock-golf.md", "Play starts with the person to the dealer’s left",
        "Play starts with the persen to the dealer’s left")  # what 2026.1 printed: a slip
CORRECTION = """  - id: golf-person
    edition: "2026.2"
    file: content/knock-golf.md
    published: the persen to
    corrected: the person to
    check: spelling.unknown_word
    note: Spelling.
    evidence:
      kind: spelling
      why: "“persen” is misspelt."
"""


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return pr_book(tmp_path_factory.mktemp("released-print") / "repo", games=("knock-golf", "sevens", "ten-dice"),
                   first=lambda book: edit(book, *SLIP))


def _swapped_digits(repo: Path) -> None:
    """The book's own print fonts (those of its text and its headings), each with the glyphs of 3 and 8 swapped in
    every character map: the text layer reads "13" where the page inks "18"."""
    from fontTools.ttLib import TTFont

    (repo / "templates/print/fonts").mkdir(parents=True)
    for name in ("LinLibertine_R.otf", "LinBiolinum_R.otf", "LinBiolinum_RB.otf"):
        font = TTFont(TOOL_TEMPLATES / "print/fonts" / name)
        maps = {id(table.cmap): table.cmap for table in font["cmap"].tables}  # (tables may share one map)
        for cmap in maps.values():
            if ord("3") in cmap and ord("8") in cmap:
                cmap[ord("3")], cmap[ord("8")] = cmap[ord("8")], cmap[ord("3")]
        font.save(repo / "templates/print/fonts" / name)


def _print_css(added: str):
    """The book's own print stylesheet: the tool's, and ``added``."""
    def change(repo: Path) -> None:
        (repo / "templates/print").mkdir(parents=True, exist_ok=True)
        text = (TOOL_TEMPLATES / "print/print.css").read_text(encoding="utf-8")
        (repo / "templates/print/print.css").write_text(text + "\n" + added + "\n", encoding="utf-8")
    return change


def _older_only_in_print(repo: Path) -> None:
    """The book's own print template, which adds a rule to the editions before 2026.2 alone (the site's untouched)."""
    (repo / "templates/print").mkdir(parents=True)
    text = (TOOL_TEMPLATES / "print/book.html.j2").read_text(encoding="utf-8")
    cover = '<p class="cover-edition">{{ edition.label }}</p>'
    assert cover in text
    (repo / "templates/print/book.html.j2").write_text(text.replace(
        cover, cover + '{% if edition.id < "2026.2" %}<p>Hearts may be led at any time.</p>{% endif %}', 1),
        encoding="utf-8")


def _older_only_in(template: str, anchor: str, condition: str = "true"):
    """The book's own print template ``template``, which adds a rule after ``anchor`` for the editions before 2026.2
    alone (and where ``condition`` holds)."""
    def change(repo: Path) -> None:
        (repo / "templates/print").mkdir(parents=True, exist_ok=True)
        text = (TOOL_TEMPLATES / "print" / template).read_text(encoding="utf-8")
        assert anchor in text, anchor
        (repo / "templates/print" / template).write_text(text.replace(anchor, anchor + (
            f'{{% if edition.id < "2026.2" and {condition} %}}<p>Hearts may be led at any time.</p>{{% endif %}}'), 1),
            encoding="utf-8")
    return change


def _corrected(repo: Path) -> None:
    """The slip 2026.1 printed corrected, the correction recorded as an erratum of the open edition: 2026.1 is made as
    it was printed (the erratum undone), so its readers read what they did."""
    edit(repo, SLIP[0], SLIP[2], SLIP[1])
    append(repo, "rules_data/errata.yaml", CORRECTION)


PAD = "score-pad-2026.1.pdf"
# case: (the change, then for each error the test looks for, the file and page and words it names; or the change and
# None: the change is free)
CASES = {
    "a print font whose digits 3 and 8 are swapped": (_swapped_digits, (BOOK, "its words read the same, and the "
                                                                               "page's ink differs")),
    "a print stylesheet that writes a rule through content:": (
        _print_css('h1::after { content: " Hearts may be led at any time."; }'),
        (BOOK, "{+Hearts may be led at any time.+}")),
    # The book's colour and its keywords, which only the PDF's properties print: its pages' ink, and the file
    "a data change that alters only the printed book (the accent, the keywords)": (
        lambda r: edit(r, "rules_data/book.yaml", 'accent: "#', 'keywords: [cheating]\naccent: "#7a1f1f" # was #'),
        (BOOK, "its words read the same, and the page's ink differs"),
        (BOOK.removesuffix(": page "), "what the file says of itself (its Keywords, as a viewer's document "
                                        "properties show it): “” → “cheating”")),
    "a print template that adds a rule before 2026.2 only": (
        _older_only_in_print, (BOOK, "{+Hearts may be led at any time.+}")),
    "a print stylesheet that hides every table": (_print_css("table { display: none; }"), (BOOK, "[-")),
    "a print stylesheet that inks the text white": (_print_css("body, td, th, p, li { color: #fff !important; }"),
                                                   (BOOK, "its words read the same, and the page's ink differs")),
    # The sheet on its own and its page of the score pad, each file named (the pad's contents page first)
    "a sheet template that adds a rule to one game's score sheet before 2026.2 only": (
        _older_only_in("sheet.html.j2", '<h1 class="sheet-heading">{{ heading }}</h1>', 'heading == "Knock Golf"'),
        ("its score sheet knock-golf.pdf: page 1 (changed)", "{+Hearts may be led at any time.+}"),
        (f"its score pad {PAD}: page 2 (changed)", "{+Hearts may be led at any time.+}")),
    "a correction recorded as an erratum": (_corrected, None),
    "the open edition's variant alone": (
        lambda r: edit(r, "content/sevens.late-sevens.md", "nine cards each", "ten cards each"), None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_published_editions_printed_pages_are_as_they_were(base, tmp_path, case):
    change, *named = CASES[case]
    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    change(repo)
    code, annotations, summary = check_pr(repo, "HEAD")
    printed = [a for a in annotations if "title=released.pdf_changed::" in a]
    assert not [a for a in annotations if "check.not_judged" in a], annotations
    if named == [None]:
        assert [a for a in annotations if "title=released." in a] == [], annotations
        return
    assert code == 1, summary
    assert printed, annotations
    assert all("the readers of 2026.1, published, read in its " in a for a in printed), printed
    for file, words in named:
        assert any(file in a and words in a for a in printed), (file, printed)
    assert "released.pdf_changed" in summary.split("## What this change")[0]  # among the errors the summary leads with
    # The summary says which of 2026.1's PDFs were laid out from both sides to tell
    assert "### The printed files of the editions published" in summary and "laid out from both sides" in summary


def test_each_sides_book_is_kept_by_what_it_was_made_from(base, tmp_path, monkeypatch):
    """With RULEBOOK_PDF_CACHE set, both sides' books are kept there by what each was made from: the same change
    checked again is compared from them, nothing laid out, with the same findings."""
    import generator.render.process as process

    monkeypatch.setenv("RULEBOOK_PDF_CACHE", str(tmp_path / "cache"))
    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    CASES["a data change that alters only the printed book (the accent, the keywords)"][0](repo)
    first = [a for a in check_pr(repo, "HEAD")[1] if "released.pdf_changed" in a]
    assert first and len(list((tmp_path / "cache" / "released" / "2026.1").iterdir())) == 2

    def no_layout(module, *args, **kwargs):
        raise AssertionError(f"{module} run: the books are kept")

    monkeypatch.setattr(process, "run", no_layout)
    assert [a for a in check_pr(repo, "HEAD")[1] if "released.pdf_changed" in a] == first

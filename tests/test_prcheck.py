"""The pull-request check on fixture pull requests (temporary git repositories, no network): validation
first and always, an annotation for every error and each new warning, the summary errors first, the pictures of each
page a change alters. Each pull request is made on the tests' own small book (``tests/pullrequests.py``), never on the
Metzker book's sentences."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.cli import main
from tests.pullrequests import append, commit, edit, git, line_of, pr_book


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """The book, committed: the base every fixture pull request starts from."""
    return pr_book(tmp_path_factory.mktemp("base") / "repo")


def _new_game(repo: Path, decided: bool = False) -> None:
    """Pub Rummy, and (unless ``decided``: the change records it already) the decision that adds it."""
    assert main(["--root", str(repo), "new-game", "Pub Rummy"]) == 0
    if decided:
        return
    # the club's own game: its addition is their decision, recorded
    edit(repo, "rules_data/revisions.yaml", "revisions: []", 'revisions:\n  - id: pub-rummy-added\n    edition: "2026.2"\n'
         '    date: "2026-11-20"\n    kind: game_added\n    game: pub-rummy\n    why: The club plays it at the pub.')


# name: (the change, exit code, annotations that must be there as (level, file, words on the line, check), words the
# summary has)
PRS = {
    "YAML typo": (lambda r: edit(r, "rules_data/lady.yaml", "\n  each: 5\n", "\n  each 5\n"), 1,
                  [("error", "rules_data/lady.yaml", "each 5", "source.unreadable")],
                  ["Not compared: this change does not load"]),
    "broken total": (lambda r: edit(r, "rules_data/salad.yaml", "points: 5, stated_total: 130}",
                                    "points: 5, stated_total: 135}"), 1,
                     [("error", "rules_data/salad.yaml", "stated_total: 135", "scoring.total_mismatch"),
                      ("error", "rules_data/salad.yaml", "stated_total: 135", "edition.frozen")],
                     ["Round 1, Red cards, stated total: 130 → 135"]),
    "changed published word": (lambda r: edit(r, "content/lady.md", "Hearts may not be led", "Hearts may never be led"),
                               1, [("error", "content/lady.md", "may never be led", "edition.frozen")],
                               ["may ~~not~~ **never** be led"]),
    "new game": (_new_game, 0, [], ["No errors.", "Pub Rummy"]),
    # the accepted warnings standing in the base are not annotated: only the new one is
    "a new warning": (
        lambda r: edit(r, "content/sevens.late-sevens.md", "nine cards each", "nine cardz each"), 0,
        [("warning", "content/sevens.late-sevens.md", "cardz", "spelling.unknown_word")], ["1 new warning"]),
}
ANNOTATION = re.compile(r"::(error|warning) file=([^,]+),line=(\d+),title=([^:]+)::")


@pytest.fixture(scope="module")
def accepted(base) -> int:
    """How many findings the book's acceptances cover in the base (each pull request leaves them as they are)."""
    from generator.book.library import load_library
    from generator.checks import run_checks

    return sum(f.severity == "accepted" for f in run_checks(load_library(base)))


@pytest.mark.parametrize("name", PRS)
def test_the_check_reports_a_pull_request(base, accepted, tmp_path, capsys, name):
    change, code, expected, words = PRS[name]
    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    change(repo)
    commit(repo, name)
    summary = tmp_path / "summary.md"
    assert main(["--root", str(repo), "check-pr", "--base", "HEAD~1", "--summary", str(summary)]) == code
    out = capsys.readouterr()
    shown = {(m[1], m[2], int(m[3]), m[4]) for m in map(ANNOTATION.match, out.out.splitlines()) if m}
    wanted = {(level, file, line_of(repo, file, on_line), check) for level, file, on_line, check in expected}
    assert shown == wanted if code == 0 else wanted <= shown, shown
    assert "Traceback" not in out.err
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("## Check of the book")
    for w in words:
        assert w in text, (w, text)
    errors_at, diff_at = text.find("error"), text.find("What this change does")
    assert diff_at > 0 and (errors_at < diff_at or code == 0)  # errors first, then the change in words
    assert accepted and (f"accepted with a reason: {accepted}" in text or code == 1)  # counted once, never annotated


# -- a branch with a decision, a correction and a new game: the summary sets them apart; the pictures show each page --

SLIP = ("content/knock-golf.md", "Play starts with the person to the dealer’s left",
        "Play starts with the persen to the dealer’s left")
DECISION = """revisions:
  - id: lady-never-led
    edition: "2026.2"
    date: "2026-10-01"
    kind: rule
    file: content/lady.md
    before: Hearts may not be led until
    after: Hearts may never be led until
    why: The club made the rule stricter so that nobody opens with hearts.
  - id: pub-rummy-added
    edition: "2026.2"
    date: "2026-10-02"
    kind: game_added
    game: pub-rummy
    why: The club plays it at the pub.
"""
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
def branch(tmp_path_factory) -> Path:
    """The book whose 2026.1 printed a slip (recorded so), committed; then a branch with the club's decision (Black
    Lady), the slip's correction (Knock Golf), a new game, and a word added to the house dictionary."""
    repo = pr_book(tmp_path_factory.mktemp("branch") / "repo", first=lambda book: edit(book, *SLIP))
    edit(repo, SLIP[0], SLIP[2], SLIP[1])
    append(repo, "rules_data/errata.yaml", CORRECTION)
    edit(repo, "content/lady.md", "Hearts may not be led until", "Hearts may never be led until")
    (repo / "rules_data/revisions.yaml").write_text(DECISION, encoding="utf-8")
    _new_game(repo, decided=True)  # DECISION records its addition
    append(repo, "rules_data/dictionary.txt", "sluffing\n")
    return commit(repo, "a decision, a correction, a new game")


@pytest.fixture(scope="module")
def checked(branch) -> tuple[int, str]:
    """The check of the branch (no pictures): its exit code and summary, for each test that reads the summary."""
    from generator.commands.check_pr import check_pr

    code, _, summary = check_pr(branch, "HEAD~1")
    return code, summary


def test_the_summary_sets_decisions_corrections_and_other_edits_apart(checked):
    code, summary = checked
    assert code == 0, summary
    decisions, corrections = summary.index("### The club's decisions"), summary.index("### Corrections")
    assert decisions < corrections
    decided = summary[decisions:corrections]
    assert "#### Black Lady: Rule changed" in decided and "Decided 1 October 2026" in decided
    assert "The club made the rule stricter" in decided and "may ~~not~~ **never** be led" in decided
    assert "Pub Rummy" in decided and "The club plays it at the pub." in decided
    corrected = summary[corrections:]
    assert "`golf-person`" in corrected and "Evidence: **spelling**" in corrected and "“persen” is misspelt." in corrected
    assert "~~persen~~ **person**" in corrected
    assert "persen" not in decided and "Black Lady" not in corrected.split("### The house dictionary")[0]
    assert "**sluffing**" in summary and "rules_data/dictionary.txt" in summary  # the word the change adds
    # The new game's line in its section: the game named once, never the section's games twice.
    assert "salad" not in summary and "added (pub-rummy)" in summary, summary


def test_a_list_is_shown_by_the_item_that_changed(checked):
    _, summary = checked
    line = next(line for line in summary.splitlines() if "pub-rummy" in line and "games" in line)
    assert "→" not in line and "lady" not in line, line


@pytest.mark.parametrize("link", ["content/notes.md", "content/lady.md", "rules_data/dictionary.txt",
                                  "rules_data/knock-golf.yaml", "templates/site/game.md.j2", "content"])
def test_a_link_leaving_the_project_is_refused_and_nothing_quotes_it(base, tmp_path, capsys, link):
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "key.txt").write_text("the deploy key\n", encoding="utf-8")
    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    path = repo / link
    if path.is_dir():
        shutil.rmtree(path)
        path.symlink_to(secret)
    else:
        path.unlink(missing_ok=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(secret / "key.txt")
    commit(repo, "a link")
    summary, pictures = tmp_path / "summary.md", tmp_path / "pictures"
    assert main(["--root", str(repo), "check-pr", "--base", "HEAD~1", "--summary", str(summary),
                 "--pictures", str(pictures)]) == 1
    out = capsys.readouterr()
    assert f"::error file={link},line=1,title=source.outside_project::" in out.out
    text = summary.read_text(encoding="utf-8")
    assert "Not drawn: this change has errors" in text and "deploy key" not in text + out.out + out.err
    assert not pictures.exists()


@pytest.mark.slow
def test_the_pictures_show_each_changed_page_before_and_after(branch, tmp_path):
    from PIL import Image

    from generator.commands.check_pr import check_pr

    folder = tmp_path / "pictures"
    code, _, summary = check_pr(branch, "HEAD~1", pictures=folder)
    assert code == 0, summary
    section = summary[summary.index("### Pictures of the pages this change alters"):]
    files = {p.name for p in folder.iterdir()}
    assert "index.html" in files
    index = (folder / "index.html").read_text(encoding="utf-8")
    for name in files - {"index.html"}:
        assert f"`{name}`" in section and f'src="{name}"' in index, name  # the summary and the index name each
    book = sorted(f for f in files if f.startswith("book-"))
    site = sorted(f for f in files if f.startswith("site-"))
    # The pages of Black Lady and Knock Golf, the new game's, before and after; the book's contents and What changed
    # (the book's small games share their pages).
    drawn = {line.split(": `")[0]: re.findall(r"`([^`]+)`", line) for line in section.splitlines()
             if line.startswith("- book page ")}
    for game in ("Black Lady", "Knock Golf", "Pub Rummy", "What changed"):
        assert any(game in name for name in drawn), (game, section)
    for game in ("games-lady", "games-knock-golf"):
        for width in ("phone", "desktop"):
            assert {f"site-{game}-index-{width}-before.png", f"site-{game}-index-{width}-after.png"} <= set(site), site
    assert any(f.startswith("site-games-pub-rummy-index-phone-after") for f in site), site
    with Image.open(folder / next(f for f in site if "games-lady" in f and "phone" in f)) as shot:
        assert shot.width == 390
    with Image.open(folder / next(f for f in site if "games-lady" in f and "desktop" in f)) as shot:
        assert shot.width == 1280
    # The changed words are boxed: Black Lady's page after has green in it, before has red.
    lady = next(files for name, files in drawn.items() if "Black Lady" in name)
    assert len(lady) == 2 and set(lady) <= set(book), (lady, section)
    for file, colour in zip(sorted(lady), ((44, 160, 44), (214, 39, 40)), strict=True):  # after, before
        with Image.open(folder / file) as page:
            assert colour in {c for _, c in page.convert("RGB").getcolors(1 << 20)}, file


def test_the_site_pictures_are_drawn_while_a_playwright_of_the_callers_runs(tmp_path, browser):
    """The test session's shared Chromium (tests/conftest.py ``browser``, asked for here) runs Playwright's event loop
    in this worker's thread: a second Playwright started in that thread failed, and a check run after a browser test
    drew no site."""
    from generator.render.site.pictures import site_pictures

    assert browser.is_connected()
    for side, words in (("before", "Hearts may not be led"), ("after", "Hearts may never be led")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "index.html").write_text(f"<html><body><article><p>{words}</p></article></body></html>",
                                                    encoding="utf-8")
    (tmp_path / "out").mkdir()
    made, _, _ = site_pictures(tmp_path / "before", tmp_path / "after", tmp_path / "out")
    assert [p.name for p in made] == ["site page home page"] and made[0].marked == 4, made  # not, never: at each width
    assert {f.name for f in (tmp_path / "out").iterdir()} == {f"site-index-{w}-{s}.png" for w in ("phone", "desktop")
                                                               for s in ("before", "after")}


@pytest.mark.parametrize("inside", ["notes.txt", "rules_data"])
def test_the_pictures_never_replace_a_folder_that_holds_anything_else(base, tmp_path, inside):
    from generator.commands.check_pr import check_pr

    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    edit(repo, "content/lady.md", "Hearts may not be led", "Hearts may never be led")
    (repo / "rules_data/revisions.yaml").write_text(
        "revisions:\n  - {id: never, edition: \"2026.2\", date: \"2026-10-01\", kind: rule, file: content/lady.md, "
        "before: Hearts may not be led, after: Hearts may never be led, why: Stricter.}\n", encoding="utf-8")
    commit(repo, "a decision")
    folder = tmp_path / "mine"
    (folder / inside).parent.mkdir(parents=True, exist_ok=True)
    (folder / inside).mkdir() if inside == "rules_data" else (folder / inside).write_text("mine\n", encoding="utf-8")
    code, _, summary = check_pr(repo, "HEAD~1", pictures=folder)
    assert code == 1, summary  # asked for and not drawn: the check did not do what it was asked
    assert (f"the pictures were asked for and not drawn: {folder}: holds {inside}, which is no picture of a check"
            in summary.replace("\\", ""))
    assert (folder / inside).exists() and len(list(folder.iterdir())) == 1


def test_a_book_page_that_only_moved_is_not_a_change_and_its_number_is_never_boxed():
    from generator.render.pdf.pictures import Page as _Page
    from generator.render.pdf.pictures import Word as _Word
    from generator.render.views.pictures import changed_words

    def page(number: int, words: list[str], label: str) -> _Page:
        body = [_Word(w, (50 + 30 * i, 100, 75 + 30 * i, 110)) for i, w in enumerate(words)]
        return _Page(number, 792, [_Word("Hearts", (50, 20, 90, 30)), *body, _Word(label, (560, 760, 570, 770))])

    moved = page(10, ["Hearts", "may", "not", "be", "led"], "10"), page(11, ["Hearts", "may", "not", "be", "led"], "11")
    assert moved[0].key() == moved[1].key()  # the page number in its foot is not what the page says
    front = page(3, ["see", "page", "12"], "iii"), page(3, ["see", "page", "13"], "iii")
    assert front[0].key() != front[1].key()  # a number in the text is
    a, b = page(9, ["Hearts", "may", "not", "be", "led"], "9"), page(9, ["Hearts", "may", "never", "be", "led"], "9")
    said_a, said_b = a.said(), b.said()
    gone, came = changed_words([a.words[k].text for k in said_a], [b.words[k].text for k in said_b])
    assert [a.words[said_a[k]].text for k in gone] == ["not"] and [b.words[said_b[k]].text for k in came] == ["never"]


def test_a_decision_with_an_impossible_date_is_one_error_in_the_summary(base, tmp_path):
    from generator.commands.check_pr import check_pr

    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    edit(repo, "content/lady.md", "Hearts may not be led", "Hearts may never be led")
    (repo / "rules_data/revisions.yaml").write_text(
        "revisions:\n  - {id: never, edition: \"2026.2\", date: \"2027-02-30\", kind: rule, file: content/lady.md, "
        "before: Hearts may not be led, after: Hearts may never be led, why: Stricter.}\n", encoding="utf-8")
    commit(repo, "a decision on no day")
    code, _, summary = check_pr(repo, "HEAD~1")  # no traceback: the date is one error at its line
    assert code == 1 and "`rules_data/revisions.yaml:2` source.unreadable" in summary and "2027-02-30" in summary, \
        summary


@pytest.mark.slow
def test_a_change_of_how_the_book_is_made_is_drawn_by_each_sides_own_making(tmp_path):
    """Titles made red and larger (print and site styles) and the box on every game page renamed: each side is drawn by
    its own code, templates and styles; the files are named under 'How the book is made', every game page said to
    change, and the pages whose words are the same but whose output differs are found by their output (a few
    drawn, nothing boxed in them)."""
    from PIL import Image

    from generator.commands.check_pr import check_pr
    from tests.conftest import ROOT

    def own_making(book: Path) -> None:  # a project with code of its own, as a pull request's checkout is
        for name in ("generator", "templates"):
            shutil.copytree(ROOT / name, book / name, ignore=shutil.ignore_patterns("__pycache__"))

    repo = pr_book(tmp_path / "repo", games=("knock-golf", "lady"), first=own_making)
    append(repo, "templates/print/print.css", "\nh1 { color: #c00; font-size: 30pt; }\n")
    append(repo, "templates/site/assets/rulebook.css", "\n.md-typeset h1 { color: #c00; }\n")
    edit(repo, "templates/blocks.html.j2", '_("At a glance")', '"The game in brief"')
    commit(repo, "red titles, the box renamed")
    code, _, summary = check_pr(repo, "HEAD~1", pictures=tmp_path / "pictures")
    assert code == 1 and summary.startswith("## Needs a maintainer\n"), summary  # drawn for the maintainer it needs
    made = summary[summary.index("## How the book is made"):summary.index("### Pictures")]
    for file in ("templates/print/print.css", "templates/site/assets/rulebook.css", "templates/blocks.html.j2"):
        assert f"- `{file}`" in made, made
    assert "every game page of the site (2 of 2)" in made and "of the book" in made, made
    pictures = summary[summary.index("### Pictures"):]
    assert "site page games/knock-golf/" in pictures and "(its output)" in pictures, pictures
    # A page whose words are the same: drawn black before (the base's style), red after (the change's).
    page = re.search(r"(book-\d+)-before\.png`, `\1-after\.png", pictures)
    assert page, pictures

    def red(file: str) -> int:
        with Image.open(tmp_path / "pictures" / file) as image:
            return sum(n for n, (r, g, b) in image.convert("RGB").getcolors(1 << 22) if r > 150 and g < 60 and b < 60)

    assert red(f"{page[1]}-before.png") == 0 < red(f"{page[1]}-after.png")


def test_words_only_pushed_onto_the_next_page_are_not_boxed():
    """Two pages before, two after: a word added on the first pushes its last word onto the second; only the added
    word is boxed, not the one that moved, nor any on the second page."""
    from generator.render.pdf.pictures import Page as _Page
    from generator.render.pdf.pictures import Word as _Word
    from generator.render.pdf.pictures import block_marks

    def page(number: int, words: list[str]) -> _Page:
        return _Page(number, 792, [_Word(w, (50 + 30 * i, 100, 75 + 30 * i, 110)) for i, w in enumerate(words)])

    before = [page(1, ["deal", "seven", "cards", "each"]), page(2, ["then", "play", "to", "500"])]
    after = [page(1, ["deal", "seven", "red", "cards"]), page(2, ["each", "then", "play", "to", "500"])]
    gone, came = block_marks(before, after)
    assert gone == [set(), set()] and came == [{2}, set()], (gone, came)
    moved = [page(1, ["deal", "seven", "cards"]), page(2, ["each", "then", "play", "to", "600"])]
    gone, came = block_marks(before, moved)
    assert gone == [set(), {3}] and came == [set(), {4}], (gone, came)  # 500 -> 600 boxed; 'each' only moved


ALIKE_GAMES = ("whist", "cribbage", "euchre", "spades", "canasta", "oh-hell")


def _made_alike(box: str, won: dict[str, str] | None = None, games: tuple[str, ...] = ALIKE_GAMES) -> list:
    """A book of a contents page then one page a game: its box named ``box``, its goal 'won' (by game)."""
    from generator.render.pdf.pictures import Page as _Page
    from generator.render.pdf.pictures import Word as _Word

    def page(number: int, words: list[str]) -> _Page:
        return _Page(number, 792, [_Word(w, (50 + 40 * i, 100, 85 + 40 * i, 110)) for i, w in enumerate(words)])

    return [page(1, ["Contents", *games])] + [
        page(n, [g, *box.split(), "take", "tricks", *(won or {}).get(g, "Low score wins").split()])
        for n, g in enumerate(games, 2)]


# (what the change does, the box after, the goal after by game, the games whose own rules it edits,
#  the pages drawn, the sizes of the groups changed alike)
ALIKE = {
    "a template renames the box on every game page": (
        "Aim of the game", {}, set(), [2, 3, 4], [6]),
    "and a correction to two games' goals: each drawn": (
        "Aim of the game", {"euchre": "High score wins", "canasta": "High score wins"}, {"euchre", "canasta"},
        [2, 3, 4, 5, 6], [4]),
    "a correction alone, the same words in five games: each drawn": (
        "Object", {g: "High score wins" for g in ALIKE_GAMES[:5]}, set(ALIKE_GAMES[:5]), [2, 3, 4, 5, 6], []),
    "the same words changed in five games by no record (a book-wide label)": (
        "Object", {g: "High score wins" for g in ALIKE_GAMES[:5]}, set(), [2, 3, 4], [5]),
    "no more than a few pages alike: all drawn": (
        "Object", {g: "Most tricks win" for g in ALIKE_GAMES[:3]}, set(), [2, 3, 4], []),
    "every page changed otherwise: all drawn": (
        "Object", {g: f"{g} wins" for g in ALIKE_GAMES}, set(), [2, 3, 4, 5, 6, 7], []),
}


@pytest.mark.parametrize("case", list(ALIKE))
def test_pages_changed_alike_are_said_once_and_a_few_drawn(case):
    """Pages changed by the same words, none of a game whose own rules the change edits, are one group: its first few
    drawn (by the book's order), the rest left out; a game the change corrects is drawn, whatever its words."""
    from generator.render.pdf.pictures import book_changes
    from generator.render.views.pictures import FEW

    box, won, edited, pages, sizes = ALIKE[case]
    anchors = {k: n for n, g in enumerate(ALIKE_GAMES, 2) for k in (f"game-{g}", f"end-{g}")}
    todo, restyled, groups = book_changes(_made_alike("Object"), _made_alike(box, won), (anchors, anchors), None,
                                          edited)
    left_out = {n for at, _ in groups.values() for n in at[FEW:]}
    assert [b.number for n, (_, b, _, _) in enumerate(todo) if n not in left_out] == pages, (todo, groups)
    assert sorted(len(at) for at, _ in groups.values()) == sizes
    assert not restyled
    if case.startswith("a template"):
        [(change, (_, games))] = groups.items()
        assert change == (("Object",), ("Aim of the game",)) and games == set(ALIKE_GAMES), groups


def test_pages_changed_alike_are_one_line_of_the_summary():
    """The summary says where the same change is (every game page of the book and the site), what it is, and how
    many pages are left out, naming them."""
    from types import SimpleNamespace

    from generator.commands.check_pr.pictures import alike_lines
    from generator.render.views.pictures import Alike

    change = (("Object",), ("Aim of the game",))
    games = set(ALIKE_GAMES)
    book = Alike("book", change, [f"book page {n} ({g})" for n, g in enumerate(ALIKE_GAMES, 2)], games)
    site = Alike("site", change, [f"site page games/{g}/" for g in ALIKE_GAMES], games)
    [line, _] = alike_lines([book, site], SimpleNamespace(games=dict.fromkeys(ALIKE_GAMES)))
    assert line.startswith("- The same change on every game page of the book and the site: “Object” is now “Aim of "
                           "the game”."), line
    assert "3 of the book's left out (book page 5 (spades), book page 6 (canasta), book page 7 (oh-hell))" in line
    some = Alike("site", (("Low",), ()), [f"site page games/{g}/" for g in ALIKE_GAMES[:4]], set(ALIKE_GAMES[:4]))
    [line, _] = alike_lines([some], SimpleNamespace(games=dict.fromkeys(ALIKE_GAMES)))
    from generator.commands.check_pr.pictures import index_page

    ed = SimpleNamespace(edition=SimpleNamespace(id="2026.2"))
    page = index_page([], ed, ed, [Alike("book", (("<b>Object</b>",), ("Aim",)), book.names, games)])
    assert "The same change on 6 pages of the book: “&lt;b&gt;Object&lt;/b&gt;” is now “Aim”. The first 3 are drawn; " \
        "left out: book page 5 (spades), book page 6 (canasta), book page 7 (oh-hell)." in page, page
    assert "on 4 pages of the site: “Low” removed." in line and "1 of the site's left out (site page games/spades/)" \
        in line, line


def test_site_pages_changed_alike_are_drawn_a_few(tmp_path):
    """Five game pages whose box a template renames and one whose goal a correction also edits: the corrected game
    and the first three of the others are shot, the other two left out and named."""
    from generator.render.site.pictures import site_pictures

    for side, box in (("before", "Object"), ("after", "Aim of the game")):
        for g in ALIKE_GAMES:
            (tmp_path / side / "games" / g).mkdir(parents=True)
            won = "High score wins" if side == "after" and g == "spades" else "Low score wins"
            (tmp_path / side / "games" / g / "index.html").write_text(
                f"<html><body><article><h1>{g}</h1><p>{box}: take tricks. {won}</p></article></body></html>",
                encoding="utf-8")
    (tmp_path / "out").mkdir()
    made, _, [group] = site_pictures(tmp_path / "before", tmp_path / "after", tmp_path / "out", edited={"spades"})
    assert [p.name for p in made] == [f"site page games/{g}/" for g in ("canasta", "cribbage", "euchre", "spades")]
    assert group.names == [f"site page games/{g}/" for g in ("canasta", "cribbage", "euchre", "oh-hell", "whist")]
    assert group.change == (("Object:",), ("Aim of the game:",)), group


def test_the_pictures_page_is_each_page_before_and_after_its_text_escaped():
    """The pictures' index.html, as its template writes it: each page before and after side by side (a side it is
    not on said so), the pages changed alike said once, and every name escaped, quotes too."""
    from types import SimpleNamespace

    from generator.commands.check_pr.pictures import index_page
    from generator.render.views.pictures import Alike, Picture

    edition = SimpleNamespace(edition=SimpleNamespace(id="2026.2"))
    pictures = [Picture("book", "book page 3 (Dealer's \"Choice\" & <Co>)", ["book-003-before.png"],
                        ["book-003-after.png"]),
                Picture("site", "site page games/x/ (new)", [], ["site-games-x-index-phone-after.png",
                                                                  "site-games-x-index-desktop-after.png"])]
    alike = [Alike("book", (("<b>Object</b>",), ("Aim",)), [f"book page {n} (g{n})" for n in range(2, 7)], set())]
    head = ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n<title>The pages this change alters</title>\n'
            "<style>body{font-family:sans-serif;margin:1em}figure{margin:0}img{max-width:100%;border:1px solid #999}"
            ".pair{display:grid;grid-template-columns:1fr 1fr;gap:1em;align-items:start}.before figcaption"
            "{color:#d62728}.after figcaption{color:#2ca02c}</style></head><body>\n"
            "<h1>The pages this change alters: 2026.2 before, 2026.2 after</h1>\n"
            '<p>Boxed <span style="color:#d62728">red</span>: words the change removes (before). Boxed <span '
            'style="color:#2ca02c">green</span>: words it adds (after).</p>\n')
    name = "book page 3 (Dealer&#x27;s &quot;Choice&quot; &amp; &lt;Co&gt;)"

    def figure(side: str, file: str, page: str) -> str:
        return (f'<figure class="{side}"><figcaption>{side}: {file}</figcaption><a href="{file}"><img src="{file}" '
                f'alt="{page}, {side}"></a></figure>\n')

    none = '<figure class="before"><figcaption>before: not on this side</figcaption></figure>\n'
    assert index_page(pictures, edition, edition, alike) == head + (
        "<p>The same change on 5 pages of the book: “&lt;b&gt;Object&lt;/b&gt;” is now “Aim”. The first 3 are drawn; "
        "left out: book page 5 (g5), book page 6 (g6).</p>\n"
        f'<ul><li><a href="#p0">{name}</a></li><li><a href="#p1">site page games/x/ (new)</a></li></ul>\n'
        f'<section id="p0"><h2>{name}</h2>\n<div class="pair">\n' + figure("before", "book-003-before.png", name)
        + figure("after", "book-003-after.png", name) + "</div>\n</section>\n"
        '<section id="p1"><h2>site page games/x/ (new)</h2>\n'
        + "".join(f'<div class="pair">\n{none}' + figure("after", f"site-games-x-index-{w}-after.png",
                                                           "site page games/x/ (new)") + "</div>\n"
                  for w in ("phone", "desktop"))
        + "</section>\n</body></html>\n")
    assert index_page([], edition, edition) == head + "<p>The change alters no page of the book or the site.</p>\n</body></html>\n"


# -- a check never passes what it could not judge (issue 57) ----------------------------------------------------------

def _slip_at_base(repo: Path) -> str:
    """A base that does not load (a YAML slip committed), then the change that mends it."""
    edit(repo, "rules_data/knock-golf.yaml", "\n", "\n  : :\n")
    git(repo, "commit", "-q", "-am", "a slip")
    edit(repo, "rules_data/knock-golf.yaml", "\n  : :\n", "\n")
    return "HEAD"


def _linked_at_base(repo: Path) -> str:
    """A base whose source was moved behind a link (a link committed in place of the file)."""
    outside = repo.parent / "golf-elsewhere.md"
    shutil.move(repo / "content/knock-golf.md", outside)
    (repo / "content/knock-golf.md").symlink_to(outside)
    commit(repo, "moved behind a link")
    (repo / "content/knock-golf.md").unlink()
    shutil.copy(outside, repo / "content/knock-golf.md")
    return "HEAD"


def _base_code_not_run(repo: Path) -> str:
    """A change to the checks' code in a project whose base has no code of its own to run: the base's judgement of it
    cannot be made."""
    (repo / "generator/checks").mkdir(parents=True)
    (repo / "generator/checks/quiet.py").write_text("QUIET = True\n", encoding="utf-8")
    return "HEAD"


# case: (what the base and the change are, the base named, words of the one line that says what could not be done)
NOT_JUDGED = {
    "a base it cannot read": (lambda repo: "no-such-branch", "could not read the base no-such-branch"),
    "a base that does not load": (_slip_at_base, "the base HEAD does not load (rules_data/knock-golf.yaml:"),
    "a base behind a link": (_linked_at_base, "could not read the base HEAD"),
    "the base's code not run": (_base_code_not_run, "the base's code could not be run on this change"),
}


@pytest.mark.parametrize("case", list(NOT_JUDGED))
def test_a_change_the_check_cannot_judge_fails_in_one_line(case, tmp_path, capsys):
    """Whatever step the check cannot carry out (the base unread or not loading, the base's code not run), it fails
    and says which in one line of its own; "Not compared" is never a pass."""
    make, said = NOT_JUDGED[case]
    repo = pr_book(tmp_path / "repo", games=("knock-golf",))
    base_ref = make(repo)
    summary = tmp_path / "summary.md"
    assert main(["--root", str(repo), "check-pr", "--base", base_ref, "--summary", str(summary)]) == 1
    out = capsys.readouterr()
    lines = [line for line in out.err.splitlines() if line.startswith("error: check-pr could not judge")]
    assert len(lines) == 1 and said in lines[0], out.err
    assert "Traceback" not in out.err + out.out
    assert "title=check.not_judged::" in out.out  # annotated on the run, and listed first in the summary
    assert "No errors." not in summary.read_text(encoding="utf-8")
    assert "judged by the base's code too" not in summary.read_text(encoding="utf-8")  # never said of what was not


@pytest.fixture(scope="module")
def one_game(tmp_path_factory) -> Path:
    """A book of one game, committed, with a change that validates (a word for the house dictionary: a warning)
    left in its working tree, as a pull request's checkout has it."""
    repo = pr_book(tmp_path_factory.mktemp("one") / "repo", games=("knock-golf",))
    append(repo, "rules_data/dictionary.txt", "sluffing\n")
    return repo


def test_pictures_asked_for_and_not_drawn_fail_the_check(one_game, tmp_path, capsys, monkeypatch):
    """--pictures that cannot be drawn (the browser or a render failed) is a step not done: the check fails."""
    from generator.commands.check_pr import pictures
    from generator.errors import RulebookError

    def fails(*args, **kwargs):
        raise RulebookError("Chromium could not be started")

    monkeypatch.setattr(pictures, "draw", fails)
    assert main(["--root", str(one_game), "check-pr", "--base", "HEAD", "--pictures", str(tmp_path / "pics")]) == 1
    err = capsys.readouterr().err
    assert "could not judge this change: the pictures were asked for and not drawn: Chromium could not be started" in err


# Each section of the summary, by the module and function that writes it (the pictures' only with --pictures).
SECTIONS = {
    "Check of the book": ("summary", "check_lines"),
    "What this change does to the rules": ("summary", "rules_lines"),
    "Games this change adds": ("summary", "new_games_lines"),
    "The house dictionary": ("summary", "dictionary_lines"),
    "How the book is checked": ("summary", "how_checked_lines"),
    "How the book is made": ("summary", "made_lines"),
    "Pictures of the pages this change alters": ("pictures", "pictures_lines"),
    "Every file this change touches": ("summary", "files_lines"),
}


@pytest.mark.parametrize("section", list(SECTIONS))
def test_a_section_that_cannot_be_written_fails_the_check_naming_it(one_game, tmp_path, capsys, monkeypatch,
                                                                     section):
    """A bug in the code of one section of the summary (here, a KeyError planted in it) is an error of the check: it
    fails, saying in one line which section and what stopped it, never a traceback; the other sections are written.
    A change that passes otherwise: nothing else fails it."""
    from importlib import import_module

    module, function = SECTIONS[section]

    def broken(*args, **kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(import_module(f"generator.commands.check_pr.{module}"), function, broken)
    summary = tmp_path / "summary.md"
    pictures = ["--pictures", str(tmp_path / "pics")] if module == "pictures" else []
    assert main(["--root", str(one_game), "check-pr", "--base", "HEAD", "--summary", str(summary), *pictures]) == 1
    out = capsys.readouterr()
    said = f"error: check-pr could not judge this change: the summary's section “{section}” could not be written: " \
           "KeyError: 'a bug'"
    assert [line for line in out.err.splitlines() if line.startswith("error:")] == [said], out.err
    assert "Traceback" not in out.err + out.out and "title=check.not_judged::" in out.out
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("## Check of the book\n\n**1 error**") and f"“{section}” could not be written" in text, text
    for other in ("## What this change does to the rules", "## Every file this change touches"):
        assert (other in text) == (other != f"## {section}"), (other, text)


def test_the_site_pictures_are_of_pages_served_over_http(tmp_path):
    """The pages are drawn as a reader gets them, over http, never from file: a script that rewrites a rule only for a
    page served over http (it read “never” before) is drawn with its rewrite: “never” is no longer there to box."""
    from generator.render.site.pictures import site_pictures

    script = ('<script>if (location.protocol === "http:") document.querySelector("p").textContent = '
              '"Hearts may be led";</script>')
    for side, words in (("before", "Hearts may not be led"), ("after", "Hearts may never be led")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "index.html").write_text(
            f"<html><body><article><p>{words}</p></article>{script if side == 'after' else ''}</body></html>",
            encoding="utf-8")
    (tmp_path / "out").mkdir()
    made, _, _ = site_pictures(tmp_path / "before", tmp_path / "after", tmp_path / "out")
    assert [p.name for p in made] == ["site page home page"] and made[0].marked == 2, made  # “not”, at each width

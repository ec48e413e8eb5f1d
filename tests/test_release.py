"""Printing the next edition, end to end, on a copy of the project (issue 36).

The maintainer releases 2026.3, then 2027.1 (a new year), as CONTRIBUTING's checklist says: each release
opens the edition with `rulebook edition new`, then records a correction of a mistake the edition before
printed (an erratum, its evidence checked), a decision of the family (a revision, with why), a new game
and a retired game. Each new edition validates and builds, site and PDF; its errata and what-changed pages
say which is which; and every earlier edition prints, word for word, what it printed before. The copy is
cut to the games the releases touch or read (``GAMES``): building the whole book twice cost the suite a minute.

"What it prints" is compared at the inputs of the two renderers: the book's HTML (every part, with its
page numbers still to come, and every score sheet's HTML) and the site's Markdown pages and navigation.
WeasyPrint and MkDocs make the PDF and the site from those alone, deterministically (tests/test_pdf.py,
tests/test_build.py), so equal inputs are equal outputs; laying every earlier edition out again after
each release would cost the suite a minute for nothing more.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator.checks import run_checks
from generator.library import load_library
from tests.conftest import ROOT, copy_project, small_project

FIRST, SECOND = ("2026.3", "Revision 3 (Dec/2026)", "2026-12-20"), ("2027.1", "Revision 1 (Jan/2027)", "2027-01-15")


def _git(repo: Path, *args: str) -> str:
    run = subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@localhost", *args],
                         capture_output=True, text=True, check=True)
    return run.stdout


def _edit(root: Path, file: str, old: str, new: str) -> None:
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert old in text, (file, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _append(root: Path, file: str, text: str) -> None:
    path = root / file
    path.write_text(path.read_text(encoding="utf-8").rstrip("\n").removesuffix("revisions: []") + text,
                    encoding="utf-8")


def prints(root: Path, edition: str, scratch: Path) -> dict[str, str]:
    """What an edition prints, as the renderers are given it: the book's HTML, each score sheet's HTML, the
    pages laid out as printed, and the site's pages and navigation."""
    from generator.render.pdf.book import book_html, game_pages
    from generator.render.pdf.scorepad import TRIAL_ROWS, sheet_html, sheet_parts, sheet_view
    from generator.render.site.docs import write_docs
    from generator.render.views.sheets import sheet_files

    lib = load_library(root, edition)
    out = {"book.html": book_html(lib), "as printed": json.dumps(lib.printed_pages(), sort_keys=True)}
    pages = game_pages(lib)
    by_id = {p.id: p for p in pages}
    for file in sheet_files(pages):
        heading, view = sheet_view(by_id[file.game_id], file.variant_id)
        for landscape in (False, True):
            out[f"sheet {file!r} {landscape}"] = sheet_html(lib, file, heading, view, TRIAL_ROWS,
                                                           (landscape,) * len(sheet_parts(view)))
    docs = scratch / f"docs-{edition}"
    site = write_docs(lib, docs)
    out["nav"] = json.dumps(site["nav"])
    for path in sorted(docs.rglob("*")):
        if path.is_file():
            out[f"site {path.relative_to(docs)}"] = path.read_text(encoding="utf-8", errors="replace")
    return out


def _same(before: dict[str, str], after: dict[str, str], edition: str) -> None:
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert not changed, f"{edition} would print otherwise after the release: {changed[:5]}"


def rulebook(root: Path, *args: str) -> subprocess.CompletedProcess:
    """The command as the maintainer types it."""
    return subprocess.run([sys.executable, "-m", "generator", "--root", str(root), *args], capture_output=True,
                          text=True, cwd=ROOT)


def _release(root: Path, edition: tuple[str, str, str]) -> str:
    """`rulebook edition new`, as CONTRIBUTING's checklist says; its output."""
    ed, label, date = edition
    run = rulebook(root, "edition", "new", ed, "--label", label, "--date", date)
    assert run.returncode == 0, run.stderr
    # Not a terminal: one line a stage, with its time (progress.py), on the error stream.
    stages = [re.sub(r" \(\d+\.\d s\)$", "", s) for s in run.stderr.splitlines()]
    assert [s.split(":")[0] for s in stages] == [f"validate {'2026.2' if ed == '2026.3' else '2026.3'}",
                                                f"freeze {'2026.2' if ed == '2026.3' else '2026.3'} as published",
                                                f"validate {ed}"], run.stderr
    return run.stdout


def _validates(root: Path) -> None:
    lib = load_library(root)
    errors = [f"{f.path}:{f.line}: {f.check}: {f.message}" for f in run_checks(lib) if f.severity == "error"]
    assert errors == []


# The book the lifecycle runs on (tests/conftest.py ``small_project``): the games its releases change or retire
# (Hearts, Trash, Euchre, Sticks, 5 in a Row) and Rummoli, whose line in the printed index an erratum of 2026.2
# corrected, in two sections, with their lines of the printed index (2026.1 laid out as printed) and the book's
# prose pages: errata of three editions, one of them on an index line, as the whole book has them.
GAMES = ("hearts", "trash", "euchre", "sticks", "five-in-a-row", "rummoli")


@pytest.fixture(scope="module")
def lifecycle(tmp_path_factory):
    """The copy of the project through both releases, with what each edition printed before and after each."""
    root = small_project(tmp_path_factory.mktemp("book"), GAMES, as_printed=True, index_errata=True)
    _validates(root)
    scratch = tmp_path_factory.mktemp("scratch")
    _git(root, "init", "-q")
    # The 2026.2 book goes to print with a slip in a game it adds (2026.1 never printed Trash).
    _edit(root, "content/trash.md", "Low score wins.", "Low score wins. Shufle well.")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "2026.2 as printed")
    seen: dict[str, dict] = {ed: {"before": prints(root, ed, scratch / "a")} for ed in ("2026.1", "2026.2")}

    out = {"first": _release(root, FIRST)}
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "open 2026.3")
    ed = FIRST[0]
    # A correction of what 2026.2 printed; the family's decision; a game added; a game retired.
    _edit(root, "content/trash.md", "Shufle well.", "Shuffle well.")
    _append(root, "rules_data/errata.yaml", f"""
  - id: trash-shuffle
    edition: "{ed}"
    file: content/trash.md
    published: Shufle well.
    corrected: Shuffle well.
    check: spelling.unknown_word
    note: Spelling.
    evidence:
      kind: spelling
      why: "“Shufle” is misspelt."
""")
    _edit(root, "content/hearts.md", "Hearts may not be led until", "Hearts may never be led until")
    assert rulebook(root, "new-game", "Crazy Eights").returncode == 0
    _edit(root, "rules_data/sticks.yaml", 'introduced: "2026.1"\n', f'introduced: "2026.1"\nretired: "{ed}"\n')
    _append(root, "rules_data/revisions.yaml", f"""revisions:
  - id: hearts-never-led
    edition: "{ed}"
    date: "2026-12-01"
    kind: rule
    file: content/hearts.md
    before: Hearts may not be led until
    after: Hearts may never be led until
    why: The family made the rule stricter so that nobody opens with hearts to run the suit early.
  - id: crazy-eights-added
    edition: "{ed}"
    date: "2026-12-01"
    kind: game_added
    game: crazy-eights
    why: The grandchildren play it every visit, so it joins the book.
  - id: sticks-retired
    edition: "{ed}"
    date: "2026-12-01"
    kind: game_retired
    game: sticks
    why: Nobody has played Sticks since the sticks were lost.
""")
    _validates(root)
    for earlier in ("2026.1", "2026.2"):
        seen[earlier]["after first"] = prints(root, earlier, scratch / "b")
    # The 2026.3 book goes to print; Crazy Eights with a slip in it.
    _edit(root, "content/crazy-eights.md", "Describe a turn here.", "Describe a turn here. Deal clockwize.")
    seen[ed] = {"before": prints(root, ed, scratch / "c")}
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "2026.3 as printed")
    base = _git(root, "rev-parse", "HEAD").strip()

    out["second"] = _release(root, SECOND)
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "open 2027.1")
    out["check-pr"] = rulebook(root, "check-pr", "--base", base).stdout
    ed = SECOND[0]
    _edit(root, "content/crazy-eights.md", "Deal clockwize.", "Deal clockwise.")
    _append(root, "rules_data/errata.yaml", f"""
  - id: crazy-eights-clockwise
    edition: "{ed}"
    file: content/crazy-eights.md
    published: Deal clockwize.
    corrected: Deal clockwise.
    check: spelling.unknown_word
    note: Spelling.
    evidence:
      kind: spelling
      why: "“Clockwize” is misspelt."
""")
    _edit(root, "rules_data/euchre.yaml", "target: 10", "target: 11")
    assert rulebook(root, "new-game", "Spoons").returncode == 0
    _edit(root, "rules_data/five-in-a-row.yaml", 'introduced: "2026.1"\n', f'introduced: "2026.1"\nretired: "{ed}"\n')
    # A variant of a game the book has printed since 2026.1, the family's own: added in 2027.1.
    (root / "rules_data" / "hearts.yaml").write_text(
        (root / "rules_data" / "hearts.yaml").read_text(encoding="utf-8")
        + f'variants:\n  - id: house-hearts\n    title: House Hearts\n    introduced: "{ed}"\n'
          "    sources: [{seed: 000_321aee1cc9de258a.txt, section: Hearts}]\n    players: 4\n"
          # the family's own: the rest of the game's box holds for it (variant.inherits_unsaid)
          "    from_game: {equipment: same, deal: same, scoring: same, goal: same}\n", encoding="utf-8")
    (root / "content" / "hearts.house-hearts.md").write_text("Pass three cards to the left before each hand.\n",
                                                             encoding="utf-8")
    _append(root, "rules_data/revisions.yaml", f"""
  - id: euchre-to-eleven
    edition: "{ed}"
    date: "2027-01-02"
    kind: target
    file: rules_data/euchre.yaml
    path: goal.target
    before: 10
    after: 11
    why: Games to ten ended before the pie was out of the oven, so the family plays to eleven.
  - id: spoons-added
    edition: "{ed}"
    date: "2027-01-02"
    kind: game_added
    game: spoons
    why: Spoons was the hit of the holidays.
  - id: house-hearts-added
    edition: "{ed}"
    date: "2027-01-02"
    kind: variant_added
    game: hearts
    variant: house-hearts
    why: The family passes cards before each hand, and wants the book to say how.
  - id: five-in-a-row-retired
    edition: "{ed}"
    date: "2027-01-02"
    kind: game_retired
    game: five-in-a-row
    why: The board broke and the family never replaced it.
""")
    _validates(root)
    for earlier in ("2026.1", "2026.2", "2026.3"):
        seen[earlier]["after second"] = prints(root, earlier, scratch / "d")
    return {"root": root, "seen": seen, "out": out}


def test_each_release_opens_the_next_edition_and_freezes_the_last(lifecycle):
    root = lifecycle["root"]
    lib = load_library(root)
    assert [e.id for e in lib.book.editions] == ["2026.1", "2026.2", "2026.3", "2027.1"]
    assert lib.book.current == "2027.1" and lib.edition.revision == 1 and lib.edition.year == 2027
    assert lib.book.printed_index.editions == ["2026.1", "2026.2", "2026.3", "2027.1"]
    for frozen in ("2026.1", "2026.2", "2026.3"):
        assert (root / "rules_data" / "frozen" / frozen / "book.yaml").exists(), frozen
    summary = lifecycle["out"]["check-pr"]
    assert "**This change opens edition 2027.1 (Revision 1 (Jan/2027))** as the current edition." in summary
    assert "It freezes 2026.3 (Revision 3 (Dec/2026)) as published" in summary


@pytest.mark.parametrize("edition,after", [("2026.1", "after first"), ("2026.2", "after first"),
                                           ("2026.1", "after second"), ("2026.2", "after second"),
                                           ("2026.3", "after second")])
def test_earlier_editions_print_word_for_word_what_they_printed(lifecycle, edition, after):
    _same(lifecycle["seen"][edition]["before"], lifecycle["seen"][edition][after], edition)


def test_a_retired_game_stays_in_earlier_editions_and_a_new_one_starts_at_its_edition(lifecycle):
    root = lifecycle["root"]
    games = {ed: set(load_library(root, ed).games) for ed in ("2026.1", "2026.2", "2026.3", "2027.1")}
    assert "sticks" in games["2026.1"] and "sticks" in games["2026.2"] and "sticks" not in games["2026.3"]
    assert "five-in-a-row" in games["2026.3"] and "five-in-a-row" not in games["2027.1"]
    assert "crazy-eights" not in games["2026.2"] and {"crazy-eights", "spoons"} <= games["2027.1"]
    assert "spoons" not in games["2026.3"]
    seen = lifecycle["seen"]
    assert 'id="game-sticks"' in seen["2026.2"]["after second"]["book.html"]
    assert load_library(root, "2026.3").index_entry("sticks") is None
    assert load_library(root, "2026.2").index_entry("sticks") is not None


# The book and its score sheets rendered in one process, not side by side in two (render/pdf/worker.py): the same
# files, without a second process loading the fonts again (about 0.4 CPU-s a render); the suite's workers keep both
# CPUs busy already. Every other build in the suite renders them side by side, as `make` does.
ONE_RENDER_PROCESS = ("RULEBOOK_PDF_JOBS", "1")


@pytest.fixture(scope="module")
def new_builds(lifecycle, tmp_path_factory):
    """2026.3 and 2027.1, each built as `make` builds it: site and PDF (the PDFs in one process: ONE_RENDER_PROCESS)."""
    import io

    from generator.build import build
    from generator.progress import Progress

    root, out = lifecycle["root"], tmp_path_factory.mktemp("builds")
    built = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(*ONE_RENDER_PROCESS)
        for ed in (FIRST[0], SECOND[0]):
            log = io.StringIO()
            built[ed] = build(root, edition_id=ed, out=out / ed, progress=Progress(log, tty=False))
            built[f"{ed} stages"] = log.getvalue()
    return built


def _article(path: Path) -> str:
    import html
    import re

    page = path.read_text(encoding="utf-8")
    body = page[page.index("<article"):page.index("</article>")]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def _pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


# What each new edition's pages say: its own decisions (with why), its own corrections, newest first.
PAGES = {
    "2026.3": {"decisions": ["Hearts: Rule changed", "nobody opens with hearts", "Crazy Eights: Game added",
                             "Sticks: Game retired", "since the sticks were lost"],
               "corrected": ["Corrected in 2026.3", "Corrected in 2026.2"], "not": ["Euchre: Target changed"]},
    "2027.1": {"decisions": ["Euchre: Target changed", "pie was out of the oven", "Spoons: Game added",
                             "5 In a Row (Board Game): Game retired", "Hearts: Variant added: House Hearts",
                             "passes cards before each hand"],
               "corrected": ["Corrected in 2027.1", "Corrected in 2026.3", "Corrected in 2026.2"],
               "not": ["Hearts: Rule changed", "Sticks: Game retired"]},
}


@pytest.mark.parametrize("edition", sorted(PAGES))
def test_each_new_edition_builds_and_says_what_changed_and_what_was_corrected(new_builds, edition):
    out, want = new_builds[edition], PAGES[edition]
    # The build said what it was doing, stage by stage, as it went (progress.py).
    stages = [re.sub(r":.*", "", s) for s in new_builds[f"{edition} stages"].splitlines()]
    assert {"validate", "book pages laid out", "score sheets", "site pages written and checked"} <= set(stages), stages
    changes = _article(out / "site" / "changes" / "index.html")
    errata = _article(out / "site" / "errata" / "index.html")
    book = _pdf_text(out / "pdf" / f"metzker-book-of-card-game-rules-{edition}.pdf")
    flat = " ".join(book.split())
    for words in want["decisions"]:
        assert words in changes and words in flat, words
    for words in want["not"]:
        assert words not in changes, words
    # The errata list corrections of mistakes only, by the edition that made them, newest first.
    places = [errata.index(w) for w in want["corrected"]]
    assert places == sorted(places), want["corrected"]
    assert [flat.index(w) for w in want["corrected"]] == sorted(flat.index(w) for w in want["corrected"])
    assert "Hearts may never" not in errata and "Game retired" not in errata
    # The corrections of this edition are under its heading, the decision's words are not.
    mine = errata[errata.index(want["corrected"][0]):errata.index(want["corrected"][1])]
    assert ("Shuffle well" if edition == "2026.3" else "Deal clockwise") in mine
    # A retired game has no page and no line in the index; a new one has both.
    retired, added = ("sticks", "crazy-eights") if edition == "2026.3" else ("five-in-a-row", "spoons")
    assert not (out / "site" / "games" / retired).exists() and (out / "site" / "games" / added / "index.html").exists()
    # The finder, the keepers and search know the new game and not the retired one.
    finder = {g["id"] for g in json.loads((out / "site" / "assets" / "games.json").read_text(encoding="utf-8"))}
    assert added in finder and retired not in finder
    assert (out / "site" / "keep" / added / "index.html").exists() and not (out / "site" / "keep" / retired).exists()
    search = (out / "site" / "search" / "search_index.json").read_text(encoding="utf-8")
    assert ("Crazy Eights" if edition == "2026.3" else "Spoons") in search
    # A variant shows from the edition that adds it on; the index rows the errata of 2026.2 corrected stay corrected.
    hearts = _article(out / "site" / "games" / "hearts" / "index.html")
    assert ("House Hearts" in hearts) == (edition == "2027.1")
    assert "Alphabetical Index of Games: Rummoli (Board Game)" in errata.split("Corrected in 2026.2")[1]
    index = _article(out / "site" / "book-index" / "index.html")
    assert ("Crazy Eights" if edition == "2026.3" else "Spoons") in index
    assert ("Sticks (Sticks required)" if edition == "2026.3" else "5 in a Row (Board game)") not in index.split("retired have no line")[0]


# Each bad release step, as a maintainer might take it: one line naming the file and line, and nothing
# half-written. (what is typed or edited, words of the one line, where it points)
REVISION = ("revisions:\n  - id: hearts-never-led\n    edition: \"2026.3\"\n    date: \"2026-12-01\"\n    kind: rule\n"
            "    file: content/hearts.md\n    before: Hearts may not be led until\n    after: Hearts may never be led until\n"
            "    why: WHY\n")
BAD_STEPS = [
    ("an id that exists", ["edition", "new", "2026.2", "--label", "Revision 2 (Nov/2026)"],
     "edition 2026.2 already exists", "rules_data/book.yaml"),
    ("an earlier id", ["edition", "new", "2026.1", "--label", "Revision 1 (Jan/2026)"],
     "already exists", "rules_data/book.yaml"),
    ("an id before the current one", ["edition", "new", "2025.9", "--label", "Revision 9 (Dec/2025)"],
     "is not later than 2026.2", "rules_data/book.yaml"),
    ("not an id", ["edition", "new", "2026.3b", "--label", "Revision 3 (Dec/2026)"],
     "'2026.3b' is not an edition id", "rules_data/book.yaml"),
    ("a label of another revision", ["edition", "new", "2026.3", "--label", "Revision 4 (Dec/2026)"],
     "says revision 4, but 2026.3 is revision 3", "rules_data/book.yaml"),
    ("a label of another year", ["edition", "new", "2027.1", "--label", "Revision 1 (Jan/2026)"],
     "names another year than 2027", "rules_data/book.yaml"),
    ("a date before the last edition", ["edition", "new", "2026.3", "--label", "Revision 3 (Dec/2026)", "--date",
                                        "2026-01-01"], "is before 2026.2's", "rules_data/book.yaml"),
]
AFTER_OPENING = [
    ("a false evidence kind", [("content/hearts.md", "may not be led", "may never be led"),
                               ("rules_data/errata.yaml", "errata:\n", "errata:\n  - id: hearts-never\n    edition: \"2026.3\"\n"
                                "    file: content/hearts.md\n    published: may not be led\n    corrected: may never be led\n"
                                "    check: spelling.unknown_word\n    note: x\n    evidence: {kind: spelling, why: Misspelt.}\n")],
     "erratum 'hearts-never': a spelling correction replaces a word the dictionary does not know",
     "rules_data/errata.yaml"),
    ("a decision without a reason", [("content/hearts.md", "may not be led", "may never be led"),
                                     ("rules_data/revisions.yaml", "revisions: []\n", REVISION.replace("WHY", '" "'))],
     "why: say in one sentence what the family changed and why", "rules_data/revisions.yaml"),
    ("a change to the frozen edition", [("content/rummoli.md", "4 or more is best", "5 or more is best")],
     "this changes the 2026.1 and 2026.2 editions as published", "content/rummoli.md"),
    ("a game retired without a reason", [("rules_data/sticks.yaml", 'introduced: "2026.1"\n',
                                          'introduced: "2026.1"\nretired: "2026.3"\n')],
     "retired: 2026.3 with no revision saying why", "rules_data/sticks.yaml"),
]


@pytest.fixture
def project(tmp_path):
    root = copy_project(tmp_path / "book")
    return root, (root / "rules_data" / "book.yaml").read_text(encoding="utf-8")


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if not line.startswith("error: ")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("args,words,where", [s[1:] for s in BAD_STEPS], ids=[s[0] for s in BAD_STEPS])
def test_a_bad_release_is_refused_in_one_line_and_changes_nothing(project, capsys, args, words, where):
    from generator.cli import main

    root, book = project
    assert main(["--root", str(root), *args]) == 1
    line = _one_line(capsys)
    assert line.startswith(f"{where}:") and words in line, line
    assert (root / "rules_data" / "book.yaml").read_text(encoding="utf-8") == book
    assert not (root / "rules_data" / "frozen" / "2026.2").exists()


@pytest.fixture(scope="module")
def opened(tmp_path_factory):
    """A copy of the project with 2026.3 opened, once: each bad step after opening is taken in a copy of it."""
    from generator.cli import main

    root = copy_project(tmp_path_factory.mktemp("opened"))
    assert main(["--root", str(root), "edition", "new", "2026.3", "--label", "Revision 3 (Dec/2026)",
                 "--date", "2026-12-20"]) == 0
    return root


@pytest.mark.parametrize("edits,words,where", [s[1:] for s in AFTER_OPENING], ids=[s[0] for s in AFTER_OPENING])
def test_a_bad_step_after_opening_is_one_line_at_its_place(opened, tmp_path, capsys, edits, words, where):
    import shutil

    from generator.cli import main

    root = shutil.copytree(opened, tmp_path / "book")
    assert load_library(root).book.current == "2026.3"
    for file, old, new in edits:
        _edit(root, file, old, new)
    assert main(["--root", str(root), "validate"]) == 1
    out = capsys.readouterr()
    found = [line for line in (out.out + out.err).splitlines()
             if re.match(r"[\w./-]+:\d+(:\d+)?: ", line) and not line.endswith("(warning)")]
    assert len(found) == 1 and found[0].startswith(f"{where}:") and words in found[0], found


def test_a_release_whose_new_edition_does_not_validate_is_undone(project, capsys):
    """A game waiting for 2026.3 cannot be dealt: the release stops at its error, book.yaml and the freeze undone."""
    from generator.cli import main

    root, book = project
    _edit(root, "rules_data/trash.yaml", 'introduced: "2026.2"', 'introduced: "2026.3"')
    _edit(root, "content/trash.md", "Low score wins.", "Low score wins {goal.prize}.")
    assert main(["--root", str(root), "validate"]) == 0  # 2026.2 does not print it yet
    capsys.readouterr()
    assert main(["--root", str(root), "edition", "new", "2026.3", "--label", "Revision 3 (Dec/2026)"]) == 1
    err = capsys.readouterr().err
    assert "content/trash.md:" in err and "Traceback" not in err, err
    assert (root / "rules_data" / "book.yaml").read_text(encoding="utf-8") == book
    assert not (root / "rules_data" / "frozen" / "2026.2").exists()
    assert sorted(p.name for p in (root / "rules_data").iterdir() if p.name.startswith(".")) == []


def test_publish_deploys_every_edition_with_latest_on_the_newest(tmp_path, monkeypatch):
    """A small book through a release: every edition is a version on gh-pages, `latest` the one just opened."""
    import shutil

    from tests.checkfix import make_project

    game = ("id: demo\ntitle: Demo Rummy\ncategory: cards\nintroduced: \"2026.1\"\n"
            "sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]\nplayers: 2-4\n"
            "equipment: {cards: [{decks: 1}]}\ndeal: {each: 7, upcard: 1}\ngoal: {winner: high, target: 500}\n")
    editions = ('{id: "2026.1", year: 2026, revision: 1, label: Revision 1 (Jan/2026), date: "2026-01-01"}\n'
                '  - {id: "2026.2", year: 2026, revision: 2, label: Revision 2 (Nov/2026), date: "2026-11-01"}')
    root = make_project(tmp_path / "book", {"games": [game], "edition": editions, "current": "2026.2",
                                            "freeze": "2026.1", "then": []})
    for name in ("templates", "mkdocs.yml"):
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy)(ROOT / name, root / name)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "the book")
    assert rulebook(root, "edition", "new", "2026.3", "--label", "Revision 3 (Dec/2026)").returncode == 0
    monkeypatch.setenv(*ONE_RENDER_PROCESS)
    run = rulebook(root, "publish")
    assert run.returncode == 0, run.stderr
    versions = json.loads(_git(root, "show", "gh-pages:versions.json"))
    assert [v["version"] for v in versions] == ["2026.3", "2026.2", "2026.1"]
    assert [v["aliases"] for v in versions] == [["latest"], [], []]
    files = _git(root, "ls-tree", "-r", "--name-only", "gh-pages").splitlines()
    for version in ("2026.1", "2026.2", "2026.3"):
        assert f"{version}/index.html" in files and f"{version}/games/demo/index.html" in files, version
        assert f"{version}/downloads/metzker-book-of-card-game-rules-{version}.pdf" in files, version
    assert _git(root, "show", "gh-pages:latest").strip() == "2026.3"  # mike's alias: a link to the version
    assert 'href="latest/"' in _git(root, "show", "gh-pages:index.html")  # the site's root goes to the newest

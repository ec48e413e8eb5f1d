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

import contextlib
import io
import json
import re
import subprocess
from pathlib import Path

import pytest

from generator.book import index as book_index
from generator.book.library import load_library
from generator.checks import run_checks
from tests.conftest import ROOT, copy_project, small_project
from tests.pagetext import once_per_file

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
    out = {"book.html": book_html(lib), "as printed": json.dumps(book_index.printed_pages(lib), sort_keys=True)}
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
    """The command as the maintainer types it: its arguments parsed by the command line, its exit code, what it
    prints on each stream. Run in this process (``cli.main``), not a Python of its own: starting one and importing
    the generator cost 0.5 CPU-s a command, ten times a run (tests/test_cli.py runs the command itself)."""
    from generator.cli import main

    out, err = io.StringIO(), io.StringIO()  # not a terminal, as a captured child's streams are not
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["--root", str(root), *args])
        except SystemExit as exc:  # the parser's refusal of the arguments
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(["rulebook", "--root", str(root), *args], code, out.getvalue(), err.getvalue())


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
    assert book_index.index_entry(load_library(root, "2026.3"), "sticks") is None
    assert book_index.index_entry(load_library(root, "2026.2"), "sticks") is not None


# A published record is sealed (rules_data/frozen/<id>/SHA256SUMS, its digest in book.yaml): a game first printed in
# 2026.3, changed in its data and in 2026.3's record together, is an error at the record's file, from validate and
# from check-pr; so is a record rewritten with its seal, which only the base of the change shows.
def _seal_broken(root: Path, tmp: Path, also_seal: bool) -> tuple[Path, list[str], str]:
    import shutil

    from generator.book.editor import BookFile
    from generator.book.frozen import MANIFEST, folder, record_digest

    copy = shutil.copytree(root, tmp / "book")
    _git(copy, "add", "-A")
    _git(copy, "commit", "-qm", "2027.1 as it stands")
    _edit(copy, "rules_data/crazy-eights.yaml", "target: 500", "target: 600")
    _edit(copy, "rules_data/frozen/2026.3/crazy-eights.yaml", "goal.target: 500", "goal.target: 600")
    if also_seal:  # the digests and the seal written again, as if the record had been published so
        record = folder(copy, "2026.3")
        (record / MANIFEST).unlink()
        from generator.book.frozen import _manifest
        (record / MANIFEST).write_text(_manifest(record), encoding="utf-8")
        book = copy / "rules_data" / "book.yaml"
        edited = BookFile(book.read_text(encoding="utf-8"))
        edited.seal("2026.3", record_digest(record))
        book.write_text(edited.text(), encoding="utf-8")
    errors = [f"{f.path}:{f.line}: {f.check}: {f.message}" for f in run_checks(load_library(copy))
              if f.severity == "error"]
    run = rulebook(copy, "check-pr", "--base", "HEAD")
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    return copy, errors, run.stdout


def test_a_game_and_its_published_record_changed_together_is_an_error_at_the_record(lifecycle, tmp_path):
    _, errors, summary = _seal_broken(lifecycle["root"], tmp_path, also_seal=False)
    frozen = "rules_data/frozen/2026.3/crazy-eights.yaml"
    assert len(errors) == 1 and errors[0].startswith(f"{frozen}:1: frozen.changed: {frozen} was changed after 2026.3 "
                                                     "was published"), errors
    assert "put it back" in errors[0] and "errata.yaml" in errors[0]
    assert "rules_data/crazy-eights.yaml" not in errors[0]  # not the game file the maintainer meant to change
    assert f"`{frozen}:1` frozen.changed" in summary and "No errors" not in summary, summary


def test_a_record_rewritten_with_its_seal_is_named_by_check_pr(lifecycle, tmp_path):
    _, errors, summary = _seal_broken(lifecycle["root"], tmp_path, also_seal=True)
    assert not [e for e in errors if "frozen.changed" in e]  # the clone alone cannot tell the seal was rewritten
    for path in ("rules_data/frozen/2026.3/crazy-eights.yaml", "rules_data/frozen/2026.3/SHA256SUMS"):
        # the message's own text is Markdown-literal in the summary (its underscores escaped), the place a code span
        shown = path.replace("_", "\\_")
        assert f"`{path}:1` frozen.changed: this change changes {shown}, part of 2026.3's record" in summary, summary
    assert re.search(r"`rules_data/book\.yaml:\d+` frozen\.changed: this change changes the seal of 2026\.3's record",
                     summary), summary


# The book and its score sheets rendered in one process, not side by side in two (render/pdf/worker.py): the same
# files, without a second process loading the fonts again (about 0.4 CPU-s a render); the suite's workers keep both
# CPUs busy already. Every other build in the suite renders them side by side, as `make` does.
ONE_RENDER_PROCESS = ("RULEBOOK_PDF_JOBS", "1")


@pytest.fixture(scope="module")
def new_builds(lifecycle, tmp_path_factory):
    """2026.3 and 2027.1, each built as `make` builds it: site and PDF (the PDFs in one process: ONE_RENDER_PROCESS)."""
    from generator.commands.build import build
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


@once_per_file
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
     "edition 2026.2 already exists", "ID"),
    ("an earlier id", ["edition", "new", "2026.1", "--label", "Revision 1 (Jan/2026)"], "already exists", "ID"),
    ("an id before the current one", ["edition", "new", "2025.9", "--label", "Revision 9 (Dec/2025)"],
     "is not later than 2026.2", "ID"),
    ("not an id", ["edition", "new", "2026.3b", "--label", "Revision 3 (Dec/2026)"],
     "'2026.3b' is not an edition id", "ID"),
    ("a label of another revision", ["edition", "new", "2026.3", "--label", "Revision 4 (Dec/2026)"],
     "says revision 4, but 2026.3 is revision 3", "--label"),
    ("a label of another year", ["edition", "new", "2027.1", "--label", "Revision 1 (Jan/2026)"],
     "names another year than 2027", "--label"),
    ("an empty label", ["edition", "new", "2026.3", "--label", " "], "the label is empty", "--label"),
    ("a date before the last edition", ["edition", "new", "2026.3", "--label", "Revision 3 (Dec/2026)", "--date",
                                        "2026-01-01"], "2026-01-01 is before 2026.2's date (2026-11-21)", "--date"),
    *[(f"the date {day}", ["edition", "new", "2026.3", "--label", "Revision 3 (Dec/2026)", "--date", day],
       f"'{day}' is not a day of the calendar written YYYY-MM-DD", "--date")
      for day in ("2027-02-30", "2026-12-32", "2026-00-10", "20261220", "2026-12-5", "2026-12-20T10:00", "Dec 20")],
]
AFTER_OPENING = [
    ("a false evidence kind", [("content/hearts.md", "may not be led", "may never be led"),
                               ("rules_data/errata.yaml", "errata:\n", "errata:\n  - id: hearts-never\n    edition: \"2026.3\"\n"
                                "    file: content/hearts.md\n    published: may not be led\n    corrected: may never be led\n"
                                "    check: spelling.unknown_word\n    note: x\n    evidence: {kind: spelling, why: Misspelt.}\n")],
     "erratum 'hearts-never': a spelling correction changes only misspelt words, each to a near spelling of itself, "
     "but it changes 'not' -> 'never', and 'not' is not misspelt",
     "rules_data/errata.yaml"),
    ("a decision without a reason", [("content/hearts.md", "may not be led", "may never be led"),
                                     ("rules_data/revisions.yaml", "revisions: []\n", REVISION.replace("WHY", '" "'))],
     "why: say in one sentence what was changed and why", "rules_data/revisions.yaml"),
    ("a change to the frozen edition", [("content/rummoli.md", "4 or more is best", "5 or more is best")],
     "this changes the 2026.1 and 2026.2 editions as published", "content/rummoli.md"),
    ("a game retired without a reason", [("rules_data/sticks.yaml", 'introduced: "2026.1"\n',
                                          'introduced: "2026.1"\nretired: "2026.3"\n')],
     "retired: 2026.3 with no revision saying why", "rules_data/sticks.yaml"),
    # a decision filed under an edition already printed: which edition is open
    ("a decision filed under a frozen edition", [("content/hearts.md", "may not be led", "may never be led"),
                                                 ("rules_data/revisions.yaml", "revisions: []\n",
                                                  REVISION.replace("WHY", "Stricter.").replace("2026.3", "2026.2"))],
     "revision 'hearts-never-led' is filed under 2026.2, which is published and frozen (so it changes the 2026.2 "
     "edition as printed): 2026.3 is the edition open for changes: write edition: \"2026.3\"",
     "rules_data/revisions.yaml"),
    ("a correction filed under a frozen edition", [("content/hearts.md", "may not be led", "may not bee led"),
                                                   ("rules_data/errata.yaml", "errata:\n", "errata:\n  - id: hearts-bee\n"
                                                    "    edition: \"2026.2\"\n    file: content/hearts.md\n"
                                                    "    published: may not be led\n    corrected: may not bee led\n"
                                                    "    check: proofread\n    note: x\n    evidence: {kind: usage, why: x}\n")],
     "erratum 'hearts-bee' is filed under 2026.2, which is published", "rules_data/errata.yaml"),
    ("a game retired under a frozen edition", [
        ("rules_data/sticks.yaml", 'introduced: "2026.1"\n', 'introduced: "2026.1"\nretired: "2026.2"\n'),
        ("rules_data/revisions.yaml", "revisions: []\n", "revisions:\n  - id: sticks-gone\n    edition: \"2026.2\"\n"
         "    date: \"2026-12-01\"\n    kind: game_retired\n    game: sticks\n    why: Lost.\n")],
     "revision 'sticks-gone' is filed under 2026.2", "rules_data/revisions.yaml"),
    ("a variant added under a frozen edition", [
        ("rules_data/hearts.yaml", "keeps: points\n", 'keeps: points\nvariants:\n  - {id: house, title: House Hearts, '
         'introduced: "2026.2", sources: [], players: 4,\n      from_game: {equipment: same, deal: same, scoring: same, goal: same}}\n'),
        ("rules_data/revisions.yaml", "revisions: []\n", "revisions:\n  - id: house-added\n    edition: \"2026.2\"\n"
         "    date: \"2026-11-01\"\n    kind: variant_added\n    game: hearts\n    variant: house\n    why: Ours.\n"),
        ("content/hearts.house.md", "", "Pass three cards to the left before each hand.\n")],
     "revision 'house-added' is filed under 2026.2", "rules_data/revisions.yaml"),
    # a day the calendar does not have, in a decision and in an edition: one line, not a traceback from build
    ("a decision on a day the calendar lacks", [("content/hearts.md", "may not be led", "may never be led"),
                                                ("rules_data/revisions.yaml", "revisions: []\n",
                                                 REVISION.replace("WHY", "Stricter.").replace("2026-12-01", "2027-02-30"))],
     "date: not a day of the calendar written YYYY-MM-DD", "rules_data/revisions.yaml"),
    ("an edition on a day the calendar lacks", [("rules_data/book.yaml", 'date: "2026-12-20"', 'date: "2026-12-32"')],
     "date: not a day of the calendar written YYYY-MM-DD", "rules_data/book.yaml"),
    ("a decision dated as a time", [("content/hearts.md", "may not be led", "may never be led"),
                                    ("rules_data/revisions.yaml", "revisions: []\n",
                                     REVISION.replace("WHY", "Stricter.").replace("2026-12-01", "2026-12-01T10:00"))],
     "date: not a day of the calendar written YYYY-MM-DD", "rules_data/revisions.yaml"),
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
    """Each of the command's own arguments refused in one line that names it (not a line of book.yaml)."""
    from generator.cli import main

    root, book = project
    assert main(["--root", str(root), *args]) == 1
    err = capsys.readouterr().err
    [line] = err.splitlines()
    assert line.startswith(f"error: {where}: ") and words in line and "book.yaml" not in line, line
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
        if old:
            _edit(root, file, old, new)
        else:  # a new file
            (root / file).write_text(new, encoding="utf-8")
    assert main(["--root", str(root), "validate"]) == 1
    out = capsys.readouterr()
    found = [line for line in (out.out + out.err).splitlines()
             if re.match(r"[\w./-]+:\d+(:\d+)?: ", line) and not line.endswith("(warning)")]
    assert len(found) == 1 and found[0].startswith(f"{where}:") and words in found[0], found


def test_a_game_added_without_a_decision_is_reported_as_a_retired_one_is(opened, tmp_path, capsys):
    """`rulebook new-game` cites no source it was not given; the game it makes is the family's own, and its
    addition a decision: without one, validate says what to record, and with one it validates."""
    import shutil

    from generator.cli import main

    root = shutil.copytree(opened, tmp_path / "book")
    assert main(["--root", str(root), "new-game", "Crazy Eights"]) == 0
    assert "game_added" in capsys.readouterr().out
    data = (root / "rules_data" / "crazy-eights.yaml").read_text(encoding="utf-8")
    assert "seed:" not in data and "sources: []" in data
    assert main(["--root", str(root), "validate"]) == 1
    found = [line for line in capsys.readouterr().out.splitlines() if re.match(r"[\w./-]+:\d+: ", line)]
    assert len(found) == 1 and found[0].startswith("rules_data/crazy-eights.yaml:") and \
        "revision.missing: introduced: 2026.3 with no revision saying why the family added it (it cites no source" \
        in found[0], found
    _append(root, "rules_data/revisions.yaml", "revisions:\n  - id: crazy-eights-added\n    edition: \"2026.3\"\n"
            "    date: \"2026-12-01\"\n    kind: game_added\n    game: crazy-eights\n    why: Played every visit.\n")
    assert main(["--root", str(root), "validate"]) == 0
    # A page cites only what it was given: no source line for the family's own game; a game of the book cites it.
    from generator.render.views.pages import game_page

    lib = load_library(root)
    assert game_page(lib, lib.games["crazy-eights"]).sources() == []
    assert "book as published" in " ".join(game_page(lib, lib.games["hearts"]).sources())
    # A variant the family adds to a game of the book, with no source, needs its decision too.
    hearts = root / "rules_data" / "hearts.yaml"
    hearts.write_text(hearts.read_text(encoding="utf-8") + 'variants:\n  - {id: house, title: House, introduced: '
                      '"2026.3", sources: [], players: 4}\n', encoding="utf-8")
    found = [f for f in run_checks(load_library(root)) if f.check == "revision.missing"]
    assert [f.path for f in found] == ["rules_data/hearts.yaml"] and "kind: variant_added" in found[0].message, found
    # A game taken in 2026.3 from a document 2026.2 transcribed is a decision too; one from a document book.yaml says
    # 2026.3 takes in (transcribed_in) is transcribed, as 2026.2's additions are.
    hearts.write_text(hearts.read_text(encoding="utf-8").replace('sources: [], players: 4}', 'sources: [{seed: '
                      '001_59fee6dd4a7ef7b3.txt}], players: 4}'), encoding="utf-8")
    found = [f for f in run_checks(load_library(root)) if f.check == "revision.missing"]
    assert [f.path for f in found] == ["rules_data/hearts.yaml"] and "it cites 001_59fee6dd4a7ef7b3.txt, which " \
        "rules_data/book.yaml does not say 2026.3 took in" in found[0].message, found
    _edit(root, "rules_data/book.yaml", 'title: a family games blog, transcribed_in: "2026.2"}',
          'title: a family games blog, transcribed_in: "2026.2"}\n  - {seed: 005_new.txt, title: a new page, '
          'transcribed_in: "2026.3"}')
    hearts.write_text(hearts.read_text(encoding="utf-8").replace("001_59fee6dd4a7ef7b3.txt", "005_new.txt"),
                      encoding="utf-8")
    assert not [f for f in run_checks(load_library(root)) if f.check == "revision.missing"]


@pytest.mark.parametrize("file,old,new", [
    ("rules_data/book.yaml", 'date: "2026-11-21"', 'date: "2027-02-30"'),
    ("rules_data/revisions.yaml", "revisions: []\n",
     REVISION.replace("WHY", "Stricter.").replace("2026-12-01", "2027-02-30").replace('"2026.3"', '"2026.2"')),
], ids=["an edition", "a decision"])
def test_a_day_the_calendar_lacks_is_one_line_from_validate_and_build(project, tmp_path, capsys, file, old, new):
    """Not a pass from validate and a traceback from build: the same one line from both."""
    from generator.cli import main

    root, _ = project
    _edit(root, file, old, new)
    lines = []
    for command in (["validate"], ["build", "--out", str(tmp_path / "out")]):
        assert main(["--root", str(root), *command]) == 1
        out = capsys.readouterr()
        assert "Traceback" not in out.err
        lines.append([line for line in (out.out + out.err).splitlines() if line.startswith(f"{file}:")])
    assert lines[0] == lines[1] and len(lines[0]) == 1 and "not a day of the calendar written YYYY-MM-DD" in lines[0][0]
    assert not (tmp_path / "out").exists()


def test_a_game_added_under_a_frozen_edition_is_told_the_open_one(opened, tmp_path, capsys):
    import shutil

    from generator.cli import main

    root = shutil.copytree(opened, tmp_path / "book")
    assert main(["--root", str(root), "new-game", "Spoons"]) == 0
    _edit(root, "rules_data/spoons.yaml", 'introduced: "2026.3"', 'introduced: "2026.2"')
    _append(root, "rules_data/revisions.yaml", "revisions:\n  - id: spoons-added\n    edition: \"2026.2\"\n"
            "    date: \"2026-11-01\"\n    kind: game_added\n    game: spoons\n    why: A hit.\n")
    capsys.readouterr()
    assert main(["--root", str(root), "validate"]) == 1
    found = [line for line in capsys.readouterr().out.splitlines() if re.match(r"[\w./-]+:\d+: ", line)]
    assert len(found) == 1 and "edition.frozen: revision 'spoons-added' is filed under 2026.2" in found[0] \
        and "2026.3 is the edition open for changes" in found[0], found
    file, line = found[0].split(":")[:2]
    assert file == "rules_data/revisions.yaml"
    assert (root / file).read_text(encoding="utf-8").splitlines()[int(line) - 1].strip() == 'edition: "2026.2"'



def test_a_release_stopped_by_errors_counts_them_right(project, capsys):
    from generator.cli import main

    root, book = project
    _edit(root, "content/hearts.md", "may not be led", "may never be led")
    assert main(["--root", str(root), "edition", "new", "2026.3", "--label", "Revision 3 (Dec/2026)"]) == 1
    err = capsys.readouterr().err.splitlines()
    found = [line for line in err if re.match(r"[\w./-]+:\d+: ", line)]
    assert len(found) == 1 and err[-1] == "error: 1 error(s) in 2026.2: correct them before it is printed and 2026.3 " \
                                         "opened", err
    assert (root / "rules_data" / "book.yaml").read_text(encoding="utf-8") == book


def test_a_release_whose_new_edition_does_not_validate_is_undone(project, capsys, monkeypatch):
    """Should the edition just opened not validate, the release stops at its error, book.yaml and the freeze undone.

    No edit of the data passes validate today and fails only in the next edition (a game waiting for it names an
    edition book.yaml does not list: an error at once, edition.unlisted); a check that finds an error in the new
    edition alone stands in for the next such check."""
    import generator.checks as checks
    from generator.cli import main
    from generator.errors import Problem

    root, book = project
    real = checks.run_checks

    def run_checks(lib, *args, **kwargs):
        found = real(lib, *args, **kwargs)
        if lib.edition.id == "2026.3":
            found = [*found, Problem("content/trash.md", 3, "prose.no_rules", "found only in the edition opened")]
        return found

    monkeypatch.setattr(checks, "run_checks", run_checks)
    assert main(["--root", str(root), "validate"]) == 0
    capsys.readouterr()
    assert main(["--root", str(root), "edition", "new", "2026.3", "--label", "Revision 3 (Dec/2026)"]) == 1
    err = capsys.readouterr().err
    assert "content/trash.md:3" in err and "found only in the edition opened" in err and "Traceback" not in err, err
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
    refused = rulebook(root, "publish")  # 2026.3 is opened, not committed: publish builds commits
    assert refused.returncode == 1 and "rules_data/" in refused.stderr and "--allow-dirty" in refused.stderr
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "open 2026.3")
    built = _git(root, "rev-parse", "HEAD").strip()
    monkeypatch.setenv(*ONE_RENDER_PROCESS)
    run = rulebook(root, "publish")
    assert run.returncode == 0, run.stderr
    # Each deploy names the commit that holds the edition it built.
    assert f"Deployed 2026.3 (Revision 3 (Dec/2026)) built from commit {built}" in _git(root, "log", "--format=%s",
                                                                                         "gh-pages")
    versions = json.loads(_git(root, "show", "gh-pages:versions.json"))
    assert [v["version"] for v in versions] == ["2026.3", "2026.2", "2026.1"]
    assert [v["aliases"] for v in versions] == [["latest"], [], []]
    files = _git(root, "ls-tree", "-r", "--name-only", "gh-pages").splitlines()
    for version in ("2026.1", "2026.2", "2026.3"):
        assert f"{version}/index.html" in files and f"{version}/games/demo/index.html" in files, version
        assert f"{version}/downloads/fixture-book-{version}.pdf" in files, version  # the name the book's title makes
    assert _git(root, "show", "gh-pages:latest").strip() == "2026.3"  # mike's alias: a link to the version
    # Each version can say that a newer one exists, and links it (assets/editions.js: tests/test_browser.py reads it).
    for version in ("2026.1", "2026.2", "2026.3"):
        page = _git(root, "show", f"gh-pages:{version}/games/demo/index.html")
        assert "data-newest-edition" in page and "assets/editions.js" in page and f"{version}/assets/editions.js" in files
    assert 'href="latest/"' in _git(root, "show", "gh-pages:index.html")  # the site's root goes to the newest


# A decision changes its game's page in the edition that makes it, and the page says so, linked to the decision under
# What changed: (edition, game, what the page says, the decision, words of its reason); None: the page says nothing of
# a decision (a game only corrected, or changed in another edition: the errata, and that edition, say so).
NOTES = [
    ("2026.3", "hearts", "Changed in 2026.3", "hearts-never-led", "nobody opens with hearts to run the suit early"),
    ("2026.3", "crazy-eights", "Added in 2026.3", "crazy-eights-added", "The grandchildren play it every visit"),
    ("2026.3", "trash", None, None, None),
    ("2026.3", "euchre", None, None, None),
    ("2027.1", "euchre", "Changed in 2027.1", "euchre-to-eleven", "before the pie was out of the oven"),
    ("2027.1", "hearts", "Changed in 2027.1", "house-hearts-added", "passes cards before each hand"),
    ("2027.1", "spoons", "Added in 2027.1", "spoons-added", "Spoons was the hit of the holidays."),
    ("2027.1", "crazy-eights", None, None, None),
    ("2027.1", "rummoli", None, None, None),
]


@once_per_file
def _pdf(path: Path) -> tuple[object, dict[str, int], dict[str, set[int]], list[str]]:
    """The book's reader, its named destinations' pages, the pages linking to each, and each page's text: read once a
    file (several tests read each new edition's book; pypdf took 0.3 s to read its text, each time)."""
    from pypdf import PdfReader

    reader = PdfReader(path)
    dests = {name: reader.get_destination_page_number(d) for name, d in reader.named_destinations.items()}
    links = {}  # a named destination -> the pages (indexes) that link to it
    for i, page in enumerate(reader.pages):
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            target = annot.get("/Dest") or (annot.get("/A") or {}).get("/D")
            if annot.get("/Subtype") == "/Link" and target is not None:
                links.setdefault(str(target), set()).add(i)
    return reader, dests, links, [page.extract_text() for page in reader.pages]


@pytest.mark.parametrize("edition,game,label,decision,why", NOTES, ids=[f"{n[0]} {n[1]}" for n in NOTES])
def test_a_game_a_decision_changed_says_so_on_its_page(lifecycle, new_builds, edition, game, label, decision, why):
    import html as html_module

    from generator.render.pdf.book import book_html

    site = new_builds[edition] / "site"
    page = (site / "games" / game / "index.html").read_text(encoding="utf-8")
    text = _article(site / "games" / game / "index.html")
    book = book_html(load_library(lifecycle["root"], edition))
    article = re.search(rf'<article class="game" id="game-{game}".*?</article>', book, re.S)[0]
    notes = re.findall(r'<p class="changed-note">(.*?)</p>', article, re.S)
    if label is None:
        assert "Changed in" not in text and "Added in" not in text and notes == [], (text[:300], notes)
        return
    # The site: the decision's one sentence under the page's title, and a link to it under What changed.
    assert f"{label} " in text and why in text and "Changed in 2026.3" not in (text if edition == "2027.1" else "")
    assert text.index(label) < text.index("At a glance")
    href = re.search(rf'href="([^"#]*)#decision-{decision}"', page)
    assert href and (site / "games" / game / href[1]).resolve() == (site / "changes").resolve(), href
    assert f'id="decision-{decision}"' in (site / "changes" / "index.html").read_text(encoding="utf-8")
    # Print: the same sentence, linked to the decision where What changed prints it.
    flat = " ".join(html_module.unescape(re.sub(r"<[^>]+>", " ", " ".join(notes))).split())
    assert flat.startswith(f"{label}: ") and why in flat, flat
    assert f'href="#decision-{decision}"' in article
    _, dests, links, texts = _pdf(new_builds[edition] / "pdf" / f"metzker-book-of-card-game-rules-{edition}.pdf")
    # The destination is the decision under What changed, with its reason (the game's page has the same words).
    there = " ".join(texts[dests[f"decision-{decision}"]].split())
    assert "Decided " in there and " ".join(why.split()[:4]) in there, there[:300]
    assert links.get(f"decision-{decision}"), "no page links to the decision"
    game_pages = {i for i, text in enumerate(texts) if why.split()[0] in text and label in text}
    assert links[f"decision-{decision}"] & game_pages, (links[f"decision-{decision}"], game_pages)


@pytest.mark.parametrize("edition", ["2026.3", "2027.1"])
def test_what_changed_points_to_its_own_editions_corrections(new_builds, edition):
    site = new_builds[edition] / "site"
    anchor = "errata-" + edition.replace(".", "-")
    changes = (site / "changes" / "index.html").read_text(encoding="utf-8")
    errata = (site / "errata" / "index.html").read_text(encoding="utf-8")
    # The site: a link to this edition's corrections on the errata page, where they are headed.
    assert f'href="../errata/#{anchor}"' in changes
    assert re.search(rf'<h2 class="errata-edition" id="{anchor}">Corrected in {edition} ', errata)
    # Print: the page the errata list this edition's corrections on, which is where the book prints them.
    reader, dests, _, texts = _pdf(new_builds[edition] / "pdf" / f"metzker-book-of-card-game-rules-{edition}.pdf")
    flat = " ".join(_pdf_text(new_builds[edition] / "pdf" / f"metzker-book-of-card-game-rules-{edition}.pdf").split())
    named = re.search(r"are listed under Errata, page (\w+),", flat)[1]
    assert named == reader.page_labels[dests[anchor]]
    assert f"Corrected in {edition}" in texts[dests[anchor]]


def test_the_note_on_the_index_introduces_the_errata_and_each_marks_the_words_it_changed(new_builds):
    site = new_builds["2026.3"] / "site" / "errata" / "index.html"
    page = site.read_text(encoding="utf-8")
    article = page[page.index("<article"):page.index("</article>")]
    # The note is the introduction's, before the list, and no correction of it.
    note = article.index("About the index.")
    assert note < article.index('<div class="errata">') and '<aside class="errata-intro"' in article[:note]
    assert "The book said: <span class=\"erratum-said\"><del>Shufle</del> well.</span>" in article
    assert "It now says: <span class=\"erratum-says\"><ins>Shuffle</ins> well.</span>" in article
    # Print: the same, the note before the first edition's heading and outside every table.
    flat = " ".join(_pdf_text(new_builds["2026.3"] / "pdf" / "metzker-book-of-card-game-rules-2026.3.pdf").split())
    errata = flat[flat.index("Errata Corrections of mistakes"):]
    assert errata.index("About the index.") < errata.index("Corrected in 2026.3")


def test_a_build_of_one_edition_has_no_banner_and_no_script_for_other_editions(new_builds):
    """The banner and assets/editions.js join the versions mike deploys; a plain build is one edition: it has neither."""
    site = new_builds["2026.3"] / "site"
    page = (site / "games" / "hearts" / "index.html").read_text(encoding="utf-8")
    assert "data-newest-edition" not in page and "editions.js" not in page
    assert not (site / "assets" / "editions.js").exists()


@pytest.mark.parametrize("why", ["Two lines\n\nof *reasons* <b>bold</b> & [a link](http://x.example).",
                                 "  Spaces\tand a # hash at the start of a line\n# like this."])
def test_a_decisions_sentence_is_printed_as_text_inside_its_note(why):
    """The reason is the family's text, printed as written: no Markdown, no HTML, and all of it inside the note."""
    import markdown

    from generator.book.model import Revision
    from generator.render.site.docs import game_markdown, site_environment
    from generator.render.views.markup import PROSE_EXTENSIONS
    from generator.render.views.pages import game_page

    lib = load_library(ROOT)
    lib.revisions = [*lib.revisions, Revision(id="hearts-why", edition=lib.edition.id, date="2026-11-01", kind="rule",
                                              file="content/hearts.md", before="a", after="b", why=why)]
    text = game_markdown(site_environment(lib), game_page(lib, lib.games["hearts"]))
    page = markdown.markdown(text, extensions=PROSE_EXTENSIONS)
    note = re.search(r'<div class="admonition info">(.*?)</div>', page, re.S)[1]
    assert "<b>" not in note and "<em>" not in note and "<h1" not in note and 'href="http' not in note, note
    assert " ".join(why.split()).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") in \
        " ".join(re.sub(r"\\(.)", r"\1", note).split()), note
    assert 'href="../changes.md#decision-hearts-why"' in note

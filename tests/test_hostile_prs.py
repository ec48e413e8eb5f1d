"""Hostile pull requests, each a change a contributor with bad intent (or a careless one) could send: the check
judges it by the base's lists, says what it changes, prints contributor text as text, and always reports. Each
is a temporary git repository of the tests' own small book (``tests/pullrequests.py``: its 2026.1 published), the
base committed, the change on top."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.cli import main
from tests import hostile
from tests.pullrequests import append, commit, edit, pr_book


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """The book (Knock Golf, Black Lady, Salad Bowl, Sevens and its Late Sevens, Dice (Ten Thousand)), committed."""
    return pr_book(tmp_path_factory.mktemp("hostile") / "repo")


def erratum(id_: str, file: str, published: str, corrected: str, kind: str, why: str, edition: str = "2026.2") -> str:
    return (f"  - id: {id_}\n    edition: \"{edition}\"\n    file: {file}\n    published: \"{published}\"\n"
            f"    corrected: \"{corrected}\"\n    check: proofread\n    note: A slip.\n    evidence:\n"
            f"      kind: {kind}\n      why: \"{why}\"\n")


def errata(repo: Path, text: str) -> None:
    path = repo / "rules_data/errata.yaml"
    old = path.read_text(encoding="utf-8")
    if "\n- id:" in old:  # written unindented (the small book's, dumped)
        text = text.replace("\n  ", "\n").removeprefix("  ")
    path.write_text(old.replace("errata: []", "errata:") + text if "errata: []" in old else old + text,
                    encoding="utf-8")


def decision(repo: Path, text: str) -> None:
    edit(repo, "rules_data/revisions.yaml", "revisions: []", "revisions:\n" + text)


HECK = "content/sevens.late-sevens.md"  # a variant 2026.2 adds: its words may change without a record


def confusables_licence(r: Path) -> None:  # "less" made "more" as a real-word slip, with the pair it needs
    edit(r, "content/sevens.md", "has 1 less card dealt", "has 1 more card dealt")
    errata(r, erratum("sevens-more", "content/sevens.md", "has 1 less card dealt", "has 1 more card dealt",
                      "usage", "“less” was typed for “more”."))
    append(r, "rules_data/confusables.txt", "less more\n")


def dictionary_licence(r: Path) -> None:  # a house word dropped, so that a 'spelling' fix may change it
    file = "content/knock-golf.md"
    line = next(line for line in (r / file).read_text(encoding="utf-8").splitlines() if "scoresheet" in line)
    words = line[max(0, line.index("scoresheet") - 12):line.index("scoresheet") + 10]
    edit(r, file, words, words.replace("scoresheet", "score sheet"))
    errata(r, erratum("golf-score-sheet", file, words, words.replace("scoresheet", "score sheet"), "spelling",
                      "“scoresheet” is misspelt."))
    edit(r, "rules_data/dictionary.txt", "\nscoresheet\n", "\n")


def acceptance_licence(r: Path) -> None:  # the change's own misspelling, accepted in the same change
    edit(r, HECK, "Play the first hand with", "Play the frist hand with")
    append(r, "rules_data/accepted.yaml", f"  - check: spelling.unknown_word\n    files: [{HECK}]\n"
                                          "    edition: \"2026.2\"\n    because: The family writes it so.\n")


def dictionary_word_used(r: Path) -> None:  # a word the change uses, made a house word by the same change
    edit(r, HECK, "Play the first hand with", "Play the first hand (the openhand) with")
    append(r, "rules_data/dictionary.txt", "openhand\n")


def dictionary_alone(r: Path) -> None:  # a list's change landed first, on its own: shown, licensing nothing
    append(r, "rules_data/dictionary.txt", "trumpless\n")


def hidden_by_a_comment(r: Path) -> None:  # a reason that opens an HTML comment, then a rule change after it
    edit(r, "content/ten-dice.md", "A total of 1,000 is required to meld", "A total of 500 is required to meld")
    decision(r, "  - id: dice-meld-500\n    edition: \"2026.2\"\n    date: \"2026-10-01\"\n    kind: rule\n"
                "    file: content/ten-dice.md\n    before: A total of 1,000 is required to meld\n"
                "    after: A total of 500 is required to meld\n    why: \"Quicker games <!-- and *nothing* below\"\n")
    edit(r, HECK, "Play the first hand with", "Play the last hand with")


def commands_in_a_reason(r: Path) -> None:  # a reason over several lines, two of them workflow commands
    append(r, "rules_data/accepted.yaml", "  - check: players.unbounded\n    files: [rules_data/ten-dice.yaml]\n"
                                          "    edition: \"2026.2\"\n    because: |\n      Fine.\n"
                                          "      ::stop-commands::h4token\n      ::error file=README.md,line=1::pwned\n")


def stale_decision(r: Path) -> None:  # a decision whose words its file no longer has
    decision(r, "  - id: golf-stale\n    edition: \"2026.2\"\n    date: \"2026-10-01\"\n    kind: rule\n"
                "    file: content/knock-golf.md\n    before: highest score on each round pays\n"
                "    after: lowest score on each round pays\n    why: A decision the file never took.\n")


def deleted_game(r: Path) -> None:
    for path in [r / "rules_data/sevens.yaml", *r.glob("content/sevens*.md")]:
        path.unlink()
    book = r / "rules_data/book.yaml"
    book.write_text(re.sub(r"(?m)^ *- sevens\n", "", book.read_text(encoding="utf-8")), encoding="utf-8")


def renamed_game(r: Path, old: str = "lady", new: str = "black-lady") -> None:
    for path in [r / f"rules_data/{old}.yaml", *r.glob(f"content/{old}.md"), *r.glob(f"content/{old}.*.md")]:
        path.rename(path.with_name(path.name.replace(old, new, 1)))
    edit(r, f"rules_data/{new}.yaml", f"id: {old}", f"id: {new}")
    edit(r, "rules_data/book.yaml", f"- {old}\n", f"- {new}\n")


def filed_under_frozen(r: Path) -> None:
    edit(r, "content/knock-golf.md", "highest score on each round pays", "highest score in each round pays")
    errata(r, erratum("golf-in-each", "content/knock-golf.md", "highest score on each round pays",
                      "highest score in each round pays", "usage", "“on” for “in”.", edition="2026.1"))


def every_part(r: Path) -> None:  # one file of each part of the project
    (r / "templates/print").mkdir(parents=True, exist_ok=True)
    (r / "templates/print/club.css").write_text("/* the club's own */\n", encoding="utf-8")
    (r / ".github/workflows").mkdir(parents=True, exist_ok=True)
    (r / ".github/workflows/extra.yml").write_text("on: push\n", encoding="utf-8")
    (r / "docs").mkdir(exist_ok=True)
    (r / "docs/notes.md").write_text("Notes.\n", encoding="utf-8")
    (r / "generator/checks").mkdir(parents=True, exist_ok=True)
    (r / "generator/checks/quiet.txt").write_text("x\n", encoding="utf-8")


def new_game(r: Path) -> None:  # the club's own game, decided: the summary states it as its page does
    assert main(["--root", str(r), "new-game", "Parlour Rummy"]) == 0
    decision(r, "  - id: parlour-added\n    edition: \"2026.2\"\n    date: \"2026-11-20\"\n    kind: game_added\n"
                "    game: parlour-rummy\n    why: Played in the parlour.\n")


def taken_in_moved(r: Path) -> None:  # a game from a document taken in before, its decision dodged by moving when
    assert main(["--root", str(r), "new-game", "Cellar Rummy", "--source", "001_printed.txt"]) == 0
    edit(r, "rules_data/book.yaml", "    title: the book as the club printed it\n    transcribed_in: '2026.1'",
         "    title: the book as the club printed it\n    transcribed_in: '2026.2'")


# name: (the change, exit code, annotations that must be there as (level, file, words on the line or None for
# line 1, check), words the summary holds, words it must not hold)
PRS = {
    "a confusable pair licenses its own usage fix": (
        confusables_licence, 1,
        [("error", "rules_data/confusables.txt", "less more", "list.licenses_own_change"),
         ("error", "rules_data/errata.yaml", "kind: usage", "erratum.false_evidence")],
        ["## How the book is checked", "adds the group of confusable words “less more”", "would silence",
         "(**this change's**)"], []),
    "a house word dropped licenses a spelling fix": (
        dictionary_licence, 1,
        [("error", "rules_data/dictionary.txt", ("base", "scoresheet"), "list.licenses_own_change"),
         ("error", "rules_data/errata.yaml", "kind: spelling", "erratum.false_evidence")],
        ["removes the word “scoresheet”", "would silence"], []),
    "an acceptance silences the change's own misspelling": (
        acceptance_licence, 1,
        [("error", "rules_data/accepted.yaml", f"files: [{HECK}]", "list.licenses_own_change"),
         ("warning", HECK, "frist", "spelling.unknown_word")],
        ["accepts spelling.unknown\\_word in content/sevens.late-sevens.md", "unknown word 'frist'"], ["No errors."]),
    "a house word added and used at once": (
        dictionary_word_used, 1,
        [("error", "rules_data/dictionary.txt", "openhand", "list.licenses_own_change"),
         ("warning", HECK, "openhand", "spelling.unknown_word")],
        ["adds the word “openhand”"], []),
    "a house word landed on its own": (
        dictionary_alone, 0, [("warning", "rules_data/dictionary.txt", "trumpless", "list.changed")],
        ["No errors.", "adds the word “trumpless”; it silences nothing"], []),
    "a reason opening an HTML comment": (
        hidden_by_a_comment, 0, [],
        ["Quicker games &lt;!-- and \\*nothing\\* below", "~~1,000~~ **500**", "~~first~~ **last**"], ["<!--"]),
    "workflow commands in a reason": (
        commands_in_a_reason, 1, [("error", "rules_data/accepted.yaml", "because: |", "reason.not_one_line")],
        [], []),
    "a decision that no longer matches its file": (
        stale_decision, 1, [("error", "rules_data/revisions.yaml", "file: content/knock-golf.md", "edition.unloadable")],
        ["no longer matches content/knock-golf.md", "## What this change does to the rules"], []),
    "a published game deleted": (
        deleted_game, 1, [("error", "rules_data/book.yaml", ("first", "games:"), "edition.frozen")],
        ["is deleted: a published game is never deleted", "retire it", "game\\_retired"], ["index.page\\_order"]),
    "a published game given a new id": (
        renamed_game, 1, [("error", "rules_data/black-lady.yaml", "id: black-lady", "edition.frozen")],
        ["a game's id is permanent", "give it back its id ('lady'"], [":0`"]),
    "a published game with errata given a new id": (
        lambda r: renamed_game(r, "ten-dice", "thousand-dice"), 1,
        [("error", "rules_data/errata.yaml", "path: scoring.one_roll.items.1.value", "source.unreadable")],
        ["is permanent once printed"], [":0`"]),
    "a correction filed under the published edition": (
        filed_under_frozen, 1, [("error", "rules_data/errata.yaml", 'edition: "2026.1"', "edition.frozen")],
        ['write edition: "2026.2"'], ["record it with the game's source instead"]),
    "a document's edition moved to spare a decision": (
        taken_in_moved, 1,
        [("error", "rules_data/book.yaml", ("first", "- seed: 001_printed.txt"), "list.licenses_own_change"),
         ("error", "rules_data/cellar-rummy.yaml", "introduced:", "revision.missing")],
        ["changes the edition that took in 001\\_printed.txt: 2026.1 → 2026.2"], []),
    "a new game": (
        new_game, 0, [],
        ["### Games this change adds\n\n#### Parlour Rummy\n\nAs its page states it:", "- Players: 2-4 players",
         "- Deal: 7 cards each", "- To win: High score wins; play to 500", "before Salad Bowl: the 3 games after it"],
        ["Source:", "Sources"]),
    # code and configuration of the check and of the making need a maintainer (issue 59): never a pass
    "a file of each part of the project": (
        every_part, 1, [],
        ["## Every file this change touches", "### How the book is made\n\n- `templates/print/club.css` (added)",
         "### How the book is checked\n\n- `.github/workflows/extra.yml` (added)",
         "- `generator/checks/quiet.txt` (added)", "### Around the book\n\n- `docs/notes.md` (added)"], []),
}
# An annotation at a file's line, or on the run (a change that needs a maintainer: no one line is it)
ANNOTATION = re.compile(r"::(error|warning) (?:file=([^,]+),line=(\d+),)?title=([^:]+)::")


def _line(repo: Path, base: Path, file: str, words: str | tuple[str, str] | None) -> int:
    """The last line of ``file`` that holds ``words`` (what a change appends); ("base", words): in the base's file,
    for what the change removes; ("first", words): the first line."""
    if words is None:
        return 1
    which = -1
    if isinstance(words, tuple):
        repo, which, words = (base if words[0] == "base" else repo), (0 if words[0] == "first" else -1), words[1]
    lines = (repo / file).read_text(encoding="utf-8").splitlines()
    return [n for n, line in enumerate(lines, 1) if words in line][which]


@pytest.mark.parametrize("name", PRS)
def test_a_hostile_pull_request_is_refused_or_shown(base, tmp_path, capsys, name):
    change, code, expected, words, never = PRS[name]
    hostile.tried("pull request")
    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    change(repo)
    commit(repo, name)
    assert main(["--root", str(repo), "check-pr", "--base", "HEAD~1"]) == code
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    # No line a runner would obey but the check's own annotations, each of its form.
    commands = [line for line in out.out.splitlines() if line.lstrip().startswith(("::", "##["))]
    assert all(ANNOTATION.match(line) for line in commands), commands
    shown = {(m[1], m[2], int(m[3] or 0), m[4]) for m in map(ANNOTATION.match, commands)}
    for level, file, on_line, check in expected:
        assert (level, file, _line(repo, base, file, on_line), check) in shown, (level, file, check, shown)
    summary = out.out[out.out.index("## Check of the book"):]
    errors_at = summary.find("error")
    assert code == 0 or errors_at < summary.find("## What this change does"), summary  # errors first
    for w in words:
        assert w in summary, (w, summary)
    for w in never:
        assert w not in summary, (w, summary)


def test_validate_prints_no_workflow_command_from_a_reason(base, tmp_path, capsys):
    repo = tmp_path / "pr"
    shutil.copytree(base, repo)
    commands_in_a_reason(repo)
    assert main(["--root", str(repo), "validate", "--format", "github"]) == 1
    lines = capsys.readouterr().out.splitlines()
    commands = [line for line in lines if line.lstrip().startswith(("::", "##["))]
    assert commands and all(ANNOTATION.match(line) for line in commands), commands
    assert any("reason.not_one_line" in line for line in commands)


def _with_own_code(repo: Path, games: tuple[str, ...] | None = None) -> Path:
    """The book at ``repo`` with a copy of the generator of its own, committed as the base of a change."""
    from tests.conftest import ROOT

    def own_code(book: Path) -> None:
        shutil.copytree(ROOT / "generator", book / "generator", ignore=shutil.ignore_patterns("__pycache__"))

    return pr_book(repo, games, first=own_code)


def _check_pr_by_its_code(repo: Path, message: str) -> subprocess.CompletedProcess:
    """Commit the change, and check it against the base with the change's own code, as CI runs it."""
    import os
    import sys

    commit(repo, message)
    hostile.tried("pull request")
    return subprocess.run([sys.executable, "-m", "generator", "--root", str(repo), "check-pr", "--base", "HEAD~1"],
                          capture_output=True, text=True, cwd=repo, env={**os.environ, "PYTHONPATH": str(repo)})


def test_a_check_silenced_by_its_own_change_is_found_by_the_base_code(tmp_path):
    """A project with code of its own, checked by the change's code (as CI runs it): a change that makes the spelling
    check find nothing and misspells a word is judged by the base's code too, which finds the word: an error at the
    check's file."""
    repo = _with_own_code(tmp_path / "repo")
    edit(repo, *QUIET_SPELLING)
    edit(repo, HECK, "Play the first hand with", "Play the frist hand with")
    done = _check_pr_by_its_code(repo, "a quiet check")
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert "::error file=generator/checks/editorial.py,line=1,title=code.licenses_own_change::" in out, out
    assert f"{HECK}:{_line(repo, repo, HECK, 'frist')} spelling.unknown_word" in out.split("code.licenses_own_change: ")[1], out
    assert "title=spelling.unknown_word" not in out  # the change's own code says nothing of it
    assert "the base's code too" in out


# A change the base's checks refuse, licensed by a list edited in the same change as the checks' code, which the
# code change quiets: (the code's edit, the book's edit, the list and its entry, where the base's code finds it).
ABOUT, GOLF = "content/about.md", "content/knock-golf.md"
QUIET_SPELLING = ("generator/checks/editorial.py", "    house = house_words(lib.lists_root)\n",
                  "    return\n    house = house_words(lib.lists_root)\n")
QUIET_USAGE = ("generator/checks/evidence.py", "word that is not a form of itself, or it changes anything else.\"\"\"\n",
               "word that is not a form of itself, or it changes anything else.\"\"\"\n    return None\n")
PHOEN = (ABOUT, "late night phone calls", "late night phoen calls")
LICENSED_BY_A_LIST = {
    "dictionary.txt": (QUIET_SPELLING, [PHOEN], ("rules_data/dictionary.txt", "phoen\n"),
                       f"{ABOUT}:{{phoen}} spelling.unknown_word"),
    "accepted.yaml": (QUIET_SPELLING, [PHOEN], ("rules_data/accepted.yaml",
                      f"  - check: spelling.unknown_word\n    files: [{ABOUT}]\n    edition: \"2026.2\"\n"
                      "    because: A family word.\n"), f"{ABOUT}:{{phoen}} spelling.unknown_word"),
    "confusables.txt": (QUIET_USAGE, [(GOLF, "tie with the highest score", "tie with the lowest score")],
                        ("rules_data/confusables.txt", "highest lowest\n"), "rules_data/errata.yaml:"),
}


@pytest.mark.parametrize("case", list(LICENSED_BY_A_LIST))
def test_the_base_code_reads_the_base_lists(tmp_path, case):
    """A change that quiets a check (spelling, a usage fix's evidence), brings what it would find (a misspelling of
    the book's own page, a rule changed as a 'usage' fix) and licenses it in a list too: the base's code is run with
    the base's lists, as the change's code is, so it still finds it (under the change's list it found nothing, and
    the change passed)."""
    repo = _with_own_code(tmp_path / "repo", games=("knock-golf",))
    code, edits, (listed, entry), found_at = LICENSED_BY_A_LIST[case]
    edit(repo, *code)
    for file, old, new in edits:
        edit(repo, file, old, new)
    if case == "confusables.txt":  # the rule changed, passed off as a real-word slip
        errata(repo, erratum("golf-lowest", GOLF, "tie with the highest score", "tie with the lowest score", "usage",
                             "“highest” was typed for “lowest”."))
    append(repo, listed, entry)
    done = _check_pr_by_its_code(repo, "a quiet check, and a list to match")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "title=code.licenses_own_change::" in done.stdout, done.stdout
    found = done.stdout.split("title=code.licenses_own_change::")[1].splitlines()[0]
    where = found_at.format(phoen=_line(repo, repo, ABOUT, "phoen")) if "{phoen}" in found_at else found_at
    assert where in found, done.stdout
    if case == "confusables.txt":
        assert "erratum.false_evidence" in found, done.stdout

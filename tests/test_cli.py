"""The rulebook command line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT, as_published, copy_project


def run(*args, cwd=ROOT, env=None):
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True, env=env)


def test_validate_json_lists_findings_with_their_fields():
    result = run("validate", "--format", "json", "--edition", "2026.1")
    findings = json.loads(result.stdout)
    assert isinstance(findings, list)
    for f in findings:
        assert set(f) == {"check", "severity", "path", "line", "game", "message"}


def test_validate_current_edition_exits_zero():
    result = run("validate")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1].startswith("0 errors")


def test_broken_source_exits_one_with_path_line_col(tmp_path):
    project = copy_project(tmp_path)
    (project / "rules_data" / "sweep.yaml").write_text("id: sweep\n  bad: indent\n", encoding="utf-8")
    result = run("--root", str(project), "validate")
    assert result.returncode == 1
    assert "rules_data/sweep.yaml:2:" in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("error: ")


def test_build_prints_the_findings_validate_prints_and_builds_nothing_on_an_error(tmp_path):
    """`make` runs `rulebook build` alone: it must say what `rulebook validate` says, before it builds."""
    project = copy_project(tmp_path / "project")
    validate = run("--root", str(project), "validate")
    built = run("--root", str(project), "build", "--site-only", "--out", str(tmp_path / "out"))
    assert built.returncode == 0, built.stderr
    # every error and warning, and the summary, as validate says them; the accepted ones counted in one line that
    # says where they are listed; then where the build is
    listed = [line for line in validate.stdout.splitlines() if line.startswith("accepted: ")]
    reasons = len(listed)
    accepted = sum(int(line.split()[1]) for line in listed)
    assert accepted > 1 and reasons > 1
    shown = [line for line in validate.stdout.splitlines() if not line.startswith("accepted: ")]
    lines = built.stdout.splitlines()
    assert lines[:len(shown) + 1] == [*shown[:-1], f"{accepted} accepted warnings, for {reasons} reasons given in "
                                      "rules_data/accepted.yaml: `rulebook validate` lists them", shown[-1]]
    assert lines[len(shown) + 1:] == [f"built {tmp_path / 'out'}", f"site: {tmp_path / 'out' / 'site' / 'index.html'}"]
    assert (tmp_path / "out" / "site" / "index.html").is_file()
    prose = project / "content" / "euchre.md"  # a reference to nothing: reference.unknown, an error
    prose.write_text(prose.read_text(encoding="utf-8").replace("{goal.target} wins", "{goal.targte} wins"), encoding="utf-8")
    as_published(project)  # the one error is the slip, not also a change to the printed 2026.1
    validate, built = run("--root", str(project), "validate"), run("--root", str(project), "build", "--site-only",
                                                                    "--out", str(tmp_path / "out2"))
    assert validate.returncode == built.returncode == 1
    assert " error" in validate.stdout and "1 error" in validate.stdout.splitlines()[-1]
    counted = re.compile(r"\d+ accepted warnings?, for \d+ reasons? given in rules_data/accepted\.yaml: ")
    assert [line for line in built.stdout.splitlines() if not counted.match(line)] == \
        [line for line in validate.stdout.splitlines() if not line.startswith("accepted: ")]  # errors, warnings agree
    assert not (tmp_path / "out2" / "site").exists()


def test_validate_ends_at_once_but_prints_everything_and_fails_on_a_finding(tmp_path):
    """The console script ends `validate` without tearing Python down (issue 14): piped output still complete."""
    project = copy_project(tmp_path)
    euchre = project / "rules_data" / "euchre.yaml"
    euchre.write_text(euchre.read_text(encoding="utf-8").replace("\n  each: 5\n", "\n  each: 50\n"), encoding="utf-8")
    as_published(project)
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # as a pipe is for most users
    result = run("--root", str(project), "validate", env=buffered)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.endswith(" games\n")  # to the last character: nothing left in a buffer
    lines = result.stdout.strip().splitlines()
    assert any(line.startswith("rules_data/euchre.yaml:") and "deal.exceeds_deck" in line for line in lines)
    assert lines[-1].startswith("1 error,")  # the summary line: the report was printed to its end
    as_json = run("--root", str(project), "validate", "--format", "json", env=buffered)
    reported = [f for f in json.loads(as_json.stdout) if f["severity"] != "accepted"]  # accepted: once per reason
    assert as_json.returncode == 1 and len(reported) == sum(not line.startswith("accepted: ") for line in lines) - 1
    assert as_json.stdout.endswith("]\n")


# Every verb that reads a book, with the arguments it needs (diff compares git refs of the book's repository).
BOOK_VERBS = {"validate": [], "build": [], "serve": [], "preview": [], "publish": [], "new-game": ["Crazy Eights"],
              "edition new": ["2030.1", "--label", "Revision 9"], "diff": ["HEAD~1", "HEAD"],
              "check-pr": ["--base", "HEAD"], "freeze": ["2026.1"], "schema": []}


@pytest.mark.parametrize("inside", [False, True], ids=["an empty folder", "a folder inside the book"])
@pytest.mark.parametrize("verb", BOOK_VERBS)
def test_outside_a_book_every_verb_says_where_it_looked_and_offers_root(tmp_path, monkeypatch, capsys, verb, inside):
    """One line, no traceback: the folder looked in, the book it is inside (looked for upward), and --root."""
    from generator.cli import main

    book = tmp_path / "book"
    (book / "rules_data").mkdir(parents=True)
    (book / "rules_data" / "book.yaml").write_text("title: A\n", encoding="utf-8")
    here = book / "content" / "deeper" if inside else tmp_path / "empty"
    here.mkdir(parents=True)
    monkeypatch.chdir(here)
    assert main([*verb.split(), *BOOK_VERBS[verb]]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    assert err.startswith(f"error: {here} is not a book's folder (no rules_data/book.yaml): "), err
    if inside:
        assert f"it is inside the book in {book}; " in err and f"`rulebook --root {book} {verb}`" in err
    else:
        assert f"`rulebook --root DIR {verb}`" in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == sorted(  # nothing written, wherever it ran
        ["book", "rules_data", "book.yaml"] + (["content", "deeper"] if inside else ["empty"]))


@pytest.mark.parametrize("made, what", [(None, "no such folder"), ("file", "not a folder")])
def test_a_root_that_is_no_folder_is_one_line(tmp_path, made, what):
    root = tmp_path / "root"
    if made == "file":
        root.write_text("not a book\n", encoding="utf-8")
    result = run("--root", str(root), "validate")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == f"error: {root}: {what}: give --root a book's folder (the one that holds " \
                            "rules_data/book.yaml)\n"


def test_diff_of_two_book_folders_needs_no_book_where_it_runs(tmp_path):
    """Two folders compared need no book at --root (git refs do: they are the book's repository's)."""
    old, new = copy_project(tmp_path / "old"), copy_project(tmp_path / "new")
    (tmp_path / "elsewhere").mkdir()
    result = run("diff", str(old), str(new), "--format", "text", cwd=tmp_path / "elsewhere")
    assert (result.returncode, result.stdout.strip()) == (0, "No change to the rules."), result.stderr


def test_every_commands_help_names_the_page_that_documents_it(capsys):
    """`rulebook COMMAND --help` ends with the page of docs/ that documents the command, and the section, each there
    (the page ships with the tool: its path on this machine is given too)."""
    import re

    from generator.cli import DOCS, main, parser
    from tests.conftest import ROOT

    commands = {name for name in parser()._subparsers._group_actions[0].choices}  # every verb the parser knows
    assert commands == set(DOCS), commands ^ set(DOCS)
    for name in sorted(commands) + ["edition new"]:
        with pytest.raises(SystemExit):
            main([*name.split(), "--help"])
        said = " ".join(capsys.readouterr().out.split())
        found = re.search(r"Documentation: docs/([\w-]+\.md)(?:, “([^”]+)”)?", said)
        assert found, (name, said[-300:])
        page = (ROOT / "docs" / found[1]).read_text(encoding="utf-8")
        assert not found[2] or re.search(rf"^#+ {re.escape(found[2])}$", page, re.M), (name, found[2])
        assert f"on this machine: {ROOT / 'docs' / found[1]}" in said


def test_the_version_is_the_packages(capsys):
    from importlib.metadata import version

    from generator.cli import main

    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"rulebook {version('rulebook')}"


def test_an_environment_without_a_dependency_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    """An environment made before the tool needed a package (a pull of the tool, no `make` since): one line naming
    the module and what to run, never a traceback."""
    import sys

    from generator.cli import main

    book = tmp_path / "book"
    assert main(["init", str(book), "--title", "The Harbour Lane Club", "--pipeline",
                 "rulebook @ git+https://example.org/rulebook@v0.2.0"]) == 0
    capsys.readouterr()
    monkeypatch.setitem(sys.modules, "anyascii", None)  # an import of it fails as where it is not installed
    assert main(["--root", str(book), "new-game", "Käsekästchen"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: the Python module 'anyascii'") and "`make`" in err, err
    assert not (book / "rules_data" / "kaesekaestchen.yaml").exists()


def test_init_without_the_spelling_package_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    """init reads the spelling word lists' folder (pyspellchecker's): where it is not installed, the one line a
    missing dependency gets, never a traceback, and no book half made."""
    import sys

    from generator.cli import main

    monkeypatch.setitem(sys.modules, "spellchecker", None)  # find_spec then finds nothing, as where not installed
    assert main(["init", str(tmp_path / "book"), "--title", "The Harbour Lane Club", "--pipeline",
                 "rulebook @ git+https://example.org/rulebook@v0.2.0"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: the Python module 'spellchecker'"), err
    assert not (tmp_path / "book").exists()

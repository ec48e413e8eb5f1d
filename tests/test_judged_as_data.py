"""A pull request judged as data by its base's code (issue 59): the change is handed over as a git bundle with its
head's commit id, checked out beside the base's checkout, and judged by the code running the check (the base's),
never by its own; a change to anything but the book's data needs a maintainer, and said so first; a step that could
not be done fails the check in one line. The fixtures are the tests' own small book (``tests/pullrequests.py``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import main
from tests.conftest import ROOT
from tests.pullrequests import append, commit, edit, git, pr_book

PUBLISHED = "The highest score on each round pays the pot."  # words 2026.1 printed, which no change may alter
# A check_pr that passes anything, appended to the module by a hostile head: its check_change says "No errors."
PASSES_ANYTHING = '''

def check_change(root, base, progress=quiet, pictures=None, untrusted=False):
    return Verdict(0, [], "## Check of the book\\n\\nNo errors.\\n", [])
'''


def _head(repo: Path) -> str:
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.fixture(scope="module")
def handed(tmp_path_factory) -> tuple[Path, Path, str]:
    """The base's checkout (the book with the tool's code in it, as the tool's own repository has it, on main) and a
    pull request handed over as a bundle: its head rewrites check_pr to pass anything and changes words 2026.1
    printed."""
    top = tmp_path_factory.mktemp("handed")
    repo = pr_book(top / "repo", games=("knock-golf",))
    git(repo, "branch", "-M", "main")
    shutil.copytree(ROOT / "generator", repo / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    commit(repo, "the tool's code")
    git(repo, "checkout", "-q", "-b", "change")
    append(repo, "generator/commands/check_pr/__init__.py", PASSES_ANYTHING)
    edit(repo, "content/knock-golf.md", PUBLISHED, "The lowest score on each round pays the pot.")
    commit(repo, "the check passes anything; the pot goes to the lowest")
    head = _head(repo)
    git(repo, "bundle", "create", str(top / "change.bundle"), "change", "--not", "main")
    git(repo, "checkout", "-q", "main")  # the judging job's checkout: the base
    git(repo, "branch", "-D", "change")  # the base's repository never had the change: only the bundle holds it
    return repo, top / "change.bundle", head


def test_the_heads_own_code_would_pass_it(handed, tmp_path):
    """What the check ran before: the pull request's checkout, judged by the code in it. The rewritten check_pr says
    "No errors." of a change that alters a published edition: a check the change can rewrite judges nothing."""
    repo, bundle, head = handed
    clone = tmp_path / "checkout"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    git(clone, "fetch", "-q", str(bundle), f"{head}:refs/heads/change")
    git(clone, "checkout", "-q", "change")
    done = subprocess.run([sys.executable, "-m", "generator", "--root", str(clone), "check-pr", "--base", "main"],
                          cwd=clone, env={**os.environ, "PYTHONPATH": str(clone)}, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0 and "No errors." in done.stdout, done.stdout + done.stderr


def _judges_command(workflows: Path, head: str, summary: Path) -> list[str]:
    """The arguments judge.yml's judging step gives ``rulebook`` (its $HEAD_SHA and $GITHUB_STEP_SUMMARY set)."""
    import shlex

    import yaml

    steps = yaml.safe_load((workflows / "judge.yml").read_text(encoding="utf-8"))["jobs"]["judge"]["steps"]
    [run] = [s["run"] for s in steps if "rulebook check-pr" in s.get("run", "")]
    words = shlex.split(run.replace("$HEAD_SHA", head).replace("$GITHUB_STEP_SUMMARY", str(summary)))
    assert words[0] == ".venv/bin/rulebook", words
    return words[1:]


# Whose judge.yml runs: the tool's own, and the one `rulebook init` writes for a book.
JUDGES = {"the tool's": ROOT / ".github" / "workflows", "a book's": ROOT / "templates" / "init" / "dot-github" / "workflows"}


@pytest.mark.parametrize("judge", list(JUDGES))
def test_a_head_that_rewrites_check_pr_still_fails(handed, tmp_path, capsys, monkeypatch, judge):
    """Judged as judge.yml judges it, by its own command in the base's checkout (the change handed over as a bundle):
    the base's code finds the published words changed, and the summary opens with the change to the check's code,
    for a maintainer."""
    repo, bundle, head = handed
    summary = tmp_path / "summary.md"
    (repo / "handed-over").mkdir()
    shutil.copy(bundle, repo / "handed-over" / "change.bundle")
    monkeypatch.chdir(repo)  # the workflow's working folder: the base's checkout
    try:
        code = main(_judges_command(JUDGES[judge], head, summary))
    finally:
        shutil.rmtree(repo / "handed-over")
        shutil.rmtree(repo / "pictures", ignore_errors=True)
    out = capsys.readouterr()
    said = summary.read_text(encoding="utf-8")
    assert code == 1, said
    assert said.startswith("## Needs a maintainer\n") and "- `generator/commands/check_pr/__init__.py`" in said
    assert "**needs a maintainer**, not a pass" in said
    assert "title=edition.frozen::" in out.out and "file=content/knock-golf.md" in out.out
    assert "title=change.needs_maintainer::" in out.out
    # Its published edition is not built as it would publish it (its code is never run here): said, and a failure
    assert "title=check.not_judged::" in out.out and "could not be built as this change would publish them" in said
    assert "No errors." not in said and "Traceback" not in out.err
    # The change's checkout is gone, and the base's checkout is as it was (nothing of the change is left in it)
    assert subprocess.run(["git", "-C", str(repo), "worktree", "list"], capture_output=True, text=True,
                          check=True).stdout.count("\n") == 1
    assert PUBLISHED in (repo / "content/knock-golf.md").read_text(encoding="utf-8")


def _not_a_bundle(top: Path, head: str) -> tuple[str, str]:
    (top / "junk.bundle").write_text("not a bundle\n", encoding="utf-8")
    return str(top / "junk.bundle"), head


def _unrelated(top: Path, head: str) -> tuple[str, str]:
    """A bundle of a history of its own, none of it the base's."""
    other = top / "other"
    other.mkdir()
    git(other, "init", "-q")
    (other / "README.md").write_text("elsewhere\n", encoding="utf-8")
    commit(other, "elsewhere")
    git(other, "bundle", "create", str(top / "other.bundle"), "--all")
    return str(top / "other.bundle"), _head(other)


# case: (the bundle and head handed over, from a scratch folder and the pull request's head; words of the one line)
HANDED_OVER = {
    "no bundle": (lambda top, head: (str(top / "none.bundle"), head), "the change's bundle"),
    "not a bundle": (_not_a_bundle, "could not read the change's bundle junk.bundle"),
    "a head the bundle lacks": (lambda top, head: (str(top / "change.bundle"), "0" * 40), "does not hold its head"),
    "a head named by a branch": (lambda top, head: (str(top / "change.bundle"), "change"), "by its full commit id"),
    "a history of its own": (_unrelated, "no history in common with main"),
}


@pytest.mark.parametrize("case", list(HANDED_OVER))
def test_a_change_that_cannot_be_taken_over_fails_in_one_line(handed, tmp_path, capsys, case):
    """Each step of taking the change over that cannot be done (no bundle, one that is not a bundle or not of the pull
    request's head, a head named by anything but its id) fails the check in one line: never a quiet pass."""
    repo, bundle, head = handed
    shutil.copy(bundle, tmp_path / "change.bundle")
    make, words = HANDED_OVER[case]
    change, named = make(tmp_path, head)
    summary = tmp_path / "summary.md"
    assert main(["--root", str(repo), "check-pr", "--base", "main", "--change", change, "--head", named,
                 "--summary", str(summary)]) == 1
    out = capsys.readouterr()
    lines = [line for line in out.err.splitlines() if line.startswith("error: check-pr could not judge")]
    assert len(lines) == 1 and words in lines[0], out.err
    assert "title=check.not_judged::" in out.out and "No errors." not in summary.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def plain(tmp_path_factory) -> Path:
    """The book alone, committed (no code of its own, as a book's repository is)."""
    return pr_book(tmp_path_factory.mktemp("plain") / "repo", games=("knock-golf",))


# A file a change touches: (its path, the text written, or added at its end when it starts with "+"), and whether the
# check judges it as data. Code or configuration of the
# check or of the making needs a maintainer, whatever it is; the book's sources and prose nothing runs are data.
TOUCHED = {
    "the check's code": ("generator/checks/quiet.py", "QUIET = True\n", False),
    "a template": ("templates/site/main.html", "{% extends 'base.html' %}\n", False),
    "a font": ("templates/fonts/Digits.ttf", "\0\1", False),
    "the site's settings": ("mkdocs.yml", "+\n", False),
    "a module beside them": ("sitecustomize.py", "import os\n", False),
    "a test": ("tests/test_quiet.py", "def test_quiet():\n    pass\n", False),
    "the Makefile": ("Makefile", "all:\n\ttrue\n", False),
    "the lock": ("requirements.lock", "pyyaml==6.0.2\n", False),
    "a workflow": (".github/workflows/check.yml", "on: push\n", False),
    "a benchmark": ("bench/quiet.py", "print(1)\n", False),
    "a source": ("rules_data/dictionary.txt", "+sluffing\n", True),
    "prose about the book": ("README.md", "# The Parlour Book\n", True),
}


@pytest.mark.parametrize("case", list(TOUCHED))
def test_a_change_to_anything_but_data_needs_a_maintainer(plain, tmp_path, capsys, case):
    """The summary opens with the files that are code or configuration, and the verdict is not a pass; a change of
    data alone has no such section."""
    path, text, data = TOUCHED[case]
    repo = tmp_path / "pr"
    shutil.copytree(plain, repo)
    target = repo / path
    target.parent.mkdir(parents=True, exist_ok=True)
    if text.startswith("+"):
        append(repo, path, text[1:])
    else:
        target.write_text(text, encoding="utf-8")
    summary = tmp_path / "summary.md"
    code = main(["--root", str(repo), "check-pr", "--base", "HEAD", "--summary", str(summary)])
    capsys.readouterr()
    said = summary.read_text(encoding="utf-8")
    if data:
        assert code == 0 and "Needs a maintainer" not in said, said
    else:
        assert code == 1 and said.startswith("## Needs a maintainer\n"), said
        assert f"- `{path}`" in said.split("## Check of the book")[0]
        assert "change.needs_maintainer" in said

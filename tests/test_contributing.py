"""CONTRIBUTING.md's worked example, run step by step on a copy of the project, so it stays true.

The guide's fenced blocks are read in order: the data as it was, the command, what it answers,
the CI annotation, the erratum, what `rulebook diff` prints, and the new-game command.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from generator.book.frozen import FROZEN_DIR
from generator.book.library import load_library
from tests.conftest import ROOT, as_published, copy_project

GUIDE = ROOT / "CONTRIBUTING.md"
DATA = "rules_data/canadian-salad.yaml"


def blocks() -> list[tuple[str, str]]:
    """(language, text) of every fenced block of the guide, in order."""
    return re.findall(r"^```(\w+)\n(.*?)^```$", GUIDE.read_text(encoding="utf-8"), re.M | re.S)


def rulebook(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", "--root", str(project), *args],
                          capture_output=True, text=True)


def _command(line: str) -> list[str]:
    """A command the guide shows, as the rulebook arguments it runs (`make validate` runs `rulebook validate`)."""
    line = line.strip()
    if line == "make validate":
        recipe = re.search(r"^validate:.*\n\t(.*)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M).group(1)
        assert recipe.startswith("$(BIN)/rulebook validate"), recipe
        return ["validate"]
    assert line.startswith(".venv/bin/rulebook "), line
    return re.findall(r'"[^"]*"|\S+', line.removeprefix(".venv/bin/rulebook "))


@pytest.fixture(scope="module")
def guide() -> list[tuple[str, str]]:
    found = blocks()
    assert [lang for lang, _ in found] == ["yaml", "sh", "text", "text", "yaml", "text", "text", "yaml", "text", "sh",
                                           "yaml", "yaml", "sh"], \
        "CONTRIBUTING.md's examples changed shape: update this test with them"
    return found


def test_the_worked_example_says_what_the_tools_say(guide, tmp_path):
    (_, before_yaml), (_, command), (_, answer), (_, annotation), (_, erratum), (_, frozen), (_, diff_text), *_ = guide
    # The data as the guide shows it is the data as it is, but for the mistake being corrected.
    after = copy_project(tmp_path / "after")
    path = after / DATA
    current = path.read_text(encoding="utf-8")
    fixed_yaml = before_yaml.replace("stated_total: 125", "stated_total: 130")
    assert fixed_yaml != before_yaml and fixed_yaml in current, f"the guide's snippet is not in {DATA}"
    before = copy_project(tmp_path / "before")
    (before / DATA).write_text(current.replace(fixed_yaml, before_yaml), encoding="utf-8")
    as_published(before)  # the guide's story: the book was printed saying 125

    # `make validate` answers with the file, the line, the check and the finding.
    result = rulebook(before, *_command(command))
    assert result.returncode == 1
    finding, summary = answer.strip().splitlines()
    assert finding in result.stdout.splitlines(), result.stdout
    line = int(finding.split(":")[1])
    assert "stated_total: 125" in (before / DATA).read_text(encoding="utf-8").splitlines()[line - 1]
    actual_summary = result.stdout.strip().splitlines()[-1]
    # The warning count moves as the book grows; the error count and the shape are what the guide teaches.
    shape = r"\d+ warnings (\(\d+ more accepted\) )?in \d+"
    assert re.sub(shape, "", actual_summary) == re.sub(shape, "", summary)
    assert f"annotation on line {line} of the file" in GUIDE.read_text(encoding="utf-8")

    # On a pull request CI says the same, as an annotation.
    github = rulebook(before, "validate", "--format", "github")
    assert annotation.strip() in github.stdout.splitlines()

    # After the correction the error is gone, and the erratum rebuilds the published value.
    assert rulebook(after, "validate").returncode == 0
    errata = after / "rules_data" / "errata.yaml"
    errata.write_text(errata.read_text(encoding="utf-8").rstrip("\n") + "\n" + erratum, encoding="utf-8")
    shutil.copytree(before / FROZEN_DIR, after / FROZEN_DIR, dirs_exist_ok=True)  # the book printed 125
    shutil.copy(before / "rules_data" / "book.yaml", after / "rules_data" / "book.yaml")  # and its record's seal
    record = yaml.safe_load(erratum)[0]
    assert rulebook(after, "validate").returncode == 0
    published = load_library(after, "2026.1").games["canadian-salad"].game
    assert published.rounds.items[0].scoring[0].stated_total == record["published"] == 125
    assert (record["file"], record["path"]) == (DATA, "rounds.items.0.scoring.0.stated_total")

    # `rulebook diff` prints what the change does to the rules, in words.
    diff = rulebook(ROOT, "diff", str(before), str(after))
    assert diff.returncode == 0, diff.stderr
    for text_line in diff_text.strip().splitlines():
        assert text_line in diff.stdout.splitlines(), diff.stdout


def test_a_changed_published_word_gets_the_answer_the_guide_shows(guide, tmp_path):
    """The guide's frozen-edition example: the words it quotes, changed, give its finding, cut where it cuts."""
    shown = guide[5][1].strip()
    old, new = re.findall(r'"([^"]*?) …"', shown)
    file = shown.split(":")[0]
    project = copy_project(tmp_path)
    text = (project / file).read_text(encoding="utf-8")
    assert old in text
    (project / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    result = rulebook(project, "validate")
    assert result.returncode == 1
    found = next(line for line in result.stdout.splitlines() if "edition.frozen" in line)
    head = shown[:shown.index(" (the 2026.1")]
    assert found.startswith(head), found
    assert f'prints "{old}' in found and f'would print "{new}' in found


def test_a_refused_edit_gets_the_answer_the_guide_shows(guide, tmp_path):
    (_, broken), (_, answer) = guide[7], guide[8]
    project = copy_project(tmp_path)
    path = project / "rules_data" / "euchre.yaml"
    text = path.read_text(encoding="utf-8")
    fixed = broken.replace("each 5", "each: 5")
    assert fixed != broken and fixed in text, "the guide's snippet is not in rules_data/euchre.yaml"
    path.write_text(text.replace(fixed, broken), encoding="utf-8")
    result = rulebook(project, *_command("make validate"))
    assert result.returncode == 1
    assert result.stdout + result.stderr == answer, result.stderr


def test_the_new_game_command_writes_what_the_guide_says(guide, tmp_path):
    project = copy_project(tmp_path)
    result = rulebook(project, *[a.strip('"') for a in _command(guide[9][1])])
    assert result.returncode == 0, result.stderr
    text = GUIDE.read_text(encoding="utf-8")
    for written in re.findall(r"writes `([^`]+)` and `([^`]+)`", text)[0]:
        assert (project / written).exists(), written
        assert f"wrote {written}" in result.stdout
    shutil.rmtree(project)


def test_the_guide_opens_the_next_edition_with_the_command_it_names(guide, tmp_path):
    """'make edition ID=… LABEL=… DATE=…' runs `rulebook edition new`, which opens that edition in a copy."""
    shown = guide[12][1].strip()
    assert shown.startswith("make edition ")
    recipe = subprocess.run(["make", "-s", "-n", "--no-print-directory", *shlex.split(shown)[1:]], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    args = shlex.split(recipe.removeprefix(".venv/bin/rulebook "))
    assert args[:2] == ["edition", "new"], recipe
    project = copy_project(tmp_path)
    result = rulebook(project, *args)
    assert result.returncode == 0, result.stderr
    values = dict(arg.split("=", 1) for arg in shlex.split(shown)[2:])
    lib = load_library(project)
    assert (lib.edition.id, lib.edition.label, lib.edition.date) == (values["ID"], values["LABEL"], values["DATE"])

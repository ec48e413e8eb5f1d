"""The rulebook command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

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
    assert built.stdout.startswith(validate.stdout)  # every finding and the summary, then 'built ...'
    prose = project / "content" / "euchre.md"  # a reference to nothing: reference.unknown, an error
    prose.write_text(prose.read_text(encoding="utf-8").replace("{goal.target} wins", "{goal.targte} wins"), encoding="utf-8")
    as_published(project)  # the one error is the slip, not also a change to the printed 2026.1
    validate, built = run("--root", str(project), "validate"), run("--root", str(project), "build", "--site-only",
                                                                    "--out", str(tmp_path / "out2"))
    assert validate.returncode == built.returncode == 1
    assert " error" in validate.stdout and "1 error" in validate.stdout.splitlines()[-1]
    assert built.stdout == validate.stdout and not (tmp_path / "out2" / "site").exists()


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

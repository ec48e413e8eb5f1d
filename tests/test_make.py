"""`make` builds again on the sources' content, not their times (issue 60, item 2): a file put back as it was, with an
older mtime, is built again; a file touched but not changed is not.

The project's Makefile runs in a folder of its own with a few sources and a stand-in for `rulebook` (which notes each
build and writes what make looks for), so each step costs a `make`, not a build.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

STAND_IN = """#!/bin/sh
# rulebook's stand-in: note the build, write what make checks for
echo "$@" >> "$(dirname "$0")/../../builds.txt"
mkdir -p build/site && echo built > build/site/index.html
"""

OLD = 946684800  # 2000-01-01: a file put back by a checkout, a backup or an editor, dated before the build


def _edit(root: Path, step: str) -> None:
    page = root / "content" / "page.md"
    if step == "nothing":
        return
    if step == "touch":  # a newer mtime, the same bytes
        os.utime(page)
    elif step == "change":
        page.write_text("Changed.\n", encoding="utf-8")
    elif step == "put back, older":  # the text before the change, dated before the last build
        page.write_text("The page.\n", encoding="utf-8")
        os.utime(page, (OLD, OLD))
    elif step == "add":
        (root / "content" / "new.md").write_text("New.\n", encoding="utf-8")
        os.utime(root / "content" / "new.md", (OLD, OLD))
    elif step == "remove":
        (root / "content" / "new.md").unlink()


# Each step in turn, and whether `make` must build after it.
STEPS = [("nothing", True), ("nothing", False), ("touch", False), ("change", True), ("nothing", False),
         ("put back, older", True), ("add", True), ("remove", True), ("touch", False)]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    if not shutil.which("make") or not shutil.which("sha256sum"):
        pytest.skip("needs make and coreutils")
    root = tmp_path_factory.mktemp("make") / "book"
    for name in ("rules_data", "content", "templates", "generator"):
        (root / name).mkdir(parents=True)
    (root / "content" / "page.md").write_text("The page.\n", encoding="utf-8")
    (root / "rules_data" / "book.yaml").write_text("title: x\n", encoding="utf-8")
    for name in ("Makefile", "mkdocs.yml", "pyproject.toml", "requirements.lock"):
        shutil.copy(ROOT / name, root / name)
    for path in root.rglob("*"):
        os.utime(path, (OLD, OLD))
    stamp = subprocess.run(["sh", "-c", "cat requirements.lock pyproject.toml | cksum | cut -d' ' -f1"], cwd=root,
                           capture_output=True, text=True, check=True).stdout.strip()
    (root / ".venv" / "bin").mkdir(parents=True)
    (root / ".venv" / f".installed-{stamp}").touch()
    (root / ".venv" / "bin" / "rulebook").write_text(STAND_IN, encoding="utf-8")
    (root / ".venv" / "bin" / "rulebook").chmod(0o755)
    return root


def test_make_builds_on_content_not_on_mtimes(project):
    built = []
    for step, _due in STEPS:
        _edit(project, step)
        log = project / "builds.txt"
        before = log.read_text().count("\n") if log.exists() else 0
        done = subprocess.run(["make", "--no-print-directory"], cwd=project, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        built.append((step, log.read_text().count("\n") > before if log.exists() else False))
    assert built == STEPS

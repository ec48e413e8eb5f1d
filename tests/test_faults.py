"""Bad input and faults (issue 33): numbers out of range, a folder where a file should be, a full or read-only disk,
a missing git, a build or publish stopped half-way. Each ends in one clear line naming the place, or in a correct
book; nothing is left running or half-written.

Cheap on purpose: the commands run in this process (``cli.main``) on the real data or on a one-game project, and
the renders that are tested for their lifetime are stand-ins (``tests/stalled_worker.py``) or one-game books.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from generator.cli import main
from generator.commands import build as build_module
from generator.commands.build import build
from generator.errors import RulebookError
from generator.render import output
from generator.render.process import SCRATCH
from tests import hostile
from tests.checkfix import DEMO_GAME, make_project
from tests.conftest import ROOT, copy_project
from tests.test_fuzz import time_limit

GAME = DEMO_GAME


def tiny(root: Path) -> Path:
    """A one-game project that builds (site and PDF) in a second or two."""
    make_project(root, {"games": [GAME]})
    shutil.copytree(ROOT / "templates", root / "templates")
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    return root


def run(*args: str, cpu: float = 10) -> tuple[int, str]:
    """The rulebook command in this process: (exit code, everything it printed). A hang fails the test."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), time_limit(cpu=cpu, wall=120):
        code = main(list(args))
    return code, out.getvalue()


def one_line(output: str, start: str, *words: str) -> str:
    """The line of ``output`` that starts with ``start`` and has ``words``; fails unless there is one, and no traceback."""
    assert "Traceback" not in output, output
    found = [line for line in output.splitlines() if line.startswith(start) and all(w in line for w in words)]
    assert len(found) == 1, f"wanted one line starting {start!r} with {words}, got:\n{output[-3000:]}"
    return found[0]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    return copy_project(tmp_path_factory.mktemp("faults") / "pristine")


@pytest.fixture
def project(pristine, tmp_path) -> Path:
    shutil.copytree(pristine, tmp_path / "p")
    return tmp_path / "p"


def _edit(project: Path, file: str, old: str, new: str) -> int:
    """Replace ``old`` once in ``file``; the line the new text is on."""
    path = project / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{file} no longer has {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1 + old[: len(old) - len(old.lstrip("\n"))].count("\n")


# (case, file, old, new, edition, words the line at the edited value says). Trash, a game of 2026.2, is not frozen:
# only the bound stops these. Each failed on the code before issue 33: a warning and a book printing "-1 players",
# a ZeroDivisionError, a ValueError or OverflowError in the checks, or a validate that never ended.
TRASH = "rules_data/trash.yaml"
OUT_OF_RANGE = [
    ("players -1", TRASH, "players: 4-10", "players: -1", None, "must be 1 to 60 players"),
    ("players 0", TRASH, "players: 4-10", "players: 0", None, "must be 1 to 60 players"),
    ("players 0-0", TRASH, "players: 4-10", "players: 0-0", None, "must be 1 to 60 players"),
    ("players 4-1000000", TRASH, "players: 4-10", "players: 4-1000000", None, "must be 1 to 60 players"),
    ("players 4-99999999", TRASH, "players: 4-10", "players: 4-99999999", None, "must be 1 to 60 players"),
    ("players multiples of 0", TRASH, "players: 4-10", "players: multiples of 0", None, "must be 1 to 60 players"),
    ("decks -1", TRASH, "decks: 1", "decks: -1", None, "must be 1 to 20 decks"),
    ("decks '-1-4'", TRASH, "decks: 1", 'decks: "-1-4"', None, "must be 1 to 20 decks"),
    ("decks 20 digits", TRASH, "decks: 1", "decks: 99999999999999999999", None, "must be 1 to 20 decks"),
    ("5,000 digits", TRASH, "decks: 1", "decks: " + "9" * 5000, None, "digits"),
    ("cards dealt", "rules_data/euchre.yaml", "\n  each: 5\n", "\n  each: 500\n", None, "must be 1 to 100 cards"),
    ("rounds", TRASH, "stated_count: 12", "stated_count: 0", None, "must be 1 to 100 rounds"),
    ("target", "rules_data/gin-rummy.yaml", "target: 100", "target: 100000000", None, "must be -1000000 to 1000000"),
    ("points", TRASH, "per: trick, points: 5}", "per: trick, points: -99999999}", None, "must be -1000000 to 1000000 points"),
    ("an erratum naming a missing file", "rules_data/errata.yaml", "file: content/general-rules.md",
     "file: content/nope.md", "2026.1", "no text file content/nope.md"),
]


@pytest.mark.parametrize(("case", "file", "old", "new", "edition", "says"), OUT_OF_RANGE, ids=[c[0] for c in OUT_OF_RANGE])
def test_a_number_out_of_range_gets_one_line_at_the_value_saying_what_is_allowed(project, case, file, old, new,
                                                                               edition, says):
    line = _edit(project, file, old, new)
    started = time.process_time()
    code, output = run("--root", str(project), "validate", *(["--edition", edition] if edition else []))
    assert code == 1, output
    found = one_line(output, f"{file}:{line}:", says)
    assert "instead" in found and len(found) < 400, found
    assert time.process_time() - started < 5  # as long as any validate: no loop over the stated range
    hostile.tried("numbers out of range")


@pytest.mark.parametrize("file", ["content/trash.md", "content/gin-rummy.standard-gin-rummy.md"])
def test_a_game_or_variant_emptied_of_its_rules_is_an_error(project, file):
    """2026.2's Trash and a variant emptied: 0 errors before issue 33, and a page with no rules."""
    (project / file).write_text("## Rules\n\n", encoding="utf-8")
    code, output = run("--root", str(project), "validate")
    assert code == 1
    one_line(output, f"{file}:1: prose.no_rules:", "no rules")
    (project / file).unlink()  # the file gone: a game's is refused on loading; a variant's was not
    code, output = run("--root", str(project), "validate")
    assert code == 1
    one_line(output, "rules_data/", "no prose file", file)


def test_a_list_in_a_finding_stops_and_says_how_many_more(project):
    from generator.checks import MAX_MESSAGE, capped, listing

    assert listing(map(str, range(3))) == "0, 1, 2"
    assert listing(map(str, range(50))) == "0, 1, 2, 3, 4, 5, 6, 7 and 42 more"
    assert capped("x" * 600).endswith("... (100 more characters)") and len(capped("x" * 600)) < MAX_MESSAGE + 30
    _edit(project, TRASH, "players: 4-10", "players: 4-60")  # no cards are stated for 11 to 60 players
    code, output = run("--root", str(project), "validate")
    one_line(output, f"{TRASH}:", "spec.vague_equipment", "and 42 more")


# A file where the data or prose should be: (case, how it is put in place of content/euchre.md or its YAML).
def _folder(path: Path) -> None:
    path.unlink()
    path.mkdir()
    (path / "inside.md").write_text("x", encoding="utf-8")


def _dangling(path: Path) -> None:
    path.unlink()
    path.symlink_to(path.with_name("nowhere"))


def _loop(path: Path) -> None:
    path.unlink()
    path.symlink_to(path.name)  # itself


def _pipe(path: Path) -> None:  # reading it waited for ever for a writer
    path.unlink()
    os.mkfifo(path)


NOT_A_FILE = {"a folder": (_folder, "is a folder"), "a dangling link": (_dangling, "which is not there"),
              "a link to itself": (_loop, "round in a circle"), "a named pipe": (_pipe, "not a plain file")}


@pytest.mark.parametrize("file", ["rules_data/euchre.yaml", "content/euchre.md"])
@pytest.mark.parametrize("case", NOT_A_FILE)
def test_a_source_that_is_not_a_file_gets_one_line_naming_it(project, case, file):
    make, says = NOT_A_FILE[case]
    make(project / file)
    code, output = run("--root", str(project), "validate")
    assert code == 1
    one_line(output, f"{file}:", says)
    hostile.tried("files that are not files")


def test_a_folder_in_place_of_a_file_is_one_line_from_every_command(project, tmp_path, monkeypatch):
    """build, preview, serve, publish, check-pr and diff say what validate says (they crashed with IsADirectoryError)."""
    from generator.commands.check_pr import check_pr
    from generator.commands.preview import Preview, watch
    from generator.render.site.plugin import RulebookPlugin

    file = "rules_data/euchre.yaml"
    for git in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "book"]):
        subprocess.run(["git", "-C", str(project), *git], check=True, capture_output=True)  # publish builds a commit
    _folder(project / file)
    code, output = run("--root", str(project), "build", "--site-only", "--out", str(tmp_path / "out"))
    assert code == 1 and not (tmp_path / "out").exists()
    one_line(output, f"{file}:", "is a folder")
    said: list[str] = []
    preview = Preview.__new__(Preview)  # its layout (WeasyPrint) is not needed to fail on loading
    preview.root, preview.target, preview.edition = project, tmp_path / "preview.pdf", None
    watch(preview, report=said.append, rounds=1)
    one_line("\n".join(said), "error: ", file, "is a folder")
    plugin = RulebookPlugin()  # `rulebook serve`: the page saying why the book cannot be built, and where
    plugin.load_config({})
    plugin.on_startup(command="serve", dirty=False)
    config = {"config_file_path": str(project / "mkdocs.yml"), "docs_dir": "", "nav": None, "site_name": ""}
    plugin._generate(config)
    page = (Path(config["docs_dir"]) / "index.md").read_text(encoding="utf-8")
    assert "The book cannot be built" in page and f"{file}:" in page and "is a folder" in page
    code, output = run("--root", str(project), "publish")  # the folder is a change not committed: said first
    assert code == 1
    one_line(output, f"error: {file}", "not committed")
    code, output = run("--root", str(project), "publish", "--allow-dirty")
    assert code == 1
    one_line(output, f"{file}:", "is a folder")
    code, output = run("--root", str(project), "diff", str(ROOT), str(project))
    assert code == 1
    one_line(output, f"{file}:", "is a folder")
    monkeypatch.chdir(project)
    _, annotations, summary = check_pr(project, "HEAD")
    assert any(file in a and "is a folder" in a for a in annotations) and "Traceback" not in summary


def test_a_missing_git_is_one_line(project, tmp_path, monkeypatch):
    from generator.commands.check_pr import check_pr

    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    code, output = run("--root", str(ROOT), "diff", "HEAD~1", "HEAD")
    assert code == 1
    one_line(output, "error: git: not found", "install git")
    code, annotations, summary = check_pr(project, "origin/main")  # still reports, and fails: it could not judge
    assert code == 1 and "git: not found" in summary and any("check.not_judged" in a for a in annotations)
    with pytest.raises(RulebookError, match="git: not found"):
        from generator.commands.publish import publish

        publish(project)


def _mount(where: Path, options: str) -> None:
    """A small tmpfs at ``where`` (root only); the test is skipped, with the reason, where the machine refuses."""
    where.mkdir(parents=True, exist_ok=True)
    if shutil.which("mount") is None:
        pytest.skip("no mount command to make a small disk with")
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root, or a container allowing it): {result.stderr.strip()}")


@pytest.fixture
def small_disk(tmp_path):
    disk = tmp_path / "disk"
    _mount(disk, "size=20m")
    yield disk
    subprocess.run(["umount", "-l", str(disk)], check=False)


def _last_good(out: Path) -> dict[str, str]:
    """A build in ``out`` as a finished one leaves it (its two halves, through ``current``); what each file says."""
    made = out / ".build-last-good"
    for half in ("site", "pdf"):
        (made / half).mkdir(parents=True)
        (made / half / "marker.txt").write_text(f"last good {half}", encoding="utf-8")
        (out / half).symlink_to(f"current/{half}")
    (out / "current").symlink_to(made.name)
    return _read(out)


def _read(out: Path) -> dict[str, str]:
    return {half: (out / half / "marker.txt").read_text(encoding="utf-8") for half in ("site", "pdf")}


@pytest.mark.parametrize("half", ["--pdf-only", "--site-only"])
def test_a_full_disk_is_reported_as_a_full_disk_and_the_last_build_stays(small_disk, tmp_path, half):
    """The PDF render on a full disk was reported as "it needed more than 4352 MB of memory"."""
    project = tiny(tmp_path / "project")
    out = small_disk / "build"
    out.mkdir()
    before = _last_good(out)
    with open(small_disk / "filler", "wb") as filler:  # all but 64 KB of the disk
        with contextlib.suppress(OSError):
            while True:
                filler.write(b"\0" * 65536)
        filler.flush()
    os.truncate(small_disk / "filler", os.path.getsize(small_disk / "filler") - 65536)
    code, output = run("--root", str(project), "build", half, "--out", str(out))
    assert code == 1
    line = one_line(output, "error: ", "the disk is full")
    assert "memory" not in output, line
    assert _read(out) == before
    assert [p.name for p in out.iterdir() if p.name.startswith(".staging")] == []
    hostile.tried("faults")


def test_a_read_only_or_blocked_output_folder_is_one_line(tmp_path):
    project = tiny(tmp_path / "project")
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    code, output = run("--root", str(project), "build", "--site-only", "--out", str(tmp_path / "a-file" / "build"))
    assert code == 1
    one_line(output, "error: cannot write the build: ", "a-file", "a file is where a folder should be")
    disk = tmp_path / "read-only"
    try:
        _mount(disk, "ro,size=1m")
    except pytest.skip.Exception:
        return  # the folder case above is the test where no read-only disk can be made
    try:
        code, output = run("--root", str(project), "build", "--site-only", "--out", str(disk / "build"))
        assert code == 1
        one_line(output, "error: cannot write the build: ", "read-only")
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def render_processes(parent: int, wait: bool = True) -> list[str]:
    """The command lines of the render processes ``parent`` started (each is given a scratch folder named by it:
    render/process.py's ``scratch_environment``) that are running, after a moment to go unless not ``wait``."""
    scratch = f"TMPDIR={tempfile.gettempdir()}/{SCRATCH}{parent}-".encode()
    for _ in range(50 if wait else 1):
        found = []
        for environ in Path("/proc").glob("[0-9]*/environ"):
            with contextlib.suppress(OSError):  # gone meanwhile, or another user's
                if any(setting.startswith(scratch) for setting in environ.read_bytes().split(b"\0")):
                    found.append((environ.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode())
        if not found:
            break
        time.sleep(0.1)
    return found


def test_kill_9_during_a_build_leaves_no_process_and_the_next_build_no_staging_folder(tmp_path):
    """The render ran on for 20 to 40 s after its build was killed, and every killed build left its staging
    folder for good. The render here is the real worker's life (its library loaded, the sheets forked) with
    each render stalled, so that the kill comes during it on any machine."""
    project = tiny(tmp_path / "project")
    out = project / "build"
    code = ("import sys; from generator.render.pdf import worker; worker.WORKER = 'tests.stalled_worker'; "
            f"from generator.cli import main; main(['--root', {str(project)!r}, 'build'])")
    said = tmp_path / "build.err"  # what the build said, should it end before its render started
    with said.open("w", encoding="utf-8") as err:
        started = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, start_new_session=True,
                                   stdout=subprocess.DEVNULL, stderr=err, env={**os.environ, "RULEBOOK_PDF_JOBS": "2"})
    def stalled() -> list[str]:  # (what else a render runs on the way, such as ctypes's look for a library: not these)
        return [p for p in render_processes(started.pid, wait=False) if p.split()[1:3] == ["-m", "tests.stalled_worker"]]

    try:
        # The build validates and makes the site before the render starts: on a machine busy with other work that
        # can take minutes, so the wait ends when the build has ended, or at a bound far past any build of this book.
        deadline = time.monotonic() + 600
        while len(stalled()) < 2 and started.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)  # the worker, and the process it forked for the sheets
        assert len(stalled()) == 2, (f"the render never started (the build: {started.poll()}, "
                                     f"{said.read_text(encoding='utf-8')[-2000:]!r})")
    finally:
        os.kill(started.pid, signal.SIGKILL)
        started.wait()
    assert render_processes(started.pid) == []
    assert [p.name for p in out.iterdir() if p.name.startswith(".staging-")]  # what the kill left
    build(project, pdf=False)
    assert [p.name for p in out.iterdir() if p.name.startswith(".staging-")] == []
    assert (out / "site" / "games" / "demo" / "index.html").is_file()
    hostile.tried("faults")


def test_a_site_worker_ends_with_the_build_that_forked_it(tmp_path):
    code = ("import os, time; from generator.render.site.worker import SiteWorker; w = SiteWorker(); "
            "print(w.pid, flush=True); time.sleep(60)")
    parent = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    worker = int(parent.stdout.readline())
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    for _ in range(50):
        if not Path(f"/proc/{worker}").exists() or "Z" in Path(f"/proc/{worker}/stat").read_text().split()[2]:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the site worker outlived the build that forked it")


def test_a_reader_sees_the_old_build_or_the_new_one_whole(tmp_path, monkeypatch):
    """At every step of a build's switch (each rename, link and removal), build/site and build/pdf are there and
    from the same build. The old switch renamed each half away and the new one in: between, no build/pdf."""
    project = tiny(tmp_path / "project")
    out = tmp_path / "out"
    out.mkdir()
    builds = iter(range(1, 10))
    seen: list[dict[str, str]] = []

    def render_pdfs(lib, pdf_dir, **kwargs):
        pdf_dir.mkdir(parents=True)
        (pdf_dir / "marker.txt").write_text(f"build {number}", encoding="utf-8")
        return {}

    def render_site(lib, site_dir, staging, downloads, anchors, progress=None):
        site_dir.mkdir(parents=True)
        (site_dir / "marker.txt").write_text(f"build {number}", encoding="utf-8")

    def look(step):
        def done(*args, **kwargs):
            result = step(*args, **kwargs)
            if (out / "site").exists() or (out / "pdf").exists():
                now = _read(out)
                assert now["site"] == now["pdf"], f"a mixed pair after {step.__name__}: {now}"
                seen.append(now)
            return result
        return done

    monkeypatch.setattr(build_module, "render_pdfs", render_pdfs)
    monkeypatch.setattr(build_module, "render_site", render_site)
    for module, name in ((os, "rename"), (os, "replace"), (os, "symlink"), (shutil, "rmtree"), (Path, "rename"),
                         (Path, "replace")):
        monkeypatch.setattr(module, name, look(getattr(module, name)))
    for number in next(builds), next(builds), next(builds):
        build(project, out=out)
        assert _read(out) == {"site": f"build {number}", "pdf": f"build {number}"}
    monkeypatch.undo()
    assert len({s["site"] for s in seen}) == 3
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".build-")) == [
        ".rulebook-build", "current", "pdf", "site"]
    assert len([p for p in out.iterdir() if p.name.startswith(".build-")]) == 1  # the old ones are gone


def test_a_build_of_one_half_keeps_the_other_as_it_was(tmp_path, monkeypatch):
    project = tiny(tmp_path / "project")
    out = tmp_path / "out"
    out.mkdir()
    before = _last_good(out)

    def render_site(lib, site_dir, staging, downloads, anchors, progress=None):
        site_dir.mkdir(parents=True)
        (site_dir / "marker.txt").write_text("new site", encoding="utf-8")

    monkeypatch.setattr(build_module, "render_site", render_site)
    build(project, out=out, pdf=False)
    assert _read(out) == {"site": "new site", "pdf": before["pdf"]}
    assert not (out / ".build-last-good").exists()


def test_a_leftover_staging_folder_goes_and_one_in_use_stays(tmp_path):
    """A folder a stopped build left goes; one a build holds stays, and so does a user's folder of the same name."""
    from generator.render.output import STAGING, claim, sweep

    left, lock = claim(tmp_path, STAGING)
    (left / "half-written.pdf").write_bytes(b"%PDF")
    os.close(lock)  # the build that made it was stopped
    users = tmp_path / f"{STAGING}mine"
    users.mkdir()
    (users / "notes.txt").write_text("mine", encoding="utf-8")
    in_use, lock = claim(tmp_path, STAGING)
    try:
        sweep(tmp_path, (STAGING,))
        assert not left.exists() and in_use.is_dir()
    finally:
        os.close(lock)
    sweep(tmp_path, (STAGING,))
    assert not in_use.exists()
    assert (users / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_publish_cleans_its_temporary_folder_however_it_ends(tmp_path):
    """A publish stopped with SIGTERM removes its folder; one a kill -9 left is removed by the next publish."""
    TEMP_PREFIX = "rulebook-publish-"  # noqa: N806 - generator.commands.publish.TEMP_PREFIX, the name publish always gave it

    repo = copy_project(tmp_path / "repo")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "book"], check=True)
    temp = tmp_path / "temp"
    temp.mkdir()
    left = temp / f"{TEMP_PREFIX}killed"  # as a publish killed with -9 leaves it: marked as its (build.claim)
    left.mkdir()
    (left / output.STAMP).write_text(output.STAMP_TEXT, encoding="utf-8")
    code = ("import time; from pathlib import Path; from generator.commands import publish\n"
            "def stalled(lib, pdf_dir, **kwargs):\n"
            "    pdf_dir.mkdir(parents=True); print('rendering', flush=True); time.sleep(60)\n"
            "publish.render_pdfs = stalled\n"
            f"from generator.cli import main; raise SystemExit(main(['--root', {str(repo)!r}, 'publish']))")
    env = dict(os.environ, TMPDIR=str(temp))
    started = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        assert started.stdout.readline() == "rendering\n", started.stderr.read()
        assert not left.exists()
        assert [p.name for p in temp.iterdir()] != []  # its own folder, while it works
        started.send_signal(signal.SIGTERM)
        _, err = started.communicate(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            started.kill()
    assert started.returncode == 130 and "Traceback" not in err, err
    one_line(err, "error: stopped", "SIGTERM")
    assert list(temp.iterdir()) == []
    assert tempfile.gettempdir() != str(temp)  # (the folder was the child's TMPDIR, not this process's)


def test_an_os_error_names_its_path_and_what_it_means():
    from generator.errors import OutputError, os_problem

    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert os_problem(full, "/x/build") == "/x/build: the disk is full: free some space, then run it again"
    assert os_problem(IsADirectoryError(errno.EISDIR, "Is a directory", "/p/rules_data/a.yaml"), root=Path("/p")) == \
        "rules_data/a.yaml: is a folder where a file should be: move the folder away"
    with pytest.raises(OutputError, match="the disk is full"):
        raise OutputError(os_problem(full, "/x"))


# What MkDocs refuses in a book validate passes (links in prose are checked by the site engine alone, for now; the
# site's configuration is the engine's): each is reported in MkDocs's own words, at the source file and line, not as
# "Aborted with 1 warnings in strict mode!". (the file, the text replaced and what replaces it, the words MkDocs says,
# and how the line it is found at begins: the link's, or the setting's MkDocs names.)
PROSE = "content/demo.md"


def _link(link: str) -> tuple[str, str, str]:
    return PROSE, "Play well.\n", f"Play well.\n\nSee {link}.\n"


ENGINE_REFUSES = {
    "a link to a page the site lacks": (*_link("[the rules](nowhere.md)"), "Doc file 'games/demo.md' contains a link "
                                        "'nowhere.md', but the target 'games/nowhere.md' is not found among "
                                        "documentation files.", "See "),
    "a page linked from the wrong folder": (*_link("[the about page](about.md)"), "Doc file 'games/demo.md' contains "
                                            "a link 'about.md', but the target 'games/about.md' is not found among "
                                            "documentation files.", "See "),
    "an anchor the page lacks": (*_link("[the deal](#nowhere)"), "Doc file 'games/demo.md' contains a link "
                                 "'#nowhere', but there is no such anchor on this page.", "See "),
    "an absolute link": (*_link("[home](/games/)"), "Doc file 'games/demo.md' contains an absolute link '/games/', "
                         "it was left as is.", "See "),
    "a link to a folder, not a page": (*_link("[the games](../)"), "Doc file 'games/demo.md' contains an "
                                       "unrecognized relative link '../', it was left as is. Did you mean "
                                       "'../index.md'?", "See "),
    "a setting of the wrong type": ("mkdocs.yml", "use_directory_urls: true", "use_directory_urls: maybe",
                                    "Config value 'use_directory_urls': Expected type: <class 'bool'> but received: "
                                    "<class 'str'>", "use_directory_urls:"),
    "a theme not installed": ("mkdocs.yml", "  name: material", "  name: nonexistent", "Config value 'theme': "
                              "Unrecognised theme name: 'nonexistent'. The available installed themes are: mkdocs, "
                              "readthedocs, material", "theme:"),
}


@pytest.mark.parametrize("file, old, new, words, at", ENGINE_REFUSES.values(), ids=ENGINE_REFUSES.keys())
def test_what_the_site_engine_refuses_is_told_in_its_words_at_the_source_line(tmp_path, monkeypatch, file, old, new,
                                                                               words, at):
    from generator.checks import run_checks

    project = tiny(tmp_path / "project")
    text = (project / file).read_text(encoding="utf-8")
    assert text.count(old) == 1
    (project / file).write_text(text.replace(old, new), encoding="utf-8")
    line = next(n for n, line in enumerate(text.replace(old, new).splitlines(), 1) if line.startswith(at))
    if file == PROSE:  # validate refuses a link to nothing first, at the same line (link.broken: validate and build
        # agree); past it, the site engine's own words still reach the user
        code, printed = run("--root", str(project), "validate")
        assert code == 1 and f"{file}:{line}: link.broken: " in printed, printed
        monkeypatch.setattr("generator.commands.build.run_checks",
                            lambda lib: [f for f in run_checks(lib) if f.check != "link.broken"])
    code, printed = run("--root", str(project), "build", "--site-only", "--out", str(tmp_path / "out"))
    assert code == 1 and "Traceback" not in printed, printed
    lines = printed.strip().splitlines()
    assert f"{file}:{line}: MkDocs: {words}" in lines, printed
    assert lines[-1].startswith("error: the site was not built: MkDocs refused what the lines above say")
    assert "strict mode" not in printed and "Aborted" not in printed
    assert not (tmp_path / "out" / "site").exists()


def test_a_page_the_sites_navigation_lacks_is_told_at_its_source(tmp_path):
    """A page MkDocs finds in no place of the navigation (an About page placed after a section the book lacks, which
    validate is to catch first): the engine's words, at the page's source, from the site render itself."""
    from generator.book.library import load_library
    from generator.errors import EngineErrors
    from generator.render.site.engine import render_site

    project = tiny(tmp_path / "project")
    book = project / "rules_data" / "book.yaml"
    text = book.read_text(encoding="utf-8").replace("{id: about, title: About}", "{id: about, title: About, "
                                                                                 "after: tournament}")
    book.write_text(text.replace("  - id: tournament\n    title: Tournament\n    games: []\n", ""), encoding="utf-8")
    assert "tournament\n" not in book.read_text(encoding="utf-8")
    staging = tmp_path / "staging"
    staging.mkdir()
    with pytest.raises(EngineErrors) as refused:
        render_site(load_library(project), staging / "site", staging, None)
    assert [str(e) for e in refused.value.errors] == [
        'content/about.md: MkDocs: The following pages exist in the docs directory, but are not included in the "nav" '
        "configuration: - about.md"]


# What WeasyPrint ignores or cannot use is said in its words by the PDF render (its own logger drops it): each kind
# once, with how many more like it. (the page's stylesheet, what the render passes on)
PRINT_ENGINE_REFUSES = {
    "an unknown property": ("p { colr: red; }", ["warning: WeasyPrint: Ignored `colr: red` at 1:5, unknown property."]),
    "a value it cannot read": ("p { color: nonsense; }",
                               ["warning: WeasyPrint: Ignored `color: nonsense` at 1:5, invalid value."]),
    "the same slip three times": ("p { colr: red; } h1 { colr: blue; } h2 { colr: green; }",
                                  ["warning: WeasyPrint: Ignored `colr: red` at 1:5, unknown property. "
                                   "(and 2 more like it)"]),
    "nothing to say": ("p { color: red; }", []),
}


@pytest.mark.parametrize("css, told", PRINT_ENGINE_REFUSES.values(), ids=PRINT_ENGINE_REFUSES.keys())
def test_what_the_print_engine_refuses_is_passed_on_in_its_words(monkeypatch, css, told):
    import weasyprint

    from generator.render.pdf import worker
    from generator.render.pdf.weasy import engine_warnings

    monkeypatch.setattr(worker, "_STATE", {"warnings": []})
    with engine_warnings(worker._warn):  # as the render's process tells the build (its answer), and preview its user
        weasyprint.HTML(string=f"<style>{css}</style><p>x</p>").render()
    assert [f"warning: {said}" for said in worker._STATE["warnings"]] == told  # as the build prints them

"""The environment and numbers of any size (issue 60, item 2): each bad setting, address, limit or encoding is one
line naming its cause, never a traceback; a source is written whole or not at all, a full disk included; `serve`
ends when it is told to.

Cheap: a one-game project (tests/checkfix.py's), the commands run in this process where they can, and in a child
only where the child is the point (a memory limit, an output encoding, a signal).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from generator import settings
from generator.cli import main
from generator.errors import RulebookError
from tests import hostile
from tests.checkfix import DEMO_GAME, make_project

BIG = "9" * 5000  # past the 4,300 digits Python will read as an int
RULEBOOK = [sys.executable, "-m", "generator"]
ONE_LINE = re.compile(r"error: [^\n]{1,400}\n")


def _project(root: Path, prose: str = "## Rules\n\nPlay well.\n") -> Path:
    return make_project(root, {"games": [DEMO_GAME], "prose": {"demo": prose}})


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """A one-game book no test changes."""
    return _project(tmp_path_factory.mktemp("environment") / "book")


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's refusals
            code = exc.code
    return code, out.getvalue(), err.getvalue()


# (variable, value, read as: None for refused in one line naming the variable)
SETTINGS = [
    ("SOURCE_DATE_EPOCH", "abc", None),
    ("SOURCE_DATE_EPOCH", "-5", None),
    ("SOURCE_DATE_EPOCH", "99999999999999999", None),  # past the year 9999: MkDocs's traceback at a page, before
    ("SOURCE_DATE_EPOCH", BIG, None),
    ("SOURCE_DATE_EPOCH", "\uff11\uff12", None),  # full-width digits: int() reads them, MkDocs would too
    ("SOURCE_DATE_EPOCH", "1765000000", 1765000000),
    ("RULEBOOK_PDF_MEMORY_MB", BIG, None),
    ("RULEBOOK_PDF_TIMEOUT", "1e999", None),
    ("COLUMNS", BIG, "unset"),  # a terminal's size is lenient: anything else is as if unset
    ("LINES", "\uff11\uff12", "unset"),
]


@pytest.mark.parametrize("name, value, read", SETTINGS, ids=[f"{n}={v[:12]}" for n, v, _ in SETTINGS])
def test_a_setting_is_read_or_refused_in_one_line_naming_it(name, value, read):
    hostile.tried("environment.setting")
    setting = next(s for s in settings.SETTINGS if s.name == name)
    if read is None:
        with pytest.raises(RulebookError) as refused:
            settings.read({name: value})
        assert str(refused.value).startswith(f"{name}=") and "\n" not in str(refused.value)
        assert len(str(refused.value)) < 400, "the value is quoted whole"
    else:
        got = getattr(settings.read({name: value}), setting.field)
        assert got == (None if read == "unset" else read)


ADDRESSES = [  # --addr, and what the one line must say
    ("127.0.0.1:99999", "from 1 to 65535"),
    ("localhost:0", "port 0"),
    ("127.0.0.1:00", "port 0"),
    (f"127.0.0.1:{BIG}", "from 1 to 65535"),
    ("127.0.0.1:-1", "from 1 to 65535"),
    ("8000", "HOST:PORT"),
    (":8000", "HOST:PORT"),
    ("no-such-host.invalid:8000", "cannot listen at"),
    ("127.0.0.1:\u0668\u0660", "from 1 to 65535"),  # Arabic-Indic digits
]


@pytest.mark.parametrize("addr, said", ADDRESSES, ids=[a[:20] for a, _ in ADDRESSES])
def test_a_bad_address_is_one_line_before_anything_is_served(book, addr, said):
    hostile.tried("environment.addr")
    code, _, err = _run(["--root", str(book), "serve", "--addr", addr])
    assert code == 1 and ONE_LINE.fullmatch(err), err[-2000:]
    assert "--addr" in err and said in err


@pytest.mark.parametrize("edition", [f"2026.{BIG}", f"{BIG}.1", "2026." + "1" * 4400])
def test_an_edition_id_of_any_size_is_one_line(tmp_path, edition):
    hostile.tried("numbers.edition")
    root = _project(tmp_path / "book")
    before = (root / "rules_data" / "book.yaml").read_bytes()
    for argv in (["edition", "new", edition, "--label", "Revision 2"], ["validate", "--edition", edition]):
        code, _, err = _run(["--root", str(root), *argv])
        assert code == 1 and "Traceback" not in err and err.count("\n") <= 2, err[-2000:]
        assert all(len(line) < 600 for line in err.splitlines()), "the number is quoted whole"
    assert (root / "rules_data" / "book.yaml").read_bytes() == before


def test_a_character_the_output_cannot_encode_is_escaped(tmp_path):
    """stdout in cp1252 (Windows' console), a finding quoting a Greek word: the line printed, the word escaped."""
    hostile.tried("environment.encoding")
    root = _project(tmp_path / "book", "## Rules\n\nPlay well. Say \u03c3\u03ba\u03ac\u03c4 now.\n")
    done = subprocess.run([*RULEBOOK, "--root", str(root), "validate"], capture_output=True, cwd=Path(__file__).parent.parent,
                          env={**os.environ, "PYTHONIOENCODING": "cp1252"}, timeout=120)
    out = (done.stdout + done.stderr).decode("cp1252")
    assert "Traceback" not in out and "UnicodeEncodeError" not in out, out[-2000:]
    assert "\\u03c3\\u03ba\\u03ac\\u03c4" in out


def _limited(megabytes: int):
    def apply() -> None:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))
    return apply


@pytest.mark.parametrize("megabytes", [40, 70])
def test_a_memory_limit_is_one_line_naming_it(tmp_path, megabytes):
    """Under `ulimit -v`, a command that runs out of memory (at its imports, or its work) says so and names the
    limit; never a MemoryError's traceback."""
    hostile.tried("environment.memory")
    root = _project(tmp_path / "book")
    done = subprocess.run([*RULEBOOK[:1], "-c", "from generator.cli import command; command()", "--root", str(root),
                           "validate"], capture_output=True, text=True, preexec_fn=_limited(megabytes),
                          cwd=Path(__file__).parent.parent, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "out of memory" in done.stderr and "ulimit -v" in done.stderr


def test_a_render_under_a_lower_limit_keeps_the_users(tmp_path):
    """A render's process asks for its own limit; under a user's lower hard limit (which no process may raise) it
    keeps the user's, where it once ended the build in a `preexec_fn` traceback; a render stopped for memory then names
    the user's limit (`granted`), not the one it asked for."""
    hostile.tried("environment.memory")
    code = ("import resource, subprocess, sys; from generator.render.process import _limited, granted\n"
            "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
            "assert granted(8192) == 3072 and granted(1024) == 1024, granted(8192)\n"  # what a message names

            "subprocess.run([sys.executable, '-c', 'import resource; print(resource.getrlimit(resource.RLIMIT_AS)[0] >> 20)'],"
            " preexec_fn=_limited(8192), check=True)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).parent.parent, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "3072", done.stderr[-2000:]


def test_serve_ends_on_sigterm_even_when_shutting_down_hangs(tmp_path):
    """The preview's stop: SIGTERM interrupts it, and a shutdown that never returns (here, a body that swallows the
    interrupt, as a server thread's join can) is ended after the grace period, its generated folder removed."""
    hostile.tried("environment.signal")
    generated = tmp_path / "generated"
    generated.mkdir()
    code = ("import sys, time\nfrom generator.render.site import engine\nengine.STOP_GRACE = 1\n"
            f"with engine._ends_when_stopped({str(generated)!r}):\n"
            "    ready = False\n"
            "    while True:\n"
            "        try:\n"  # ready said inside the try: the signal, sent once it is, is always swallowed
            "            if not ready:\n"
            "                ready = print('ready', flush=True) or True\n"
            "            time.sleep(0.05)\n"
            "        except KeyboardInterrupt:\n"
            "            pass\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             cwd=Path(__file__).parent.parent)
    try:
        assert child.stdout.readline().strip() == "ready"
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=30) == 130
    finally:
        if child.poll() is None:
            child.kill()
    assert not generated.exists()


# -- a full disk --------------------------------------------------------------------------------------------------

PAGE = 4096


@pytest.fixture
def small_disk(tmp_path):
    """A 2 MB tmpfs (root only: skipped elsewhere), removed after the test."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or not shutil.which("mount") or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True).returncode:
        pytest.skip("needs root to mount a small tmpfs")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def _fill(disk: Path, leave: int) -> Path:
    """Fill ``disk`` to the last byte, then free ``leave`` pages of it."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as out:
        for size in (1 << 16, PAGE, 1):
            with contextlib.suppress(OSError):
                while True:
                    out.write(b"x" * size)
    os.truncate(filler, max(0, filler.stat().st_size - leave * PAGE))
    return filler


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


WRITES = {  # a command that writes sources, and what it wrote when it succeeded
    "new-game": (["new-game", "Crazy Eights"], "crazy-eights"),
    "edition new": (["edition", "new", "2026.2", "--label", "Revision 2 (Feb/2026)"], '"2026.2"'),
}


@pytest.mark.parametrize("leave", range(7))
@pytest.mark.parametrize("command", sorted(WRITES))
def test_a_write_on_a_full_disk_loses_nothing(small_disk, command, leave):
    """new-game and edition new with 0 to 6 pages of the disk free (each stage of each fails in one of them): each writes all it writes, or says in one line
    that the disk is full and leaves every file as it was, so that run again with room it does what it was asked."""
    hostile.tried("fault.full_disk")
    argv, written = WRITES[command]
    root = _project(small_disk / "book")
    before = _tree(root)
    filler = _fill(small_disk, leave)
    code, out, err = _run(["--root", str(root), *argv])
    if code:  # the stages shown as they ran (edition new's), then the one line
        assert ONE_LINE.fullmatch(err.splitlines(keepends=True)[-1]) and "Traceback" not in err, err[-2000:]
        assert "disk is full" in err
        assert _tree(root) == before, "a file was lost or half-written"
    filler.unlink()
    again = _run(["--root", str(root), *argv])
    assert (again[0] == 0) == bool(code), again[2]  # the rerun succeeds exactly where the first run failed
    assert written in (root / "rules_data" / "book.yaml").read_text(encoding="utf-8")
    assert not [p for p in root.rglob("*") if p.name.startswith(".")], "a part written was left"

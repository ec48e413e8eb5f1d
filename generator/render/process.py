"""The render's processes end with the process that started them: the PDF render, the site's worker, mike.

A build, a publish or a site build may be stopped any way at all (Ctrl-C, a time limit, kill -9); the
processes it started must not run on after it, holding its folders. Both outputs' workers and the build
itself call ``die_with_parent`` in each child they start.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from typing import Any

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _prctl() -> Any:
    """libc's prctl, looked up before any fork (a forked child should call, not load); None off Linux."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl()


def die_with_parent(parent: int) -> None:
    """End this process (SIGKILL) when its parent ``parent`` ends, however it ends, even by kill -9.

    Called in a child just after the fork. A render once ran on for 20 to 40 s after its build was killed,
    in a session of its own, holding the build's folder. Linux's parent-death signal outlives exec; a
    parent that ended before it was asked for is seen at once (this process then has another parent).
    """
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


SCRATCH = "rulebook-render-"  # then the pid of the process whose scratch it is, and mkdtemp's letters


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def sweep_scratch(folder: str | None = None) -> None:
    """Remove the scratch folders (``scratch_environment``) left in the temporary folder by a process that was killed
    (kill -9 runs no clean-up): ours, named by a process that is no longer running."""
    folder = folder or tempfile.gettempdir()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(SCRATCH):].split("-", 1)[0]
        if (entry.name.startswith(SCRATCH) and pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid))
                and entry.is_dir(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_uid == os.getuid()):
            shutil.rmtree(entry.path, ignore_errors=True)


@contextlib.contextmanager
def scratch_environment() -> Iterator[dict[str, str]]:
    """The environment for a render's process: its temporary files (TMPDIR) in a folder of this process's, removed
    when the block ends, however the render ended; one a killed build left is removed by the next (``sweep_scratch``).

    WeasyPrint copies the bundled fonts into a temporary folder of its own (3.5 MB a render) and removes it only when
    its font configuration is collected; a render's process ends without collecting (``os._exit``), or is killed, so
    every build left two such folders in /tmp (1.8 GB over one day's work)."""
    sweep_scratch()
    scratch = tempfile.mkdtemp(prefix=f"{SCRATCH}{os.getpid()}-")
    try:
        yield {**os.environ, "TMPDIR": scratch}
    finally:
        # Not TemporaryDirectory's clean-up: it raises when a file goes while it removes the folder (a render's
        # process still ending), and left the folder behind.
        for _ in range(3):
            shutil.rmtree(scratch, ignore_errors=True)
            if not os.path.lexists(scratch):
                break
            time.sleep(0.1)

"""The render's processes end with the process that started them: the PDF render, the site's worker, mike.

A build, a publish or a site build may be stopped any way at all (Ctrl-C, a time limit, kill -9); the
processes it started must not run on after it, holding its folders. Both outputs' workers and the build
itself call ``die_with_parent`` in each child they start.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
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


@contextlib.contextmanager
def scratch_environment() -> Iterator[dict[str, str]]:
    """The environment for a render's process: its temporary files (TMPDIR) in a folder of this process's, removed
    when the block ends, however the render ended.

    WeasyPrint copies the bundled fonts into a temporary folder of its own (3.5 MB a render) and removes it only when
    its font configuration is collected; a render's process ends without collecting (``os._exit``), or is killed, so
    every build left two such folders in /tmp (1.8 GB over one day's work)."""
    with tempfile.TemporaryDirectory(prefix="rulebook-render-") as scratch:
        yield {**os.environ, "TMPDIR": scratch}

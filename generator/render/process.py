"""The render's processes end with the process that started them: the PDF render, the site's worker, mike.

A build, a publish or a site build may be stopped any way at all (Ctrl-C, a time limit, kill -9); the
processes it started must not run on after it, holding its folders. Both outputs' workers and the build
itself call ``die_with_parent`` in each child they start.
"""

from __future__ import annotations

import os
import signal
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

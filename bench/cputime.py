"""Run a command and print the CPU time of every process it started, orphans included (user, system, total).

`/usr/bin/time` counts only the processes their parents waited for. Chromium's renderers, orphaned when the browser
shuts down, are adopted by init and counted nowhere: in `make test` that is tens of CPU-seconds it does not see.
Here this process is the subreaper (Linux's PR_SET_CHILD_SUBREAPER): orphans are adopted by it and waited for, so
their time is counted. Usage: `.venv/bin/python bench/cputime.py make test`.
"""

from __future__ import annotations

import ctypes
import os
import resource
import subprocess
import sys

PR_SET_CHILD_SUBREAPER = 36


def main(argv: list[str]) -> int:
    """Run ``argv``, wait for it and every process it left, print their CPU time on stderr; its exit code."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    child = subprocess.Popen(argv)
    code = 0
    while True:
        try:
            pid, status, _ = os.wait4(-1, 0)
        except ChildProcessError:  # none left, orphans included
            break
        if pid == child.pid:
            code = os.waitstatus_to_exitcode(status)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"cpu: user {used.ru_utime:.2f} sys {used.ru_stime:.2f} total {used.ru_utime + used.ru_stime:.2f}",
          file=sys.stderr)
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

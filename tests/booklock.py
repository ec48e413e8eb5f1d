"""The part of requirements.lock a book made by `rulebook init` installs: the tool's own dependencies (pyproject.toml's
`dependencies`, no extra), everything they need with the extras they ask for, and what the tool is built with
(setuptools, wheel). Written to templates/init/requirements.lock by `make book-lock`; tests/test_install.py fails when
the two disagree.

    python -m tests.booklock > templates/init/requirements.lock
"""

from __future__ import annotations

import re
import sys
import tomllib
from importlib.metadata import distribution
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILT_WITH = ("setuptools", "wheel")
# Where a book may be built: a dependency any of these needs is in its lock (a marker read on this machine alone
# would leave out what macOS or Windows, or a later Python, asks for).
WHERE = [{"sys_platform": platform, "platform_system": system, "os_name": os_name, "python_version": version,
          "python_full_version": f"{version}.0", "implementation_name": "cpython",
          "platform_python_implementation": "CPython"}
         for platform, system, os_name in (("linux", "Linux", "posix"), ("darwin", "Darwin", "posix"),
                                          ("win32", "Windows", "nt"))
         for version in ("3.11", "3.12", "3.13", "3.14")]
HEADER = """\
# What the rulebook tool runs on, each pinned with the digests of its files, as the tool's own repository is tested
# with them (its requirements.lock, less what only its tests use). `make` installs exactly these (--require-hashes
# --no-deps), then the tool that requirements.txt pins. Written by `rulebook init`; to move to another release of the
# tool, see README.md.
"""


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def _entries(lock: str) -> dict[str, str]:
    """Each pin of ``lock`` as written (its line and its digests), by its normalised name."""
    blocks = [b for b in re.split(r"(?m)^(?=[A-Za-z0-9])", lock) if "==" in b.split("\n", 1)[0]]
    return {_name(block.split("==", 1)[0]): block.rstrip("\n") + "\n" for block in blocks}


def runtime_lock(lock: str, pyproject: str) -> str:
    """The pins of ``lock`` the tool needs to run and to be built (their closure over the installed packages'
    metadata, with the extras asked for)."""
    from packaging.requirements import Requirement

    pins = _entries(lock)
    wanted = [Requirement(r) for r in tomllib.loads(pyproject)["project"]["dependencies"]]
    wanted += [Requirement(n) for n in BUILT_WITH]
    seen: dict[str, set[str]] = {}
    while wanted:
        req = wanted.pop()
        name = _name(req.name)
        if name not in pins:
            raise SystemExit(f"requirements.lock has no pin of {req.name}, which the tool needs: add it")
        extras = set(req.extras)
        if name in seen and extras <= seen[name]:
            continue
        seen[name] = seen.get(name, set()) | extras
        for line in distribution(name).requires or []:
            dep = Requirement(line)
            if dep.marker is None or any(dep.marker.evaluate({"extra": e, **where})
                                         for e in ["", *seen[name]] for where in WHERE):
                wanted.append(dep)
    return HEADER + "".join(pins[name] for name in sorted(seen))


if __name__ == "__main__":
    sys.stdout.write(runtime_lock((ROOT / "requirements.lock").read_text(encoding="utf-8"),
                                  (ROOT / "pyproject.toml").read_text(encoding="utf-8")))

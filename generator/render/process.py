"""A render's processes: what each is asked (``Request``), what it answers (``Result``), and that it ends with the
process that started it.

A render that may run away runs in a process of its own, started by ``run``: an edition's PDFs (``pdf/worker.py``),
the pull-request pictures' books and sites (``commands/check_pr/pictures.py``, each side by its own code). The site's
pages are written by a process forked as MkDocs starts (``site/worker.py``), and a site build mike runs reads its request
from the file ``RULEBOOK_REQUEST`` names (``site/plugin.py``, ``settings.py``). Each is given its work by one
``Request``, written as JSON, and answers in JSON lines (``Answer``): its progress as it goes, then one ``Result``
(the book's anchors, the warnings, or why it failed: an error in one line, out of memory, a full disk). One that
gives no answer is judged by how it ended: killed by a signal under the memory limit it was given, it ran out of
memory; stopped at its time limit, it took too long; else it failed, in the last line it wrote.

A build, a publish or a site build may be stopped any way at all (Ctrl-C, a time limit, kill -9); the processes it
started must not run on after it, holding its folders: each calls ``die_with_parent`` as it starts.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import IO, Any

from ..book.files import read_file_text
from ..errors import RulebookError, os_problem
from ..progress import Report, quiet

# What a request asks for: an edition's PDFs (the book, its score sheets and pad), the pull request's two books, an
# edition's site, the site's pages (for MkDocs to build).
PDF, PAIR, SITE, PAGES = "pdf", "pair", "site", "pages"


@dataclass(frozen=True)
class Request:
    """What a render's process is asked to make, and all it needs to: none of its work comes to it through the
    environment (it reads the user's settings as every process does)."""

    task: str  # PDF, PAIR, SITE or PAGES
    root: str  # the book's folder
    edition: str | None = None  # None: the current edition
    out: str = ""  # where it goes: the PDFs' folder, the pair's, the site's, the generated pages'
    # The sources as the build validated them (name -> digest): a load that reads other bytes stops (load_library).
    validated: dict[str, str] | None = None
    paper: str = "letter"
    duplex: bool = False
    keep: str | None = None  # PDF: the build's folder of kept score sheets (scorepad.SheetKeeper), if any
    jobs: int = 1  # PDF: processes that lay out the book and the score sheets side by side
    before: str | None = None  # PAIR: the book before the change (``root`` is the one after)
    before_edition: str | None = None
    exact: bool = False  # PAIR: both laid out as the build lays them out (every page its own number: no part moved)
    # PAIR, exact: which of the PDFs publish makes of the edition to lay out ("book", "sheets": every score sheet
    # and the score pad), each side's into a folder of its own (before/, after/); None: the book alone
    prints: list[str] | None = None
    staging: str | None = None  # SITE: a folder for what the build needs on the way
    downloads: str | None = None  # the site: the folder of the PDFs it links, if any
    pages: dict[str, int] | None = None  # the site: the book's page of each anchor, which it prints
    repo: str = ""  # the site: the repository setting (the plugin's ``repo:``)
    versioned: bool = False  # the site: one version among several (mike deploys it)
    site: str | None = None  # the site mike deploys: the folder it is built into (publish's own), not mkdocs.yml's

    def to_json(self) -> str:
        """The request as JSON."""
        return json.dumps(asdict(self), sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Request:
        """A request as ``to_json`` wrote it. A field this code does not know is left out: a side of a pull request
        drawn by its own code reads what it knows."""
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("task"), str):
            raise ValueError("not a render's request")
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})

    @classmethod
    def read(cls, path: Path) -> Request:
        """The request in the file ``path``; one line if it is not one."""
        try:
            return cls.from_json(read_file_text(path))
        except (ValueError, TypeError) as exc:
            raise RulebookError(f"{path}: not a render's request ({exc}): it is written by the process that starts "
                                "the render") from None


ERROR, MEMORY, DISK, TIMEOUT = "error", "memory", "disk", "timeout"  # why a render failed: Failure.kind


@dataclass(frozen=True)
class Failure:
    """Why a render's process did not make what it was asked: its kind (ERROR, MEMORY, DISK, TIMEOUT) and what it
    said (one line, or the book's own errors as the book says them, a line each)."""

    kind: str
    message: str = ""


@dataclass(frozen=True)
class Result:
    """A render's process's answer: the book's anchors (each one's page), what it could not do as the data asks
    (``warnings``), or why it failed."""

    anchors: dict[str, int] | None = None
    warnings: tuple[str, ...] = ()
    failure: Failure | None = None

    def as_json(self) -> dict[str, Any]:
        """The result as JSON's values."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Result:
        """A result as ``as_json`` gave it (a field this code does not know left out)."""
        if not isinstance(data, dict):
            raise ValueError("not a render's result")
        failure = data.get("failure")
        return cls(anchors=data.get("anchors"), warnings=tuple(data.get("warnings") or ()),
                   failure=Failure(**{k: v for k, v in failure.items() if k in ("kind", "message")})
                   if isinstance(failure, dict) else None)

    def merged(self, other: Result) -> Result:
        """This answer and ``other``'s (a process forked for part of the work): the warnings of both, the first
        failure, the anchors given."""
        return Result(self.anchors if self.anchors is not None else other.anchors, self.warnings + other.warnings,
                      self.failure or other.failure)


def starved(share: float = 0.75) -> bool:
    """Whether this process has used more than ``share`` of the address space it may (its memory limit): an error
    there, in a C library that says so its own way, is the limit's doing."""
    import resource

    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit == resource.RLIM_INFINITY:
        return False
    try:
        status = read_file_text(Path("/proc/self/status"))
    except (OSError, RulebookError):  # not Linux: only a MemoryError tells
        return False
    peak = next((line.split()[1] for line in status.splitlines() if line.startswith("VmPeak:")), "0")
    return int(peak) * 1024 > share * limit


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and the errors it was raised from or while handling, however it was raised."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def failure(exc: BaseException, where: Path | None = None, said: str | None = None) -> Failure:
    """What ``exc``, raised in a render's process, means: out of memory (a MemoryError, or an error raised from one
    or once the process had used most of its memory: ``starved``); the book's own error in its words; a full disk;
    an OS error naming its path; else ``said`` (the render's words for where it gave up), or the error itself."""
    first = (str(exc).splitlines() or [""])[0][:200]
    if any(isinstance(cause, MemoryError) for cause in _causes(exc)) or (
            not isinstance(exc, RulebookError) and starved()):
        return Failure(MEMORY, f"{type(exc).__name__}: {first}".rstrip(": "))
    if isinstance(exc, RulebookError):
        return Failure(ERROR, str(exc))
    if isinstance(exc, OSError):
        return Failure(DISK if exc.errno in (errno.ENOSPC, errno.EDQUOT) else ERROR, os_problem(exc, where))
    return Failure(ERROR, said or f"{type(exc).__name__}: {first}")


class Answer:
    """A render's process's side of its answer: JSON lines on what was its standard output when it started (what
    else writes there goes to its standard error), one write a line, so that the processes it forks never mix
    theirs."""

    def __init__(self) -> None:
        sys.stdout.flush()
        self._fd = os.dup(1)
        os.dup2(2, 1)

    def _send(self, message: dict[str, Any]) -> None:
        data = (json.dumps(message, sort_keys=True, ensure_ascii=False) + "\n").encode()
        while data:
            data = data[os.write(self._fd, data):]

    def report(self, stage: str, done: int = 0, total: int | None = None, final: bool = False) -> None:
        """How far a stage has come (a ``progress.Report``)."""
        self._send({"progress": [stage, done, total, final]})

    def result(self, result: Result) -> None:
        """The answer: sent once, last."""
        self._send({"result": result.as_json()})


def _read_answers(stream: IO[str], answers: list[Result], progress: Report) -> None:
    """Hand a render's reports to ``progress`` as they come; keep its result."""
    for line in stream:
        try:
            message = json.loads(line)
            if "progress" in message:
                stage, done, total, final = message["progress"]
                progress(stage, done, total, final=final)
            elif "result" in message:
                answers.append(Result.from_json(message["result"]))
        except (ValueError, TypeError, KeyError):  # not an answer (a side's code of another making): not one
            continue


CODE = Path(__file__).resolve().parents[2]  # the folder this code (generator/) is in


def run(module: str, request: Request, *, timeout: float, memory_mb: int, progress: Report = quiet,
        code: Path | None = None) -> Result:
    """``python -m module REQUEST`` in a process (and session) of its own under ``timeout`` seconds and ``memory_mb``
    of address space a process, with ``code`` first on its path (this code unless given); its answer, or why it gave
    none. Its reports go to ``progress`` as they come. However it ends, nothing it started is left running."""
    code = code or CODE
    with scratch_environment() as env:
        scratch = Path(env["TMPDIR"])
        asked = scratch / "request.json"
        asked.write_text(request.to_json(), encoding="utf-8")
        if code != CODE:
            env["PYTHONPATH"] = str(code) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        with tempfile.TemporaryFile(dir=scratch) as said:  # its standard error: the last line tells, if no answer does
            answers: list[Result] = []
            with subprocess.Popen([sys.executable, "-m", module, str(asked)], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=said, text=True, encoding="utf-8", env=env, cwd=code,
                                  start_new_session=True, preexec_fn=_limited(memory_mb)) as process:
                reader = threading.Thread(target=_read_answers, args=(process.stdout, answers, progress), daemon=True)
                reader.start()
                try:
                    process.wait(timeout=timeout)
                except BaseException as exc:  # the time limit, or the caller itself stopped
                    _stop_group(process.pid)
                    process.wait()
                    reader.join(10)
                    if isinstance(exc, subprocess.TimeoutExpired):
                        return Result(failure=Failure(TIMEOUT, f"it took longer than {timeout:g} s"))
                    raise
                _stop_group(process.pid)  # what it forked and left running, if anything (its answer ends with them)
                reader.join()
            if answers:
                return answers[-1]
            said.seek(0)
            last = (said.read()[-4000:].decode("utf-8", "replace").strip().splitlines() or [""])[-1]
    ended = process.returncode
    if ended < 0:  # a C library that could not allocate, or the system, killed it: the limit it was given
        return Result(failure=Failure(MEMORY, f"killed by {signal.Signals(-ended).name}"))
    return Result(failure=Failure(ERROR, last.removeprefix("error: ") or f"it ended (exit {ended}) without an answer"))


def granted(megabytes: int) -> int:
    """The address space, in MB, a process asked ``megabytes`` gets: less where this shell's hard limit (`ulimit -v`),
    which no process may raise, is lower."""
    import resource

    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    return megabytes if hard == resource.RLIM_INFINITY else min(megabytes, hard // (1024 * 1024))


def _limited(megabytes: int) -> Callable[[], None]:
    """What a render's process does before it starts: it ends with this one, and may use ``megabytes`` of address
    space."""
    parent = os.getpid()

    def apply() -> None:
        import resource

        die_with_parent(parent)
        limit = megabytes * 1024 * 1024
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        if hard != resource.RLIM_INFINITY:  # a user's `ulimit -v` below ours: no process may raise it, so keep it
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


def _stop_group(pid: int) -> None:
    """Kill every process left in a render's process group (none may be left)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


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

    Called in a child just after the fork: a render in a session of its own would otherwise run on after its build
    was killed, holding the build's folder. Linux's parent-death signal outlives exec; a parent that ended before it
    was asked for is seen at once (this process then has another parent).
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
    its font configuration is collected; a render's process ends without collecting (``os._exit``), or is killed: in
    the system's temporary folder, each render would leave its copy behind. The request ``run`` gives a render is
    written here too."""
    sweep_scratch()
    scratch = tempfile.mkdtemp(prefix=f"{SCRATCH}{os.getpid()}-")
    try:
        yield {**os.environ, "TMPDIR": scratch}
    finally:
        # Not TemporaryDirectory's clean-up: it raises when a file goes while it removes the folder (a render's
        # process still ending), and leaves the folder behind.
        for _ in range(3):
            shutil.rmtree(scratch, ignore_errors=True)
            if not os.path.lexists(scratch):
                break
            time.sleep(0.1)

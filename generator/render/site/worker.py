"""The site's pages, generated in a second process while MkDocs starts up and reads them.

MkDocs builds on one CPU, and between making the plugin and listing the files it spends a good part of a small
book's build on its own start (the rest of its configuration, the theme, the theme's files). Importing the data
model, loading the library and writing the pages take about as long. So the plugin starts this worker as soon as
MkDocs makes it (the imports happen then) and gives it its request (``process.Request``) once the configuration is
read. The worker answers in JSON lines: the list of files once the library is loaded, then each page as it is
written, in the order MkDocs reads them (MkDocs starts on the first while the others are written: ``plugin.py``),
and, if the book cannot be made, a ``process.Result`` saying why. The same ``generate`` runs in the build's own
process when no worker can.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ...errors import RulebookError
from ..process import ERROR, Failure, Request, Result, die_with_parent

if TYPE_CHECKING:
    from ...book.library import Library


def described(lib: Library) -> dict[str, str]:
    """The site's name and what the theme says of the book on every page (its meta tags) and the installed app, as
    typed (the plugin escapes them for the theme)."""
    return {"site_name": f"{lib.book.title} · {lib.edition.id}", "site_description": lib.book.description,
            "site_author": lib.book.author}


def generate(request: Request, listed: Callable[[dict[str, Any]], None] | None = None,
             written: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Load the edition the request names (held to the sources it validated, if any) and write its site's pages into
    its ``out`` folder (``docs.write_docs``, which ``listed`` and ``written`` are given to); return where they are,
    the nav, the edit sources, the files in reading order and the title."""
    from ...book.library import load_library
    from .docs import write_docs
    from .repository import repository

    root = Path(request.root)
    lib = load_library(root, request.edition, validated=request.validated)
    docs = Path(request.out) / lib.edition.id / "docs"
    repo = repository(root, request.repo) or ""  # configured, never built in: '' offers the book's own address
    where = {"docs": str(docs), **described(lib), "accent": lib.book.accent, "edition": lib.edition.id, "repo": repo}

    def tell(result: dict[str, Any]) -> None:
        if listed is not None:
            listed({**result, **where})

    downloads = Path(request.downloads) if request.downloads else None
    return {**write_docs(lib, docs, downloads, request.pages, repo, tell, written), **where}


class SiteWorker:
    """A forked process that imports the data model at once and generates the pages when asked (once).

    Forked, not started afresh: it shares what MkDocs has imported (Jinja, Markdown, YAML), so only the
    data model is left to import (a new Python would import all of it again). Never start one while other
    threads run: a fork could copy a lock one of them holds (``available``).
    """

    def __init__(self) -> None:
        request_read, request_write = os.pipe()
        answer_read, answer_write = os.pipe()
        # Out of this process's cycle collector until the worker ends (_reap): a collection writes to every object it
        # walks, and each page so written is then copied (copy-on-write). The worker itself collects none (_worker).
        gc.freeze()
        parent = os.getpid()
        try:
            self.pid = os.fork()
        except OSError:  # no process to be had (the caller makes the pages itself): nothing left behind
            gc.unfreeze()
            for fd in (request_read, request_write, answer_read, answer_write):
                os.close(fd)
            raise
        if self.pid == 0:  # the child: never returns
            die_with_parent(parent)  # a build killed mid-page takes it (and the build folder it holds) with it
            os.close(request_write)
            os.close(answer_read)
            _worker(request_read, answer_write)
        os.close(request_read)
        os.close(answer_write)
        self._request = os.fdopen(request_write, "w", encoding="utf-8")
        self._answer = os.fdopen(answer_read, "r", encoding="utf-8")
        # A worker let go of unasked (a configuration read, nothing built) sees its request pipe close, leaves and
        # is reaped here; one that has ended, or is stopped, is reaped at once.
        self._reap = weakref.finalize(self, _reap, self.pid, self._request, self._answer)
        self.written: set[str] = set()
        self.ended: int | None = None  # the worker's exit code, once it has ended

    @staticmethod
    def available() -> bool:
        """Whether a worker may be forked here (this is the process's only thread)."""
        return hasattr(os, "fork") and threading.active_count() == 1

    def ask(self, request: Request) -> None:
        """Start generating what ``request`` asks (``generate``)."""
        with contextlib.suppress(BrokenPipeError), self._request:  # a worker that died: listing() says so
            self._request.write(request.to_json())

    def _next(self) -> dict[str, Any] | None:
        """The worker's next message; None once it has ended (reaped then), having failed or not."""
        line = self._answer.readline() if self.ended is None else ""
        if line:
            message = json.loads(line)
            if "result" not in message:
                return message
            self.ended = os.waitstatus_to_exitcode(self._reap())
            failure = Result.from_json(message["result"]).failure
            if failure is not None:
                raise RulebookError(failure.message)
            return None
        if self.ended is None:
            self.ended = os.waitstatus_to_exitcode(self._reap())
        return None

    def listing(self) -> dict[str, Any] | None:
        """Wait for the list of files (``generate``'s answer, given before the pages are written); None if the
        worker failed in any other way than the library's own error (the caller then generates in its own
        process, where the real error is raised)."""
        message = self._next()
        return message["listing"] if message is not None else None

    def wait_for(self, rel: str) -> bool:
        """Wait until the page at ``rel`` is written; False if the worker failed first."""
        while rel not in self.written:
            message = self._next()
            if message is None:
                return False
            self.written.add(message["written"])
        return True

    def finish(self) -> bool:
        """Wait for the worker to end; whether it wrote every page."""
        while (message := self._next()) is not None:
            self.written.add(message["written"])
        return self.ended == 0

    def stop(self) -> None:
        """Stop the worker (it is not wanted): nothing is left running."""
        if self.ended is None:  # once reaped, its process id may be another process's
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            self.ended = os.waitstatus_to_exitcode(self._reap())


def _reap(pid: int, *pipes: Any) -> int:
    """Close a worker's pipes and wait for it to end; its wait status."""
    for pipe in pipes:
        with contextlib.suppress(OSError):
            pipe.close()
    status = os.waitpid(pid, 0)[1]
    gc.unfreeze()
    return status


def _worker(request_read: int, answer_write: int) -> NoReturn:
    """The forked process: one request (``process.Request``) from the parent; the listing, then each page written,
    as JSON lines back, then its result (the library's error, if that stopped it); leaves without the parent's exit
    handlers."""
    code = 1
    # No cycle collection in this short-lived process: its objects (the loaded edition, the pages' text) live until it
    # exits, and the collector would walk them again and again while they are made.
    gc.disable()
    try:
        from . import docs  # noqa: F401 - imported before the request comes: the time this process saves

        with os.fdopen(request_read, "r", encoding="utf-8") as pipe:
            line = pipe.read()
        with os.fdopen(answer_write, "w", encoding="utf-8") as answer:
            def send(message: dict[str, Any]) -> None:
                answer.write(json.dumps(message) + "\n")
                answer.flush()

            if line:  # else never asked (the configuration was read, but nothing built)
                try:
                    generate(Request.from_json(line), listed=lambda listing: send({"listing": listing}),
                             written=lambda rel: send({"written": rel}))
                except RulebookError as exc:  # the contributor's mistake, told as the build tells it
                    send({"result": Result(failure=Failure(ERROR, str(exc))).as_json()})
                else:
                    send({"result": Result().as_json()})
        code = 0
    finally:  # on any other error, code 1: the parent generates again and raises it itself
        os._exit(code)

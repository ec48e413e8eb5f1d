"""The site's pages, generated in a second process while MkDocs starts up.

MkDocs builds on one CPU, and between making the plugin and listing the files it spends about
0.13 s of the book's build on its own start (the rest of its configuration, the theme, the theme's
files). Importing the data model, loading the library and writing the pages take about as long.
So the plugin starts this worker as soon as MkDocs makes it (the imports happen then), tells it
what to generate once the configuration is read, and takes the pages when MkDocs lists the files
(``mkdocs_plugin.py``). The same ``generate`` runs in the build's own process when no worker can.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import signal
import threading
import weakref
from pathlib import Path
from typing import Any, NoReturn

from ..errors import RulebookError


def generate(root: str, edition: str | None, generated: str, downloads: str | None, pages: str | None,
             repo: str) -> dict[str, Any]:
    """Load the edition and write its site's pages; return where they are, the nav, the edit sources and the title."""
    from ..library import load_library
    from .site import write_docs

    lib = load_library(Path(root), edition)
    docs = Path(root) / generated / lib.edition.id / "docs"
    book_pages = json.loads(Path(pages).read_text(encoding="utf-8")) if pages else None
    result = write_docs(lib, docs, Path(downloads) if downloads else None, book_pages, repo)
    return {"docs": str(docs), "nav": result["nav"], "edit": result.get("edit", {}),
            "site_name": html.escape(f"{lib.book.title} · {lib.edition.id}")}  # printed raw by the theme


class SiteWorker:
    """A forked process that imports the data model at once and generates the pages when asked (once).

    Forked, not started afresh: it shares what MkDocs has imported (Jinja, Markdown, YAML), so only the
    data model is left to import (a new Python took 0.23 s to import what this one needs). Never start
    one while other threads run: a fork could copy a lock one of them holds (``available``).
    """

    def __init__(self) -> None:
        request_read, request_write = os.pipe()
        answer_read, answer_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            os.close(request_write)
            os.close(answer_read)
            _worker(request_read, answer_write)
        os.close(request_read)
        os.close(answer_write)
        self._request = os.fdopen(request_write, "w", encoding="utf-8")
        self._answer = os.fdopen(answer_read, "rb")
        # A worker let go of unasked (a configuration read, nothing built) sees its request pipe close, leaves and
        # is reaped here; answer() and stop() reap it at once.
        self._reap = weakref.finalize(self, _reap, self.pid, self._request, self._answer)

    @staticmethod
    def available() -> bool:
        """Whether a worker may be forked here (this is the process's only thread)."""
        return hasattr(os, "fork") and threading.active_count() == 1

    def ask(self, **request: Any) -> None:
        """Start generating: ``generate``'s arguments."""
        with contextlib.suppress(BrokenPipeError), self._request:  # a worker that died: answer() says so
            self._request.write(json.dumps(request))

    def answer(self) -> dict[str, Any] | None:
        """Wait for ``generate``'s result; None if the worker failed in any other way than the library's
        own error (the caller then generates in its own process, where the real error is raised)."""
        data = self._answer.read()
        if os.waitstatus_to_exitcode(self._reap()) != 0 or not data:
            return None
        answer = json.loads(data)
        if "error" in answer:
            raise RulebookError(answer["error"])
        return answer

    def stop(self) -> None:
        """Stop the worker (it is not wanted): nothing is left running."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        self._reap()


def _reap(pid: int, *pipes: Any) -> int:
    """Close a worker's pipes and wait for it to end; its wait status."""
    for pipe in pipes:
        with contextlib.suppress(OSError):
            pipe.close()
    return os.waitpid(pid, 0)[1]


def _worker(request_read: int, answer_write: int) -> NoReturn:
    """The forked process: one request as JSON from the parent, the answer as JSON back; leaves without the
    parent's exit handlers."""
    code = 1
    try:
        from . import site  # noqa: F401 - imported before the request comes: the time this process saves

        with os.fdopen(request_read, "r", encoding="utf-8") as pipe:
            line = pipe.read()
        if line:  # else never asked (the configuration was read, but nothing built)
            try:
                answer = generate(**json.loads(line))
            except RulebookError as exc:  # the contributor's mistake, told as the build tells it
                answer = {"error": str(exc)}
            with os.fdopen(answer_write, "w", encoding="utf-8") as pipe:
                json.dump(answer, pipe)
        code = 0
    finally:  # on any other error, code 1: the parent generates again and raises it itself
        os._exit(code)

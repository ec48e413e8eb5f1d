"""``rulebook preview``: rebuild the book PDF whenever a source changes, for proof-reading in print.

The laid-out book is kept between rebuilds (``render.pdf.book.Layout``), so an edit to one game lays
out that game's section again, and the parts after it only if its page count changed. The PDF is written
beside the target and moved over it, so a PDF viewer never opens a half-written file, and a
source with errors leaves the last good preview in place.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path

from ..book.words import _
from ..errors import OutputError, RulebookError, os_problem

WATCHED = ("rules_data", "content", "templates")


def sources_stamp(root: Path) -> tuple[tuple[str, int, int], ...]:
    """What the sources look like now: every watched file's path, size and modification time."""
    found = []
    for folder in WATCHED:
        for path in sorted((root / folder).rglob("*")):
            with contextlib.suppress(OSError):  # removed meanwhile, or unreadable: the rebuild says so
                if path.is_file():
                    stat = path.stat()
                    found.append((path.relative_to(root).as_posix(), stat.st_size, stat.st_mtime_ns))
    return tuple(found)


class Preview:
    """One edition's book PDF, rebuilt on demand with the previous layout kept."""

    def __init__(self, root: Path, target: Path, edition: str | None = None, paper: str = "letter",
                 duplex: bool = False) -> None:
        from ..render.pdf.book import Layout
        from ..render.pdf.weasy import Engine

        self.root, self.target, self.edition = root, target, edition
        self.layout = Layout(Engine(paper, root), duplex)
        self.warnings: list[str] = []  # what the last rebuild could not do as asked, or WeasyPrint warned of

    def _mark(self) -> Path:
        """The file beside the PDF that says a preview wrote it (``_may_write``)."""
        return self.target.with_name(f".{self.target.name}.rulebook-preview")

    def _may_write(self) -> None:
        """Refuse, in one line, a target that is a file a preview did not write (the user's own PDF), or one inside
        the sources: --out never replaces what the program did not make."""
        root, target = self.root.resolve(), self.target.resolve()
        for name in ("rules_data", "content", "templates"):
            if root / name in target.parents:
                raise OutputError(f"{self.target} is inside {name}/, where the book's sources are: give a PDF "
                                  f"outside them, such as {root / 'preview' / 'book.pdf'}")
        default = target == root / "preview" / "book.pdf"  # the preview's own place (written before the mark was)
        if (self.target.exists() or self.target.is_symlink()) and not default and not self._mark().is_file():
            raise OutputError(f"{self.target} is there already, and no preview wrote it: nothing was changed; give "
                              "a new file, or move that one away")

    def rebuild(self) -> int:
        """Validate and write the PDF; return how many parts had to be laid out again. What the layout could not do
        as asked, and what WeasyPrint warned of laying it out, is in ``warnings`` after it (as a build tells them)."""
        from ..render.pdf.weasy import engine_warnings

        self.warnings = []
        with engine_warnings(self.warnings.append):
            return self._rebuild()

    def _rebuild(self) -> int:
        from ..book.library import load_library
        from ..checks import run_checks
        from ..render.pdf.book import render_book
        from .validate import as_text

        self._may_write()  # a target it may not write is refused first, whatever the sources say (a file in content/)
        lib = load_library(self.root, self.edition)
        errors = [f for f in run_checks(lib) if f.severity == "error"]
        if errors:  # the same lines `rulebook validate` prints, so an editor can jump to them
            raise RulebookError("the sources have errors; the last good preview is kept\n"
                                + as_text(errors, len(lib.games)))
        before = self.layout.laid_out
        self.target.parent.mkdir(parents=True, exist_ok=True)
        partial = self.target.with_name(f".{self.target.name}.partial")
        try:
            render_book(lib, partial, paper=self.layout.engine.paper, layout=self.layout, warn=self.warnings.append)
            os.replace(partial, self.target)
            self._mark().write_text("written by `rulebook preview`: the next preview replaces the PDF beside this\n",
                                    encoding="utf-8")
        except OSError as exc:  # a full disk, a read-only folder: the last good preview is kept
            partial.unlink(missing_ok=True)
            raise OutputError(f"{os_problem(exc, self.target)}; the last good preview is kept") from None
        return self.layout.laid_out - before


def watch(preview: Preview, report: Callable[[str], None] = print, interval: float = 1.0,
          rounds: int | None = None) -> None:
    """Rebuild now and after every change to the sources; ``rounds`` limits the polls (tests)."""
    stamp = None
    while rounds is None or rounds > 0:
        now = sources_stamp(preview.root)
        if now != stamp:
            stamp = now
            started = time.perf_counter()
            try:
                parts = preview.rebuild()
                told = _("wrote %(file)s (%(parts)s part(s) laid out, %(seconds)s s)", file=preview.target, parts=parts,
                         seconds=f"{time.perf_counter() - started:.1f}")
            except RulebookError as exc:
                told = _("error: %(problem)s", problem=exc)
            except OSError as exc:  # the preview folder cannot be made, say: told, and the watch goes on
                told = _("error: %(problem)s", problem=os_problem(exc, preview.target))
            for warning in getattr(preview, "warnings", []):  # before the outcome, as a build prints them
                report(_("warning: %(problem)s", problem=warning))
            report(told)
        if rounds is not None:
            rounds -= 1
        if rounds != 0:
            time.sleep(interval)


def run(root: Path, edition: str | None = None, out: Path | None = None, paper: str = "letter",
        duplex: bool = False) -> int:
    """``rulebook preview``: rebuild the book PDF whenever a source changes, until Ctrl-C."""
    import contextlib

    target = out or root / "preview" / "book.pdf"  # not build/: a build replaces it
    preview = Preview(root, target, edition=edition, paper=paper, duplex=duplex)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a preview ends
        watch(preview, report=lambda line: print(line, flush=True))
    return 0

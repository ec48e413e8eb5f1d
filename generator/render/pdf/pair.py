"""Two versions of one edition's book laid out in one child process, for the pull-request check's pictures.

``python -m generator.render.pdf.pair REQUEST`` (a PAIR ``process.Request``: ``before`` and ``before_edition`` the book
before the change, ``root`` and ``edition`` the book after, ``out`` a folder) writes ``out/before.pdf`` and
``out/after.pdf`` (the book alone: no score sheet, which the pictures do not show) and each one's anchors
(``before.json``, ``after.json``), and answers with a ``process.Result``.
The two share one ``Layout`` that keeps its parts, as ``rulebook preview`` does, and more (``MovedLayout``): the second
book lays out again only the parts the change touched, not those it only moved to another first page, so the pair costs
about one book and the parts the change touched. With ``exact`` (the released editions' comparison, which reads every
page), each book is laid out as the build lays it out: a part is shared only where it starts on the same page
(``laid_out_exactly``, kept in the PDF cache by what each side was made from; ``layout_inputs`` says whether two
sides need laying out at all).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .book import Layout, Part

if TYPE_CHECKING:
    from ..process import Request


class MovedLayout(Layout):
    """A kept layout that gives a part it laid out before for the same part at another first page (one-sided only).

    Only the pictures may: such a part's pages print the page numbers of its first layout, and the anchors (links,
    the contents, the index) are counted from where it is now. Its pages say what they said before, numbers aside,
    so the pictures never draw them (``pictures.Page.key``); a part the change touched is laid out where it is."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.by_body: dict[str, Any] = {}

    def part(self, make_document: Callable[[str], str], part: Part, first_page: int) -> Any:
        """The laid-out part, from any first page it was laid out at before."""
        if self.duplex or part.body not in self.by_body:
            self.by_body[part.body] = super().part(make_document, part, first_page)
        return self.by_body[part.body]


MODULE = "generator.render.pdf.pair"  # this module, run in a process of its own (``main``)
KEPT_BOOKS = 6  # books of one published edition the PDF cache keeps: both sides of the last few checks


def print_assets(book: Path) -> dict[str, bytes]:
    """The book's own print assets (templates/print/), by name: two sides with the same lay a part out alike."""
    from ...book.files import MAX_ASSET_BYTES, read_source, template_folders
    from ...errors import RulebookError

    folders = template_folders(book)[:-1]  # the book's own, if it has any: the tool's is the same for both
    found: dict[str, bytes] = {}
    for folder in folders:
        for path in sorted((folder / "print").rglob("*")):
            if path.is_file() or path.is_symlink():
                rel = path.relative_to(folder).as_posix()
                try:
                    found[rel] = read_source(path, f"templates/{rel}", book, MAX_ASSET_BYTES)
                except RulebookError as exc:
                    found[rel] = str(exc).encode()  # the render says so, when it reads it
    return found


def layout_inputs(root: Path, edition: str) -> tuple[str, str, dict[str, bytes]]:
    """What the layout of ``edition``'s book at ``root`` is a function of, the code aside: its HTML (every part, page
    numbers aside: ``book_html``), the pages it keeps as printed, and its own print styles and fonts. Two sides alike
    lay out the same pages: most changes of the open edition leave a published one's alike, and its layout, the
    check's costliest step, is then not needed."""
    from ...book.index import printed_pages
    from ...book.library import load_library
    from .book import book_html

    lib = load_library(root, edition)
    return book_html(lib), repr(sorted(printed_pages(lib).items())), print_assets(root)


def laid_out_exactly(base_root: Path, root: Path, edition: str, games: int, out: Path) -> tuple[Path, Path]:
    """The edition's book as the base's sources make it and as the change's do (``out/before.pdf``,
    ``out/after.pdf``), each with its own templates, styles and fonts, both laid out by the running code: never by
    the change's. Kept in the PDF cache (``RULEBOOK_PDF_CACHE``) by what each was made from, when one is set."""
    from ... import settings
    from ...book.files import copy_file
    from ...errors import RulebookError
    from ..process import PAIR, Request, run
    from . import cache
    from .worker import limits

    keep = settings.read().pdf_cache
    names = {}
    for side, top in (("before", base_root), ("after", root)) if keep else ():
        digest = cache.new_digest("released", edition, book=top)  # (the code, the versions, the book's templates)
        cache.add_files(digest, top, ("rules_data", "content"))
        names[side] = digest.hexdigest()[:32]
    folder = keep / "released" / edition if keep else None
    if folder is not None and all(cache.proven(folder / name) for name in names.values()):
        return folder / names["before"] / "book.pdf", folder / names["after"] / "book.pdf"
    out.mkdir(parents=True, exist_ok=True)
    timeout, memory = limits(games)
    failed = run(MODULE, Request(PAIR, str(root), edition, str(out), before=str(base_root),
                                        before_edition=edition, exact=True), timeout=timeout, memory_mb=memory).failure
    if failed is not None:
        raise RulebookError(f"the layout failed: {failed.message}")
    if folder is None:
        return out / "before.pdf", out / "after.pdf"
    kept = {}
    for side, name in names.items():
        def made(staged: Path, side: str = side) -> None:
            copy_file(out / f"{side}.pdf", staged / "book.pdf")
        kept[side] = cache.kept(folder, name, made, newest=KEPT_BOOKS) / "book.pdf"
    return kept["before"], kept["after"]


def main(argv: list[str]) -> int:
    """Render both books the request (a file) asks for; the answer on what was standard output (``process.Answer``)."""
    from ..process import Answer, Request, Result, failure

    answer = Answer()
    try:
        request = Request.read(Path(argv[0]))
        _render_pair(request)
        result = Result()
    except Exception as exc:  # noqa: BLE001 - the sources' own error, a full disk, memory: the answer says which
        result = Result(failure=failure(exc, Path(argv[0]).parent))
    answer.result(result)
    return 0 if result.failure is None else 1


def _render_pair(request: Request) -> None:
    """The two books ``request`` asks for, and their anchors, into its folder."""
    from ...book.library import load_library
    from ...errors import RulebookError
    from ..process import PAIR
    from .book import render_book
    from .weasy import Engine

    if request.task != PAIR or request.before is None:
        raise RulebookError(f"the pair renders two books, not the {request.task!r} asked")
    out = Path(request.out)
    kind = Layout if request.exact else MovedLayout  # exact: a part is shared only where it starts on the same page
    layout = kind(Engine("letter", Path(request.before)), keep=True)
    for name, root, edition in (("before", request.before, request.before_edition),
                                ("after", request.root, request.edition)):
        if name == "after" and print_assets(Path(root)) != print_assets(Path(request.before)):
            layout = kind(Engine("letter", Path(root)), keep=True)  # its own styles: nothing shared
        anchors = render_book(load_library(Path(root), edition, validated=request.validated), out / f"{name}.pdf",
                              layout=layout)
        (out / f"{name}.json").write_text(json.dumps(anchors, sort_keys=True), encoding="utf-8")


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # every file is written and closed (as the book's worker ends)

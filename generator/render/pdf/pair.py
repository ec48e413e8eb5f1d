"""Two versions of one edition's book laid out in one child process, for the pull-request check's pictures.

``python -m generator.render.pdf.pair REQUEST`` (a PAIR ``process.Request``: ``before`` and ``before_edition`` the book
before the change, ``root`` and ``edition`` the book after, ``out`` a folder) writes ``out/before.pdf`` and
``out/after.pdf`` (the book alone: no score sheet, which the pictures do not show) and each one's anchors
(``before.json``, ``after.json``), and answers with a ``process.Result``.
The two share one ``Layout`` that keeps its parts, as ``rulebook preview`` does, and more (``MovedLayout``): the second
book lays out again only the parts the change touched, not those it only moved to another first page, so the pair costs
about one book and the parts the change touched. With ``exact`` (the released editions' comparison, which reads every
page), each book is laid out as the build lays it out: a part is shared only where it starts on the same page, and
each side's PDFs the request's ``prints`` names (the book; the score sheets and pad, as publish's render writes them)
go into a folder of its own, ``out/before/`` and ``out/after/``, by the names publish gives them
(``laid_out_exactly``, kept in the PDF cache by what each side was made from; ``layout_inputs`` and ``sheet_inputs``
say whether two sides need laying out at all).
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


BOOK, SHEETS = "book", "sheets"  # what publish makes of an edition: its book, and its score sheets and pad
PUBLISHED_PAPER = "letter"  # the paper publish lays an edition out on (one-sided: ``render_pdfs``'s defaults)


def sheet_inputs(root: Path, edition: str) -> str:
    """What the score sheets and the score pad of ``edition`` at ``root`` are a function of, the code aside: each
    sheet's HTML as the layout may set it and its sample (``scorepad.sheet_digests``), the pad's contents page as its
    template writes it (the page each sheet starts on aside: the sheets' layout sets it), and the book's own print
    styles, fonts and templates. Two sides alike lay out the same sheets and pad; opening an edition, which changes no sheet of an
    earlier one, leaves them alike."""
    import hashlib

    from ...book.library import load_library
    from ..views.sheets import sheet_files
    from .book import _env, game_pages, names_sheets
    from .scorepad import sheet_digests

    lib = load_library(root, edition)
    start = hashlib.sha256(f"score sheets\0{PUBLISHED_PAPER}".encode())
    # Its print templates too, though the HTML shows what they make of it: a template may act on what only the layout
    # gives it (the rows that fit, the page a sheet starts on), which no HTML worked out before the layout shows.
    for name, body in sorted(print_assets(root).items()):
        start.update(f"\0{name}\0".encode() + body)
    pages = game_pages(lib)
    sheets, _ = sheet_digests(lib, pages, PUBLISHED_PAPER, start=start)  # (its pad's: the whole book.yaml, broader)
    contents = _env(lib).get_template("print/score-pad.html.j2").render(
        sheets=[(file, 0) for file in sheet_files(pages)], named=names_sheets(lib))
    return "\0".join([contents, *(f"{key}:{digest}" for key, digest in sorted(sheets.items()))])


def laid_out_exactly(base_root: Path, root: Path, edition: str, games: int, out: Path,
                     prints: tuple[str, ...] = (BOOK,)) -> tuple[Path, Path]:
    """The PDFs ``prints`` names of the edition, as publish makes them (``BOOK``: the book; ``SHEETS``: every score
    sheet and the score pad), from the base's sources and from the change's: two folders (before, after) holding
    each PDF by the name publish gives it, each side with its own templates, styles and fonts, both laid out by the
    running code: never by the change's. Kept in the PDF cache (``RULEBOOK_PDF_CACHE``) by what each side was made
    from and what was asked, when one is set."""
    from ... import settings
    from ...book.files import copy_tree
    from ...errors import RulebookError
    from ..process import PAIR, Request, run
    from . import cache
    from .worker import limits

    keep = settings.read().pdf_cache
    names = {}
    for side, top in (("before", base_root), ("after", root)) if keep else ():
        # (the code, the versions, the book's templates; what is laid out)
        digest = cache.new_digest("released", edition, *sorted(prints), book=top)
        cache.add_files(digest, top, ("rules_data", "content"))
        names[side] = digest.hexdigest()[:32]
    folder = keep / "released" / edition if keep else None
    if folder is not None and all(cache.proven(folder / name) for name in names.values()):
        return folder / names["before"] / "pdf", folder / names["after"] / "pdf"
    out.mkdir(parents=True, exist_ok=True)
    timeout, memory = limits(games)
    failed = run(MODULE, Request(PAIR, str(root), edition, str(out), before=str(base_root), before_edition=edition,
                                 exact=True, prints=sorted(prints)), timeout=timeout, memory_mb=memory).failure
    if failed is not None:
        raise RulebookError(f"the layout failed: {failed.message}")
    if folder is None:
        return out / "before", out / "after"
    kept = {}
    for side, name in names.items():
        def made(staged: Path, side: str = side) -> None:
            copy_tree(out / side, staged / "pdf", f"the {side} side's PDFs")
        kept[side] = cache.kept(folder, name, made, newest=KEPT_BOOKS) / "pdf"
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
    from ..views.describe import pdf_name
    from .book import game_pages, render_book
    from .scorepad import render_score_pad
    from .weasy import Engine

    if request.task != PAIR or request.before is None:
        raise RulebookError(f"the pair renders two books, not the {request.task!r} asked")
    out = Path(request.out)
    kind = Layout if request.exact else MovedLayout  # exact: a part is shared only where it starts on the same page
    layout = kind(Engine(PUBLISHED_PAPER, Path(request.before)), keep=True)
    prints = set(request.prints or (BOOK,)) if request.exact else {BOOK}
    for name, root, edition in (("before", request.before, request.before_edition),
                                ("after", request.root, request.edition)):
        if name == "after" and print_assets(Path(root)) != print_assets(Path(request.before)):
            layout = kind(Engine(PUBLISHED_PAPER, Path(root)), keep=True)  # its own styles: nothing shared
        lib = load_library(Path(root), edition, validated=request.validated)
        if not request.exact:  # the pictures' pair: the book alone, and its anchors
            anchors = render_book(lib, out / f"{name}.pdf", layout=layout)
            (out / f"{name}.json").write_text(json.dumps(anchors, sort_keys=True), encoding="utf-8")
            continue
        (out / name).mkdir(parents=True, exist_ok=True)
        if BOOK in prints:  # as the build lays it out, by the name publish gives it
            render_book(lib, out / name / pdf_name(lib), layout=layout)
        if SHEETS in prints:  # every sheet on its own and the score pad, as publish's render writes them
            (out / name / "score-sheets").mkdir(exist_ok=True)
            render_score_pad(lib, game_pages(lib), out / name, Engine(PUBLISHED_PAPER, Path(root)))


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # every file is written and closed (as the book's worker ends)

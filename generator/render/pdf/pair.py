"""Two versions of one edition's book laid out in one child process, for the pull-request check's pictures.

``python -m generator.render.pdf.pair BEFORE EDITION AFTER EDITION OUT`` writes ``OUT/before.pdf`` and ``OUT/after.pdf`` (the
book alone: no score sheet, which the pictures do not show) and each one's anchors (``before.json``, ``after.json``).
The two share one ``Layout`` that keeps its parts, as ``rulebook preview`` does, and more (``MovedLayout``): the second
book lays out again only the parts the change touched, not those it only moved to another first page, so the pair costs
about one book and the parts the change touched.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .book import Layout, Part


class MovedLayout(Layout):
    """A kept layout that gives a part it laid out before for the same part at another first page (one-sided only).

    Only the pictures may: such a part's pages print the page numbers of its first layout, and the anchors (links,
    the contents, the index) are counted from where it is now. Its pages say what they said before, numbers aside,
    so the pictures never draw them (``pictures._Page.key``); a part the change touched is laid out where it is."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.by_body: dict[str, Any] = {}

    def part(self, make_document: Callable[[str], str], part: Part, first_page: int) -> Any:
        """The laid-out part, from any first page it was laid out at before."""
        if self.duplex or part.body not in self.by_body:
            self.by_body[part.body] = super().part(make_document, part, first_page)
        return self.by_body[part.body]


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


def main(argv: list[str]) -> int:
    """Render both books; print ``error: ...`` and return 1 on a problem the sources cause."""
    before, before_edition, after, after_edition, out = argv
    from ...book.library import load_library
    from ...errors import RulebookError
    from .book import render_book
    from .weasy import Engine

    layout = MovedLayout(Engine("letter", Path(before)), keep=True)
    try:
        for name, root, edition in (("before", before, before_edition), ("after", after, after_edition)):
            if name == "after" and print_assets(Path(after)) != print_assets(Path(before)):
                layout = MovedLayout(Engine("letter", Path(after)), keep=True)  # its own styles: nothing shared
            anchors = render_book(load_library(Path(root), edition), Path(out) / f"{name}.pdf", layout=layout)
            (Path(out) / f"{name}.json").write_text(json.dumps(anchors, sort_keys=True), encoding="utf-8")
    except RulebookError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # every file is written and closed (as the book's worker ends)

"""Two versions of one edition's book laid out in one child process, for the pull-request check's pictures.

``python -m generator.render.pdf.pair BEFORE EDITION AFTER EDITION OUT`` writes ``OUT/before.pdf`` and ``OUT/after.pdf`` (the
book alone: no score sheet, which the pictures do not show) and each one's anchors (``before.json``, ``after.json``).
The two share one ``Layout`` that keeps its parts, as ``rulebook preview`` does: the second book lays out again only
the parts the change touched (and those after it whose first page moved), so the pair costs about one book.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    """Render both books; print ``error: ...`` and return 1 on a problem the sources cause."""
    before, before_edition, after, after_edition, out = argv
    from ...errors import RulebookError
    from ...library import load_library
    from .book import Layout, render_book
    from .weasy import Engine

    layout = Layout(Engine(), keep=True)
    try:
        for name, root, edition in (("before", before, before_edition), ("after", after, after_edition)):
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

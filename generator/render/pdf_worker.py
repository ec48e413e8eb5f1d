"""Renders one edition's PDFs in a child process, so that a runaway render can be stopped.

The parent (``build.render_pdfs``) gives the child a memory ceiling and a time limit; a render
that exceeds either is killed and the build fails with a clear error, leaving the last good
output in place.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    """``python -m generator.render.pdf_worker ROOT EDITION OUT PAPER DUPLEX``"""
    root, edition, out, paper, duplex = argv
    from ..errors import RulebookError
    from ..library import load_library
    from .pdf import game_pages, render_book, render_sheet
    from .site import pdf_name

    try:
        lib = load_library(Path(root), edition)
        out_dir = Path(out)
        (out_dir / "score-sheets").mkdir(parents=True, exist_ok=True)
        anchors = render_book(lib, out_dir / pdf_name(lib), paper=paper, duplex=duplex == "1")
        for page in game_pages(lib):
            render_sheet(lib, page, out_dir / "score-sheets" / f"{page.id}.pdf", paper=paper)
            for variant, _view in page.variants:
                if "score_sheet" in variant.model_fields_set:  # a variant with a sheet of its own
                    render_sheet(lib, page, out_dir / "score-sheets" / f"{page.id}.{variant.id}.pdf", paper=paper,
                                 variant=variant)
    except RulebookError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    (out_dir / ".anchors.json").write_text(json.dumps(anchors, sort_keys=True), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""The errata page speaks to readers: where each correction is, what the book said and says now, and why.

(No page shows file paths, data paths or check ids: tests/test_reader_text.py reads every output.)
"""

from __future__ import annotations

import html
import re
import subprocess

from generator.library import load_library
from generator.prose import expand
from generator.render.views.describe import pdf_name
from tests.conftest import CURRENT, ROOT


def _visible(page: str) -> str:
    """The words of a built page's article, tags dropped ('edit this page' links are the contributor's)."""
    body = page[page.index("<article"):page.index("</article>")]
    body = re.sub(r'<a [^>]*title="Edit this page".*?</a>', "", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def _pdf_errata(pdf) -> str:
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    # The errata close the book; the table may run onto a second page under a running head "Errata".
    opening = max(text.rfind("Corrections made since the book was published"), text.rfind("No corrections in this edition"))
    return text[text.rindex("Errata\n", 0, opening):]


def test_each_correction_says_where_what_and_why(built):
    lib = load_library(ROOT, CURRENT)
    site = _visible((built[CURRENT] / "site" / "errata" / "index.html").read_text(encoding="utf-8"))
    pdf = " ".join(_pdf_errata(built[CURRENT] / "pdf" / pdf_name(lib)).split())
    for e in lib.errata:
        game = lib.games.get(e.file.rsplit("/", 1)[-1].split(".")[0])
        scopes = ([game.doc.data] if game else []) + [lib.scope()]  # data text, as its page prints it
        for text in (site, pdf):
            flat = " ".join(text.split())
            assert expand(str(e.published), *scopes) in flat and expand(str(e.corrected), *scopes) in flat
        assert " ".join(e.evidence.why.split()[:4]) in " ".join(site.split())

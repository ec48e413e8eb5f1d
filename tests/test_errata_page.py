"""The errata and 'What changed' pages speak to readers: no file paths, data paths or check ids."""

from __future__ import annotations

import html
import re
import subprocess

import pytest

from generator.checks import load_all
from generator.library import load_library
from generator.prose import expand
from generator.render.site import pdf_name
from tests.conftest import CURRENT, PUBLISHED, ROOT

# (what a reader must not see, as a regular expression): the developer's names for where and what.
FORBIDDEN = [
    r"rules_data/", r"content/", r"\.ya?ml\b", r"\.md\b",
    r"\b[a-z_]+\.\d+\.[a-z_]",          # a dotted data path: variants.1.examples
    r"\b[a-z_]+\.[a-z_]+\.[a-z_]+\b",   # printed_index.sections.equipment
    *[re.escape(name) for name in load_all()],  # every check id
]


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


@pytest.mark.parametrize("edition", [CURRENT, PUBLISHED])
def test_reader_pages_name_no_files_paths_or_checks(built, edition):
    site = built[edition] / "site"
    lib = load_library(ROOT, edition)
    texts = {name: _visible((site / name / "index.html").read_text(encoding="utf-8")) for name in ("errata", "changes")}
    texts["pdf"] = _pdf_errata(built[edition] / "pdf" / pdf_name(lib))
    for name, text in texts.items():
        for pattern in FORBIDDEN:
            assert not re.search(pattern, text), f"{edition} {name}: {pattern!r} in {re.search(pattern, text)[0]!r}"


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

"""The messages the tool writes, read out of its code and templates (Babel's extractors), and its catalogues.

``python -m tests.messages`` rewrites the English catalogue (templates/locale/en.po) from the code: every message,
with where it is written, its translation empty (the message as written). A translator copies a new message into
every other catalogue; tests/test_words.py fails until each has it.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "templates" / "locale"
# The message functions (generator/book/words.py: _, N_, n_, describe.counted, and a Words called as say; a template's _ and
# ngettext): where their message is in a call.
# N_: a constant made at import, written through _ where it is used.
PYTHON_KEYWORDS = {"_": None, "N_": None, "n_": (1, 2), "counted": (2, 3), "say": None}  # say: a Words of a language
TEMPLATE_OPTIONS = {"trim_blocks": "true", "lstrip_blocks": "true", "keep_trailing_newline": "true"}


def sources() -> list[tuple[str, Path]]:
    """Every file that may write a message: the code, the templates and the site's scripts' page templates."""
    code = [("python", p) for p in sorted((ROOT / "generator").rglob("*.py"))]
    templates = [("jinja2.ext:babel_extract", p) for p in sorted((ROOT / "templates").rglob("*.j2"))
                 if "init" not in p.relative_to(ROOT / "templates").parts]
    # the theme's pages the tool adds to (the rulebook plugin gives them _)
    theme = [("jinja2.ext:babel_extract", p) for p in sorted((ROOT / "templates" / "site" / "overrides").rglob("*.html"))]
    return code + templates + theme


def extract() -> dict[str | tuple[str, str], list[tuple[str, int]]]:
    """Each message (a plural's as its two forms) with the places it is written."""
    found: dict[str | tuple[str, str], list[tuple[str, int]]] = {}
    for method, path in sources():
        options = TEMPLATE_OPTIONS if method != "python" else {}
        keywords = PYTHON_KEYWORDS if method == "python" else {"_": None, "ngettext": (1, 2)}
        for line, message, _comments, _context in extract_from_file(method, str(path), keywords=keywords,
                                                                     options=options):
            if not message or (isinstance(message, tuple) and not all(message)):
                continue
            found.setdefault(message, []).append((path.relative_to(ROOT).as_posix(), line))
    return found


def english() -> Catalog:
    """The English catalogue as the code writes it."""
    catalog = Catalog(locale="en", project="rulebook", fuzzy=False, header_comment=(
        "# The words the rulebook tool writes, in English: every message of its code and templates (python -m\n"
        "# tests.messages writes this file). An empty msgstr is the message as written. Another language's\n"
        "# catalogue (de.po) has each of these messages, translated; tests/test_words.py says which it lacks."))
    for message, places in sorted(extract().items(), key=lambda item: str(item[0])):
        catalog.add(message, string=("", "") if isinstance(message, tuple) else "", locations=places)
    return catalog


def po_text(catalog: Catalog) -> str:
    """A catalogue as its .po file's text, with no date in it (the file is the same whenever it is written)."""
    out = io.BytesIO()
    write_po(out, catalog, width=120, omit_header=False, sort_output=True, include_lineno=False)
    lines = [line for line in out.getvalue().decode("utf-8").splitlines()
             if not line.startswith(('"POT-Creation-Date', '"PO-Revision-Date', '"Generated-By'))]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    (LOCALE / "en.po").write_text(po_text(english()), encoding="utf-8")
    print(f"wrote {LOCALE / 'en.po'}")

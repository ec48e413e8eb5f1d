"""What Markdown makes of prose, and the words of a source that do not arrive in it.

Both outputs read prose with one Markdown (``PROSE_EXTENSIONS``: the print book converts with it, the site's MkDocs
adds it to its own, which adds only heading anchors). Markdown drops some of what is written without a word: a
table row's cells past its header's, a line that reads as a link definition (``[//]: # "a comment"`` is one: a
reviewer reads it as rule text), a link's title, a fence's language. Validate (``prose.dropped``) converts each
source as the outputs do and compares the words: any word of the source that is not in the page is reported at
its line. What is markup by design is not a word: a link's address, a reference link's label, an image (``prose.image``
says so), a table's rule line.

Converting every prose file was 0.3 s, all a validate may take: what each text dropped is kept in the user's cache
(``files.store``), by a digest of the text and of the code that works it out, so a validate after a save converts the
file saved.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import html
import json
import re
import unicodedata
from collections import Counter
from importlib.util import find_spec
from pathlib import Path

from .files import read_source, store, stored_text, user_cache

# The Markdown of prose, the one list for the site (the MkDocs plugin adds it to mkdocs.yml's) and the print
# book alike: lists nest as the sources indent them, fenced diagrams stay preformatted, admonitions and
# tables as written. The site adds only `toc` for heading anchors; print has none (ids would clash book-wide).
PROSE_EXTENSIONS = ["sane_lists", "tables", "fenced_code", "admonition", "generator.book.listindent"]

WORD = re.compile(r"[^\W_]+")  # letters and digits: '_' is emphasis as often as it is a letter
_IMAGE = re.compile(r"!\[(?:[^\[\]\\]|\\.|\[[^\[\]]*\])*\]\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)")
_TARGET = re.compile(r"(?<=\])\(\s*(?:<[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)")  # '](address' less ']'
_LABEL = re.compile(r"(?<=\])\[[^\[\]\n]*\]")  # [text][label]: the label
# A link reference definition, '[label]: address "title"': the label, the address, and what follows it.
DEFINITION = re.compile(r"^ {0,3}\[((?:[^\[\]\\]|\\.){1,999})\]:[ \t]*(<[^<>\n]*>|\S+)(.*)$")
_FENCE_INFO = re.compile(r"^(\s*(?:`{3,}|~{3,}))[^`\n]*$")
_ADMONITION = re.compile(r"^(\s*!!!\s+)[\w-]+(?:\s+[\w-]+)*")  # '!!! note' (its kind is a class, not a word)
_TAG = re.compile(r"<[^>]*>")
_NUMBERED = re.compile(r"^([\s>]*)\d{1,9}[.)](?=\s|$)")  # '1.': a list's number, which the list prints itself


def words(text: str) -> list[str]:
    """The words of ``text`` as a reader compares them: Unicode letters and digits, NFC, case folded."""
    return WORD.findall(unicodedata.normalize("NFC", text).casefold())


def _written(text: str, used: set[str]) -> list[str]:
    """The lines of a source with what is markup by design blanked: images, link addresses and labels, fences'
    and admonitions' kinds, a used definition's label and address (its title stays: it prints nowhere on paper)."""
    lines = []
    fence = False
    for line in text.splitlines():
        if _FENCE_INFO.match(line):
            lines.append(_FENCE_INFO.sub(r"\1", line))
            fence = not fence
            continue
        if not fence:
            line = _IMAGE.sub(" ", line)
            line = _TARGET.sub(" ", line) if "](" in line else line
            line = _LABEL.sub(" ", line) if "][" in line else line
            line = _ADMONITION.sub(r"\1", line) if "!!!" in line else line
            line = _NUMBERED.sub(r"\1", line)
            m = DEFINITION.match(line) if "]:" in line else None
            if m and label(m.group(1)) in used:
                line = m.group(3)
        lines.append(html.unescape(line) if "&" in line else line)
    return lines


def label(text: str) -> str:
    """A link label as Markdown matches it: case and runs of spaces evened out."""
    return " ".join(text.lower().split())


@functools.cache
def _converter():
    import markdown  # imported when a text is first converted: a validate from the cache needs none of it

    return markdown.Markdown(extensions=PROSE_EXTENSIONS)


def page_text(text: str) -> str:
    """The text a reader sees of Markdown ``text``: converted as both outputs convert it, raw HTML shown as text."""
    converter = _converter()
    converter.reset()
    converted = converter.convert(text.replace("<", "&lt;"))  # as views.markup.escape_raw_html
    return html.unescape(_TAG.sub(" ", converted))


def _used_labels(text: str) -> set[str]:
    used = set()
    for m in re.finditer(r"\]\[([^\[\]\n]*)\]|\[([^\[\]\n]+)\](?![(:\[])", text):
        used.add(label(m.group(1) or m.group(2) or ""))
    for m in re.finditer(r"\[([^\[\]\n]+)\]\[\]", text):
        used.add(label(m.group(1)))
    return used


def _work_out(text: str) -> list[tuple[int, list[str]]]:
    used = _used_labels(text)
    source = [(n, w) for n, line in enumerate(_written(text, used), 1) for w in words(line)]
    arrived = words(page_text(text))
    missing = Counter(w for _, w in source) - Counter(arrived)
    if not missing:
        return []
    # Where: the source's words against the page's, in order; a word left out there, and short on the page, is one.
    by_line: dict[int, list[str]] = {}
    matcher = difflib.SequenceMatcher(None, [w for _, w in source], arrived, autojunk=False)
    for op, i1, i2, _, _ in matcher.get_opcodes():
        if op in ("delete", "replace"):
            for n, w in source[i1:i2]:
                if missing[w] > 0:
                    missing[w] -= 1
                    by_line.setdefault(n, []).append(w)
    return sorted(by_line.items())


@functools.cache
def _reader_code() -> bytes:
    # What the answer depends on besides the text: this module, the list extension, and Markdown's own code
    # (its version file, found and not imported). Read through the door, as every file is.
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path, name in ((here / "rendered.py", "generator/book/rendered.py"),
                       (here / "listindent.py", "generator/book/listindent.py")):
        digest.update(read_source(path, name, here.parent.parent))
    spec = find_spec("markdown")
    if spec is not None and spec.origin:
        meta = Path(spec.origin).parent / "__meta__.py"
        digest.update(read_source(meta, "markdown/__meta__.py", meta.parent))
    return digest.digest()


def dropped(text: str) -> list[tuple[int, list[str]]]:
    """(line, words) of each line of Markdown ``text`` whose words do not all arrive on the page, in order."""
    if not text.strip():
        return []
    try:
        entry = user_cache() / "dropped" / (hashlib.sha256(_reader_code() + text.encode()).hexdigest()[:40] + ".json")
    except RuntimeError:  # no home folder: no cache
        entry = None
    kept = stored_text(entry) if entry is not None else None
    if kept is not None:
        try:
            return [(int(n), [str(w) for w in ws]) for n, ws in json.loads(kept)]
        except (ValueError, TypeError):
            pass  # sealed, but not ours: worked out again
    found = _work_out(text)
    if entry is not None:
        store(entry, json.dumps(found, ensure_ascii=False))
        _prune(entry.parent)
    return found


_KEPT = 8192  # entries of the cache's folder (a book of 5,000 games has 6,500 prose files), oldest first, once a process
_PRUNED: set[Path] = set()


def _prune(folder: Path) -> None:
    if folder in _PRUNED:
        return
    _PRUNED.add(folder)
    try:
        kept = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
        for old in kept[: max(0, len(kept) - _KEPT)]:
            old.unlink()
    except OSError:
        pass  # another run let it go first

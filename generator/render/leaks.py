"""No output of a build names the machine that built it: no ``file:`` address, no folder of the build.

A relative link in HTML that WeasyPrint lays out is resolved against the print assets' folder, and the PDF then
links to ``file:///<the build machine's folders>/templates/print/...``: dead for every reader, and it tells the world
the machine's folder names. Whatever makes one (a prose link, a template, a theme), every file of a build is looked
at before it is switched in: the site's text files whole, a PDF's strings (its links, its bookmarks, its
metadata), read as the PDF holds them (pikepdf), since its objects are compressed.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterator
from pathlib import Path

from ..book.files import MAX_ASSET_BYTES, read_source
from ..errors import BuildError

FILE_URI = re.compile(rb"(?i)\bfile:/{1,3}[\w~.%-]")  # a file: URI (the theme's scripts say 'file:' alone: location.protocol)
TEXT = (".html", ".htm", ".js", ".mjs", ".json", ".xml", ".css", ".txt", ".webmanifest", ".map", ".svg")
MAX_OUTPUT_BYTES = 4 * MAX_ASSET_BYTES  # a book of a thousand games is a few hundred MB at most


def _pdf_strings(raw: bytes) -> Iterator[bytes]:
    """The bytes of a PDF, and what of it may hold an address, uncompressed: its links' URIs and actions, its
    document information and its metadata (walking every object of the score sheets' forms took 7 s a build)."""
    import pikepdf

    yield raw
    try:
        pdf = pikepdf.open(io.BytesIO(raw))
    except pikepdf.PdfError:  # not a PDF pikepdf reads (a test's stand-in): its bytes are all there is to look at
        return
    with pdf:
        found = [str(value).encode() for value in pdf.docinfo.values()]
        metadata = pdf.Root.get("/Metadata")
        if isinstance(metadata, pikepdf.Stream):
            found.append(bytes(metadata.get_stream_buffer()))
        for page in pdf.pages:
            for annot in page.obj.get("/Annots", []):
                action = annot.get("/A") if isinstance(annot, pikepdf.Dictionary) else None
                if isinstance(action, pikepdf.Dictionary):
                    found += [str(v).encode() for k, v in action.items() if isinstance(v, pikepdf.String)]
        yield b"\n".join(found)


def leaks(folder: Path, paths: list[str]) -> list[str]:
    """Each file under ``folder`` holding a ``file:`` URI or one of ``paths`` (the build's folders): one line each."""
    folders = [re.escape(p.rstrip("/").encode()) for p in paths if len(p.rstrip("/")) > 4]
    needle = re.compile(b"|".join([FILE_URI.pattern, *folders]), re.I)
    found, seen = [], set()
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() or not path.is_file() or not path.name.endswith((".pdf", *TEXT)):
            continue
        rel = path.relative_to(folder).as_posix()
        raw = read_source(path, rel, folder, MAX_OUTPUT_BYTES)
        digest = hashlib.sha256(raw).digest()
        if digest in seen:  # the site's downloads are the PDFs again
            continue
        seen.add(digest)
        for chunk in _pdf_strings(raw) if path.suffix == ".pdf" else [raw]:
            m = needle.search(chunk)
            if m:
                what = "a file: address" if FILE_URI.match(chunk, m.start()) else "a folder of the build"
                near = chunk[max(0, m.start() - 20): m.end() + 40].decode("utf-8", "replace")
                found.append(f"{rel} holds {what} ({near!r}): a reader cannot follow it, and it names the machine "
                             "that built it")
                break
    return found


def refuse_leaks(folder: Path, paths: list[str]) -> None:
    """Raise BuildError when any output under ``folder`` names a ``file:`` address or a folder of the build."""
    found = leaks(folder, paths)
    if found:
        raise BuildError("the build was not switched in: " + "; ".join(found[:3])
                         + (f" and {len(found) - 3} more" if len(found) > 3 else ""))

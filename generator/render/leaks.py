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
from html.parser import HTMLParser
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


class _Addresses(HTMLParser):
    """The values of a page's attributes (its links, its sources): text a contributor wrote is not an address."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.values += [value for _, value in attrs if value]


def _addresses(rel: str, raw: bytes) -> bytes:
    """What of a file may be an address a reader or a viewer follows: an HTML page's attribute values, a stylesheet's
    url(...)s, a PDF's link URIs; a script or data file holds none of ours ('file:' in a theme's script is a check
    of location.protocol, a page's text in the search index is what a contributor wrote)."""
    if rel.endswith((".html", ".htm", ".svg", ".xml")):
        parser = _Addresses()
        parser.feed(raw.decode("utf-8", "replace"))
        return "\n".join(parser.values).encode()
    if rel.endswith(".css"):
        return b"\n".join(re.findall(rb"url\(([^)]*)\)", raw))
    return b""


def leaks(folder: Path, paths: list[str]) -> list[str]:
    """Each file under ``folder`` linking a ``file:`` URI, or holding one of ``paths`` (the build's folders) anywhere:
    one line each."""
    folders = [re.escape(p.rstrip("/").encode()) + rb"(?![\w.-])" for p in paths if len(p.rstrip("/")) > 4]
    in_place = re.compile(b"|".join(folders)) if folders else None
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
        if path.suffix == ".pdf":
            chunks = list(_pdf_strings(raw))
            addresses = chunks[1] if len(chunks) > 1 else b""
        else:
            chunks, addresses = [raw], _addresses(rel, raw)
        hit = FILE_URI.search(addresses)
        what = "links a file: address" if hit else ""
        if not hit and in_place is not None:
            hit = next((m for m in map(in_place.search, chunks) if m), None)
            what = "holds a folder of the build"
        if hit:
            near = hit.string[max(0, hit.start() - 20): hit.end() + 40].decode("utf-8", "replace")
            found.append(f"{rel} {what} ({near!r}): a reader cannot follow it, and it names the machine that built "
                         "it")
    return found


def refuse_leaks(folder: Path, paths: list[str]) -> None:
    """Raise BuildError when any output under ``folder`` names a ``file:`` address or a folder of the build."""
    found = leaks(folder, paths)
    if found:
        raise BuildError("the build was not switched in: " + "; ".join(found[:3])
                         + (f" and {len(found) - 3} more" if len(found) > 3 else ""))

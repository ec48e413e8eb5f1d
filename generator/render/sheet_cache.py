"""Score sheets kept between builds, keyed by everything that goes into them.

A one-game edit changes that game's sheet and no other, yet every build used to lay out all
of them again (about a third of a ``make``). A sheet's PDF is a function of its HTML (the
trial layout's and the designed one's), the paper, and the code, stylesheet and fonts that lay
it out; the key hashes all of those, so a sheet taken from the cache is the very file a fresh
render writes (``bench/run.py loop`` compares a cached build with a full one, byte for byte).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from functools import cache
from pathlib import Path
from typing import Any

CODE = Path(__file__).resolve().parents[1]  # generator/
TEMPLATES = CODE.parent / "templates"


@cache
def _code_digest() -> str:
    """The generator's code, every template and print asset, and the layout libraries' versions."""
    from importlib.metadata import PackageNotFoundError, version

    h = hashlib.sha256()
    for folder in (CODE, TEMPLATES):
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            h.update(str(path.relative_to(folder.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    for dist in ("weasyprint", "pydyf", "fonttools", "tinycss2", "cssselect2", "tinyhtml5", "html5lib"):
        with contextlib.suppress(PackageNotFoundError):  # not installed: nothing of it reaches the PDF
            h.update(f"{dist}={version(dist)}\0".encode())
    return h.hexdigest()


def sheet_key(lib: Any, page: Any, variant: Any, paper: str) -> str:
    """A sheet's key: the code digest, the paper, and the HTML of both ways the sheet is laid out."""
    from .pdf import TRIAL_ROWS, sheet_html

    view, heading = page.main, page.heading()
    if variant is not None:
        view = next(v for var, v in page.variants if var.id == variant.id)
        heading = f"{heading} – {variant.title}"
    h = hashlib.sha256(f"{_code_digest()}\0{paper}\0{heading}\0".encode())
    for rows in (None, TRIAL_ROWS):
        h.update(sheet_html(lib, heading, view, rows).encode() + b"\0")
    return h.hexdigest()


class SheetCache:
    """A folder of sheets by key; ``prune`` keeps only the ones the last build used."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.used: set[str] = set()

    def fetch(self, key: str, target: Path) -> bool:
        """Copy the cached sheet to ``target``; False if there is none."""
        self.used.add(key)
        if self.folder is None or not (self.folder / f"{key}.pdf").is_file():
            return False
        shutil.copyfile(self.folder / f"{key}.pdf", target)
        return True

    def store(self, key: str, source: Path) -> None:
        """Keep a freshly rendered sheet (written whole, then renamed, so no reader sees half)."""
        if self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        part = self.folder / f".{key}.{os.getpid()}"
        shutil.copyfile(source, part)
        part.replace(self.folder / f"{key}.pdf")

    def prune(self, keep: set[str]) -> None:
        """Remove the sheets no current game needs (the cache never outgrows one build)."""
        if self.folder is None or not self.folder.is_dir():
            return
        for path in self.folder.glob("*.pdf"):
            if path.stem not in keep:
                path.unlink(missing_ok=True)

"""``rulebook serve``: the site of an edition, served and built again when a source changes."""

from __future__ import annotations

from pathlib import Path

from ..render.site.engine import serve


def run(root: Path, addr: str = "127.0.0.1:8000", edition: str | None = None) -> int:
    """Serve until stopped (only the site package knows the site engine: it does the serving)."""
    serve(root, addr, edition)
    return 0

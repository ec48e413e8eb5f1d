"""``rulebook schema``: write the JSON Schemas in schema/ from the data model (``book/schema.py``)."""

from __future__ import annotations

from pathlib import Path

from ..book.schema import write_schemas


def run(root: Path) -> int:
    """Write every schema and name each file written."""
    for path in write_schemas(root):
        print(f"wrote {path.relative_to(root)}")
    return 0

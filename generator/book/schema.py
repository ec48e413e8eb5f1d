"""JSON Schemas for editors, generated from the data model (never written by hand)."""

from __future__ import annotations

import json
from pathlib import Path

from .model import Accepted, Book, Errata, Game, Revisions

SCHEMAS = {"game.schema.json": Game, "book.schema.json": Book, "errata.schema.json": Errata,
           "accepted.schema.json": Accepted, "revisions.schema.json": Revisions}


def schema_text(model: type) -> str:
    """The JSON Schema of a model, as committed (sorted keys, stable)."""
    schema = model.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(root: Path) -> list[Path]:
    """Write every schema into ``root/schema``; return the files written."""
    out = root / "schema"
    out.mkdir(exist_ok=True)
    written = []
    for name, model in SCHEMAS.items():
        path = out / name
        path.write_text(schema_text(model), encoding="utf-8")
        written.append(path)
    return written

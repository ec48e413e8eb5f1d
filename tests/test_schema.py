"""The committed JSON Schemas are generated from the model and current; every YAML file points to one."""

from __future__ import annotations

from generator.book.schema import SCHEMAS, schema_text
from tests.conftest import ROOT


def test_committed_schemas_are_current():
    for name, model in SCHEMAS.items():
        committed = (ROOT / "schema" / name).read_text(encoding="utf-8")
        assert committed == schema_text(model), f"schema/{name} is stale: run `make schema`"


def test_every_data_file_names_its_schema():
    for path in sorted((ROOT / "rules_data").glob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        expected = {"book.yaml": "book", "errata.yaml": "errata", "accepted.yaml": "accepted",
                    "revisions.yaml": "revisions"}.get(path.name, "game")
        assert first == f"# yaml-language-server: $schema=../schema/{expected}.schema.json", path.name

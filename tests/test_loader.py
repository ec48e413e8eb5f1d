"""The YAML reader: safe, strict, and precise about where a problem is."""

from __future__ import annotations

import time

import pytest

from generator.book.library import load_library
from generator.book.loader import MAX_FILE_BYTES, parse_yaml, read_yaml
from generator.errors import SourceError, SourceErrors
from tests.conftest import SMALL_BOOK, copy_project

BAD = [
    # (yaml text, line, col, words the message must contain)
    ("a: 1\nb:\n  c: 2\n  c: 3\n", 4, 3, "duplicate key 'c'"),
    ("a: 1\na: 2\n", 2, 1, "duplicate key 'a'"),
    ("x: !!python/object/apply:os.system ['echo hi']\n", 1, 4, "tags are not allowed"),
    ("x: !custom 3\n", 1, 4, "tags are not allowed"),
    ("a: &x [1, 2]\nb: *x\n", 1, 4, "anchors and aliases"),
    ("flag: no\n", 1, 7, "YAML 1.1 boolean"),
    ("flag: Yes\n", 1, 7, "YAML 1.1 boolean"),
    ("flag: True\n", 1, 7, "lower case"),
    ("n: 013\n", 1, 4, "leading zero"),
    ("t: 1:30\n", 1, 4, "sexagesimal"),
    ("d: 2026-01-05\n", 1, 4, "date"),
    ("e: 2026.10\n", 1, 4, "would be read as 2026.1"),
    ("f: .inf\n", 1, 4, "special float"),
    ("a:\n\tb: 1\n", 2, 1, "tab character"),
    ('a: "unclosed\nb: 2\n', 1, 4, "a quote opened on this line is never closed"),
    ("a: [1, 2\n", 1, 4, "a bracket opened on this line is never closed"),
    ("a:\n  b: 1\n c: 2\n", 3, 2, "wrong indentation"),
    ("a: 1\nb 2\n", 2, 1, "'b 2' has no colon after its key; write 'b: 2' instead"),
    ("<<: {a: 1}\n", 1, 1, "merge keys"),
]


@pytest.mark.parametrize("text,line,col,words", BAD, ids=[b[3] for b in BAD])
def test_bad_yaml_is_refused_at_line_and_column(text, line, col, words):
    with pytest.raises(SourceError) as info:
        parse_yaml(text, "rules_data/x.yaml")
    assert info.value.where.line == line
    assert info.value.where.col == col
    assert words in info.value.problem
    assert str(info.value).startswith(f"rules_data/x.yaml:{line}:{col}: ")


def test_plain_values_get_yaml_1_2_types():
    doc = parse_yaml('a: 12\nb: -3\nc: 30.5\nd: true\ne: null\nf: "no"\ng: 3-4\nh: K-10\ni: "2026.10"\n', "x.yaml")
    assert doc.data == {"a": 12, "b": -3, "c": 30.5, "d": True, "e": None, "f": "no", "g": "3-4", "h": "K-10",
                        "i": "2026.10"}


def test_marks_point_at_keys_and_items():
    doc = parse_yaml("a:\n  - x: 1\n  - y: 2\n", "x.yaml")
    assert doc.where(("a", 1, "y")).line == 3
    assert doc.where(("a", 1, "nonexistent")).line == 3  # nearest known ancestor


def test_alias_bomb_fails_fast():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(9))
    start = time.perf_counter()
    with pytest.raises(SourceError, match="anchors and aliases"):
        parse_yaml(bomb, "bomb.yaml")
    assert time.perf_counter() - start < 1.0


def test_oversized_and_non_utf8_files_are_refused(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" + b"#" * MAX_FILE_BYTES)
    with pytest.raises(SourceError, match="limit"):
        read_yaml(big, "big.yaml")
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(SourceError) as info:
        read_yaml(latin, "latin.yaml")
    assert info.value.where.line == 2 and "not UTF-8" in info.value.problem


def test_every_bad_file_is_reported_in_one_run(tmp_path):
    project = copy_project(tmp_path, SMALL_BOOK)
    (project / "rules_data" / "euchre.yaml").write_text("id: euchre\nid: again\n", encoding="utf-8")
    hearts = project / "rules_data" / "hearts.yaml"
    hearts.write_text(hearts.read_text(encoding="utf-8").replace("players:", "playerz:", 1), encoding="utf-8")
    with pytest.raises(SourceErrors) as info:
        load_library(project)
    messages = [str(e) for e in info.value.errors]
    assert any(m.startswith("rules_data/euchre.yaml:2:1: duplicate key 'id'") for m in messages)
    assert any("rules_data/hearts.yaml:" in m and "unknown key 'playerz'" in m for m in messages)


def test_schema_rejects_wrong_types_with_the_line(tmp_path):
    project = copy_project(tmp_path, SMALL_BOOK)
    path = project / "rules_data" / "euchre.yaml"
    text = path.read_text(encoding="utf-8").replace('introduced: "2026.1"', "introduced: 2026.1", 1)
    path.write_text(text, encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("introduced:"))
    with pytest.raises(SourceErrors) as info:
        load_library(project)
    [err] = [e for e in info.value.errors if e.where.path.endswith("euchre.yaml")]
    assert err.where.line == line and "introduced" in err.problem


def test_a_file_read_again_is_not_parsed_again_and_editions_do_not_leak(monkeypatch):
    """Parsed files are kept (issue 14), but each load gets its own data: an older edition edits its data."""
    import generator.book.loader as loader

    def dumps(lib):
        return {gid: gs.game.model_dump_json() for gid, gs in lib.games.items()}, lib.book.model_dump_json()

    monkeypatch.setattr(loader, "_PARSED", {})
    editions = [e.id for e in load_library(SMALL_BOOK).book.editions]
    fresh = {}
    for edition in editions:  # each from an empty store: parsed from the files
        loader._PARSED.clear()
        fresh[edition] = dumps(load_library(SMALL_BOOK, edition))
    parses = []
    monkeypatch.setattr(loader, "parse_yaml", lambda text, path: parses.append(path) or parse_yaml(text, path))
    for edition in editions + editions[::-1]:
        assert dumps(load_library(SMALL_BOOK, edition)) == fresh[edition], edition
    assert parses == []  # every file came from the store
    assert len(set(map(str, fresh.values()))) == len(editions) > 1  # the editions differ: a leak would show


def _fresh_process(monkeypatch, tmp_path):
    """Empty the in-process store, as a new run starts; the user's cache is ``tmp_path``."""
    import generator.book.loader as loader

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(loader, "_PARSED", {})
    monkeypatch.setattr(loader, "_STORED_WRITES", 0)
    return loader


def test_the_next_run_reads_a_parsed_file_from_the_users_cache(monkeypatch, tmp_path):
    loader = _fresh_process(monkeypatch, tmp_path)
    path = SMALL_BOOK / "rules_data" / "book.yaml"
    first = loader.read_yaml(path, "rules_data/book.yaml")
    assert len(list((tmp_path / "rulebook" / "yaml").glob("*.json"))) == 1
    monkeypatch.setattr(loader, "_PARSED", {})
    monkeypatch.setattr(loader, "parse_yaml", lambda text, path: pytest.fail("parsed again"))
    again = loader.read_yaml(path, "rules_data/book.yaml")
    assert (again.data, again.marks, again.path) == (first.data, first.marks, first.path)
    assert again.where(("editions", 1, "id")) == first.where(("editions", 1, "id"))


@pytest.mark.parametrize("damage", ["", "{", '{"data": {}}', '{"data": 1, "marks": [[1]]}', "[]"])
def test_a_damaged_cache_file_is_parsed_anew(monkeypatch, tmp_path, damage):
    loader = _fresh_process(monkeypatch, tmp_path)
    source = tmp_path / "g.yaml"
    source.write_text("id: g\nlist:\n  - 1\n  - two\n")
    expected = loader.parse_yaml(source.read_text(), "g.yaml")
    loader.read_yaml(source, "g.yaml")
    for stored in (tmp_path / "rulebook" / "yaml").glob("*.json"):
        stored.write_text(damage)
    monkeypatch.setattr(loader, "_PARSED", {})
    got = loader.read_yaml(source, "g.yaml")
    assert (got.data, got.marks) == (expected.data, expected.marks)


def test_an_edited_file_or_a_bad_one_is_parsed_every_time(monkeypatch, tmp_path):
    loader = _fresh_process(monkeypatch, tmp_path)
    source = tmp_path / "g.yaml"
    source.write_text("id: g\nplayers: 4\n")
    assert loader.read_yaml(source, "g.yaml").data == {"id": "g", "players": 4}
    source.write_text("id: g\nplayers: 5\n")
    assert loader.read_yaml(source, "g.yaml").data == {"id": "g", "players": 5}
    source.write_text("id: g\nplayers: no\n")
    for _ in range(2):
        monkeypatch.setattr(loader, "_PARSED", {})
        with pytest.raises(SourceError, match="YAML 1.1 boolean"):
            loader.read_yaml(source, "g.yaml")
    assert len(list((tmp_path / "rulebook" / "yaml").glob("*.json"))) == 2


def test_the_cache_keeps_at_most_its_limit(monkeypatch, tmp_path):
    loader = _fresh_process(monkeypatch, tmp_path)
    monkeypatch.setattr(loader, "_STORED_MAX", 4)
    source = tmp_path / "g.yaml"
    counts = []
    for n in range(30):
        source.write_text(f"id: g\nplayers: {n}\n")
        loader.read_yaml(source, "g.yaml")
        counts.append(len(list((tmp_path / "rulebook" / "yaml").glob("*.json"))))
    assert max(counts) <= 4 + 4 // 2  # looked at now and then, not on every write
    monkeypatch.setattr(loader, "_STORED_WRITES", 0)  # the next run looks at once
    source.write_text("id: g\nplayers: 99\n")
    loader.read_yaml(source, "g.yaml")
    assert len(list((tmp_path / "rulebook" / "yaml").glob("*.json"))) == 4

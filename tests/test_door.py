"""Every read through the door (issue 51, item 5): no module of generator/ reads a file but through
``book/files.py``. An AST scan of every module finds a file read any other way, and a broken tree proves it does."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOOR = "generator/book/files.py"
READ_METHODS = {"read_text", "read_bytes"}  # Path's
LOADERS = {"yaml": {"load", "safe_load", "full_load", "unsafe_load", "load_all", "safe_load_all"},
           "json": {"load"}, "pickle": {"load"}, "marshal": {"load"}, "tomllib": {"load"}, "plistlib": {"load"}}
OPENERS = {"Image", "tarfile", "zipfile", "pikepdf", "io", "codecs", "gzip", "bz2", "lzma", "shelve", "dbm", "Pdf"}
READERS = {"PdfReader", "PdfFileReader"}  # pypdf's: a path or a stream
COPIES = {"copy", "copy2", "copyfile", "copytree"}  # shutil's: each reads the files it copies (and follows links)


def _in_memory(node: ast.Call) -> bool:
    """Whether a call opens bytes already read (``BytesIO(...)``, ``fileobj=``), not a file."""
    first = node.args[0] if node.args else None
    if isinstance(first, ast.Call) and getattr(first.func, "attr", getattr(first.func, "id", "")) in ("BytesIO",
                                                                                                        "StringIO"):
        return True
    return any(k.arg == "fileobj" for k in node.keywords) and not node.args


def _mode(node: ast.Call, at: int) -> str | None:
    """An open call's mode, when written as a constant (None: not given, 'r')."""
    given = node.args[at] if len(node.args) > at else next((k.value for k in node.keywords if k.arg == "mode"), None)
    return given.value if isinstance(given, ast.Constant) and isinstance(given.value, str) else (
        None if given is None else "?")


def _reads(mode: str | None) -> bool:
    return mode is None or mode == "?" or not any(c in mode for c in "wax")


def file_reads(source: str) -> Iterator[tuple[int, str]]:
    """(line, what) of every read of a file in a module's ``source`` that does not pass the door."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        owner = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else None
        if isinstance(func, ast.Attribute) and name in READ_METHODS:
            yield node.lineno, f".{name}()"
        elif owner in LOADERS and name in LOADERS[owner] and not _in_memory(node):  # a string parsed is no file
            yield node.lineno, f"{owner}.{name}()"
        elif name == "open" and owner in OPENERS:
            if not _in_memory(node) and _reads(_mode(node, 1)):
                yield node.lineno, f"{owner}.open()"
        elif name == "open" and isinstance(func, ast.Name):
            if _reads(_mode(node, 1)):
                yield node.lineno, "open()"
        elif name == "open" and isinstance(func, ast.Attribute) and owner not in ("os",):  # a Path's .open()
            if _reads(_mode(node, 0)):
                yield node.lineno, ".open()"
        elif name in READERS and not _in_memory(node):
            yield node.lineno, f"{name}()"
        elif owner == "shutil" and name in COPIES and not _linked(node):
            yield node.lineno, f"shutil.{name}()"
        elif owner == "os" and name == "open" and _opens_to_read(node):
            yield node.lineno, "os.open()"


def _flags(node: ast.Call) -> set[str]:
    """The names of the flags an ``os.open`` call is given (``os.O_RDONLY | os.O_DIRECTORY``: both)."""
    given = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "flags"), None)
    return {n.attr if isinstance(n, ast.Attribute) else n.id for n in ast.walk(given) if isinstance(n, (ast.Attribute, ast.Name))
            } if given is not None else set()


def _opens_to_read(node: ast.Call) -> bool:
    """Whether an ``os.open`` may read a file's bytes: not a folder (``O_DIRECTORY``: a lock, a listing), not
    opened only to write."""
    flags = _flags(node)
    return "O_DIRECTORY" not in flags and "O_WRONLY" not in flags


def _linked(node: ast.Call) -> bool:
    """Whether a copy makes hard links (``copy_function=os.link``): the same files, none of them read."""
    return any(k.arg == "copy_function" and isinstance(k.value, ast.Attribute) and k.value.attr == "link"
               for k in node.keywords)


def tree_reads(root: Path) -> list[str]:
    """``path:line: what`` of every read past the door in the modules of ``root``/generator (the door's own aside)."""
    return [f"{path.relative_to(root).as_posix()}:{line}: {what}" for path in sorted((root / "generator").rglob("*.py"))
            if path.relative_to(root).as_posix() != DOOR
            for line, what in file_reads(path.read_text(encoding="utf-8"))]


def test_no_module_reads_a_file_but_through_the_door():
    found = tree_reads(ROOT)
    assert found == [], "read a file through generator/book/files.py (read_source, read_file...):\n" + "\n".join(found)


# A broken tree: each line reads a file past the door, and is found; the lines after it are not reads.
BROKEN = [
    'Path("rules_data/confusables.txt").read_text(encoding="utf-8")',
    "path.read_bytes()",
    'open(path)',
    'open(path, "r", encoding="utf-8")',
    'open(path, mode="rb")',
    "open(path, mode)",  # a mode not written out may read
    'path.open()',
    'path.open("rb")',
    "yaml.safe_load(stream)",
    "yaml.load(stream, Loader=yaml.SafeLoader)",
    "json.load(handle)",
    'Image.open(path.with_suffix(".png"))',
    'tarfile.open(name)',
    'pikepdf.open(path)',
    'io.open(path)',
    "PdfReader(source)",
    "shutil.copy(path, target)",  # a copy reads the file, and follows a link out of the project
    "shutil.copy2(path, target)",
    "shutil.copyfile(lists / name, dest / name)",
    "shutil.copytree(root / name, dest / name)",
    "shutil.copytree(there, staged, copy_function=shutil.copy2)",
    "os.open(path, os.O_RDONLY)",
    "os.open(path, os.O_RDONLY | os.O_NOFOLLOW)",
    "os.open(path, flags)",  # flags not written out may read
]
NOT_READS = [
    'open(path, "w", encoding="utf-8")',
    'open(path, "ab")',
    'path.open("wb")',
    "json.loads(text)",
    "tarfile.open(fileobj=BytesIO(data))",
    "pikepdf.open(io.BytesIO(raw))",
    "PdfReader(io.BytesIO(body))",
    "yaml.safe_load(io.StringIO(text))",  # a string parsed, not a file read
    "os.open(folder, os.O_RDONLY | os.O_DIRECTORY)",  # a folder, held as a lock or listed: no file's bytes
    "os.open(path, os.O_WRONLY | os.O_CREAT)",
    "shutil.copytree(there, staged, copy_function=os.link)",  # hard links: the same files, none read
    "shutil.rmtree(folder)",
    "copy_tree(source, target, name)",  # the door's own copy
    "read_source(path, display)",
]


@pytest.mark.parametrize("line", BROKEN)
def test_a_read_past_the_door_is_found(line):
    assert [what for _, what in file_reads(f"def f():\n    return {line}\n")], line


@pytest.mark.parametrize("line", NOT_READS)
def test_a_write_or_a_read_of_bytes_in_hand_is_not_a_read_past_the_door(line):
    assert list(file_reads(f"def f():\n    return {line}\n")) == [], line


def test_the_scan_finds_a_read_planted_anywhere_in_a_tree(tmp_path):
    """A copy of generator/ with a module that reads its list past the door, and the door itself reading: the one is
    found at its line, the other is the door's."""
    for path in (ROOT / "generator").rglob("*.py"):
        target = tmp_path / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "generator/checks/planted.py").write_text(
        '"""A check reading its list past the door."""\n\nWORDS = open("rules_data/words.txt").read()\n', encoding="utf-8")
    assert tree_reads(tmp_path) == ["generator/checks/planted.py:3: open()"]


def _link_out(path: Path) -> None:
    secret = path.parents[2] / "secret.txt"  # beside the project, not in it
    secret.write_text("there their\n", encoding="utf-8")
    path.symlink_to(secret)


# What rules_data/confusables.txt may be instead of a file, and what the one line says.
CONFUSABLES = [
    (_link_out, "leads out of the project"),
    (lambda path: os.mkfifo(path), "not a plain file"),  # a pipe: a read would wait for ever
    (lambda path: path.write_bytes(b"there their\n" * 30_000), "the limit is"),  # 360 KB: not read whole
    (lambda path: path.write_bytes(b"there th\xe9ir\n"), "not UTF-8"),
    (lambda path: path.mkdir(), "is a folder"),
]


@pytest.mark.parametrize(("make", "says"), CONFUSABLES, ids=["link out", "pipe", "too big", "not UTF-8", "folder"])
def test_the_confusables_list_is_read_through_the_door(tmp_path, make, says):
    from generator.checks.evidence import CONFUSABLES as NAME
    from generator.checks.evidence import confusables
    from generator.errors import SourceError

    root = tmp_path / "project"
    (root / "rules_data").mkdir(parents=True)
    make(root / NAME)
    with pytest.raises(SourceError) as info:
        confusables(root)
    assert info.value.where.path == NAME and says in str(info.value) and "\n" not in str(info.value), str(info.value)


# --- Tracebacks to lines (issue 51, item 8) ------------------------------------------------------------------------

# Line endings: a file whose lines end in a carriage return alone is told so; a stray one in a line is a character.
ENDINGS = [(b"## Rules\rPlay well.\r", "old Mac line endings"), (b"One line.\r", "old Mac line endings"),
           (b"## Rules\r\nPlay\rwell.\r\n", "control character (U+000D)")]


@pytest.mark.parametrize(("body", "says"), ENDINGS, ids=["CR lines", "one CR line", "a CR in a CRLF file"])
def test_carriage_returns_are_named_as_line_endings_or_as_a_stray_character(tmp_path, body, says):
    from generator.book.files import read_source_text
    from generator.errors import SourceError

    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "demo.md").write_bytes(body)
    with pytest.raises(SourceError) as info:
        read_source_text(tmp_path / "content" / "demo.md", "content/demo.md")
    assert says in str(info.value) and "\n" not in str(info.value), str(info.value)
    if "Mac" in says:
        assert "delete" not in str(info.value)  # deleting every line end would join the lines into one


def test_a_killed_builds_scratch_folder_is_removed_by_the_next(tmp_path, monkeypatch):
    import subprocess
    import tempfile

    from generator.render import process

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = subprocess.Popen(["true"])  # a process that has ended: what a killed build is to the next
    dead.wait()
    left = tmp_path / f"{process.SCRATCH}{dead.pid}-abc123"
    (left / "fonts").mkdir(parents=True)
    (left / "fonts" / "a.ttf").write_bytes(b"x" * 1000)
    theirs = tmp_path / f"{process.SCRATCH}{os.getpid()}-mine"  # this process's own: in use, kept
    theirs.mkdir()
    other = tmp_path / "rulebook-render-notapid"  # not named by a pid: not ours to judge
    other.mkdir()
    with process.scratch_environment() as env:
        assert Path(env["TMPDIR"]).parent == tmp_path and Path(env["TMPDIR"]).is_dir()
        (Path(env["TMPDIR"]) / "fonts").mkdir()
    assert not left.exists() and theirs.is_dir() and other.is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([theirs.name, other.name])


# What a folder copied by the program (a cache entry, a build's half carried over, a change's sources) may hold
# instead of a file, and what the one line says: nothing of it reaches the copy.
TREE = [
    (_link_out, "leads out of"),
    (lambda path: os.mkfifo(path), "not a plain file"),  # a pipe: shutil's copy waited, or said SpecialFileError
    (lambda path: path.symlink_to(path.parent / "gone.txt"), "not there"),
]


@pytest.mark.parametrize(("make", "says"), TREE, ids=["link out", "pipe", "dangling link"])
def test_a_folder_is_copied_through_the_door(tmp_path, make, says):
    from generator.book.files import copy_tree
    from generator.errors import SourceError

    source = tmp_path / "project" / "entry" / "sheets"
    source.mkdir(parents=True)
    (source / "a.pdf").write_bytes(b"%PDF-1.7 a")
    make(source / "b.pdf")
    with pytest.raises(SourceError) as info:
        copy_tree(source, tmp_path / "copy", "sheets", source)
    assert info.value.where.path == "sheets/b.pdf" and says in str(info.value), str(info.value)
    assert not (tmp_path / "copy" / "b.pdf").exists()


def test_a_folder_copied_through_the_door_is_the_same_files_less_those_skipped(tmp_path):
    from generator.book.files import copy_tree

    source = tmp_path / "entry"
    (source / "deep" / "__pycache__").mkdir(parents=True)
    files = {"a.pdf": b"%PDF a", "deep/b.txt": b"b\n", "deep/__pycache__/c.pyc": b"c", ".manifest": b"m"}
    for name, body in files.items():
        (source / name).write_bytes(body)
    (source / "deep" / "inside.txt").symlink_to(source / "a.pdf")  # a link inside: its file's bytes
    copy_tree(source, tmp_path / "copy", "entry", skip=(".manifest", "__pycache__"))
    copied = {p.relative_to(tmp_path / "copy").as_posix(): p.read_bytes() for p in (tmp_path / "copy").rglob("*")
              if p.is_file()}
    assert copied == {"a.pdf": b"%PDF a", "deep/b.txt": b"b\n", "deep/inside.txt": b"%PDF a"}

"""Careless and hostile edits of the real data files: validate ends within seconds, with exit 0 or one line per
problem (`path:line: what is wrong...`), never a traceback.

Hypothesis edits one copy of the project, one to three edits at a time, each undone after the example: a file cut
short; a line deleted, duplicated or indented; a number replaced by an extreme or a non-numeric value; invalid
bytes or a control character put in; a title's letter swapped for a look-alike; Markdown nested deep, an image, a
word longer than a line or a placeholder with a format put in prose; the file removed, or a folder, a named pipe or
a link (out of the project, in a circle, to nothing) put in its place. Two more searches: the user's cache damaged
(validate must say what it says with no cache), and an --out folder holding the user's files (the build refuses it
in one line, or builds; nothing of the user's is removed or renamed); and a random score card on a one-game book
(validate refuses it, or the build makes it). `rulebook validate` runs in this process
(``cli.main``), for the current or the published edition. `make test` runs a few examples with a fixed seed;
`make fuzz` runs a long random search (RULEBOOK_FUZZ_EXAMPLES, default there 3000).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.errors import UNPRINTABLE
from tests import hostile
from tests.conftest import CURRENT, PUBLISHED, ROOT, copy_project
from tests.test_environment import small_disk  # noqa: F401  (a fixture: a small tmpfs)

LONG_SEARCH = "RULEBOOK_FUZZ_EXAMPLES" in os.environ
EXAMPLES = int(os.environ.get("RULEBOOK_FUZZ_EXAMPLES", "25"))
# An edit validates in about 0.2 s of CPU. Over CPU_LIMIT it is a loop that never ends, over WALL_LIMIT a wait that
# never ends (a read of a pipe): limits in CPU time, so that a busy machine does not fail the test.
CPU_LIMIT, WALL_LIMIT = 5, 60
LINE_LIMIT = 1000  # characters in one line of output: a finding is a line a person reads

FILES = sorted(p.relative_to(ROOT).as_posix() for p in [*(ROOT / "rules_data").rglob("*.yaml"),
                                                       *(ROOT / "content").glob("*.md"),
                                                       ROOT / "rules_data" / "dictionary.txt"])
NUMBER = re.compile(rb"(?<![\w.])-?\d+(?![\w.])")
EXTREMES = [b"-1", b"0", b"-0", b"99999999999999999999", b"4-99999999", b"2147483648", b"1.5", b"1e309", b".nan",
            b"x", b"~", b"''", b"[]", b"{}", b'"-1-4"', b"7-3", b"1" * 5000, b"0-0", b"multiples of 0", b"\"\"",
            b"-99999999", b"1.0000000000000000001", b"  ", b"!!python/object:os.system", b"&a", b"*a"]
BYTES = [b"\xff", b"\x00", b"\xc3", b"\xe2\x80", b"\r", b"\x1b[2J", b"\t", b"\xef\xbb\xbf", b"\\", b"\x85", b"\x07",
         b"\x01", b"\x7f", b"\xc2\x85", b"\xe2\x80\xae", b"\xe2\x80\xa8", b"\xe2\x80\x8b", b"\xc2\xa0", b"\x1b]0;x\x07"]
# What a careless or hostile edit of prose or a text value puts in: Markdown nested deep, an image, a word longer than
# a line, a table wider than the page, a placeholder with a format, YAML escapes that make control characters.
INSERTS = [b"*a " * 600 + b"b" + b"*" * 600, b"[" * 300 + b"x" + b"](y)" * 300, b"_a *" * 200, b"![alt](pic.png)",
           b"![alt][ref]", b"x" * 80, b"https://example.org/" + b"abcdefghij" * 8, b"{deal.each!r}",
           b"{deal.each:>5}", b"{Deal.each}", b"{ players }", b"{0}", b'"\\e[2J"', b'"\\a"', b'"\\x01"', b'"\\N"',
           b"\n---\ntitle: x\n---\n", b"\n" + b"| a " * 30 + b"|\n" + b"|---" * 30 + b"|\n", b"\n# " + b"*" * 9,
           b"\n=====\n", b"<img src=x onerror=alert(1)>",
           # Links (issue 51): to no page, a page's address, no part, the keeper, other schemes, a reference.
           b"[Hearts](hearts.md)", b"[x](nothere.md)", b"[x](../hearts/)", b"[x](#no-such-part)",
           b"[x](hearts.md#nope)", b"[x](../keep/hearts.md)", b"[x](javascript:alert(1))", b"[x](file:///secret.txt)",
           b"<ftp://example.org/x>", b"[x](//example.org)", b"[x][ref]\n\n[ref]: nope.md\n", b"[x](<a b.md>)",
           # What Markdown drops (issue 51): a cell past the header's, link definitions, a link's title.
           b'\n[//]: # "deal nine cards"\n', b"\n[note]: misdeal\n", b"\n| a | b |\n|---|---|\n| 1 | 2 | 3 |\n",
           b'[x](https://example.org "a title")', b"\n[^1]: <x>\n"]
# Letters of other scripts drawn like Latin ones, and invisible or compatibility forms of the same: a title edited
# with them reads as the title it was.
LOOK_ALIKES = {b"a": "\u0430".encode(), b"e": "\u0435".encode(), b"o": "\u03bf".encode(), b"T": "\u0422".encode(),
               b"r": "\uff52".encode(), b" ": "\u00a0".encode(), b"s": "s\u200b".encode()}
# One line of output: a problem at its file (and line), an `error: ...` line, a finding, or validate's summary.
# A path is any name a file can have here but a blank or a colon (an editor's backup 'about.md~' is one)
ONE_LINE = re.compile(r"[^\s:]+(:\d+){0,2}: \S.*|error: \S.*|accepted: \S.*|\d+ errors?, \d+ warnings?.* in \d+ games?")


@st.composite
def edits(draw) -> tuple[str, list[tuple]]:
    """A file and one to three edits of it: (kind, where, what)."""
    file = draw(st.sampled_from(FILES))
    ops = draw(st.lists(st.tuples(st.sampled_from(["cut", "delete", "duplicate", "indent", "number", "bytes", "insert",
                                                   "look-alike"]),
                                  st.integers(0, 999).map(lambda n: n / 1000), st.integers(0, 64)),
                        min_size=1, max_size=3))
    gone = draw(st.sampled_from([None] * 18 + list(KINDS) + ["misnamed"] * 3))
    misname = draw(st.integers(0, len(MISNAMES) - 1))
    return file, ops + ([(gone, 0.0, misname)] if gone else [])


def edited(raw: bytes, ops: list[tuple]) -> bytes | None:
    """``raw`` with the edits made (None: the file is removed, or a folder is put in its place)."""
    for kind, at, n in ops:
        lines = raw.split(b"\n")
        i = int(at * len(lines))
        if kind == "cut":
            raw = raw[: int(at * len(raw))]
        elif kind == "delete":
            raw = b"\n".join(lines[:i] + lines[i + 1 + n % 3:])
        elif kind == "duplicate":
            raw = b"\n".join(lines[: i + 1] + lines[i: i + 1 + n % 3] + lines[i + 1:])
        elif kind == "indent":
            line = lines[i].lstrip(b" ")
            lines[i] = b" " * (n % 9) + line
            raw = b"\n".join(lines)
        elif kind == "number":
            numbers = list(NUMBER.finditer(raw))
            if numbers:
                m = numbers[int(at * len(numbers))]
                raw = raw[: m.start()] + EXTREMES[n % len(EXTREMES)] + raw[m.end():]
        elif kind == "bytes":
            pos = int(at * len(raw))
            raw = raw[:pos] + BYTES[n % len(BYTES)] + raw[pos:]
        elif kind == "insert":
            pos = int(at * len(raw))
            raw = raw[:pos] + INSERTS[n % len(INSERTS)] + raw[pos:]
        elif kind == "look-alike":  # in a title line if there is one, else anywhere
            titles = [i for i, line in enumerate(lines) if line.lstrip(b" -").startswith(b"title:")] or [i]
            j = titles[n % len(titles)]
            latin, other = list(LOOK_ALIKES.items())[n % len(LOOK_ALIKES)]
            lines[j] = lines[j].replace(latin, other, 1)
            raw = b"\n".join(lines)
        elif kind == "misnamed":  # the file stays; a copy under a near name is put beside it (``misnamed``)
            continue
        else:  # removed, or something else in its place
            return None
    return raw


@contextlib.contextmanager
def misnamed(path: Path, ops: list[tuple]):
    """With a "misnamed" op, a copy of ``path`` under a near name beside it for the block (not in a published
    edition's record: any file more there is a change to the record, reported as that)."""
    kind, _, n = ops[-1]
    near = path.with_name(MISNAMES[n % len(MISNAMES)](path.name)) if kind == "misnamed" else None
    if near is None or near == path or "frozen" in path.parts or near.exists() or not path.is_file():
        yield None
        return
    near.write_bytes(path.read_bytes())
    try:
        yield near
    finally:
        near.unlink()


def _secret(project: Path) -> Path:
    secret = project.parent / "secret.txt"  # beside the project, never a file of the system's
    secret.write_text("root:x:0:0:what a link out of the project would print\n", encoding="utf-8")
    return secret


# A name near a source's, that no game, variant or page reads (issue 51): case, extension, a letter doubled, a backup.
MISNAMES = [lambda name: name.upper(), lambda name: name[0].upper() + name[1:],
            lambda name: name.replace(".md", ".MD").replace(".yaml", ".yml"),
            lambda name: name.replace(".", "s.", 1), lambda name: name + "~", lambda name: name + ".bak",
            lambda name: name.replace(".md", ".markdown").replace(".yaml", ".YAML")]


# What may be where a source file was (the file itself moved aside, never written through).
KINDS = {
    "removed": lambda path, project: None,
    "folder": lambda path, project: path.mkdir(),
    "pipe": lambda path, project: os.mkfifo(path),
    "link out": lambda path, project: path.symlink_to(_secret(project)),
    "link in a circle": lambda path, project: path.symlink_to(path.name),
    "link to nothing": lambda path, project: path.symlink_to("nowhere-at-all"),
    "link to a device": lambda path, project: path.symlink_to("/dev/zero"),
}


@contextlib.contextmanager
def moved_aside(path: Path):
    """``path`` moved aside for the block (which may put anything in its place), then moved back: the original is
    never written through, as a link put in its place would let it be (to a file outside the project)."""
    # Beside it, but for a file of a published edition's record: there, any file more is a change to the record
    # (frozen.changed), so the original waits beside the project's folder of records.
    record = next((parent for parent in path.parents if parent.parent.name == "frozen"), None)
    aside = (record.parent.parent / f".fuzz-aside-{record.name}-{path.name}.aside" if record is not None
             else path.with_name(f".fuzz-aside-{path.name}"))
    os.rename(path, aside)
    try:
        yield
    finally:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
        os.rename(aside, path)


@contextlib.contextmanager
def put(path: Path, raw: bytes | None, kind: str | None, project: Path):
    """``path`` holding ``raw``, or (None) what ``kind`` puts there, then as it was (``moved_aside``)."""
    with moved_aside(path):
        if raw is not None:
            path.write_bytes(raw)
        else:
            KINDS[kind](path, project)
        yield


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return copy_project(tmp_path_factory.mktemp("fuzz") / "project")


@contextlib.contextmanager
def time_limit(cpu: float = CPU_LIMIT, wall: float = WALL_LIMIT):
    """Raise TimeoutError in the block after ``cpu`` seconds of this process's CPU time, or ``wall`` seconds."""
    def hung(signum, frame):
        raise TimeoutError(f"validate took more than {cpu} s of CPU or {wall} s: it would never end")

    before = {s: signal.signal(s, hung) for s in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, cpu)
    signal.setitimer(signal.ITIMER_REAL, wall)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for s, handler in before.items():
            signal.signal(s, handler)


def validate(project: Path, edition: str) -> tuple[int, str, str]:
    """`rulebook validate` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_limit():
        code = main(["--root", str(project), "validate", "--edition", edition])
    return code, out.getvalue(), err.getvalue()


@settings(max_examples=EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(edit=edits(), edition=st.sampled_from([CURRENT, PUBLISHED]))
# Edits that ended in a traceback, never ended or printed a paragraph before issue 33, run every time: Trash for 4-2147483648 players
# (validate never ended), decks: -1 (ValueError), a number of 5,000 digits in prose (ValueError: Python reads
# 4,300), a control character in YAML (libyaml's three-line message), a line gone from a frozen record
# (AttributeError), a frozen record's text emptied (TypeError in edition.not_published), a paragraph in a frozen
# record made a key by a stray byte (a message quoting it whole: 1,805 characters), a byte-order mark in a frozen
# record's file name (a finding at "c\ufeffontent/honeymoon-whist.md").
@example(edit=("rules_data/frozen/2026.1/honeymoon-whist.yaml", [("bytes", 0.378, 7)]), edition=CURRENT)
@example(edit=("rules_data/frozen/2026.1/page-about.yaml", [("cut", 0.165, 0), ("delete", 0.75, 0)]), edition=CURRENT)
@example(edit=("rules_data/frozen/2026.1/page-about.yaml", [("bytes", 0.288, 54)]), edition=CURRENT)
@example(edit=("rules_data/trash.yaml", [("number", 0.071, 5)]), edition=CURRENT)
@example(edit=("rules_data/trash.yaml", [("number", 0.112, 0)]), edition=CURRENT)
@example(edit=("content/arizona-rummy.md", [("number", 0.0, 16)]), edition=CURRENT)
@example(edit=("rules_data/push.yaml", [("bytes", 0.963, 5)]), edition=CURRENT)
@example(edit=("rules_data/frozen/2026.1/page-about.yaml", [("delete", 0.261, 59)]), edition=CURRENT)
def test_an_edited_file_gets_one_line_per_problem_never_a_traceback(project, monkeypatch, edit, edition):
    file, ops = edit
    monkeypatch.setenv("XDG_CACHE_HOME", str(project.parent / "cache"))  # not the user's cache: 1000s of new files
    path = project / file
    raw = edited(path.read_bytes(), ops)
    with put(path, raw, ops[-1][0], project), misnamed(path, ops) as near:
        code, out, err = validate(project, edition)
    hostile.tried("fuzzed edits of the data")
    assert_one_line_each(code, out, err)
    if near is not None and edition == CURRENT and re.search(r"^\d+ errors?, ", out, re.M):  # the book was loaded
        assert f"{near.relative_to(project).as_posix()}:1: file.unread: " in out, out


def assert_one_line_each(code: int, out: str, err: str) -> None:
    """Exit 0 or 1, and every line printed one problem (or the summary): no traceback, no terminal code."""
    assert code in (0, 1), (code, out, err)
    assert "Traceback" not in out + err
    assert "what a link out of the project would print" not in out + err
    assert not UNPRINTABLE.search((out + err).replace("\n", "")), f"a control character printed: {out + err!r}"
    lines = [line for line in (out + err).split("\n") if line.strip()]
    assert lines, "validate said nothing"
    for line in lines:
        assert len(line) <= LINE_LIMIT, f"a line of {len(line)} characters: {line[:200]}..."
        assert ONE_LINE.fullmatch(line), f"not one line per problem: {line!r}"
    if code == 1:
        assert any(line.startswith(("error: ", "rules_data/", "content/")) for line in lines), out + err


# --- The user's cache, damaged: validate says what it says with no cache, and writes it again -------------------

DAMAGES = ["emptied", "cut short", "a byte flipped", "garbage", "nested deep", "another entry's", "a pipe", "a folder",
           "a link out", "a link in a circle", "not UTF-8"]
SMALL_EXAMPLES = int(os.environ.get("RULEBOOK_FUZZ_EXAMPLES", "4"))


def damage(entry: Path, kind: str, n: int, others: list[Path], project: Path) -> None:
    """``entry`` (a file of the user's cache) damaged as ``kind`` says."""
    raw = entry.read_bytes() if entry.is_file() and not entry.is_symlink() else b""
    entry.unlink()
    if kind == "emptied":
        entry.write_bytes(b"")
    elif kind == "cut short":
        entry.write_bytes(raw[: n * len(raw) // 100])
    elif kind == "a byte flipped":
        i = n * len(raw) // 100 if raw else 0
        entry.write_bytes(raw[:i] + bytes([(raw[i] if i < len(raw) else 0) ^ 0x20]) + raw[i + 1:])
    elif kind == "garbage":
        entry.write_bytes(bytes(range(256)) * (1 + n))
    elif kind == "nested deep":
        entry.write_bytes(raw.split(b"\n")[0] + b"\n" + b"[" * 50_000 + b"]" * 50_000)
    elif kind == "another entry's":
        other = others[n % len(others)]
        entry.write_bytes(other.read_bytes() if other.is_file() and not other.is_symlink() else b"")
    elif kind == "a pipe":
        os.mkfifo(entry)
    elif kind == "a folder":
        entry.mkdir()
    elif kind == "a link out":
        entry.symlink_to(_secret(project))
    elif kind == "a link in a circle":
        entry.symlink_to(entry.name)
    else:
        entry.write_bytes(raw.replace(b"e", b"\xe9", 1 + n))


def _fresh_process() -> None:
    """Forget what this process read, as the next run of validate would have."""
    from generator.book import loader
    from generator.checks import editorial

    loader._PARSED.clear()
    editorial._english.cache_clear()


@pytest.fixture(scope="module")
def clean_findings(project, tmp_path_factory) -> tuple[tuple[int, str, str], Path]:
    """validate on the unedited project with an empty cache of its own, and the cache it wrote."""
    cache = tmp_path_factory.mktemp("clean-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(cache))
        _fresh_process()
        found = validate(project, CURRENT)
        _fresh_process()
    return found, cache


@settings(max_examples=SMALL_EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(damages=st.lists(st.tuples(st.sampled_from(DAMAGES), st.integers(0, 99), st.integers(0, 10_000)),
                        min_size=1, max_size=6))
def test_a_damaged_cache_is_only_a_cache(project, clean_findings, tmp_path_factory, monkeypatch, damages):
    clean, written = clean_findings
    cache = tmp_path_factory.mktemp("cache") / "copy"
    shutil.copytree(written, cache)  # the cache a run of validate wrote
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    entries = sorted(p for p in cache.rglob("*") if p.is_file())
    for kind, n, which in damages:
        entry = entries[which % len(entries)]
        if entry.exists() or entry.is_symlink():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
                entry.write_bytes(b"")
            damage(entry, kind, n, entries, project)
    _fresh_process()
    with time_limit():
        found = validate(project, CURRENT)
    _fresh_process()
    hostile.tried("fuzzed damage of the cache")
    assert found == clean
    assert_one_line_each(*found)


# --- An --out folder holding the user's files: refused in one line, or built; nothing of theirs removed or renamed --

USER_THINGS = ["site/", "pdf/", "site", "pdf", "current", ".build-x/", ".staging-x/", ".cache/", "notes.txt",
               ".rulebook-build/", "site->..", "current->.build-x", "pdf->current/pdf", "site->current/site",
               "current->..", ".old-site-1/"]


def _user_tree(out: Path, things: list[str], project: Path) -> None:
    for thing in things:
        name, _, target = thing.partition("->")
        path = out / name.rstrip("/")
        if path.exists() or path.is_symlink():
            continue
        if target:
            path.symlink_to(target)
        elif name.endswith("/"):
            path.mkdir()
            (path / "theirs.txt").write_text("the user's", encoding="utf-8")
        else:
            path.write_text("the user's", encoding="utf-8")


def _snapshot(folder: Path) -> dict[str, str]:
    found = {}
    for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
        rel = path.relative_to(folder).as_posix()
        found[rel] = ("-> " + os.readlink(path) if path.is_symlink() else path.read_text(errors="replace")
                      if path.is_file() else "folder")
    return found


@pytest.fixture(scope="module")
def one_game(tmp_path_factory) -> Path:
    from tests.test_faults import tiny

    return tiny(tmp_path_factory.mktemp("one-game") / "project")


@settings(max_examples=SMALL_EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(things=st.lists(st.sampled_from(USER_THINGS), max_size=5, unique=True), built_before=st.booleans(),
       half=st.sampled_from([(), ("--site-only",), ("--pdf-only",)]))
def test_an_out_folder_of_the_users_is_never_destroyed(one_game, tmp_path_factory, monkeypatch, things, built_before,
                                                        half):
    from tests.test_bad_input import stub_renders

    stub_renders(monkeypatch)
    monkeypatch.setenv("XDG_CACHE_HOME", str(one_game.parent / "cache"))
    out = tmp_path_factory.mktemp("out") / "D"
    if built_before:
        assert main(["--root", str(one_game), "build", "--out", str(out)]) == 0
    out.mkdir(exist_ok=True)
    _user_tree(out, things, one_game)
    ours = (".build-", ".staging-", ".rulebook-build", "current", "site", "pdf")
    theirs = {k: v for k, v in _snapshot(out).items() if not (built_before and k.startswith(ours))
              or k.split("/")[0] in (".build-x", ".staging-x") or "theirs.txt" in k}
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), time_limit():
        code = main(["--root", str(one_game), "build", "--out", str(out), *half])
    hostile.tried("fuzzed --out folders")
    assert "Traceback" not in stdout.getvalue() + stderr.getvalue()
    if code != 0:
        errors = [line for line in stderr.getvalue().splitlines() if line.startswith("error: ")]
        assert len(errors) == 1 and "did not make" in errors[0], stderr.getvalue()
    now = _snapshot(out)
    assert {k: now.get(k) for k in theirs} == theirs, "the user's files were changed"


# --- Mid-build edits (issue 51): a source edited while the book is built is one line, and nothing is switched in ---

@settings(max_examples=SMALL_EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(edit=edits(), read_after=st.booleans())
def test_a_source_edited_while_the_book_is_built_is_one_line(project, tmp_path_factory, monkeypatch, edit,
                                                            read_after):
    from generator.book.library import load_library
    from generator.commands import build as build_module

    file, ops = edit
    monkeypatch.setenv("XDG_CACHE_HOME", str(project.parent / "cache"))
    path = project / file
    before = path.read_bytes()
    raw = edited(before, ops)
    out = tmp_path_factory.mktemp("mid-build") / "out"
    changed = []

    def loaded(name: str) -> bool:  # what a render's load reads (the checks read the records and the dictionary)
        return (name.startswith("content/") and name.endswith(".md")) or (
            name.startswith("rules_data/") and name.count("/") == 1 and name.endswith(".yaml"))

    def render_pdfs(lib, pdf_dir, **_):  # the render: the edit lands, then (or not) a render's process loads
        with put(path, raw, ops[-1][0], project), misnamed(path, ops) as near:
            changed.append((raw != before and loaded(file))
                           or (near is not None and loaded(near.relative_to(project).as_posix())))
            if read_after:
                load_library(project, validated=lib.validated)
        pdf_dir.mkdir(parents=True)
        (pdf_dir / "book.pdf").write_bytes(b"%PDF-1.7 a stand-in")
        return {}

    monkeypatch.setattr(build_module, "render_pdfs", render_pdfs)
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), time_limit(cpu=20):
        code = main(["--root", str(project), "build", "--pdf-only", "--out", str(out)])
    hostile.tried("fuzzed mid-build edits")
    text = stdout.getvalue() + stderr.getvalue()
    assert "Traceback" not in text and code in (0, 1), text
    if code == 0:  # the edit was undone before the last look, and no render read it: the book is the one validated
        assert not (read_after and changed[0]), text
        return
    assert not (out / "current").exists(), "a book whose sources changed was switched in"
    problems = [line for line in text.splitlines() if line.startswith(("error: ", "content/", "rules_data/"))
                and "(warning)" not in line and "accepted" not in line]
    assert problems and all(len(line) <= LINE_LIMIT for line in problems), text


# --- Scale (issue 51): a generated book of any size validates with one line a problem, in time linear in its size ---

SIZES = [1, 12, 40] if not LONG_SEARCH else [1, 12, 40, 200, 1000]
_BOOKS: dict[int, Path] = {}


@settings(max_examples=1 if not LONG_SEARCH else 8, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(games=st.sampled_from(SIZES))
def test_a_book_of_any_size_validates_in_time_linear_in_it(tmp_path_factory, monkeypatch, games):
    from bench.synthetic import make_book

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "scale-cache"))
    if games not in _BOOKS:
        _BOOKS[games] = make_book(tmp_path_factory.mktemp(f"scale-{games}") / "project", games)
    out, err = io.StringIO(), io.StringIO()
    # A game validates in about 4 ms of CPU (1,000 games: 4 s); ten times that, and a second to start, is the bound.
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_limit(cpu=2 + 0.04 * games,
                                                                                      wall=60 + 0.5 * games):
        code = main(["--root", str(_BOOKS[games]), "validate"])
    hostile.tried("fuzzed book sizes")
    assert_one_line_each(code, out.getvalue(), err.getvalue())
    assert f"in {games} game" in out.getvalue()


# --- Issue 60: hostile sizes for every pattern, the environment, names, a full disk ---------------------------------

def _pattern_and_input():
    """A pattern of generator/ and an input built from it at random: a prefix it names, a pump of one to three of
    the characters it matches, a character after: what tests/worstcase.py searches for, drawn at random here."""
    from tests import worstcase

    found = worstcase.patterns()

    @st.composite
    def draw(draw_):
        where = draw_(st.sampled_from(sorted(found)))
        pattern, at_start = found[where]
        prefix, pump, killer = draw_(st.sampled_from(worstcase.candidates(pattern)))
        alphabet = sorted({*pump, *prefix, " ", "a"})
        pump = draw_(st.one_of(st.just(pump), st.text(st.sampled_from(alphabet), min_size=1, max_size=3)))
        return where, pattern, at_start, prefix, pump, killer
    return draw()


@settings(max_examples=EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(case=st.deferred(_pattern_and_input))  # found when the test runs, not in every worker that collects it
def test_no_pattern_grows_faster_than_its_input(case):
    """A random input of the shape a ReDoS search tries, at n and 4n characters: the cost grows at most 8 times."""
    from tests import worstcase

    where, pattern, at_start, prefix, pump, killer = case
    hostile.tried("fuzzed regex inputs")
    texts = [worstcase._text(pattern, prefix, pump, killer, n) for n in (worstcase.N // 4, worstcase.N)]
    small, big = (worstcase._cost(pattern, text, at_start, 3) for text in texts)
    assert big < 2e-3 or big / max(small, 1e-6) <= 8, f"{where}: {prefix!r} + {pump!r} * n + {killer!r}"


SETTING_NAMES = ["SOURCE_DATE_EPOCH", "RULEBOOK_PDF_TIMEOUT", "RULEBOOK_PDF_MEMORY_MB", "RULEBOOK_PDF_JOBS",
                 "COLUMNS", "LINES", "RULEBOOK_PDF_CACHE"]
NUMBERISH = st.one_of(st.text(min_size=1, max_size=30),
                      st.text(st.sampled_from("0123456789-+.e_ \u0660\uff11"), min_size=1, max_size=30),
                      st.integers(0, 5000).map(lambda n: "9" * n or "0"))


@settings(max_examples=EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None)
@given(name=st.sampled_from(SETTING_NAMES), value=NUMBERISH)
def test_a_setting_of_any_value_is_read_or_one_line(name, value):
    from generator import settings as read_settings
    from generator.errors import RulebookError

    hostile.tried("fuzzed settings")
    try:
        read_settings.read({name: value})
    except RulebookError as refused:
        said = str(refused)
        assert said.startswith(f"{name}=") and "\n" not in said and len(said) <= LINE_LIMIT, said


@settings(max_examples=EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None)
@given(host=st.sampled_from(["127.0.0.1", "localhost", "", "[::1]", "no-such-host.invalid", "\u0430.example"]),
       sep=st.sampled_from([":", "", "::"]), port=NUMBERISH)
def test_an_address_of_any_shape_is_checked_in_one_line(host, sep, port):
    from generator.commands.serve import address
    from generator.errors import RulebookError

    hostile.tried("fuzzed --addr")
    addr = f"{host}{sep}{port}"
    try:
        assert address(addr) == addr
    except RulebookError as refused:
        said = str(refused)
        assert said.startswith("--addr ") and "\n" not in said and len(said) <= LINE_LIMIT, said
    else:
        number = addr.rpartition(":")[2]
        assert number.isascii() and number.isdigit() and 0 < int(number) <= 65535, addr


@settings(max_examples=SMALL_EXAMPLES * 3, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=st.one_of(st.sampled_from(["Index", "Search", "KEEP", "assets", "404", "Con", "nul", "Aux", "Com7",
                                       "lpt1", "Con Game", "Nul Points", "Aux.", "Index!", "\u0406ndex"]),
                      st.text(min_size=1, max_size=12)))
def test_new_game_of_any_name_makes_a_game_validate_accepts_or_says_why_not(tmp_path_factory, name):
    """new-game with any name: one line and nothing written, or a game whose id is no reserved name (validate's
    game.reserved_id finds nothing)."""
    from generator.book.library import load_library
    from generator.checks import run_checks
    from tests.checkfix import DEMO_GAME, make_project

    hostile.tried("fuzzed game names")
    root = make_project(tmp_path_factory.mktemp("named") / "book", {"games": [DEMO_GAME]})
    before = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--root", str(root), "new-game", "--", name])  # a name may start with '-'
    text = out.getvalue() + err.getvalue()
    assert code in (0, 1) and "Traceback" not in text, text
    if code:
        assert err.getvalue().count("\n") == 1 and len(err.getvalue()) <= LINE_LIMIT, text
        assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == before
        return
    assert not run_checks(load_library(root), only={"game.reserved_id", "page.reserved_id"}), text


@settings(max_examples=SMALL_EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(command=st.sampled_from(["new-game", "edition new"]), free=st.integers(0, 48 * 1024))
def test_a_write_on_a_disk_with_any_room_left_loses_nothing(small_disk, command, free):  # noqa: F811
    """new-game or edition new with any number of bytes left on the disk: all written, or one line and every file
    as it was; run again with room, it does what it was asked."""
    from tests.test_environment import WRITES, _fill, _project, _run, _tree

    hostile.tried("fuzzed full disks")
    argv, written = WRITES[command]
    root = _project(small_disk / f"book-{command.replace(' ', '-')}-{free}")
    before = _tree(root)
    filler = _fill(small_disk, 0)
    os.truncate(filler, max(0, filler.stat().st_size - free))
    try:
        code, out, err = _run(["--root", str(root), *argv])
        assert "Traceback" not in err and code in (0, 1), err
        if code:
            assert err.splitlines()[-1].startswith("error: ") and _tree(root) == before, err
    finally:
        filler.unlink()
    again = _run(["--root", str(root), *argv])
    assert (again[0] == 0) == bool(code), again[2]
    assert written in (root / "rules_data" / "book.yaml").read_text(encoding="utf-8")
    shutil.rmtree(root)


# --- A score card: what validate accepts, the build makes (issue 60, item 5) -------------------------------------
# A random card definition (blocks of columns, rows, totals, what a total adds, rows carrying other blocks' totals,
# sample-only blocks, halves) on a one-game book: validate refuses it in lines of its findings, or the build (site,
# keeper, PDF form, score pad) makes it. The build refusing what validate passed is the class issue 60 found (a
# per-player block carried into a totals block: the PDF form's total read a field the form did not have).

CARD_COLUMNS = ["Score", "Bid", "Made", "Points"]
CARD_BLOCKS = ["Upper", "Lower", "Bonus"]


@st.composite
def score_cards(draw) -> dict:
    """A score_sheet: as a transcriber might write one, right or wrong."""
    blocks = []
    for _ in range(draw(st.integers(1, 3))):
        columns = draw(st.lists(st.sampled_from(CARD_COLUMNS), min_size=1, max_size=3, unique=True))
        block: dict = {"title": draw(st.sampled_from(CARD_BLOCKS)), "columns": columns}
        if draw(st.booleans()):
            block["player_columns"] = True
        rows = draw(st.lists(st.sampled_from(["Hand 1", "Hand 2", "Bonus", *CARD_BLOCKS]), max_size=4))
        if rows:
            block["rows"] = rows
        if draw(st.booleans()):
            block["total"] = "Total"
        # (rare choices are a range's top: Hypothesis draws toward 0)
        if "total" in block and draw(st.integers(0, 3)) == 3:  # what the total adds: mostly its columns
            block["sums"] = draw(st.lists(st.sampled_from(columns), min_size=1, max_size=2, unique=True))
        elif draw(st.integers(0, 11)) == 11:  # or what it cannot add
            block["sums"] = draw(st.lists(st.sampled_from([*columns, "Other"]), max_size=2, unique=True))
        if rows and draw(st.booleans()):
            size = len(rows) + draw(st.sampled_from([0] * 7 + [1]))  # one too many, now and then
            block["carries"] = draw(st.lists(st.sampled_from([*CARD_BLOCKS, None]), min_size=size, max_size=size))
        if draw(st.integers(0, 5)) == 5:
            block["sample_only"] = True
        blocks.append(block)
    card = {"title": "Demo score card", "blocks": blocks}
    if draw(st.booleans()):
        card["halves"] = True
    return card


@pytest.fixture(scope="module")
def card_game(tmp_path_factory) -> Path:
    from tests.test_faults import tiny

    return tiny(tmp_path_factory.mktemp("card-game") / "project")


# A build an example (a few seconds): two in `make test`, a tenth of `make fuzz`'s count (3000: 300).
CARD_EXAMPLES = max(2, int(os.environ.get("RULEBOOK_FUZZ_EXAMPLES", "20")) // 10)


@settings(max_examples=CARD_EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(card=score_cards(), keeps=st.sampled_from([None] * 4 + ["points", "bid_made", "melds"]))
# A per-player block carried into a totals block (issue 60: validate passed it, the PDF form refused it).
@example(card={"title": "Card", "blocks": [
    {"title": "Upper", "columns": ["Score"], "player_columns": True, "rows": ["Hand 1"], "total": "Total"},
    {"title": "Lower", "columns": ["Score"], "rows": ["Upper"], "total": "Total", "carries": ["Upper"]}]},
    keeps=None)
def test_a_score_card_validate_accepts_is_built(card_game, tmp_path_factory, card, keeps):
    import yaml

    from tests.checkfix import DEMO_GAME

    game = yaml.safe_load(DEMO_GAME) | {"score_sheet": card} | ({"keeps": keeps} if keeps else {})
    (card_game / "rules_data" / "demo.yaml").write_text(yaml.safe_dump(game, sort_keys=False), encoding="utf-8")
    _fresh_process()
    code, out, err = validate(card_game, "2026.1")
    assert "Traceback" not in out + err, out + err
    if code != 0:  # refused: each finding one line at the card's file
        assert any(line.startswith("rules_data/demo.yaml:") for line in (out + err).splitlines()), out + err
        return
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed), time_limit(cpu=120, wall=300):
        built = main(["--root", str(card_game), "build", "--out", str(tmp_path_factory.mktemp("card") / "out")])
    assert built == 0, f"validate passed the card, the build refused it:\n{yaml.safe_dump(card)}\n{printed.getvalue()}"


# --- Numbers the prose states (issue 60, item 6): any phrasing, read against the data ------------------------------
# Sentences written by hand for this test (not made from the check's patterns), each stating one number the data
# holds: said as the data says it, the check is silent; said otherwise, in digits or words, amid other sentences, it
# reports that number. A frame the check could not read was a finding of this search: "The dealer gives each player
# 7 cards", "Everyone gets 7 cards", "Shuffle 3 decks together" (read since).

NUMBERS_BODY = {"players": "2-4", "equipment": {"cards": [{"decks": 2}]}, "deal": {"each": 10},
                "goal": {"winner": "high", "target": 500, "rounds": 9}}
STATED = {"deal": 10, "target": 500, "decks": 2, "players": 3, "rounds": 9}  # players: one count of 2-4
FRAMES = [
    ("deal", "Deal {n} cards to each player."), ("deal", "Each player is dealt {n} cards."),
    ("deal", "{n} cards are dealt to each player."), ("deal", "The dealer gives each player {n} cards."),
    ("deal", "Everyone gets {n} cards."), ("deal", "Each player receives {n} cards from the dealer."),
    ("deal", "Deal out {n} cards to every player."), ("deal", "Players are each dealt {n} cards."),
    ("deal", "A hand of {n} cards is dealt to each player."), ("deal", "Each person gets {n} cards."),
    ("target", "The game is played to {n} points."), ("target", "The first player to reach {n} points wins."),
    ("target", "Play continues until someone reaches {n} points."), ("target", "The first to {n} points wins."),
    ("target", "The winner is the first player to score {n} points."), ("target", "Games are played to {n}."),
    ("decks", "Use {n} decks of cards."), ("decks", "The game needs {n} decks."),
    ("decks", "Shuffle {n} decks together."),
    ("players", "{n} people can play."), ("players", "A game for {n} players."), ("players", "Best with {n} players."),
    ("rounds", "{n} rounds are played."), ("rounds", "The game lasts {n} rounds."),
    ("rounds", "After {n} rounds the game ends."),
]
AROUND = ["", "Shuffle well.", "The 2 of clubs leads.", "Turn one card face up.", "Ace is high.",
          "Keep score on a pad."]


@settings(max_examples=EXAMPLES, derandomize=not LONG_SEARCH, deadline=None, database=None)
@given(frame=st.sampled_from(FRAMES), said=st.integers(1, 999), as_data=st.booleans(), words=st.booleans(),
       before=st.sampled_from(AROUND), after=st.sampled_from(AROUND))
# The frames the check could not read, every time:
@example(frame=FRAMES[3], said=7, as_data=False, words=False, before="", after="")
@example(frame=FRAMES[4], said=7, as_data=False, words=True, before="Ace is high.", after="")
@example(frame=FRAMES[18], said=3, as_data=False, words=True, before="", after="")
def test_a_number_the_prose_states_is_read_against_the_data(frame, said, as_data, words, before, after):
    from generator.book.model import GameBody
    from generator.book.numwords import to_words
    from generator.checks.prose_numbers import number_findings

    kind, sentence = frame
    value = STATED[kind] if as_data else said
    number = to_words(value) if words else str(value)
    text = sentence.replace("{n}", number)
    line = " ".join(part for part in (before, text[0].upper() + text[1:], after) if part)
    body = GameBody.model_validate(NUMBERS_BODY)
    found = [message for _, message in number_findings("game.md", line, body, "")]
    wrong = value != STATED[kind] and not (kind == "players" and 2 <= value <= 4)
    assert bool(found) == wrong, (line, found)
    if wrong:
        assert all(f" says {value}," in message for message in found), found

"""Bad input, second round (issue 40): every file read, every character printed, every folder written.

Each class of bad input is a table of cases, each a broken copy of the project: files of every kind where a source
should be, bytes that are not text, control characters, look-alike titles, placeholders with a format, prose with
no rules, editions no book lists, Markdown nested or laid out past what the outputs print, a damaged cache, an
--out folder holding the user's files. Each ends in one clear line naming the place (or, for the cache, in the
same findings as with no cache), never a traceback, a hang, a terminal code or a lost file. Cheap: validate runs in
this process on one copy of the tests' own small book; the builds of the --out cases render nothing (the renders are stubbed).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from generator.book.library import load_library
from generator.commands import build as build_module
from generator.commands.build import build
from generator.errors import UNPRINTABLE, Location, RulebookError, SourceError, SourceErrors
from generator.render.output import STAMP
from tests import hostile
from tests.conftest import SMALL_BOOK, copy_project
from tests.test_faults import one_line, run, tiny
from tests.test_fuzz import moved_aside

TERMINAL = UNPRINTABLE  # what no line printed may hold as it is (but the line break ending it)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A copy of the tests' own book (sixteen games, both editions, frozen records, errata: every kind of file the
    cases break), validated many times over at half the Metzker book's cost."""
    return copy_project(tmp_path_factory.mktemp("bad-input") / "project", SMALL_BOOK)


@contextlib.contextmanager
def cache_in(folder: Path) -> Iterator[None]:
    """Within this block, the user's cache is ``folder`` and this process remembers nothing it read before it (as a
    new process would): validate reads and writes ``folder``."""
    from generator.book import loader
    from generator.checks import editorial

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(folder))
        mp.setattr(loader, "_PARSED", {})
        editorial._english.cache_clear()
        try:
            yield
        finally:
            editorial._english.cache_clear()


@pytest.fixture(scope="module")
def warm_cache(project, tmp_path_factory) -> Path:
    """A cache as validating the book leaves it (both editions): each case starts from a copy of it, as a
    contributor's validate after an edit does (a cold cache made each case decode the English word list and parse
    every file again: 1 CPU-s a case, 0.2 warm)."""
    folder = tmp_path_factory.mktemp("warm-cache")
    with cache_in(folder):
        for edition in ((), ("--edition", "2026.1")):
            run("--root", str(project), "validate", *edition)
    return folder


@pytest.fixture
def cold_cache() -> None:
    """Asked for by a case about the cache itself: its own cache starts empty (the findings of no cache)."""


@pytest.fixture(autouse=True)
def own_cache(request, tmp_path):
    """Each case its own cache, read from disk (not from this process's memory): a damaged one stays here. It starts
    as a copy of the warm cache, or empty for a case about the cache (``cold_cache``)."""
    if "cold_cache" not in request.fixturenames:
        shutil.copytree(request.getfixturevalue("warm_cache"), tmp_path / "cache")
    with cache_in(tmp_path / "cache"):
        yield


def forget() -> None:
    """Forget what this process read (as a new process would): the next validate reads the cache on disk."""
    from generator.book import loader
    from generator.checks import editorial

    loader._PARSED.clear()
    editorial._english.cache_clear()


@contextlib.contextmanager
def replaced(path: Path, make: Callable[[Path], None]) -> Iterator[None]:
    """``path`` replaced by what ``make`` puts there (a pipe, a link, a folder, other bytes), then put back."""
    with moved_aside(path):
        make(path)
        yield


def validate(project: Path, *args: str) -> tuple[int, str]:
    code, output = run("--root", str(project), "validate", *args)
    assert "Traceback" not in output, output
    for line in output.split("\n"):
        assert not TERMINAL.search(line), f"a control character printed as it is: {line!r}"
    return code, output


# --- 1. Every file read goes through one door ------------------------------------------------------------------

SECRET = "root:x:0:0:the secret a link out of the project would print"


def _outside(path: Path) -> Path:
    root = next((parent for parent in path.parents if (parent / "rules_data").is_dir()
                 or (parent / "templates").is_dir()), path.parent)
    secret = root.parent / "secret.txt"  # beside the project, not in it
    secret.write_text(SECRET + "\n", encoding="utf-8")
    return secret


KINDS: dict[str, tuple[Callable[[Path], None], str]] = {
    "a named pipe": (lambda p: os.mkfifo(p), "not a plain file"),
    "a link out of the project": (lambda p: p.symlink_to(_outside(p)), "leads out of"),
    "a link to a link out": (lambda p: (p.with_name("hop").symlink_to(_outside(p)), p.symlink_to("hop")),
                             "leads out of"),
    "a link in a circle": (lambda p: p.symlink_to(p.name), "round in a circle"),
    "a link to nothing": (lambda p: p.symlink_to("gone-for-good"), "which is not there"),
    "a link to a device": (lambda p: p.symlink_to("/dev/zero"), "leads out of"),
    "a folder": (lambda p: p.mkdir(), "is a folder"),
    "bytes that are not UTF-8": (lambda p: p.write_bytes(b"id: x\n\xff\xfe caf\xe9\n"), "not UTF-8"),
    "too big": (lambda p: p.write_bytes(b"# x\n" * 70_000), "limit"),
}
READ = ["content/skull-and-roses.md", "rules_data/trash.yaml", "rules_data/dictionary.txt",
        "rules_data/frozen/2026.1/hearts.yaml", "rules_data/book.yaml"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("file", READ)
def test_a_source_that_is_not_a_plain_text_file_in_the_project_is_one_line(project, file, kind):
    make, says = KINDS[kind]
    with replaced(project / file, make):
        code, output = validate(project)
        with contextlib.suppress(FileNotFoundError):
            (project / file).with_name("hop").unlink()
    assert code == 1
    assert SECRET not in output
    if file.startswith("rules_data/frozen/") and kind == "bytes that are not UTF-8":
        says = "was changed after 2026.1 was published"  # a record is judged by its sealed digest, before it is read
    line = one_line(output, file, says)
    assert len(line) < (520 if file.startswith("rules_data/frozen/") else 400)  # a record's line says how to mend it
    hostile.tried("file and network access")


def test_a_device_in_the_project_is_one_line(project):
    path = project / "content" / "trash.md"

    def device(p: Path) -> None:
        try:
            os.mknod(p, 0o600 | 0o020000, os.makedev(1, 5))  # /dev/zero's kind: endless
        except PermissionError:
            pytest.skip("making a device needs root")

    with replaced(path, device):
        code, output = validate(project)
    assert code == 1
    one_line(output, "content/trash.md", "not a plain file")


def test_a_link_out_of_the_project_is_never_built(project):
    """The site and its search index printed /etc/passwd through a link in content/."""
    with replaced(project / "content" / "skull-and-roses.md", lambda p: p.symlink_to(_outside(p))):
        with pytest.raises(SourceErrors) as info:
            load_library(project)
        with pytest.raises(RulebookError, match="leads out of"):
            build(project, out=project.parent / "never-built")
    assert "skull-and-roses.md" in str(info.value) and SECRET not in str(info.value)
    assert not (project.parent / "never-built").exists()


@pytest.mark.parametrize("folder", ["content", "rules_data/frozen/2026.1"])
def test_a_folder_that_is_a_link_out_of_the_project_is_one_line(project, folder):
    """Each file of a linked folder was read from outside the project; now the folder is named, once."""
    path = project / folder
    elsewhere = project.parent / f"elsewhere-{path.name}"
    shutil.copytree(path, elsewhere, dirs_exist_ok=True)
    with replaced(path, lambda p: p.symlink_to(elsewhere)):
        code, output = validate(project)
    assert code == 1
    one_line(output, folder, "leads out of")
    assert len([line for line in output.splitlines() if "leads out of" in line]) == 1


def test_a_site_asset_that_links_out_is_never_published(tmp_path, monkeypatch):
    """A pull request adding a link among the site's assets to a secret: the build names it, publishes nothing."""
    from generator.book.files import copy_tree, template_bounds
    from generator.render.site import docs

    assets = tmp_path / "templates" / "site" / "assets"
    shutil.copytree(docs.SITE_ASSETS, assets)
    (assets / "notes.txt").symlink_to(_outside(assets / "x"))
    with pytest.raises(SourceError, match="templates/site/assets/notes.txt: leads out of"):
        copy_tree(assets, tmp_path / "docs" / "assets", "templates/site/assets", template_bounds(tmp_path / "templates"))
    assert not any(SECRET in p.read_text(errors="replace") for p in (tmp_path / "docs").rglob("*") if p.is_file())


def test_a_theme_template_that_links_out_is_never_published(tmp_path):
    project = tiny(tmp_path / "project")
    overrides = project / "templates" / "site" / "overrides"
    (overrides / "partials").mkdir(parents=True, exist_ok=True)
    (overrides / "partials" / "footer.html").symlink_to(_outside(overrides / "x"))
    with pytest.raises(RulebookError, match="footer.html: leads out of"):
        build(project, out=tmp_path / "out", pdf=False)
    assert not any(SECRET in p.read_text(errors="replace") for p in (tmp_path / "out").rglob("*") if p.is_file())


def test_a_link_that_stays_in_the_project_is_read(project):
    target = project / "content" / "trash.md"
    kept = target.read_bytes()
    with replaced(target, lambda p: p.symlink_to("../content/.fuzz-aside-trash.md")):
        assert load_library(project).games["trash"].prose.text.encode() == kept


def test_a_folder_only_read_is_not_called_one_to_write_to(project, monkeypatch):
    from generator.book import files

    def refused(path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(files.os, "scandir", refused)
    code, output = validate(project)
    line = one_line(output, "rules_data", "cannot be read", "make it readable")
    assert "write" not in line


# --- 2. The cache is only a cache --------------------------------------------------------------------------------

def _damage(kind: str, path: Path) -> None:
    raw = path.read_bytes()
    path.unlink()
    if kind == "emptied":
        path.write_bytes(b"")
    elif kind == "cut short":
        path.write_bytes(raw[: len(raw) // 2])
    elif kind == "garbage":
        path.write_bytes(b"\x00\xff garbage \x1b[2J" * 50)
    elif kind == "nested deep":
        path.write_bytes(raw.split(b"\n")[0] + b"\n" + b"[" * 100_000 + b"]" * 100_000)
    elif kind == "edited":
        path.write_bytes(raw.replace(b"e", b"a", 3))
    elif kind == "a pipe":
        os.mkfifo(path)
    elif kind == "a folder":
        path.mkdir()
    elif kind == "a link out":
        path.symlink_to("/dev/zero")


DAMAGE = ["emptied", "cut short", "garbage", "nested deep", "edited", "a pipe", "a folder", "a link out"]


@pytest.fixture(scope="module")
def no_cache_findings(project, tmp_path_factory) -> tuple[int, str]:
    """What validate says with no cache at all (an empty one), once for every kind of damage."""
    with cache_in(tmp_path_factory.mktemp("no-cache")):
        return validate(project)


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_cache_gives_the_findings_of_no_cache(project, tmp_path, kind, no_cache_findings):
    fresh = no_cache_findings
    assert validate(project) == fresh  # the warm cache this case starts from, whole
    entries = sorted(p for p in (tmp_path / "cache").rglob("*") if p.is_file())
    assert any(p.parent.name == "yaml" for p in entries) and any(p.name.startswith("verdicts") for p in entries)
    for entry in entries:
        _damage(kind, entry)
    forget()
    assert validate(project) == fresh
    if kind not in ("a folder",):  # what cannot be replaced by a file (a folder in its place) is worked out anew
        assert [p.name for p in entries if not p.is_file() or p.is_symlink()] == [], "not written again"
    assert validate(project) == fresh


def test_an_edited_spelling_verdict_does_not_hide_a_misspelling(project, tmp_path, cold_cache):
    prose = project / "content" / "trash.md"
    original = prose.read_bytes()
    prose.unlink()
    prose.write_bytes(original + b"\nThe dealre shuffles.\n")
    try:
        first = validate(project)[1]
        assert "unknown word 'dealre'" in first
        cache = tmp_path / "cache" / "rulebook"
        verdicts = next(cache.glob("verdicts*"))
        verdicts.write_bytes(verdicts.read_bytes().replace(b"-dealre\n", b"+dealre\n"))
        english = next(cache.glob("english*"))
        english.write_bytes(english.read_bytes() + b"\ndealre")  # the word list taught the misspelling too
        forget()
        assert "unknown word 'dealre'" in validate(project)[1]
    finally:
        prose.unlink()
        prose.write_bytes(original)


@pytest.mark.parametrize("kind", ["emptied", "cut short", "garbage", "edited", "a file added", "a file gone",
                                  "no manifest", "another entry's"])
def test_a_damaged_pdf_cache_entry_is_made_again(tmp_path, kind):
    from generator.render.pdf.cache import MANIFEST, kept

    made = []

    def make(staged: Path) -> None:
        made.append(staged)
        (staged / "book.pdf").write_bytes(b"%PDF-1.7 the book " + str(len(made)).encode() * 100)
        (staged / ".anchors.json").write_text('{"a": 1}', encoding="utf-8")

    folder = tmp_path / "pdf-cache"
    entry = kept(folder, "abc", make)
    assert kept(folder, "abc", make) == entry and len(made) == 1  # proven: copied, not made again
    pdf = entry / "book.pdf"
    if kind == "a file added":
        (entry / "extra.pdf").write_bytes(b"%PDF")
    elif kind == "a file gone":
        pdf.unlink()
    elif kind == "no manifest":
        (entry / MANIFEST).unlink()
    elif kind == "another entry's":
        other = kept(folder, "xyz", make)
        shutil.rmtree(entry)
        shutil.copytree(other, entry)
    else:
        _damage(kind, pdf)
    kept(folder, "abc", make)
    assert len(made) == 2 + (kind == "another entry's")
    assert (entry / "book.pdf").read_bytes().startswith(b"%PDF-1.7 the book")


# --- 3. Every text that reaches a reader or a terminal is clean --------------------------------------------------

CONTROLS = ["\x1b[2J", "\x07", "\x00", "\x01", "\x7f", "\x85", "\u202e", "\u2028", "\r"]


@pytest.mark.parametrize("char", CONTROLS, ids=[repr(c) for c in CONTROLS])
@pytest.mark.parametrize("where", ["prose", "YAML text", "YAML escape"])
def test_a_control_character_in_data_or_prose_is_one_line(project, where, char):
    if where == "prose":
        file, old, new = "content/trash.md", b"Trash", f"Tr{char}ash".encode()
    elif where == "YAML text":
        file, old, new = "rules_data/trash.yaml", b"\ntitle: Trash\n", f"\ntitle: Tr{char}ash\n".encode()
    else:
        escape = char.encode("unicode_escape").decode().replace("\\x1b", "\\e").replace("\\r", "\\r")
        file, old, new = "rules_data/trash.yaml", b"\ntitle: Trash\n", f'\ntitle: "Tr{escape}ash"\n'.encode()
    path = project / file
    raw = path.read_bytes()
    with replaced(path, lambda p: p.write_bytes(raw.replace(old, new, 1))):
        code, output = validate(project)
    assert code == 1
    line = one_line(output, file, "control character")
    assert re.match(rf"{re.escape(file)}:\d+", line)


def test_a_file_name_with_a_terminal_code_is_printed_escaped(project):
    odd = project / "rules_data" / "\x1b[2Jodd.yaml"
    odd.write_bytes((project / "rules_data" / "trash.yaml").read_bytes())
    try:
        code, output = validate(project)
    finally:
        odd.unlink()
    assert code == 1 and "\\x1b[2Jodd.yaml" in output


# (A zero-width space in one is refused before titles are compared: tests/test_invisible.py.)
TITLES = ["Trash ", " Trash", "TRASH", "Ｔｒａｓｈ", "Trash\u00a0", "\u0422rash", "Tr\u0430sh",
          "\u0422R\u0410\u0405H", "T\u0433ash"]


@pytest.mark.parametrize("title", TITLES, ids=[t.encode("unicode_escape").decode() for t in TITLES])
def test_titles_a_reader_cannot_tell_apart_are_one_title(project, title):
    data, prose = project / "rules_data" / "trash-again.yaml", project / "content" / "trash-again.md"
    text = (project / "rules_data" / "trash.yaml").read_text(encoding="utf-8")
    data.write_text(text.replace("id: trash", "id: trash-again").replace("\ntitle: Trash\n", f"\ntitle: {json.dumps(title)}\n", 1),
                    encoding="utf-8")
    shutil.copy(project / "content" / "trash.md", prose)
    try:
        code, output = validate(project, "--allow-missing")
    finally:
        data.unlink()
        prose.unlink()
    assert code == 1
    one_line(output, "rules_data/trash-again.yaml", "is also the title of trash")


@pytest.mark.parametrize("title", ["Four-Card Golf ", "FOUR-CARD GOLF", "F\u043eur-Card Golf", "Four-Card\u00a0Golf"])
def test_variant_titles_a_reader_cannot_tell_apart_are_one_title(project, title):
    path = project / "rules_data" / "golf.yaml"
    raw = path.read_text(encoding="utf-8")
    with replaced(path, lambda p: p.write_text(raw.replace("title: Six Card Golf", f"title: {json.dumps(title)}"),
                                               encoding="utf-8")):
        code, output = validate(project)
    assert code == 1
    at = raw.splitlines().index(next(line for line in raw.splitlines() if "title: Six Card Golf" in line)) + 1
    one_line(output, f"rules_data/golf.yaml:{at}", "reads as the title of variant four-card-golf")


def test_titles_that_differ_on_the_page_are_not_one_title():
    from generator.book.lookalike import reader_key

    assert reader_key("Trash") != reader_key("Trashy") != reader_key("Trash!")
    assert reader_key("Oh Hell!") != reader_key("Oh Well!")
    assert reader_key("Crazy Eights") == reader_key("crazy\teights  ")


PLACEHOLDERS = ["{deal.each!r}", "{deal.each:>5}", "{deal.each:05d}", "{deal.each!s:word}", "{Deal.each}",
                "{ deal.each }", "{deal.each:words}", "{0}"]


@pytest.mark.parametrize("placeholder", PLACEHOLDERS)
@pytest.mark.parametrize("file", ["content/trash.md", "rules_data/trash.yaml"])
def test_a_placeholder_with_a_format_is_refused(project, file, placeholder):
    path = project / file
    raw = path.read_bytes()
    old, new = ((b"Trash", f"Trash {placeholder}".encode()) if file.endswith(".md")
                else (b"title: Trash\n", f"title: Trash\nsubtitle: \"for {placeholder} players\"\n".encode()))
    with replaced(path, lambda p: p.write_bytes(raw.replace(old, new, 1))):
        code, output = validate(project)
    assert code == 1
    one_line(output, file, placeholder, "not a reference")


NO_RULES = {
    "front matter": "---\ntitle: Trash\nplayers: 4-10\n---\n",
    "front matter and rules (---)": "---\ntitle: Trash\n---\n\n---\n\n***\n",
    "headings underlined": "Trash\n=====\n\nHow to play\n-----------\n",
    "horizontal rules": "- - -\n\n___\n\n* * *\n",
}


@pytest.mark.parametrize("text", NO_RULES.values(), ids=NO_RULES)
def test_prose_with_no_rules_once_front_matter_and_rules_are_gone_is_no_rules(project, text):
    with replaced(project / "content" / "trash.md", lambda p: p.write_text(text, encoding="utf-8")):
        code, output = validate(project)
    assert code == 1
    one_line(output, "content/trash.md", "prose.no_rules")


# --- 4. Every reference names something that exists -------------------------------------------------------------

EDITIONS = {  # (file, old, new, the check): each an error, the game never left out without a word
    "a game introduced before the first": ("rules_data/trash.yaml", 'introduced: "2026.2"', 'introduced: "2025.1"',
                                           "edition.unlisted"),
    "a game introduced in no year listed": ("rules_data/trash.yaml", 'introduced: "2026.2"', 'introduced: "2019.4"',
                                            "edition.unlisted"),
    "a game introduced after the last": ("rules_data/trash.yaml", 'introduced: "2026.2"', 'introduced: "2026.9"',
                                         "edition.unlisted"),
    "a game retired after the last": ("rules_data/trash.yaml", 'introduced: "2026.2"',
                                      'introduced: "2026.2"\nretired: "2027.1"', "edition.unlisted"),
    "a variant introduced after the last": ("rules_data/golf.yaml", 'introduced: "2026.2"', 'introduced: "2026.3"',
                                            "edition.unlisted"),
}


@pytest.mark.parametrize("case", EDITIONS)
def test_an_edition_the_book_does_not_list_is_never_silent(project, case):
    """A game introduced in an unlisted edition vanished from every edition without a word."""
    file, old, new, name = EDITIONS[case]
    path = project / file
    raw = path.read_text(encoding="utf-8")
    assert old in raw
    with replaced(path, lambda p: p.write_text(raw.replace(old, new, 1), encoding="utf-8")):
        for edition in ("2026.2", "2026.1"):
            code, output = validate(project, "--edition", edition)
            assert code == 1 or edition == "2026.1"  # (the published edition has errors of its own)
            line = one_line(output, file, name, "rules_data/book.yaml")
            assert not line.endswith("(warning)")


# --- 5. Nothing validate passes can fail the build or lose text ----------------------------------------------------

PRINTS = {
    "emphasis a thousand deep": ("*a " * 1000 + "b" + "*" * 1000, "nested 1"),
    "emphasis alternating": ("".join("*a " if i % 2 else "_a " for i in range(100)) + "b", "nested"),
    "emphasis over lines": ("\n".join("*a" for _ in range(40)) + " b", "nested"),
    "links a hundred deep": ("[" * 100 + "x" + "](y)" * 100, "nested"),
    "an image": ("![the table](table.png)", "prose.image"),
    "an image by reference": ("![the table][t]\n\n[t]: table.png", "prose.image"),
    "a word longer than a line": ("Read " + "x" * 60 + " first.", "prose.long_word"),
    "an address longer than a line": ("See https://example.org/" + "abcdefgh/" * 8, "prose.long_word"),
    "a table wider than the page": ("| " + " | ".join(f"Column{n}" for n in range(20)) + " |\n|"
                                    + "---|" * 20 + "\n| " + " | ".join("1" * 20) + " |", "prose.wide_table"),
}


@pytest.mark.parametrize("case", PRINTS)
def test_what_the_outputs_would_drop_or_cut_is_found_at_its_line(project, case):
    text, says = PRINTS[case]
    path = project / "content" / "trash.md"
    raw = path.read_text(encoding="utf-8")
    line = raw.count("\n") + 2
    with replaced(path, lambda p: p.write_text(raw + "\n" + text + "\n", encoding="utf-8")):
        code, output = validate(project)
    assert code == 1
    found = one_line(output, "content/trash.md", says)
    assert found.startswith(f"content/trash.md:{line}") or "nested" in says, found


HEADINGS = {"empty": '""', "on two lines": '"Trash\\nthe second line"', "Markdown": '"Trash *deluxe*"',
            "a trailing hash": '"Trash #"', "too long": '"' + "Trash " * 30 + '"',
            "a word wider than the page": '"' + "T" * 40 + '"'}


@pytest.mark.parametrize("case", HEADINGS)
def test_a_title_that_breaks_the_page_head_is_found(project, case):
    path = project / "rules_data" / "trash.yaml"
    raw = path.read_text(encoding="utf-8")
    with replaced(path, lambda p: p.write_text(raw.replace("\ntitle: Trash\n", f"\ntitle: {HEADINGS[case]}\n", 1),
                                               encoding="utf-8")):
        code, output = validate(project)
    assert code == 1
    one_line(output, "rules_data/trash.yaml:3", "title.breaks_heading")


def test_when_the_site_engine_fails_the_message_names_the_page(tmp_path, monkeypatch):
    from generator.render.site import plugin

    project = tiny(tmp_path / "project")
    real = plugin.RulebookPlugin.on_page_content

    def fails(self, html, page, config, files):
        if page.file.src_uri.startswith("games/demo"):
            raise RecursionError("maximum recursion depth exceeded")
        return real(self, html, page, config, files)

    monkeypatch.setattr(plugin.RulebookPlugin, "on_page_content", fails)
    with pytest.raises(RulebookError) as info:
        build(project, out=tmp_path / "out", pdf=False)
    assert "games/demo" in str(info.value) and "content/demo.md" in str(info.value)
    assert "RecursionError" in str(info.value) and "\n" not in str(info.value)


def test_when_the_pdf_layout_fails_the_message_names_the_page(tmp_path, monkeypatch):
    from generator.render.pdf import book, worker
    from generator.render.process import ERROR, PDF, Request

    lib = load_library(tiny(tmp_path / "project"))

    def fails(*args, progress, **kwargs):
        for page in range(1, 38):
            progress(book.PAGES, page, 60)
        raise RecursionError("maximum recursion depth exceeded while calling a Python object")

    monkeypatch.setattr(book, "render_book", fails)
    monkeypatch.setattr(worker, "_STATE", {"lib": lib, "out": tmp_path, "request": Request(PDF, str(lib.root))})
    failure = worker._task("book").failure
    assert failure.kind == ERROR and "page 38 of the book" in failure.message and "RecursionError" in failure.message


# --- 6. --out never destroys what it did not make ----------------------------------------------------------------

def stub_renders(monkeypatch) -> None:
    """The renders made stand-ins that write one file each: the --out cases test the folder, not the book."""
    def render_pdfs(lib, pdf_dir, **kwargs):
        pdf_dir.mkdir(parents=True)
        (pdf_dir / "book.pdf").write_bytes(b"%PDF the build's")
        return {}

    def render_site(lib, site_dir, staging, downloads, anchors, progress=None):
        site_dir.mkdir(parents=True)
        (site_dir / "index.html").write_text("the build's", encoding="utf-8")

    monkeypatch.setattr(build_module, "render_pdfs", render_pdfs)
    monkeypatch.setattr(build_module, "render_site", render_site)


def _tree(folder: Path) -> dict[str, str]:
    """Every path under ``folder`` (links not followed) and what it holds."""
    found = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            found[rel] = "folder"
    return found


USERS = {
    "their own pdf/ and site/": lambda d: [(d / h).mkdir() or (d / h / "mine.txt").write_text("mine") for h in
                                           ("pdf", "site")],
    "their own pdf/": lambda d: (d / "pdf").mkdir() or (d / "pdf" / "thesis.pdf").write_bytes(b"%PDF mine"),
    "a file of theirs": lambda d: (d / "notes.txt").write_text("mine"),
    "a folder named as a build's": lambda d: (d / ".build-mine").mkdir() or (d / ".build-mine" / "x").write_text("m"),
    "a link named site": lambda d: (d / "site").symlink_to(d.parent),
    "a link named current": lambda d: (d / "current").symlink_to(d.parent),
    "a hidden file": lambda d: (d / ".profile").write_text("mine"),
}


@pytest.mark.parametrize("half", [{}, {"pdf": False}, {"site": False}], ids=["both", "--site-only", "--pdf-only"])
@pytest.mark.parametrize("case", USERS)
def test_an_out_folder_holding_the_users_files_is_refused_and_left_as_it_was(tmp_path, monkeypatch, case, half):
    stub_renders(monkeypatch)
    project = tiny(tmp_path / "project")
    out = tmp_path / "theirs"
    out.mkdir()
    USERS[case](out)
    before = _tree(out)
    with pytest.raises(RulebookError) as info:
        build(project, out=out, **half)
    assert "holds what the build did not make" in str(info.value) and "\n" not in str(info.value)
    assert _tree(out) == before


@pytest.mark.parametrize("case", USERS)
def test_what_a_user_adds_to_a_build_folder_is_never_removed_or_renamed(tmp_path, monkeypatch, case):
    stub_renders(monkeypatch)
    project = tiny(tmp_path / "project")
    out = tmp_path / "out"
    build(project, out=out)
    assert (out / STAMP).is_file() and (out / "site" / "index.html").read_text() == "the build's"
    if case in ("a link named site", "a link named current", "their own pdf/ and site/", "their own pdf/"):
        for name in ("site", "pdf", "current"):
            (out / name).unlink()  # the user took the build's links away, and put their own things there
    USERS[case](out)
    theirs = {k: v for k, v in _tree(out).items() if not k.startswith((".build-", "current", STAMP))
              and k not in ("site", "pdf")}
    for half in ({}, {"pdf": False}, {"site": False}):
        with contextlib.suppress(RulebookError):  # refused, when theirs is where the build's links go
            build(project, out=out, **half)
        now = _tree(out)
        assert {k: now.get(k) for k in theirs} == theirs


@pytest.mark.parametrize("where", ["content", "content/sub", "rules_data", "rules_data/frozen", "templates", ".",
                                   ".."])
def test_an_out_folder_in_the_sources_is_refused_in_one_line(tmp_path, monkeypatch, where):
    stub_renders(monkeypatch)
    project = tiny(tmp_path / "project")
    before = _tree(project)
    code, output = run("--root", str(project), "build", "--out", str(project / where))
    assert code == 1
    one_line(output, "error: ", "where the build reads its sources")
    assert _tree(project) == before


@pytest.mark.parametrize("where", ["theirs.pdf", "content/book.pdf", "rules_data/frozen/book.pdf"])
def test_a_preview_never_replaces_a_file_it_did_not_write(tmp_path, where):
    from generator.commands.preview import Preview

    project = tiny(tmp_path / "project")
    target = (tmp_path / where) if where == "theirs.pdf" else project / where
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"%PDF the user's own")
    with pytest.raises(RulebookError) as info:
        Preview(project, target).rebuild()
    assert "\n" not in str(info.value) and str(target) in str(info.value)
    assert target.read_bytes() == b"%PDF the user's own"


# --- 7. Messages point at the cause --------------------------------------------------------------------------------

QUOTES = [(2, 'id: "trash'), (3, 'title: "Trash'), (4, "category: 'cards"), (9, 'players: "4-10')]


@pytest.mark.parametrize(("line", "opened"), QUOTES)
def test_a_quote_left_open_is_reported_where_it_opens(project, line, opened):
    path = project / "rules_data" / "trash.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[line - 1].replace('"', "").replace("'", "") == opened.replace('"', "").replace("'", "")
    lines[line - 1] = opened
    with replaced(path, lambda p: p.write_text("\n".join(lines), encoding="utf-8")):
        code, output = validate(project)
    assert code == 1
    one_line(output, f"rules_data/trash.yaml:{line}:", "quote")


def test_a_source_error_message_never_holds_a_raw_control_character():
    error = SourceError(Location("a\x1bb.md", 1), "bad \x07 thing \u202e here\nand a second line")
    assert not TERMINAL.search(str(error)) and "\\x1b" in str(error) and "\\u202e" in str(error)


# A look-alike letter is named by its script, so the contributor sees what the page hides: (game, title with
# one letter of another script, the words the refusal holds).
FOREIGN = [("hearts", "\u0397earts", "'\u0397' is Greek (GREEK CAPITAL LETTER ETA), drawn like H"),
           ("euchre", "\u0415uchre", "'\u0415' is Cyrillic (CYRILLIC CAPITAL LETTER IE), drawn like E"),
           ("skull-and-roses", "\u13dakull & Roses", "'\u13da' is Cherokee (CHEROKEE LETTER DU), drawn like S"),
           ("sticks", "Stick\u0455", "'\u0455' is Cyrillic (CYRILLIC SMALL LETTER DZE), drawn like s")]


@pytest.mark.parametrize("game,title,words", FOREIGN, ids=[f[0] for f in FOREIGN])
def test_a_look_alike_letter_is_named_by_its_script(project, game, title, words):
    data, prose = project / "rules_data" / f"{game}-again.yaml", project / "content" / f"{game}-again.md"
    text = (project / "rules_data" / f"{game}.yaml").read_text(encoding="utf-8")
    plain = next(line for line in text.splitlines() if line.startswith("title: "))
    data.write_text(text.replace(f"id: {game}", f"id: {game}-again").replace(plain, f"title: {json.dumps(title)}", 1),
                    encoding="utf-8")
    shutil.copy(project / "content" / f"{game}.md", prose)
    try:
        code, output = validate(project, "--allow-missing")
    finally:
        data.unlink()
        prose.unlink()
    assert code == 1
    one_line(output, f"rules_data/{game}-again.yaml", words)


@pytest.mark.parametrize("slug,words", [("pu\u0455h", "'\u0455' is Cyrillic"), ("g\u03bflf", "'\u03bf' is Greek")])
def test_a_look_alike_letter_in_an_id_is_named_by_its_script(project, slug, words):
    path = project / "rules_data" / "errata.yaml"
    raw = path.read_text(encoding="utf-8")
    first = next(line for line in raw.splitlines() if line.startswith("  - id: "))
    with replaced(path, lambda p: p.write_text(raw.replace(first, f"  - id: {slug}", 1), encoding="utf-8")):
        code, output = validate(project)
    assert code == 1
    one_line(output, "rules_data/errata.yaml", words)

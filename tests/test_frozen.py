"""The published edition is frozen: its committed fingerprint is what today's files print for it.

None of this needs the sources (../shared/seeds): the fingerprint is committed, so a clone checks it.
"""

from __future__ import annotations

import pytest

from generator.book.frozen import FROZEN_DIR, fingerprint, stored, write
from generator.checks import run_checks
from generator.cli import main
from tests.conftest import PUBLISHED, ROOT, copy_project


def test_the_published_edition_prints_what_was_published(library, published_library):
    for lib in (library, published_library):
        found = [f for f in run_checks(lib, only=["edition.frozen", "erratum.not_published"])]
        assert found == [], "\n".join(f"{f.path}:{f.line}: {f.check}: {f.message}" for f in found)


def test_the_committed_fingerprint_is_what_freeze_writes(published_library, tmp_path):
    """Committed as `rulebook freeze` writes it, byte for byte (nobody edited it by hand), and complete; only a worked
    example's title and labels, the program's own words (model.program_words), may read otherwise today (issue 52:
    a slip of the book's that a label repeated is no longer undone in them)."""
    project = copy_project(tmp_path)
    from generator.book.library import load_library
    from generator.book.model import program_words

    write(load_library(project, PUBLISHED))
    ours, theirs = sorted((ROOT / FROZEN_DIR / PUBLISHED).glob("*.yaml")), sorted((project / FROZEN_DIR / PUBLISHED).glob("*.yaml"))
    assert [p.name for p in ours] == [p.name for p in theirs]

    def book_lines(text: str) -> list[str]:
        return [line for line in text.splitlines() if not program_words(line.strip().partition(":")[0])]

    for a, b in zip(ours, theirs, strict=True):
        if a.name == "book.yaml":
            assert a.read_text(encoding="utf-8") == b.read_text(encoding="utf-8"), a.name
        else:
            assert book_lines(a.read_text(encoding="utf-8")) == book_lines(b.read_text(encoding="utf-8")), a.name
    assert set(stored(ROOT, PUBLISHED)) == set(fingerprint(published_library))
    assert set(published_library.games) <= set(stored(ROOT, PUBLISHED))


def test_freeze_refuses_the_current_edition_in_one_line(tmp_path, capsys):
    project = copy_project(tmp_path)
    assert main(["--root", str(project), "freeze", "2026.2"]) == 1
    err = capsys.readouterr().err
    assert "only an edition already published is frozen" in err and "Traceback" not in err
    assert not (project / FROZEN_DIR / "2026.2").exists()


# The published record is sealed: each way of changing it, and the one line validate gives, at the record's file.
# (what is done to the copy, the file the one error names, words it holds)
def _replace(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


RECORD = f"{FROZEN_DIR}/{PUBLISHED}"
TAMPER = [
    ("a value edited", lambda p: _replace(p / RECORD / "euchre.yaml", "goal.target: 10", "goal.target: 11"),
     f"{RECORD}/euchre.yaml", "was changed after 2026.1 was published"),
    ("a value and the game edited together", lambda p: (
        _replace(p / RECORD / "euchre.yaml", "goal.target: 10", "goal.target: 11"),
        _replace(p / "rules_data" / "euchre.yaml", "target: 10", "target: 11")),
     f"{RECORD}/euchre.yaml", "was changed after 2026.1 was published"),
    ("a prose line edited", lambda p: _replace(p / RECORD / "hearts.yaml", "may not be led", "may never be led"),
     f"{RECORD}/hearts.yaml", "was changed after 2026.1 was published"),
    ("line ends written as CRLF", lambda p: (p / RECORD / "hearts.yaml").write_bytes(
        (p / RECORD / "hearts.yaml").read_bytes().replace(b"\n", b"\r\n")), None, None),
    ("a file removed", lambda p: (p / RECORD / "sweep.yaml").unlink(), f"{RECORD}/sweep.yaml",
     "was removed from 2026.1's record"),
    ("a file added", lambda p: (p / RECORD / "spoons.yaml").write_text("data: {}\n", encoding="utf-8"),
     f"{RECORD}/spoons.yaml", "was added to 2026.1's record"),
    ("the digests edited", lambda p: (p / RECORD / "SHA256SUMS").write_text(
        (p / RECORD / "SHA256SUMS").read_text(encoding="utf-8") + "0" * 64 + "  spoons.yaml\n", encoding="utf-8"),
     f"{RECORD}/SHA256SUMS", "keeps under 2026.1"),
    ("the digests removed", lambda p: (p / RECORD / "SHA256SUMS").unlink(), f"{RECORD}/SHA256SUMS", "is missing"),
    ("the seal removed from book.yaml", lambda p: _replace(p / "rules_data" / "book.yaml", "    record: ", "    # "),
     "rules_data/book.yaml", "keeps no digest of its record"),
]


@pytest.mark.parametrize("tamper,where,words", [t[1:] for t in TAMPER], ids=[t[0] for t in TAMPER])
def test_a_change_to_the_published_record_is_one_error_at_the_record(tmp_path, tamper, where, words):
    from generator.book.library import load_library

    project = copy_project(tmp_path)
    tamper(project)
    found = [f for f in run_checks(load_library(project)) if f.severity == "error"]
    if where is None:
        assert found == [], found
        return
    [finding] = found
    assert finding.check == "frozen.changed" and finding.path == where and finding.line and words in finding.message, found


def test_freeze_refuses_a_sealed_record_in_one_line(tmp_path, capsys):
    project = copy_project(tmp_path)
    before = {p.name: p.read_bytes() for p in (project / RECORD).iterdir()}
    assert main(["--root", str(project), "freeze", PUBLISHED]) == 1
    err = capsys.readouterr().err
    assert "2026.1's record is sealed" in err and "rules_data/book.yaml:" in err and "Traceback" not in err, err
    assert {p.name: p.read_bytes() for p in (project / RECORD).iterdir()} == before

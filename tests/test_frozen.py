"""The published edition is frozen: its committed fingerprint is what today's files print for it.

None of this needs the sources (../shared/seeds): the fingerprint is committed, so a clone checks it.
"""

from __future__ import annotations

from generator.checks import run_checks
from generator.cli import main
from generator.freeze import FROZEN_DIR, fingerprint, stored, write
from tests.conftest import PUBLISHED, ROOT, copy_project


def test_the_published_edition_prints_what_was_published(library, published_library):
    for lib in (library, published_library):
        found = [f for f in run_checks(lib, only=["edition.frozen", "erratum.not_published"])]
        assert found == [], "\n".join(f"{f.path}:{f.line}: {f.check}: {f.message}" for f in found)


def test_the_committed_fingerprint_is_what_freeze_writes(published_library, tmp_path):
    """Committed as `rulebook freeze` writes it, byte for byte (nobody edited it by hand), and complete."""
    project = copy_project(tmp_path)
    from generator.library import load_library
    write(load_library(project, PUBLISHED))
    ours, theirs = sorted((ROOT / FROZEN_DIR / PUBLISHED).glob("*.yaml")), sorted((project / FROZEN_DIR / PUBLISHED).glob("*.yaml"))
    assert [p.name for p in ours] == [p.name for p in theirs]
    for a, b in zip(ours, theirs, strict=True):
        assert a.read_text(encoding="utf-8") == b.read_text(encoding="utf-8"), a.name
    assert set(stored(ROOT, PUBLISHED)) == set(fingerprint(published_library))
    assert set(published_library.games) <= set(stored(ROOT, PUBLISHED))


def test_freeze_refuses_the_current_edition_in_one_line(tmp_path, capsys):
    project = copy_project(tmp_path)
    assert main(["--root", str(project), "freeze", "2026.2"]) == 1
    err = capsys.readouterr().err
    assert "only an edition already published is frozen" in err and "Traceback" not in err
    assert not (project / FROZEN_DIR / "2026.2").exists()

"""The summary stays under the 1 MiB GitHub shows of a step's summary (issue 59): the files a change touches are
listed up to a number and the rest counted, a summary past the limit is cut at a whole line saying so, and the whole
summary and every file are written for the check's artifact (``--whole``). On the tests' own small book."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from generator.commands.check_pr import summary
from generator.commands.check_pr import text as text_module
from tests.pullrequests import pr_book

MANY = 600  # files a change touches: more than the summary lists (summary.FILES_SHOWN)


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> Path:
    """A change that adds MANY notes about the book (Markdown prose: data), uncommitted, as a checkout has it."""
    repo = pr_book(tmp_path_factory.mktemp("many") / "repo", games=("knock-golf",))
    notes = repo / "notes"
    notes.mkdir()
    for n in range(MANY):
        (notes / f"note-{n:04}.md").write_text(f"Note {n}.\n", encoding="utf-8")
    return repo


def test_past_the_files_it_lists_the_summary_counts_the_rest_and_the_artifact_has_every_one(many, tmp_path, capsys):
    said = tmp_path / "summary.md"
    assert main(["--root", str(many), "check-pr", "--base", "HEAD", "--summary", str(said), "--whole",
                 str(tmp_path / "whole")]) == 0
    capsys.readouterr()
    text = said.read_text(encoding="utf-8")
    listed = [line for line in text.splitlines() if line.startswith("- `notes/note-")]
    assert len(listed) == summary.FILES_SHOWN
    assert f"{MANY - summary.FILES_SHOWN} more of the {MANY} files this change touches are left out here" in text
    every = (tmp_path / "whole" / "files.txt").read_text(encoding="utf-8").splitlines()
    assert len(every) == MANY and every[0] == "added\tnotes/note-0000.md"
    assert (tmp_path / "whole" / "summary.md").read_text(encoding="utf-8").strip() == text.strip()


def test_a_summary_past_the_limit_is_cut_at_a_whole_line_saying_so(many, tmp_path, capsys, monkeypatch):
    """As a 5,200-file change's 1.18 MB summary would be (the limit made small here, the mechanism the same)."""
    monkeypatch.setattr(text_module, "MAX_SUMMARY_BYTES", 4000)
    said = tmp_path / "summary.md"
    assert main(["--root", str(many), "check-pr", "--base", "HEAD", "--summary", str(said), "--whole",
                 str(tmp_path / "whole")]) == 0
    capsys.readouterr()
    text = said.read_text(encoding="utf-8")
    whole = (tmp_path / "whole" / "summary.md").read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= 4000 < len(whole.encode("utf-8"))
    kept, note = text.split("\n\n**The summary is cut here: ")
    assert whole.startswith(kept + "\n")  # whole lines, as they were
    left = int(note.split()[0])
    assert left == len(whole.split("\n")) - len(kept.split("\n")) and "`summary.md`" in note


# case: (the text, the limit, whether it is cut)
LIMITS = {
    "under the limit": ("a\nb\n", 10, False),
    "at the limit, in letters of two bytes": ("é" * 5, 10, False),
    "fewer letters than the limit, more bytes": ("é\n" * 250, 600, True),
    "over the limit": ("line\n" * 400, 500, True),
}


@pytest.mark.parametrize("case", list(LIMITS))
def test_within_limit_counts_bytes_not_letters(case):
    text, limit, cut = LIMITS[case]
    out = text_module.within_limit(text, limit)
    assert (out != text) == cut
    if cut:
        assert len(out.encode("utf-8")) <= limit and "The summary is cut here" in out

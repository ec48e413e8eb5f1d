"""An erratum needs evidence: a spelling, the arithmetic, or the book's own page and words that disagree."""

from __future__ import annotations

import pytest

from generator.errors import SourceErrors
from generator.library import load_library
from tests.conftest import copy_project

RUMMOLI = """    evidence:
      kind: contradiction
      why: "The index said 2 or more, but the Rummoli page says 2 to 8 players."
      page: rummoli
      words: "2 to 8 players, 4 or more is best"
"""

# (what the Rummoli erratum's evidence is replaced with, words the one error must hold)
BROKEN = [
    ("", "missing key 'evidence'"),
    ("    evidence:\n      kind: contradiction\n      why: The page says 2 to 8.\n", "names the page and the words"),
    ("    evidence:\n      kind: spelling\n      why: Misspelt.\n      page: rummoli\n", "cite a contradiction"),
    ("    evidence:\n      kind: hunch\n      why: It looks old.\n", "kind"),
    ("    evidence:\n      kind: arithmetic\n      why: \"\"\n", "why"),
    (RUMMOLI.replace("page: rummoli", "page: rummolo"), "cites page 'rummolo', which the book does not have"),
]


@pytest.mark.parametrize("evidence,words", BROKEN, ids=[b[1] for b in BROKEN])
def test_an_erratum_without_evidence_is_refused_at_its_line(tmp_path, evidence, words):
    project = copy_project(tmp_path)
    path = project / "rules_data" / "errata.yaml"
    text = path.read_text(encoding="utf-8")
    assert RUMMOLI in text
    path.write_text(text.replace(RUMMOLI, evidence), encoding="utf-8")
    with pytest.raises(SourceErrors) as info:
        load_library(project)
    [err] = info.value.errors
    assert err.where.path == "rules_data/errata.yaml" and err.where.line and words in err.problem, str(err)


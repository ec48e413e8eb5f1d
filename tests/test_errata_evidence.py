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



# Evidence is checked, not just labelled: each kind proven true and false on a tiny book printed in 2026.1
# (its fingerprint written), then corrected in 2026.2. (the change made to the files, the erratum's fields,
# words of the one erratum.false_evidence finding, or None when the evidence holds).
TWO_EDITIONS = ('{id: "2026.1", year: 2026, revision: 1, label: Revision 1 (Jan/2026), date: "2026-01-01"}\n'
                '  - {id: "2026.2", year: 2026, revision: 2, label: Revision 2 (Nov/2026), date: "2026-11-01"}')
DEMO = ("id: demo\ntitle: Demo Rummy\ncategory: cards\nintroduced: \"2026.1\"\n"
        "sources: [{seed: 000_321aee1cc9de258a.txt, section: Demo}]\nplayers: 2-4\n"
        "equipment: {cards: [{decks: 1}]}\ndeal: {each: 7, upcard: 1}\ngoal: {winner: high, target: 500}\n"
        "examples:\n  hand:\n    title: A hand\n    values:\n      melds: {stated: 30, label: Melds}\n"
        "      left: {stated: 5, label: Left in hand}\n      total: {expr: melds - left, stated: STATED, label: Score}\n")
PROSE = "## Rules\n\nThe dealer shufles the cards. Hearts may not be led first. Play to 500 points.\n"
EVIDENCE = [
    ("spelling, true", ("content/demo.md", "shufles", "shuffles"),
     "file: content/demo.md\n    published: shufles\n    corrected: shuffles\n    check: spelling.unknown_word\n"
     "    evidence: {kind: spelling, why: Misspelt.}", None),
    ("spelling, a rule changed", ("content/demo.md", "may not be led", "may never be led"),
     "file: content/demo.md\n    published: may not be led\n    corrected: may never be led\n    check: spelling.unknown_word\n"
     "    evidence: {kind: spelling, why: Misspelt.}", "replaces a word the dictionary does not know"),
    ("spelling, still misspelt", ("content/demo.md", "shufles", "shuffels"),
     "file: content/demo.md\n    published: shufles\n    corrected: shuffels\n    check: spelling.unknown_word\n"
     "    evidence: {kind: spelling, why: Misspelt.}", "'shuffels' are not in the dictionary"),
    ("arithmetic, true", ("rules_data/demo.yaml", "stated: 35, label: Score", "stated: 25, label: Score"),
     "file: rules_data/demo.yaml\n    path: examples.hand.values.total.stated\n    published: 35\n    corrected: 25\n"
     "    check: example.arithmetic\n    evidence: {kind: arithmetic, why: 30 less 5 is 25.}", None),
    ("arithmetic, the published sum was right", ("rules_data/demo.yaml", "target: 500", "target: 400"),
     "file: rules_data/demo.yaml\n    path: goal.target\n    published: 500\n    corrected: 400\n"
     "    check: example.arithmetic\n    evidence: {kind: arithmetic, why: It adds up to 400.}",
     "example.arithmetic finds nothing wrong with the published 500"),
    ("arithmetic, the corrected sum is wrong too", ("rules_data/demo.yaml", "stated: 35, label: Score", "stated: 24, label: Score"),
     "file: rules_data/demo.yaml\n    path: examples.hand.values.total.stated\n    published: 35\n    corrected: 24\n"
     "    check: example.arithmetic\n    evidence: {kind: arithmetic, why: 30 less 5 is 24.}", "finds the corrected 24 wrong too"),
    ("arithmetic, no such check", ("rules_data/demo.yaml", "stated: 35, label: Score", "stated: 25, label: Score"),
     "file: rules_data/demo.yaml\n    path: examples.hand.values.total.stated\n    published: 35\n    corrected: 25\n"
     "    check: example.sums\n    evidence: {kind: arithmetic, why: 30 less 5 is 25.}", "'example.sums' is not a check"),
    ("contradiction, true", ("rules_data/demo.yaml", "target: 500", "target: 400"),
     "file: rules_data/demo.yaml\n    path: goal.target\n    published: 500\n    corrected: 400\n    check: prose.number_mismatch\n"
     "    evidence: {kind: contradiction, why: The rules say otherwise., page: demo, words: Hearts may not be led first}", None),
    ("contradiction, words the page does not print", ("rules_data/demo.yaml", "target: 500", "target: 400"),
     "file: rules_data/demo.yaml\n    path: goal.target\n    published: 500\n    corrected: 400\n    check: prose.number_mismatch\n"
     "    evidence: {kind: contradiction, why: The rules say otherwise., page: demo, words: Play to 400 points}",
     "does not print “Play to 400 points”"),
]


@pytest.mark.parametrize("edit,fields,words", [e[1:] for e in EVIDENCE], ids=[e[0] for e in EVIDENCE])
def test_evidence_is_checked_not_just_labelled(tmp_path, edit, fields, words):
    from generator.checks import run_checks
    from tests.checkfix import make_project

    erratum = f"errata:\n  - id: demo-fix\n    edition: \"2026.2\"\n    {fields}\n    note: x\n"
    fixture = {"games": [DEMO.replace("STATED", "35")], "prose": {"demo": PROSE}, "edition": TWO_EDITIONS,
               "current": "2026.2", "freeze": "2026.1", "then": [list(edit), ["rules_data/errata.yaml", "", erratum]]}
    lib = load_library(make_project(tmp_path / "book", fixture))
    found = [f for f in run_checks(lib) if f.check == "erratum.false_evidence"]
    if words is None:
        assert found == [], [f.message for f in found]
    else:
        [finding] = found
        assert words in finding.message and finding.path == "rules_data/errata.yaml" and finding.line, finding

"""The fidelity check itself: each source sentence against one output's page, and why it failed."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from tests.fidelity_output import Text
from tests.fidelity_source import Sentence

DIGITS = {"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
          "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "twenty": "20"}
MARKUP = set("*_#`<>[]~|\\")
INDENT = 2.0  # points: a sub-item's text starts at least this much right of its parent's


@dataclass(frozen=True)
class Failure:
    """A sentence one output does not print as the source has it."""

    sentence: Sentence
    output: str  # "site" or "pdf"
    kind: str
    observed: str

    @property
    def key(self) -> tuple[str, str]:
        return self.sentence.id, self.output

    def __str__(self) -> str:
        s = self.sentence
        return (f"{s.seed}:{s.line} ({s.target}, {self.output}): {self.kind}\n"
                f"    expected: {' '.join(s.expected[0])}\n    observed: {self.observed}")


def nested_at(text: Text, i: int, parent: list[int], output: str) -> bool:
    """The words at i sit in a sub-item of a parent found at one of `parent` before it."""
    before = [j for j in parent if j < i]
    if not before:
        return False
    j = before[-1]
    if output == "site":
        return text.depth[i] > text.depth[j]
    return text.depth[i] >= text.depth[j] + INDENT


def check(sentences: list[Sentence], text_of, output: str) -> list[Failure]:
    """Each sentence whose words are not on its page, together and in order (a sub-item nested)."""
    failures = []
    for s in sentences:
        texts = text_of(s.target, s.row)
        text = next((t for t in texts if any(t.find(alt) for alt in s.expected)), texts[0])
        hits = [(alt, i) for alt in s.expected for i in text.find(alt)]
        if hits and s.nested:
            parent = [i for alt in s.parent.expected for i in text.find(alt)]
            if not any(nested_at(text, i, parent, output) for _, i in hits):
                failures.append(Failure(s, output, "flattened sub-item", _window(s.expected[0], text)))
            continue
        if not hits:
            failures.append(Failure(s, output, diagnose(s.expected[0], text), _window(s.expected[0], text)))
    return failures


def errata_groups(sentences: list[Sentence], text_of, output: str) -> list[str]:
    """Corrections whose published words stood in several sentences: at least one must read corrected."""
    groups: dict[str, list[Sentence]] = {}
    for s in sentences:
        for e in s.errata:
            groups.setdefault(e, []).append(s)
    return [f"erratum {e}: no sentence of {group[0].target} prints it corrected ({output})"
            for e, group in groups.items()
            if len(group) > 1 and not any(t.find(s.expected[0]) for s in group for t in text_of(s.target, s.row))]


def diagnose(expected: list[str], text: Text) -> str:
    """Why the words were not found, for the report: the nearest reading that would have matched."""
    def folded(ws, fold):
        probe = Text([fold(w) for w in text.tokens], text.depth)
        return bool(probe.find([fold(w) for w in ws]))

    if folded(expected, lambda w: DIGITS.get(w.lower(), w)):
        return "number word printed as digits (or the reverse)"
    if folded(expected, str.lower):
        return "letter case differs"
    bare = Text([w for w in text.tokens if not set(w) <= MARKUP], text.depth)
    if bare.find(expected):
        return "literal markup shown"
    return "words changed, reordered or missing"


def _window(expected: list[str], text: Text) -> str:
    """The run of the page most like the expected words (what the reader sees instead)."""
    if not text.tokens:
        return "(the page is empty or missing)"
    m = SequenceMatcher(None, expected, text.tokens, autojunk=False).find_longest_match(
        0, len(expected), 0, len(text.tokens))
    if m.size == 0:
        return "(none of its words in order)"
    start = max(0, m.b - m.a)
    return " ".join(text.tokens[start:start + len(expected) + 2])

"""No rule sentence is lost: every rule line of the sources appears in the built site.

Seed 000 is checked against the as-published edition (2026.1), seeds 001-004 against the current
edition. Lines that are not rules (the web page's table of contents, image captions, export
debris) are listed with a reason in seed_exceptions.yaml; nothing else may be missing.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import yaml

from generator.library import load_library
from tests.conftest import CURRENT, PUBLISHED, ROOT
from tests.textmatch import normalise, site_text, source_line

# The sources sit beside the repository (as CI checks it out); RULEBOOK_SEEDS can point elsewhere.
SEEDS = Path(os.environ.get("RULEBOOK_SEEDS", ROOT.parent / "shared" / "seeds"))
needs_seeds = pytest.mark.skipif(not SEEDS.exists(), reason=f"the sources are not at {SEEDS}")
EXCEPTIONS = yaml.safe_load((Path(__file__).parent / "seed_exceptions.yaml").read_text(encoding="utf-8"))


def excepted_lines(seed_key: str) -> set[int]:
    """Line numbers of a seed listed (with a reason) as not being rule text."""
    out: set[int] = set()
    for item in EXCEPTIONS.get(seed_key, []):
        low, _, high = str(item["lines"]).partition("-")
        out.update(range(int(low), int(high or low) + 1))
    return out


# "24-25<tab>Fast Track (Board Game) .....<tab>2-6": an index line. Its page number is the one thing
# an edition prints differently (its own pages; the errata page says so), so it is left out here.
INDEX_PAGE = re.compile(r"^\d+(?:-\d+)?\t(?=[^\t]*\.{2,}\s*\t)")


def rule_lines(seed: Path) -> list[tuple[int, list[str]]]:
    """(line number, ways it may appear) of every non-empty rule line of a seed.

    A tab-separated line may be a table printed two columns side by side (10 Dime Rummy's melds):
    then each half may appear as its own row instead of the whole line.
    """
    skip = excepted_lines(seed.name[:3])
    out = []
    for n, line in enumerate(seed.read_text(encoding="utf-8").splitlines(), 1):
        line = INDEX_PAGE.sub("", line)
        norm = normalise(source_line(line))
        if not norm or n in skip:
            continue
        cells = [c for c in line.split("\t") if c.strip()]
        halves = [normalise(" ".join(cells[: len(cells) // 2])), normalise(" ".join(cells[len(cells) // 2:]))]
        out.append((n, [norm] + ([" | ".join(halves)] if len(cells) >= 4 and len(cells) % 2 == 0 else [])))
    return out


def found(ways: list[str], text: str) -> bool:
    """The whole line is in the text, or (side-by-side table) each of its halves is."""
    return any(all(part in text for part in way.split(" | ")) for way in ways)


def corrected(ways: list[str], errata: list) -> list[str]:
    """The ways a line may read once the edition's listed corrections are applied to it."""
    out = list(ways)
    for e in errata:
        old, new = normalise(str(e.published)), normalise(str(e.corrected).replace("{edition.year}", "2026"))
        out += [f" {w} ".replace(f" {old} ", f" {new} ").strip() for w in ways if f" {old} " in f" {w} "]
    return out


def missing_lines(seed_name: str, edition: str, built: dict[str, Path]) -> list[str]:
    pages = site_text(built[edition] / "site")
    everything = " \n ".join(pages.values())
    errata = load_library(ROOT, edition).errata if edition == CURRENT else []
    return [f"{seed_name}:{n}: {ways[0]}" for n, ways in rule_lines(SEEDS / seed_name)
            if not found(corrected(ways, errata), everything)]


@needs_seeds
@pytest.mark.parametrize("seed,edition", [
    ("000_321aee1cc9de258a.txt", PUBLISHED),
    ("001_59fee6dd4a7ef7b3.txt", CURRENT),
    ("002_7fdb562303e32018.txt", CURRENT),
    ("003_94bf42bc385c18ab.txt", CURRENT),
    ("004_191a56df9f426e21.txt", CURRENT),
])
def test_every_rule_line_is_in_the_site(seed, edition, built):
    missing = missing_lines(seed, edition, built)
    assert not missing, "lines missing from the site:\n" + "\n".join(missing)


@needs_seeds
def test_every_exception_has_a_reason_and_names_real_lines():
    for seed, items in EXCEPTIONS.items():
        [path] = SEEDS.glob(f"{seed}_*.txt")
        count = len(path.read_text(encoding="utf-8").splitlines())
        for item in items:
            assert len(item.get("reason", "")) > 20, f"seed {seed}: exception without a reason: {item}"
            assert max(excepted_lines(seed)) <= count

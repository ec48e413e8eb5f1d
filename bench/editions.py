"""The book after many releases (issue 36): ten editions against today's two, in one run, as ratios.

`python bench/run.py editions` makes a copy of the project and releases it eight times as the maintainer
does (`rulebook edition new`, then a decision and a correction in each new edition), so the copy has ten
editions, nine of them frozen. It then times, in fresh processes and interleaved with the same commands on
today's two-edition book:

- `rulebook validate` (the frozen check rebuilds and compares every earlier edition): target at most 2x;
- `rulebook build` of the current edition (site and PDF): target about 1x (the current edition's build
  does not read the earlier ones, but for the "What changed" page's edition before).

`python bench/run.py publish` (issues 44 and 50) publishes nine editions once (not timed), opens the tenth
(`rulebook edition new`, committed) and times `rulebook publish` (the tenth built alone, the nine kept as deployed);
then corrects a slip an earlier edition printed (an erratum of the current edition, committed) and times `rulebook
publish` again; each against a build of the current edition from nothing (`rulebook build` into a new folder: no
score sheet kept), interleaved pair by pair: targets at most 1.3x, the nine frozen editions kept as deployed.
"""

from __future__ import annotations

import datetime
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
RELEASES = 8  # 2026.2 is current today: eight more make ten editions


def _edit(root: Path, file: str, old: str, new: str) -> None:
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert old in text, (file, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


SLIP = ("content/basic-rummy.md", "The game continues with more deals", "Shufle well. The game continues with more deals")


def ten_editions(dest: Path, project: Callable[[Path], Path] | None = None, releases: int = RELEASES,
                 slip: bool = False) -> Path:
    """A copy of the project (``project`` writes it; it must hold Euchre) released ``releases`` times, each new
    edition with a decision of its own; with ``slip``, the last edition printed with a misspelling (``SLIP``: it must
    hold Basic Rummy, which the current edition of today adds): a word of the edition's own, or, in a game an
    earlier edition printed, of a decision of the edition's (a sentence it adds)."""
    from generator.commands.edition import new_edition
    from tests.conftest import copy_project

    root = (project or copy_project)(dest)
    revisions = ["revisions:"]
    target = 10  # Euchre's, moved up one point an edition: a decision (a revision) each time
    current = None  # the edition the last release opened
    for n in range(releases):
        year, revision, month = (2026, 3, 12) if n == 0 else (2027, n, n)  # 2026.3, then 2027.1 to 2027.7
        ed = f"{year}.{revision}"
        if slip and n == releases - 1:
            _edit(root, *SLIP)
            if current is not None:  # Basic Rummy is frozen in the editions before: the sentence is a decision
                revisions.append(f"  - {{id: bench-shuffle-rule, edition: \"{current}\", date: \"2027-01-01\", "
                                 f"kind: rule, file: {SLIP[0]}, before: {SLIP[1]}, after: {SLIP[2]}, "
                                 "why: The family asks for a good shuffle.}")
                (root / "rules_data" / "revisions.yaml").write_text("\n".join(revisions) + "\n", encoding="utf-8")
        name = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][month - 1]
        new_edition(root, ed, f"Revision {revision} ({name}/{year})", f"{year}-{month:02d}-28")
        _edit(root, "rules_data/euchre.yaml", f"target: {target}", f"target: {target + 1}")
        revisions.append(f"  - {{id: euchre-{target + 1}, edition: \"{ed}\", date: \"{year}-01-01\", kind: target, "
                         f"file: rules_data/euchre.yaml, path: goal.target, before: {target}, after: {target + 1}, "
                         f"why: The family plays one point longer.}}")
        (root / "rules_data" / "revisions.yaml").write_text("\n".join(revisions) + "\n", encoding="utf-8")
        target += 1
        current = ed
    return root


def _timed(cmd: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, capture_output=True, check=True)
    return time.perf_counter() - start


def editions(results: dict, tmp: Path, builds: int = 2, validates: int = 7, releases: int = RELEASES,
             project: Callable[[Path], Path] | None = None) -> None:
    """Validate and build with ten editions (``releases`` + 2) against two, interleaved pair by pair; ratios of the
    medians. ``project`` writes the book measured (default: a copy of the project's)."""
    from tests.conftest import copy_project

    few = (project or copy_project)(tmp / "two-editions")
    many = ten_editions(tmp / "ten-editions", project, releases)
    rulebook = [sys.executable, "-m", "generator"]
    pairs = [(_timed([*rulebook, "--root", str(few), "validate"], ROOT),
              _timed([*rulebook, "--root", str(many), "validate"], ROOT)) for _ in range(validates)]
    two, ten = statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)
    results.update(editions_validate_two_s=round(two, 3), editions_validate_ten_s=round(ten, 3),
                   editions_validate_ratio=round(ten / two, 2))
    pairs = [(_timed([*rulebook, "--root", str(few), "build", "--out", str(tmp / "two-build")], ROOT),
              _timed([*rulebook, "--root", str(many), "build", "--out", str(tmp / "ten-build")], ROOT))
             for _ in range(builds)]
    two, ten = min(p[0] for p in pairs), min(p[1] for p in pairs)
    results.update(editions_build_two_s=round(two, 2), editions_build_ten_s=round(ten, 2),
                   editions_build_ratio=round(ten / two, 2))


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=bench", "-c", "user.email=bench@localhost", *args],
                          capture_output=True, text=True, check=True).stdout


def _correct(root: Path, edition: str, undo: bool = False) -> None:
    """Correct SLIP as an erratum of ``edition`` (with ``undo``, put the slip and the errata back), and commit."""
    file, _, slipped = SLIP
    corrected = slipped.replace("Shufle", "Shuffle")
    errata = root / "rules_data" / "errata.yaml"
    data = yaml.safe_load(errata.read_text(encoding="utf-8"))
    data["errata"] = [e for e in data["errata"] if e["id"] != "bench-shuffle"]
    if undo:
        _edit(root, file, corrected, slipped)
    else:
        _edit(root, file, slipped, corrected)
        data["errata"].append({"id": "bench-shuffle", "edition": edition, "file": file, "published": "Shufle well.",
                               "corrected": "Shuffle well.", "check": "spelling.unknown_word", "note": "Spelling.",
                               "evidence": {"kind": "spelling", "why": "“Shufle” is misspelt."}})
    errata.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "undo the correction" if undo else "a correction")


def publish_correction(results: dict, tmp: Path, pairs: int = 1, releases: int = RELEASES,
                       project: Callable[[Path], Path] | None = None) -> None:
    """Publish after opening the tenth edition (issue 50), then after a correction to it (issue 44), each against one
    build of the current edition from nothing; the ratios to the best build.

    The book is released ``releases`` - 1 times (nine editions, the last but one printed with ``SLIP``) and published
    whole (not timed); the tenth edition is opened (`rulebook edition new`) and committed, and published after the
    first build: only it is built, the nine before kept as deployed. Then each pair builds, corrects the slip (an
    erratum of the tenth edition) and publishes."""
    from generator.book.library import load_library
    from generator.commands.edition import new_edition

    before = max(releases - 1, 1)
    root = ten_editions(tmp / "publish", project, before, slip=True)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "nine editions")
    rulebook = [sys.executable, "-m", "generator", "--root", str(root)]

    def published() -> tuple[float, str]:
        start = time.perf_counter()
        done = subprocess.run([*rulebook, "publish"], cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"publish failed: {done.stderr.strip()[-2000:]}")
        return time.perf_counter() - start, done.stdout.strip().splitlines()[-1]

    published()  # every edition, once
    last = load_library(root).edition  # the next revision, a day after it
    year, revision = (int(p) for p in last.id.split("."))
    day = datetime.date.fromisoformat(last.date) + datetime.timedelta(days=1)
    opened = f"{year}.{revision + 1}"
    new_edition(root, opened, f"Revision {revision + 1} ({day:%b}/{year})", day.isoformat())
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", f"open {opened}")
    current = load_library(root).book.current
    editions = len(load_library(root).book.editions)
    builds, publishes, reports = [], [], []
    release = None
    for i in range(pairs):
        builds.append(_timed([*rulebook, "build", "--out", str(tmp / f"one-build-{i}")], ROOT))
        if release is None:
            release = published()
            print(f"publish after opening the tenth edition: {release[0]:.2f} s, build {builds[0]:.2f} s "
                  f"({release[1]})", flush=True)  # said at once: the corrections after it take as long again
        _correct(root, current, undo=i % 2 == 1)
        took, report = published()
        publishes.append(took)
        reports.append(report)
    results.update(publish_release_s=round(release[0], 2), publish_release_ratio=round(release[0] / min(builds), 2),
                   publish_release_editions=editions, publish_release_report=release[1],
                   publish_correction_s=round(min(publishes), 2), publish_one_build_s=round(min(builds), 2),
                   publish_correction_ratio=round(min(publishes) / min(builds), 2),
                   publish_correction_editions=editions, publish_correction_report=reports[0])


if __name__ == "__main__":
    import json
    import tempfile

    sys.path.insert(0, str(ROOT))
    found: dict = {}
    with tempfile.TemporaryDirectory() as folder:
        editions(found, Path(folder), builds=int(sys.argv[1]) if len(sys.argv) > 1 else 2)
    print(json.dumps(found, indent=1))

"""The book after many releases (issue 36): ten editions against today's two, in one run, as ratios.

`python bench/run.py editions` makes a copy of the project and releases it eight times as the maintainer
does (`rulebook edition new`, then a decision and a correction in each new edition), so the copy has ten
editions, nine of them frozen. It then times, in fresh processes and interleaved with the same commands on
today's two-edition book:

- `rulebook validate` (the frozen check rebuilds and compares every earlier edition): target at most 2x;
- `rulebook build` of the current edition (site and PDF): target about 1x (the current edition's build
  does not read the earlier ones, but for the "What changed" page's edition before).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RELEASES = 8  # 2026.2 is current today: eight more make ten editions


def _edit(root: Path, file: str, old: str, new: str) -> None:
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert old in text, (file, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def ten_editions(dest: Path, project: Callable[[Path], Path] | None = None, releases: int = RELEASES) -> Path:
    """A copy of the project (``project`` writes it; it must hold Euchre) released ``releases`` times, each new
    edition with a decision of its own."""
    from generator.release import new_edition
    from tests.conftest import copy_project

    root = (project or copy_project)(dest)
    revisions = ["revisions:"]
    target = 10  # Euchre's, moved up one point an edition: a decision (a revision) each time
    for n in range(releases):
        year, revision, month = (2026, 3, 12) if n == 0 else (2027, n, n)  # 2026.3, then 2027.1 to 2027.7
        ed = f"{year}.{revision}"
        name = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][month - 1]
        new_edition(root, ed, f"Revision {revision} ({name}/{year})", f"{year}-{month:02d}-28")
        _edit(root, "rules_data/euchre.yaml", f"target: {target}", f"target: {target + 1}")
        revisions.append(f"  - {{id: euchre-{target + 1}, edition: \"{ed}\", date: \"{year}-01-01\", kind: target, "
                         f"file: rules_data/euchre.yaml, path: goal.target, before: {target}, after: {target + 1}, "
                         f"why: The family plays one point longer.}}")
        (root / "rules_data" / "revisions.yaml").write_text("\n".join(revisions) + "\n", encoding="utf-8")
        target += 1
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


if __name__ == "__main__":
    import json
    import tempfile

    sys.path.insert(0, str(ROOT))
    found: dict = {}
    with tempfile.TemporaryDirectory() as folder:
        editions(found, Path(folder), builds=int(sys.argv[1]) if len(sys.argv) > 1 else 2)
    print(json.dumps(found, indent=1))

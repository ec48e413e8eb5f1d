"""``rulebook diff OLD NEW``: what a change does to the rules, between two git refs or project folders."""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import asdict
from pathlib import Path

from ..book import git
from ..book.compare import Summary, compare, lines, markdown
from ..book.library import SOURCE_DIRS, Library, load_library


def load_side(spec: str, repo: Path, tmp: Path) -> Library:
    """A library from a folder, or from a git ref of ``repo``."""
    path = Path(spec)
    if path.is_dir() and (path / "rules_data").is_dir():
        return load_library(path.resolve())
    return load_library(git.unpack(repo, spec, SOURCE_DIRS, tmp / re.sub(r"\W", "_", spec)))


def diff_summary(old: str, new: str, repo: Path) -> Summary:
    """The structured change between two git refs or project folders."""
    with tempfile.TemporaryDirectory() as tmp:
        return compare(load_side(old, repo, Path(tmp)), load_side(new, repo, Path(tmp)))


def render(old: str, new: str, repo: Path, form: str = "markdown") -> str:
    """``rulebook diff OLD NEW``: what NEW changes in the rules of OLD, as Markdown, text or JSON."""
    summary = diff_summary(old, new, repo)
    if form == "json":
        return json.dumps([asdict(c) for c in summary.changes], ensure_ascii=False, indent=1)
    if form == "text":
        return "\n".join(lines(summary)) or "No change to the rules."
    return markdown(summary, f"What this change does to the rules ({old} → {new})")


def run(old: str, new: str, root: Path, form: str = "markdown") -> int:
    """``rulebook diff OLD NEW``: print what NEW changes in the rules of OLD."""
    print(render(old, new, root, form))
    return 0

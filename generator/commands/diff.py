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
from ..book.words import Words, _, use


def load_side(spec: str, repo: Path, tmp: Path) -> Library:
    """A library from a folder, or from a git ref of ``repo``."""
    path = Path(spec)
    if path.is_dir() and (path / "rules_data").is_dir():
        return load_library(path.resolve())
    return load_library(git.unpack(repo, spec, SOURCE_DIRS, tmp / re.sub(r"\W", "_", spec)))


def diff_summary(old: str, new: str, repo: Path) -> Summary:
    """The structured change between two git refs or project folders, in the words of OLD's book (its language and
    its own messages: the book the change is made to), whatever NEW sets."""
    with tempfile.TemporaryDirectory() as tmp:
        base, changed = load_side(old, repo, Path(tmp)), load_side(new, repo, Path(tmp))
        use(Words(base.book.language, base.book.messages))  # (loading NEW made its words the ones in use)
        return compare(base, changed)


def render(old: str, new: str, repo: Path, form: str = "markdown") -> str:
    """``rulebook diff OLD NEW``: what NEW changes in the rules of OLD, as Markdown, text or JSON, in OLD's book's
    language."""
    summary = diff_summary(old, new, repo)
    if form == "json":
        return json.dumps([asdict(c) for c in summary.changes], ensure_ascii=False, indent=1)
    if form == "text":
        return "\n".join(lines(summary)) or _("No change to the rules.")
    return markdown(summary, _("What this change does to the rules (%(old)s → %(new)s)", old=old, new=new))


def run(old: str, new: str, root: Path, form: str = "markdown") -> int:
    """``rulebook diff OLD NEW``: print what NEW changes in the rules of OLD."""
    print(render(old, new, root, form))
    return 0

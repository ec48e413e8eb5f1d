"""``rulebook diff OLD NEW``: what a change does to the rules, between two git refs or project folders."""

from __future__ import annotations

import json
import re
import subprocess
import tarfile
import tempfile
from dataclasses import asdict
from io import BytesIO
from pathlib import Path

from ..book.compare import Summary, compare, lines, markdown
from ..book.library import Library, load_library
from ..errors import Location, RulebookError, SourceError, echo


def checkout(ref: str, repo: Path, dest: Path) -> Path:
    """The sources at a git ref, unpacked into ``dest`` (only what the book is made of)."""
    try:
        data = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", ref, "rules_data", "content"],
                              capture_output=True, check=True).stdout
    except subprocess.CalledProcessError as exc:
        raise RulebookError(f"cannot read '{ref}' from git: {exc.stderr.decode(errors='replace').strip()}") from None
    except FileNotFoundError:
        raise RulebookError(f"git: not found: '{ref}' is read from git; install git (or put it on PATH), "
                            "or compare two project folders instead") from None
    def refuse_out(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo:
        # The folder form refuses a link out of the project when it reads it (files.read_source): here, as it is
        # unpacked, in the same words, rather than tarfile's error.
        try:
            return tarfile.data_filter(member, path)
        except tarfile.FilterError:
            what = (f"is a symbolic link to {echo(member.linkname)}, out of the project" if member.issym() or
                    member.islnk() else "is not a plain file or folder inside the project")
            raise SourceError(Location(member.name), f"at {ref}: {what}: a source file is read only from inside "
                                                     "it; put the file itself in its place") from None

    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(dest, filter=refuse_out)
    return dest


def load_side(spec: str, repo: Path, tmp: Path) -> Library:
    """A library from a folder, or from a git ref of ``repo``."""
    path = Path(spec)
    if path.is_dir() and (path / "rules_data").is_dir():
        return load_library(path.resolve())
    return load_library(checkout(spec, repo, tmp / re.sub(r"\W", "_", spec)))


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

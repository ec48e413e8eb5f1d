"""``rulebook init DIR --title "TITLE"``: a new book in DIR, ready to validate and build.

It writes the book's data (book.yaml with one edition and three sections with no games yet, empty errata, revisions
and accepted warnings, a house dictionary), its own pages (General Rules, an About page to fill in), mkdocs.yml, a
short README with the book's two commands, a Makefile that installs the pipeline requirements.txt pins, the check and
publish workflows, .gitignore and the JSON Schemas editors use. The skeleton is the tool's (templates/init/, shipped
in the package), read through the door every file passes; nothing of this repository's own book is in it. The book is
made in a folder beside DIR and renamed into place: a failed init leaves nothing.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import shutil
from pathlib import Path

from ..book import git
from ..book.editor import scalar
from ..book.files import CONTROL, TOOL_TEMPLATES, read_file_text, read_source_text
from ..book.git import GitError, GitMissing
from ..book.schema import write_schemas
from ..book.words import Words, _, base_language, use
from ..checks.editorial import unknown_in
from ..errors import RulebookError, SourceError

SKELETON = TOOL_TEMPLATES / "init"
# Files the package could not ship under their own names (package data leaves out hidden files).
RENAMED = {"dot-github": ".github", "dot-gitignore": ".gitignore"}
ACCENT = "#1f5f8b"  # a blue dark enough for white text on the site's header


# The tool as a book's requirements.txt pins it when `init` cannot tell where this copy came from (installed from a
# folder that names no repository): a line to complete, never a path of this machine.
UNKNOWN_SOURCE = "rulebook @ git+ADDRESS@v{version}"


def tool_version() -> str:
    """The version of the tool running now (pyproject.toml's, as installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rulebook")
    except PackageNotFoundError:
        return "0+unknown"


def _local(url: str) -> bool:
    """Whether a requirement's address is a place on this machine (a file: address, a path): it works only here."""
    bare = url.strip().removeprefix("git+")
    return bare.startswith(("file:", "/", "./", "../", "~")) or bool(re.match(r"[A-Za-z]:[\\/]", bare))


def pipeline_requirement() -> str | None:
    """The requirement line that installs this release of the tool from its repository, by the commit its tag names
    where that is known: from pip's record of where it was installed from (PEP 610's direct_url.json) when that was
    a repository, else from the git checkout it was installed from (its remote ``origin`` and the release's tag).
    None when neither names a repository anyone else can reach."""
    from importlib.metadata import PackageNotFoundError, distribution

    from ..render.site.repository import web_address

    try:
        dist = distribution("rulebook")
    except PackageNotFoundError:
        return None
    tag = f"v{dist.version}"
    # PEP 610's record, read through the door as every file is (importlib finds it, read_file reads it).
    record = next((dist.locate_file(f) for f in dist.files or [] if f.name == "direct_url.json"), None)
    try:
        origin = json.loads(read_file_text(Path(str(record)))) if record is not None else {}
    except (json.JSONDecodeError, OSError, SourceError):
        origin = {}
    url, vcs = str(origin.get("url", "")), origin.get("vcs_info") or {}
    if vcs.get("vcs") == git.VCS and vcs.get("commit_id") and url and not _local(url):
        return f"rulebook @ git+{url}@{vcs['commit_id']}  # {tag}"
    if url.startswith("file://") and "dir_info" in origin:  # a clone of the repository, installed from its folder
        from urllib.parse import unquote, urlparse

        folder = Path(unquote(urlparse(url).path))
        try:
            address = web_address(git.setting(folder, "remote.origin.url") or "")
            commit = git.commit(folder, f"refs/tags/{tag}") if address else None
        except GitError:  # no git, or not a repository it can read: no address to pin
            address = commit = None
        if address:
            return f"rulebook @ git+{address}@{commit}  # {tag}" if commit else f"rulebook @ git+{address}@{tag}"
    return None


def checked_pipeline(line: str) -> str:
    """``--pipeline`` as given, or one line refusing an address of this machine (a book's CI cannot reach it)."""
    line = line.strip()
    target = line.split("@", 1)[1] if "@" in line else line
    if not line or "\n" in line or _local(target.split("#", 1)[0]) or _local(line):
        raise RulebookError(_("--pipeline %(line)s installs the tool from this machine, which the book's CI and "
                              "every other machine cannot reach: give the tool's repository and release, e.g. "
                              "--pipeline 'rulebook @ git+https://github.com/OWNER/REPOSITORY@v%(tool_version)s'",
                              line=repr(line), tool_version=tool_version()))
    return line


def _identity(title: str, say: Words) -> str:
    """book.yaml's lines for the book's identity, each a field the book model has (docs/own-book.md)."""
    from ..book.model import Book

    fields = {"description": say("The games of %(title)s and their rules.", title=title),
              "decided_by": say("the editors"), "accent": ACCENT}
    lines = [f"{name}: {scalar(value)}\n" for name, value in fields.items() if name in Book.model_fields]
    if "contact" in Book.model_fields:
        lines.append("# contact: how readers reach the editors (an address), printed on the About page and the site\n")
    return "".join(lines)


def skeleton(title: str, author: str, pipeline: str, today: datetime.date, language: str = "en") -> dict[str, str]:
    """The new book's files, by their path in it."""
    from babel.dates import format_date

    edition = f"{today.year}.1"
    say = Words(language)  # the words the new book starts with, in its language (book/words.py)
    month = format_date(today, "MMM", locale=base_language(language)) if say.known else today.strftime("%b")
    tokens = {
        "@title@": title, "@title_yaml@": scalar(title), "@author_yaml@": scalar(author),
        "@identity@": _identity(title, say), "@edition@": edition, "@year@": str(today.year),
        "@date@": today.isoformat(),
        "@label_yaml@": scalar(say("Revision %(number)s (%(month)s/%(year)s)", number=1, month=month.rstrip("."),
                                   year=today.year)),
        "@pipeline@": pipeline, "@language@": language,
        "@index_title_yaml@": scalar(say("Index of Games")), "@general_rules_yaml@": scalar(say("General Rules")),
        "@about_yaml@": scalar(say("About the Book")), "@cards_yaml@": scalar(say("Card games")),
        "@dice_yaml@": scalar(say("Dice games")), "@board_yaml@": scalar(say("Board games")),
        "@about_text@": say("Write here who keeps this book, where its rules come from, and how readers send a "
                            "correction."),
        "@before_you_play@": say("Before You Play"),
        # the site's buttons that switch its colours (mkdocs.yml's palette)
        "@dark_mode@": say("Switch to dark mode"), "@light_mode@": say("Switch to light mode"),
        "@general_rules_text@": say("Write here the rules that hold for every game of the book: who deals first, "
                                    "how ties are settled, what players agree before a game starts."),
    }
    files = {}
    for path in sorted(SKELETON.rglob("*")):
        if path.is_dir() and not path.is_symlink():
            continue
        rel = path.relative_to(SKELETON)
        text = read_source_text(path, f"templates/init/{rel.as_posix()}", TOOL_TEMPLATES)
        for token, value in tokens.items():
            text = text.replace(token, value)
        files[Path(*(RENAMED.get(part, part) for part in rel.parts)).as_posix()] = text
    return files


def _repository(staging: Path, target: Path) -> str:
    """Make the new book a git repository whose branch is ``main`` (what its workflows publish from is the
    repository's default branch, whatever its name), unless it is inside one already or git is missing; what was
    done, in a line."""
    try:
        inside = git.top_level(target.parent)
        if inside:
            return _("the book is inside the git repository at %(folder)s: it was not made a repository of its own",
                     folder=inside)
        git.init(staging, "main")
    except GitMissing:
        return _("git is not installed: make the book a repository with `git init --initial-branch=main` when it is")
    except GitError as exc:
        return _("%(problem)s: run `git init` there", problem=exc)
    return _("made %(folder)s a git repository, on branch main: commit the files, and push it to a repository of its "
             "own", folder=target)


def _text(what: str, value: str) -> str:
    value = value.strip()
    if not value:
        raise RulebookError(_("the book's %(what)s is empty: give one, e.g. --%(what)s \"The Pine Street Book of "
                              'Games"', what=what))
    if CONTROL.search(value) or "\n" in value:
        raise RulebookError(_("the book's %(what)s holds a control character or a line break: write it on one line",
                              what=what))
    return value


def _language(language: str) -> str:
    from ..book.model import Book

    if not re.fullmatch(Book.model_fields["language"].metadata[0].pattern, language):
        raise RulebookError(_("--language '%(language)s' is no language tag: write one such as de, fr or en-GB",
                              language=language))
    return language


def run(target: Path, title: str, author: str | None = None, pipeline: str | None = None,
        language: str = "en") -> int:
    """``rulebook init DIR``: write a new book into DIR (new or empty), and say what comes next."""
    title, author = _text("title", title), _text("author", author if author is not None else "The editors")
    language = _language(language)
    use(Words(language))  # what it says, in the new book's language
    if target.exists() and (not target.is_dir() or target.is_symlink() or any(target.iterdir())):
        raise RulebookError(_("%(target)s is not an empty folder: rulebook init starts a book in a new or empty "
                              "folder; name another", target=target))
    pin = checked_pipeline(pipeline) if pipeline is not None else pipeline_requirement()
    # Unknown (this copy was installed from a folder that names no repository): the line is left for the editors to
    # complete, commented out, and the book's Makefile says so in one line until they do; never a path of this machine.
    line = pin or "# " + UNKNOWN_SOURCE.format(version=tool_version()) + (
        "   <- write the rulebook tool's repository address for ADDRESS and remove the '# '")
    files = skeleton(title, author, line, datetime.date.today(), language)
    # The book's own name and its editors' are right as written: the house dictionary knows them from the start.
    names = unknown_in(f"{title} {author}", language)
    if names:
        files["rules_data/dictionary.txt"] += "# the book's title and author\n" + "".join(f"{w}\n" for w in names)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.parent / f".{target.name}.init-{os.getpid()}"
    try:
        for rel, text in files.items():
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            (staging / rel).write_text(text, encoding="utf-8")
        write_schemas(staging)
        repository = _repository(staging, target)
        if target.exists():
            target.rmdir()  # empty, as checked above
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    for rel in sorted(files):
        print(_("wrote %(file)s", file=target / rel))
    print(_("wrote %(folder)s/ (the JSON Schemas editors check the YAML with)", folder=target / "schema"))
    print(repository)
    if pin is None:
        print(_("warning: %(file)s: this rulebook was installed from a folder that names no repository, so the book "
                "cannot pin it yet: write the tool's repository address there (`make` says so until then), or run "
                "init again with --pipeline 'rulebook @ git+ADDRESS@v%(version)s'",
                file=target / "requirements.txt", version=tool_version()))
    print(_("next: cd %(folder)s && rulebook new-game \"NAME\" --section cards, then `make` (validate and build); "
            "README.md there says more", folder=target))
    return 0

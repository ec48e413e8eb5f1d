"""The settings a user may set: every environment variable the tool reads, read here and nowhere else.

One typed object (``Settings``), made by ``read`` from the environment as each setting's schema (``SETTINGS``: its
variable, what it accepts, what it does, its default, who sets it) says, as MkDocs reads its configuration. A value a
setting does not accept is one line naming the variable and what it takes; an empty one is no setting.
docs/maintaining.md lists them in one table (tests/test_settings.py holds it to ``SETTINGS``).

The processes the tool starts are told their work by a request (``render/process.py``), not by the environment: a
child reads the user's settings as its parent does, never something a parent put there for it, but for
``RULEBOOK_REQUEST``, the one way into the site builds mike runs.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import RulebookError, echo


def _positive(kind: type) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        value = kind(text)
        if not 0 < value < float("inf"):  # nor nan: no limit to give
            raise ValueError(text)
        return value
    return parse


LAST_SECOND = 253402300799  # 9999-12-31 23:59:59 UTC: the last second a date of MkDocs (Python's datetime) can hold


def _seconds_since_1970(text: str) -> int:
    # ASCII digits, as reproducible-builds.org says, and read as text first: Python refuses to read an int of over
    # 4,300 digits, and MkDocs ends in a traceback at a page for a time past the year 9999
    if not (text.isascii() and text.isdigit()) or len(text) > 12 or int(text) > LAST_SECOND:
        raise ValueError(text)
    return int(text)


def _lenient_count(text: str) -> int | None:
    """A terminal's size as a shell sets it: a positive whole number, anything else as if unset."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 and int(text) > 0 else None


@dataclass(frozen=True)
class Setting:
    """One environment variable: the ``Settings`` field it fills, how its text is read, and its row of the table."""

    name: str
    field: str
    parse: Callable[[str], Any]
    accepts: str  # what a value must be, as the error for one that is not says
    does: str
    default: str
    who: str


REQUEST = "RULEBOOK_REQUEST"  # the one setting the tool sets, for the site builds mike runs (site/engine.deploy)

SETTINGS = (
    Setting("RULEBOOK_PDF_TIMEOUT", "pdf_timeout", _positive(float), "a number of seconds above 0, such as 900",
            "the time a PDF render may take before it is stopped (the build's, publish's, the pictures')",
            "900 s and 1 s a game", "you"),
    Setting("RULEBOOK_PDF_MEMORY_MB", "pdf_memory_mb", _positive(int), "a whole number of megabytes above 0, "
            "such as 4096", "the address space each PDF render process may use before it is stopped",
            "4096 MB and 8 MB a game", "you"),
    Setting("RULEBOOK_PDF_JOBS", "pdf_jobs", _positive(int), "a whole number of processes above 0, such as 1",
            "how many processes lay out the book and the score sheets side by side", "one a CPU (at most 2)",
            "you; bench/ and some tests set 1"),
    Setting("RULEBOOK_PDF_CACHE", "pdf_cache", Path, "a folder", "the folder whole PDF renders are kept in and "
            "copied from, in place of each build's own `.cache`", "the build's own", "the test suite (conftest.py)"),
    Setting("RULEBOOK_REPO", "repo", str, "a repository's address", "the repository a page's edit button and "
            "\"Found a mistake?\" line open, when the plugin's `repo:` names none", "CI's, else the git remote's",
            "you"),
    Setting(REQUEST, "request", Path, "a request file", "the request (`render/process.py`) of a site "
            "build mike runs: the edition, its generated pages, its PDFs", "none: the plugin's options",
            "`rulebook publish`, in mike's environment"),
    Setting("GITHUB_REPOSITORY", "ci_repository", str, "OWNER/NAME", "the repository CI runs in, when no setting "
            "names one", "none", "GitHub Actions"),
    Setting("GITHUB_SERVER_URL", "ci_server", str, "an address", "the server of `GITHUB_REPOSITORY`",
            "https://github.com", "GitHub Actions"),
    Setting("XDG_CACHE_HOME", "cache_home", Path, "a folder", "where the user's cache (`rulebook/`) is kept",
            "`~/.cache`", "you, or your desktop"),
    Setting("HOME", "home", Path, "a folder", "the home folder `~/.cache` is in", "the user's", "the system"),
    Setting("SOURCE_DATE_EPOCH", "source_date_epoch", _seconds_since_1970, "a whole number of seconds since "
            "1970-01-01 UTC up to the year 9999, such as 1765000000", "the time MkDocs writes into the site (`sitemap.xml.gz`, each "
            "page's date): set, a site built twice is the same byte for byte (the PDFs are, whatever it says)",
            "the time of the build", "you, or CI (reproducible-builds.org)"),
    Setting("COLUMNS", "columns", _lenient_count, "a whole number", "a terminal's width, for the progress bars",
            "the terminal's own, else 80", "your shell"),
    Setting("LINES", "lines", _lenient_count, "a whole number", "a terminal's height, for the progress bars",
            "the terminal's own, else 24", "your shell"),
)


@dataclass(frozen=True)
class Settings:
    """What the user set (None or '' where a setting is not set): ``SETTINGS`` says which variable fills each."""

    pdf_timeout: float | None = None
    pdf_memory_mb: int | None = None
    pdf_jobs: int | None = None
    pdf_cache: Path | None = None
    repo: str = ""
    request: Path | None = None
    ci_repository: str = ""
    ci_server: str = ""
    cache_home: Path | None = None
    home: Path | None = None
    source_date_epoch: int | None = None
    columns: int | None = None
    lines: int | None = None


def read(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings ``environ`` (this process's environment unless given) sets; a value one does not accept raises
    RulebookError, naming the variable and what it takes."""
    environ = os.environ if environ is None else environ
    return _read(tuple(environ.get(s.name, "") for s in SETTINGS))


@functools.lru_cache(maxsize=16)
def _read(values: tuple[str, ...]) -> Settings:
    # Read once per set of values: the loader asks for the cache folder once a file.
    given: dict[str, Any] = {}
    for setting, text in zip(SETTINGS, values, strict=True):
        if not text.strip():
            continue
        try:
            given[setting.field] = setting.parse(text.strip())
        except ValueError:
            raise RulebookError(f"{setting.name}={echo(text)} is not {setting.accepts}: set it to one, or unset it "
                                f"for the default ({setting.default})") from None
    return Settings(**given)

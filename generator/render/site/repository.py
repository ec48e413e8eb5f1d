"""Where a reader sends a correction: the repository the book is kept in, as configured, else the book's own address.

No address is built in: no source names a repository. The repository is configuration, in this order: a setting
(the rulebook plugin's ``repo:`` in mkdocs.yml, or the user's: ``settings.py``), the repository CI runs in
(``GITHUB_SERVER_URL``/``GITHUB_REPOSITORY``), the git remote ``origin`` of the project. With none, the site's
"Found a mistake?" line offers the address the book itself gives for corrections (About the Book's e-mail).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from ... import settings
from ...book import git
from ...book.git import GitError
from ...book.library import Library

# A remote as git writes it: 'https://[user[:token]@]host[:port]/path[.git]', 'ssh://[user@]host[:port]/path[.git]'
# or scp-like 'user@host:path[.git]'. A local path or a file:// remote is no address a reader can open.
_URL = re.compile(r"(?P<scheme>https?|ssh|git)://(?:[^@/\s]*@)?(?P<host>[\w.-]+)(?::(?P<port>\d+))?/(?P<path>[^\s?#]+?)"
                  r"(?:\.git)?/?")
_SCP = re.compile(r"(?:[\w.-]+@)?(?P<host>[\w-]+(?:\.[\w-]+)+):(?!//)(?P<path>[\w./-]+?)(?:\.git)?/?")
_MAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def web_address(remote: str) -> str | None:
    """A git remote as the web address of its repository: 'git@github.com:o/r.git' -> 'https://github.com/o/r'.

    A user name or token in the remote is left out (it must never reach a page); a local path gives None."""
    remote = remote.strip()
    m = _URL.fullmatch(remote)
    if m:
        port = f":{m['port']}" if m["port"] and m["scheme"].startswith("http") else ""
        return f"{'http' if m['scheme'] == 'http' else 'https'}://{m['host']}{port}/{m['path']}"
    m = _SCP.fullmatch(remote)
    return f"https://{m['host']}/{m['path']}" if m else None


def _git_remote(root: Path) -> str | None:
    try:
        return git.setting(root, "remote.origin.url", timeout=10)
    except GitError:  # no git: no remote
        return None


def repository(root: Path, setting: str = "", env: Mapping[str, str] | None = None) -> str | None:
    """The web address of the repository the book's sources are kept in, from configuration (``setting``, then the
    user's settings: ``env``'s, this process's environment's unless given); None when none says."""
    given = settings.read(env)
    for configured in (setting, given.repo):
        if configured.strip():
            return web_address(configured) or None
    server, name = given.ci_server.strip(), given.ci_repository.strip()
    if name:
        return web_address(f"{server or 'https://github.com'}/{name}")
    remote = _git_remote(root)
    return web_address(remote) if remote else None


def correction_address(lib: Library) -> str | None:
    """The e-mail address for corrections: book.yaml's ``contact`` when it is one, else the first the book's own pages
    give (About the Book's), None if neither gives one."""
    if _MAIL.fullmatch(lib.book.contact.strip()):
        return lib.book.contact.strip()
    for page in lib.book.pages:
        m = _MAIL.search(lib.pages[page.id].text) if page.id in lib.pages else None
        if m:
            return m.group(0)
    return None

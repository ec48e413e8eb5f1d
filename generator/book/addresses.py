"""Where each page of the book's site is: its address worked out once, from its Markdown file, as MkDocs's ``File``
works out its own.

A page of the site is made from a Markdown file (``doc``: ``games/hearts.md``), as the site's navigation and a link in
prose name it; the build writes it into a folder of its own (``built``: ``games/hearts/index.html``), which a reader
opens by its address (``url``: ``games/hearts/``). A game's page is under ``games/``, its score keeper under
``keep/``, a prose page at the top beside the pages the site makes of no source (the home page, the finder, the
index, the errata, what changed, the page shown offline). Validate's link check (``book/links.py``), the site's
pages (``render/site/docs.py``), the errata's links (``render/views/describe.py``) and the service worker
(``render/site/offline.py``) all ask here.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

GAMES = "games/"  # the folder of the game pages
KEEP = "keep/"  # the folder of the score keepers


@dataclass(frozen=True)
class Address:
    """A page of the site, named by its Markdown file (``doc``); where it is built and opened is worked out."""

    doc: str

    @property
    def url(self) -> str:
        """The address a reader opens it by, relative to the edition's root: 'games/hearts/', '' for the home page."""
        stem = self.doc.removesuffix(".md")
        if stem == "index" or stem.endswith("/index"):
            return stem.removesuffix("index")
        return stem + "/"

    @property
    def built(self) -> str:
        """The file the build writes, by its path in the site: 'games/hearts/index.html'."""
        return self.url + "index.html"

    def url_from(self, here: Address) -> str:
        """Its address as a link on the page ``here`` gives it (raw HTML, which MkDocs does not rewrite, names the
        built page): '../games/hearts/' from the errata."""
        return "../" * here.url.count("/") + self.url


def game(game_id: str) -> Address:
    """A game's page."""
    return Address(f"{GAMES}{game_id}.md")


def keeper(game_id: str) -> Address:
    """A game's score keeper (not in the navigation: its game's page links to it)."""
    return Address(f"{KEEP}{game_id}.md")


def page(page_id: str) -> Address:
    """A prose page of the book's own (About, General Rules)."""
    return Address(f"{page_id}.md")


# The pages the site makes of no source.
HOME = Address("index.md")
FINDER = Address("finder.md")
INDEX = Address("book-index.md")
ERRATA = Address("errata.md")
CHANGES = Address("changes.md")
OFFLINE = Address("_offline.md")  # shown offline for a page never kept; no page id starts with '_'


def opened_at(built: str) -> str:
    """The address a reader opens a built file by, relative to the edition's root: 'games/hearts/' for
    'games/hearts/index.html', './' for the home page, any other file by its own path."""
    if posixpath.basename(built) != "index.html":
        return built
    folder = posixpath.dirname(built)
    return folder + "/" if folder else "./"

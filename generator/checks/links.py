"""Links in prose: every one leads where the site and the print book will take it (``book/links.py``)."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.library import Library
from ..book.links import book_pages, doc_of_source, links, resolve
from ..book.words import _
from ..errors import Location, echo
from . import Found, check


def _proses(lib: Library) -> Iterator[tuple[str, str, str, str | None]]:
    """(file, text, the site page it is on, game) of every prose file of the edition."""
    for page in lib.pages.values():
        yield page.path, page.text, doc_of_source(page.path, None), None
    for gs in lib.ordered_games():
        for prose in [gs.prose, *gs.variant_prose.values()]:
            if prose is not None:
                yield prose.path, prose.text, doc_of_source(prose.path, gs.id), gs.id


@check("link.broken")
def broken_link(lib: Library) -> Iterator[Found]:
    """A link in prose leads to no page, part or address the site and the PDF have."""
    pages = None
    for path, text, here, game in _proses(lib):
        if "](" not in text and "<" not in text and "]:" not in text and "][" not in text and "]" not in text:
            continue  # no link can be written without one of these (most files have none)
        for link in links(text):
            if link.image:
                continue  # prose.image says what happens to an image
            if pages is None:
                pages = book_pages(lib)
            leads = resolve(link.target, here, pages)
            if leads.problem is None:
                continue
            fix = (_("write '[%(text)s](%(fix)s)' instead", text=link.text, fix=leads.fix) if leads.fix else leads.advice or
                   _("link to a page of the book by its file (a game from a game: 'hearts.md') or to a full "
                     "'https://' address"))
            yield (Location(path, link.line, link.col),
                   _("the link %(target)s leads to nothing: %(problem)s; %(fix)s", target=echo(link.target, 80),
                     problem=leads.problem, fix=fix), game)

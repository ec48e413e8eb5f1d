"""The book's colour: white text must read on it (WCAG 2 AA), as the site's header and the cover print it.

A warning, not an error: white on the colour is what the pipeline's stylesheets print, and a book may override them
(docs/own-book.md) to print dark text on a light colour; then it accepts the warning in accepted.yaml with that
reason, which an error could not be. Until it does, validate says it and check-pr marks it as new.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..book.colour import AA_NORMAL, ON_WHITE, WHITE, contrast, darkened
from ..book.library import Library
from ..book.words import _
from . import Found, check


def _too_light(what: str, colour: str, uses: str) -> str:
    ratio = contrast(colour, WHITE)
    return (_("%(what)s %(colour)s is too light for white text (%(uses)s): %(ratio)s:1 against white, where WCAG AA "
              "asks %(aa_normal)s:1 for normal text; write %(darkened)s (the same colour darkened until it reads)",
              what=what, colour=colour, uses=uses, ratio=format(ratio, '.2f'), aa_normal=AA_NORMAL,
              darkened=darkened(colour)))


@check("book.accent_contrast", "warning")
def accent_contrast(lib: Library) -> Iterator[Found]:
    """The book's colour, or a shade of it that white text is printed on or that is printed on white, is too light
    for white text (WCAG 2 AA contrast under 4.5:1)."""
    book = lib.book
    if contrast(book.accent, WHITE) < AA_NORMAL:
        yield (lib.book_doc.where(("accent",)), _too_light("accent", book.accent.lower(), _("the site's header, the "
               "cover and the tables' captions print white on it")), None)
    # A shade left out is worked out from the accent, as dark as it or darker (colour.SHADES): it reads when the
    # accent does, and the accent's fix is its own. One book.yaml gives is judged at its own line.
    for name in ON_WHITE:
        given = getattr(book.accent_shades, name)
        if given is not None and contrast(given, WHITE) < AA_NORMAL:
            uses = _("the site's source box prints white on it") if name == "dark" else _("the site's links are printed in it, on white")
            yield (lib.book_doc.where(("accent_shades", name)), _too_light(f"accent_shades.{name}", given.lower(), uses),
                   None)

"""What Markdown drops, validate reports: every word of a prose file arrives on its page (``book/rendered.py``)."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.library import Library
from ..book.prose import expand, lookup
from ..book.rendered import dropped
from ..book.words import _, n_
from ..errors import Location, echo
from . import Found, check, listing


def _cells(row: str) -> int:
    """How many cells a Markdown table row has ('| a | b |' and 'a | b' both two; '\\|' is no divider)."""
    inner = row.strip().replace("\\|", "")
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return inner.count("|") + 1


def _why(lines: list[str], n: int) -> str:
    """Why Markdown drops the words of line ``n`` (1-based), and what to write instead."""
    line = lines[n - 1]
    stripped = line.strip()
    if stripped.startswith("[") and "]:" in stripped:
        return _("the line reads as a link definition ([label]: address), which prints nowhere ('[//]: # \"...\"' "
                 "comments too): write it as a sentence, or put a note for reviewers in the pull request instead")
    if "|" in line:
        start = n - 1
        while start > 0 and "|" in lines[start - 1] and lines[start - 1].strip():
            start -= 1
        header = _cells(lines[start])
        if _cells(line) > header:
            return (_("this table row has %(cells)s cells and its header %(header)s: the cells past the header's are "
                      "dropped: add a column to the header, or join the cells", cells=_cells(line), header=header))
    if "](" in line and ('"' in line or "'" in line):
        return _("a link's title prints in neither output's text: write it in the link's words instead")
    return _("Markdown prints nothing of them here: write them as plain text")


@check("prose.dropped")
def dropped_words(lib: Library) -> Iterator[Found]:
    """Words of a prose file print nowhere: Markdown drops them (a table's extra cell, a link definition)."""
    if not lib.is_current:  # an earlier edition is the text as published (errata undone), not a contributor's to fix
        return
    scope = lib.scope()
    proses = [(p, None, (scope,)) for p in lib.pages.values()]
    for gs in lib.ordered_games():
        data = gs.doc.data
        proses += [(gs.prose, gs.id, (data, scope))] if gs.prose is not None else []
        own = {v.id: lookup(data, f"variants.{i}") for i, v in enumerate(gs.game.variants)}
        for vid, prose in gs.variant_prose.items():  # a variant's prose reads its own data first, as printed
            proses.append((prose, gs.id, (own[vid], data, scope) if vid in own else (data, scope)))
    for prose, game, scopes in proses:
        # As the outputs convert it: its {references} given their values first (a value's words are what is lost).
        text = expand(prose.text, *scopes)
        if text.count("\n") != prose.text.count("\n"):  # a value of more than one line: the lines as written
            text = prose.text
        found = dropped(text)
        if not found:
            continue
        lines = text.splitlines()
        for n, missing in found:
            yield (Location(prose.path, n), n_("%(words)s prints on neither the site nor the PDF: %(why)s",
                                               "%(words)s print on neither the site nor the PDF: %(why)s", len(missing),
                                               words=listing([echo(w, 30) for w in missing]), why=_why(lines, n)),
                   game)

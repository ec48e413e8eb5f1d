"""An erratum's evidence, proven: the correction is the mistake it names and nothing else.

A correction is not a decision (revisions.yaml), so its evidence must hold whatever else changes in the same
edition:

- ``spelling``: the corrected text is the published text with only its misspelt words (unknown to the
  dictionary) replaced, each by a near spelling of itself; every other change is named and refused.
- ``usage``: a real word slipped for another ("its" for "it's", "loose" for "lose"): only the slipped words
  change, each to a form of itself (an apostrophe, an ending, or a pair of ``rules_data/confusables.txt``).
- ``arithmetic``: proven against the edition as it was published, with no other erratum applied: the check it
  names finds the published values wrong, and finds nothing new wrong once this erratum alone is applied.
- ``contradiction``: the quoted words state what the correction makes the book say, and are printed by a page
  of the same edition that the erratum does not itself change, and by that page in the edition it corrects. The
  place quoted may be a game's page, its line of the printed index (``place: index``) or its score sheet
  (``place: sheet``): always the game corrected, and the same quantity (an index line states players only).
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Iterator
from difflib import SequenceMatcher
from pathlib import Path

from pydantic import ValidationError

from ..book import index as book_index
from ..book.files import read_source_text
from ..book.library import CONFUSABLES, DATA_DIR, GameSource, Library
from ..book.loader import TextDoc, YamlDoc, leaves
from ..book.model import Erratum, Game
from ..book.numwords import WORD_PATTERN, from_words
from ..book.prose import MISSING, expand, lookup
from ..book.words import N_, _
from . import REGISTRY, Found, check
from .editorial import SKIP_KEYS, SUIT_WORD_CARD, WORD, fold, house_words, spelling_language, unknown_words

LIST_MARK = re.compile(r"^\s*(?:[-*+]|[0-9]+\.|#+)\s+")  # a list item's or heading's mark opens no words
PUNCTUATION = "\"'“”‘’.,;:!?()[]*_"
POSSESSIVE = re.compile(r"['’]s$")
CARD_PLURAL = re.compile(r"(?:[0-9]+|[AKQJ])['’]?s")  # 2's, 10s, K's: the book's two ways to write a card's plural
NUMBER = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})*(?:\.[0-9]+)?|[0-9]+")  # 95, 1,000, 2.5
# Endings a word takes as another form of itself ("play", "plays", "played", "playing"); a final "e" is
# dropped before an ending that opens with a vowel ("score", "scoring"), never traded alone ("hat", "hate").
ENDINGS = {"", "s", "es", "d", "ed", "ing", "er", "ers", "est", "ly"}
E_DROPPED = {"ing", "ed", "er", "ers", "est"}
CONNECTIVES = {"to", "or", "and", "-", "–", "—"}  # '2 to 8', '2 or 4': a count states its numbers


# --- the words of a text, and which of them the dictionary knows -----------------------------------------------

def _bare(token: str) -> str:
    return token.strip(PUNCTUATION)


def _known(tokens: set[str], lib: Library) -> dict[str, bool]:
    """Whether the dictionary knows each written word: the English list, the house words, the book's notation
    (numbers, card plurals, 'heartJ'); a placeholder ({examples.x.stated}) is the data's, not a word to spell."""
    house = house_words(lib.lists_root)
    looked: dict[str, str | None] = {}
    for raw in tokens:
        token = _bare(raw)
        if not token or "{" in raw or CARD_PLURAL.fullmatch(token) or NUMBER.fullmatch(token) \
                or SUIT_WORD_CARD.fullmatch(token):
            looked[raw] = None
            continue
        word = fold(POSSESSIVE.sub("", token))
        looked[raw] = word if WORD.fullmatch(word) else "\0"  # a comma or digit inside a word: no word at all
    unknown = unknown_words({w for w in looked.values() if w and w != "\0" and w not in house and len(w) > 1},
                            spelling_language(lib.book.language) or "en")
    return {t: w is None or (w != "\0" and w not in unknown) for t, w in looked.items()}


def word_changes(published: object, corrected: object) -> list[tuple[str, str]]:
    """The words a correction changes, as (published, corrected) pairs, '' for a word added or removed; a word
    split or joined is one pair ('heartJ' -> 'heart J', 'every day' -> 'everyday')."""
    a, b = str(published).split(), str(corrected).split()
    pairs: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        old, new = a[i1:i2], b[j1:j2]
        if op == "equal":
            continue
        if op == "replace" and len(old) == len(new):
            pairs += [(x, y) for x, y in zip(old, new, strict=True) if x != y]
        elif op == "replace" and min(len(old), len(new)) == 1 and near(" ".join(old), " ".join(new)):
            pairs.append((" ".join(old), " ".join(new)))
        else:
            pairs += _aligned(old, new)
    return pairs


ALIGNED_AT_MOST = 2500  # pairs of words weighed to align two runs; a longer run rewritten is one change, refused


def _aligned(old: list[str], new: list[str]) -> list[tuple[str, str]]:
    """Two runs of words paired where a word is a near spelling of another, the rest added or removed."""
    n, m = len(old), len(new)
    if n * m > ALIGNED_AT_MOST:  # a contributor's file may hold any text: never a slow validate
        return [(" ".join(old), " ".join(new))]
    cost = [[i + j if not i or not j else 0 for j in range(m + 1)] for i in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            swap = cost[i - 1][j - 1] + (1 if near(old[i - 1], new[j - 1]) else 2)
            cost[i][j] = min(swap, cost[i - 1][j] + 1, cost[i][j - 1] + 1)
    pairs: list[tuple[str, str]] = []
    i, j = n, m
    while i or j:
        if i and j and cost[i][j] == cost[i - 1][j - 1] + (1 if near(old[i - 1], new[j - 1]) else 2):
            pairs.append((old[i - 1], new[j - 1]))
            i, j = i - 1, j - 1
        elif i and cost[i][j] == cost[i - 1][j] + 1:
            pairs.append((old[i - 1], ""))
            i -= 1
        else:
            pairs.append(("", new[j - 1]))
            j -= 1
    return pairs[::-1]


def distance(a: str, b: str) -> int:
    """Edits (a letter added, removed, changed, or two swapped) that turn ``a`` into ``b``."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            cost = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, prev2[j - 2] + 1)
            row.append(cost)
        prev2, prev = prev, row
    return prev[-1]


LONGEST_WORD = 40  # characters: a longer 'word' is not one to spell (and its distance would be slow to weigh)


def near(word: str, other: str) -> bool:
    """Whether ``other`` is a near spelling of ``word``: a letter or two (a few in a long word) apart."""
    allowed = 1 if len(word) < 3 else max(2, len(word) // 4)
    if abs(len(word) - len(other)) > allowed or max(len(word), len(other)) > LONGEST_WORD:
        return False
    return distance(word, other) <= allowed


def _marks(token: str) -> tuple[str, str]:
    """The punctuation around a word (an apostrophe aside: it is part of the word's form, players')."""
    bare = token.strip(PUNCTUATION)
    at = token.find(bare) if bare else len(token)
    return tuple(part.replace("'", "").replace("’", "") for part in (token[:at], token[at + len(bare):]))


def _pair(old: str, new: str) -> str:
    return f"'{old}' -> '{new}'" if old and new else (_("adds '%(new)s'", new=new) if new else _("removes '%(old)s'", old=old))


def _refusal(kind: str, wrong: list[str]) -> str:
    """One line naming every change a spelling or usage correction may not make."""
    shown = "; ".join(wrong[:4]) + (_("; and %(value)s more", value=len(wrong) - 4) if len(wrong) > 4 else "")
    rule = (_("misspelt words, each to a near spelling of itself") if kind == "spelling"
            else _("slipped words, each to a form of itself"))
    return (_("a %(kind)s correction changes only %(rule)s, but it %(shown)s: correct only those words, and record "
              "the rest as what it is (an erratum of another evidence kind, or a decision in revisions.yaml)",
              kind=kind, rule=rule, shown=shown))


def _spelling(e: Erratum, known: dict[str, bool]) -> str | None:
    """Why a spelling erratum's evidence is false, if it is (``known``: the dictionary's verdict on each word)."""
    pairs = word_changes(e.published, e.corrected)
    if not pairs:
        return _("the corrected text is the published text: a spelling correction changes a misspelt word")
    wrong = []
    for old, new in pairs:
        if not old or not new or " " in old:
            wrong.append(_pair(old, new))
        elif known[old]:
            wrong.append(_("changes %(pair)s, and '%(bare)s' is not misspelt", pair=_pair(old, new), bare=_bare(old)))
        elif _marks(old) != _marks(new):
            wrong.append(_("changes %(pair)s, the punctuation around the word too", pair=_pair(old, new)))
        elif not near(_bare(old), _bare(new)):
            wrong.append(_("changes %(pair)s, which is not a near spelling of '%(bare)s'", pair=_pair(old, new),
                           bare=_bare(old)))
    if wrong:
        return _refusal("spelling", [_with_verb(w) for w in wrong])
    still = sorted({_bare(t) for _, new in pairs for t in new.split() if not known[t]})
    if still:
        return (_("the corrected words %(value)s are not in the dictionary either: correct the spelling, or add the "
                  "word to %(data_dir)s/dictionary.txt if it is right", value=', '.join(repr(t) for t in still),
                  data_dir=DATA_DIR))
    return None


def _with_verb(pair: str) -> str:
    return pair if pair.startswith(("adds", "removes", "changes")) else _("changes %(pair)s", pair=pair)


# --- a real-word slip ---------------------------------------------------------------------------------------

def confusables(root: Path) -> list[set[str]]:
    """The words the family's book mixes up though each is a word (there / their), one group a line."""
    path = root / CONFUSABLES
    if not path.exists() and not path.is_symlink():
        return []
    lines = read_source_text(path, CONFUSABLES).splitlines()  # the door: a link out, a pipe, 2 GB are one line
    return [{w.lower().replace("’", "'") for w in line.split()} for line in lines
            if line.strip() and not line.lstrip().startswith("#")]


def form_of(old: str, new: str, groups: list[set[str]]) -> bool:
    """Whether ``new`` is a form of ``old``: an apostrophe or a space added, moved or removed (its, it's), an
    ending (play, played; score, scoring), or a listed pair of words often confused (loose, lose)."""
    a, b = (_bare(w).lower().replace("’", "'") for w in (old, new))
    if a.replace("'", "").replace(" ", "") == b.replace("'", "").replace(" ", ""):
        return True
    if any({a, b} <= group for group in groups):
        return True
    x, y = a.replace("'", ""), b.replace("'", "")
    stem = 0
    while stem < min(len(x), len(y)) and x[stem] == y[stem]:
        stem += 1
    tails = {x[stem:], y[stem:]}
    return stem >= 3 and (tails <= ENDINGS or (len(tails) == 2 and "e" in tails and bool(tails & E_DROPPED)))


def _usage(e: Erratum, known: dict[str, bool], groups: list[set[str]]) -> str | None:
    """Why a real-word slip's evidence is false: a word it changes is misspelt (that is spelling), or becomes a
    word that is not a form of itself, or it changes anything else."""
    pairs = word_changes(e.published, e.corrected)
    if not pairs:
        return _("the corrected text is the published text: a usage correction changes a slipped word")
    wrong = []
    for old, new in pairs:
        if not old or not new:
            wrong.append(_pair(old, new))
        elif not all(known[t] for t in old.split()):
            wrong.append(_("changes %(pair)s, and '%(bare)s' is misspelt (evidence kind: spelling)",
                           pair=_pair(old, new), bare=_bare(old)))
        elif " " not in old + new and _marks(old) != _marks(new):
            wrong.append(_("changes %(pair)s, the punctuation around the word too", pair=_pair(old, new)))
        elif not form_of(old, new, groups):
            wrong.append(_("changes %(pair)s, which is not a form of '%(bare)s' (an apostrophe, an ending, or a pair "
                           "in %(confusables)s)", pair=_pair(old, new), bare=_bare(old), confusables=CONFUSABLES))
    if wrong:
        return _refusal("usage", [_with_verb(w) for w in wrong])
    still = sorted({_bare(t) for _, new in pairs for t in new.split() if not known[t]})
    if still:
        return (_("the corrected words %(value)s are not in the dictionary: a slipped word is corrected to a word",
                  value=', '.join(repr(t) for t in still)))
    return None


# --- contradiction ------------------------------------------------------------------------------------------

def _printed(lib: Library, page: str) -> str:
    """Every word the edition prints on a game's or page's page, as one line: prose with its references filled
    in, the data's text and its player count, its list and emphasis marks dropped."""
    gs = lib.games.get(page)
    if gs is not None:
        scopes = [gs.doc.data, lib.scope()]
        texts = [p.text for p in [gs.prose, *gs.variant_prose.values()] if p] + [
            v for _, v in leaves(gs.doc.data, SKIP_KEYS) if isinstance(v, str)] + [_("%(players)s players",
                                                                                     players=gs.game.players)]
    elif page in lib.pages:
        scopes, texts = [lib.scope()], [lib.pages[page].text]
    else:
        return ""
    lines = (LIST_MARK.sub("", expand(line, *scopes)) for text in texts for line in str(text).splitlines())
    return " ".join(" ".join(lines).replace("*", "").replace("`", "").split())


def _index_line(lib: Library, game: str) -> str:
    """A game's line of the edition's printed index, as it reads: its title and its number of players ('' if the
    edition prints none for it; its page number is the layout's, no rule)."""
    return next((f"{row.title} {row.players}" for rows in book_index.index_rows(lib).values() for row in rows
                 if row.game == game), "")


def _sheet(lib: Library, game: str) -> str:
    """Every label of a game's score sheets (its own and its variants' in the edition), as one line ('' if none)."""
    gs = lib.games.get(game)
    if gs is None:
        return ""
    sheets = [gs.game.score_sheet, *(v.score_sheet for v in gs.game.variants if lib.includes(v))]
    texts: list[str] = []
    for sheet in (s for s in sheets if s is not None):
        texts += [sheet.title, *sheet.fields]
        for block in sheet.blocks:
            own = block.model_dump(exclude_none=True)  # a total may name its block's fields ('{possible} possible')
            texts += [block.title or "", block.note or "", *block.columns, *block.rows, *(g.label for g in block.groups),
                      expand(block.total, own, gs.doc.data, lib.scope()) if block.total else ""]
    return " ".join(" ".join(expand(t, gs.doc.data, lib.scope()) for t in texts if t).replace("*", "").split())


# Where a contradiction may quote the book: a game's or page's own page, a game's index line, a game's sheet.
PLACES = {"page": N_("page"), "index": N_("line of the printed index"), "sheet": N_("score sheet")}


def _cited_text(lib: Library, page: str, place: str) -> str:
    """What the edition prints at the place a contradiction quotes (``Evidence.place``) of ``page``."""
    return _index_line(lib, page) if place == "index" else _sheet(lib, page) if place == "sheet" else _printed(lib, page)


def _changes_place(e: Erratum, lib: Library, page: str, place: str) -> bool:
    """Whether the erratum itself changes the place it quotes: the game's index line (book.yaml's
    printed_index line of the game), or its score sheet (a score_sheet of the game's data)."""
    if place == "index":
        return e.file.endswith("book.yaml") and _corrected_game(e, lib) == page
    stem = e.file.rsplit("/", 1)[-1].split(".")[0]
    return stem == page and bool(re.match(r"(?:variants\.\d+\.)?score_sheet(?:\.|$)", e.path or ""))


def _words(text: str) -> list[str]:
    """A text's words for comparing what two texts state: case, outer punctuation and number words folded."""
    out = []
    text = WORD_PATTERN.sub(lambda m: str(from_words(m.group()) if from_words(m.group()) is not None else m.group()),
                            text)
    for token in text.replace("’", "'").lower().split():
        bare = _bare(token)
        number = from_words(bare) if bare else None
        out.append(str(number) if number is not None else bare.replace(",", "") if NUMBER.fullmatch(bare) else bare)
    return [w for w in out if w]


def _has(seq: list[str], run: list[str]) -> bool:
    return any(seq[i:i + len(run)] == run for i in range(len(seq) - len(run) + 1))


def _pages_changed(lib: Library, e: Erratum) -> set[str]:
    """The game or page whose page prints the file an erratum changes (none for the book's own data)."""
    stem = e.file.rsplit("/", 1)[-1].split(".")[0]
    return {stem} if stem in lib.games or stem in lib.pages else set()


def _states(e: Erratum, lib: Library, quote: str) -> str | None:
    """What the quote must state and does not: the corrected value, or the words the correction makes the book
    print (a count: its numbers)."""
    if isinstance(e.corrected, bool) or e.corrected is None:
        return None
    gs = lib.games.get(e.file.rsplit("/", 1)[-1].split(".")[0])
    scopes = [gs.doc.data, lib.scope()] if gs else [lib.scope()]
    before, after = _words(expand(str(e.published), *scopes)), _words(expand(str(e.corrected), *scopes))
    said = _words(quote)
    if all(NUMBER.fullmatch(w) or w in CONNECTIVES for w in after):
        missing = [w for w in after if NUMBER.fullmatch(w) and w not in said]
        return _("'%(after)s' (its numbers %(missing)s)", after=' '.join(after), missing=', '.join(missing)) if missing else None
    runs = [after[j1:j2] for op, _i1, _i2, j1, j2 in SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
            if op != "equal" and j2 > j1] or [after]
    missing_runs = [run for run in runs if not _has(said, run)]
    return " … ".join(f"'{' '.join(run)}'" for run in missing_runs) if missing_runs else None


def _corrected_game(e: Erratum, lib: Library) -> str | None:
    """The game whose rules an erratum corrects: the game of the file it changes, or of the index line it changes
    (None for the book's own pages and data)."""
    stem = e.file.rsplit("/", 1)[-1].split(".")[0]
    if stem in lib.every_game:
        return stem
    line = re.fullmatch(r"printed_index\.sections\.([^.]+)\.([0-9]+)(?:\..*)?", e.path or "")
    index = lib.book.printed_index
    if line is None or index is None or not e.file.endswith("book.yaml"):
        return None
    entries = index.sections.get(line[1], [])
    return entries[int(line[2])].game if int(line[2]) < len(entries) else None


def _paragraph(lib: Library, page: str, passage: str) -> str:
    """The paragraph of a book page (not a game's) that prints ``passage``, as one line ('' if none holds it whole)."""
    for paragraph in re.split(r"\n\s*\n", lib.pages[page].text):
        lines = (LIST_MARK.sub("", expand(line, lib.scope())) for line in paragraph.splitlines())
        flat = " ".join(" ".join(lines).replace("*", "").replace("`", "").split())
        if passage in flat:
            return flat
    return ""


# What a quantity is called where the book states it: a quote about a count of players says 'players', one about a
# target says 'points' after the number or 'to' before it ('play to 400'). A data path's last key names its quantity.
QUANTITY = {"players": ({"player", "players"}, set()), "target": ({"point", "points"}, {"to"})}


def _quantity(e: Erratum, lib: Library) -> tuple[set[str], set[str]] | None:
    """The words that say which quantity an erratum corrects, after and before its number (None: not a number)."""
    key = (e.path or "").rsplit(".", 1)[-1]
    if key in QUANTITY:
        return QUANTITY[key]
    if e.path is None and isinstance(e.corrected, str):  # a text: the word after the number it changes
        before, after = _words(str(e.published)), _words(str(e.corrected))
        for op, _i1, _i2, j1, j2 in SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
            if op != "equal" and j2 < len(after) and all(NUMBER.fullmatch(w) for w in after[j1:j2]) \
                    and not NUMBER.fullmatch(after[j2]):
                unit = after[j2]
                return {unit, unit.rstrip("s"), unit + "s"}, set()
    return None


def _same_quantity(e: Erratum, lib: Library, quote: str) -> str | None:
    """The quantity a quote must name and does not: its number stands beside another word ('400 players' quoted
    for a target of 400 points)."""
    named = _quantity(e, lib)
    if named is None:
        return None
    after_words, before_words = named
    said = _words(quote)
    numbers = {w for w in _words(expand(str(e.corrected), lib.scope())) if NUMBER.fullmatch(w)}
    for i, w in enumerate(said):
        if w in numbers and (set(said[i + 1:i + 4]) & after_words or set(said[max(0, i - 2):i]) & before_words):
            return None
    return " or ".join(sorted(after_words | before_words)) if numbers else None


def _same_game(e: Erratum, lib: Library, page: str, quote: str, place: str = "page") -> str | None:
    """Why the quoted page (index line, sheet) is not about the game the erratum corrects: another game's, or a
    passage of a book page whose paragraph never names it (None when it is, or the erratum corrects no game)."""
    game = _corrected_game(e, lib)
    if game is None or game not in lib.every_game:
        return None
    title = lib.every_game[game].game.title
    if page in lib.games and page != game:
        return (_("it quotes the %(places)s of %(title)s, another game (a number another game prints proves nothing "
                  "about %(title2)s): quote a page about %(title2)s: its own page (for a correction of its index "
                  "line or its sheet), its index line or its sheet (place: index, sheet), or a passage of a book "
                  "page that names it", places=_(PLACES[place]), title=lib.games[page].game.title, title2=title))
    if page in lib.pages:
        for passage in (p.strip() for p in quote.split("; ")):
            paragraph = _paragraph(lib, page, passage)
            if paragraph and title.casefold() not in paragraph.casefold():
                return (_("the passage “%(passage)s” of '%(page)s' is in a paragraph that does not name %(title)s: "
                          "quote words about %(title)s", passage=passage, page=page, title=title))
    return None


def _contradiction(e: Erratum, lib: Library, published: Library | None) -> str | None:
    """Why a contradiction's evidence is false: it quotes the page the erratum changes, or a page about another
    game, the page does not print the words (in this edition, and in the one the erratum corrects: the book
    contradicted itself there), or the words do not say what the correction makes the book say, of the same
    quantity."""
    page, place = e.evidence.page or "", e.evidence.place
    named = f"'{page}'" if place == "page" else _("the %(places)s of '%(page)s'", places=_(PLACES[place]), page=page)
    if place == "page" and page in _pages_changed(lib, e):
        return (_("it quotes the page '%(page)s', which this erratum itself changes: quote another page of %(id)s "
                  "that says what the correction says", page=page, id=lib.edition.id))
    if place != "page" and page not in lib.games:
        return (_("'%(page)s' is no game of %(id)s, and only a game has a %(places)s: name the game (page:) whose "
                  "%(places)s says what the correction says", page=page, id=lib.edition.id, places=_(PLACES[place])))
    if place != "page" and _changes_place(e, lib, page, place):
        return (_("it quotes %(named)s, which this erratum itself changes: quote another place of %(id)s that says "
                  "what the correction says", named=named, id=lib.edition.id))
    quote = " ".join((e.evidence.words or "").split())
    other = _same_game(e, lib, page, quote, place)
    if other:
        return other
    for edition in [lib] + ([published] if published is not None else []):
        printed = _cited_text(edition, page, place)
        missing = [part for part in (p.strip() for p in quote.split("; ")) if part not in printed]
        if missing:
            values = {"edition": edition.edition.id, "places": _(PLACES[place]), "missing": missing[0]}
            if place == "page":
                return (_("the %(edition)s page %(named)s does not print “%(missing)s”: quote the words as the page "
                          "prints them (passages joined by '; ')", named=named, **values) if edition is lib else
                        _("the %(edition)s page %(named)s does not print “%(missing)s”, the edition it corrects (words "
                          "another change of this edition made prove nothing): quote the words as the page prints "
                          "them (passages joined by '; ')", named=named, **values))
            return (_("the %(edition)s %(places)s of %(page)s does not print “%(missing)s”: quote the words as the "
                      "%(places)s prints them (passages joined by '; ')", page=repr(page), **values) if edition is lib
                    else _("the %(edition)s %(places)s of %(page)s does not print “%(missing)s”, the edition it "
                           "corrects (words another change of this edition made prove nothing): quote the words as the "
                           "%(places)s prints them (passages joined by '; ')", page=repr(page), **values))
    unstated = _states(e, lib, quote)
    if unstated:
        return (_("the quoted words do not state what the correction makes the book say, %(unstated)s: quote the "
                  "words of %(named)s that say it", unstated=unstated, named=named))
    if place == "index":  # an index line prints a title and a number of players, the one quantity it states
        quantity = _quantity(e, lib)
        if quantity is None or "players" not in quantity[0]:
            return (_("%(named)s states only the game's title and number of players, and this correction is of "
                      "another quantity: quote a place that states the same quantity", named=named))
        return None
    unit = _same_quantity(e, lib, quote)
    if unit:
        return (_("the quoted words print the number of another quantity: the correction's number is not said beside "
                  "'%(unit)s': quote the words of %(named)s that state the same quantity", unit=unit, named=named))
    return None


# --- arithmetic ---------------------------------------------------------------------------------------------

def _with_value(lib: Library, e: Erratum, was: object, value: object) -> Library | None:
    """``lib`` with the erratum's file holding ``value`` where it holds ``was`` (a data path, or a text)."""
    stem = e.file.rsplit("/", 1)[-1].split(".")[0]
    gs = lib.games.get(stem)
    if gs is None:
        return None
    if e.path is not None:
        data = copy.deepcopy(gs.doc.data)
        parts = e.path.split(".")
        node = lookup(data, ".".join(parts[:-1])) if len(parts) > 1 else data
        if node is MISSING:
            return None
        node[int(parts[-1]) if isinstance(node, list) else parts[-1]] = value
        try:
            game = Game.model_validate(data)
        except ValidationError:
            return None
        changed = GameSource(game, YamlDoc(gs.doc.path, data, gs.doc.marks), gs.prose, gs.variant_prose)
    else:
        def swap(doc: TextDoc | None) -> TextDoc | None:
            if doc is None or doc.path != e.file:
                return doc
            return dataclasses.replace(doc, text=doc.text.replace(str(was), str(value)))
        changed = GameSource(gs.game, gs.doc, swap(gs.prose), {k: swap(v) for k, v in gs.variant_prose.items()})
    return dataclasses.replace(lib, games={**lib.games, gs.id: changed})


def _arithmetic(e: Erratum, lib: Library, published: Library | None) -> str | None:
    """Why an arithmetic erratum's evidence is false: on the edition as published (no other erratum applied) its
    check finds nothing wrong, or still finds something new wrong with this erratum alone applied."""
    chk = REGISTRY.get(e.check)
    if chk is None:
        return _("'%(check)s' is not a check: name the check that finds the arithmetic wrong", check=e.check)
    fixed = _with_value(published, e, e.published, e.corrected) if published is not None else None
    if published is None or fixed is None:
        return _("the arithmetic can be checked only in a game's data or prose, not in %(file)s: give another kind",
                 file=e.file)
    before = {(w.path, m) for w, m, _ in chk.func(published)}
    after = {(w.path, m) for w, m, _ in chk.func(fixed)}
    ed = published.edition.id
    if not before - after:
        return (_("%(check)s finds nothing wrong with the published %(published)s in %(ed)s as published (no other "
                  "erratum applied): the arithmetic evidence must be a sum the check proves wrong there; give the "
                  "kind that says why the book was wrong", check=e.check, published=repr(e.published), ed=ed))
    if after - before:
        return (_("%(check)s finds the corrected %(corrected)s wrong too, applied alone to %(ed)s as published: "
                  "%(value)s", check=e.check, corrected=repr(e.corrected), ed=ed, value=sorted(after - before)[0][1]))
    return None


def _as_published(lib: Library) -> Library | None:
    """The edition before ``lib``'s as it was published: every later erratum and revision undone."""
    before = lib.previous()
    return lib.edition_library(before.id) if before is not None else None


@check("erratum.false_evidence")
def false_evidence(lib: Library) -> Iterator[Found]:
    """An erratum's evidence does not prove the mistake: a spelling or usage fix that changes more than the
    slipped words, arithmetic its check does not find wrong as published, or a contradiction that quotes its
    own page or words that do not say what the correction says."""
    mine = [(i, e) for i, e in enumerate(lib.errata) if e.edition == lib.edition.id]
    # The dictionary is asked once for every word the errata change: each ask reads its remembered verdicts.
    words = {t for _, e in mine if e.evidence.kind in ("spelling", "usage")
             for pair in word_changes(e.published, e.corrected) for side in pair for t in side.split()}
    known = _known(words, lib) if words else {}
    groups = confusables(lib.lists_root) if any(e.evidence.kind == "usage" for _, e in mine) else []
    published = _as_published(lib) if any(e.evidence.kind in ("arithmetic", "contradiction") for _, e in mine) else None
    for i, e in mine:
        kind = e.evidence.kind
        problem = (_spelling(e, known) if kind == "spelling" else _usage(e, known, groups) if kind == "usage"
                   else _arithmetic(e, lib, published) if kind == "arithmetic" else _contradiction(e, lib, published))
        if problem:
            yield lib.errata_doc.where(("errata", i, "evidence", "kind")), _("erratum '%(id)s': %(problem)s", id=e.id,
                                                                             problem=problem), None

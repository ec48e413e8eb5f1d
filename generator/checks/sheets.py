"""Score sheets that fit their game: a sheet a game states keeps score the way its rules say (``keeps``)."""

from __future__ import annotations

from collections.abc import Iterator

from ..book.library import Library
from ..book.words import _
from . import Found, bodies, check


@check("sheet.unfit")
def unfit(lib: Library) -> Iterator[Found]:
    """A stated score sheet does not record what the game keeps: a meld race with a total or without its melds,
    a bid sheet that adds the bid into the total, a block for a round the rounds do not list, a row that carries
    the total of a block that has none."""
    for b in bodies(lib):
        sheet = b.rules.score_sheet
        if sheet is None or (b.variant is not None and "score_sheet" not in b.variant.model_fields_set):
            continue
        rounds = b.rules.rounds
        names = {r.name for r in rounds.items} if rounds else set()
        for i, block in enumerate(sheet.blocks):
            if block.round is not None and block.round not in names:
                yield (b.at("score_sheet", "blocks", i, "round"),
                       _("%(name)sthe sheet keeps round '%(round)s', which the rounds do not list: name one of "
                         "%(names)s", name=b.name, round=block.round, names=sorted(names)), b.game)
        totalled = {block.heading: block for block in sheet.blocks if block.total is not None}
        for i, block in enumerate(sheet.blocks):
            for j, name in enumerate(block.carries):
                carried = totalled.get(name)
                if name is None:
                    continue  # a row of the block's own (a bonus), written in and added up
                if carried is None or carried is block:
                    yield (b.at("score_sheet", "blocks", i, "carries", j),
                           _("%(name)sthe row '%(rows)s' carries the total of '%(name2)s', which is not another "
                             "block of the sheet with a total: name one of %(value)s", name=b.name, rows=block.rows[j],
                             name2=name, value=sorted(n for n in totalled if n)), b.game)
                elif (carried.player_columns, len(carried.columns)) != (block.player_columns, len(block.columns)):
                    yield (b.at("score_sheet", "blocks", i, "carries", j),
                           _("%(name)sthe row '%(rows)s' carries the total of '%(name2)s', whose columns are not "
                             "this block's: a row carries a total column by column", name=b.name, rows=block.rows[j],
                             name2=name), b.game)
        kept = [block for block in sheet.blocks if not block.sample_only]
        if b.rules.keeps == "melds":
            for i, block in enumerate(sheet.blocks):
                if block.total is not None:
                    yield (b.at("score_sheet", "blocks", i, "total"),
                           _("%(name)sthe game keeps which melds each player has made (keeps: melds): a meld race "
                             "has no total to add", name=b.name), b.game)
            if not any(block.rows_from == "rounds" for block in kept):
                yield (b.at("score_sheet"), _("%(name)sthe game keeps which melds each player has made (keeps: "
                                              "melds): give a block rows_from: rounds so that its rows are the melds "
                                              "in the game's order", name=b.name), b.game)
        if b.rules.keeps == "bid_made" and not any(
                block.player_columns and len(block.columns) > 1 and block.sums is not None
                and set(block.sums) < set(block.columns) for block in kept):
            yield (b.at("score_sheet"), _("%(name)sthe game keeps a bid beside what was made (keeps: bid_made): give "
                                          "a block a column for the bid and 'sums' naming only the scored column",
                                          name=b.name), b.game)


@check("sheet.nothing_to_keep")
def nothing_to_keep(lib: Library) -> Iterator[Found]:
    """A game whose rules keep no score states a score sheet or what one keeps: a game played for stakes whose rules
    name no winner (its coins or chips change hands at the table), or one whose rules name no scoring (``keeps:
    nothing``: a race or board game). The book keeps no score for it (GameBody.keeps_score), so no sheet is drawn."""
    for b in bodies(lib):
        own = b.variant.model_fields_set if b.variant is not None else {"keeps", "score_sheet"}
        stated = [key for key in ("keeps", "score_sheet") if key in own and getattr(b.rules, key) not in (None, "nothing")]
        if not stated or b.rules.keeps_score():
            continue
        if b.rules.keeps == "nothing":
            yield (b.at(stated[0]), _("%(name)sits rules keep no score (keeps: nothing), so no sheet is drawn: remove "
                                      "%(keys)s, or say what its rules score (keeps: points, tally, ...)", name=b.name,
                                      keys=_(" and ").join(stated)), b.game)
        else:
            yield (b.at(stated[0]), _("%(name)sthe game is played for %(coin)ss and its rules name no winner, so the "
                                      "book keeps no score and no sheet is drawn: remove %(keys)s, or state the goal "
                                      "the rules give", name=b.name, coin=b.rules.equipment.stakes.coin,
                                      keys=_(" and ").join(stated)), b.game)


@check("sheet.uncarried")
def uncarried(lib: Library) -> Iterator[Found]:
    """A row carries a total the sheet does not draw, so that the PDF form could not add it up (the build refused it):
    a column of the carried block its total does not add (a Bid beside the Score), or a block only in the sample
    carried into one on the blank sheet."""
    for b in bodies(lib):
        sheet = b.rules.score_sheet
        if sheet is None or (b.variant is not None and "score_sheet" not in b.variant.model_fields_set):
            continue
        totalled = {block.heading: block for block in sheet.blocks if block.total is not None}
        for i, block in enumerate(sheet.blocks):
            for j, name in enumerate(block.carries):
                carried = totalled.get(name)
                if carried is None or carried is block:
                    continue  # a row of the block's own, or no such block (sheet.unfit)
                where = b.at("score_sheet", "blocks", i, "carries", j)
                if carried.sample_only and not block.sample_only:
                    yield (where, _("%(name)sthe row '%(rows)s' carries the total of '%(name2)s', which is only in "
                                    "the filled-in sample (sample_only): the blank sheet has no such total to carry",
                                    name=b.name, rows=block.rows[j], name2=name), b.game)
                elif carried.sums is not None and set(carried.sums) != set(carried.columns):
                    unsummed = [c for c in carried.columns if c not in carried.sums]
                    yield (where, _("%(name)sthe row '%(rows)s' carries the total of '%(name2)s', which does not add "
                                    "its column %(unsummed)s (sums: %(sums)s): a row carries a total column by "
                                    "column; carry a block whose total adds every column", name=b.name,
                                    rows=block.rows[j], name2=name, unsummed=repr(unsummed[0]), sums=carried.sums), b.game)

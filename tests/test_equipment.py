"""Property tests of the equipment model the checks share."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from generator.book.cards import SUITS, CardSet, domino_pips, domino_tiles, parse_cards, rank_name
from generator.book.phrases import meld_cards, parse_players, parse_range

decks = st.integers(min_value=1, max_value=6)
jokers = st.sampled_from([0, 2])
ranks = st.integers(min_value=1, max_value=13)
atoms = st.sampled_from(["red", "black", "even", "odd", "face", "number", "hearts", "spades", "clubs",
                         "diamonds", "A", "K", "Q", "J", "10", "7", "2s", "jokers", "K-10", "9-2", "Q♠",
                         "queen of spades", "black 3", "red 7"])


@given(decks, jokers)
def test_deck_size(d, j):
    cards = CardSet.standard(d, j)
    assert len(cards) == 52 * d + j * d
    assert cards.count(parse_cards("red")) == 26 * d
    assert cards.count(parse_cards("jokers")) == j * d


@given(decks, jokers, atoms)
def test_a_phrase_and_its_exception_split_the_deck(d, j, phrase):
    cards = CardSet.standard(d, j)
    inside = cards.count(parse_cards(phrase))
    outside = cards.count(parse_cards(f"all except {phrase}"))
    assert inside + outside == len(cards)


@given(decks, atoms)
def test_removing_a_phrase_leaves_none_of_it(d, phrase):
    pred = parse_cards(phrase)
    cards = CardSet.standard(d, 2).remove(pred)
    assert cards.count(pred) == 0


@given(decks, atoms, st.integers(min_value=1, max_value=5))
def test_removing_copies_takes_at_most_that_many_of_each(d, phrase, copies):
    pred = parse_cards(phrase)
    full = CardSet.standard(d, 2)
    distinct = sum(1 for c in full.counts if pred(c))
    removed = len(full) - len(full.remove(pred, copies))
    assert removed == distinct * min(copies, d) or (phrase == "jokers" and removed == min(copies, 2 * d))


@given(ranks, ranks)
def test_rank_ranges_read_either_way(a, b):
    """Without an ace: a range ending at the ace counts to the high ace (7-A), one starting at it may not (A-5)."""
    assume(1 not in (a, b))
    low, high = rank_name(a), rank_name(b)
    deck = CardSet.standard()
    assert deck.count(parse_cards(f"{low}-{high}")) == deck.count(parse_cards(f"{high}-{low}"))
    assert deck.count(parse_cards(f"{low}-{high}")) % 4 == 0


@pytest.mark.parametrize("phrase,count", [("K-10", 16), ("9-3", 28), ("9-2", 32), ("10-A", 20), ("A-5", 20),
                                          ("7-A", 32), ("2-A", 52), ("8-A", 28), ("A-10", 20), ("A-7", 28),
                                          ("even", 24), ("face", 12), ("black 3", 2), ("9-2 except red 7", 30)])
def test_book_phrases(phrase, count):
    assert CardSet.standard().count(parse_cards(phrase)) == count


@given(st.integers(min_value=0, max_value=18))
def test_domino_sets_match_enumeration(top):
    tiles = [(a, b) for a in range(top + 1) for b in range(a, top + 1)]
    assert domino_tiles(top) == len(tiles)
    assert domino_pips(top) == sum(a + b for a, b in tiles)


@given(st.integers(min_value=1, max_value=20), st.integers(min_value=0, max_value=20))
def test_player_ranges_round_trip(low, extra):
    spec = parse_players(f"{low}-{low + extra}")
    assert parse_players(spec.describe()).same_as(spec)
    assert spec.counts() == list(range(low, low + extra + 1))


@given(st.sets(st.integers(min_value=1, max_value=30), min_size=1, max_size=5))
def test_player_sets_round_trip(numbers):
    spec = parse_players(" or ".join(map(str, sorted(numbers))))
    assert spec.counts() == sorted(numbers)
    assert parse_players(spec.describe()).same_as(spec)


def test_player_phrases_from_the_book():
    assert parse_players("Multiples of 4").counts(horizon=13) == [4, 8, 12]
    assert parse_players("Any Even Number").allows(6) and not parse_players("Any even number").allows(5)
    assert parse_players("2 or 4 or 6").counts() == [2, 4, 6]
    assert parse_players("3 – 7").counts() == [3, 4, 5, 6, 7]
    assert not parse_players("Any").bounded


@given(st.integers(min_value=1, max_value=4), st.integers(min_value=3, max_value=9))
def test_meld_cards(count, size):
    assert meld_cards(f"{count} sets of {size}") == count * size
    assert meld_cards(f"{count} runs of {size} and 1 set of 3") == count * size + 3


@given(st.integers(min_value=-50, max_value=50), st.integers(min_value=0, max_value=50))
def test_ranges(low, extra):
    r = parse_range(f"{low} to {low + extra}") if low >= 0 else parse_range(low)
    assert r.low <= r.high


def test_suits_are_four():
    assert len(SUITS) == 4


@given(atoms, st.sampled_from([*SUITS, None, "stars"]),
       st.integers(min_value=-1, max_value=15))
def test_a_compiled_phrase_answers_as_the_phrase_does(phrase, suit, rank):
    """parse_cards tables its answers for the 53 cards (issue 14); any card, in a deck or not, reads the same."""
    from generator.book.cards import _parse

    assert parse_cards(phrase)((rank, suit)) == _parse(phrase)((rank, suit))


def test_parsed_player_counts_are_kept_apart_by_type():
    """parse_players is cached (issue 14); True == 1 in Python, but True is still refused after 1 is read."""
    assert parse_players(1).counts() == [1]
    with pytest.raises(ValueError):
        parse_players(True)


def test_cards_in_play_answers_for_each_configuration_however_many_come_and_go(monkeypatch):
    """Each configuration's JSON is kept by the object (issue 14); a new object never gets another's answer."""
    import generator.book.equipment as equipment
    from generator.book.model import CardEquipment

    monkeypatch.setattr(equipment, "_JSON", {})
    for n in range(5000):  # past the store's limit: it is emptied, and ids of let-go objects come back
        cfg = CardEquipment(decks=1, jokers=n % 2 == 0, keep="9-A" if n % 3 == 0 else None)
        assert len(equipment.cards_in_play(cfg, 1)) == (24 if n % 3 == 0 else 52 + (2 if n % 2 == 0 else 0))  # 9-A: no joker

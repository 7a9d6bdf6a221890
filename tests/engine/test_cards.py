"""Seats, suits, ranks and cards: parsing aliases, orders and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import (
    ALL_CARDS,
    CARD_BY_SUIT_RANK,
    SEATS,
    SUITS,
    SUITS_BY_BID_RANK,
    Card,
    Rank,
    Seat,
    Suit,
)
from engine.errors import ParseError

cards = st.sampled_from(ALL_CARDS)


def test_it_moves_clockwise_from_north_to_east():
    assert Seat.N.left is Seat.E
    assert Seat.W.left is Seat.N
    assert Seat.N.next(3) is Seat.W
    assert Seat.E.next(-1) is Seat.N
    assert [seat.opposite for seat in SEATS] == [Seat.S, Seat.W, Seat.N, Seat.E]


@pytest.mark.parametrize(("text", "seat"), [("N", Seat.N), ("e", Seat.E), (" s ", Seat.S)])
def test_it_reads_seats_in_either_case(text, seat):
    assert Seat.parse(text) is seat


def test_it_rejects_an_unknown_seat():
    with pytest.raises(ParseError, match="unknown seat 'X'"):
        Seat.parse("X")


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("S", Suit.S),
        ("h", Suit.H),
        ("D", Suit.D),
        ("c", Suit.C),
        ("♠", Suit.S),
        ("♥", Suit.H),
        ("♦", Suit.D),
        ("♣", Suit.C),
        ("♤", Suit.S),
        ("♡", Suit.H),
        ("♢", Suit.D),
        ("♧", Suit.C),
    ],
)
def test_it_reads_suits_as_letters_and_symbols(text, suit):
    assert Suit.parse(text) is suit


def test_it_rejects_an_unknown_suit():
    with pytest.raises(ParseError, match="unknown suit 'X'"):
        Suit.parse("X")


def test_it_ranks_suits_for_bidding_hearts_first_spades_last():
    assert SUITS_BY_BID_RANK == (Suit.H, Suit.D, Suit.C, Suit.S)
    assert sorted(SUITS, key=lambda s: -s.bid_rank) == list(SUITS_BY_BID_RANK)
    assert [s.value for s in SUITS] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("A", Rank.ACE),
        ("k", Rank.KING),
        ("Q", Rank.QUEEN),
        ("J", Rank.JACK),
        ("T", Rank.TEN),
        ("10", Rank.TEN),
        ("9", Rank.NINE),
        ("2", Rank.TWO),
        ("1", Rank.ACE),
        ("R", Rank.KING),
        ("d", Rank.QUEEN),
        ("V", Rank.JACK),
    ],
)
def test_it_reads_ranks_in_pbn_and_belgian_notation(text, rank):
    assert Rank.parse(text) is rank


@pytest.mark.parametrize("text", ["0", "11", "B", "", "AK"])
def test_it_rejects_what_is_not_a_rank(text):
    with pytest.raises(ParseError, match="unknown rank"):
        Rank.parse(text)


def test_it_numbers_cards_in_bigdeal_order():
    assert Card(Suit.S, Rank.ACE).index == 0
    assert Card(Suit.S, Rank.TWO).index == 12
    assert Card(Suit.H, Rank.ACE).index == 13
    assert Card(Suit.D, Rank.TEN).index == 30
    assert Card(Suit.C, Rank.TWO).index == 51
    assert [card.index for card in ALL_CARDS] == list(range(52))


def test_it_finds_each_card_from_its_index():
    assert all(Card.from_index(card.index) is card for card in ALL_CARDS)
    assert len(set(ALL_CARDS)) == 52
    assert CARD_BY_SUIT_RANK[Suit.H, Rank.QUEEN] == Card(Suit.H, Rank.QUEEN)


@pytest.mark.parametrize("index", [-1, 52])
def test_it_rejects_a_card_index_outside_0_51(index):
    with pytest.raises(ValueError, match="outside 0-51"):
        Card.from_index(index)


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("SA", "SA"),
        ("AS", "SA"),
        ("♥10", "HT"),
        ("10♥", "HT"),
        ("H1", "HA"),
        ("1H", "HA"),
        ("VH", "HJ"),
        ("ht", "HT"),
        ("DA", "DA"),
        ("AD", "DA"),
        ("DH", "HQ"),
        ("DD", "DQ"),
        ("♣R", "CK"),
        (" C2 ", "C2"),
    ],
)
def test_it_reads_cards_suit_first_or_rank_first(text, card):
    assert str(Card.parse(text)) == card


@pytest.mark.parametrize("text", ["", "S", "X9", "S11", "♠♥"])
def test_it_rejects_what_is_not_a_card(text):
    with pytest.raises(ParseError, match="is not a card"):
        Card.parse(text)


def test_it_prints_cards_in_pbn_letters_and_with_symbols():
    ten = Card(Suit.H, Rank.TEN)
    assert str(ten) == "HT"
    assert ten.pretty == "♥10"
    assert repr(ten) == "Card(HT)"
    assert Card(Suit.S, Rank.ACE).pretty == "♠A"


@given(cards)
def test_a_card_reads_back_from_its_letters(card):
    assert Card.parse(str(card)) == card


@given(cards)
def test_a_card_reads_back_from_its_pretty_form(card):
    assert Card.parse(card.pretty) == card


@given(cards)
def test_a_card_reads_back_rank_first(card):
    assert Card.parse(card.rank.letter + card.suit.symbol) == card

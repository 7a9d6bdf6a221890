"""Hands and deals: notation in and out, precise errors, and the Deal's invariants."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import ALL_CARDS, SEATS, Card, Seat, Suit
from engine.errors import DealError, ParseError
from engine.hands import Deal, Hand

BOARD_1 = "N:AT3.K8654.AT6.93 Q65.A9732.3.KJ42 J974.QJT.K752.A7 K82..QJ984.QT865"
WEST_FIRST = "W:K82..QJ984.QT865 AT3.K8654.AT6.93 Q65.A9732.3.KJ42 J974.QJT.K752.A7"

deals = st.permutations(range(52)).map(
    lambda order: Deal.from_holders([SEATS[order.index(i) // 13] for i in range(52)])
)
hands = st.sets(st.sampled_from(ALL_CARDS), max_size=13).map(Hand.of)


def card(text: str) -> Card:
    return Card.parse(text)


def parse_error(text: str, parse=Deal.from_pbn) -> ParseError:
    with pytest.raises(ParseError) as caught:
        parse(text)
    return caught.value


# --- Hand --------------------------------------------------------------------------------------


def test_it_reads_a_dotted_hand_and_writes_it_back():
    hand = Hand.from_pbn("AKQ.T98..5432")
    assert len(hand) == 10
    assert hand.to_pbn() == "AKQ.T98..5432"
    assert str(hand) == "AKQ.T98..5432"
    assert repr(hand) == "Hand('AKQ.T98..5432')"


def test_it_gives_a_suits_cards_from_high_to_low():
    hand = Hand.from_pbn("2A.T98..5432")
    assert hand.cards_of(Suit.S) == (card("SA"), card("S2"))
    assert hand.count(Suit.C) == 4
    assert hand.cards_of(Suit.D) == ()
    assert not hand.has_suit(Suit.D)
    assert hand.has_suit(Suit.H)


def test_it_iterates_in_pbn_order():
    hand = Hand.from_pbn("2.5.A.KQ")
    assert [str(c) for c in hand] == ["S2", "H5", "DA", "CK", "CQ"]
    assert card("DA") in hand
    assert card("DK") not in hand
    assert "DA" not in hand


@pytest.mark.parametrize(
    "text",
    [
        "AKQ.T98..5432",
        "akq.t98..5432",
        "1RD.1098.-.5432",
        "AKD.10 98..5432".replace(" ", ""),
        "♠AKQ ♥T98 ♣5432",
        "♠1RD ♥10 9 8 ♦— ♣5,4,3,2",
        "♣5432 ♥1098 ♠AKQ",
        "♤AKQ♡T98♢-♧5432",
        "  AKQ.T98..5432  ",
    ],
)
def test_it_reads_the_same_hand_in_every_accepted_form(text):
    assert Hand.from_pbn(text).to_pbn() == "AKQ.T98..5432"


def test_it_reads_one_zero_as_the_ten_and_a_lone_one_as_the_ace():
    assert Hand.from_pbn("110.1.10.1098").to_pbn() == "AT.A.T.T98"


def test_it_prints_a_hand_with_symbols_and_tens_as_10():
    hand = Hand.from_pbn("AKT.T98..5432")
    assert hand.pretty() == "♠AK10 ♥1098 ♦— ♣5432"
    assert Hand.from_pbn(hand.pretty()) == hand


def test_it_compares_and_hashes_hands_by_their_cards():
    assert Hand.from_pbn("AK...") == Hand.of([card("SK"), card("SA")])
    assert len({Hand.from_pbn("AK..."), Hand.from_pbn("♠KA")}) == 1
    assert Hand([card("SA")]).cards == frozenset({card("SA")})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ("AKX.T98..5432", 2, "'X' is not a rank"),
        ("AKQ.T98..5430", 12, "'0' is not a rank"),
        ("AKA.T98..5432", 2, "SA appears twice"),
        ("A1...", 1, "SA appears twice"),
        ("AKQ.T98.5432", 0, "found 2 dots"),
        ("A.K.Q.J.T", 7, "found 4 dots"),
        ("AK Q...", 2, "' ' is not a rank"),
        ("-", 0, "the hand is unknown"),
        ("", 0, "a hand is missing"),
        ("AK ♥Q", 0, "comes before any suit symbol"),
        ("♠AK ♠Q", 4, "spades (♠) are written twice"),
        ("♠- A", 3, "spades are marked void but ♠A follows"),
        ("♠A -", 3, "cannot be marked void"),
        ("♠A.K", 2, "has no dots"),
        ("♥10 11", 5, "HA appears twice"),
    ],
)
def test_it_points_at_the_mistake_in_a_hand(text, position, message):
    error = parse_error(text, Hand.from_pbn)
    assert message in str(error)
    assert error.position == position
    assert error.text == text


@given(hands)
def test_a_hand_reads_back_from_pbn(hand):
    assert Hand.from_pbn(hand.to_pbn()) == hand


@given(hands)
def test_a_hand_reads_back_from_its_pretty_form(hand):
    assert Hand.from_pbn(hand.pretty()) == hand


# --- Deal --------------------------------------------------------------------------------------


def test_it_reads_a_pbn_deal_and_writes_it_from_north():
    deal = Deal.from_pbn(BOARD_1)
    assert deal.to_pbn() == BOARD_1
    assert str(deal) == BOARD_1
    assert deal.hand(Seat.E).to_pbn() == "Q65.A9732.3.KJ42"
    assert deal.hands[Seat.W.value].to_pbn() == "K82..QJ984.QT865"


@pytest.mark.parametrize(
    "text",
    [
        WEST_FIRST,
        "E:Q65.A9732.3.KJ42 J974.QJT.K752.A7 K82..QJ984.QT865 AT3.K8654.AT6.93",
        "s:J974.QJT.K752.A7 K82..QJ984.QT865 AT3.K8654.AT6.93 Q65.A9732.3.KJ42",
        "N: ♠1T3 ♥R8654 ♦1T6 ♣93 / ♠D65 ♥1 9 7 3 2 ♦3 ♣RV42 / "
        "♠V974 ♥DV10 ♦R752 ♣17 / ♠R82 ♥— ♦DV984 ♣D10865",
        "N:♠AT3♥K8654♦AT6♣93 ♠Q65♥A9732♦3♣KJ42 ♠J974♥QJT♦K752♣A7 ♠K82♦QJ984♣QT865",
        "  N:AT3.K8654.AT6.93   Q65.A9732.3.KJ42\tJ974.QJT.K752.A7 K82..QJ984.QT865\n",
    ],
)
def test_it_reads_a_deal_from_any_first_seat_and_form(text):
    assert Deal.from_pbn(text).to_pbn() == BOARD_1


def test_it_writes_a_deal_from_any_seat():
    deal = Deal.from_pbn(BOARD_1)
    assert deal.to_pbn(Seat.W) == WEST_FIRST
    assert Deal.from_pbn(deal.to_pbn(Seat.S)) == deal


def test_it_knows_who_holds_each_card():
    deal = Deal.from_pbn(BOARD_1)
    assert deal.holder(card("SA")) is Seat.N
    assert deal.holder(card("HA")) is Seat.E
    assert deal.holder(card("CA")) is Seat.S
    assert deal.holder(card("SK")) is Seat.W
    assert all(deal.holder(c) is seat for seat in SEATS for c in deal.hand(seat))
    assert deal.holders[0] is Seat.N
    assert len(deal.holders) == 52


def test_it_builds_a_deal_from_the_holder_of_each_card():
    deal = Deal.from_pbn(BOARD_1)
    assert Deal.from_holders(deal.holders) == deal
    assert Deal(deal.hands) == deal


def test_a_deal_cannot_be_changed():
    deal = Deal.from_pbn(BOARD_1)
    with pytest.raises(AttributeError, match="cannot be changed"):
        deal._holders = ()  # type: ignore[misc]
    with pytest.raises(AttributeError, match="cannot be changed"):
        del deal._holders
    assert deal.to_pbn() == BOARD_1


def test_equal_deals_hash_alike_and_survive_copying():
    deal = Deal.from_pbn(BOARD_1)
    same = Deal.from_pbn(WEST_FIRST)
    assert deal == same
    assert hash(deal) == hash(same)
    assert len({deal, same}) == 1
    assert pickle.loads(pickle.dumps(deal)) == deal
    assert copy.deepcopy(deal) == deal
    assert deal != BOARD_1


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        (BOARD_1[:-1] + "A", len(BOARD_1) - 1, "CA is in both South's and West's hands"),
        (BOARD_1.replace("KJ42", "KJ4"), 19, "East's hand has 12 cards"),
        (BOARD_1.replace(" K82..", " K82.2."), 57, "H2 is in both East's and West's hands"),
        ("N:AT3.K8654.AT6.93 Q65.A9732.3.KJ42 J974.QJT.K752.A7", 52, "found 3"),
        (BOARD_1 + " AKQ...", len(BOARD_1) + 1, "found 5"),
        ("AT3.K8654.AT6.93", 0, "starts with the first hand's seat"),
        ("X:AT3.K8654.AT6.93", 0, "'X' is not a seat"),
        ("N:- Q65.A9732.3.KJ42 J974.QJT.K752.A7 K82..QJ984.QT865", 2, "unknown"),
        ("N:AT3.K8654.AT6.93 / / a / b", 21, "a hand is missing"),
    ],
)
def test_it_points_at_the_mistake_in_a_deal(text, position, message):
    error = parse_error(text)
    assert message in str(error)
    assert error.position == position


def test_it_shows_the_mistake_under_the_text():
    error = parse_error(BOARD_1.replace("KJ42", "KJ4X"))
    assert error.pointer().splitlines()[1] == " " * 34 + "^"


def test_it_rejects_four_hands_that_are_not_a_deal():
    north, east, south, west = Deal.from_pbn(BOARD_1).hands
    with pytest.raises(DealError, match="SA is in both North's and East's hands"):
        Deal((north, Hand.of([*east.cards, card("SA")]), south, west))
    with pytest.raises(DealError, match="South holds 12 cards"):
        Deal((north, east, Hand.of(list(south.cards)[1:]), west))
    with pytest.raises(DealError, match="four hands"):
        Deal((north, east, south))
    with pytest.raises(DealError, match="not a Hand"):
        Deal((north, east, south, "K82..QJ984.QT865"))  # type: ignore[arg-type]


def test_it_rejects_holders_that_are_not_a_deal():
    holders = list(Deal.from_pbn(BOARD_1).holders)
    with pytest.raises(DealError, match="52 cards; got 51"):
        Deal.from_holders(holders[:-1])
    holders[0] = Seat.E
    with pytest.raises(DealError, match="North holds 12 cards"):
        Deal.from_holders(holders)
    with pytest.raises(DealError, match="is a Seat"):
        Deal.from_holders(["N"] * 52)  # type: ignore[list-item]


@settings(max_examples=150)
@given(deals, st.sampled_from(SEATS))
def test_a_deal_reads_back_from_pbn_written_from_any_seat(deal, first):
    text = deal.to_pbn(first)
    assert text.startswith(f"{first.name}:")
    assert Deal.from_pbn(text) == deal


@settings(max_examples=100)
@given(deals)
def test_a_deal_reads_back_from_its_pretty_hands(deal):
    text = "N:" + " / ".join(deal.hand(seat).pretty() for seat in SEATS)
    assert Deal.from_pbn(text) == deal


@settings(max_examples=100)
@given(deals)
def test_a_deals_hands_and_holders_agree(deal):
    assert sum(len(hand) for hand in deal.hands) == 52
    assert all(deal.holder(c) is seat for seat in SEATS for c in deal.hand(seat))
    assert Deal(deal.hands) == deal

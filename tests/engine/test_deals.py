"""Deal numbering (BigDeal's), dealing from an event key, commitments and board records."""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import Counter
from math import comb
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import SEATS, Card, Seat
from engine.deals import (
    DEAL_COUNT,
    KEY_BITS,
    BoardDeal,
    commitment,
    deal_for_board,
    deal_from_number,
    deal_number,
    dealer_for_board,
    deals_from_key,
    new_key,
    parse_boards,
    verify_commitment,
)
from engine.errors import DealError, ParseError
from engine.hands import Deal

FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "deals.json").read_text("utf-8"))

numbers = st.integers(min_value=0, max_value=DEAL_COUNT - 1)
deals = st.permutations(range(52)).map(
    lambda order: Deal.from_holders([SEATS[order.index(i) // 13] for i in range(52)])
)


def fresh(deal: Deal) -> Deal:
    """The same deal without anything remembered about it, so numbering really runs."""
    return Deal.from_pbn(deal.to_pbn())


# A direct transcription of the definition in algorithms.md, kept apart from the fast code:
# count, position by position, the subsets that come earlier in lexicographic order.
def reference_subset_rank(positions: list[int], size: int, chosen: int = 13) -> int:
    rank = 0
    previous = -1
    for i, position in enumerate(positions):
        for skipped in range(previous + 1, position):
            rank += comb(size - 1 - skipped, chosen - 1 - i)
        previous = position
    return rank


def reference_number(deal: Deal) -> int:
    remaining = list(range(52))
    ranks = []
    for seat in (Seat.N, Seat.E, Seat.S):
        positions = [p for p, index in enumerate(remaining) if deal.holders[index] is seat]
        ranks.append(reference_subset_rank(positions, len(remaining)))
        remaining = [index for index in remaining if deal.holders[index] is not seat]
    return (ranks[0] * comb(39, 13) + ranks[1]) * comb(26, 13) + ranks[2]


@pytest.mark.parametrize(("size", "chosen"), [(6, 3), (7, 2), (8, 4), (9, 1), (5, 5)])
def test_the_reference_rank_is_the_lexicographic_order(size, chosen):
    for expected, subset in enumerate(itertools.combinations(range(size), chosen)):
        assert reference_subset_rank(list(subset), size, chosen) == expected


# --- numbering ---------------------------------------------------------------------------------


def test_it_counts_every_deal():
    assert DEAL_COUNT == 53_644_737_765_488_792_839_237_440_000
    assert comb(52, 13) * comb(39, 13) * comb(26, 13) == DEAL_COUNT
    assert DEAL_COUNT < 2**96


def test_deal_zero_gives_each_seat_one_suit_in_card_order():
    deal = deal_from_number(0)
    assert deal.to_pbn() == (
        "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    )
    assert deal_number(fresh(deal)) == 0


def test_the_last_deal_gives_each_seat_one_suit_in_reverse():
    # The last 13-subset of n cards is the last 13 of them: N takes the clubs, E then the
    # diamonds (last of spades, hearts, diamonds), S the hearts, W keeps the spades.
    deal = deal_from_number(DEAL_COUNT - 1)
    assert deal.to_pbn() == (
        "N:...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432.. AKQJT98765432..."
    )
    assert deal_number(fresh(deal)) == DEAL_COUNT - 1


def test_deal_one_swaps_the_last_diamond_and_the_first_club():
    # Only South's subset moves: its rank 1 is {0..11, 13} of diamonds+clubs.
    assert deal_from_number(1).to_pbn() == (
        "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543.A ..2.KQJT98765432"
    )


@pytest.mark.parametrize("entry", FIXTURES["bigdeal"], ids=lambda e: f"board{e['board']}")
def test_it_numbers_deals_as_bigdeal_does(entry):
    deal = Deal.from_pbn(entry["deal"])
    assert deal_number(deal) == entry["index"]
    assert deal_from_number(entry["index"]) == deal
    assert reference_number(deal) == entry["index"]


@pytest.mark.parametrize("entry", FIXTURES["numbers"], ids=lambda e: str(e["index"]))
def test_it_matches_the_known_numbers_both_ways(entry):
    deal = Deal.from_pbn(entry["deal"])
    assert deal_from_number(entry["index"]).to_pbn() == entry["deal"]
    assert deal_number(deal) == entry["index"]
    assert reference_number(deal) == entry["index"]


@settings(max_examples=200)
@given(numbers)
def test_a_number_comes_back_from_its_deal(number):
    deal = deal_from_number(number)
    assert deal_number(fresh(deal)) == number
    assert deal_number(deal) == number


@settings(max_examples=200)
@given(deals)
def test_a_deal_comes_back_from_its_number(deal):
    number = deal_number(deal)
    assert 0 <= number < DEAL_COUNT
    assert number == reference_number(deal)
    assert deal_from_number(number) == deal


@pytest.mark.parametrize("number", [-1, DEAL_COUNT, DEAL_COUNT + 5, 2**96])
def test_it_rejects_numbers_outside_the_deals(number):
    with pytest.raises(
        DealError, match=r"is outside 0 \.\. 53,644,737,765,488,792,839,237,439,999"
    ):
        deal_from_number(number)


@pytest.mark.parametrize("number", ["5", 5.0, True, None])
def test_it_rejects_a_deal_number_that_is_not_a_whole_number(number):
    with pytest.raises(DealError, match="whole number"):
        deal_from_number(number)


# --- dealers -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "dealer"),
    [(1, Seat.N), (2, Seat.E), (3, Seat.S), (4, Seat.W), (5, Seat.N), (32, Seat.W), (33, Seat.N)],
)
def test_the_deal_rotates_from_north_on_board_one(board, dealer):
    assert dealer_for_board(board) is dealer


@pytest.mark.parametrize("board", [0, -3, 2**32])
def test_it_rejects_a_board_number_outside_the_range(board):
    with pytest.raises(DealError, match="board number"):
        dealer_for_board(board)


# --- dealing from a key ------------------------------------------------------------------------


def keyed(entry: dict[str, object]) -> BoardDeal:
    return deal_for_board(
        str(entry["key"]),
        int(str(entry["board"])),
        str(entry["owner"]),
        public=str(entry["public"]),
        trump_card=True,
    )


@pytest.mark.parametrize("entry", FIXTURES["keyed"], ids=lambda e: f"{e['key'][:6]}-{e['board']}")
def test_it_deals_the_recorded_deals_of_a_key(entry):
    board = keyed(entry)
    assert board.deal.to_pbn() == entry["deal"]
    assert board.index == entry["index"]
    assert board.dealer.name == entry["dealer"]
    assert str(board.trump_card) == entry["trump_card"]


def test_the_dealing_recipe_is_sha256_of_counter_key_owner_and_public_value():
    # Recomputed here from docs/deals.md, independently of engine.deals.
    key, owner, public, board = "abc", "", "", 1
    suffix = (
        key.encode()
        + hashlib.sha256(owner.encode()).digest()
        + hashlib.sha256(public.encode()).digest()
    )
    attempt = 0
    while True:
        digest = hashlib.sha256(
            board.to_bytes(4, "big") + attempt.to_bytes(4, "big") + suffix
        ).digest()
        number = int.from_bytes(digest[:12], "big")
        if number < DEAL_COUNT:
            break
        attempt += 1
    dealt = deal_for_board(key, board, trump_card=True)
    assert dealt.index == number
    dealers_cards = list(dealt.deal.hand(Seat.N))
    assert dealt.trump_card == dealers_cards[int.from_bytes(digest[12:], "big") % 13]


def test_the_same_key_gives_the_same_deals():
    assert deals_from_key("club night", range(1, 9)) == deals_from_key("club night", range(1, 9))


def test_a_different_key_gives_different_deals():
    first = deals_from_key("club night", range(1, 9))
    second = deals_from_key("club night!", range(1, 9))
    assert all(a.index != b.index for a, b in zip(first, second, strict=True))


def test_a_boards_deal_does_not_depend_on_the_other_boards_asked_for():
    everything = {b.board: b for b in deals_from_key("k", range(1, 33))}
    some = deals_from_key("k", [17, 3, 30])
    assert [b.board for b in some] == [17, 3, 30]
    assert all(b == everything[b.board] for b in some)


def test_every_board_of_a_key_gets_its_own_deal_and_dealer():
    boards = deals_from_key("k", range(1, 33))
    assert len({b.index for b in boards}) == 32
    assert [b.dealer for b in boards[:5]] == [Seat.N, Seat.E, Seat.S, Seat.W, Seat.N]
    assert all(b.index == deal_number(fresh(b.deal)) for b in boards)


def test_the_owner_and_the_public_value_change_the_deals():
    plain = deal_for_board("k", 1)
    assert deal_for_board("k", 1, "Gent").index != plain.index
    assert deal_for_board("k", 1, public="7421.33").index != plain.index
    assert deal_for_board("k", 1, "", public="").index == plain.index


def test_whitespace_around_the_key_does_not_matter():
    assert deal_for_board("  abc\n", 5) == deal_for_board("abc", 5)


@pytest.mark.parametrize("key", ["", "   "])
def test_it_refuses_an_empty_key(key):
    with pytest.raises(DealError, match="key is empty"):
        deals_from_key(key, [1])


def test_it_refuses_a_board_outside_the_range():
    with pytest.raises(DealError, match="board number 0"):
        deals_from_key("k", [1, 0])


def test_it_turns_up_one_of_the_dealers_cards_only_when_asked():
    plain = deals_from_key("k", range(1, 17))
    wiezen = deals_from_key("k", range(1, 17), trump_card=True)
    assert all(b.trump_card is None for b in plain)
    for without, board in zip(plain, wiezen, strict=True):
        assert board.trump_card is not None
        assert board.deal == without.deal
        assert board.deal.holder(board.trump_card) is board.dealer


def test_the_turned_up_card_spreads_over_the_dealers_hand():
    # Which of the dealer's 13 cards (in card order) is turned up: each position about equally.
    boards = deals_from_key("spread", range(1, 2601), trump_card=True)
    places = Counter(
        list(b.deal.hand(b.dealer)).index(b.trump_card)  # type: ignore[arg-type]
        for b in boards
    )
    assert set(places) == set(range(13))
    assert all(130 <= count <= 270 for count in places.values())  # mean 200, sd about 14


def test_keyed_deals_give_each_card_to_each_seat_about_equally():
    boards = deals_from_key("uniform", range(1, 4001))
    ace_of_spades = Card.parse("SA")
    holders = Counter(b.deal.holder(ace_of_spades) for b in boards)
    assert all(850 <= holders[seat] <= 1150 for seat in SEATS)  # mean 1000, sd about 27
    assert max(b.index for b in boards) > DEAL_COUNT * 0.99
    assert min(b.index for b in boards) < DEAL_COUNT * 0.01


# --- keys and commitments ----------------------------------------------------------------------


def test_a_new_key_has_at_least_160_bits_and_is_never_the_same():
    keys = {new_key() for _ in range(20)}
    assert len(keys) == 20
    for key in keys:
        assert len(key) * 4 >= KEY_BITS >= 160
        assert int(key, 16) >= 0


@pytest.mark.parametrize("entry", FIXTURES["commitments"], ids=lambda e: e["key"][:6])
def test_the_commitment_is_the_sha256_of_the_key(entry):
    assert commitment(entry["key"]) == entry["commitment"]
    assert commitment(entry["key"]) == hashlib.sha256(entry["key"].encode()).hexdigest()


def test_it_verifies_a_revealed_key_against_its_commitment():
    key = new_key()
    published = commitment(key)
    assert verify_commitment(key, published)
    assert verify_commitment(f" {key}\n", f"  {published.upper()} ")
    assert not verify_commitment(key + "0", published)
    assert not verify_commitment(new_key(), published)
    assert not verify_commitment("", published)
    assert not verify_commitment(key, published[:-1])


# --- board records -----------------------------------------------------------------------------


def test_a_board_record_works_out_its_number_and_dealer():
    deal = deal_from_number(12345)
    board = BoardDeal.of(6, fresh(deal))
    assert (board.board, board.dealer, board.index, board.trump_card) == (6, Seat.E, 12345, None)
    assert BoardDeal.of(6, deal, Seat.W).dealer is Seat.W


def test_a_board_record_turns_into_the_json_of_the_command_line():
    board = deal_for_board("abc", 2, trump_card=True)
    assert board.to_json() == {
        "board": 2,
        "dealer": "E",
        "deal": board.deal.to_pbn(),
        "index": board.index,
        "trump_card": str(board.trump_card),
    }
    assert "trump_card" not in deal_for_board("abc", 2).to_json()


def test_a_board_record_refuses_a_number_that_is_not_its_deals():
    deal = deal_from_number(7)
    with pytest.raises(DealError, match="index 8 is not the deal's number 7"):
        BoardDeal(1, Seat.N, deal, 8)


def test_a_board_record_refuses_a_turned_up_card_the_dealer_does_not_hold():
    deal = deal_from_number(0)
    with pytest.raises(DealError, match="turned-up card HA is not the dealer's"):
        BoardDeal(1, Seat.N, deal, 0, Card.parse("HA"))
    assert BoardDeal(2, Seat.E, deal, 0, Card.parse("HA")).trump_card == Card.parse("HA")


# --- board lists -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "boards"),
    [
        ("1-4", [1, 2, 3, 4]),
        ("7", [7]),
        ("1,3,5-8", [1, 3, 5, 6, 7, 8]),
        (" 9 - 10 , 2 ", [9, 10, 2]),
    ],
)
def test_it_reads_board_lists(text, boards):
    assert parse_boards(text) == boards


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ("", 0, "numbers and ranges separated by commas"),
        ("1,,2", 2, "numbers and ranges separated by commas"),
        ("1-4,3", 4, "board 3 is listed twice"),
        ("8-5", 0, "runs backwards; write 5-8"),
        ("1, 0", 3, "board numbers run from 1"),
        ("1-x", 0, "is not a board or a range"),
        ("1-1000000", 0, "more than 100,000 boards"),
    ],
)
def test_it_points_at_the_mistake_in_a_board_list(text, position, message):
    with pytest.raises(ParseError, match=message) as caught:
        parse_boards(text)
    assert caught.value.position == position

"""Double dummy: the bounds one answer gives another, and the table that searches between them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import SEATS, Card, Seat, Suit
from engine.deals import deals_from_key
from engine.doubledummy import Position, PositionError, TableError, board_table, tricks
from engine.doubledummy.table import PAIRINGS, STRAINS

N, E, S, W = SEATS
SPLITS = [(N,), (E,), (S,), (W,), (N, S), (N, E), (N, W)]


def random_position(rng: random.Random, size: int, pool: list[int] | None = None) -> Position:
    masks = [0, 0, 0, 0]
    for number, index in enumerate(rng.sample(pool or list(range(52)), 4 * size)):
        masks[number % 4] |= 1 << index
    return Position(
        (masks[0], masks[1], masks[2], masks[3]), rng.choice(STRAINS), rng.choice(SEATS)
    )


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 6))
def test_bounds_from_the_lone_figures_leave_every_pair_figure_as_it_is(seed, size):
    pos = random_position(random.Random(seed), size)
    alone = {seat: tricks(pos, (seat,)) for seat in SEATS}
    for first, second in [(N, E), (N, S), (N, W), (E, S), (E, W), (S, W)]:
        others = [seat for seat in SEATS if seat not in (first, second)]
        lower = max(alone[first], alone[second])
        upper = size - max(alone[seat] for seat in others)
        plain = tricks(pos, (first, second))
        assert lower <= plain <= upper
        for guess in (None, lower, upper):
            bounded = tricks(pos, (first, second), guess=guess, at_least=lower, at_most=upper)
            assert bounded == plain


@pytest.mark.parametrize(("at_least", "at_most"), [(3, 2), (-1, 2), (0, 6), (6, None)])
def test_it_refuses_bounds_that_cross_or_leave_the_tricks_to_play(at_least, at_most):
    pos = random_position(random.Random(9), 5)
    with pytest.raises(PositionError, match="bounds"):
        tricks(pos, (N, S), at_least=at_least, at_most=at_most)


@pytest.mark.parametrize("seed", range(4))
def test_the_two_searches_agree_when_a_side_cashes_winners_against_trumps(seed):
    # Trumps (hearts) in every hand and two side suits: the side on lead can cash side winners
    # before the trumps are drawn, which the compiled search counts as sure tricks.
    suits = {suit: [i for i in range(52) if Card.from_index(i).suit is suit] for suit in Suit}
    pool = suits[Suit.H][:8] + suits[Suit.S][:6] + suits[Suit.C][:6]
    rng = random.Random(300 + seed)
    for _ in range(3):
        masks = [0, 0, 0, 0]
        for number, index in enumerate(rng.sample(pool, 20)):
            masks[number % 4] |= 1 << index
        for leader in SEATS:
            pos = Position((masks[0], masks[1], masks[2], masks[3]), Suit.H, leader)
            for split in SPLITS:
                assert tricks(pos, split) == tricks(pos, split, pure=True), (leader, split)


def test_the_table_is_the_one_searched_answer_by_answer_without_bounds_or_guesses():
    (board,) = deals_from_key("bench-doubledummy", [5])
    table = board_table(board.deal, board.dealer, board=board.board)
    left = board.dealer.left

    def plain(declarers: tuple[Seat, ...], strain: Suit | None, leader: Seat) -> int:
        return tricks(Position.from_deal(board.deal, strain, leader), declarers)

    assert table.pairs == tuple(
        tuple(plain(pairing, strain, left) for strain in STRAINS) for pairing in PAIRINGS
    )
    assert table.first_lead_left == tuple(
        tuple(plain((seat,), strain, left) for strain in STRAINS) for seat in SEATS
    )
    assert table.first_lead_self == tuple(
        tuple(plain((seat,), strain, seat) for strain in STRAINS) for seat in SEATS
    )


# Board 13 of the key "bench-doubledummy", as the search worked it out before it shared bounds
# between answers and before its table kept classes in which a suit's top card does not matter.
BOARD_13 = {
    "board": 13,
    "dealer": "N",
    "pairs": {
        "NS": {"S": 8, "H": 10, "D": 9, "C": 7, "NT": 8},
        "NE": {"S": 8, "H": 5, "D": 6, "C": 3, "NT": 5},
        "NW": {"S": 5, "H": 6, "D": 6, "C": 5, "NT": 6},
    },
    "alone": {
        "N": {
            "first_lead_left": {"S": 2, "H": 1, "D": 1, "C": 1, "NT": 1},
            "first_lead_self": {"S": 2, "H": 1, "D": 2, "C": 1, "NT": 1},
        },
        "E": {
            "first_lead_left": {"S": 2, "H": 1, "D": 1, "C": 1, "NT": 1},
            "first_lead_self": {"S": 2, "H": 1, "D": 1, "C": 1, "NT": 1},
        },
        "S": {
            "first_lead_left": {"S": 2, "H": 4, "D": 4, "C": 3, "NT": 4},
            "first_lead_self": {"S": 4, "H": 4, "D": 4, "C": 5, "NT": 5},
        },
        "W": {
            "first_lead_left": {"S": 0, "H": 1, "D": 1, "C": 3, "NT": 1},
            "first_lead_self": {"S": 1, "H": 1, "D": 1, "C": 3, "NT": 1},
        },
    },
    "misere": {seat: {"no_trick": False, "one_trick": False} for seat in ("N", "E", "S", "W")},
}


def test_the_table_of_a_dealt_board_is_the_one_known():
    (board,) = deals_from_key("bench-doubledummy", [13])
    assert board_table(board.deal, board.dealer, board=13).to_json() == BOARD_13


@pytest.mark.parametrize("threads", [2, 3])
def test_the_table_is_the_same_whether_its_searches_run_in_turn_or_at_once(threads):
    (board,) = deals_from_key("bench-doubledummy", [5])
    in_turn = board_table(board.deal, board.dealer, board=5, threads=1)
    assert board_table(board.deal, board.dealer, board=5, threads=threads) == in_turn


@pytest.mark.parametrize("threads", [0, -2, True, 1.5])
def test_it_refuses_to_search_a_table_in_no_thread(threads):
    (board,) = deals_from_key("bench-doubledummy", [5])
    with pytest.raises(TableError, match="one thread or more"):
        board_table(board.deal, board.dealer, threads=threads)


def hands(text: str) -> list[list[Card]]:
    return [[Card.parse(card) for card in hand.split()] for hand in text.split("|")]


# South's queen of trumps (hearts) sits behind East's ace and king with two trumps to spare: East
# plays before South to every trick the other side leads, so South plays the queen whenever East
# has not covered, and East can cover only twice. With one trump to spare, East covers both.
GUARDED = "HJ HT H9 SK SQ|HA HK S4 S5 D2|HQ H8 H4 S2 S3|SA SJ D3 D4 D5"
SHORT = "HJ HT H9 SK SQ|HA HK S4 S5 D2|HQ H8 S6 S2 S3|SA SJ D3 D4 D5"


@pytest.mark.parametrize("leader", SEATS)
def test_a_trump_guarded_behind_the_higher_ones_is_a_trick_alone_or_with_a_partner(leader):
    guarded = Position.of(hands(GUARDED), Suit.H, leader)
    for declarers in [(S,), (N, S), (S, E)]:
        assert tricks(guarded, declarers) == tricks(guarded, declarers, pure=True)
    assert tricks(guarded, (S,)) >= 1
    short = Position.of(hands(SHORT), Suit.H, leader)
    assert tricks(short, (S,)) == tricks(short, (S,), pure=True) == 0

"""Double-dummy analysis: known answers, the compiled search against the pure one, and the table."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import SEATS, Card, Seat, Suit
from engine.deals import deal_from_number
from engine.doubledummy import (
    COMPILED,
    BoardTable,
    Position,
    PositionError,
    TableError,
    board_table,
    can_take,
    takes_exactly_one,
    takes_no_trick,
    tricks,
)
from engine.doubledummy.table import PAIRINGS, STRAINS

N, E, S, W = SEATS


def cards(text: str) -> list[Card]:
    return [Card.parse(card) for card in text.split()]


def position(hands: str, trump: Suit | None, leader: Seat) -> Position:
    """Four hands separated by ``|`` in N, E, S, W order, cards as ``SA HK ...``."""
    return Position.of([cards(hand) for hand in hands.split("|")], trump, leader)


def random_position(rng: random.Random, size: int) -> Position:
    dealt = rng.sample(range(52), 4 * size)
    masks = [0, 0, 0, 0]
    for number, index in enumerate(dealt):
        masks[number % 4] |= 1 << index
    trump = rng.choice(STRAINS)
    return Position((masks[0], masks[1], masks[2], masks[3]), trump, rng.choice(SEATS))


# --- known answers -----------------------------------------------------------------------------

# Deal number 0: North holds every spade, East every heart, South every diamond, West every club.
SUITED = deal_from_number(0)

# (declarers, strain, leader, tricks), each worked out by hand for SUITED.
SUITED_ANSWERS = [
    ((N,), Suit.S, N, 13),  # all thirteen trumps
    ((N,), Suit.S, E, 13),  # ruffs the first heart, then draws nothing: every spade wins
    ((N,), None, N, 13),  # leads spades and nobody can follow
    ((N,), None, E, 0),  # East runs the hearts; North never gets in
    ((N, S), Suit.D, E, 13),  # South ruffs the heart lead and runs the diamonds
    ((N, S), Suit.C, E, 0),  # nobody of N-S can ruff a heart at clubs
    ((N, E), Suit.D, E, 0),  # South ruffs the first heart and runs the trumps
    ((E, W), Suit.H, E, 13),
]


@pytest.mark.parametrize(("declarers", "strain", "leader", "expected"), SUITED_ANSWERS)
def test_it_knows_the_answers_of_a_deal_of_one_suit_per_hand(declarers, strain, leader, expected):
    assert tricks(Position.from_deal(SUITED, strain, leader), declarers) == expected


def test_it_gives_the_last_trick_to_the_highest_trump_and_else_to_the_suit_led():
    end = position("SA|H2|C3|D4", Suit.H, N)
    assert tricks(end, (E,)) == 1
    assert tricks(end, (N,)) == 0
    assert tricks(position("SA|H2|C3|D4", None, N), (N,)) == 1
    assert tricks(position("S2|SA|C3|D4", None, S), (S,)) == 1


def test_a_player_need_not_trump_when_void():
    # West cashes the club ace. East, void, discards its spade rather than ruff its partner's
    # ace, keeps the heart (a trump) and ruffs North's spade king later: two tricks. Obliged to
    # ruff the ace, East-West would take one.
    end = position("CQ SK|H2 S2|CK S3|CA S4", Suit.H, W)
    assert tricks(end, (E, W)) == 2
    assert tricks(end, (E, W), pure=True) == 2


def test_a_misere_hand_of_low_cards_takes_no_trick_and_a_lone_ace_takes_one():
    low = position("S2 H2|SA HA|SK HK|SQ HQ", None, E)
    assert takes_no_trick(low, N)
    assert not takes_exactly_one(low, N)
    ace = position("SA H2|S2 HA|S3 HK|S4 HQ", None, E)
    assert not takes_no_trick(ace, N)
    assert takes_exactly_one(ace, N)


def test_can_take_answers_each_target_as_tricks_does():
    rng = random.Random(11)
    for _ in range(20):
        pos = random_position(rng, 5)
        value = tricks(pos, (N, E))
        assert can_take(pos, (N, E), value)
        assert not can_take(pos, (N, E), value + 1)


# --- the compiled search against the pure one ---------------------------------------------------


def test_the_compiled_search_is_built():
    # The build makes it optional so that an install never fails; a build that has it not is a
    # broken build, and the speed of every table depends on it.
    assert COMPILED


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(1, 4),
    declarers=st.sets(st.sampled_from(SEATS), min_size=1, max_size=3),
)
def test_the_compiled_search_agrees_with_the_pure_one(seed, size, declarers):
    pos = random_position(random.Random(seed), size)
    assert tricks(pos, declarers) == tricks(pos, declarers, pure=True)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 4), declarer=st.sampled_from(SEATS))
def test_the_compiled_misere_and_piccolo_agree_with_the_pure_ones(seed, size, declarer):
    rng = random.Random(seed)
    pos = random_position(rng, size)
    pos = Position(pos.hands, None, pos.leader)
    assert takes_no_trick(pos, declarer) == takes_no_trick(pos, declarer, pure=True)
    assert takes_exactly_one(pos, declarer) == takes_exactly_one(pos, declarer, pure=True)


def test_the_two_searches_agree_on_endings_of_six_cards():
    rng = random.Random(2026)
    for _ in range(12):
        pos = random_position(rng, 6)
        declarers = rng.choice([(N,), (N, E), (N, S), (E, S, W)])
        assert tricks(pos, declarers) == tricks(pos, declarers, pure=True)


SPLITS = [(N,), (E,), (S,), (W,), (N, S), (N, E), (N, W)]


def deal_from(rng: random.Random, pool: list[int], size: int) -> tuple[int, int, int, int]:
    masks = [0, 0, 0, 0]
    for number, index in enumerate(rng.sample(pool, 4 * size)):
        masks[number % 4] |= 1 << index
    return (masks[0], masks[1], masks[2], masks[3])


@pytest.mark.parametrize("seed", range(5))
def test_the_two_searches_agree_for_every_split_strain_and_leader_on_five_cards(seed):
    hands = deal_from(random.Random(seed), list(range(52)), 5)
    for strain in STRAINS:
        for leader in SEATS:
            pos = Position(hands, strain, leader)
            for split in SPLITS:
                assert tricks(pos, split) == tricks(pos, split, pure=True), (strain, leader, split)


@pytest.mark.parametrize("seed", range(4))
def test_the_two_searches_agree_when_trumps_decide_the_tricks(seed):
    # Thirteen hearts and seven spades among twenty cards: most tricks are won by trumps over
    # trumps, where the compiled search counts the tricks a hand's trumps are sure of.
    hearts = [index for index in range(52) if Card.from_index(index).suit is Suit.H]
    spades = [index for index in range(52) if Card.from_index(index).suit is Suit.S]
    pool = hearts + spades[:7]
    hands = deal_from(random.Random(seed), pool, 5)
    for leader in SEATS:
        pos = Position(hands, Suit.H, leader)
        for split in SPLITS:
            assert tricks(pos, split) == tricks(pos, split, pure=True), (leader, split)


def test_the_two_searches_agree_for_every_split_and_leader_on_six_cards():
    hands = deal_from(random.Random(66), list(range(52)), 6)
    for leader in (N, E):
        pos = Position(hands, Suit.D, leader)
        for split in SPLITS:
            assert tricks(pos, split) == tricks(pos, split, pure=True), (leader, split)


@pytest.mark.parametrize("seed", range(3))
def test_the_two_searches_agree_on_misere_and_piccolo_for_every_seat_and_leader(seed):
    hands = deal_from(random.Random(100 + seed), list(range(52)), 5)
    for leader in SEATS:
        pos = Position(hands, None, leader)
        for seat in SEATS:
            assert takes_no_trick(pos, seat) == takes_no_trick(pos, seat, pure=True)
            assert takes_exactly_one(pos, seat) == takes_exactly_one(pos, seat, pure=True)


# --- properties --------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 7))
def test_the_two_sides_tricks_add_up_to_the_tricks_left(seed, size):
    pos = random_position(random.Random(seed), size)
    for side in [(N,), (N, E), (N, S), (N, W)]:
        others = tuple(seat for seat in SEATS if seat not in side)
        assert tricks(pos, side) + tricks(pos, others) == pos.tricks_left


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 7))
def test_a_pair_takes_at_least_what_either_player_takes_alone(seed, size):
    pos = random_position(random.Random(seed), size)
    alone = {seat: tricks(pos, (seat,)) for seat in SEATS}
    for first, second in [(N, E), (N, S), (N, W), (E, S), (E, W), (S, W)]:
        assert tricks(pos, (first, second)) >= max(alone[first], alone[second])


# --- positions ---------------------------------------------------------------------------------


def test_it_refuses_hands_of_different_sizes():
    with pytest.raises(PositionError, match="as many cards"):
        position("SA SK|S2|S3|S4", None, N)


def test_it_refuses_a_card_in_two_hands():
    with pytest.raises(PositionError, match="in two hands"):
        Position((1, 1, 2, 4), None, N)


def test_it_refuses_a_misere_with_trumps_and_a_side_of_everyone():
    pos = position("SA|S2|S3|S4", Suit.S, N)
    with pytest.raises(PositionError, match="without trumps"):
        takes_no_trick(pos, N)
    with pytest.raises(PositionError, match="someone against them"):
        tricks(pos, SEATS)


# --- the board's table -------------------------------------------------------------------------


def test_the_table_of_a_deal_of_one_suit_per_hand():
    table = board_table(SUITED, Seat.N, board=1)
    data = table.to_json()
    assert data["pairs"]["NS"] == {"S": 13, "H": 0, "D": 13, "C": 0, "NT": 0}
    assert data["pairs"]["NE"] == {"S": 13, "H": 13, "D": 0, "C": 0, "NT": 13}
    assert data["alone"]["N"]["first_lead_left"]["NT"] == 0
    assert data["alone"]["N"]["first_lead_self"]["NT"] == 13
    # East, on the dealer's left, leads hearts and never loses the lead: the others duck all.
    assert data["misere"] == {
        "N": {"no_trick": True, "one_trick": False},
        "E": {"no_trick": False, "one_trick": False},
        "S": {"no_trick": True, "one_trick": False},
        "W": {"no_trick": True, "one_trick": False},
    }


def test_the_table_answers_each_side_and_leader_it_holds():
    table = board_table(SUITED, Seat.N, board=1)
    assert table.tricks((N, S), Suit.D, E) == 13
    assert table.tricks((E, W), Suit.D, E) == 0
    assert table.tricks((S, W), Suit.H, E) == 13 - table.tricks((N, E), Suit.H, E)
    assert table.tricks((N,), None, N) == 13
    assert table.tricks((E, S, W), None, N) == 0
    assert table.misere(N)
    assert not table.piccolo(N)
    with pytest.raises(TableError, match="dealer's left"):
        table.tricks((N, S), Suit.D, S)
    with pytest.raises(TableError, match="not W"):
        table.tricks((N,), None, W)


def test_the_table_reads_back_what_it_writes():
    table = board_table(SUITED, Seat.N, board=1, trump_card=Card.parse("SA"))
    text = json.dumps(table.to_json())
    assert BoardTable.from_json(json.loads(text)) == table
    assert json.loads(text)["trump_card"] == "SA"


def test_the_table_names_what_is_missing_from_its_json():
    data = board_table(SUITED, Seat.N, board=1).to_json()
    del data["pairs"]["NW"]
    with pytest.raises(TableError, match="'NW'"):
        BoardTable.from_json(data)
    data = board_table(SUITED, Seat.N, board=1).to_json()
    data["alone"]["N"]["first_lead_left"]["S"] = 14
    with pytest.raises(TableError, match="14"):
        BoardTable.from_json(data)


def test_the_lone_seat_on_the_dealers_left_has_one_figure_for_both_leads():
    table = board_table(SUITED, Seat.W, board=4)
    assert table.first_lead_left[N.value] == table.first_lead_self[N.value]


def test_pairings_cover_north_with_each_other_seat():
    assert [frozenset(p) for p in PAIRINGS] == [
        frozenset({N, S}),
        frozenset({N, E}),
        frozenset({N, W}),
    ]

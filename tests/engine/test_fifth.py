"""The table of five (engine.movements.fifth): who sits out each deal, and who holds the seats."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engine.movements.fifth import ROTATION, holders, sitter_seat, sitting_out, vacant_place

FIVE = {"N": 1, "E": 2, "S": 3, "W": 4, "X": 5}


def test_a_table_of_four_plays_every_deal_in_its_seats() -> None:
    four = {"N": 1, "E": 2, "S": 3, "W": 4}
    assert holders(four, 3, 2) == four
    assert sitting_out(four, 3, 2) is None


def test_the_players_sit_out_in_turn_from_north_on_the_first_round() -> None:
    assert [sitting_out(FIVE, position) for position in range(1, 7)] == [1, 2, 3, 4, 5, 1]


def test_the_fifth_player_takes_the_seat_of_the_one_sitting_out() -> None:
    assert holders(FIVE, 2) == {"N": 1, "E": 5, "S": 3, "W": 4}  # East sits out
    assert holders(FIVE, 5) == {"N": 1, "E": 2, "S": 3, "W": 4}  # X sits out: seats kept


def test_the_turn_starts_one_place_further_each_round() -> None:
    assert [sitter_seat(1, round_number) for round_number in range(1, 7)] == [*ROTATION, "N"]
    assert sitting_out(FIVE, 1, 2) == 2


def test_a_table_of_five_with_one_place_empty_plays_as_a_table_of_four() -> None:
    seats = {**FIVE, "E": None}
    assert vacant_place(seats) == "E"
    for position in range(1, 6):
        assert sitting_out(seats, position, 3) is None
        assert holders(seats, position, 3) == {"N": 1, "E": 5, "S": 3, "W": 4}


def test_two_empty_places_leave_the_rotation_as_it_is() -> None:
    seats = {**FIVE, "E": None, "W": None}
    assert vacant_place(seats) is None
    assert holders(seats, 2) == {"N": 1, "E": 5, "S": 3, "W": None}


@given(
    boards=st.integers(min_value=1, max_value=8),
    rounds=st.integers(min_value=1, max_value=12),
)
def test_everyone_sits_out_about_equally_often_over_an_event(boards: int, rounds: int) -> None:
    out = Counter(
        sitting_out(FIVE, position, round_number)
        for round_number in range(1, rounds + 1)
        for position in range(1, boards + 1)
    )
    counts = [out.get(player, 0) for player in FIVE.values()]
    assert sum(counts) == boards * rounds
    assert max(counts) - min(counts) <= 2


@given(
    position=st.integers(min_value=1, max_value=40),
    round_number=st.integers(min_value=1, max_value=40),
)
def test_the_four_holders_and_the_one_sitting_out_are_the_five_players(
    position: int, round_number: int
) -> None:
    held = holders(FIVE, position, round_number)
    out = sitting_out(FIVE, position, round_number)
    assert sorted([*held.values(), out]) == [1, 2, 3, 4, 5]

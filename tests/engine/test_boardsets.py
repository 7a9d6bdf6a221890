"""Boards per table and round: the same boards everywhere, or travelling sets."""

from __future__ import annotations

import pytest

from engine.boardsets import (
    BoardPlan,
    TableBoards,
    boards_played,
    check_board_plan,
    fewest_sets,
    same_boards,
    travelling_sets,
)
from engine.errors import MovementError
from engine.movements import Movement, plan_movement


def assert_no_board_twice(movement: Movement, plan: BoardPlan) -> None:
    for player, played in boards_played(movement, plan).items():
        boards = [board for _, board in played]
        assert len(boards) == len(set(boards)), f"player {player}"


def test_it_gives_every_table_the_rounds_boards_when_all_play_the_same() -> None:
    movement = plan_movement(24, 4)
    plan = same_boards(movement, 3)
    assert plan.boards_at(1, 1) == (1, 2, 3)
    assert plan.boards_at(1, 6) == (1, 2, 3)
    assert plan.boards_at(4, 2) == (10, 11, 12)
    assert plan.boards == 12
    assert plan.copies == 6
    assert_no_board_twice(movement, plan)
    check_board_plan(movement, plan)


def test_it_moves_sets_so_that_nobody_meets_a_board_twice() -> None:
    movement = plan_movement(24, 7)
    plan = travelling_sets(movement, 8, 3)
    assert_no_board_twice(movement, plan)
    assert plan.copies == 1
    for tables in plan.rounds:
        sets = [t.board_set for t in tables]
        assert len(sets) == len(set(sets))
        for t in tables:
            assert t.board_set is not None
            assert t.boards == tuple(range(3 * t.board_set - 2, 3 * t.board_set + 1))


def test_it_starts_set_s_at_table_s() -> None:
    plan = travelling_sets(plan_movement(40, 3), 30, 2)
    assert [t.board_set for t in plan.rounds[0]] == list(range(1, 11))


def test_it_lets_two_tables_share_a_set_when_there_are_too_few() -> None:
    movement = plan_movement(40, 6)
    alone = fewest_sets(movement)
    shared = fewest_sets(movement, share=2)
    assert shared <= alone
    plan = travelling_sets(movement, shared, 2, share=2)
    assert_no_board_twice(movement, plan)
    for tables in plan.rounds:
        sets = [t.board_set for t in tables]
        assert max(sets.count(s) for s in sets) <= 2


def test_it_counts_fifth_players_as_meeting_the_boards() -> None:
    movement = plan_movement(22, 5, tables_of_five=True)
    plan = travelling_sets(movement, fewest_sets(movement), 2)
    assert_no_board_twice(movement, plan)
    fifth = next(t.fifth for t in movement.rounds[0].tables if t.fifth is not None)
    assert fifth in boards_played(movement, plan)


def test_it_rejects_fewer_sets_than_tables() -> None:
    with pytest.raises(MovementError, match="sets: round 1 has 6 tables, so at least 6 sets"):
        travelling_sets(plan_movement(24, 2), 5, 3)


def test_it_rejects_fewer_sets_than_rounds_a_player_plays() -> None:
    with pytest.raises(MovementError, match="plays 7 rounds, so at least 7 sets are needed"):
        travelling_sets(plan_movement(24, 7), 6, 3)


def test_it_says_how_many_sets_are_needed_when_none_will_do() -> None:
    movement = plan_movement(16, 5)
    # In the 16-player design any two tables of different rounds share a player: no set can move.
    assert fewest_sets(movement) == 20
    with pytest.raises(MovementError, match="this movement needs 20 sets"):
        travelling_sets(movement, 12, 2)


def test_it_rejects_a_share_other_than_one_or_two() -> None:
    with pytest.raises(MovementError, match=r"share: 1 .* or 2"):
        travelling_sets(plan_movement(24, 2), 6, 3, share=3)


@pytest.mark.parametrize("bad", [0, -1, True])
def test_it_rejects_boards_per_round_below_one(bad: int) -> None:
    with pytest.raises(
        MovementError, match="boards_per_round: must be a whole number of 1 or more"
    ):
        same_boards(plan_movement(16, 2), bad)


def test_it_finds_a_player_meeting_a_board_twice() -> None:
    movement = plan_movement(16, 2)
    rounds = tuple(
        tuple(TableBoards(plan.round, t.table, (1, 2)) for t in plan.tables)
        for plan in movement.rounds
    )
    with pytest.raises(MovementError, match=r"player \d+ plays board 1 twice \(rounds 1 and 2\)"):
        check_board_plan(movement, BoardPlan(2, rounds))


def test_it_finds_a_set_at_too_many_tables() -> None:
    movement = plan_movement(16, 1)
    tables = tuple(TableBoards(1, t.table, (1,), 1) for t in movement.rounds[0].tables)
    with pytest.raises(MovementError, match="round 1: set 1 is at 4 tables at once"):
        check_board_plan(movement, BoardPlan(1, (tables,), sets=4))


def test_it_rejects_a_plan_for_another_number_of_rounds() -> None:
    movement = plan_movement(16, 3)
    plan = same_boards(plan_movement(16, 2), 2)
    with pytest.raises(MovementError, match="rounds: the board plan has 2 rounds, the movement 3"):
        check_board_plan(movement, plan)


def test_it_gives_the_same_sets_for_the_same_seed() -> None:
    movement = plan_movement(48, 8)
    assert travelling_sets(movement, 30, 2, seed=3) == travelling_sets(movement, 30, 2, seed=3)


def test_it_writes_a_plan_as_json() -> None:
    plan = travelling_sets(plan_movement(24, 2), 8, 2)
    document = plan.to_json()
    assert document["sets"] == 8
    first = document["rounds"][0]["tables"][0]
    assert first == {"table": 1, "set": 1, "boards": [1, 2]}

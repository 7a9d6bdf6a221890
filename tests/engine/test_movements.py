"""Individual movements: meetings, seats, byes, fifth players, re-planning, stored designs."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import SEATS, Seat
from engine.errors import MovementError
from engine.movements import (
    KNOWN_MAXIMA,
    Movement,
    RoundPlan,
    TablePlan,
    is_known_maximum,
    max_rounds_without_repeat,
    plan_movement,
    quality,
    replan,
    to_json,
)
from engine.movements.cyclic import find_cyclic
from engine.movements.designs import (
    ListedDesign,
    best_design,
    listed_designs,
    rainbow,
    stored_designs,
)
from engine.movements.layout import Grouping, Layout
from engine.movements.seating import balanced_seats

# Rounds without a repeated meeting that the planner reaches, by number of players (8 to 64);
# players beyond a multiple of four sit out (byes) or sit as fifth players. The upper bounds are
# in docs/movements.md: with fewer than four tables (five with a table of five) a second round
# must repeat, and the known maxima 16, 20, 24, 28, 32, 40, 52 and 64 are reached.
ROUNDS_WITH_BYES: dict[int, int] = {
    8: 1,
    9: 1,
    10: 1,
    11: 1,
    12: 1,
    13: 1,
    14: 1,
    15: 5,
    16: 5,
    17: 4,
    18: 4,
    19: 6,
    20: 5,
    21: 5,
    22: 5,
    23: 7,
    24: 7,
    25: 6,
    26: 6,
    27: 9,
    28: 9,
    29: 7,
    30: 9,
    31: 9,
    32: 10,
    33: 8,
    34: 10,
    35: 11,
    36: 9,
    37: 9,
    38: 11,
    39: 12,
    40: 13,
    41: 10,
    42: 12,
    43: 12,
    44: 11,
    45: 13,
    46: 13,
    47: 14,
    48: 13,
    49: 12,
    50: 15,
    51: 15,
    52: 17,
    53: 15,
    54: 16,
    55: 16,
    56: 15,
    57: 16,
    58: 16,
    59: 17,
    60: 16,
    61: 17,
    62: 17,
    63: 18,
    64: 21,
}
ROUNDS_WITH_FIVES: dict[int, int] = {
    9: 1,
    10: 1,
    13: 1,
    14: 1,
    15: 1,
    17: 1,
    18: 1,
    19: 1,
    21: 5,
    22: 5,
    23: 5,
    25: 6,
    26: 6,
    27: 5,
    29: 7,
    30: 7,
    31: 7,
    33: 8,
    34: 7,
    35: 7,
    37: 9,
    38: 9,
    39: 8,
    41: 9,
    42: 9,
    43: 9,
    45: 11,
    46: 11,
    47: 11,
    49: 12,
    50: 11,
    51: 11,
    53: 13,
    54: 13,
    55: 13,
    57: 13,
    58: 13,
    59: 13,
    61: 15,
    62: 14,
    63: 14,
}


def meetings(movement: Movement) -> Counter[tuple[int, int]]:
    met: Counter[tuple[int, int]] = Counter()
    for plan in movement.rounds:
        for table in plan.tables:
            for a, b in combinations(sorted(table.players), 2):
                met[a, b] += 1
    return met


def assert_everyone_once_a_round(movement: Movement, players: int) -> None:
    for plan in movement.rounds:
        present = plan.players
        assert sorted(present) == list(range(1, players + 1)), f"round {plan.round}"
        for table in plan.tables:
            assert set(table.seats) == set(SEATS)


def seat_spread(movement: Movement) -> int:
    counts: dict[int, Counter[Seat]] = {}
    for plan in movement.rounds:
        for table in plan.tables:
            for seat, player in table.seats.items():
                counts.setdefault(player, Counter())[seat] += 1
    return max(max(c[s] for s in SEATS) - min(c[s] for s in SEATS) for c in counts.values())


def spread(values: list[int]) -> int:
    return max(values) - min(values)


@pytest.mark.parametrize("players", range(8, 65))
def test_it_seats_everyone_once_a_round_with_no_repeat_within_the_promised_rounds(
    players: int,
) -> None:
    rounds = ROUNDS_WITH_BYES[players]
    movement = plan_movement(players, rounds)
    assert_everyone_once_a_round(movement, players)
    assert len(movement.rounds) == rounds
    assert max(meetings(movement).values()) == 1
    figures = quality(movement)
    assert figures.rounds_without_repeat == rounds
    assert figures.repeats == 0
    # Every player holds each seat ⌊k/4⌋ or ⌈k/4⌉ times out of k rounds at a table.
    assert seat_spread(movement) <= 1
    assert figures.seat_spread == seat_spread(movement)
    byes = Counter(p for plan in movement.rounds for p in plan.byes)
    assert spread([byes[p] for p in range(1, players + 1)]) <= 1
    assert figures.bye_spread <= 1
    assert all(len(plan.byes) == players % 4 for plan in movement.rounds)


@pytest.mark.parametrize("players", [p for p in range(8, 65) if p % 4 and p % 4 <= p // 4])
def test_it_seats_fifth_players_in_turn_with_no_repeat_within_the_promised_rounds(
    players: int,
) -> None:
    rounds = ROUNDS_WITH_FIVES[players]
    movement = plan_movement(players, rounds, tables_of_five=True)
    assert_everyone_once_a_round(movement, players)
    assert max(meetings(movement).values()) == 1
    figures = quality(movement)
    assert figures.rounds_without_repeat == rounds
    assert seat_spread(movement) <= 1
    fifths = Counter(t.fifth for plan in movement.rounds for t in plan.tables if t.fifth)
    assert spread([fifths[p] for p in range(1, players + 1)]) <= 1
    assert figures.fifth_spread <= 1
    assert all(not plan.byes for plan in movement.rounds)
    assert all(
        sum(t.fifth is not None for t in plan.tables) == players % 4 for plan in movement.rounds
    )


@pytest.mark.parametrize(("players", "rounds"), sorted(KNOWN_MAXIMA.items()))
def test_it_reaches_the_known_maxima_exactly(players: int, rounds: int) -> None:
    assert max_rounds_without_repeat(players) == rounds
    assert is_known_maximum(players)
    movement = plan_movement(players, rounds)
    figures = quality(movement)
    assert figures.repeats == 0
    assert figures.rounds_without_repeat == rounds
    assert figures.seat_spread <= 1


def test_32_players_meet_everyone_but_one_player_in_ten_rounds() -> None:
    # Ten rounds of three new players leave one of the 31 others unmet; eleven are impossible.
    movement = plan_movement(32, 10)
    met = meetings(movement)
    assert len(met) == 32 * 30 // 2
    missed = Counter(p for pair in combinations(range(1, 33), 2) if pair not in met for p in pair)
    assert missed == dict.fromkeys(range(1, 33), 1)
    assert quality(movement).seat_spread <= 1
    eleven = quality(plan_movement(32, 11))
    assert eleven.rounds_without_repeat == 10


@pytest.mark.parametrize("players", [16, 28, 40, 64, 160])
def test_it_lets_everyone_meet_everyone_exactly_once_for_12k_plus_4_players(players: int) -> None:
    rounds = (players - 1) // 3
    assert max_rounds_without_repeat(players) == rounds
    met = meetings(plan_movement(players, rounds))
    assert len(met) == players * (players - 1) // 2
    assert set(met.values()) == {1}


def test_it_still_gives_every_round_asked_for_when_repeats_cannot_be_avoided() -> None:
    movement = plan_movement(16, 8)
    assert len(movement.rounds) == 8
    assert_everyone_once_a_round(movement, 16)
    figures = quality(movement)
    assert figures.rounds_without_repeat == 5
    assert figures.repeats > 0
    # After everyone has met everyone, each further table brings back six pairs at best, and
    # the three extra rounds need not bring any pair together a third time.
    assert figures.repeats == 3 * 4 * 6
    assert figures.most_meetings == 2
    assert figures.seat_spread <= 1


def test_it_gives_the_same_movement_for_the_same_seed() -> None:
    assert plan_movement(30, 7, seed=4) == plan_movement(30, 7, seed=4)
    assert plan_movement(30, 7, seed=4) != plan_movement(30, 7, seed=5)


def test_it_gives_another_movement_of_the_same_quality_for_another_seed() -> None:
    first, second = plan_movement(28, 9, seed=0), plan_movement(28, 9, seed=99)
    assert first != second
    assert quality(first).repeats == quality(second).repeats == 0


def test_it_accepts_a_list_of_player_numbers() -> None:
    numbers = [3, 8, 11, 20, 21, 22, 30, 31, 32, 40, 41, 42, 50, 51, 52, 60, 61]
    movement = plan_movement(numbers, 4)
    assert movement.players == tuple(sorted(numbers))
    for plan in movement.rounds:
        assert sorted(plan.players) == sorted(numbers)
    assert quality(movement).bye_spread <= 1


def test_it_never_makes_a_player_sit_out_twice_before_everyone_has_sat_out_once() -> None:
    movement = plan_movement(23, 20)
    byes: Counter[int] = Counter()
    for plan in movement.rounds:
        byes.update(plan.byes)
        counts = [byes[p] for p in range(1, 24)]
        assert max(counts) - min(counts) <= 1, f"round {plan.round}"
    assert sum(byes.values()) == 3 * 20


@pytest.mark.parametrize(
    ("players", "rounds", "fives", "message"),
    [
        (3, 2, False, "at least 4 players"),
        (11, 2, True, "cannot sit at tables of four and five"),
        (7, 2, True, "cannot sit at tables of four and five"),
        (4001, 2, False, "at most 4000 players can be planned at once, not 4001"),
        (16, 0, False, "rounds: must be a whole number from 1"),
        (16, 101, False, "rounds: must be a whole number from 1"),
    ],
)
def test_it_rejects_a_movement_that_cannot_be_planned(
    players: int, rounds: int, fives: bool, message: str
) -> None:
    with pytest.raises(MovementError, match=message):
        plan_movement(players, rounds, tables_of_five=fives)


def test_it_rejects_a_player_listed_twice() -> None:
    with pytest.raises(
        MovementError, match=r"players: player\(s\) \[5\] are listed more than once"
    ):
        plan_movement([1, 2, 3, 4, 5, 5, 6, 7], 2)


def test_it_rejects_player_numbers_below_one() -> None:
    with pytest.raises(MovementError, match="player numbers must be whole numbers from 1"):
        plan_movement([0, 1, 2, 3], 1)


# Re-planning ------------------------------------------------------------------------------------


def test_it_keeps_the_played_rounds_when_replanning() -> None:
    movement = plan_movement(32, 9)
    changed = replan(movement, 3, [*range(1, 33), 33])
    assert changed.rounds[:3] == movement.rounds[:3]
    assert len(changed.rounds) == 9
    assert [plan.round for plan in changed.rounds] == list(range(1, 10))


def new_meetings_repeating_old_ones(movement: Movement, played: int) -> int:
    old: set[tuple[int, int]] = set()
    for plan in movement.rounds[:played]:
        for table in plan.tables:
            old.update(combinations(sorted(table.players), 2))
    return sum(
        pair in old
        for plan in movement.rounds[played:]
        for table in plan.tables
        for pair in combinations(sorted(table.players), 2)
    )


def test_it_avoids_meetings_that_already_happened_after_a_late_arrival() -> None:
    movement = plan_movement(32, 7)
    changed = replan(movement, 3, [*range(1, 33), 33])
    assert new_meetings_repeating_old_ones(changed, 3) == 0
    assert quality(changed).repeats == 0
    for plan in changed.rounds[3:]:
        assert sorted(plan.players) == list(range(1, 34))
        assert len(plan.byes) == 1


def test_it_avoids_meetings_that_already_happened_after_withdrawals() -> None:
    movement = plan_movement(40, 8)
    remaining = [p for p in range(1, 41) if p not in (7, 19)]
    changed = replan(movement, 4, remaining)
    assert new_meetings_repeating_old_ones(changed, 4) == 0
    assert quality(changed).repeats == 0
    for plan in changed.rounds[4:]:
        assert 7 not in plan.players
        assert 19 not in plan.players
        assert sorted(plan.players) == remaining
    assert changed.players == tuple(range(1, 41))


def test_it_avoids_meetings_that_already_happened_after_arrivals_and_a_withdrawal() -> None:
    movement = plan_movement(28, 9)
    changed = replan(movement, 4, [p for p in range(1, 29) if p != 5] + [29, 30])
    assert new_meetings_repeating_old_ones(changed, 4) == 0
    # Five rounds more for 29 players with one bye: at most a meeting or two comes back.
    assert quality(changed).repeats <= 2
    # Seats held before and after the change are counted together; turning tables cannot always
    # undo an unlucky start, so a player may end two apart on one seat.
    assert quality(changed).seat_spread <= 2


def test_it_does_not_make_a_late_arrival_sit_out_before_the_others() -> None:
    movement = plan_movement(21, 8)
    changed = replan(movement, 2, [*range(1, 22), 22])
    later_byes = [p for plan in changed.rounds[2:] for p in plan.byes]
    assert 22 not in later_byes[:20]


def test_it_can_switch_to_tables_of_five_when_replanning() -> None:
    movement = plan_movement(40, 8)
    changed = replan(movement, 3, list(range(1, 42)), tables_of_five=True)
    for plan in changed.rounds[3:]:
        assert sum(t.fifth is not None for t in plan.tables) == 1
        assert not plan.byes
    assert new_meetings_repeating_old_ones(changed, 3) == 0
    assert quality(changed).repeats == 0
    assert quality(changed).seat_spread <= 2


def test_it_rejects_a_replan_of_rounds_not_in_the_movement() -> None:
    movement = plan_movement(16, 4)
    with pytest.raises(MovementError, match="played_rounds: must be between 0 and 4"):
        replan(movement, 5, list(range(1, 17)))
    with pytest.raises(MovementError, match="rounds: 2 rounds is fewer than the 3 already played"):
        replan(movement, 3, list(range(1, 17)), rounds=2)


def test_it_can_lengthen_a_movement_when_replanning() -> None:
    movement = plan_movement(24, 4)
    longer = replan(movement, 4, list(range(1, 25)), rounds=7)
    assert len(longer.rounds) == 7
    assert longer.rounds[:4] == movement.rounds
    assert quality(longer).rounds_without_repeat == 7


# Quality figures --------------------------------------------------------------------------------


def _table(number: int, players: tuple[int, int, int, int], fifth: int | None = None) -> TablePlan:
    return TablePlan(number, dict(zip(SEATS, players, strict=True)), fifth)


def test_it_measures_repeats_and_spreads_of_a_hand_made_movement() -> None:
    movement = Movement(
        tuple(range(1, 10)),
        (
            RoundPlan(1, (_table(1, (1, 2, 3, 4)), _table(2, (5, 6, 7, 8))), (9,)),
            RoundPlan(2, (_table(1, (1, 5, 9, 2)), _table(2, (3, 6, 4, 7))), (8,)),
            RoundPlan(3, (_table(1, (1, 2, 3, 9)), _table(2, (4, 5, 6, 8))), (7,)),
        ),
    )
    figures = quality(movement)
    assert figures.rounds_without_repeat == 1
    # 1-2 meet three times; 1-3, 2-3, 3-4, 5-6, 5-8, 6-7, 6-8, 1-9, 2-9 and 4-6 twice.
    assert (1, 2, 3) in figures.repeated_pairs
    assert (4, 6, 2) in figures.repeated_pairs
    assert len(figures.repeated_pairs) == 11
    assert figures.repeats == 2 + 10
    assert dict(figures.meetings) == {1: 13, 2: 10, 3: 1}
    assert figures.most_meetings == 3
    assert figures.bye_spread == 1
    assert figures.seat_spread == 3  # player 1 sat North three times


def test_it_reads_back_the_json_it_writes() -> None:
    movement = plan_movement(23, 5, tables_of_five=True)
    again = Movement.from_json(to_json(movement))
    assert again == movement
    assert again.tables_of_five


def test_it_writes_the_command_line_json_shape() -> None:
    document = to_json(plan_movement(17, 2))
    assert document["players"] == 17
    first = document["rounds"][0]
    assert set(first) == {"round", "tables", "byes"}
    assert set(first["tables"][0]) == {"table", "N", "E", "S", "W"}
    assert len(first["byes"]) == 1


def test_it_rejects_a_table_without_every_seat() -> None:
    with pytest.raises(MovementError, match="table 3: seats must be exactly N, E, S and W"):
        TablePlan(3, {Seat.N: 1, Seat.E: 2, Seat.S: 3})


def test_it_rejects_a_player_twice_in_a_round() -> None:
    with pytest.raises(MovementError, match=r"round 1: player\(s\) \[4\] appear more than once"):
        Movement((1, 2, 3, 4, 5), (RoundPlan(1, (_table(1, (1, 2, 3, 4)),), (4,)),))


def test_it_rejects_json_with_a_missing_seat() -> None:
    document = {"players": 4, "rounds": [{"round": 1, "tables": [{"table": 1, "N": 1, "E": 2}]}]}
    with pytest.raises(MovementError, match=r"rounds\[0\]\.tables\[0\]\.S: expected a player"):
        Movement.from_json(document)


# Designs and constructions ----------------------------------------------------------------------


def test_every_stored_design_gives_its_rounds_without_a_repeat() -> None:
    assert stored_designs()
    for (players, key), design in stored_designs().items():
        layout = Layout.of(players, key == "fives")
        rounds = design.develop()
        assert len(rounds) == design.rounds
        met: set[tuple[int, int]] = set()
        for grouping in rounds:
            seated = sorted(p for t in grouping.tables for p in t)
            assert sorted(seated + list(grouping.byes)) == list(range(players))
            assert len(grouping.byes) == layout.byes
            assert sum(len(t) == 5 for t in grouping.tables) == layout.fives
            for table in grouping.tables:
                for pair in combinations(sorted(table), 2):
                    assert pair not in met, (players, key, pair)
                    met.add(pair)
        # Byes and fifth places fall on different players throughout the design.
        byes = [p for g in rounds for p in g.byes]
        fifths = [t[4] for g in rounds for t in g.tables if len(t) == 5]
        assert len(set(byes)) == len(byes)
        assert len(set(fifths)) == len(fifths)


def test_every_listed_design_gives_its_rounds_without_a_repeat() -> None:
    assert listed_designs()
    for (players, key), design in listed_designs().items():
        layout = Layout.of(players, key == "fives")
        rounds = design.develop()
        assert len(rounds) == KNOWN_MAXIMA[players]
        met: set[tuple[int, int]] = set()
        for grouping in rounds:
            assert sorted(p for t in grouping.tables for p in t) == list(range(players))
            assert len(grouping.tables) == layout.tables
            assert all(len(t) == 4 for t in grouping.tables)
            for table in grouping.tables:
                for pair in combinations(sorted(table), 2):
                    assert pair not in met, (players, key, pair)
                    met.add(pair)


def test_a_listed_design_must_hold_every_player_in_every_round() -> None:
    bad = {
        "players": 8,
        "layout": "byes",
        "source": "broken",
        "rounds": [[[0, 1, 2, 3], [4, 5, 6, 6]]],
    }
    with pytest.raises(MovementError, match="round 1 must hold every point once"):
        ListedDesign.from_json(bad)
    with pytest.raises(MovementError, match="rounds must be a list"):
        ListedDesign.from_json({**bad, "rounds": 3})


@pytest.mark.parametrize("players", [16, 20, 28, 32, 36, 44, 64, 80, 100, 112, 128, 160, 196])
def test_the_rainbow_construction_never_repeats_a_meeting(players: int) -> None:
    design = rainbow(players)
    assert design is not None
    q = players // 4
    assert len(design.rounds) >= q
    met: set[tuple[int, int]] = set()
    for grouping in design.rounds:
        assert sorted(p for t in grouping.tables for p in t) == list(range(players))
        for table in grouping.tables:
            for pair in combinations(sorted(table), 2):
                assert pair not in met
                met.add(pair)


def test_the_rainbow_construction_needs_a_field() -> None:
    assert rainbow(24) is None  # 6 = 2 · 3 has no four suitable multipliers
    assert rainbow(48) is None
    assert rainbow(18) is None


@pytest.mark.parametrize(("players", "rounds"), [(64, 21), (128, 42), (160, 53)])
def test_the_rainbow_construction_adds_the_rounds_of_a_design_inside_its_lines(
    players: int, rounds: int
) -> None:
    assert len(best_design(Layout.of(players)).rounds) == rounds


@pytest.mark.parametrize(
    ("players", "rounds", "fives"), [(36, 6, False), (45, 8, True), (90, 9, False)]
)
def test_the_cyclic_search_finds_designs_without_repeats(
    players: int, rounds: int, fives: bool
) -> None:
    layout = Layout.of(players, fives)
    design = find_cyclic(layout, rounds, random.Random(1))
    assert design is not None
    met: set[tuple[int, int]] = set()
    for grouping in design.develop():
        for table in grouping.tables:
            for pair in combinations(sorted(table), 2):
                assert pair not in met
                met.add(pair)


# Seats ------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(min_value=4, max_value=40),
    rounds=st.integers(min_value=1, max_value=12),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_seats_are_balanced_for_any_rounds(players: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    roster = list(range(1, players + 1))
    groupings = []
    for _ in range(rounds):
        rng.shuffle(roster)
        tables = players // 4
        groupings.append(
            Grouping(
                tuple(tuple(roster[4 * t : 4 * t + 4]) for t in range(tables)),
                tuple(roster[4 * tables :]),
            )
        )
    seated = balanced_seats(groupings, sorted(roster))
    counts: dict[int, list[int]] = {}
    for round_tables, grouping in zip(seated, groupings, strict=True):
        for table, original in zip(round_tables, grouping.tables, strict=True):
            assert sorted(table) == sorted(original)
            for seat, player in enumerate(table):
                counts.setdefault(player, [0, 0, 0, 0])[seat] += 1
    assert all(max(c) - min(c) <= 1 for c in counts.values())

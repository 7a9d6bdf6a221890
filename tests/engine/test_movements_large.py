"""Movements for federation-size fields and the resolvable designs of 12k + 4 players."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from engine.cards import SEATS
from engine.errors import MovementError
from engine.movements import (
    MAX_PLAYERS,
    Movement,
    is_known_maximum,
    max_rounds_without_repeat,
    plan_movement,
    quality,
)
from engine.movements.designs import best_design
from engine.movements.layout import Grouping, Layout
from engine.movements.lines import line_rounds, lines
from engine.movements.resolvable import STORED_BASES, resolvable


def meetings(movement: Movement) -> Counter[tuple[int, int]]:
    """How often every pair of players shares a table."""
    met: Counter[tuple[int, int]] = Counter()
    for plan in movement.rounds:
        for table in plan.tables:
            met.update(combinations(sorted(table.players), 2))
    return met


def design_meetings(rounds: tuple[Grouping, ...], players: int) -> Counter[tuple[int, int]]:
    """Meetings of a design's rounds, after checking that each round holds every point once."""
    met: Counter[tuple[int, int]] = Counter()
    for grouping in rounds:
        points = sorted([p for table in grouping.tables for p in table] + list(grouping.byes))
        assert points == list(range(players))
        for table in grouping.tables:
            met.update(combinations(sorted(table), 2))
    return met


def seat_spread(movement: Movement) -> int:
    counts: dict[int, Counter[str]] = {}
    for plan in movement.rounds:
        for table in plan.tables:
            for seat, player in table.seats.items():
                counts.setdefault(player, Counter())[seat.name] += 1
    return max(
        max(c[s.name] for s in SEATS) - min(c[s.name] for s in SEATS) for c in counts.values()
    )


# Federation-size fields -------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), [(1000, 10), (2000, 8)])
def test_it_plans_a_federation_event_without_a_repeated_meeting(players: int, rounds: int) -> None:
    movement = plan_movement(players, rounds)
    assert len(movement.rounds) == rounds
    for plan in movement.rounds:
        assert sorted(plan.players) == list(range(1, players + 1))
        assert len(plan.tables) == players // 4
    met = meetings(movement)
    # Every pair is checked: no pair shares a table twice, and each player met three a round.
    assert set(met.values()) == {1}
    assert len(met) == rounds * players // 4 * 6
    assert seat_spread(movement) <= 1
    figures = quality(movement)
    assert figures.repeats == 0
    assert figures.rounds_without_repeat == rounds
    assert figures.seat_spread <= 1


@pytest.mark.parametrize(("players", "rounds"), [(1001, 10), (1003, 10), (2002, 8)])
def test_it_gives_byes_in_turn_in_a_federation_event(players: int, rounds: int) -> None:
    movement = plan_movement(players, rounds, seed=7)
    assert set(meetings(movement).values()) == {1}
    byes = Counter(p for plan in movement.rounds for p in plan.byes)
    assert all(len(plan.byes) == players % 4 for plan in movement.rounds)
    assert max(byes.values()) == 1  # nobody sits out twice while others have not sat out
    figures = quality(movement)
    assert figures.bye_spread == 1
    assert figures.seat_spread <= 1


@pytest.mark.parametrize(("players", "rounds"), [(1003, 10), (2001, 8)])
def test_it_gives_fifth_places_in_turn_in_a_federation_event(players: int, rounds: int) -> None:
    movement = plan_movement(players, rounds, tables_of_five=True)
    assert set(meetings(movement).values()) == {1}
    fifths = Counter(t.fifth for plan in movement.rounds for t in plan.tables if t.fifth)
    assert sum(fifths.values()) == rounds * (players % 4)
    assert max(fifths.values()) == 1
    assert all(not plan.byes for plan in movement.rounds)
    figures = quality(movement)
    assert figures.fifth_spread == 1
    assert figures.seat_spread <= 1


def test_it_plans_the_largest_field_it_accepts() -> None:
    movement = plan_movement(MAX_PLAYERS, 3)
    assert set(meetings(movement).values()) == {1}


@pytest.mark.parametrize("players", [MAX_PLAYERS + 1, 10_000])
def test_it_rejects_a_field_beyond_the_largest_it_accepts(players: int) -> None:
    with pytest.raises(MovementError) as caught:
        plan_movement(players, 8)
    assert caught.value.code == "too_many_players"
    assert str(caught.value) == (
        f"players: at most {MAX_PLAYERS} players can be planned at once, not {players}"
    )


# The lines construction --------------------------------------------------------------------------


LINE_FIELDS = [*range(20, 140), 250, 481, 502, 723, 1000, 1203]


@pytest.mark.parametrize(
    ("players", "fives"),
    [(p, False) for p in LINE_FIELDS] + [(p, True) for p in LINE_FIELDS if p % 4],
)
def test_the_lines_never_repeat_a_meeting_and_turn_byes_and_fifth_places(
    players: int, fives: bool
) -> None:
    layout = Layout.of(players, tables_of_five=fives)
    rounds = lines(layout, 40)
    assert len(rounds) == min(40, line_rounds(layout))
    # At least a third of the tables (a quarter with players beyond a multiple of four).
    assert line_rounds(layout) >= layout.tables // (4 if players % 4 else 3)
    assert max(design_meetings(rounds, players).values()) == 1
    sat_out = [p for grouping in rounds for p in grouping.byes]
    fifth = [t[4] for grouping in rounds for t in grouping.tables if len(t) == 5]
    assert len(sat_out) == len(rounds) * layout.byes
    assert len(fifth) == len(rounds) * layout.fives
    assert len(set(sat_out)) == len(sat_out)
    assert len(set(fifth)) == len(fifth)
    for grouping in rounds:
        sizes = [len(t) for t in grouping.tables]
        assert sizes == sorted(sizes, reverse=True)  # tables of five first


def test_the_lines_give_every_table_a_round_when_the_tables_have_no_factor_2_or_3() -> None:
    assert line_rounds(Layout.of(4 * 251)) == 251
    assert line_rounds(Layout.of(4 * 250)) == 125
    assert line_rounds(Layout.of(4 * 500 + 1)) == 125


# Resolvable designs: 12k + 4 players meet everyone exactly once ---------------------------------


@pytest.mark.parametrize("players", [16, 28, 40, 52, 76, 88, 100, 112, 124, 148, 160])
def test_the_resolvable_construction_lets_every_pair_meet_exactly_once(players: int) -> None:
    rounds = resolvable(players)
    assert len(rounds) == (players - 1) // 3
    met = design_meetings(rounds, players)
    assert len(met) == players * (players - 1) // 2
    assert set(met.values()) == {1}
    assert all(len(table) == 4 for grouping in rounds for table in grouping.tables)


@pytest.mark.parametrize("players", [17, 64, 136, 172])
def test_the_resolvable_construction_needs_a_field_of_q_1_mod_4_elements_or_a_stored_first_round(
    players: int,
) -> None:
    assert resolvable(players) == ()


@pytest.mark.parametrize("q", sorted(STORED_BASES))
def test_a_stored_first_round_uses_each_difference_once(q: int) -> None:
    base = STORED_BASES[q]
    assert len(base) == 3 * (q - 1) // 4
    for row in range(3):
        own = [x for i, x, _ in base if i == row]
        previous = [y for i, _, y in base if i == (row - 1) % 3]
        elements = sorted(e % q for v in own + previous for e in (v, -v))
        assert elements == list(range(1, q))  # each player of the row sits once
        inside = sorted(e % q for v in own + previous for e in (2 * v, -2 * v))
        assert inside == list(range(1, q))
        between = sorted(
            e % q for i, x, y in base if i == row for e in (y - x, x - y, y + x, -y - x)
        )
        assert between == list(range(1, q))  # and 0 from the table of the fixed player


@pytest.mark.parametrize(
    ("players", "rounds"), [(52, 17), (76, 25), (88, 29), (100, 33), (112, 37)]
)
def test_it_plans_the_resolvable_design_for_12k_plus_4_players(players: int, rounds: int) -> None:
    assert max_rounds_without_repeat(players) == rounds
    assert is_known_maximum(players)
    assert len(best_design(Layout.of(players)).rounds) == rounds
    movement = plan_movement(players, rounds, seed=3)
    for plan in movement.rounds:
        assert sorted(plan.players) == list(range(1, players + 1))
        assert all(table.fifth is None for table in plan.tables)
    met = meetings(movement)
    assert len(met) == players * (players - 1) // 2
    assert set(met.values()) == {1}
    assert seat_spread(movement) <= 1
    figures = quality(movement)
    assert figures.rounds_without_repeat == rounds
    assert figures.seat_spread <= 1

"""Plan and re-plan individual movements.

``plan_movement`` takes the longest schedule without a repeated meeting that a construction or a
stored design gives for the field (or finds one by a cyclic search for fields beyond the stored
ones), maps its points to the players (shuffled by the seed), continues round by round with the
local search when more rounds are asked for than it gives, and finally gives seats.

Impossible requests raise ``MovementError`` with a code of ``MESSAGES`` (or of
``engine.movements.layout.MESSAGES`` for a field that cannot be laid out).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import MovementError
from engine.movements.cyclic import find_cyclic
from engine.movements.designs import KNOWN_MAXIMA, Design, best_design, stored_design
from engine.movements.layout import MAX_ROUNDS, Grouping, Layout, counting_bound, pairs_of
from engine.movements.model import Movement, RoundPlan, TablePlan
from engine.movements.search import MeetingState, next_round, repair
from engine.movements.seating import balanced_seats, even_out, seat_counts, seat_map

MESSAGES: Mapping[str, str] = {
    "played_rounds_out_of_range": "played_rounds: must be between 0 and {most}, not {played}",
    "fewer_rounds_than_played": "rounds: {rounds} rounds is fewer than the {played} already played",
    "players_not_a_count": "players: expected a number of players or a list of player numbers",
    "bad_player_number": "players: player numbers must be whole numbers from 1, not {player}",
    "players_listed_twice": "players: player(s) {players} are listed more than once",
    "rounds_out_of_range": "rounds: must be a whole number from 1 to {most}, not {rounds}",
}
"""Every code of the planner's errors and its English message, parameters named in braces."""

#: Effort of the cyclic search for fields without a stored design: swap evaluations, roughly.
_CYCLIC_EFFORT = 600_000
#: Larger fields skip the cyclic search: its table of pairs grows as players², and their lines
#: construction already gives a third of the tables in rounds (a quarter with byes).
_CYCLIC_MOST_PLAYERS = 400
#: Budget for schedules searched from scratch as an alternative (tries × players², roughly).
_SCRATCH_BUDGET = 10_000


def max_rounds_without_repeat(players: int, *, tables_of_five: bool = False) -> int:
    """The most rounds without a repeated meeting: the known maximum where one is known.

    Known: 16 → 5, 20 → 5, 24 → 7, 28 → 9, 32 → 10, 40 → 13, and 12k + 4 players → 4k + 1 (a
    resolvable design: everyone meets everyone exactly once). Otherwise the counting bound, which
    is an upper limit that may not be reachable.
    """
    layout = Layout.of(players, tables_of_five)
    if layout.byes == 0 and layout.fives == 0:
        if players in KNOWN_MAXIMA:
            return KNOWN_MAXIMA[players]
        if players % 12 == 4:
            return (players - 1) // 3
    return counting_bound(layout)


def is_known_maximum(players: int, *, tables_of_five: bool = False) -> bool:
    """Whether ``max_rounds_without_repeat`` is a proven maximum rather than an upper bound."""
    layout = Layout.of(players, tables_of_five)
    if counting_bound(layout) == 1:
        return True
    if layout.byes == 0 and layout.fives == 0:
        return players in KNOWN_MAXIMA or players % 12 == 4
    return False


def plan_movement(
    players: int | Sequence[int],
    rounds: int,
    *,
    tables_of_five: bool = False,
    seed: int = 0,
) -> Movement:
    """A movement of ``rounds`` rounds for ``players`` (a count, numbered from 1, or the numbers).

    Players left over beyond a multiple of four sit out in turn, or, with ``tables_of_five``, sit
    as fifth players. The same arguments always give the same movement; another seed gives another
    one of the same quality (for a stored or built design) or close to it (for a searched one).
    """
    roster = _roster(players)
    layout = Layout.of(len(roster), tables_of_five)
    _check_rounds(rounds)
    rng = random.Random(seed)
    design = design_for(layout, rounds, seed)
    labels = list(roster)
    if seed:
        rng.shuffle(labels)
    groupings = [grouping.relabel(labels) for grouping in design.rounds[:rounds]]
    if len(groupings) < rounds:
        kept = len(groupings)
        groupings = _extend(groupings, roster, layout, rounds, rng)
        # Small fields: a schedule searched from scratch sometimes goes further without a repeat.
        tries = min(4, _SCRATCH_BUDGET // (layout.players * layout.players))
        for attempt in range(tries):
            other = _extend([], roster, layout, rounds, random.Random(f"{seed}/{attempt}"))
            if _score(other) > _score(groupings):
                groupings, kept = other, 0
        # Then the searched rounds are improved together; the design's rounds stay as they are.
        state = MeetingState(roster)
        state.add_rounds(groupings)
        groupings = repair(state, groupings, kept, rng)
    seated = balanced_seats(groupings, roster)
    return Movement(roster, _round_plans(groupings, seated, 1), tables_of_five)


def _extend(
    groupings: list[Grouping],
    roster: Sequence[int],
    layout: Layout,
    rounds: int,
    rng: random.Random,
) -> list[Grouping]:
    """Add rounds by the round-by-round search until there are ``rounds``."""
    state = MeetingState(roster)
    state.add_rounds(groupings)
    result = list(groupings)
    while len(result) < rounds:
        grouping = next_round(state, layout, rng)
        state.add_round(grouping)
        result.append(grouping)
    return result


def _score(groupings: Sequence[Grouping]) -> tuple[int, int]:
    """(rounds without a repeat, minus the repeated meetings): higher is better."""
    met: set[tuple[int, int]] = set()
    clean, repeats = len(groupings), 0
    for number, grouping in enumerate(groupings):
        for table in grouping.tables:
            for a, b in pairs_of(table):
                key = (min(a, b), max(a, b))
                if key in met:
                    repeats += 1
                    clean = min(clean, number)
                met.add(key)
    return clean, -repeats


def design_for(layout: Layout, rounds: int, seed: int = 0) -> Design:
    """The design a movement of ``rounds`` rounds starts from (points 0 .. players - 1)."""
    design = best_design(layout, rounds)
    if len(design.rounds) >= rounds or stored_design(layout) is not None:
        return design
    # A field without a stored design: try a cyclic design of as many rounds as can help.
    target = min(rounds, counting_bound(layout))
    if target <= len(design.rounds) or layout.players > _CYCLIC_MOST_PLAYERS:
        return design
    found = find_cyclic(
        layout, target, random.Random(seed), max_steps=max(200, _CYCLIC_EFFORT // layout.players**2)
    )
    if found is None:
        return design
    return Design(f"cyclic design of {target} rounds (searched)", found.develop())


def replan(
    movement: Movement,
    played_rounds: int,
    players: Sequence[int],
    *,
    rounds: int | None = None,
    tables_of_five: bool | None = None,
    seed: int = 0,
) -> Movement:
    """Keep the first ``played_rounds`` rounds and plan the rest for a changed list of players.

    ``players`` is everyone who plays from now on (late arrivals added, withdrawals left out);
    ``rounds`` is the new total (the movement's length by default). New rounds avoid every meeting
    that already happened; rounds a player missed count as rounds sat out, so a late arrival is
    not made to sit out again before the others have; seats even out over the whole event.
    """
    if not 0 <= played_rounds <= len(movement.rounds):
        raise _error("played_rounds_out_of_range", most=len(movement.rounds), played=played_rounds)
    total = len(movement.rounds) if rounds is None else rounds
    _check_rounds(total)
    if total < played_rounds:
        raise _error("fewer_rounds_than_played", rounds=total, played=played_rounds)
    fives = movement.tables_of_five if tables_of_five is None else tables_of_five
    roster = _roster(players)
    layout = Layout.of(len(roster), fives)
    rng = random.Random(seed)
    played = movement.rounds[:played_rounds]
    state = MeetingState(roster)
    for plan in played:
        state.add_round(_grouping(plan))
    # The rounds as planned before are the best place to start from: they already avoid the
    # meetings of the played rounds. Rounds beyond the old length come from a longer plan.
    templates = [_grouping(plan) for plan in movement.rounds[played_rounds:total]]
    if len(movement.rounds) < total:
        longer = plan_movement(
            list(movement.players), total, tables_of_five=movement.tables_of_five, seed=seed
        )
        templates += [_grouping(plan) for plan in longer.rounds[len(movement.rounds) :]]
    groupings: list[Grouping] = [_grouping(plan) for plan in played]
    for template in templates:
        grouping = next_round(state, layout, rng, template=template)
        state.add_round(grouping)
        groupings.append(grouping)
    groupings = repair(state, groupings, played_rounds, rng)[played_rounds:]
    seated = balanced_seats(groupings, roster)
    earlier = seat_counts([[table.players for table in plan.tables] for plan in played])
    even_out(seated, earlier)
    everyone = tuple(sorted(set(movement.players) | set(roster)))
    new_rounds = _round_plans(groupings, seated, played_rounds + 1)
    return Movement(everyone, played + new_rounds, fives or movement.tables_of_five)


def to_json(movement: Movement) -> dict[str, Any]:
    """The movement as the command line prints it."""
    return movement.to_json()


def _grouping(plan: RoundPlan) -> Grouping:
    return Grouping(tuple(table.players for table in plan.tables), plan.byes)


def _round_plans(
    groupings: Sequence[Grouping], seated: Sequence[Sequence[tuple[int, ...]]], first: int
) -> tuple[RoundPlan, ...]:
    plans = []
    for r, (grouping, tables) in enumerate(zip(groupings, seated, strict=True)):
        plans.append(
            RoundPlan(
                first + r,
                tuple(
                    TablePlan(t, seat_map(table), table[4] if len(table) == 5 else None)
                    for t, table in enumerate(tables, start=1)
                ),
                tuple(sorted(grouping.byes)),
            )
        )
    return tuple(plans)


def _roster(players: int | Sequence[int]) -> tuple[int, ...]:
    if isinstance(players, bool):
        raise _error("players_not_a_count")
    if isinstance(players, int):
        Layout.of(players)  # says what is wrong with the count
        return tuple(range(1, players + 1))
    roster = tuple(players)
    for p in roster:
        if not isinstance(p, int) or isinstance(p, bool) or p < 1:
            raise _error("bad_player_number", player=repr(p))
    if len(set(roster)) != len(roster):
        twice = sorted({p for p in roster if roster.count(p) > 1})
        raise _error("players_listed_twice", players=str(twice))
    return tuple(sorted(roster))


def _check_rounds(rounds: int) -> None:
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise _error("rounds_out_of_range", most=MAX_ROUNDS, rounds=repr(rounds))


def _error(code: str, **params: str | int) -> MovementError:
    return MovementError(MESSAGES[code].format(**params), code=code, params=params)

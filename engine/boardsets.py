"""Which boards each table plays in each round of a movement.

Two ways to run the boards of a duplicate event:

* **Same boards everywhere** (``same_boards``): in round r every table plays boards
  ``(r-1)·b + 1 .. r·b``, each table from its own copy (a dealing machine or hand records make one
  copy per table). Nobody can meet a board twice, since every round has new boards.
* **Travelling sets** (``travelling_sets``): ``sets`` sets of ``b`` boards each (set s holds boards
  ``(s-1)·b + 1 .. s·b``) move from table to table between rounds. A player must never meet a set
  twice, so each round sets go to tables none of whose players has played them. Supported:

  - more sets than tables: the spare sets rest on a relay stand for that round;
  - ``share=2``: two tables may play one set in the same round, exchanging boards as they go
    (both tables start on different boards of the set), so fewer sets than tables can do;
  - a fifth player at a table plays that table's boards too, so they count as meeting the set.

  Impossible requests raise ``MovementError``: fewer sets (times ``share``) than tables in a round,
  a player playing more rounds than there are sets, or no assignment found for some round. Each
  has a code of ``MESSAGES`` and the parameters of its message.

Pure functions: the movement in, a ``BoardPlan`` out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.errors import MovementError
from engine.movements import Movement

MESSAGES: Mapping[str, str] = {
    "no_such_table": "round {round}, table {table}: no such table in the plan",
    "bad_share": "share: 1 (one table per set) or 2 (two tables share a set), not {share}",
    "too_few_sets_for_tables": (
        "sets: round {round} has {tables} tables, so at least {need} sets are needed, not {sets}"
    ),
    "too_few_sets_for_shared_tables": (
        "sets: round {round} has {tables} tables, so at least {need} sets are needed when two "
        "tables share a set, not {sets}"
    ),
    "too_few_sets_for_rounds": (
        "sets: player {player} plays {rounds} rounds, so at least {rounds} sets are needed for "
        "nobody to meet a board twice, not {sets}"
    ),
    "no_set_plan": (
        "sets: no way found to move {sets} sets so that nobody meets a board twice; this "
        "movement needs {fewest} sets (or fewer if two tables share a set)"
    ),
    "no_shared_set_plan": (
        "sets: no way found to move {sets} sets so that nobody meets a board twice; this "
        "movement needs {fewest} sets"
    ),
    "plan_rounds_mismatch": "rounds: the board plan has {plan} rounds, the movement {movement}",
    "plan_tables_mismatch": (
        "round {round}: the board plan has {plan} tables, the movement {movement}"
    ),
    "set_at_tables": "round {round}: set {set} is at {tables} tables at once",
    "board_twice": "player {player} plays board {board} twice (rounds {first} and {second})",
    "not_positive": "{name}: must be a whole number of 1 or more, not {value}",
}
"""Every code of a board plan's errors and its English message, parameters named in braces."""

#: Restarts of the set assignment (each one shuffles the order in which tables choose).
_ATTEMPTS = 60


@dataclass(frozen=True)
class TableBoards:
    """The boards one table plays in one round; ``board_set`` is the travelling set, if any."""

    round: int
    table: int
    boards: tuple[int, ...]
    board_set: int | None = None


@dataclass(frozen=True)
class BoardPlan:
    """The boards of every table in every round (``rounds[r - 1][t - 1]`` is round r, table t)."""

    boards_per_round: int
    rounds: tuple[tuple[TableBoards, ...], ...]
    sets: int | None = None
    share: int = 1

    def boards_at(self, round: int, table: int) -> tuple[int, ...]:
        """The boards table ``table`` plays in round ``round`` (both numbered from 1)."""
        try:
            return self.rounds[round - 1][table - 1].boards
        except IndexError:
            raise _error("no_such_table", round=round, table=table) from None

    @property
    def boards(self) -> int:
        """How many different boards the event uses."""
        return len({b for tables in self.rounds for t in tables for b in t.boards})

    @property
    def copies(self) -> int:
        """How many physical copies of a board are needed at once (tables in the fullest round)."""
        if self.sets is not None:
            return 1
        return max((len(tables) for tables in self.rounds), default=0)

    def to_json(self) -> dict[str, object]:
        return {
            "boards_per_round": self.boards_per_round,
            "sets": self.sets,
            "share": self.share,
            "rounds": [
                {
                    "round": r,
                    "tables": [
                        {"table": t.table, "set": t.board_set, "boards": list(t.boards)}
                        for t in tables
                    ],
                }
                for r, tables in enumerate(self.rounds, start=1)
            ],
        }


def same_boards(movement: Movement, boards_per_round: int) -> BoardPlan:
    """Every table plays the same boards in a round: round r plays ``(r-1)·b + 1 .. r·b``."""
    _check_positive(boards_per_round, "boards_per_round")
    rounds = []
    for plan in movement.rounds:
        first = (plan.round - 1) * boards_per_round + 1
        boards = tuple(range(first, first + boards_per_round))
        rounds.append(tuple(TableBoards(plan.round, t.table, boards) for t in plan.tables))
    return BoardPlan(boards_per_round, tuple(rounds))


def travelling_sets(
    movement: Movement, sets: int, boards_per_set: int, *, share: int = 1, seed: int = 0
) -> BoardPlan:
    """Sets of boards that travel between tables so that nobody meets a board twice.

    Where it can, a set moves down one table each round (set s starts at table s; in round r table
    t plays set ``(t + r - 2) mod sets + 1``), which is what players expect; otherwise it goes to a
    table whose players have not met it, the least-played set first.
    """
    _check_positive(sets, "sets")
    _check_positive(boards_per_set, "boards_per_set")
    if share not in (1, 2):
        raise _error("bad_share", share=share)
    for plan in movement.rounds:
        if len(plan.tables) > sets * share:
            raise _error(
                "too_few_sets_for_shared_tables" if share == 2 else "too_few_sets_for_tables",
                round=plan.round,
                tables=len(plan.tables),
                need=-(-len(plan.tables) // share),
                sets=sets,
            )
    rounds_played: dict[int, int] = {}
    for plan in movement.rounds:
        for table in plan.tables:
            for p in table.players:
                rounds_played[p] = rounds_played.get(p, 0) + 1
    busiest = max(rounds_played.items(), key=lambda item: (item[1], -item[0]), default=(0, 0))
    if busiest[1] > sets:
        raise _error("too_few_sets_for_rounds", player=busiest[0], rounds=busiest[1], sets=sets)
    assignment = _find_assignment(movement, sets, share, seed)
    if assignment is not None:
        rounds = []
        for plan, chosen in zip(movement.rounds, assignment, strict=True):
            rounds.append(
                tuple(
                    TableBoards(plan.round, table.table, _set_boards(s, boards_per_set), s)
                    for table, s in zip(plan.tables, chosen, strict=True)
                )
            )
        board_plan = BoardPlan(boards_per_set, tuple(rounds), sets, share)
        check_board_plan(movement, board_plan)
        return board_plan
    fewest = fewest_sets(movement, share=share, seed=seed)
    raise _error("no_set_plan" if share == 1 else "no_shared_set_plan", sets=sets, fewest=fewest)


def fewest_sets(movement: Movement, *, share: int = 1, seed: int = 0) -> int:
    """The fewest travelling sets for which ``travelling_sets`` finds a plan for this movement.

    In an individual movement the players at a table come from different tables of earlier rounds,
    so together they have met many sets: expect to need far more sets than tables.
    """
    tables = max((len(plan.tables) for plan in movement.rounds), default=1)
    rounds_played: dict[int, int] = {}
    for plan in movement.rounds:
        for table in plan.tables:
            for p in table.players:
                rounds_played[p] = rounds_played.get(p, 0) + 1
    sets = max(-(-tables // share), max(rounds_played.values(), default=1))
    while _find_assignment(movement, sets, share, seed) is None:
        sets += 1
    return sets


def _find_assignment(
    movement: Movement, sets: int, share: int, seed: int
) -> list[list[int]] | None:
    """Sets for every table in every round; without sharing if that works, else with it."""
    for capacity in sorted({1, share}):
        if capacity * sets < max((len(plan.tables) for plan in movement.rounds), default=0):
            continue
        rng = random.Random(seed)
        for attempt in range(_ATTEMPTS):
            assignment = _assign_sets(movement, sets, capacity, rng, shuffle=attempt > 0)
            if assignment is not None:
                return assignment
    return None


def _set_boards(board_set: int, boards_per_set: int) -> tuple[int, ...]:
    first = (board_set - 1) * boards_per_set + 1
    return tuple(range(first, first + boards_per_set))


def _assign_sets(
    movement: Movement, sets: int, share: int, rng: random.Random, shuffle: bool
) -> list[list[int]] | None:
    """Sets for every table, round by round, by bipartite matching; None when a round fails."""
    seen: dict[int, set[int]] = {}
    played = [0] * (sets + 1)
    result = []
    for plan in movement.rounds:
        tables = plan.tables
        allowed = []
        for k, table in enumerate(tables):
            met = set().union(*(seen.get(p, set()) for p in table.players))
            natural = (k + plan.round - 1) % sets + 1
            options = [s for s in range(1, sets + 1) if s not in met]
            ties = {s: rng.random() if shuffle else 0.0 for s in options}
            options.sort(key=lambda s: (s != natural, played[s], ties[s], s))
            allowed.append(options)
        order = list(range(len(tables)))
        if shuffle:
            rng.shuffle(order)
        chosen = _match(allowed, order, share)
        if chosen is None:
            return None
        for table, s in zip(tables, chosen, strict=True):
            played[s] += 1
            for p in table.players:
                seen.setdefault(p, set()).add(s)
        result.append(chosen)
    return result


def _match(allowed: Sequence[Sequence[int]], order: Sequence[int], share: int) -> list[int] | None:
    """A set for every table, each set used by at most ``share`` tables (augmenting paths)."""
    holders: dict[int, list[int]] = {}
    chosen = [0] * len(allowed)

    def place(k: int, visited: set[int]) -> bool:
        for s in allowed[k]:
            if s in visited:
                continue
            visited.add(s)
            at = holders.setdefault(s, [])
            if len(at) < share:
                at.append(k)
                chosen[k] = s
                return True
            for other in list(at):
                if place(other, visited):
                    at.remove(other)
                    at.append(k)
                    chosen[k] = s
                    return True
        return False

    for k in order:
        if not place(k, set()):
            return None
    return chosen


def boards_played(movement: Movement, plan: BoardPlan) -> dict[int, list[tuple[int, int]]]:
    """For each player, the ``(round, board)`` pairs they play, in order."""
    played: dict[int, list[tuple[int, int]]] = {}
    for round_plan in movement.rounds:
        for table in round_plan.tables:
            boards = plan.boards_at(round_plan.round, table.table)
            for p in table.players:
                played.setdefault(p, []).extend((round_plan.round, b) for b in boards)
    return played


def check_board_plan(movement: Movement, plan: BoardPlan) -> None:
    """Raise ``MovementError`` if the plan does not fit the movement or a player meets a board twice."""
    if len(plan.rounds) != len(movement.rounds):
        raise _error("plan_rounds_mismatch", plan=len(plan.rounds), movement=len(movement.rounds))
    for round_plan, tables in zip(movement.rounds, plan.rounds, strict=True):
        if len(tables) != len(round_plan.tables):
            raise _error(
                "plan_tables_mismatch",
                round=round_plan.round,
                plan=len(tables),
                movement=len(round_plan.tables),
            )
        if plan.sets is not None:
            at: dict[int, int] = {}
            for t in tables:
                if t.board_set is not None:
                    at[t.board_set] = at.get(t.board_set, 0) + 1
            crowded = [s for s, count in at.items() if count > plan.share]
            if crowded:
                raise _error(
                    "set_at_tables",
                    round=round_plan.round,
                    set=crowded[0],
                    tables=at[crowded[0]],
                )
    for player, boards in boards_played(movement, plan).items():
        first_seen: dict[int, int] = {}
        for r, board in boards:
            if board in first_seen and first_seen[board] != r:
                raise _error(
                    "board_twice", player=player, board=board, first=first_seen[board], second=r
                )
            first_seen.setdefault(board, r)


def _check_positive(value: int, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _error("not_positive", name=name, value=repr(value))


def _error(code: str, **params: str | int) -> MovementError:
    return MovementError(MESSAGES[code].format(**params), code=code, params=params)

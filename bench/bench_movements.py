"""Movements: generation time and quality, from club fields to federation events.

For each field of the first table the movement asks for as many rounds as could possibly be
played without a repeated meeting (the known maximum, or the counting bound where none is known)
and reports the rounds actually reached, the seat balance, the bye spread and the median
generation time. A second column shows what the round-by-round search reaches on its own,
without constructions or stored designs, for comparison.

The second table plans events of a federation's size (1,000 and 2,000 players, with byes and with
tables of five) for the rounds such an event plays, and checks every pair of players.

    .venv/bin/python -m bench.bench_movements
"""

from __future__ import annotations

import random
from functools import partial

from bench.common import median_seconds, report
from engine.movements import (
    is_known_maximum,
    max_rounds_without_repeat,
    plan_movement,
    quality,
)
from engine.movements.layout import Layout
from engine.movements.planner import design_for
from engine.movements.search import MeetingState, next_round

FIELDS = (16, 20, 24, 28, 32, 40, 48, 52, 64, 76, 88, 100, 128, 160, 200)
#: Seconds one schedule may take at most (the brief for the planner: "a few seconds").
TARGET_SECONDS = 3.0
#: Federation events: (players, rounds, tables of five).
EVENTS = (
    (1000, 10, False),
    (1001, 10, False),
    (1003, 10, True),
    (2000, 8, False),
    (2002, 8, False),
    (2003, 8, True),
)
#: Seconds a federation event's movement may take at most.
EVENT_TARGET_SECONDS = 5.0


def search_only(players: int, rounds: int) -> int:
    """Rounds without a repeat reached by the round-by-round search alone."""
    layout = Layout.of(players)
    state = MeetingState(range(1, players + 1))
    rng = random.Random(0)
    for number in range(rounds):
        grouping = next_round(state, layout, rng)
        for table in grouping.tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    if state.meets[state.index[a]][state.index[b]]:
                        return number
        state.add_round(grouping)
    return rounds


def main() -> None:
    header = (
        f"{'players':>7} {'rounds':>6} {'no repeat':>9} {'max':>5} {'search':>6} "
        f"{'seats':>5} {'byes':>4} {'median s':>8}  source"
    )
    print(header)
    print("-" * len(header))
    slowest = 0.0
    for players in FIELDS:
        rounds = max_rounds_without_repeat(players)
        runs = 3 if players <= 100 else 1
        seconds = median_seconds(partial(plan_movement, players, rounds), runs=runs, warmup=0)
        slowest = max(slowest, seconds)
        figures = quality(plan_movement(players, rounds))
        known = "" if is_known_maximum(players) else "≤"
        alone = search_only(players, rounds)
        source = design_for(Layout.of(players), rounds).source
        print(
            f"{players:>7} {rounds:>6} {figures.rounds_without_repeat:>9} {known + str(rounds):>5} "
            f"{alone:>6} {figures.seat_spread:>5} {figures.bye_spread:>4} {seconds:>8.2f}  {source}"
        )
    print()
    report("slowest movement", slowest, "s", TARGET_SECONDS, higher_is_better=False)
    print()
    events()


def events() -> None:
    """Federation-size events: median time of five runs, beside the target, and the figures."""
    header = (
        f"{'players':>7} {'rounds':>6} {'layout':>6} {'no repeat':>9} {'pairs met twice':>15} "
        f"{'seats':>5} {'byes':>4} {'fifths':>6} {'median s':>8} {'target':>6}  source"
    )
    print(header)
    print("-" * len(header))
    slowest = 0.0
    for players, rounds, fives in EVENTS:
        work = partial(plan_movement, players, rounds, tables_of_five=fives)
        seconds = median_seconds(work, runs=5, warmup=0)
        slowest = max(slowest, seconds)
        figures = quality(work())
        twice = sum(count for times, count in figures.meetings.items() if times > 1)
        source = design_for(Layout.of(players, fives), rounds).source
        print(
            f"{players:>7} {rounds:>6} {'fives' if fives else 'byes':>6} "
            f"{figures.rounds_without_repeat:>9} {twice:>15} {figures.seat_spread:>5} "
            f"{figures.bye_spread:>4} {figures.fifth_spread:>6} {seconds:>8.2f} "
            f"{EVENT_TARGET_SECONDS:>6.1f}  {source}"
        )
    print()
    report("slowest event", slowest, "s", EVENT_TARGET_SECONDS, higher_is_better=False)


if __name__ == "__main__":
    main()

"""Creating a 400-player event with all its rounds, seating and boards, through the services.

Run: ``python -m bench.bench_event`` (SQLite) or with ``DATABASE_URL=postgres://...``.
"""

from __future__ import annotations

import datetime as dt
import itertools
import statistics
import time

from bench import django_env
from bench.common import report

PLAYERS = 400
ROUNDS = 10
BOARDS_PER_ROUND = 8


def create(counter: itertools.count[int]) -> float:
    from tournaments.models import Club, Entry, Player
    from tournaments.services import deals, events, seating
    from tournaments.services.events import EventSettings

    user = django_env.td()
    start = time.perf_counter()
    event = events.create_event(
        user,
        EventSettings(
            name="Championship",
            date=dt.date(2026, 12, 5),
            game="kleurenwiezen",
            ruleset_name="whisthub",
            rounds=ROUNDS,
            boards_per_round=BOARDS_PER_ROUND,
            slug=f"championship-{next(counter)}",
        ),
    )
    clubs = [Club.objects.get_or_create(name=f"Club {i}")[0] for i in range(20)]
    # A federation's list of players arrives as a file: one bulk insert, as the CSV import does
    # row by row (the import's own cost is measured by the tests, not here).
    players = Player.objects.bulk_create(
        Player(first_name=f"Speler{i}", last_name=f"Nummer{i}", club=clubs[i % 20])
        for i in range(PLAYERS)
    )
    Entry.objects.bulk_create(
        Entry(event=event, player=player, number=i + 1) for i, player in enumerate(players)
    )
    seating.generate_movement(user, event)
    deals.generate_deals(user, event)
    return time.perf_counter() - start


def main() -> None:
    where = django_env.setup()
    print(
        f"Creating a {PLAYERS}-player event ({ROUNDS} rounds of {BOARDS_PER_ROUND} boards) on {where}"
    )
    counter = itertools.count(1)
    create(counter)  # warm-up
    times = [create(counter) for _ in range(3)]
    from tournaments.models import Board, Seating, TableBoard

    print(
        f"  per event: {Seating.objects.count() // 4:,} seatings, {Board.objects.count() // 4:,} "
        f"boards, {TableBoard.objects.count() // 4:,} table boards"
    )
    report(
        "event with movement and deals", statistics.median(times), "s", 10, higher_is_better=False
    )


if __name__ == "__main__":
    main()

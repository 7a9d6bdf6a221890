"""A federation championship with every result in, built in a minute instead of keyed for ten.

The event, its players, the movement, the deals and the opening of every round go through the
services as the site does; the 20,000 table results are then bulk-inserted as current versions,
each line checked and scored against its board's cards by ``results.check`` exactly as
``results.record_result`` stores it (kind, notation, data and the four scores). The standings
row is marked behind by one request, as a save would leave it.

Run alone (``python -m bench.championship_event``) it builds the event in ``<name>_bench`` of
DATABASE_URL and prints what it made; the other benchmarks import ``build``.
"""

from __future__ import annotations

import contextlib
import random
import time
from typing import Any

from bench import django_env

LINES_PER_BOARD = 6


def plausible_lines(event: Any, rng: random.Random) -> dict[int, list[Any]]:
    """For each board, a few result lines its cards allow, checked and scored by the service."""
    from bench.bench_championship import random_result
    from tournaments.errors import UserError
    from tournaments.services import results

    lines: dict[int, list[Any]] = {}
    for board in event.boards.all():
        found: list[Any] = []
        while len(found) < LINES_PER_BOARD:
            # A line with warnings is kept too: the keyer confirms it, as the bench's keyers do.
            with contextlib.suppress(UserError):
                found.append(results.check(event, board, random_result(rng)))
        lines[board.pk] = found
    return lines


def open_every_round(event: Any) -> None:
    from tournaments.models import Round
    from tournaments.services import rounds

    user = django_env.td()
    for round_ in Round.objects.filter(event=event).order_by("number"):
        rounds.open_round(user, round_)


def fill_results(event: Any, rng: random.Random) -> int:
    """A current, confirmed result on every board of every table; the number inserted."""
    from tournaments.models import Result, Standings, TableBoard

    user = django_env.td()
    lines = plausible_lines(event, rng)
    rows = []
    for table_id, board_id in (
        TableBoard.objects.filter(table__round__event=event)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table_id", "board_id")
    ):
        checked = rng.choice(lines[board_id])
        n, e, s, w = checked.scores
        rows.append(
            Result(
                event=event,
                table_id=table_id,
                board_id=board_id,
                kind=Result.Kind.PLAYED,
                status=Result.Status.CONFIRMED,
                notation=checked.notation,
                data=checked.result.to_json(),
                score_n=n,
                score_e=e,
                score_s=s,
                score_w=w,
                entered_by=user,
            )
        )
    Result.objects.bulk_create(rows, batch_size=2000)
    state, _created = Standings.objects.get_or_create(event=event)
    Standings.objects.filter(pk=state.pk).update(requested=state.requested + 1)
    return len(rows)


def build(players: int, rng: random.Random) -> Any:
    """The championship of ``players`` players with every round open and every result in."""
    from bench.bench_championship import create_event
    from tournaments.models import Event
    from tournaments.services import deals, seating

    user = django_env.td()
    event = create_event(players)
    seating.generate_movement(user, event)
    deals.generate_deals(user, event)
    open_every_round(event)
    fill_results(event, rng)
    return Event.objects.get(pk=event.pk)


def main() -> None:
    where = django_env.setup()
    from tournaments.models import Result

    start = time.perf_counter()
    event = build(1000, random.Random(1000))
    count = Result.objects.filter(event=event, is_current=True).count()
    print(
        f"event {event.pk} ({event.slug}) with {count:,} results on {where} "
        f"in {time.perf_counter() - start:,.1f} s"
    )


if __name__ == "__main__":
    main()

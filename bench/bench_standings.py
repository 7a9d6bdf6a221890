"""Results and standings at championship size: 400 players, 100 tables, 10 rounds of 8 boards.

Prints three figures:
- recomputing the standings of 8,000 table results (target: under 1 s);
- the server time of saving one result (target: under 100 ms);
- how long a saved result takes to reach the public standings (target: under 2 s), through a real
  Celery worker when CELERY_BROKER_URL is set (started here), else in-process.

Run: ``DATABASE_URL=postgres://... CELERY_BROKER_URL=redis://... python -m bench.bench_standings``.
"""

from __future__ import annotations

import contextlib
import random
import statistics
import time
from pathlib import Path
from typing import Any

from bench import django_env
from bench.common import median_seconds, report

ROOT = Path(__file__).resolve().parent.parent


def build_event() -> Any:
    import itertools

    from bench.bench_event import create

    create(itertools.count(1))
    from tournaments.models import Event, Round
    from tournaments.services import rounds

    event = Event.objects.get(slug="championship-1")
    rounds.open_round(django_env.td(), event.round_set.get(number=1))  # starts the event too
    Round.objects.filter(event=event).update(status=Round.Status.OPEN)
    return Event.objects.get(pk=event.pk)


def fill_results(event: Any, rng: random.Random) -> int:
    """Every table's result on every board: random results the ruleset allows, scored by the engine."""
    from engine.cards import SEATS, Suit
    from engine.notation import format_result_line
    from engine.results import BoardResult, Contract
    from engine.scoring import score
    from tournaments.models import Result, TableBoard
    from tournaments.services import events

    ruleset = events.ruleset_of(event)
    rows = []
    for link in TableBoard.objects.filter(table__round__event=event).select_related(
        "table", "board"
    ):
        declarers = tuple(rng.sample(SEATS, 2))
        level = rng.choice((8, 9, 10))
        result = BoardResult(
            Contract.ACCEPT, level, rng.choice(list(Suit)), declarers, tricks=rng.randint(5, 13)
        )
        n, e, s, w = score(ruleset, result)
        rows.append(
            Result(
                event=event,
                table=link.table,
                board=link.board,
                notation=format_result_line(result),
                data=result.to_json(),
                score_n=n,
                score_e=e,
                score_s=s,
                score_w=w,
            )
        )
    Result.objects.bulk_create(rows, batch_size=2000)
    return len(rows)


def main() -> None:
    where = django_env.setup()
    from django.conf import settings

    from tournaments.services import standings

    rng = random.Random(7)
    event = build_event()
    count = fill_results(event, rng)
    print(f"{count:,} table results of a 400-player event on {where}")

    seconds = median_seconds(lambda: standings.compute(event), runs=5)
    report("recompute standings (8,000 results)", seconds, "s", 1.0, higher_is_better=False)

    with contextlib.ExitStack() as stack:
        worker = not settings.CELERY_TASK_ALWAYS_EAGER
        if worker:
            from config.celery import app
            from config.worker import running_worker

            queue = stack.enter_context(running_worker())
            app.conf.task_always_eager = False
            app.conf.task_routes = {"troef.compute_standings": {"queue": queue}}
            print(
                f"  (a Celery worker runs the standings job, broker {settings.CELERY_BROKER_URL})"
            )
        else:
            print("  (no CELERY_BROKER_URL: the standings job runs in-process after each save)")
        measure_saves(event, worker)


def measure_saves(event: Any, worker: bool) -> None:
    from tournaments.models import Result, Standings, Table
    from tournaments.services import results, standings

    user = django_env.td()
    tables = list(Table.objects.filter(round__event=event, round__number=1).order_by("number"))
    standings.refresh(event.pk)
    save_times = []
    visible_times = []
    for i in range(15):
        table = tables[i]
        link = table.table_boards.select_related("board").order_by("position")[0]
        current = Result.objects.get(table=table, board=link.board, is_current=True)
        start = time.perf_counter()
        saved = results.record_result(
            user,
            table,
            link.board,
            "pass",
            expected_version=current.version,
            reason="bench correction",
        )
        save_times.append(time.perf_counter() - start)
        wanted = Standings.objects.get(event=event).requested
        while True:
            state = Standings.objects.get(event=event)
            if state.computed >= wanted:
                break
            if time.perf_counter() - start > 30:
                raise SystemExit("the standings did not update within 30 s: is the worker running?")
            time.sleep(0.01)
        visible_times.append(time.perf_counter() - start)
        assert saved.notation == "pass"
    if worker:
        report(
            "save one result (server time)",
            statistics.median(save_times) * 1000,
            "ms",
            100,
            higher_is_better=False,
        )
    else:
        print(
            f"save one result including the in-process recomputation: "
            f"{statistics.median(save_times) * 1000:,.1f} ms (the 100 ms target needs a worker)"
        )
    report(
        "saved result visible in the standings",
        statistics.median(visible_times),
        "s",
        2.0,
        higher_is_better=False,
    )


if __name__ == "__main__":
    main()

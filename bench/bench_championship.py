"""A federation's day: 1,000 players at 250 tables, 10 rounds of 8 boards, end to end.

Every stage goes through the services as the site does, on PostgreSQL with a real Celery worker
for the standings, and prints its time and the peak memory of this process:

1. the event, its 1,000 players and their entries;
2. the movement (10 rounds without a repeated meeting);
3. the deals;
4. 20,000 table results keyed through ``results.record_result``, the worker coalescing the
   standings behind them (the median server time of a save is printed); with ``--bulk`` they are
   bulk-inserted instead, scored as the service scores them (``bench.championship_event``);
5. the standings recomputed from scratch (median of several runs), then recomputed and stored
   after one saved correction (``standings.refresh``, median of several saves);
6. how long a saved result takes to reach the public standings while another process saves ten
   results a second (median and p99);
7. every printed document of the event, one after the other.

Run: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/troef CELERY_BROKER_URL=redis://127.0.0.1:6379/14
python -m bench.bench_championship`` (``--players 200`` for a quick look, ``--bulk`` to skip the
ten minutes of keying, ``--until 5`` to stop after a stage).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench import championship_event, django_env
from bench.common import PeakMemory, median_seconds, report

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 10
BOARDS_PER_ROUND = 8
TARGETS = {
    "movement": 5.0,
    "standings": 0.5,
    "save_ms": 50.0,
    "visible_median": 0.5,
    "visible_p99": 2.0,
    "score_sheets": 2.0,
    "score_cards": 20.0,
    "documents": 60.0,
    "documents_mib": 1024.0,
}


@contextlib.contextmanager
def stage(name: str) -> Iterator[dict[str, float]]:
    """Time a stage and sample its memory; print both when it ends."""
    figures: dict[str, float] = {}
    with PeakMemory() as memory:
        start = time.perf_counter()
        yield figures
        figures["seconds"] = time.perf_counter() - start
    figures["mib"] = memory.mib
    print(f"  {name}: {figures['seconds']:,.2f} s, peak memory {memory.mib:,.0f} MiB", flush=True)


def create_event(players: int) -> Any:
    from tournaments.models import Club, Entry, Event, Player
    from tournaments.services import events
    from tournaments.services.events import EventSettings

    user = django_env.td()
    event = events.create_event(
        user,
        EventSettings(
            name="Federation championship",
            date=dt.date(2026, 12, 12),
            game="kleurenwiezen",
            ruleset_name="whisthub",
            rounds=ROUNDS,
            boards_per_round=BOARDS_PER_ROUND,
            slug="federation-day",
        ),
    )
    clubs = [Club.objects.get_or_create(name=f"Club {i}")[0] for i in range(40)]
    # The federation's list of players arrives as a file: one bulk insert.
    people = Player.objects.bulk_create(
        Player(first_name=f"Speler{i}", last_name=f"Nummer{i}", club=clubs[i % 40])
        for i in range(players)
    )
    Entry.objects.bulk_create(
        Entry(event=event, player=player, number=i + 1) for i, player in enumerate(people)
    )
    return Event.objects.get(pk=event.pk)


def random_result(rng: random.Random) -> str:
    """A result line the Whisthub ruleset accepts: a proposal and acceptance, made or not."""
    seats = "NESW"
    first, second = rng.sample(range(4), 2)
    suit = rng.choice("SHDC")
    level = rng.choice((8, 9))
    tricks = rng.randint(5, 12)
    return f"{seats[first]}{seats[second]} {level}{suit} {tricks}"


def plausible_lines(event: Any, rng: random.Random) -> dict[int, list[str]]:
    """For each board, a few result lines its cards allow (the service checks every line)."""
    from tournaments.errors import UserError
    from tournaments.services import results

    lines: dict[int, list[str]] = {}
    for board in event.boards.all():
        found: list[str] = []
        while len(found) < 6:
            text = random_result(rng)
            with contextlib.suppress(UserError):
                results.check(event, board, text)  # cards that make the line impossible
                found.append(text)
        lines[board.pk] = found
    return lines


def key_results(event_id: int, keyer: int, keyers: int) -> list[float]:
    """This keyer's share of every board's result (its tables), through the service.

    The standings job is not sent while keying (the requests are counted all the same): the
    stage measures the saves, and the standings catch up once, after it.
    """
    from tournaments.models import Event, TableBoard
    from tournaments.services import jobs, results

    jobs.publish = lambda *_args: True  # the job waits for the end of the stage
    user = django_env.td()
    event = Event.objects.get(pk=event_id)
    lines = plausible_lines(event, random.Random(1000))
    rng = random.Random(keyer)
    links = (
        TableBoard.objects.filter(table__round__event=event)
        .select_related("table", "board")
        .order_by("table__round__number", "table__number", "position")
    )
    times = []
    for link in links:
        if link.table.number % keyers != keyer:
            continue
        text = rng.choice(lines[link.board_id])
        start = time.perf_counter()
        results.record_result(user, link.table, link.board, text, confirmed=True)
        times.append(time.perf_counter() - start)
    return times


def keyed_in_parallel(event: Any, keyers: int) -> list[float]:
    """Open every round, then key all results from ``keyers`` processes; every save's time."""
    from tournaments.models import Round
    from tournaments.services import rounds

    user = django_env.td()
    for round_ in Round.objects.filter(event=event).order_by("number"):
        rounds.open_round(user, round_)
    processes = []
    for index in range(keyers):
        command = [
            sys.executable, "-m", "bench.bench_championship",
            "--keyer", f"{index}/{keyers}", "--event", str(event.pk),
        ]  # fmt: skip
        processes.append(subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True))
    times: list[float] = []
    for process in processes:
        out, _err = process.communicate()
        if process.returncode:
            raise SystemExit(f"a keying process failed ({process.returncode})")
        times += json.loads(out.strip().splitlines()[-1])
    return times


def saver(event_id: int, per_second: float, seconds: float) -> None:
    """Correct random results at a steady rate (the other process of stage 6)."""
    from tournaments.errors import UserError
    from tournaments.models import Event, Result
    from tournaments.services import results

    user = django_env.td()
    rng = random.Random(os.getpid())
    lines = plausible_lines(Event.objects.get(pk=event_id), rng)
    places = list(
        Result.objects.filter(event_id=event_id, is_current=True).values_list(
            "table_id", "board_id"
        )
    )
    end = time.monotonic() + seconds
    next_at = time.monotonic()
    while time.monotonic() < end:
        table_id, board_id = rng.choice(places)
        current = (
            Result.objects.select_related("table", "board")
            .filter(table_id=table_id, board_id=board_id, is_current=True)
            .first()
        )
        if current is not None:
            # A conflict with the measuring process is possible and harmless here.
            with contextlib.suppress(UserError):
                results.record_result(
                    user, current.table, current.board, rng.choice(lines[current.board_id]),
                    expected_version=current.version, reason="bench correction", confirmed=True,
                )  # fmt: skip
        next_at += 1 / per_second
        time.sleep(max(0.0, next_at - time.monotonic()))


def visibility(event: Any, rng: random.Random, samples: int) -> tuple[list[float], list[float]]:
    """Save one result at a time; how long until the public standings include it."""
    from tournaments.models import Result, Standings, Table
    from tournaments.services import results

    user = django_env.td()
    lines = plausible_lines(event, rng)
    tables = list(Table.objects.filter(round__event=event).order_by("?")[:samples])
    saves, visible = [], []
    for table in tables:
        link = table.table_boards.select_related("board").order_by("position")[0]
        current = Result.objects.get(table=table, board=link.board, is_current=True)
        start = time.perf_counter()
        results.record_result(
            user, table, link.board, rng.choice(lines[link.board_id]),
            expected_version=current.version, reason="bench correction", confirmed=True,
        )  # fmt: skip
        saves.append(time.perf_counter() - start)
        # Only the counters: the stored document is large, and reading it every few milliseconds
        # would take the processor from the worker being measured.
        counters = Standings.objects.filter(event=event)
        wanted = counters.values_list("requested", flat=True).get()
        while counters.values_list("computed", flat=True).get() < wanted:
            if time.perf_counter() - start > 60:
                raise SystemExit("the standings did not follow within 60 s: is the worker up?")
            time.sleep(0.005)
        visible.append(time.perf_counter() - start)
        time.sleep(rng.uniform(0.1, 0.4))
    return saves, visible


def documents(event: Any) -> list[tuple[str, int | None]]:
    """Every document of the event: each round's score sheets and table cards, the rest once."""
    from documents.models import ReportFile

    kind = ReportFile.Kind
    made: list[tuple[str, int | None]] = []
    for number in range(1, ROUNDS + 1):
        made.append((kind.SCORE_SHEETS, number))
    made += [
        (kind.TABLE_CARDS, None),
        (kind.GUIDE_CARDS, None),
        (kind.HAND_RECORDS, None),
        (kind.DEALING_SLIPS, None),
        (kind.DEALING_MACHINE, None),
        (kind.PBN, None),
        (kind.STANDINGS, None),
        (kind.SCORE_CARDS, None),
        (kind.SUMMARY, None),
    ]
    return made


def from_scratch(event: Any) -> None:
    """The standings of the event computed as if this process had never seen it."""
    from tournaments.services import standings

    standings.forget(event.pk)
    standings.compute(event)


def recomputed_after_saves(
    event: Any, rng: random.Random, samples: int
) -> tuple[list[float], list[float]]:
    """Correct a random result, then recompute and store the standings as the worker does
    (``standings.refresh``, in this process, which saw the event last). Each refresh's time, and
    the part of it before the public standings are committed (the players' board scores are
    written after them, and only when no newer save is waiting)."""
    from tournaments.models import Result
    from tournaments.services import jobs, results, standings

    user = django_env.td()
    lines = plausible_lines(event, rng)
    standings.evaluate(
        event, follow=True
    )  # this process follows the event from here, as the worker does
    send, jobs.publish = jobs.publish, lambda *_args: True  # the worker stays out of it
    store = standings.store_board_scores
    stored: list[float] = []

    def timed_store(event: Any, outcome: Any, computed_at: dt.datetime) -> None:
        start = time.perf_counter()
        store(event, outcome, computed_at)
        stored.append(time.perf_counter() - start)

    standings.store_board_scores = timed_store
    times, public = [], []
    try:
        for _ in range(samples):
            current = (
                Result.objects.filter(event=event, is_current=True)
                .select_related("table", "board")
                .order_by("?")
                .first()
            )
            assert current is not None
            other = [text for text in lines[current.board_id] if text != current.notation]
            results.record_result(
                user, current.table, current.board, rng.choice(other or ["pass"]),
                expected_version=current.version, reason="bench correction", confirmed=True,
            )  # fmt: skip
            before = len(stored)
            start = time.perf_counter()
            standings.refresh(event.pk)
            times.append(time.perf_counter() - start)
            public.append(times[-1] - sum(stored[before:]))
    finally:
        jobs.publish = send
        standings.store_board_scores = store
    return times, public


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--keyers", type=int, default=2, help="processes keying the results")
    # The other processes: stage 4's keyers and stage 6's saver.
    parser.add_argument("--keyer", help=argparse.SUPPRESS)
    parser.add_argument("--event", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--saver", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--samples", type=int, default=40, help="saves timed in stage 6")
    parser.add_argument(
        "--bulk", action="store_true", help="bulk-insert the results instead of keying them"
    )
    parser.add_argument("--until", type=int, default=7, help="the last stage to run")
    args = parser.parse_args()
    if args.saver or args.keyer:
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
        import django

        django.setup()
        if args.saver:
            # Its saves ask the same worker for standings, as another keyer's would.
            from config.celery import app as saver_app

            queue = os.environ.get("TROEF_BENCH_QUEUE", "")
            if queue:
                saver_app.conf.task_routes = {"troef.compute_standings": {"queue": queue}}
            saver(args.saver, 10.0, float(os.environ.get("TROEF_BENCH_SAVER_SECONDS", "60")))
        else:
            index, count = (int(part) for part in args.keyer.split("/"))
            print(json.dumps(key_results(args.event, index, count)))
        return
    where = django_env.setup()
    from django.conf import settings

    if settings.CELERY_TASK_ALWAYS_EAGER or not os.environ.get("DATABASE_URL", "").startswith(
        "postgres"
    ):
        raise SystemExit("set DATABASE_URL=postgres://... and CELERY_BROKER_URL=redis://...")
    from config.celery import app
    from config.worker import running_worker

    tables = args.players // 4
    print(
        f"{args.players:,} players, {tables} tables, {ROUNDS} rounds of {BOARDS_PER_ROUND} boards "
        f"on {where}; a Celery worker computes the standings"
    )
    rng = random.Random(1000)
    with contextlib.ExitStack() as stack:
        queue = stack.enter_context(
            running_worker(Path(os.environ.get("TROEF_BENCH_WORKER_LOG", "/dev/null")))
        )
        app.conf.task_always_eager = False
        app.conf.task_routes = {"troef.compute_standings": {"queue": queue}}
        os.environ["TROEF_BENCH_QUEUE"] = queue  # for stage 6's other process
        run(args, rng)


def run(args: argparse.Namespace, rng: random.Random) -> None:
    from tournaments.models import Result, Standings
    from tournaments.services import deals, jobs, seating

    user = django_env.td()
    with stage("1. event and players"):
        event = create_event(args.players)
    with stage("2. movement") as figures:
        seating.generate_movement(user, event)
    report("   movement", figures["seconds"], "s", TARGETS["movement"], higher_is_better=False)
    with stage("3. deals"):
        deals.generate_deals(user, event)
    if args.bulk:
        with stage("4. results bulk-inserted, scored by the service's checks"):
            championship_event.open_every_round(event)
            championship_event.fill_results(event, random.Random(1000))
    else:
        with stage(f"4. results keyed through the service, {args.keyers} processes") as figures:
            times = keyed_in_parallel(event, args.keyers)
        print(f"     {len(times):,} results, {len(times) / figures['seconds']:,.0f} a second")
        report(
            "   one save, server time (median while keying)", statistics.median(times) * 1000,
            "ms", TARGETS["save_ms"], higher_is_better=False,
        )  # fmt: skip
    count = Result.objects.filter(event=event, is_current=True).count()
    with stage(f"5. standings from scratch, {count:,} results"):
        seconds = median_seconds(lambda: from_scratch(event), runs=5)
    report(
        f"   standings recompute from scratch, {count:,} results (median of 5)", seconds, "s",
        TARGETS["standings"], higher_is_better=False,
    )  # fmt: skip
    with stage("5. standings recomputed and stored after one saved correction"):
        after_save, public = recomputed_after_saves(event, rng, samples=9)
    print(f"     each: {', '.join(f'{value:.2f}' for value in after_save)} s")
    print(f"     public standings committed: {', '.join(f'{value:.2f}' for value in public)} s")
    report(
        "   standings recompute after one save, with the board scores (median of 9)",
        statistics.median(after_save), "s", TARGETS["standings"], higher_is_better=False,
    )  # fmt: skip
    report(
        "   standings recompute after one save, public standings committed (median of 9)",
        statistics.median(public), "s", TARGETS["standings"], higher_is_better=False,
    )  # fmt: skip
    if args.until <= 5:
        return
    jobs.publish(jobs.COMPUTE_STANDINGS, event.pk)  # the worker catches up with stage 4
    counters = Standings.objects.filter(event=event).values_list("computed", "requested")
    while (state := counters.get())[0] < state[1]:
        time.sleep(0.1)
    with stage("6. a save reaching the public standings, 10 other saves a second"):
        env = {**os.environ, "TROEF_BENCH_SAVER_SECONDS": str(10 + args.samples * 1.5)}
        other = subprocess.Popen(
            [sys.executable, "-m", "bench.bench_championship", "--saver", str(event.pk)],
            cwd=ROOT,
            env=env,
        )
        try:
            time.sleep(3)  # the other process is saving
            saves, visible = visibility(event, rng, args.samples)
        finally:
            other.terminate()
            other.wait(timeout=30)
    report(
        "   one save, server time (median under load)", statistics.median(saves) * 1000, "ms",
        TARGETS["save_ms"], higher_is_better=False,
    )  # fmt: skip
    report(
        "   saved result visible, median", statistics.median(visible), "s",
        TARGETS["visible_median"], higher_is_better=False,
    )  # fmt: skip
    report(
        "   saved result visible, p99", percentile(visible, 0.99), "s", TARGETS["visible_p99"],
        higher_is_better=False,
    )  # fmt: skip
    if args.until <= 6:
        return
    documents_stage(event)


def documents_stage(event: Any) -> None:
    from documents.kinds import renderer_for
    from documents.renderers.base import register_fonts

    register_fonts()
    timings: dict[str, float] = {}
    with stage("7. every document of the event") as figures:
        for kind, number in documents(event):
            start = time.perf_counter()
            made = renderer_for(event, kind, round_number=number).render()
            label = f"{kind} round {number}" if number else str(kind)
            timings[label] = time.perf_counter() - start
            size = len(made.content) / 2**20
            print(f"     {label}: {timings[label]:,.2f} s, {size:,.1f} MiB file", flush=True)
    report(
        "   score sheets, one round", timings["score_sheets round 1"], "s",
        TARGETS["score_sheets"], higher_is_better=False,
    )  # fmt: skip
    report(
        "   personal score cards", timings["score_cards"], "s", TARGETS["score_cards"],
        higher_is_better=False,
    )  # fmt: skip
    report(
        "   all documents", figures["seconds"], "s", TARGETS["documents"], higher_is_better=False
    )
    report(
        "   all documents, peak memory", figures["mib"], "MiB", TARGETS["documents_mib"],
        higher_is_better=False,
    )  # fmt: skip


if __name__ == "__main__":
    main()

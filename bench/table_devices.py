"""Table devices under load: phones at 200 tables and 500 spectators, gunicorn on PostgreSQL.

Run: ``DATABASE_URL=postgres://... python -m bench.table_devices [--quick]`` (not part of
``make bench``: it starts servers and runs for minutes). It builds 800 players at 200 tables (two
events: a movement plans at most 400 players), starts round 1 and makes the tables' device links,
then starts Redis, a Celery worker (standings are recomputed there, as in production) and
gunicorn, and runs locust headless in a separate process:

- 200 devices, one per table: give the PIN, poll the table every 5 s with its ETag, key a result
  every 20 s (each save with its own submission key; about 1 in 20 is sent a second time with the
  same key, as a phone does when an answer is lost);
- 500 spectators reading the public standings (``standings.json``) every 10 s.

The users start over ten seconds (each phone opens its page and gives its PIN) on servers that have
just started; the figures are counted after a warm-up (``--warmup``, 30 s from the start), once
that burst is served: the sustained load.
Each step runs ``--runs`` times (3), each time with a fresh load generator, and the figures are
the medians over the runs. It prints the request rate and p50/p99 per endpoint (as locust measured them, and the part spent
inside gunicorn, from its access log), how busy the processors were and with what (gunicorn, the
worker, locust, PostgreSQL, the rest of the machine), the results lost (answered but not stored)
and duplicated (a submission stored more than once), then raises the load step by step (the same
users, polling and keying a quarter faster at each step, ``--step-by``) until the device writes' p99 passes 200 ms, and prints the step.

This file is also the locustfile: locust imports it in its own process (``BENCH_TABLES`` names
the file of tables to play).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TABLES = 200
SPECTATORS = 500
POLL_SECONDS = 5.0
WRITE_SECONDS = 20.0
STANDINGS_SECONDS = 10.0
RESEND_SHARE = 0.05
TARGETS = {"device write": 200.0, "standings": 100.0}

# --- the locust side (imported by locust in its own process) --------------------------------------

if os.environ.get("BENCH_TABLES"):
    import itertools

    from locust import FastHttpUser, between, events, task

    _PLAN = json.loads(Path(os.environ["BENCH_TABLES"]).read_text())
    _SPEED = float(os.environ.get("BENCH_SPEED", "1"))
    _NEXT = itertools.count()
    _ACKED: list[dict[str, Any]] = []

    class Device(FastHttpUser):
        """A phone at one table: polls with its ETag and keys a board every 20 s."""

        fixed_count = TABLES
        wait_time = between(POLL_SECONDS / _SPEED * 0.9, POLL_SECONDS / _SPEED * 1.1)

        def on_start(self) -> None:
            self.table = _PLAN["tables"][next(_NEXT) % len(_PLAN["tables"])]
            self.api = f"/api/v1/device/{self.table['key']}/"
            self.etag = ""
            self.versions: dict[int, int] = {}
            self.turn = 0
            self.last_write = time.monotonic() - random.uniform(0, WRITE_SECONDS / _SPEED)
            self.client.get(f"/t/{self.table['key']}/", name="device page")
            self.csrf = next(
                (
                    cookie.value or ""
                    for cookie in self.client.cookiejar
                    if cookie.name == "csrftoken"
                ),
                "",
            )
            self.client.post(
                self.api + "session/",
                json={"pin": self.table["pin"]},
                headers={"X-CSRFToken": self.csrf},
                name="device PIN",
            )

        @task
        def poll(self) -> None:
            headers = {"If-None-Match": self.etag} if self.etag else {}
            with self.client.get(
                self.api, headers=headers, name="device poll", catch_response=True
            ) as response:
                if response.status_code == 304:
                    response.success()
                elif response.status_code == 200:
                    self.etag = response.headers.get("ETag", "")
                    # As the device page does: the versions shown are those a correction names.
                    for item in response.json().get("boards", []):
                        if item.get("result"):
                            self.versions[item["board"]] = item["result"]["version"]
                else:
                    response.failure(f"{response.status_code}")
            if time.monotonic() - self.last_write >= WRITE_SECONDS / _SPEED:
                self.last_write = time.monotonic()
                self.write()

        def write(self) -> None:
            board, line = self.table["lines"][self.turn % len(self.table["lines"])]
            self.turn += 1
            version = self.versions.get(board, 0)
            # Round after round of the table's boards: the first keying, then corrections, each
            # a result other than the one it corrects (so every run of a step stores as many).
            tricks = 8 + version % 2
            body = {
                "board": board,
                "text": f"{line.rsplit(' ', 1)[0]} {tricks}",
                "seat": "N",
                "submission": uuid.uuid4().hex,
                "version": version,
                "confirmed": True,
                "reason": "bench" if version else "",
            }
            for _attempt in range(2 if random.random() < RESEND_SHARE else 1):
                with self.client.post(
                    self.api + "results/",
                    json=body,
                    headers={"X-CSRFToken": self.csrf},
                    name="device write",
                    catch_response=True,
                ) as response:
                    if response.status_code == 409:
                        # Keyed meanwhile from elsewhere (the TD, a phone of an earlier step):
                        # the right answer, with the version the next keying corrects.
                        self.versions[board] = response.json()["params"]["version"]
                        response.success()
                        return
                    if response.status_code != 200:
                        response.failure(f"{response.status_code}: {response.text[:200]}")
                        return
                    answer = response.json()
                    self.versions[board] = answer["version"]
                    _ACKED.append(
                        {
                            "submission": body["submission"],
                            "version": answer["version"],
                            "table": self.table["key"],
                            "board": board,
                        }
                    )

    class Spectator(FastHttpUser):
        """A player's phone on the public standings."""

        fixed_count = int(os.environ.get("BENCH_SPECTATORS", SPECTATORS))
        wait_time = between(STANDINGS_SECONDS / _SPEED * 0.9, STANDINGS_SECONDS / _SPEED * 1.1)

        etags: dict[str, str]

        def on_start(self) -> None:
            self.etags = {}

        @task
        def standings(self) -> None:
            # As a phone's browser does: it revalidates what it has (304 while nothing changed).
            slug = random.choice(_PLAN["slugs"])
            headers = {"If-None-Match": self.etags[slug]} if slug in self.etags else {}
            with self.client.get(
                f"/events/{slug}/standings.json",
                name="standings",
                headers=headers,
                catch_response=True,
            ) as answer:
                if answer.status_code in (200, 304):
                    if answer.headers.get("ETag"):
                        self.etags[slug] = answer.headers["ETag"]
                    answer.success()
                else:
                    answer.failure(f"status {answer.status_code}")

    @events.test_start.add_listener  # type: ignore[untyped-decorator]  # locust has no types here
    def _count_after_the_warm_up(environment: Any, **_kwargs: Any) -> None:
        import gevent  # type: ignore[import-untyped]  # no types published

        gevent.spawn_later(float(os.environ.get("BENCH_WARMUP", "0")), environment.stats.reset_all)

    @events.quitting.add_listener  # type: ignore[untyped-decorator]  # locust has no types here
    def _write_acknowledged(environment: Any, **_kwargs: Any) -> None:
        Path(os.environ["BENCH_ACKED"]).write_text(json.dumps(_ACKED))


# --- the driver ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{what} did not start within {seconds:.0f} s")


# 200 tables as two events of 100 tables (two halls of a championship day, each with its standings).
EVENTS = 2


def build_event() -> dict[str, Any]:
    """Events of 800 players in all, round 1 in play, each table's link and PIN and a line per
    board; spectators share out over the events' standings."""
    import datetime as dt

    from bench import django_env
    from engine.cards import Seat, Suit
    from engine.hands import Deal
    from tournaments.models import Entry, Player
    from tournaments.services import deals, devices, events, rounds, seating
    from tournaments.services.events import EventSettings

    user = django_env.td()
    plan: list[dict[str, Any]] = []
    slugs = []
    for number in range(1, EVENTS + 1):
        event = events.create_event(
            user,
            EventSettings(
                name=f"Table devices {number}",
                date=dt.date(2026, 12, 5),
                game="kleurenwiezen",
                ruleset_name="whisthub",
                rounds=4,
                boards_per_round=4,
                slug=f"table-devices-{number}",
            ),
        )
        count = TABLES * 4 // EVENTS
        players = Player.objects.bulk_create(
            Player(first_name=f"Speler{number}-{i}", last_name=f"Nummer{i}") for i in range(count)
        )
        Entry.objects.bulk_create(
            Entry(event=event, player=p, number=i + 1) for i, p in enumerate(players)
        )
        seating.generate_movement(user, event)
        deals.generate_deals(user, event)
        round_ = event.round_set.get(number=1)
        rounds.open_round(user, round_)
        slugs.append(event.slug)
        for table in devices.ensure_device_keys(user, round_):
            lines = []
            for link in table.table_boards.select_related("board").order_by("position"):
                deal = Deal.from_pbn(link.board.deal)
                north, east = deal.hand(Seat.N), deal.hand(Seat.E)
                suit = next(s for s in Suit if north.has_suit(s) and east.has_suit(s))
                lines.append((link.board.number, f"NE 8{suit.name} 8"))
            plan.append({"key": table.device_key, "pin": table.device_pin, "lines": lines})
    return {"slugs": slugs, "tables": plan}


class Servers:
    """Redis, a Celery worker and gunicorn, each in a process group of its own."""

    def __init__(self, workdir: Path, database_url: str) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.redis_port = free_port()
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "false",
            "SECURE_COOKIES": "false",
            "SECRET_KEY": "bench-" + uuid.uuid4().hex,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "CACHE_URL": f"redis://127.0.0.1:{self.redis_port}/1",
            "GUNICORN_BIND": f"127.0.0.1:{self.port}",
            "LOG_LEVEL": "WARNING",
            "TROEF_VAR_DIR": str(workdir),
        }
        self.processes: list[subprocess.Popen[bytes]] = []
        self.access_log = workdir / "access.log"
        self.names: list[str] = []

    def start(self) -> None:
        redis = shutil.which("redis-server", path="/usr/bin:/usr/local/bin:/usr/sbin:/bin")
        if redis is None:
            raise SystemExit("needs redis-server (Debian's redis-server package)")
        self._spawn(
            "redis",
            [redis, "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", ""],
        )
        wait_for_port(self.redis_port, 20, "Redis")
        celery = [
            # As deploy/systemd/troef-worker.service runs it: behind the web processes.
            *os.environ.get("BENCH_WORKER_PREFIX", "nice -n 5").split(),
            str(BIN / "celery"),
            "-A",
            "config",
            "worker",
            f"--concurrency={os.environ.get('BENCH_WORKER_CONCURRENCY', '2')}",
        ]
        self._spawn("worker", [*celery, "--loglevel=WARNING", "--without-gossip"])
        gunicorn = [str(BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py", "config.wsgi"]
        # The access log keeps each request's time inside gunicorn (µs): the server's share of
        # what locust measures, the rest being the wait for a worker and the network.
        log = ["--access-logfile", str(self.access_log), "--access-logformat", "%(m)s %(U)s %(D)s"]
        self._spawn("gunicorn", [*gunicorn, *log])
        wait_for_port(self.port, 60, "gunicorn")

    def groups(self) -> dict[str, int]:
        """Each server's process group (its processes and their children)."""
        return {name: process.pid for name, process in zip(self.names, self.processes, strict=True)}

    def _spawn(self, name: str, command: list[str]) -> None:
        self.names.append(name)
        log = (self.workdir / f"{name}.log").open("wb")
        self.processes.append(
            subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)


def run_locust(
    servers: Servers,
    plan_file: Path,
    seconds: int,
    speed: float,
    step: str,
    spectators: int,
    warmup: int,
) -> tuple[dict[str, dict[str, float]], Path, dict[str, float]]:
    """One headless locust run: the figures per endpoint from its CSV, the file of the saves it
    was answered for, and the processor seconds each part used in the counted time."""
    prefix = servers.workdir / f"step{step}"
    acked = servers.workdir / f"acked{step}.json"
    users = TABLES + spectators
    env = {
        **os.environ,
        "BENCH_TABLES": str(plan_file),
        "BENCH_SPEED": str(speed),
        "BENCH_ACKED": str(acked),
        "BENCH_SPECTATORS": str(spectators),
        "BENCH_WARMUP": str(warmup),
    }
    command = [
        str(BIN / "locust"), "-f", str(Path(__file__)), "--headless", "--only-summary",
        "-u", str(users), "-r", str(max(users // 10, 1)), "-t", f"{seconds + warmup}s",
        "--host", f"http://127.0.0.1:{servers.port}", "--csv", str(prefix),
        "--stop-timeout", "10", "--loglevel", "WARNING",
    ]  # fmt: skip
    locust = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a process group of its own, for its processor time
    )
    time.sleep(warmup)
    counted_from = servers.access_log.stat().st_size if servers.access_log.exists() else 0
    groups = {**servers.groups(), "locust": locust.pid}
    before = cpu_seconds(groups)
    time.sleep(seconds)
    used = cpu_between(before, cpu_seconds(groups))
    locust.wait()
    figures: dict[str, dict[str, float]] = {}
    with open(f"{prefix}_stats.csv", newline="") as stats:
        for row in csv.DictReader(stats):
            figures[row["Name"]] = {
                "count": float(row["Request Count"]),
                "failures": float(row["Failure Count"]),
                "rate": float(row["Requests/s"]),
                # locust writes N/A for an endpoint with no request in the counted time.
                "p50": float(row["50%"]) if row["50%"] not in ("", "N/A") else 0.0,
                "p99": float(row["99%"]) if row["99%"] not in ("", "N/A") else 0.0,
            }
    for name, (p50, p99) in server_times(servers.access_log, counted_from).items():
        if name in figures:
            figures[name]["server p50"], figures[name]["server p99"] = p50, p99
    return figures, acked, used


def endpoint(method: str, path: str) -> str | None:
    """The locust name of a request in the access log."""
    if path.startswith("/api/v1/device/"):
        if method == "GET":
            return "device poll"
        return "device write" if path.endswith("/results/") else None
    return "standings" if path.endswith("/standings.json") else None


def server_times(access_log: Path, offset: int) -> dict[str, tuple[float, float]]:
    """p50 and p99 in ms of each endpoint's time inside gunicorn, from ``offset`` in the log."""
    times: dict[str, list[float]] = {}
    with access_log.open("rb") as log:
        log.seek(offset)
        for line in log.read().decode(errors="replace").splitlines():
            method, path, micros = [*line.split(), "", "", ""][:3]
            name = endpoint(method, path)
            if name is not None and micros.isdigit():
                times.setdefault(name, []).append(int(micros) / 1000)
    figures = {}
    for name, values in times.items():
        values.sort()
        figures[name] = (
            values[len(values) // 2],
            values[min(len(values) - 1, len(values) * 99 // 100)],
        )
    return figures


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(groups: dict[str, int]) -> dict[tuple[str, int], float]:
    """Processor seconds used so far by each process of the groups, by PostgreSQL's processes and
    by the whole machine (``("machine", 0)``), by (part, process id)."""
    names = {pgid: name for name, pgid in groups.items()}
    used: dict[tuple[str, int], float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # ended meanwhile
        command, fields = (
            text[text.index("(") + 1 : text.rindex(")")],
            text.rsplit(")", 1)[1].split(),
        )
        seconds = (int(fields[11]) + int(fields[12])) / TICKS
        name = "PostgreSQL" if command.startswith("postgres") else names.get(int(fields[2]))
        if name is not None:
            used[name, int(stat.parent.name)] = seconds
    with open("/proc/stat") as machine:
        ticks = [int(value) for value in machine.readline().split()[1:]]
    used["machine", 0] = (sum(ticks) - ticks[3] - ticks[4]) / TICKS  # all but idle and iowait
    return used


def cpu_between(
    before: dict[tuple[str, int], float], after: dict[tuple[str, int], float]
) -> dict[str, float]:
    """Processor seconds each part used between two readings: a process that started meanwhile
    counts whole, one that ended meanwhile (a database connection closed) is not known."""
    used: dict[str, float] = {}
    for (name, pid), seconds in after.items():
        used[name] = used.get(name, 0.0) + seconds - before.get((name, pid), 0.0)
    return used


def print_cpu(used: dict[str, float], seconds: float) -> None:
    cores = len(os.sched_getaffinity(0))
    parts = [f"{name} {spent / seconds:.2f}" for name, spent in used.items() if name != "machine"]
    others = used["machine"] - sum(spent for name, spent in used.items() if name != "machine")
    print(
        f"  processors busy over the counted time (of {cores}): {', '.join(parts)}, "
        f"other {max(others, 0.0) / seconds:.2f}; in all {used['machine'] / seconds:.2f}"
    )


def lost_and_duplicated(acked_file: Path) -> tuple[int, int, int]:
    """Saves answered but not stored, submissions stored twice, and how many were answered."""
    from django.db.models import Count

    from tournaments.models import Result

    acked = json.loads(acked_file.read_text()) if acked_file.exists() else []
    keys = {item["submission"] for item in acked}
    stored = dict(
        Result.objects.exclude(submission="")
        .values("submission")
        .annotate(n=Count("pk"))
        .values_list("submission", "n")
    )
    # A line keyed again as it stands is answered with the version that holds it, stored under
    # the submission that first keyed it: answered and stored, under another key.
    versions = set(
        Result.objects.values_list("table__device_key", "board__number", "version").iterator()
    )
    lost = sum(
        1
        for item in {item["submission"]: item for item in acked}.values()
        if item["submission"] not in stored
        and (item["table"], item["board"], item["version"]) not in versions
    )
    duplicated = sum(1 for n in stored.values() if n > 1)
    return lost, duplicated, len(keys)


def median_figures(runs: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Each figure's median over the runs (failures: their sum)."""
    out: dict[str, dict[str, float]] = {}
    for name in runs[0]:
        rows = [figures[name] for figures in runs if name in figures]
        out[name] = {
            key: sum(row.get(key, 0.0) for row in rows)
            if key == "failures"
            else statistics.median(row.get(key, 0.0) for row in rows)
            for key in rows[0]
        }
    return out


def print_run(run: int, figures: dict[str, dict[str, float]]) -> None:
    parts = [
        f"{name} p99 {figures[name]['p99']:.0f} ms"
        for name in ("device poll", "device write", "standings")
        if name in figures
    ]
    print(f"  run {run}: {', '.join(parts)}")


def print_step(step: int, speed: float, figures: dict[str, dict[str, float]], counted: str) -> None:
    print(f"step {step}: load x{speed:g} ({counted})")
    for name in ("device poll", "device write", "standings", "Aggregated"):
        row = figures.get(name)
        if row is None:
            continue
        target = TARGETS.get(name)
        verdict = ""
        if target is not None:
            verdict = (
                f" (p99 target <= {target:.0f} ms; {'ok' if row['p99'] <= target else 'MISSED'})"
            )
        print(
            f"  {name:13} {row['rate']:7.1f} req/s  p50 {row['p50']:5.0f} ms  "
            f"p99 {row['p99']:5.0f} ms  failures {row['failures']:.0f}{verdict}"
        )
        if "server p50" in row:
            print(
                f"  {'':13} {'in gunicorn':>13}  p50 {row['server p50']:5.0f} ms  "
                f"p99 {row['server p99']:5.0f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one 30-second step, for checking")
    parser.add_argument("--seconds", type=int, default=120, help="length of each step")
    parser.add_argument("--steps", type=int, default=6, help="most load steps")
    parser.add_argument(
        "--step-by", type=float, default=0.25, help="load added at each step (1: the issue's load)"
    )
    parser.add_argument(
        "--warmup", type=int, default=30, help="seconds of each step not counted (the start)"
    )
    parser.add_argument(
        "--spectators", type=int, default=SPECTATORS, help="standings readers (0: devices alone)"
    )
    parser.add_argument(
        "--runs", type=int, default=3, help="runs of each step; the figures are their medians"
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("set DATABASE_URL=postgres://... : this benchmark measures PostgreSQL")
    from bench import django_env

    where = django_env.setup()
    workdir = Path(tempfile.mkdtemp(prefix="troef-devices-"))
    print(f"Table devices: {TABLES} tables, {args.spectators} spectators, gunicorn on {where}")
    started = time.perf_counter()
    plan = build_event()
    plan_file = workdir / "tables.json"
    plan_file.write_text(json.dumps(plan))
    print(f"  event built in {time.perf_counter() - started:.0f} s")
    from django.db import connection

    connection.close()
    servers = Servers(workdir, os.environ["DATABASE_URL"])
    servers.start()
    try:
        seconds = 30 if args.quick else args.seconds
        speeds = [1.0] if args.quick else [1.0 + args.step_by * n for n in range(args.steps)]
        for step, speed in enumerate(speeds, start=1):
            runs = []
            for run in range(1, args.runs + 1):
                figures, acked, used = run_locust(
                    servers,
                    plan_file,
                    seconds,
                    speed,
                    f"{step}-{run}",
                    args.spectators,
                    args.warmup,
                )
                runs.append((figures, used, lost_and_duplicated(acked)))
                print_run(run, figures)
            counted = f"{seconds} s counted after a {args.warmup}-s warm-up"
            if args.runs > 1:
                counted += f"; the median of {args.runs} runs"
            figures = median_figures([figures for figures, _used, _lost in runs])
            print_step(step, speed, figures, counted)
            print_cpu(
                median_figures([{"cpu": used} for _figures, used, _lost in runs])["cpu"], seconds
            )
            lost, duplicated, answered = (
                sum(counts[index] for _figures, _used, counts in runs) for index in range(3)
            )
            print(f"  results answered {answered}, lost {lost}, duplicated {duplicated}")
            write = figures.get("device write", {"p99": 0.0})
            if write["p99"] > TARGETS["device write"]:
                print(f"device writes' p99 passed {TARGETS['device write']:.0f} ms at step {step}")
                break
        else:
            if not args.quick:
                print(f"device writes' p99 stayed under {TARGETS['device write']:.0f} ms")
    finally:
        servers.stop()
        print(f"  logs and figures in {workdir}")


if __name__ == "__main__":
    main()

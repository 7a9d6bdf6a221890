"""Redis stopped during entry, on a Redis of the test's own, with two workers and beat running.

Saving a result never waits on the broker: with Redis down a save is as fast as with Redis up, the
results are all kept, and the standings left stale catch up by themselves within a minute of Redis
coming back (the beat's catch-up), without anyone saving again.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.reliability.services import (
    ROOT,
    Process,
    RedisServer,
    logs_of,
    site_environment,
    site_processes,
    wait_for,
    wait_until_ready,
)
from tests.tournaments.conftest import start_event
from tournaments.models import Result, Standings

pytestmark = [pytest.mark.reliability, pytest.mark.django_db(transaction=True)]


def save(env: dict[str, str], slug: str, first: int, count: int) -> list[dict[str, Any]]:
    """Save ``count`` results through the site, in a process of its own; what each save answered."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.reliability.broker_outage_site",
            slug,
            str(first),
            str(count),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    saves: list[dict[str, Any]] = json.loads(done.stdout.splitlines()[-1])
    assert [s["status"] for s in saves] == [201] * count, saves
    return saves


def standings_current(event_id: int) -> bool:
    """Nothing owed: no standings asked for yet, or the stored ones cover every request."""
    standings = Standings.objects.filter(event_id=event_id).first()
    return standings is None or not standings.is_stale


def test_saves_stay_fast_with_redis_down_and_the_standings_catch_up(
    redis: RedisServer, tmp_path: Path
) -> None:
    env = site_environment(redis, tmp_path / "var")
    td = User.objects.create_user("alice", password="alice-password", is_staff=True)
    event = start_event(td, "broker-outage", 16)
    processes: list[Process] = []
    try:
        with site_processes(env, tmp_path) as processes:
            wait_until_ready(processes)

            up = save(env, event.slug, 0, 8)
            wait_for(lambda: standings_current(event.pk), 60, "the standings after the saves")

            redis.stop()
            down = save(env, event.slug, 8, 8)
            assert Result.objects.filter(table__round__event=event).count() == 16
            assert not standings_current(event.pk)  # owed, and known to be owed

            redis.start()
            caught_up = wait_for(
                lambda: standings_current(event.pk), 90, "the standings after Redis came back"
            )
    except BaseException:
        print(logs_of(processes))
        raise

    up_ms = statistics.median(s["ms"] for s in up)
    down_ms = statistics.median(s["ms"] for s in down)
    print(f"save, median server time: Redis up {up_ms:.0f} ms, Redis down {down_ms:.0f} ms")
    print(f"standings current {caught_up:.1f} s after Redis came back")
    # A save that waited on the stopped broker would take its connect timeout (1 s) or more; the
    # bounds leave room for a busy machine and still tell the two apart.
    assert down_ms < 500
    assert down_ms < up_ms * 2 + 100
    assert max(s["ms"] for s in down) < 3000
    assert caught_up < 60
    standings = Standings.objects.get(event_id=event.pk)
    assert "failure" not in standings.data

"""The suite runs on the database and broker it is told to use, and says so when it cannot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def test_it_runs_on_postgresql_when_the_run_demands_it() -> None:
    # CI sets TROEF_REQUIRE_POSTGRES=1; a silent fall-back to SQLite would make its checks worthless.
    if os.environ.get("TROEF_REQUIRE_POSTGRES") == "1":
        assert connection.vendor == "postgresql", (
            f"expected PostgreSQL, running on {connection.vendor}"
        )
        assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    else:
        expected = (
            "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
        )
        assert connection.vendor == expected


def test_it_runs_tasks_eagerly_without_a_broker(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "DATABASE_URL")}
    env["TROEF_VAR_DIR"] = str(tmp_path)
    script = (
        "import django; django.setup();"
        "from django.conf import settings; from tournaments.tasks import ping;"
        "assert settings.CELERY_TASK_ALWAYS_EAGER;"
        "print(ping.delay().get(timeout=1)['pong'])"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "ok"


@pytest.mark.broker
def test_it_round_trips_a_task_through_a_real_worker(tmp_path: Path) -> None:
    broker = settings.CELERY_BROKER_URL
    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip(
            "no CELERY_BROKER_URL configured: set it to run this test against a real broker"
        )
    from config.celery import app
    from config.worker import running_worker

    log = tmp_path / "worker.log"
    with running_worker(log, {"CELERY_BROKER_URL": broker}) as queue:
        conf = app.conf
        previous = conf.task_always_eager
        conf.task_always_eager = False
        try:
            answer = app.send_task("troef.ping", queue=queue).get(timeout=60)
        finally:
            conf.task_always_eager = previous
    assert answer["pong"] == "ok"
    assert "ready" in log.read_text()

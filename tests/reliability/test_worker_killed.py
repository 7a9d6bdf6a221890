"""A worker killed outright (SIGKILL to the whole worker, as when its machine dies) in the middle of
a document job: the job is queued again by the catch-up and finished by the other worker.

Two workers and beat run as in deploy/compose.yaml, on a Redis of the test's own; the job is made
slow so that it is surely in the middle when the kill comes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from django.conf import settings
from django.contrib.auth.models import User

from documents import services as reports
from documents.models import ReportFile
from tests.reliability.services import (
    RedisServer,
    logs_of,
    site_environment,
    site_processes,
    wait_for,
    wait_until_ready,
)
from tests.tournaments.conftest import start_event
from tournaments.models import AuditEntry
from tournaments.services import jobs

pytestmark = [pytest.mark.reliability, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def published_to(redis: RedisServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Celery]:
    """This test's own requests go to its Redis (the workers' own requests do so by their settings)."""
    # Celery prefers the environment's CELERY_BROKER_URL (CI's shared Redis) to its argument.
    monkeypatch.setenv("CELERY_BROKER_URL", redis.url)
    probe = Celery("probe", broker=redis.url)
    # The site's routes: double-dummy jobs go to the analysis queue, which these workers leave.
    probe.conf.task_routes = settings.CELERY_TASK_ROUTES

    def publish(name: str, *args: Any) -> bool:
        probe.send_task(name, args=args, ignore_result=True)
        return True

    monkeypatch.setattr(jobs, "publish", publish)
    yield probe
    probe.close()


def test_a_document_job_whose_worker_is_killed_is_finished_by_another(
    redis: RedisServer, published_to: Celery, tmp_path: Path
) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    env = site_environment(redis, tmp_path / "var", TROEF_TEST_MARKS=str(marks))
    td = User.objects.create_user("alice", password="alice-password", is_staff=True)
    event = start_event(td, "killed", 8)
    workers = "tests.reliability.slow_worker"
    with site_processes(env, tmp_path, worker_module=workers) as processes:
        wait_until_ready(processes)
        report = reports.request_report(td, event, ReportFile.Kind.STANDINGS)
        wait_for(lambda: any(marks.iterdir()), 60, "a worker to start the job")
        (first,) = (int(mark.name) for mark in marks.iterdir())
        victim = next(p for p in processes if p.popen.pid == os.getpgid(first))
        report.refresh_from_db()
        assert report.status == ReportFile.Status.RUNNING
        victim.kill()
        killed = time.monotonic()

        def finished() -> bool:
            report.refresh_from_db()
            return report.status == ReportFile.Status.DONE

        try:
            took = wait_for(finished, 90, "the job to be finished by the other worker")
        except BaseException:
            print(logs_of(processes))
            raise
        assert time.monotonic() - killed < 60, logs_of(processes)
        assert took < 60
        # The other worker made it: its mark is the second one, in a process of another group.
        survivors = [int(mark.name) for mark in marks.iterdir() if int(mark.name) != first]
        assert survivors, logs_of(processes)
        assert all(os.getpgid(pid) != victim.popen.pid for pid in survivors)
    # Stored by the worker, under its own var/ (TROEF_VAR_DIR).
    assert report.file.name
    stored = tmp_path / "var" / "media" / report.file.name
    assert stored.read_bytes().startswith(b"%PDF")
    restarted = AuditEntry.objects.filter(action="report.regenerate", object_id=str(report.pk))
    assert restarted.count() == 1, logs_of(processes)
    assert restarted.get().actor is None  # by the system, not a person

"""A broker outage and a dead worker: saves stay fast, the TD is told, the catch-up finishes the work."""

from __future__ import annotations

import datetime as dt
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Private, but the one call that drops the app's cached connection and producer pools.
from celery.app.base import _after_fork_cleanup_app  # type: ignore[attr-defined]
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from config.celery import app
from documents import services as reports
from documents.models import ReportFile
from tests.tournaments.conftest import start_event
from tests.tournaments.test_results import a_line_for
from tournaments.models import AuditEntry, Event, Standings, Table
from tournaments.services import jobs, results
from tournaments.tasks import catch_up_standings

CLOSED_PORT = "redis://127.0.0.1:1/0"
DELAYED = "Standings publication is delayed"
STALLED = "The job has stopped without finishing"


def _use_broker(url: str, eager: bool) -> None:
    # Celery reads CELERY_BROKER_URL from the environment before its settings (``broker_url``
    # is read-only): the one place to change it.
    os.environ["CELERY_BROKER_URL"] = url
    app.conf.task_always_eager = eager
    # Drop the cached connection and producer pools (as after a fork): the next publication
    # connects to the address just set.
    _after_fork_cleanup_app(app)


@pytest.fixture
def broker_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Celery sends through a broker that nobody answers on (a closed port)."""
    monkeypatch.setattr(jobs, "_broker_down", False)  # a new outage, for the warning
    monkeypatch.setenv("CELERY_BROKER_URL", "")  # put back as it was afterwards
    before = (str(app.conf.broker_url), bool(app.conf.task_always_eager))
    _use_broker(CLOSED_PORT, eager=False)
    assert app.connection_for_write().port == 1
    try:
        yield
    finally:
        _use_broker(*before)


@pytest.fixture
def eager() -> Iterator[None]:
    """Jobs run in-process, whatever broker the run is configured with."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


@pytest.fixture
def running(td: User) -> Event:
    return start_event(td, "outage-evening", 8)


@pytest.fixture
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return Path(settings.MEDIA_ROOT)


def _save_a_result(td: User, event: Event, capture: Any, table_number: int = 1) -> float:
    """Record a result and run what its commit queues; the wall time it took, in seconds."""
    table = Table.objects.get(round__event=event, round__number=1, number=table_number)
    board = table.table_boards.order_by("position")[0].board
    started = time.monotonic()
    with capture(execute=True):
        results.record_result(td, table, board, a_line_for(board))
    return time.monotonic() - started


def _stale_for(event: Event, seconds: int) -> None:
    Standings.objects.filter(event=event).update(
        stale_since=timezone.now() - dt.timedelta(seconds=seconds)
    )


def test_it_saves_a_result_without_waiting_on_an_unreachable_broker(
    td: User, running: Event, broker_down: None, django_capture_on_commit_callbacks: Any
) -> None:
    took = _save_a_result(td, running, django_capture_on_commit_callbacks)
    assert took < 1.0
    state = Standings.objects.get(event=running)
    assert state.is_stale  # what is owed stays recorded
    assert state.stale_since is not None
    assert not state.publication_delayed  # not yet: a computation takes far less than that


def test_it_warns_once_per_outage(
    td: User,
    running: Event,
    broker_down: None,
    django_capture_on_commit_callbacks: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="tournaments.services.jobs"):
        _save_a_result(td, running, django_capture_on_commit_callbacks, table_number=1)
        _save_a_result(td, running, django_capture_on_commit_callbacks, table_number=2)
    warnings = [r for r in caplog.records if "broker unreachable" in r.getMessage()]
    assert len(warnings) == 1
    assert Standings.objects.get(event=running).requested >= 2


def test_it_keeps_the_time_the_standings_first_fell_behind(
    td: User, running: Event, broker_down: None, django_capture_on_commit_callbacks: Any
) -> None:
    _save_a_result(td, running, django_capture_on_commit_callbacks, table_number=1)
    _stale_for(running, 45)
    _save_a_result(td, running, django_capture_on_commit_callbacks, table_number=2)
    state = Standings.objects.get(event=running)
    assert state.publication_delayed  # a later request does not restart the clock


def test_the_catch_up_computes_standings_left_stale_by_the_outage(
    td: User, running: Event, broker_down: None, django_capture_on_commit_callbacks: Any
) -> None:
    _save_a_result(td, running, django_capture_on_commit_callbacks)
    assert Standings.objects.get(event=running).is_stale
    done = catch_up_standings()
    state = Standings.objects.get(event=running)
    assert done["standings"] == 1
    assert not state.is_stale
    assert state.data["rows"]
    assert catch_up_standings()["standings"] == 0  # nothing left owed


def test_it_tells_the_td_and_the_public_that_publication_is_delayed(
    td: User,
    running: Event,
    broker_down: None,
    django_capture_on_commit_callbacks: Any,
    client: Client,
) -> None:
    _save_a_result(td, running, django_capture_on_commit_callbacks)
    client.force_login(td)
    assert DELAYED not in client.get(reverse("event", args=[running.slug])).content.decode()
    _stale_for(running, 60)
    assert DELAYED in client.get(reverse("event", args=[running.slug])).content.decode()
    assert DELAYED in client.get(reverse("standings", args=[running.slug])).content.decode()
    catch_up_standings()
    assert DELAYED not in client.get(reverse("standings", args=[running.slug])).content.decode()


def test_the_self_refreshing_standings_learn_that_publication_is_delayed(
    td: User,
    running: Event,
    broker_down: None,
    django_capture_on_commit_callbacks: Any,
    client: Client,
) -> None:
    """The delay comes with time alone: the JSON's version changes, and it carries the notice."""
    _save_a_result(td, running, django_capture_on_commit_callbacks)
    url = reverse("standings_json", args=[running.slug])
    before = client.get(url)
    assert before.json()["notices_display"] == []
    _stale_for(running, 60)
    # The script asks with the version it has: it must not be told "not modified".
    after = client.get(url, headers={"if-none-match": before["ETag"]})
    assert after.status_code == 200
    (notice,) = after.json()["notices_display"]
    assert notice["id"] == "publication-delayed"
    assert notice["text"].startswith(DELAYED)
    catch_up_standings()
    caught_up = client.get(url, headers={"if-none-match": after["ETag"]})
    assert caught_up.status_code == 200
    assert caught_up.json()["notices_display"] == []


def _stalled_job(td: User, event: Event) -> ReportFile:
    """A job whose worker died at 99 %: running, its last sign of life five minutes ago."""
    return ReportFile.objects.create(
        event=event,
        kind=ReportFile.Kind.GUIDE_CARDS,
        created_by=td,
        status=ReportFile.Status.RUNNING,
        progress=99,
        heartbeat_at=timezone.now() - dt.timedelta(minutes=5),
    )


def test_it_shows_a_job_without_a_heartbeat_as_stalled(
    td: User, running: Event, client: Client
) -> None:
    stalled = _stalled_job(td, running)
    alive = ReportFile.objects.create(
        event=running,
        kind=ReportFile.Kind.TABLE_CARDS,
        round_number=1,
        created_by=td,
        status=ReportFile.Status.RUNNING,
        heartbeat_at=timezone.now(),
    )
    assert reports.is_stalled(stalled)
    assert not reports.is_stalled(alive)
    client.force_login(td)
    page = client.get(reverse("reports", args=[running.slug])).content.decode()
    assert page.count(STALLED) == 1
    status = client.get(reverse("report_status", args=[running.slug, stalled.pk])).json()
    assert status["stalled"] is True
    assert status["label"] == "stalled"


def test_the_catch_up_queues_a_stalled_job_again_and_it_finishes(
    td: User, running: Event, eager: None, media: Path, django_capture_on_commit_callbacks: Any
) -> None:
    stalled = _stalled_job(td, running)
    with django_capture_on_commit_callbacks(execute=True):
        done = catch_up_standings()
    stalled.refresh_from_db()
    assert done["reports"] == 1
    assert stalled.status == ReportFile.Status.DONE
    assert stalled.progress == 100
    stored = Path(stalled.file.path)
    assert stored.is_relative_to(media)
    assert stored.read_bytes().startswith(b"%PDF")
    entry = AuditEntry.objects.get(action="report.regenerate", object_id=str(stalled.pk))
    assert entry.actor is None  # the system did it


def test_the_catch_up_leaves_a_stalled_job_queued_while_the_broker_is_down(
    td: User, running: Event, broker_down: None, django_capture_on_commit_callbacks: Any
) -> None:
    stalled = _stalled_job(td, running)
    with django_capture_on_commit_callbacks(execute=True):
        catch_up_standings()
    stalled.refresh_from_db()
    assert stalled.status == ReportFile.Status.QUEUED
    assert not reports.is_stalled(stalled)  # its clock starts again: tried once a minute


def test_the_beat_schedule_picks_up_a_dead_workers_job_within_a_minute() -> None:
    entries = django_settings.CELERY_BEAT_SCHEDULE.values()
    catch_up = [e for e in entries if e["task"] == "troef.catch_up_standings"]
    assert len(catch_up) == 1
    schedule = catch_up[0]["schedule"]
    assert isinstance(schedule, float)
    assert 5 <= schedule <= 30
    assert reports.STALLED_AFTER.total_seconds() + schedule <= 60
    assert reports.STALLED_AFTER.total_seconds() > 3 * reports.HEARTBEAT_SECONDS
    assert "troef.catch_up_standings" in app.tasks

"""Services send jobs by task name: every name is registered as soon as Django is set up."""

from __future__ import annotations

import logging
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from tournaments.services import jobs

ROOT = Path(__file__).resolve().parents[2]


def test_a_web_process_has_every_task_registered_before_its_first_request() -> None:
    # A fresh interpreter that loads the site as gunicorn does, and nothing else: no request has
    # been served, so no job sent, and no thread can race another to import the task modules.
    script = (
        "import config.wsgi\n"
        "from config.celery import app\n"
        "from tournaments.services import jobs\n"
        "from ratings import services\n"
        "names = [jobs.COMPUTE_STANDINGS, jobs.BUILD_REPORT, jobs.ANALYSE_BOARD,\n"
        "         services.COMPUTE_RATINGS]\n"
        "print(' '.join(n for n in names if n not in app.tasks) or 'ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


def test_a_job_nobody_can_run_is_logged_and_not_sent(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="tournaments.services.jobs"):
        assert jobs.publish("troef.no_such_job", 1) is False
    assert "no task troef.no_such_job is registered" in caplog.text


def test_held_standings_are_sent_once_per_event_after_the_transaction(
    td: User, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from django.db import transaction

    from tests.tournaments.conftest import start_event
    from tournaments.models import Standings

    first, second = start_event(td, "first", 8), start_event(td, "second", 8)
    sent: list[tuple[str, tuple[Any, ...]]] = []

    def publish(name: str, *args: Any) -> bool:
        if args == (first.pk,):
            raise RuntimeError("the first event's computation failed")
        sent.append((name, args))
        return True

    monkeypatch.setattr(jobs, "publish", publish)
    before = {s.event_id: s.requested for s in Standings.objects.filter(event__in=[first, second])}
    # As the demo's saves ask: each in a savepoint, the requests made when the whole commits.
    with ExitStack() as hold:
        hold.enter_context(jobs.standings_held())
        with django_capture_on_commit_callbacks(execute=True) as committed:
            for event in (first, second, first, first):
                with transaction.atomic():
                    jobs.standings_changed(event)
        assert len(committed) == 4
        assert sent == []  # nothing is sent while held
        with django_capture_on_commit_callbacks(execute=True) as after_the_hold:
            hold.close()
    # One job per event once the hold is over; the first event's failure stops nobody else's.
    assert len(after_the_hold) == 2
    assert sent == [(jobs.COMPUTE_STANDINGS, (second.pk,))]
    # Every request is recorded as it is made, so the catch-up finds an event left out.
    after = {s.event_id: s.requested for s in Standings.objects.filter(event__in=[first, second])}
    assert after[first.pk] == before.get(first.pk, 0) + 3
    assert after[second.pk] == before.get(second.pk, 0) + 1


def test_standings_are_sent_as_before_outside_a_hold(
    td: User, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.tournaments.conftest import start_event

    event = start_event(td, "alone", 8)
    sent: list[tuple[Any, ...]] = []

    def publish(name: str, *args: Any) -> bool:
        sent.append(args)
        return True

    monkeypatch.setattr(jobs, "publish", publish)
    with django_capture_on_commit_callbacks(execute=True):
        jobs.schedule_standings(event.pk)
        jobs.schedule_standings(event.pk)
    assert sent == [(event.pk,), (event.pk,)]


def test_a_hold_whose_body_raises_sends_nothing(
    td: User, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.tournaments.conftest import start_event
    from tournaments.models import Standings

    event = start_event(td, "interrupted", 8)
    sent: list[tuple[Any, ...]] = []

    def publish(name: str, *args: Any) -> bool:
        sent.append(args)
        return True

    monkeypatch.setattr(jobs, "publish", publish)
    before = Standings.objects.filter(event=event).values_list("requested", flat=True).first()

    def a_load_that_fails() -> None:
        with jobs.standings_held():
            jobs.schedule_standings(event.pk)
            raise RuntimeError("the load failed")

    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError, match="the load failed"),
    ):
        a_load_that_fails()
    # Nothing is sent for a load that failed; its request is recorded, for the catch-up to find.
    assert callbacks == []
    assert sent == []
    assert Standings.objects.get(event=event).requested == (before or 0) + 1

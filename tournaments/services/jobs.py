"""Jobs for the Celery workers, sent by task name: the services ask for work, the tasks do it.

The task modules import the services; the services reach the tasks only through the Celery app,
by the names below, so that no service imports a task module.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from celery import Task
from celery.exceptions import NotRegistered
from django.db import transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from config.celery import app
from tournaments.models import Event, Standings

logger = logging.getLogger(__name__)

COMPUTE_STANDINGS = "troef.compute_standings"
BUILD_REPORT = "troef.build_report"
ANALYSE_BOARD = "troef.analyse_board"

_discovering = threading.Lock()

_broker_down = False
"""Whether the last publication failed: the warning is logged once per outage, per process."""

_held: ContextVar[set[int] | None] = ContextVar("standings_held", default=None)
"""The events whose standings were asked for inside ``standings_held``."""


def publish(name: str, *args: Any) -> bool:
    """Send job ``name`` to the broker now, once, without waiting on it; ``False`` if it is
    unreachable.

    What the job was to do is already recorded in the database (standings requested, a report
    queued), so a job that cannot be sent is only late: the catch-up sends or does it later. The
    result store is left out (``ignore_result``): nobody waits on these jobs' results, and the
    store would try to reconnect to Redis at length.
    """
    return _send(name, args)


def publish_later(name: str, seconds: float, *args: Any) -> bool:
    """Like ``publish``, for the job's deferred run (``deferred=True``) in ``seconds``."""
    return _send(name, args, countdown=seconds, kwargs={"deferred": True})


def _task(name: str) -> Task[Any, Any]:
    # The registered task itself, not ``app.send_task``: its ``apply_async`` runs it in-process
    # when Celery runs jobs eagerly (no broker), and applies its own options and routes. The apps
    # register their tasks when Django starts (``ready``); a process set up some other way looks
    # for them here, one thread at a time (Celery's own guard is not meant for threads).
    if name not in app.tasks:
        with _discovering:
            if name not in app.tasks:
                app.autodiscover_tasks(force=True)
    return app.tasks[name]


def _send(name: str, args: tuple[Any, ...], **options: Any) -> bool:
    global _broker_down
    try:
        task = _task(name)
    except NotRegistered:
        # A job nobody can run is a fault of the installation, not of the save that asked for it:
        # the request stays recorded in the database for the catch-up.
        logger.exception("no task %s is registered: %s%r not sent", name, name, args)
        return False
    try:
        task.apply_async(args, retry=False, ignore_result=True, **options)
    except (BrokerError, OSError) as error:
        if not _broker_down:
            logger.warning("broker unreachable, %s%r left for the catch-up: %s", name, args, error)
        _broker_down = True
        return False
    if _broker_down:
        logger.info("broker reachable again")
    _broker_down = False
    return True


def standings_changed(event: Event) -> None:
    """Ask for the standings to be recomputed once the current transaction commits."""
    event_id = event.pk
    # Robust: a failing recomputation is logged and retried by the next change, never turned into
    # an error for a save that has already been committed.
    transaction.on_commit(lambda: schedule_standings(event_id), robust=True)


def standings_changed_by_this_save(event: Event) -> None:
    """Ask for new standings within a save's own transaction, as its last write.

    The request is counted by the same commit as the result, so a save costs one commit instead
    of two, and a worker never sees the one without the other; the job is sent once it commits.
    The event's standings row stays locked until then, so the caller locks nothing after this.
    Called inside a transaction that goes on (an outer block of the caller's caller), it waits
    for the commit as ``standings_changed`` does.
    """
    connection = transaction.get_connection()
    if connection.in_atomic_block and not connection.savepoint_ids:
        schedule_standings(event.pk)
    else:
        standings_changed(event)


def schedule_standings(event_id: int) -> None:
    """Ask for the event's standings to be recomputed, once the current transaction commits.

    Each call bumps ``requested``; the task computes only if the stored standings are older than
    the latest request, so a burst of saves costs one or two computations, not one each. The
    first request the stored standings do not cover sets ``stale_since`` (the right-hand side of
    an UPDATE reads the row as it was).
    """
    now = timezone.now()
    updated = Standings.objects.filter(event_id=event_id).update(
        requested=F("requested") + 1,
        stale_since=Case(
            When(computed__gte=F("requested"), then=Value(now)), default=F("stale_since")
        ),
    )
    if not updated:
        Standings.objects.get_or_create(
            event_id=event_id, defaults={"requested": 1, "stale_since": now}
        )
    held = _held.get()
    if held is not None:
        held.add(event_id)
        return
    transaction.on_commit(lambda: publish(COMPUTE_STANDINGS, event_id), robust=True)


@contextmanager
def standings_held() -> Iterator[None]:
    """No standings job is sent inside: each event asked for is sent once, on the way out.

    For a bulk load, such as the demo's hundreds of results in one transaction: without it, each
    result's request is sent as the transaction commits, and with jobs run in-process (no broker)
    each is a computation of its own. Requests are still recorded as they are made (``requested``),
    so an event left out by an error is found by the catch-up; nothing is sent when the body
    raises. Put it around the transaction.
    """
    if _held.get() is not None:
        yield
        return
    events: set[int] = set()
    token = _held.set(events)
    try:
        yield
    finally:
        _held.reset(token)
    # Only when the body ended normally: one that raised has rolled its work back, or leaves what
    # it committed to the catch-up. After the commit when the hold was put inside a transaction
    # after all; at once when not. Robust, as each request would have been: one event's failure
    # stops no other.
    for event_id in sorted(events):
        transaction.on_commit(_sender(event_id), robust=True)


def _sender(event_id: int) -> Callable[[], object]:
    def send_standings() -> object:
        return publish(COMPUTE_STANDINGS, event_id)

    return send_standings

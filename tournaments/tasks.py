"""Celery tasks: thin wrappers that take ids, call a service, and are safe to run twice."""

from __future__ import annotations

import logging
import socket
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from tournaments.models import Standings
from tournaments.report_tasks import build_report  # noqa: F401  (registers troef.build_report)

logger = logging.getLogger(__name__)

_broker_down = False
"""Whether the last publication failed: the warning is logged once per outage, per process."""


@shared_task(name="troef.ping")
def ping() -> dict[str, str]:
    """Answer from the worker that ran it: lets operators and tests see the broker round trip."""
    return {"pong": "ok", "worker": socket.gethostname()}


def publish(task: Task[Any, Any], *args: Any) -> bool:
    """Send a job to the broker now, once, without waiting on it; ``False`` if it is unreachable.

    What the job was to do is already recorded in the database (standings requested, a report
    queued), so a job that cannot be sent is only late: the catch-up sends or does it later. The
    result store is left out (``ignore_result``): nobody waits on these jobs' results, and the
    store would try to reconnect to Redis at length.
    """
    return _send(task, args)


def publish_later(task: Task[Any, Any], seconds: float, *args: Any) -> bool:
    """Like ``publish``, for the job's deferred run (``deferred=True``) in ``seconds``."""
    return _send(task, args, countdown=seconds, kwargs={"deferred": True})


def _send(task: Task[Any, Any], args: tuple[Any, ...], **options: Any) -> bool:
    global _broker_down
    try:
        task.apply_async(args, retry=False, ignore_result=True, **options)
    except (BrokerError, OSError) as error:
        if not _broker_down:
            logger.warning(
                "broker unreachable, %s%r left for the catch-up: %s", task.name, args, error
            )
        _broker_down = True
        return False
    if _broker_down:
        logger.info("broker reachable again")
    _broker_down = False
    return True


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
    transaction.on_commit(lambda: publish(compute_standings, event_id), robust=True)


@shared_task(
    name="troef.compute_standings",
    # A lock timeout on a busy database is worth a few retries through the broker; without a
    # broker the task runs in-process and a retry has nowhere to go.
    autoretry_for=() if settings.CELERY_TASK_ALWAYS_EAGER else (OperationalError,),
    max_retries=3,
    retry_backoff=True,
)
def compute_standings(event_id: int, deferred: bool = False) -> int | None:
    """Recompute and store an event's standings; returns the request counter it covered.

    While the event rests after a computation (``services.pacing``), the save's request is left to
    one computation queued for the end of the rest (``deferred``), which covers every save before
    it starts.
    """
    from tournaments.services import pacing
    from tournaments.services.standings import refresh

    if deferred:
        pacing.deferred_run_starts(event_id)
    elif not settings.CELERY_TASK_ALWAYS_EAGER:
        wait = pacing.rest(event_id)
        if wait > 0:
            if pacing.defer(event_id, wait) and not publish_later(
                compute_standings, wait, event_id
            ):
                return refresh(event_id)  # no broker to wait with: now, rather than never
            return None
    return refresh(event_id)


@shared_task(name="troef.catch_up_standings", ignore_result=True)
def catch_up_standings() -> dict[str, int]:
    """Run by Celery beat: the work an outage or a dead worker left undone.

    Recomputes every event whose standings are behind their requests (the request was saved but
    its job never reached a worker) and queues again every report job that lost its worker.
    """
    from tournaments.services.reports import restart_stalled
    from tournaments.services.standings import refresh

    stale = Standings.objects.filter(computed__lt=F("requested")).values_list("event_id", flat=True)
    computed = 0
    for event_id in list(stale):
        if refresh(event_id) is not None:
            computed += 1
    return {"standings": computed, "reports": len(restart_stalled())}


@shared_task(
    name="troef.analyse_board",
    # Its own queue (settings.TROEF_ANALYSIS_QUEUE), taken by a worker of its own: minutes a
    # board, the analysis never holds up a standings or report job.
    ignore_result=True,
    # The solver takes minutes on a board: limits of its own, under the broker's visibility
    # timeout (600 s) so that a long job is not handed to a second worker while it runs.
    soft_time_limit=540,
    time_limit=570,
    autoretry_for=() if settings.CELERY_TASK_ALWAYS_EAGER else (OperationalError,),
    max_retries=3,
    retry_backoff=True,
    bind=True,
)
def analyse_board(self: Task[Any, Any], board_id: int) -> bool:
    """Work out and store one board's double-dummy table; ``False`` if the board has gone.

    Never in-process: sent while Celery runs jobs eagerly (no worker), the job would hold the
    request that committed the deals for minutes a board, so it is left for a worker instead.
    """
    from tournaments.services.analysis import analyse_board as analyse

    if self.request.is_eager:
        logger.info("double-dummy analysis of board %s left for a worker", board_id)
        return False
    return analyse(board_id) is not None

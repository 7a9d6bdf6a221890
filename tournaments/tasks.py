"""Celery tasks: thin wrappers that take ids, call a service, and are safe to run twice."""

from __future__ import annotations

import logging
import socket
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import OperationalError
from django.db.models import F

from documents import services as reports
from tournaments.models import Standings
from tournaments.services import analysis, jobs, pacing, standings

logger = logging.getLogger(__name__)


@shared_task(name="troef.ping")
def ping() -> dict[str, str]:
    """Answer from the worker that ran it: lets operators and tests see the broker round trip."""
    return {"pong": "ok", "worker": socket.gethostname()}


@shared_task(
    name=jobs.COMPUTE_STANDINGS,
    # A lock timeout on a busy database is worth a few retries through the broker; without a
    # broker the task runs in-process and a retry has nowhere to go.
    autoretry_for=() if settings.CELERY_TASK_ALWAYS_EAGER else (OperationalError,),
    max_retries=3,
    retry_backoff=True,
)
def compute_standings(event_id: int, deferred: bool = False) -> int | None:
    """Recompute and store an event's standings; returns the request counter it covered.

    Saves ask for it through ``services.jobs.schedule_standings``. While the event rests after a
    computation (``services.pacing``), the save's request is left to one computation queued for
    the end of the rest (``deferred``), which covers every save before it starts.
    """
    if deferred:
        pacing.deferred_run_starts(event_id)
    elif not settings.CELERY_TASK_ALWAYS_EAGER:
        wait = pacing.rest(event_id)
        if wait > 0:
            if pacing.defer(event_id, wait) and not jobs.publish_later(
                jobs.COMPUTE_STANDINGS, wait, event_id
            ):
                return standings.refresh(event_id)  # no broker to wait with: now, rather than never
            return None
    return standings.refresh(event_id)


@shared_task(name="troef.catch_up_standings", ignore_result=True)
def catch_up_standings() -> dict[str, int]:
    """Run by Celery beat: the work an outage or a dead worker left undone.

    Recomputes every event whose standings are behind their requests (the request was saved but
    its job never reached a worker), queues again every report job that lost its worker, and
    sends the double-dummy analysis of boards that have none and no job on its way.
    """
    stale = Standings.objects.filter(computed__lt=F("requested")).values_list("event_id", flat=True)
    computed = 0
    for event_id in list(stale):
        if standings.refresh(event_id) is not None:
            computed += 1
    return {
        "standings": computed,
        "reports": len(reports.restart_stalled()),
        "analysis": analysis.catch_up(),
    }


@shared_task(
    name=jobs.ANALYSE_BOARD,
    # Its own queue (settings.TROEF_ANALYSIS_QUEUE), taken by a worker of its own: minutes a
    # board, the analysis never holds up a standings or report job.
    ignore_result=True,
    # The solver takes seconds to a minute a board: limits of its own, under the broker's visibility
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
    request that committed the deals for seconds a board, so it is left for a worker instead.
    """
    if self.request.is_eager:
        logger.info("double-dummy analysis of board %s left for a worker", board_id)
        return False
    return analysis.analyse_board(board_id) is not None

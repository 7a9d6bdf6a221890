"""Celery tasks: thin wrappers that take ids, call a service, and are safe to run twice."""

from __future__ import annotations

import socket

from celery import shared_task
from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import F

from tournaments.models import Standings
from tournaments.report_tasks import build_report  # noqa: F401  (registers troef.build_report)


@shared_task(name="troef.ping")
def ping() -> dict[str, str]:
    """Answer from the worker that ran it: lets operators and tests see the broker round trip."""
    return {"pong": "ok", "worker": socket.gethostname()}


def schedule_standings(event_id: int) -> None:
    """Ask for the event's standings to be recomputed, once the current transaction commits.

    Each call bumps ``requested``; the task computes only if the stored standings are older than
    the latest request, so a burst of saves costs one or two computations, not one each.
    """
    updated = Standings.objects.filter(event_id=event_id).update(requested=F("requested") + 1)
    if not updated:
        Standings.objects.get_or_create(event_id=event_id, defaults={"requested": 1})
    transaction.on_commit(lambda: compute_standings.delay(event_id), robust=True)


@shared_task(
    name="troef.compute_standings",
    # A lock timeout on a busy database is worth a few retries through the broker; without a
    # broker the task runs in-process and a retry has nowhere to go.
    autoretry_for=() if settings.CELERY_TASK_ALWAYS_EAGER else (OperationalError,),
    max_retries=3,
    retry_backoff=True,
)
def compute_standings(event_id: int) -> int | None:
    """Recompute and store an event's standings; returns the request counter it covered."""
    from tournaments.services.standings import refresh

    return refresh(event_id)

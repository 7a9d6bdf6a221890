"""Celery tasks of the ratings: thin, by organisation id, queued once the transaction commits."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import OperationalError
from django.db.models import F

from ratings import services
from ratings.models import RatingsState

logger = logging.getLogger(__name__)


@shared_task(
    name=services.COMPUTE_RATINGS,
    # A lock timeout on a busy database is worth a few retries through the broker; without a
    # broker the task runs in-process and a retry has nowhere to go.
    autoretry_for=() if settings.CELERY_TASK_ALWAYS_EAGER else (OperationalError,),
    max_retries=3,
    retry_backoff=True,
)
def compute_ratings(organisation_id: int) -> int | None:
    """Recompute and store an organisation's ratings; the number of events rated, ``None`` if the
    organisation is gone. Finishing an event asks for it (``services.schedule_ratings``)."""
    outcome = services.recompute(organisation_id)
    return None if outcome is None else outcome.events


@shared_task(name="troef.catch_up_ratings", ignore_result=True)
def catch_up_ratings() -> int:
    """Run by Celery beat: recompute the ratings a lost job left behind their finished events.

    Returns how many organisations were brought up to date. An organisation whose computation
    is running now is left to it; one that fails is logged, and the others still go on.
    """
    behind = RatingsState.objects.filter(computed__lt=F("requested")).values_list(
        "organisation_id", flat=True
    )
    done = 0
    for organisation_id in list(behind):
        try:
            if services.recompute(organisation_id, only_if_behind=True) is not None:
                done += 1
        except Exception:
            logger.exception(
                "the ratings of organisation %s could not be computed", organisation_id
            )
    return done

"""Celery tasks of the ratings: thin, by organisation id, queued once the transaction commits."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import F

from ratings.models import RatingsState
from tournaments.models import Event
from tournaments.tasks import publish


def schedule_ratings(event: Event) -> None:
    """Recompute the ratings of the event's club or federation once the transaction commits.

    The request is written down in the caller's transaction first, so that a job lost on its way
    (a broker outage, a worker that died) is redone by ``catch_up_ratings``. An event held under
    no organisation counts towards no rating.
    """
    organisation_id = event.organisation_id
    if organisation_id is None:
        return
    RatingsState.objects.get_or_create(organisation_id=organisation_id)
    RatingsState.objects.filter(organisation_id=organisation_id).update(
        requested=F("requested") + 1
    )
    transaction.on_commit(lambda: publish(compute_ratings, organisation_id), robust=True)


@shared_task(
    name="troef.compute_ratings",
    # A lock timeout on a busy database is worth a few retries through the broker; without a
    # broker the task runs in-process and a retry has nowhere to go.
    autoretry_for=() if settings.CELERY_TASK_ALWAYS_EAGER else (OperationalError,),
    max_retries=3,
    retry_backoff=True,
)
def compute_ratings(organisation_id: int) -> int | None:
    """Recompute and store an organisation's ratings; the number of events rated, ``None`` if the
    organisation is gone."""
    from ratings.services import recompute

    outcome = recompute(organisation_id)
    return None if outcome is None else outcome.events


@shared_task(name="troef.catch_up_ratings", ignore_result=True)
def catch_up_ratings() -> int:
    """Run by Celery beat: recompute the ratings a lost job left behind their finished events.

    Returns how many organisations were brought up to date.
    """
    from ratings.services import recompute

    behind = RatingsState.objects.filter(computed__lt=F("requested")).values_list(
        "organisation_id", flat=True
    )
    return sum(1 for organisation_id in list(behind) if recompute(organisation_id) is not None)

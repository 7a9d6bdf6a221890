"""The Celery job that makes a requested document: thin, by id, safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from documents import services
from tournaments.services import jobs


@shared_task(
    name=jobs.BUILD_REPORT,
    autoretry_for=(OperationalError,),
    max_retries=3,
    retry_backoff=True,
)
def build_report(report_id: int) -> str | None:
    """Render and store report ``report_id``; its status afterwards, or ``None`` if it is gone."""
    report = services.build_report(report_id)
    return report.status if report is not None else None

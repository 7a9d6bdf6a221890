"""The Celery job that makes a requested document: thin, by id, safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError


@shared_task(
    name="troef.build_report",
    autoretry_for=(OperationalError,),
    max_retries=3,
    retry_backoff=True,
)
def build_report(report_id: int) -> str | None:
    """Render and store report ``report_id``; its status afterwards, or ``None`` if it is gone."""
    from tournaments.services.reports import build_report as build

    report = build(report_id)
    return report.status if report is not None else None

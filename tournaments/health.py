"""Health of the services the application depends on, for ``/healthz``."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connections
from django.db.utils import DatabaseError

logger = logging.getLogger(__name__)


def database_status() -> str:
    """``"ok"``, or ``"down: <reason>"`` when the default database does not answer a query."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        logger.warning("health check: database is down: %s", exc)
        return f"down: {exc.__class__.__name__}"
    return "ok"


def broker_status(timeout: int = 2) -> str:
    """``"ok"``, ``"eager"`` (no broker configured: tasks run in-process) or ``"down: <reason>"``."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    from config.celery import app

    try:
        with app.connection_for_write(url=settings.CELERY_BROKER_URL) as connection:
            connection.ensure_connection(max_retries=1, timeout=timeout)
    except Exception as exc:  # kombu raises transport-specific errors; any of them means "down"
        logger.warning("health check: broker is down: %s", exc)
        return f"down: {exc.__class__.__name__}"
    return "ok"

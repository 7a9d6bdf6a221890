"""Celery tasks: thin wrappers that take ids, call a service, and are safe to run twice."""

from __future__ import annotations

import socket

from celery import shared_task


@shared_task(name="troef.ping")
def ping() -> dict[str, str]:
    """Answer from the worker that ran it: lets operators and tests see the broker round trip."""
    return {"pong": "ok", "worker": socket.gethostname()}

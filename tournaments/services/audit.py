from __future__ import annotations

from typing import Any

from django.db import models

from tournaments.models import AuditEntry, Event


def user_of(actor: Any) -> Any | None:
    """The user to store for an actor: ``None`` for the system itself or an anonymous caller."""
    return actor if getattr(actor, "is_authenticated", False) else None


def record(
    actor: Any,
    action: str,
    summary: str,
    *,
    event: Event | None = None,
    obj: models.Model | None = None,
    reason: str = "",
    data: dict[str, Any] | None = None,
    message: str = "",
    params: dict[str, Any] | None = None,
) -> AuditEntry:
    """Write one audit entry. ``actor`` is a user, or ``None`` for the system itself.

    ``message`` is the entry's text in the source language, marked with ``gettext_noop`` so that
    it is extracted for translation, with ``%(name)s`` placeholders filled from ``params`` (plain
    strings and numbers). Pages show it in the reader's language (``AuditEntry.text``); ``summary``
    is the English text, and is made from the message when not given.
    """
    params = params or {}
    if message and not summary:
        summary = message % params
    return AuditEntry.objects.create(
        event=event,
        actor=user_of(actor),
        action=action,
        object_type=obj._meta.model_name or "" if obj is not None else "",
        object_id=str(obj.pk) if obj is not None else "",
        summary=summary[:300],
        reason=reason,
        data=data or {},
        message=message,
        params=params,
    )

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from django.contrib.auth.models import AnonymousUser
from django.db import models

from tournaments.models import AuditAction, AuditEntry, Event

if TYPE_CHECKING:
    # django-stubs resolves ``_User`` to the project's user model (AUTH_USER_MODEL), the type
    # of ``request.user`` once signed in.
    from django.contrib.auth.models import _User as User
else:
    from django.contrib.auth.base_user import AbstractBaseUser as User

Actor: TypeAlias = User | AnonymousUser | None
"""Who does something: a signed-in user, an anonymous caller (``request.user`` before signing in),
or ``None`` for the system itself (background jobs, the catch-up, table devices)."""


def user_of(actor: Actor) -> User | None:
    """The user to store for an actor: ``None`` for the system itself or an anonymous caller."""
    return actor if actor is not None and actor.is_authenticated else None


def record(
    actor: Actor,
    action: AuditAction,
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

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import BasePermission
from rest_framework.request import Request


class DirectsEvent(BasePermission):
    """Only the event's directors may write; anyone may read what is public."""

    message = _("only this event's directors may do this")

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        event = getattr(obj, "event", obj)
        return bool(event.is_directed_by(request.user))

"""What the request's user may do in an event, through the API: the role, narrowed by a token.

Every v1 endpoint that touches an event asks here (``require``); pages ask ``tournaments.roles``
directly. Anonymous requests that need a role get 401, signed-in ones without it 403.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.request import Request

from tournaments import roles
from tournaments.errors import NotAllowedError
from tournaments.models import ApiToken, Event
from tournaments.roles import Role


def token_of(request: Request) -> ApiToken | None:
    """The API token the request came with (``Authorization: Bearer ...``), if any."""
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, ApiToken) else None


def role_in(request: Request, event: Event) -> Role:
    return roles.role_of(event, request.user, token_of(request))


def require(request: Request, event: Event, role: Role) -> Role:
    """The request's role in ``event``, if it is at least ``role``; else 401 or 403."""
    held = role_in(request, event)
    if held >= role:
        return held
    if not getattr(request.user, "is_authenticated", False):
        raise exceptions.NotAuthenticated()
    if role >= Role.DIRECTOR:
        raise NotAllowedError(_("Only this event's directors may do this."))
    raise NotAllowedError(_("Only this event's directors and assistants may do this."))

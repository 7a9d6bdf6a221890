"""An event's roles, and what each may do: the one place pages and API endpoints ask.

- **director**: everything (the event's directors, and superusers);
- **assistant**: enter and correct results, record rulings, fines and penalties; never change
  the event, its players or its movement;
- **public**: what is published (standings, finished events' deals), nothing else.

An API token narrows its user's role (``ApiToken.access``) and may be limited to one event.
"""

from __future__ import annotations

import enum
from typing import Any

from tournaments.models import ApiToken, Event


class Role(enum.IntEnum):
    """Ordered: a role may do everything the roles below it may."""

    PUBLIC = 0
    ASSISTANT = 1
    DIRECTOR = 2

    @property
    def label(self) -> str:
        return self.name.lower()


_TOKEN_CEILING = {
    ApiToken.Access.READ: Role.PUBLIC,
    ApiToken.Access.ENTER: Role.ASSISTANT,
    ApiToken.Access.DIRECT: Role.DIRECTOR,
}


def role_of(event: Event, user: Any, token: ApiToken | None = None) -> Role:
    """The user's role in ``event``, narrowed by the API token the request came with, if any."""
    role = _user_role(event, user)
    if token is not None:
        if token.event_id is not None and token.event_id != event.pk:
            return Role.PUBLIC
        role = min(role, _TOKEN_CEILING[ApiToken.Access(token.access)])
    return role


def _user_role(event: Event, user: Any) -> Role:
    if not getattr(user, "is_authenticated", False):
        return Role.PUBLIC
    if getattr(user, "is_superuser", False):
        return Role.DIRECTOR
    pk = getattr(user, "pk", None)
    if pk is None:
        return Role.PUBLIC
    if event.directors.filter(pk=pk).exists():
        return Role.DIRECTOR
    if event.assistants.filter(pk=pk).exists():
        return Role.ASSISTANT
    return Role.PUBLIC


def can_direct(event: Event, user: Any, token: ApiToken | None = None) -> bool:
    return role_of(event, user, token) >= Role.DIRECTOR


def can_enter(event: Event, user: Any, token: ApiToken | None = None) -> bool:
    """Enter, correct and confirm results, accept sheet differences, record rulings and fines."""
    return role_of(event, user, token) >= Role.ASSISTANT


def may_create_events(user: Any) -> bool:
    """Members of a club or federation account (and staff) create events."""
    if not getattr(user, "is_authenticated", False):
        return False
    if getattr(user, "is_staff", False) or getattr(user, "is_superuser", False):
        return True
    return bool(user.organisations.exists())

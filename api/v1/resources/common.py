"""What every v1 view shares: which events a request may see, and the event of a nested path."""

from __future__ import annotations

from typing import Any, TypeVar

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Model, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound
from rest_framework.request import Request

from api.access import require, role_in, token_of
from tournaments.models import ApiToken, Event
from tournaments.roles import Role


def visible_events(request: Request) -> QuerySet[Event]:
    """Events in play or finished, and the drafts the caller directs or assists.

    A read-only token sees what the public sees; a token for one event sees that event's draft
    only (``tournaments.roles`` narrows the same way, one event at a time).
    """
    public = Q(status__in=[Event.Status.RUNNING, Event.Status.FINISHED])
    user: Any = request.user
    token = token_of(request)
    if not getattr(user, "is_authenticated", False) or (
        token is not None and token.access == ApiToken.Access.READ
    ):
        return Event.objects.filter(public)
    if user.is_superuser:
        staff = Q(status=Event.Status.DRAFT)
    else:
        staff = Q(directors=user) | Q(assistants=user)
    if token is not None and token.event_id is not None:
        staff &= Q(pk=token.event_id)
    ids = Event.objects.filter(staff).values("pk")
    return Event.objects.filter(public | Q(pk__in=ids))


M = TypeVar("M", bound=Model)


def found(queryset: QuerySet[M], message: str = "", **lookup: Any) -> M:
    """The one object ``lookup`` names, or a 404 whose message is in the caller's language
    (Django's own says "No Event matches the given query." in English)."""
    try:
        return queryset.get(**lookup)
    except ObjectDoesNotExist:
        raise NotFound(message or None) from None


class FoundMixin:
    """Generic detail views: a missing object is a translated 404 too."""

    def get_object(self) -> Any:
        try:
            return super().get_object()  # type: ignore[misc]  # the generic view's
        except Http404:
            raise NotFound() from None


def event_for(request: Request, slug: str, role: Role = Role.PUBLIC) -> Event:
    """The event of ``slug`` if the caller may see it (404 otherwise) and holds ``role`` in it."""
    event = found(visible_events(request), _("There is no event at this address."), slug=slug)
    if role > Role.PUBLIC:
        require(request, event, role)
    return event


class EventScoped:
    """A view under ``events/{slug}/``: ``self.event`` is the event, looked up once."""

    # Given by the view this is mixed into (typed Any: Django's View says HttpRequest, DRF's Request).
    kwargs: Any
    request: Any
    event_role = Role.PUBLIC
    _event: Event | None = None

    @property
    def event(self) -> Event:
        if self._event is None:
            self._event = event_for(self.request, self.kwargs["slug"], self.event_role)
        return self._event

    def role(self) -> Role:
        return role_in(self.request, self.event)

"""Events, clubs, the player register and an event's entries."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import exceptions, generics, permissions
from rest_framework.request import Request

from api.access import token_of
from api.v1 import filters
from api.v1.resources.common import EventScoped, FoundMixin, event_for, visible_events
from api.v1.serializers import ClubSerializer, EntrySerializer, EventSerializer, PlayerSerializer
from tournaments.errors import NotAllowedError
from tournaments.models import ApiToken, Club, Entry, Event, Player


@extend_schema_view(
    get=extend_schema(
        tags=["events"],
        summary="Events",
        description="Events in play or finished, and the drafts the caller directs or assists.",
    )
)
class EventList(generics.ListAPIView):
    serializer_class = EventSerializer
    filterset_class = filters.EventFilter

    def get_queryset(self) -> QuerySet[Event]:
        if getattr(self, "swagger_fake_view", False):
            return Event.objects.none()
        return visible_events(self.request).select_related("organisation")


@extend_schema_view(get=extend_schema(tags=["events"], summary="One event"))
class EventDetail(generics.RetrieveAPIView):
    serializer_class = EventSerializer
    lookup_field = "slug"
    queryset = Event.objects.none()  # for the schema; the event is looked up by event_for

    def get_object(self) -> Event:
        return event_for(self.request, self.kwargs["slug"])


@extend_schema_view(get=extend_schema(tags=["players"], summary="Clubs"))
class ClubList(generics.ListAPIView):
    """Clubs: public, as their names are on every public standings page."""

    serializer_class = ClubSerializer
    filterset_class = filters.ClubFilter
    queryset = Club.objects.all()


@extend_schema_view(get=extend_schema(tags=["players"], summary="One club"))
class ClubDetail(FoundMixin, generics.RetrieveAPIView):
    serializer_class = ClubSerializer
    queryset = Club.objects.all()


def may_read_register(request: Request) -> bool:
    """The player register (names with federation numbers): staff, and whoever directs or assists
    an event, signed in or with a token for all their events that may enter results."""
    user: Any = request.user
    if not getattr(user, "is_authenticated", False):
        raise exceptions.NotAuthenticated()
    token = token_of(request)
    # A read-only token reads what the public reads; a token for one event reads that event only
    # (its entries), never the register of every player.
    if token is not None and (token.access == ApiToken.Access.READ or token.event_id is not None):
        return False
    if user.is_staff or user.is_superuser:
        return True
    return bool(user.directed_events.exists() or user.assisted_events.exists())


class RegisterPermission(permissions.BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        if not may_read_register(request):
            raise NotAllowedError(
                _("Only tournament directors and their assistants may read the player register.")
            )
        return True


@extend_schema_view(
    get=extend_schema(
        tags=["players"],
        summary="The player register",
        description="Tournament directors, assistants and staff only.",
    )
)
class PlayerList(generics.ListAPIView):
    serializer_class = PlayerSerializer
    filterset_class = filters.PlayerFilter
    permission_classes = [RegisterPermission]
    queryset = Player.objects.select_related("club")


@extend_schema_view(get=extend_schema(tags=["players"], summary="One player of the register"))
class PlayerDetail(FoundMixin, generics.RetrieveAPIView):
    serializer_class = PlayerSerializer
    permission_classes = [RegisterPermission]
    queryset = Player.objects.select_related("club")


@extend_schema_view(
    get=extend_schema(
        tags=["players"],
        summary="An event's entries",
        description="The players of the event, by player number.",
    )
)
class EntryList(EventScoped, generics.ListAPIView):
    serializer_class = EntrySerializer
    filterset_class = filters.EntryFilter

    def get_queryset(self) -> QuerySet[Entry]:
        if getattr(self, "swagger_fake_view", False):
            return Entry.objects.none()
        return self.event.entries.select_related("player__club").order_by("number")

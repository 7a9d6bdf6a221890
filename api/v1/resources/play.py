"""Rounds, tables with their seatings, and boards (whose cards stay hidden while in play)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Prefetch, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics

from api.v1 import filters
from api.v1.resources.common import EventScoped, FoundMixin, found
from api.v1.serializers import BoardSerializer, RoundSerializer, TableSerializer
from tournaments.models import Board, Event, Round, Seating, Table, TableBoard
from tournaments.roles import Role

ROUND = OpenApiParameter("n", OpenApiTypes.INT, OpenApiParameter.PATH, description="round number")
TABLE = OpenApiParameter("t", OpenApiTypes.INT, OpenApiParameter.PATH, description="table number")
BOARD = OpenApiParameter("n", OpenApiTypes.INT, OpenApiParameter.PATH, description="board number")


def _rounds(event: Event) -> QuerySet[Round]:
    return event.round_set.annotate(table_count=Count("tables")).order_by("number")


@extend_schema_view(get=extend_schema(tags=["rounds"], summary="An event's rounds"))
class RoundList(EventScoped, generics.ListAPIView):
    serializer_class = RoundSerializer
    filterset_class = filters.RoundFilter

    def get_queryset(self) -> QuerySet[Round]:
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        return _rounds(self.event)


@extend_schema_view(get=extend_schema(tags=["rounds"], summary="One round", parameters=[ROUND]))
class RoundDetail(FoundMixin, EventScoped, generics.RetrieveAPIView):
    serializer_class = RoundSerializer
    lookup_field = "number"
    lookup_url_kwarg = "n"

    def get_queryset(self) -> QuerySet[Round]:
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        return _rounds(self.event)


class TableViewMixin(EventScoped):
    """Tables with their seats and boards in a few queries; a device's PIN for directors."""

    def get_queryset(self) -> QuerySet[Table]:
        if getattr(self, "swagger_fake_view", False):
            return Table.objects.none()
        round_ = found(
            self.event.round_set.all(), _("This event has no such round."), number=self.kwargs["n"]
        )
        seatings = Seating.objects.select_related("entry__player", "replaces").order_by("seat")
        boards = TableBoard.objects.select_related("board").order_by("position")
        return (
            round_.tables.select_related("round")
            .prefetch_related(
                Prefetch("seatings", queryset=seatings), Prefetch("table_boards", queryset=boards)
            )
            .order_by("number")
        )

    def get_serializer_context(self) -> dict[str, Any]:
        context: dict[str, Any] = super().get_serializer_context()  # type: ignore[misc]  # the view's
        context["director"] = self.role() >= Role.DIRECTOR
        return context


@extend_schema_view(
    get=extend_schema(tags=["rounds"], summary="A round's tables", parameters=[ROUND])
)
class TableList(TableViewMixin, generics.ListAPIView):
    serializer_class = TableSerializer
    filter_backends: list[Any] = []


@extend_schema_view(
    get=extend_schema(tags=["rounds"], summary="One table of a round", parameters=[ROUND, TABLE])
)
class TableDetail(FoundMixin, TableViewMixin, generics.RetrieveAPIView):
    serializer_class = TableSerializer
    lookup_field = "number"
    lookup_url_kwarg = "t"


def cards_shown(event: Event, role: Role) -> bool | set[int]:
    """Whose cards the caller may see: all (directors, or a finished event), or the boards every
    round of which is closed; a board no round plays yet stays hidden."""
    if role >= Role.DIRECTOR or event.status == Event.Status.FINISHED:
        return True
    placed = TableBoard.objects.filter(table__round__event=event)
    in_play = set(
        placed.exclude(table__round__status=Round.Status.CLOSED).values_list("board_id", flat=True)
    )
    return set(placed.values_list("board_id", flat=True)) - in_play


class BoardViewMixin(EventScoped):
    def get_queryset(self) -> QuerySet[Board]:
        if getattr(self, "swagger_fake_view", False):
            return Board.objects.none()
        return self.event.boards.order_by("number")

    def get_serializer_context(self) -> dict[str, Any]:
        context: dict[str, Any] = super().get_serializer_context()  # type: ignore[misc]  # the view's
        context["cards_shown"] = cards_shown(self.event, self.role())
        return context


@extend_schema_view(
    get=extend_schema(
        tags=["boards"],
        summary="An event's boards",
        description=(
            "Number and dealer for everyone; the cards (deal, deal number, turned-up card) for "
            "the event's directors, and for everyone once every round that plays the board is "
            "closed. The dealing key stays hidden until the director reveals it (see the event)."
        ),
    )
)
class BoardList(BoardViewMixin, generics.ListAPIView):
    serializer_class = BoardSerializer
    filterset_class = filters.BoardFilter


@extend_schema_view(get=extend_schema(tags=["boards"], summary="One board", parameters=[BOARD]))
class BoardDetail(FoundMixin, BoardViewMixin, generics.RetrieveAPIView):
    serializer_class = BoardSerializer
    lookup_field = "number"
    lookup_url_kwarg = "n"

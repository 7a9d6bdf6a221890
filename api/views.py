"""The REST API: events, boards, results and standings; writes go through the services."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework import generics, parsers, permissions, status
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import DirectsEvent
from api.serializers import (
    BoardSerializer,
    EventSerializer,
    ResultInputSerializer,
    ResultSerializer,
)
from tournaments.errors import NotAllowedError
from tournaments.models import Board, Event, Result, Standings, Table
from tournaments.services import results, seating


def _public_events() -> QuerySet[Event]:
    return Event.objects.exclude(status=Event.Status.DRAFT)


class EventList(generics.ListAPIView):
    """Events in play or finished."""

    serializer_class = EventSerializer
    queryset = _public_events()


class EventDetail(generics.RetrieveAPIView):
    serializer_class = EventSerializer
    lookup_field = "slug"
    queryset = _public_events()


class Movement(APIView):
    """The seating of every round, in the engine's JSON form."""

    def get(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(_public_events(), slug=slug)
        return Response(seating.export_json(event))


class BoardList(generics.ListAPIView):
    """The deals: public once the event is finished, before that only for its directors."""

    serializer_class = BoardSerializer

    def get_queryset(self) -> QuerySet[Board]:
        event = get_object_or_404(Event, slug=self.kwargs["slug"])
        if event.status != Event.Status.FINISHED and not event.is_directed_by(self.request.user):
            raise NotAllowedError(_("the deals are secret until the event is finished"))
        return event.boards.all()


class StandingsView(APIView):
    def get(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(_public_events(), slug=slug)
        state = Standings.objects.filter(event=event).first()
        data: dict[str, Any] = state.data if state else {"rows": [], "rounds": []}
        return Response(
            {
                "event": event.slug,
                "computed_at": state.computed_at if state else None,
                "up_to_date": not state.is_stale if state else True,
                **data,
            }
        )


class JSONParser(parsers.JSONParser):
    """DRF's parser, with arrays nested deeper than Python's parser goes as a parse error too."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON nested too deeply.")) from None


class ResultList(APIView):
    """GET: the current results (directors). POST: record or correct one board's result."""

    permission_classes = [permissions.IsAuthenticated, DirectsEvent]
    parser_classes = [JSONParser, parsers.FormParser, parsers.MultiPartParser]

    def _event(self, request: Request, slug: str) -> Event:
        event = get_object_or_404(Event, slug=slug)
        self.check_object_permissions(request, event)
        return event

    def get(self, request: Request, slug: str) -> Response:
        event = self._event(request, slug)
        rows = (
            Result.objects.filter(event=event, is_current=True)
            .select_related("table__round", "board", "entered_by")
            .order_by("table__round__number", "table__number", "board__number")
        )
        return Response(ResultSerializer(rows, many=True).data)

    def post(self, request: Request, slug: str) -> Response:
        event = self._event(request, slug)
        data = ResultInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = get_object_or_404(
            Table, round__event=event, round__number=values["round"], number=values["table"]
        )
        board = get_object_or_404(Board, event=event, number=values["board"])
        result = results.record_result(
            request.user,
            table,
            board,
            values["text"],
            expected_version=values.get("version"),
            confirmed=values["confirmed"],
            reason=values["reason"],
        )
        return Response(ResultSerializer(result).data, status=status.HTTP_201_CREATED)

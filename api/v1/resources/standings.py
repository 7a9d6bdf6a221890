"""Published standings (cumulative or one round), an event's club ranking, and series.

All of them read the stored standings (``Standings.data``): no request recomputes anything.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.v1.resources.common import event_for, found
from api.v1.serializers import (
    ClubRankingSerializer,
    SeriesSerializer,
    SeriesStandingsSerializer,
    StandingsSerializer,
)
from tournaments.game import rank_labels
from tournaments.models import Series, Standings
from tournaments.services import series as series_service


class StandingsQuery(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=60, required=False)


class ClubRankingQuery(serializers.Serializer):
    best = serializers.IntegerField(min_value=1, max_value=20, default=3)


def _figure(text: str) -> Fraction:
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return Fraction(0)


def one_round(rows: list[dict[str, Any]], number: int) -> list[dict[str, Any]]:
    """The players who played round ``number``, ranked by that round's figure alone."""
    key = str(number)
    played = [row for row in rows if row.get("rounds", {}).get(key, "") != ""]
    figures = [_figure(row["rounds"][key]) for row in played]
    labels = rank_labels(figures)
    ranked = sorted(zip(labels, figures, played, strict=True), key=lambda item: -item[1])
    return [
        {**row, "place": label, "total": row["rounds"][key], "decided_by": None}
        for label, _value, row in ranked
    ]


@extend_schema(
    tags=["standings"],
    summary="Standings",
    parameters=[
        OpenApiParameter(
            "round",
            OpenApiTypes.INT,
            description="rank one round on its own figures (each player's figure in that round)",
        )
    ],
    responses=StandingsSerializer,
)
class StandingsView(APIView):
    """The published standings, with the comparison the event uses (raw, matchpoints, datum)."""

    def get(self, request: Request, slug: str) -> Response:
        event = event_for(request, slug)
        query = StandingsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        number = query.validated_data.get("round")
        if number is not None and number > event.rounds:
            raise serializers.ValidationError(
                {"round": _("This event has %(rounds)s rounds.") % {"rounds": event.rounds}}
            )
        state = Standings.objects.filter(event=event).first()
        data: dict[str, Any] = (state.data if state else None) or {}
        rows = list(data.get("rows", []))
        if number is not None:
            rows = one_round(rows, number)
        body = {
            "event": event.slug,
            "comparison": data.get("method", event.comparison),
            "round": number,
            "computed_at": state.computed_at if state else None,
            "up_to_date": not state.is_stale if state else True,
            "rounds": data.get("rounds", []),
            "results": data.get("results", 0),
            "left_out": len(data.get("problems", [])),
            "rows": rows,
        }
        return Response(StandingsSerializer(body).data)


@extend_schema(
    tags=["standings"],
    summary="Club ranking",
    parameters=[
        OpenApiParameter(
            "best",
            OpenApiTypes.INT,
            description="members counted per club (1 to 20; 3 if left out)",
        )
    ],
    responses=ClubRankingSerializer,
)
class ClubRankingView(APIView):
    """Clubs ranked by the sum of their best members' results in the event."""

    def get(self, request: Request, slug: str) -> Response:
        event = event_for(request, slug)
        query = ClubRankingQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        ranking = series_service.club_ranking(event, query.validated_data["best"])
        body = {"event": event.slug, "comparison": event.comparison, **ranking}
        return Response(ClubRankingSerializer(body).data)


@extend_schema_view(get=extend_schema(tags=["standings"], summary="Series"))
class SeriesList(generics.ListAPIView):
    serializer_class = SeriesSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        return Series.objects.prefetch_related("events").order_by("name")


@extend_schema(
    tags=["standings"], summary="A series' standings", responses=SeriesStandingsSerializer
)
class SeriesStandingsView(APIView):
    """Each player's best results over the series' events (events in draft are not counted)."""

    def get(self, request: Request, slug: str) -> Response:
        series = found(Series.objects.all(), _("There is no series at this address."), slug=slug)
        body = {"series": series.slug, **series_service.series_standings(series)}
        return Response(SeriesStandingsSerializer(body).data)

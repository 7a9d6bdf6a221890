"""The first API at /api/: kept answering so that existing links and clients keep working.

Every read moved to API v1 (/api/v1/): a GET here answers 301 with the new address (the query
string kept). The one write, a result POSTed to ``events/<slug>/results/``, is still answered here
in its old form; the movement, which v1 gives round by round, keeps its old document too.
"""

from __future__ import annotations

import json
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework import parsers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.access import require
from api.serializers import ResultInputSerializer, ResultSerializer
from api.v1.results import JSONParser
from tournaments.models import Board, Event, Result, Table
from tournaments.roles import Role
from tournaments.services import results, seating


def _public_events() -> QuerySet[Event]:
    return Event.objects.exclude(status=Event.Status.DRAFT)


def moved(request: Request, target: str) -> HttpResponse:
    """301 to ``target`` (with the request's query string), saying so in the API's error shape."""
    query = request.META.get("QUERY_STRING", "")
    location = request.build_absolute_uri(target + (f"?{query}" if query else ""))
    body = {
        "code": "moved",
        "message": _("This address has moved to API v1: %(location)s") % {"location": location},
        "field": None,
        "params": {"location": location},
    }
    return HttpResponsePermanentRedirect(
        location, content=json.dumps(body), content_type="application/json"
    )


class Moved(APIView):
    """A read of the first API: authenticated as before (a bad password is still refused), then
    sent to its v1 address, ``target`` with the path's keyword arguments filled in."""

    schema = None
    target = ""

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # Whatever the client accepts (the schema's own media type, say), it is sent on.
        return super().perform_content_negotiation(request, force=True)

    def get(self, request: Request, **kwargs: Any) -> HttpResponse:
        return moved(request, self.target.format(**kwargs))


class Movement(APIView):
    """The seating of every round, in the engine's JSON form."""

    schema = None

    def get(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(_public_events(), slug=slug)
        return Response(seating.export_json(event))


class ResultList(APIView):
    """GET: moved to v1. POST: record or correct one board's result (directors and assistants)."""

    schema = None
    parser_classes = [JSONParser, parsers.FormParser, parsers.MultiPartParser]

    def get(self, request: Request, slug: str) -> HttpResponse:
        return moved(request, f"/api/v1/events/{slug}/results/")

    def post(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(Event, slug=slug)
        require(request, event, Role.ASSISTANT)
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
            source=Result.Source.API,
        )
        return Response(ResultSerializer(result).data, status=status.HTTP_201_CREATED)

"""Report jobs: the event's directors start a document, watch its progress, download it."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.access import role_in
from api.v1 import filters
from api.v1.resources.common import EventScoped, FoundMixin, event_for, found
from api.v1.serializers import ReportRequestSerializer, ReportSerializer
from documents import services as reports
from documents.models import ReportFile
from tournaments.errors import NotAllowedError
from tournaments.models import Event
from tournaments.roles import Role

REPORT = OpenApiParameter(
    "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="report job id"
)


@extend_schema_view(
    get=extend_schema(tags=["reports"], summary="An event's documents"),
    post=extend_schema(
        tags=["reports"],
        summary="Start a document",
        request=ReportRequestSerializer,
        responses={201: ReportSerializer},
        description="The document is made in the background: poll the job for its progress.",
    ),
)
class ReportList(EventScoped, generics.ListAPIView):
    serializer_class = ReportSerializer
    filterset_class = filters.ReportFilter
    event_role = Role.ASSISTANT

    def get_queryset(self) -> QuerySet[ReportFile]:
        if getattr(self, "swagger_fake_view", False):
            return ReportFile.objects.none()
        return visible_reports(self.event, self.role()).order_by("-created_at", "-id")

    def post(self, request: Request, slug: str) -> Response:
        event = self.event  # the role first: a caller without it learns nothing of the body
        given = ReportRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        values = given.validated_data
        if values["kind"] in ReportFile.SECRET_KINDS and self.role() < Role.DIRECTOR:
            raise NotAllowedError(_("Only this event's directors may print this document."))
        report = reports.request_report(
            request.user,
            event,
            values["kind"],
            round_number=values.get("round"),
            page_size=values["page_size"],
            language=values.get("language"),
        )
        body = ReportSerializer(report, context=self.get_serializer_context()).data
        return Response(body, status=status.HTTP_201_CREATED)


@extend_schema_view(
    get=extend_schema(tags=["reports"], summary="A document's progress", parameters=[REPORT])
)
class ReportDetail(FoundMixin, EventScoped, generics.RetrieveAPIView):
    serializer_class = ReportSerializer
    event_role = Role.ASSISTANT
    lookup_url_kwarg = "id"

    def get_queryset(self) -> QuerySet[ReportFile]:
        if getattr(self, "swagger_fake_view", False):
            return ReportFile.objects.none()
        return visible_reports(self.event, self.role())


def visible_reports(event: Event, role: Role) -> QuerySet[ReportFile]:
    """The event's documents for ``role``: the assistants' leave out those that print the cards
    before play or the table devices' PINs (``ReportFile.SECRET_KINDS``)."""
    files = event.reports.select_related("event")
    if role < Role.DIRECTOR:
        files = files.exclude(kind__in=ReportFile.SECRET_KINDS)
    return files


@extend_schema(
    tags=["reports"],
    summary="Download a document",
    parameters=[REPORT],
    responses={
        (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="the file"),
        (200, "text/plain"): OpenApiTypes.BINARY,
        (200, "application/octet-stream"): OpenApiTypes.BINARY,
    },
)
class ReportDownload(APIView):
    """The finished file (404 until the job is done)."""

    def get(self, request: Request, slug: str, id: int) -> Any:
        event = event_for(request, slug, Role.ASSISTANT)
        report = found(visible_reports(event, role_in(request, event)), pk=id)
        if report.status != ReportFile.Status.DONE or not report.file:
            raise Http404(_("The document is not ready yet."))
        try:
            with report.file.open("rb") as stored:  # a few megabytes at most: read in one go
                content = stored.read()
        except FileNotFoundError:
            raise Http404(_("The stored file is missing: make the document again.")) from None
        response = HttpResponse(content, content_type=report.content_type)
        response["Content-Disposition"] = content_disposition_header(True, report.filename)
        return response

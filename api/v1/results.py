"""Writing results through API v1: record, correct, key a second time, keep a keying, accept a
sheet difference; the live check of a line; adjusted scores, penalties and fines.

The TD's entry page uses these endpoints as every other client does. Directors and assistants
may do all of it (an assistant enters results and records rulings); the public nothing. Every
action goes through a service, which checks it, writes it in a transaction and logs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import IO, Any

from django.db.models import Max, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import parsers, permissions, status
from rest_framework.exceptions import NotFound, ParseError
from rest_framework.generics import GenericAPIView
from rest_framework.metadata import SimpleMetadata
from rest_framework.pagination import BasePagination
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import role_in, token_of
from api.v1 import result_serializers as io
from api.v1.filters import ResultFilter
from api.v1.pagination import PagePagination
from api.v1.resources.common import event_for
from api.v1.schema import AutoSchema, ErrorSerializer
from api.v1.serializers import ResultSerializer
from tournaments.errors import UserError
from tournaments.models import Board, Entry, Event, Penalty, Result, Round, SitOutScore, Table
from tournaments.roles import Role
from tournaments.services import adjustments, results
from tournaments.typed_input import number_from_text

TAG = "results"


class JSONParser(parsers.JSONParser):
    """DRF's parser (NaN and Infinity refused), with arrays nested deeper than Python's parser
    goes as a parse error too, instead of a crash."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The request is not valid JSON.")) from None


class Metadata(SimpleMetadata):
    """OPTIONS: the endpoint's name, description and media types. The fields are described by
    the OpenAPI document (each method has its own serializer, which DRF's metadata cannot find)."""

    def determine_actions(self, request: Request, view: Any) -> dict[str, Any]:
        return {}


class EventAPIView(GenericAPIView[Any]):
    """An endpoint of one event: the role is checked by each method (``api.access.require``), so
    that an anonymous caller gets 401 and a signed-in one without the role 403."""

    permission_classes = [permissions.AllowAny]
    parser_classes = [JSONParser]
    metadata_class = Metadata
    schema = AutoSchema()
    pagination_class: type[BasePagination] | None = None
    # For the schema's introspection only: each method loads what it needs for its event.
    queryset: QuerySet[Any] = Result.objects.none()

    def event(self, role: Role = Role.ASSISTANT) -> Event:
        # A draft the caller may not see is not found, like one that does not exist.
        return event_for(self.request, self.kwargs["slug"], role)

    def reveal_cards(self, event: Event, table: Table | None = None) -> bool:
        """Whether the checks may name cards: for directors, or once the round is closed."""
        if role_in(self.request, event) >= Role.DIRECTOR:
            return True
        return table is not None and table.round.status == Round.Status.CLOSED

    def valid(self, serializer_class: type[Any]) -> dict[str, Any]:
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)


def _table(event: Event, round_number: int, table_number: int) -> Table:
    table = (
        Table.objects.filter(round__event=event, round__number=round_number, number=table_number)
        .select_related("round")
        .first()
    )
    if table is None:
        raise UserError(
            _("Round %(r)s of this event has no table %(t)s.")
            % {"r": round_number, "t": table_number},
            code="not_found",
            field="table",
        )
    return table


def _board(event: Event, number: int) -> Board:
    board = Board.objects.filter(event=event, number=number).first()
    if board is None:
        raise UserError(
            _("Board %(n)s is not one of this event's boards.") % {"n": number},
            code="not_found",
            field="board",
        )
    return board


def _entry(event: Event, number: int, field: str) -> Entry:
    entry = Entry.objects.filter(event=event, number=number).select_related("player").first()
    if entry is None:
        raise UserError(
            _("Player %(n)s is not registered for this event.") % {"n": number},
            code="not_found",
            field=field,
        )
    return entry


def _current(event: Event, number: int, table_number: int, board_number: int) -> Result:
    """The current result of a board at a table, named by the address; else 404."""
    table = get_object_or_404(Table, round__event=event, round__number=number, number=table_number)
    result = (
        Result.objects.filter(table=table, board__number=board_number, is_current=True)
        .select_related("table__round", "board", "entered_by")
        .first()
    )
    if result is None:
        raise NotFound(
            _("Board %(b)s at table %(t)s has no result yet.")
            % {"b": board_number, "t": table_number}
        )
    return result


def _current_results(event: Event) -> QuerySet[Result]:
    return (
        Result.objects.filter(event=event, is_current=True)
        .select_related("table__round", "board", "entered_by")
        .order_by("table__round__number", "table__number", "board__number")
    )


RESULT_EXAMPLE = OpenApiExample(
    "A board's result keyed from the sheet",
    value={
        "round": 1,
        "table": 2,
        "board": 5,
        "text": "NE 9H 10",
        "version": 0,
        "sheet": {"N": 8, "E": 8, "S": -8, "W": -8},
        "submission": "0f5c2a9e-5b7d-4a51",
    },
    request_only=True,
)


class ResultList(EventAPIView):
    """The event's current results; record, correct or key a board's result a second time."""

    pagination_class = PagePagination
    filterset_class = ResultFilter

    def get_queryset(self) -> QuerySet[Result]:
        if getattr(self, "swagger_fake_view", False):  # the schema's introspection
            return Result.objects.none()
        return _current_results(self.event())

    @extend_schema(
        tags=[TAG],
        summary="The current results (directors and assistants)",
        responses=ResultSerializer(many=True),
    )
    def get(self, request: Request, slug: str) -> Response:
        rows = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(ResultSerializer(page, many=True).data)

    @extend_schema(
        tags=[TAG],
        summary="Record, correct or key a second time one board's result at a table",
        description=(
            "A new result gives 201. A correction must give the `version` it corrects (else 400 "
            "`version_required`) and a `reason`; a version older than the current one gives 409 "
            "with the current `version` and `notation` in `params`. The same `submission` sent "
            "again is answered with what it stored (200), never stored twice. `second` keys the "
            "sheet a second time, blind: it confirms the first keying when they agree (200). A "
            "line keyed at the table and from the sheet is a second keying too: when they differ "
            "the result keeps the first and shows the other in `other_keying`."
        ),
        request=io.ResultInputSerializer,
        responses={
            201: OpenApiResponse(io.ResultWrittenSerializer, description="a new version"),
            200: OpenApiResponse(
                io.ResultWrittenSerializer,
                description="the stored result: a resent submission, the same line again, a "
                "second keying",
            ),
            409: OpenApiResponse(ErrorSerializer, description="based on an old version"),
        },
        examples=[RESULT_EXAMPLE],
    )
    def post(self, request: Request, slug: str) -> Response:
        event = self.event()
        values = self.valid(io.ResultInputSerializer)
        table = _table(event, values["round"], values["table"])
        board = _board(event, values["board"])
        text = values["text"]
        sheet = values.get("sheet")
        if values["second"]:
            result = results.confirm_result(
                request.user,
                table,
                board,
                text,
                sheet=sheet,
                reveal_cards=self.reveal_cards(event, table),
            )
            return self._written(result, [], status.HTTP_200_OK)
        # 201 or 200 is told afterwards: a version above every one before, written by this user,
        # is new; a resent submission, the same line again or a second keying is not.
        before = (
            Result.objects.filter(table=table, board=board).aggregate(top=Max("version"))["top"]
            or 0
        )
        result = results.record_result(
            request.user,
            table,
            board,
            text,
            expected_version=values.get("version"),
            confirmed=values["confirmed"],
            reason=values.get("reason") or "",
            sheet=sheet,
            submission=values.get("submission") or "",
            source=Result.Source.API if token_of(request) else Result.Source.PAPER,
            reveal_cards=self.reveal_cards(event, table),
        )
        # Warnings of a rare result were acknowledged (else the service refused): shown again.
        reveal = self.reveal_cards(event, table)
        warnings = (
            results.check(event, board, text, reveal_cards=reveal).warnings
            if values["confirmed"]
            else []
        )
        created = result.version > before and result.entered_by_id == request.user.pk
        return self._written(
            result, warnings, status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )

    def _written(self, result: Result, warnings: list[str], code: int) -> Response:
        data = io.ResultWrittenSerializer(result, context={"warnings": warnings}).data
        return Response(data, status=code)


class ResultDetail(EventAPIView):
    @extend_schema(
        tags=[TAG],
        summary="A board's current result at a table",
        responses=io.ResultWrittenSerializer,
    )
    def get(self, request: Request, slug: str, n: int, t: int, b: int) -> Response:
        result = _current(self.event(), n, t, b)
        return Response(io.ResultWrittenSerializer(result).data)


class ResultHistory(EventAPIView):
    @extend_schema(
        tags=[TAG],
        summary="Every version of a board's result at a table, the newest first",
        responses=ResultSerializer(many=True),
    )
    def get(self, request: Request, slug: str, n: int, t: int, b: int) -> Response:
        event = self.event()
        table = get_object_or_404(Table, round__event=event, round__number=n, number=t)
        board = get_object_or_404(Board, event=event, number=b)
        versions = results.history(table, board)
        return Response(ResultSerializer(versions, many=True).data)


class KeepKeying(EventAPIView):
    @extend_schema(
        tags=[TAG],
        summary="Keep the current result over a second keying that differed",
        description="The result is confirmed and `other_keying` cleared. `version` is the one "
        "looked at: a newer one gives 409.",
        request=io.VersionedInputSerializer,
        responses=io.ResultWrittenSerializer,
    )
    def post(self, request: Request, slug: str, n: int, t: int, b: int) -> Response:
        event = self.event()
        values = self.valid(io.VersionedInputSerializer)
        current = _current(event, n, t, b)
        result = results.keep_keying(
            request.user, current, values["reason"], version=values["version"]
        )
        return Response(io.ResultWrittenSerializer(result).data)


class AcceptSheet(EventAPIView):
    @extend_schema(
        tags=[TAG],
        summary="Accept Troef's score over the points written on the sheet",
        request=io.VersionedInputSerializer,
        responses=io.ResultWrittenSerializer,
    )
    def post(self, request: Request, slug: str, n: int, t: int, b: int) -> Response:
        event = self.event()
        values = self.valid(io.VersionedInputSerializer)
        current = _current(event, n, t, b)
        result = results.accept_sheet_difference(
            request.user, current, values["reason"], version=values["version"]
        )
        return Response(io.ResultWrittenSerializer(result).data)


class SheetDifferences(EventAPIView):
    """Results that wait for the TD: the sheet differs, or two keyings differ."""

    pagination_class = PagePagination

    @extend_schema(
        tags=[TAG],
        summary="Open sheet differences and keying differences",
        responses=io.ResultWrittenSerializer(many=True),
    )
    def get(self, request: Request, slug: str) -> Response:
        rows = _current_results(self.event()).filter(
            Q(sheet_status=Result.SheetStatus.OPEN) | ~Q(other_keying="")
        )
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(io.ResultWrittenSerializer(page, many=True).data)


class CheckLine(EventAPIView):
    @extend_schema(
        tags=[TAG],
        summary="Score a result line without saving it",
        request=io.CheckInputSerializer,
        responses=io.LineCheckedSerializer,
    )
    def post(self, request: Request, slug: str) -> Response:
        event = self.event()
        values = self.valid(io.CheckInputSerializer)
        board = _board(event, values["board"])
        # The cards of a board are the directors' until every round that plays it is closed.
        closed = not board.table_boards.exclude(table__round__status=Round.Status.CLOSED).exists()
        checked = results.check(
            event, board, values["text"], reveal_cards=closed or self.reveal_cards(event)
        )
        return Response(
            {
                "notation": checked.notation,
                "scores": dict(zip(io.SEATS, checked.scores, strict=True)),
                "warnings": checked.warnings,
            }
        )


class Adjustments(EventAPIView):
    """Adjusted scores: artificial and weighted scores, a table's artificial scores, byes."""

    @extend_schema(
        tags=["rulings"],
        summary="The event's adjusted scores and scores for byes",
        responses=io.AdjustmentsSerializer,
    )
    def get(self, request: Request, slug: str) -> Response:
        event = self.event()
        scores = _current_results(event).exclude(kind=Result.Kind.PLAYED)
        byes = SitOutScore.objects.filter(event=event).select_related("entry__player", "created_by")
        return Response(io.AdjustmentsSerializer({"scores": scores, "byes": byes}).data)

    @extend_schema(
        tags=["rulings"],
        summary="Give an adjusted score",
        description=(
            "`kind` says which, and which fields it needs: `artificial` (round, table, board, "
            "awards), `weighted` (round, table, board, outcomes), `table` (round, table, awards: "
            "every board of the table without a played result) or `bye` (round, entry, award). "
            "Always a reason."
        ),
        request=io.AdjustmentInputSerializer,
        responses={201: io.AdjustmentWrittenSerializer},
    )
    def post(self, request: Request, slug: str) -> Response:
        event = self.event()
        values = self.valid(io.AdjustmentInputSerializer)
        kind, reason = values["kind"], values["reason"]
        written: list[Result] = []
        bye = None
        if kind == "bye":
            entry = _entry(event, values["entry"], "entry")
            bye = adjustments.score_bye(
                request.user, entry, values["round"], values["award"], reason
            )
            message = _("Score for the bye of %(name)s recorded.") % {"name": entry.player}
        else:
            table = _table(event, values["round"], values["table"])
            if kind == "table":
                written = adjustments.award_table_artificial(
                    request.user, table, values["awards"], reason
                )
                message = adjustments.table_award_message(table, written)
            elif kind == "artificial":
                board = _board(event, values["board"])
                written = [
                    adjustments.award_artificial(
                        request.user, table, board, values["awards"], reason
                    )
                ]
                message = _("Artificial score recorded.")
            else:
                board = _board(event, values["board"])
                outcomes = [
                    (number_from_text(o["weight"], "outcomes") / 100, o["text"])
                    for o in values["outcomes"]
                ]
                written = [adjustments.award_weighted(request.user, table, board, outcomes, reason)]
                message = _("Weighted score recorded.")
        data = io.AdjustmentWrittenSerializer(
            {"kind": kind, "results": written, "bye": bye, "message": message}
        ).data
        return Response(data, status=status.HTTP_201_CREATED)


def _penalties(event: Event) -> QuerySet[Penalty]:
    return (
        Penalty.objects.filter(event=event)
        .select_related("event", "offender__player", "table__round", "board", "created_by")
        .order_by("created_at", "id")
    )


class Penalties(EventAPIView):
    pagination_class = PagePagination
    queryset = Penalty.objects.none()

    @extend_schema(
        tags=["rulings"],
        summary="Every penalty and fine of the event, the cancelled ones too",
        responses=io.PenaltySerializer(many=True),
    )
    def get(self, request: Request, slug: str) -> Response:
        page = self.paginate_queryset(_penalties(self.event()))
        return self.get_paginated_response(io.PenaltySerializer(page, many=True).data)

    @extend_schema(
        tags=["rulings"],
        summary="Give a penalty on a board, or a fine",
        request=io.PenaltyInputSerializer,
        responses={201: io.PenaltySerializer},
    )
    def post(self, request: Request, slug: str) -> Response:
        event = self.event()
        values = self.valid(io.PenaltyInputSerializer)
        offender = _entry(event, values["offender"], "offender")
        if values["kind"] == "fine":
            amount: Fraction = number_from_text(values["amount"], "amount")
            item = adjustments.record_fine(request.user, event, offender, amount, values["reason"])
        else:
            table = _table(event, values["round"], values["table"])
            board = _board(event, values["board"])
            item = adjustments.record_penalty(
                request.user, table, board, offender, values["kind"], values["reason"]
            )
        item = _penalties(event).get(pk=item.pk)
        return Response(io.PenaltySerializer(item).data, status=status.HTTP_201_CREATED)


class PenaltyCancel(EventAPIView):
    queryset = Penalty.objects.none()

    @extend_schema(
        tags=["rulings"],
        summary="Withdraw a penalty or fine (it stays on record, inactive)",
        request=io.ReasonSerializer,
        responses=io.PenaltySerializer,
    )
    def post(self, request: Request, slug: str, pk: int) -> Response:
        event = self.event()
        values = self.valid(io.ReasonSerializer)
        item = get_object_or_404(Penalty, event=event, pk=pk)
        adjustments.cancel_penalty(request.user, item, values["reason"])
        return Response(io.PenaltySerializer(_penalties(event).get(pk=pk)).data)

"""The table device's endpoints: a phone at a table gives the PIN, shows the table, keys results.

A device is not a user: it is a browser session holding a grant for one table in one round
(``tournaments.services.devices``), given by the PIN on the table card. It may read and write only
that table's boards, in that round, while the round is in play. Results it keys are the system's
(``actor`` None), with the seat of the player who keyed them.

Every save carries the device's own key (``submission``): sent again after a lost answer, it is
answered with what that save stored, never stored twice and never called a conflict.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.v1.resources.common import event_for
from api.v1.schema import ErrorSerializer
from tournaments import throttle
from tournaments.errors import NotAllowedError, UserError
from tournaments.models import Board, Result, Round, Table
from tournaments.roles import Role
from tournaments.services import devices, results
from tournaments.typed_input import clean_text

TAGS = ["table devices"]
SEAT_CHOICES = [("N", "N"), ("E", "E"), ("S", "S"), ("W", "W")]


class DeviceSession(SessionAuthentication):
    """The device's session cookie: no user, but CSRF is checked on every write all the same,
    so that another site cannot key results through a phone that gave the PIN."""

    def authenticate(self, request: Request) -> None:
        self.enforce_csrf(request)
        return None


# drf-spectacular registers extensions in an untyped __init_subclass__.
class DeviceSessionScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "api.v1.device.DeviceSession"
    name = "deviceSession"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": "sessionid",
            "description": "The session of a browser that gave the table's PIN "
            "(POST /api/v1/device/{key}/session/); writes send the CSRF token in X-CSRFToken.",
        }


# --- bodies --------------------------------------------------------------------------------------


class PinSerializer(serializers.Serializer):
    pin = serializers.CharField(max_length=12, help_text="the PIN printed on the table card")


class CheckSerializer(serializers.Serializer):
    board = serializers.IntegerField(min_value=1, max_value=32767, help_text="the board's number")
    text = serializers.CharField(max_length=80, help_text="the result line, e.g. 'NE 9H 10'")


class SaveSerializer(CheckSerializer):
    seat = serializers.ChoiceField(SEAT_CHOICES, help_text="the seat of the player who keys it")
    submission = serializers.RegexField(
        r"^[A-Za-z0-9_-]{8,64}$",
        help_text="this save's own key (8-64 letters, digits, - or _): sent again, the same "
        "save is answered with what it stored",
    )
    version = serializers.IntegerField(
        min_value=0,
        max_value=32767,
        required=False,
        allow_null=True,
        help_text="the version the keyer saw (0: none yet); required to correct a result",
    )
    confirmed = serializers.BooleanField(
        default=False, help_text="the keyer confirms a result the warnings call unlikely"
    )
    reason = serializers.CharField(
        max_length=300,
        required=False,
        allow_blank=True,
        default="",
        help_text="why it is corrected",
    )


class ConfirmSerializer(serializers.Serializer):
    seat = serializers.ChoiceField(SEAT_CHOICES, help_text="the confirming opponent's seat")
    version = serializers.IntegerField(
        min_value=1, max_value=32767, help_text="the version the opponent saw"
    )


class ScoresSerializer(serializers.Serializer):
    N = serializers.IntegerField()
    E = serializers.IntegerField()
    S = serializers.IntegerField()
    W = serializers.IntegerField()


class DeviceResultSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    kind = serializers.CharField(help_text="played, artificial or weighted")
    notation = serializers.CharField()
    words = serializers.CharField(help_text="the result in words, in the user's language")
    scores = ScoresSerializer()
    state = serializers.ChoiceField(
        [
            ("keyed", "keyed"),
            ("waiting", "waiting"),
            ("confirmed", "confirmed"),
            ("differs", "differs"),
        ],
        help_text="waiting: keyed at the table, no opponent confirmed it yet; differs: a second "
        "keying or the paper sheet says otherwise",
    )
    # Named as the result's field; DRF's Field has a "source" attribute of its own.
    source = serializers.CharField(help_text="paper, device or api")  # type: ignore[assignment]
    keyed_at_seat = serializers.CharField(allow_blank=True)
    confirmed_by = serializers.CharField(allow_blank=True)
    other_keying = serializers.CharField(allow_blank=True)


class DeviceBoardSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    position = serializers.IntegerField()
    dealer = serializers.CharField()
    result = DeviceResultSerializer(allow_null=True)


class DeviceSeatSerializer(serializers.Serializer):
    seat = serializers.CharField()
    number = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_blank=True)


class _EventSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class _RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()


class _TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()


class DeviceTableSerializer(serializers.Serializer):
    event = _EventSerializer()
    round = _RoundSerializer()
    table = _TableSerializer()
    seats = DeviceSeatSerializer(many=True)
    boards = DeviceBoardSerializer(many=True)
    totals = ScoresSerializer(help_text="each seat's points over the round's boards keyed so far")


class GrantSerializer(serializers.Serializer):
    event = _EventSerializer()
    round = _RoundSerializer()
    table = _TableSerializer()


class CheckedSerializer(serializers.Serializer):
    notation = serializers.CharField()
    words = serializers.CharField()
    scores = ScoresSerializer()
    warnings = serializers.ListField(child=serializers.CharField())


class SavedSerializer(DeviceResultSerializer):
    board = serializers.IntegerField()
    warnings = serializers.ListField(child=serializers.CharField())


# --- views ---------------------------------------------------------------------------------------


def _error(code: str, message: str, field: str | None = None, **params: Any) -> dict[str, Any]:
    return {"code": code, "message": message, "field": field, "params": params}


class DeviceView(APIView):
    authentication_classes = [DeviceSession]
    permission_classes = [permissions.AllowAny]

    def table(self, key: str) -> Table:
        table = devices.table_for_key(key)
        if table is None:
            raise UserError(_("This table link is not known."), code="not_found")
        return table

    def granted_table(self, request: Request, key: str) -> Table:
        """The key's table, if this browser gave its PIN and its round is in play; else 403."""
        table = self.table(key)
        if table.round.status != Round.Status.OPEN:
            raise NotAllowedError(
                _("Round %(n)s is not in play: nothing more is keyed at the table.")
                % {"n": table.round.number}
            )
        if not devices.is_granted(request.session, table):
            raise NotAllowedError(_("Give the PIN printed on the table card first."))
        return table

    def board(self, table: Table, number: int) -> Board:
        """One of the table's boards in its round; any other is refused (403)."""
        board = (
            Board.objects.filter(table_boards__table=table, number=number).first()
            if 0 < number < 32768  # a board number the column holds; a longer one is none
            else None
        )
        if board is None or table.ruling == Table.Ruling.SIT_OUT:
            raise NotAllowedError(
                _(
                    "Table %(t)s does not play board %(b)s in round %(r)s: this device keys only "
                    "its own table's boards."
                )
                % {"t": table.number, "b": number, "r": table.round.number}
            )
        return board

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, UserError) and exc.code == "not_found":
            return Response(_error(exc.code, exc.message), status=status.HTTP_404_NOT_FOUND)
        return super().handle_exception(exc)


class DeviceSessionView(DeviceView):
    @extend_schema(
        tags=TAGS,
        operation_id="device_session",
        summary="Give the table's PIN",
        description="Opens this browser's session for the table and its round (a cookie). Wrong "
        "PINs are throttled per table and address: 429 with Retry-After once locked.",
        request=PinSerializer,
        responses={
            200: GrantSerializer,
            429: OpenApiResponse(ErrorSerializer, description="too many wrong PINs"),
        },
    )
    def post(self, request: Request, key: str) -> Response:
        body = PinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        address = throttle.client_address(request._request)
        try:
            table = devices.check_pin(key, body.validated_data["pin"], address)
        except devices.PinLockedError as error:
            return Response(
                _error(error.code, error.message, error.field, **error.params),
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(error.seconds)},
            )
        devices.grant(request.session, table)
        state = devices.table_state(table)
        return Response({name: state[name] for name in ("event", "round", "table")})


class DeviceTableView(DeviceView):
    @extend_schema(
        tags=TAGS,
        operation_id="device_table",
        summary="The table: seats, the round's boards, results and totals",
        description="Answers 304 to If-None-Match with the current ETag: poll it cheaply.",
        responses={200: DeviceTableSerializer, 304: OpenApiResponse(description="not changed")},
    )
    def get(self, request: Request, key: str) -> Response:
        table = self.granted_table(request, key)
        tag = devices.table_etag(table, get_language() or "")
        headers = {"ETag": tag, "Cache-Control": "private, no-cache", "Vary": "Cookie"}
        if tag in request.headers.get("If-None-Match", ""):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
        return Response(devices.table_state(table), headers=headers)


class DeviceCheckView(DeviceView):
    @extend_schema(
        tags=TAGS,
        operation_id="device_check",
        summary="Score a result line without saving it",
        request=CheckSerializer,
        responses={200: CheckedSerializer},
    )
    def post(self, request: Request, key: str) -> Response:
        table = self.granted_table(request, key)
        body = CheckSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        board = self.board(table, body.validated_data["board"])
        text = clean_text(body.validated_data["text"], "text", max_length=80)
        # The players at the table may not learn the other hands from the checks.
        checked = results.check(table.round.event, board, text, reveal_cards=False)
        return Response(
            {
                "notation": checked.notation,
                "words": devices.line_in_words(checked.notation, table.round.event.game),
                "scores": dict(zip("NESW", checked.scores, strict=True)),
                "warnings": checked.warnings,
            }
        )


class DeviceResultView(DeviceView):
    @extend_schema(
        tags=TAGS,
        operation_id="device_result",
        summary="Key a board's result at the table",
        description="Records the result (a correction needs the version it corrects and a "
        "reason). The same submission sent again gets what it stored, with 200. A board keyed "
        "on paper by the TD as well is a second keying: the same result confirms it, a "
        "different one is flagged for the TD.",
        request=SaveSerializer,
        responses={200: SavedSerializer},
    )
    def post(self, request: Request, key: str) -> Response:
        table = self.granted_table(request, key)
        body = SaveSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        board = self.board(table, data["board"])
        text = clean_text(data["text"], "text", max_length=80)
        reason = clean_text(data["reason"], "reason", max_length=results.REASON_LENGTH)
        result = results.record_result(
            None,
            table,
            board,
            text,
            expected_version=data.get("version"),
            confirmed=data["confirmed"],
            reason=reason,
            submission=data["submission"],
            source=Result.Source.DEVICE,
            seat=data["seat"],
            reveal_cards=False,
        )
        return Response(
            {
                "board": board.number,
                **devices.describe_result(result, table.round.event.game),
                "warnings": [],
            }
        )


class DeviceConfirmView(DeviceView):
    @extend_schema(
        tags=TAGS,
        operation_id="device_confirm",
        summary="An opponent confirms the board's result at the table",
        description="The seat must be another than the one that keyed the result.",
        request=ConfirmSerializer,
        responses={200: SavedSerializer},
    )
    def post(self, request: Request, key: str, board: int) -> Response:
        table = self.granted_table(request, key)
        body = ConfirmSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        found = self.board(table, board)
        result = results.confirm_at_table(
            None,
            table,
            found,
            body.validated_data["seat"],
            version=body.validated_data["version"],
        )
        return Response(
            {
                "board": found.number,
                **devices.describe_result(result, table.round.event.game),
                "warnings": [],
            }
        )


# --- the director's side: each table's link and PIN ----------------------------------------------


class TableDeviceSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    key = serializers.CharField(help_text="the secret in the table's link")
    url = serializers.CharField(help_text="the link printed (and in the QR code) on the table card")
    pin = serializers.CharField(help_text="the PIN printed beside it")


class RoundDevicesView(APIView):
    """A round's table devices: the director reads the links and PINs, or makes new PINs."""

    def round(self, request: Request, slug: str, number: int) -> Round:
        # A draft the caller may not see is not found, like one that does not exist.
        event = event_for(request, slug, Role.DIRECTOR)
        found = Round.objects.select_related("event").filter(event=event, number=number).first()
        if found is None:
            raise UserError(_("There is no such round."), code="not_found")
        return found

    def listed(self, request: Request, tables: list[Table]) -> Response:
        base = request.build_absolute_uri("/")
        return Response(
            [
                {
                    "table": t.number,
                    "key": t.device_key,
                    "url": devices.device_url(t, base),
                    "pin": t.device_pin,
                }
                for t in tables
            ]
        )

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, UserError) and exc.code == "not_found":
            return Response(_error(exc.code, exc.message), status=status.HTTP_404_NOT_FOUND)
        return super().handle_exception(exc)

    @extend_schema(
        tags=TAGS,
        operation_id="round_devices",
        summary="Each table's device link and PIN (directors)",
        responses={200: TableDeviceSerializer(many=True)},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        round_ = self.round(request, slug, number)
        return self.listed(request, devices.ensure_device_keys(request.user, round_))

    @extend_schema(
        tags=TAGS,
        operation_id="round_device_pins",
        summary="New PINs for every table of the round (directors)",
        description="Phones that gave an old PIN must give the new one.",
        request=None,
        responses={200: TableDeviceSerializer(many=True)},
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        round_ = self.round(request, slug, number)
        return self.listed(request, devices.renew_pins(request.user, round_))

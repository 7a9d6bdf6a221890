"""What the result endpoints of API v1 take and give: results and their keyings, the entry page's
live check, adjusted scores, penalties and fines.

Every request field has a strict type and bounds (a list where a number belongs, a huge number or
a very long text is a 400 naming the field, never a 500); the services check the rest.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.v1.serializers import ResultSerializer, SeatScoresSerializer
from tournaments.game import display
from tournaments.models import Penalty, Result, SitOutScore
from tournaments.services import results, standings

# The database's small integers: rounds, tables, boards, versions and entry numbers fit in them.
SMALL = 32767
# A result line is short (the notation's column holds 80 characters).
LINE_LENGTH = 80
SEATS = "NESW"


@extend_schema_field(
    {
        "type": "object",
        "properties": {
            seat: {"oneOf": [{"type": "integer"}, {"type": "string"}]} for seat in SEATS
        },
        "additionalProperties": False,
    }
)
class SheetField(serializers.DictField):
    """The points written on the paper sheet, per seat (``{"N": 8, "E": "-8"}``); seats may be left
    out. Whole numbers, as numbers or as typed."""

    child = serializers.CharField(max_length=12, allow_blank=True, allow_null=True)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value = super().to_internal_value(data)
        unknown = sorted(key for key in value if key not in SEATS)
        if unknown:
            raise serializers.ValidationError(
                _("The sheet has points for N, E, S and W only, not %(seats)s.")
                % {"seats": ", ".join(str(key)[:4] for key in unknown[:4])}
            )
        return value


class ResultWrittenSerializer(ResultSerializer):
    """A result as a write left it, with what the keyer needs to see at once."""

    shown = serializers.SerializerMethodField(
        help_text=_lazy(
            "the result as the TD's pages show it: a played line, an adjusted score in words"
        )
    )
    sheet_mismatch = serializers.SerializerMethodField(
        help_text=_lazy("seats whose points on the sheet differ from Troef's score")
    )
    warnings = serializers.SerializerMethodField(
        help_text=_lazy(
            "what is unusual about the result (a rare contract), in the user's language"
        )
    )

    class Meta(ResultSerializer.Meta):
        fields = [*ResultSerializer.Meta.fields, "shown", "sheet_mismatch", "warnings"]

    def get_shown(self, result: Result) -> str:
        return results.describe(result)

    def get_sheet_mismatch(self, result: Result) -> list[str]:
        return results.sheet_mismatch(result, result.sheet)

    def get_warnings(self, result: Result) -> list[str]:
        return list(self.context.get("warnings", []))


class ResultInputSerializer(serializers.Serializer):
    """Record a board's result at a table, correct it, or key it a second time."""

    round = serializers.IntegerField(min_value=1, max_value=SMALL)
    table = serializers.IntegerField(min_value=1, max_value=SMALL)
    board = serializers.IntegerField(min_value=1, max_value=SMALL)
    text = serializers.CharField(
        max_length=LINE_LENGTH, help_text=_lazy("a result line as on the sheet, e.g. 'NE 9H 10'")
    )
    version = serializers.IntegerField(
        min_value=0,
        max_value=SMALL,
        required=False,
        allow_null=True,
        help_text=_lazy("the version the writer saw (0 for none yet); a correction must give it"),
    )
    reason = serializers.CharField(
        max_length=results.REASON_LENGTH,
        required=False,
        allow_blank=True,
        allow_null=True,
        help_text=_lazy("why a result is corrected (required for a correction)"),
    )
    confirmed = serializers.BooleanField(
        required=False, default=False, help_text=_lazy("the warnings of a rare result were checked")
    )
    sheet = SheetField(required=False, allow_null=True)
    submission = serializers.RegexField(
        results.SUBMISSION.pattern,
        required=False,
        allow_blank=True,
        allow_null=True,
        help_text=_lazy(
            "the client's own key for this save (8-64 letters, digits, - or _): sent again "
            "after a lost answer, it gets the stored result instead of a second one"
        ),
    )
    second = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_lazy("a blind second keying of the sheet: confirms the first when they agree"),
    )


class VersionedInputSerializer(serializers.Serializer):
    """An action on the current result, based on the version the writer saw."""

    version = serializers.IntegerField(
        min_value=1, max_value=SMALL, help_text=_lazy("the version the writer looked at")
    )
    reason = serializers.CharField(
        max_length=results.REASON_LENGTH, required=False, allow_blank=True, default=""
    )


class CheckInputSerializer(serializers.Serializer):
    board = serializers.IntegerField(min_value=1, max_value=SMALL)
    text = serializers.CharField(max_length=LINE_LENGTH, allow_blank=False)


class LineCheckedSerializer(serializers.Serializer):
    """A result line scored, not saved."""

    notation = serializers.CharField(help_text=_lazy("the line as Troef writes it"))
    scores = SeatScoresSerializer()
    warnings = serializers.ListField(child=serializers.CharField())


AWARD_HELP = _lazy("average_plus, average, average_minus, or a percentage from 0 to 100")


@extend_schema_field(
    {
        "type": "object",
        "properties": {
            seat: {"type": "string", "nullable": True, "description": AWARD_HELP} for seat in SEATS
        },
        "additionalProperties": False,
    }
)
class AwardsField(serializers.DictField):
    """An award per seat: ``average_plus``, ``average``, ``average_minus`` or a percentage."""

    child = serializers.CharField(max_length=16, allow_blank=True, allow_null=True)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value = super().to_internal_value(data)
        unknown = sorted(key for key in value if key not in SEATS)
        if unknown:
            raise serializers.ValidationError(
                _("Give awards for N, E, S and W only, not %(seats)s.")
                % {"seats": ", ".join(str(key)[:4] for key in unknown[:4])}
            )
        return value


class OutcomeSerializer(serializers.Serializer):
    weight = serializers.CharField(
        max_length=12, help_text=_lazy("a percentage, e.g. '30' or '33.3'")
    )
    text = serializers.CharField(max_length=LINE_LENGTH, help_text=_lazy("a result line"))


class AdjustmentInputSerializer(serializers.Serializer):
    """An adjusted score: on a board at a table (``artificial``, ``weighted``), on every board of
    a table not played (``table``), or for a player's bye in a round (``bye``)."""

    kind = serializers.ChoiceField(choices=["artificial", "weighted", "table", "bye"])
    round = serializers.IntegerField(min_value=1, max_value=SMALL)
    table = serializers.IntegerField(
        min_value=1, max_value=SMALL, required=False, help_text=_lazy("artificial, weighted, table")
    )
    board = serializers.IntegerField(
        min_value=1, max_value=SMALL, required=False, help_text=_lazy("artificial, weighted")
    )
    awards = AwardsField(
        required=False,
        help_text=_lazy(
            "artificial, table: an award per seat; at a table, null for an absentee's seat"
        ),
    )
    outcomes = serializers.ListField(
        child=OutcomeSerializer(),
        min_length=1,
        max_length=3,
        required=False,
        help_text=_lazy("weighted: the possible results and their weights (adding up to 100)"),
    )
    entry = serializers.IntegerField(
        min_value=1, max_value=SMALL, required=False, help_text=_lazy("bye: the player's number")
    )
    award = serializers.ChoiceField(
        choices=SitOutScore.Award.values, required=False, help_text=_lazy("bye: the score")
    )
    reason = serializers.CharField(max_length=results.REASON_LENGTH)

    NEEDS = {
        "artificial": ("table", "board", "awards"),
        "weighted": ("table", "board", "outcomes"),
        "table": ("table", "awards"),
        "bye": ("entry", "award"),
    }

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        missing = [name for name in self.NEEDS[attrs["kind"]] if name not in attrs]
        if missing:
            raise serializers.ValidationError(
                {missing[0]: _("This field is required for this kind of score.")}
            )
        return attrs


class ByeScoreSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round_number", read_only=True)
    entry = serializers.IntegerField(source="entry.number", read_only=True)
    name = serializers.CharField(source="entry.player.full_name", read_only=True)
    created_by = serializers.SerializerMethodField()

    class Meta:
        model = SitOutScore
        fields = ["round", "entry", "name", "award", "reason", "created_by", "created_at"]
        read_only_fields = fields

    def get_created_by(self, item: SitOutScore) -> str | None:
        return item.created_by.get_username() if item.created_by else None


class AdjustmentsSerializer(serializers.Serializer):
    """The event's adjusted scores: current artificial and weighted results, and byes' scores."""

    scores = ResultWrittenSerializer(many=True)
    byes = ByeScoreSerializer(many=True)


class AdjustmentWrittenSerializer(serializers.Serializer):
    """What an adjusted score wrote: result versions, or a bye's score."""

    kind = serializers.CharField()
    results = ResultWrittenSerializer(many=True)
    bye = ByeScoreSerializer(allow_null=True)
    message = serializers.CharField(help_text=_lazy("what was done, in the user's language"))


class PenaltySerializer(serializers.ModelSerializer):
    """A penalty on a board, or a fine (``kind`` "fine") off a player's total."""

    offender = serializers.IntegerField(source="offender.number", read_only=True)
    name = serializers.CharField(source="offender.player.full_name", read_only=True)
    round = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField()
    board = serializers.SerializerMethodField()
    points = serializers.SerializerMethodField(help_text=_lazy("a penalty: each seat's points"))
    amount = serializers.SerializerMethodField(help_text=_lazy("a fine: what comes off the total"))
    created_by = serializers.SerializerMethodField()

    class Meta:
        model = Penalty
        fields = [
            "id",
            "kind",
            "offender",
            "name",
            "round",
            "table",
            "board",
            "points",
            "amount",
            "reason",
            "is_active",
            "created_by",
            "created_at",
        ]
        read_only_fields = fields

    def get_round(self, item: Penalty) -> int | None:
        return item.table.round.number if item.table else None

    def get_table(self, item: Penalty) -> int | None:
        return item.table.number if item.table else None

    def get_board(self, item: Penalty) -> int | None:
        return item.board.number if item.board else None

    @extend_schema_field(
        {"type": "object", "additionalProperties": {"type": "integer"}, "description": "by seat"}
    )
    def get_points(self, item: Penalty) -> dict[str, int]:
        seats = item.points.get("seats", {}) if item.board_id else {}
        return {seat: int(seats[seat]) for seat in SEATS if seat in seats}

    def get_amount(self, item: Penalty) -> str | None:
        if item.fine is None:
            return None
        # As the standings show it: two decimals in a matchpoint event, whole points otherwise.
        return display(Fraction(item.fine), standings.decimals(item.event))

    def get_created_by(self, item: Penalty) -> str | None:
        return item.created_by.get_username() if item.created_by else None


class PenaltyInputSerializer(serializers.Serializer):
    """A penalty of the ruleset on a board (``round``, ``table``, ``board``), or a fine (``kind``
    "fine", ``amount``)."""

    kind = serializers.CharField(
        max_length=40,
        help_text=_lazy("'fine', or a penalty of the event's ruleset (e.g. 'revoke')"),
    )
    offender = serializers.IntegerField(
        min_value=1, max_value=SMALL, help_text=_lazy("the player's number")
    )
    round = serializers.IntegerField(min_value=1, max_value=SMALL, required=False)
    table = serializers.IntegerField(min_value=1, max_value=SMALL, required=False)
    board = serializers.IntegerField(min_value=1, max_value=SMALL, required=False)
    amount = serializers.CharField(
        max_length=12, required=False, help_text=_lazy("a fine: points, or percentage points")
    )
    reason = serializers.CharField(max_length=results.REASON_LENGTH)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        needs = ("amount",) if attrs["kind"] == "fine" else ("round", "table", "board")
        missing = [name for name in needs if name not in attrs]
        if missing:
            raise serializers.ValidationError(
                {missing[0]: _("This field is required for this kind of penalty.")}
            )
        return attrs


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=results.REASON_LENGTH)

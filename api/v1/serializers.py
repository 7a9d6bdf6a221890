"""The bodies of API v1: every field typed and described, so the OpenAPI document is complete.

The descriptions are for programmers and stay in English, as the document's own words do; what a
user reads (error messages, choice labels) is translated.

What a role may see is decided by the views (``api.access``); serializers only leave out what the
view's context says is hidden (the cards of a board still in play, a table device's PIN).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from documents.models import ReportFile
from tournaments.game import MAX_PLAYERS
from tournaments.models import (
    Board,
    Club,
    Entry,
    Event,
    Player,
    Result,
    Round,
    Seating,
    Series,
    Table,
)


@extend_schema_serializer(component_name="ScoresBySeat")
class SeatScoresSerializer(serializers.Serializer):
    """A figure per seat."""

    N = serializers.IntegerField()
    E = serializers.IntegerField()
    S = serializers.IntegerField()
    W = serializers.IntegerField()


# --- events, clubs, players ------------------------------------------------------------------


class EventSerializer(serializers.ModelSerializer):
    deal_key = serializers.SerializerMethodField(
        help_text="the dealing key, once the event is finished and the key revealed"
    )
    organisation = serializers.CharField(
        source="organisation.name", allow_null=True, default=None, read_only=True
    )

    class Meta:
        model = Event
        fields = [
            "slug",
            "name",
            "date",
            "venue",
            "language",
            "game",
            "ruleset_name",
            "comparison",
            "rounds",
            "boards_per_round",
            "seating_mode",
            "board_mode",
            "status",
            "organisation",
            "deal_commitment",
            "deal_key",
            # Where the deals came from: "generated" (commitment and key) or "imported" (the
            # file's name and SHA-256; no commitment, no key).
            "deal_source",
            "deal_file_name",
            "deal_file_sha256",
        ]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_deal_key(self, event: Event) -> str | None:
        return event.deal_key if event.deal_key_revealed_at else None


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "city"]


class PlayerSerializer(serializers.ModelSerializer):
    club = ClubSerializer(allow_null=True)

    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "club", "federation_number"]


class EntrySerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.full_name")
    club = serializers.CharField(source="player.club.name", allow_null=True, default=None)

    class Meta:
        model = Entry
        fields = [
            "number",
            "name",
            "club",
            "status",
            "role",
            "first_round",
            "withdrawn_after_round",
        ]


# --- rounds, tables, boards -----------------------------------------------------------------


class RoundSerializer(serializers.ModelSerializer):
    tables = serializers.IntegerField(source="table_count", help_text="tables in play")

    class Meta:
        model = Round
        fields = ["number", "status", "opened_at", "closed_at", "tables"]


class SeatingSerializer(serializers.ModelSerializer):
    entry = serializers.IntegerField(
        source="entry.number",
        allow_null=True,
        default=None,
        help_text="player number; null for a vacant seat",
    )
    name = serializers.CharField(source="entry.player.full_name", allow_null=True, default=None)
    replaces = serializers.IntegerField(
        source="replaces.number",
        allow_null=True,
        default=None,
        help_text=("the player number the movement planned here, when someone else or nobody sits"),
    )

    class Meta:
        model = Seating
        fields = ["seat", "entry", "name", "replaces"]


class DeviceSerializer(serializers.Serializer):
    """The table device's way in, as printed on the table card: directors only."""

    link = serializers.URLField(allow_null=True)
    pin = serializers.CharField(allow_blank=True)


class TableSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number")
    seatings = SeatingSerializer(many=True)
    boards = serializers.SerializerMethodField(help_text="the board numbers, in playing order")
    device = serializers.SerializerMethodField(
        help_text="the table device's link and PIN; only for the event's directors"
    )

    class Meta:
        model = Table
        fields = ["round", "number", "ruling", "seatings", "boards", "device"]

    def get_boards(self, table: Table) -> list[int]:
        return [tb.board.number for tb in table.table_boards.all()]

    @extend_schema_field(DeviceSerializer(allow_null=True))
    def get_device(self, table: Table) -> dict[str, Any] | None:
        if not self.context.get("director"):
            return None
        request = self.context.get("request")
        link = None
        if table.device_key and request is not None:
            link = request.build_absolute_uri(f"/t/{table.device_key}/")
        return {"link": link, "pin": table.device_pin}


class BoardSerializer(serializers.ModelSerializer):
    cards_shown = serializers.SerializerMethodField(
        help_text=(
            "whether the cards are shown: to the event's directors always, to everyone else once "
            "every round that plays the board is closed"
        )
    )
    deal = serializers.SerializerMethodField(help_text="the four hands in PBN, when shown")
    deal_index = serializers.SerializerMethodField(help_text="the deal's number, when shown")
    trump_card = serializers.SerializerMethodField(
        help_text="the turned-up card, when the cards are shown (it is one of the dealer's)"
    )

    class Meta:
        model = Board
        fields = ["number", "dealer", "cards_shown", "trump_card", "deal", "deal_index"]

    def _shown(self, board: Board) -> bool:
        shown = self.context.get("cards_shown")
        return bool(shown is True or (shown and board.pk in shown))

    def get_cards_shown(self, board: Board) -> bool:
        return self._shown(board)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_deal(self, board: Board) -> str | None:
        return board.deal if self._shown(board) else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_deal_index(self, board: Board) -> str | None:
        return board.deal_index if self._shown(board) else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_trump_card(self, board: Board) -> str | None:
        return board.trump_card if self._shown(board) else None


# --- results ----------------------------------------------------------------------------------


class ResultSerializer(serializers.ModelSerializer):
    """One version of a table's result on a board."""

    round = serializers.IntegerField(source="table.round.number")
    table = serializers.IntegerField(source="table.number")
    board = serializers.IntegerField(source="board.number")
    scores = serializers.SerializerMethodField()
    sheet = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="the points written on the paper sheet, per seat",
    )
    entered_by = serializers.CharField(
        source="entered_by.get_username", allow_null=True, default=None
    )

    class Meta:
        model = Result
        fields = [
            "round",
            "table",
            "board",
            "version",
            "is_current",
            "kind",
            "status",
            "source",
            "notation",
            "data",
            "scores",
            "reason",
            "sheet",
            "sheet_status",
            "keyed_at_seat",
            "table_confirmed_by",
            "table_confirmed_at",
            "other_keying",
            "other_keying_source",
            "entered_by",
            "entered_at",
        ]

    @extend_schema_field(SeatScoresSerializer)
    def get_scores(self, result: Result) -> dict[str, int]:
        return dict(zip("NESW", result.scores, strict=True))


# --- standings and rankings ---------------------------------------------------------------------


class StandingsRowSerializer(serializers.Serializer):
    place = serializers.CharField(help_text="'3', or '3=' for a shared place; '' while unranked")
    entry = serializers.IntegerField(help_text="player number")
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    withdrawn = serializers.BooleanField()
    total = serializers.CharField(
        allow_blank=True, help_text="the ranking figure as shown: a percentage or points"
    )
    rounds = serializers.DictField(
        child=serializers.CharField(), help_text="each round's figure, by round number"
    )
    boards = serializers.IntegerField()
    sat_out = serializers.IntegerField()
    raw_total = serializers.CharField(allow_blank=True)
    fines = serializers.CharField(allow_blank=True)
    decided_by = serializers.CharField(
        allow_null=True, help_text="the tie-break that decided the place, if one did"
    )


class StandingsSerializer(serializers.Serializer):
    event = serializers.SlugField()
    comparison = serializers.ChoiceField(
        choices=Event.Comparison.choices,
        help_text="how boards are compared: raw totals, matchpoints or datum",
    )
    round = serializers.IntegerField(
        allow_null=True, help_text="the round ranked on its own; null for the whole event"
    )
    computed_at = serializers.DateTimeField(allow_null=True)
    up_to_date = serializers.BooleanField(
        help_text="false while results are waiting to be counted in"
    )
    rounds = serializers.ListField(child=serializers.IntegerField())
    results = serializers.IntegerField(help_text="results counted")
    left_out = serializers.IntegerField(
        help_text="records left out until the director corrects them"
    )
    rows = StandingsRowSerializer(many=True)


class ClubMemberSerializer(serializers.Serializer):
    name = serializers.CharField()
    total = serializers.CharField()


class ClubRankingRowSerializer(serializers.Serializer):
    place = serializers.CharField()
    club = serializers.CharField()
    total = serializers.CharField()
    members = ClubMemberSerializer(many=True, help_text="the members whose results count")
    complete = serializers.BooleanField(help_text="whether best_of members counted")


class ClubRankingSerializer(serializers.Serializer):
    event = serializers.SlugField()
    comparison = serializers.ChoiceField(choices=Event.Comparison.choices)
    best_of = serializers.IntegerField()
    rows = ClubRankingRowSerializer(many=True)


class SeriesSerializer(serializers.ModelSerializer):
    events = serializers.SerializerMethodField(
        help_text="the slugs of its events in play or finished, by date"
    )

    class Meta:
        model = Series
        fields = ["slug", "name", "best_of", "events"]

    def get_events(self, series: Series) -> list[str]:
        held = [e for e in series.events.all() if e.status != Event.Status.DRAFT]
        return [e.slug for e in sorted(held, key=lambda e: (e.date, e.name))]


class SeriesEventSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    date = serializers.DateField()


class SeriesRowSerializer(serializers.Serializer):
    place = serializers.CharField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    total = serializers.CharField()
    counted = serializers.IntegerField()
    played = serializers.IntegerField()
    results = serializers.DictField(
        child=serializers.CharField(), help_text="each event's result, by event slug"
    )


class SeriesStandingsSerializer(serializers.Serializer):
    series = serializers.SlugField()
    best_of = serializers.IntegerField()
    events = SeriesEventSerializer(many=True)
    rows = SeriesRowSerializer(many=True)


# --- rulesets ---------------------------------------------------------------------------------


class RulesetSerializer(serializers.Serializer):
    name = serializers.CharField()
    game = serializers.ChoiceField(choices=Event.Game.choices)
    title = serializers.CharField()


class SummaryRowSerializer(serializers.Serializer):
    contract = serializers.CharField()
    made = serializers.CharField(help_text="the first declarer's score when made exactly")
    failed = serializers.CharField(help_text="the first declarer's score one trick short")


@extend_schema_field(
    {
        "type": "array",
        "items": {
            "type": "object",
            "nullable": True,
            "properties": {
                "text": {
                    "type": "string",
                    "description": "'each declarer / each opponent', or a player's score",
                },
                "made": {"type": "boolean"},
            },
            "required": ["text", "made"],
        },
    }
)
class PayoutCellsField(serializers.ListField):
    """A row's cells: ``{"text", "made"}`` each, or null for a trick count that cannot happen
    (drf-spectacular cannot mark a nested serializer in a list as nullable by itself)."""


class PayoutRowSerializer(serializers.Serializer):
    # A field, not Field.label: DRF's metaclass takes declared fields off the class.
    label = serializers.CharField()  # type: ignore[assignment]
    cells = PayoutCellsField(
        child=serializers.DictField(allow_null=True),
        help_text="one per trick count of columns; null where the count cannot happen",
    )


class PayoutTableSerializer(serializers.Serializer):
    per_player = serializers.BooleanField()
    columns = serializers.ListField(child=serializers.IntegerField(), help_text="trick counts")
    rows = PayoutRowSerializer(many=True)


class RulesetDetailSerializer(RulesetSerializer):
    balancing = serializers.BooleanField(help_text="whether every board's scores add up to zero")
    contracts = serializers.ListField(child=serializers.CharField(), help_text="contract tokens")
    summary = SummaryRowSerializer(many=True)
    payouts = PayoutTableSerializer()
    document = serializers.CharField(help_text="the ruleset as a TOML document")


MAX_DOCUMENT = 100_000


class RulesetDocumentSerializer(serializers.Serializer):
    document = serializers.CharField(
        max_length=MAX_DOCUMENT, trim_whitespace=False, help_text="a ruleset as TOML"
    )


class RulesetCheckedSerializer(RulesetSerializer):
    ok = serializers.BooleanField()
    document = serializers.CharField(help_text="the document in its normal form")


class ScoreInputSerializer(serializers.Serializer):
    result = serializers.CharField(
        max_length=80, help_text="a result line in the notation, e.g. 'NE 9H 10'"
    )


class ScoreSerializer(serializers.Serializer):
    ruleset = serializers.CharField()
    notation = serializers.CharField(help_text="the result line in its normal form")
    scores = SeatScoresSerializer()


# --- movements ----------------------------------------------------------------------------------


class MovementQuerySerializer(serializers.Serializer):
    players = serializers.IntegerField(min_value=4, max_value=MAX_PLAYERS)
    rounds = serializers.IntegerField(min_value=1, max_value=60)
    tables_of_five = serializers.BooleanField(
        default=False, help_text="seat players beyond a multiple of four as fifth players"
    )
    seed = serializers.IntegerField(
        min_value=0, max_value=999_999, default=0, help_text="another seed, another plan"
    )


class MovementTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    N = serializers.IntegerField()
    E = serializers.IntegerField()
    S = serializers.IntegerField()
    W = serializers.IntegerField()
    X = serializers.IntegerField(required=False, help_text="the fifth player, at a table of five")


class MovementRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    tables = MovementTableSerializer(many=True)
    byes = serializers.ListField(child=serializers.IntegerField())


class MovementQualitySerializer(serializers.Serializer):
    rounds_without_repeat = serializers.IntegerField()
    repeats = serializers.IntegerField(help_text="meetings beyond the first, over all pairs")
    most_meetings = serializers.IntegerField()
    seat_spread = serializers.IntegerField()
    bye_spread = serializers.IntegerField()
    fifth_spread = serializers.IntegerField()


class MovementPreviewSerializer(serializers.Serializer):
    players = serializers.IntegerField()
    rounds = MovementRoundSerializer(many=True)
    quality = MovementQualitySerializer()


# --- report jobs --------------------------------------------------------------------------------


class ReportSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round_number", allow_null=True)
    download = serializers.SerializerMethodField(help_text="where to fetch the file once done")

    class Meta:
        model = ReportFile
        fields = [
            "id",
            "kind",
            "round",
            "page_size",
            "language",
            "status",
            "progress",
            "filename",
            "content_type",
            "error",
            "created_at",
            "finished_at",
            "download",
        ]

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_download(self, report: ReportFile) -> str | None:
        if report.status != ReportFile.Status.DONE:
            return None
        request = self.context.get("request")
        path = f"/api/v1/events/{report.event.slug}/reports/{report.pk}/download/"
        return request.build_absolute_uri(path) if request is not None else path


class ReportRequestSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ReportFile.Kind.choices)
    round = serializers.IntegerField(
        min_value=1,
        max_value=60,
        required=False,
        allow_null=True,
        help_text="none: the whole event",
    )
    page_size = serializers.ChoiceField(
        choices=ReportFile.PageSize.choices, default=ReportFile.PageSize.A4
    )
    language = serializers.ChoiceField(
        choices=settings.LANGUAGES,
        required=False,
        help_text="the document's language; the event's by default",
    )

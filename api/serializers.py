from __future__ import annotations

from rest_framework import serializers

from tournaments.models import Board, Event, Result


class EventSerializer(serializers.ModelSerializer):
    deal_key = serializers.SerializerMethodField(
        help_text="the dealing key, once the event is finished and the key revealed"
    )

    def get_deal_key(self, event: Event) -> str | None:
        return event.deal_key if event.deal_key_revealed_at else None

    class Meta:
        model = Event
        fields = [
            "slug",
            "name",
            "date",
            "venue",
            "game",
            "ruleset_name",
            "comparison",
            "rounds",
            "boards_per_round",
            "status",
            "deal_commitment",
            "deal_key",
            # Where the deals came from: "generated" (commitment and key) or "imported" (the
            # file's name and SHA-256; no commitment, no key).
            "deal_source",
            "deal_file_name",
            "deal_file_sha256",
        ]


class BoardSerializer(serializers.ModelSerializer):
    deal_index = serializers.CharField()

    class Meta:
        model = Board
        fields = ["number", "dealer", "deal", "deal_index", "trump_card"]


class ResultSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="table.round.number")
    table = serializers.IntegerField(source="table.number")
    board = serializers.IntegerField(source="board.number")
    scores = serializers.SerializerMethodField()
    entered_by: serializers.StringRelatedField = serializers.StringRelatedField()

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
            "notation",
            "data",
            "scores",
            "reason",
            "entered_by",
            "entered_at",
        ]

    def get_scores(self, result: Result) -> dict[str, int]:
        return dict(zip("NESW", result.scores, strict=True))


class ResultInputSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1)
    table = serializers.IntegerField(min_value=1)
    board = serializers.IntegerField(min_value=1)
    text = serializers.CharField(max_length=80, help_text="a result line, e.g. 'NE 9H 10'")
    version = serializers.IntegerField(
        min_value=0, required=False, help_text="the version the writer saw (0 for none yet)"
    )
    confirmed = serializers.BooleanField(default=False)
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")

"""The first API's result write (``api.views.ResultList``); API v1's bodies are in api/v1/."""

from __future__ import annotations

from rest_framework import serializers

from api.v1.serializers import ResultSerializer

__all__ = ["ResultInputSerializer", "ResultSerializer"]


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

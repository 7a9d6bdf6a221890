"""Rulesets: the built-in ones, a custom document checked, a result line scored, and the
movement generator's plan for a field, all without touching an event."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.v1.pagination import PagePagination
from api.v1.serializers import (
    MovementPreviewSerializer,
    MovementQuerySerializer,
    RulesetCheckedSerializer,
    RulesetDetailSerializer,
    RulesetDocumentSerializer,
    RulesetSerializer,
    ScoreInputSerializer,
    ScoreSerializer,
)
from tournaments import rulesets
from tournaments.engine_text import error_message
from tournaments.errors import UserError
from tournaments.game import (
    EngineError,
    MovementError,
    ParseError,
    Ruleset,
    UnknownRulesetError,
    builtin_names,
    format_result_line,
    load_builtin,
    movements,
    parse_result_line,
    score,
    scores_by_seat,
)

NAME = OpenApiParameter("name", OpenApiTypes.STR, OpenApiParameter.PATH, description="ruleset name")


def _builtin(name: str) -> Ruleset:
    try:
        return load_builtin(name)
    except UnknownRulesetError:
        from django.http import Http404

        raise Http404(_("There is no built-in ruleset %(name)s.") % {"name": name[:60]}) from None


def _brief(ruleset: Ruleset) -> dict[str, Any]:
    return {"name": ruleset.name, "game": ruleset.game, "title": rulesets.title(ruleset)}


@extend_schema(
    tags=["rulesets"],
    summary="Built-in rulesets",
    responses=RulesetSerializer(many=True),
)
class RulesetList(APIView):
    """The rulesets an event can name; a club's own table is a TOML document (``validate``)."""

    pagination_class = PagePagination

    @extend_schema(responses=RulesetSerializer(many=True))
    def get(self, request: Request) -> Response:
        items = [_brief(load_builtin(name)) for name in builtin_names()]
        paginator = PagePagination()
        page = paginator.paginate_queryset(items, request, view=self)
        return paginator.get_paginated_response(RulesetSerializer(page, many=True).data)


@extend_schema(
    tags=["rulesets"], summary="One ruleset", parameters=[NAME], responses=RulesetDetailSerializer
)
class RulesetDetail(APIView):
    """A ruleset's contracts and figures: the summary a TD reads, every payout, the document."""

    def get(self, request: Request, name: str) -> Response:
        ruleset = _builtin(name)
        body = {
            **_brief(ruleset),
            "balancing": ruleset.balancing,
            "contracts": [contract.value for contract in ruleset.allowed_contracts],
            "summary": rulesets.summary(ruleset),
            "payouts": rulesets.payout_table(ruleset),
            "document": rulesets.frozen_document(ruleset),
        }
        return Response(RulesetDetailSerializer(body).data)


@extend_schema(
    tags=["rulesets"],
    summary="Check a custom ruleset",
    request=RulesetDocumentSerializer,
    responses={200: RulesetCheckedSerializer},
)
class RulesetValidate(APIView):
    """A club's own ruleset (TOML) checked as an event would load it: its normal form, or a 400
    whose message names the line or the key at fault."""

    permission_classes = [permissions.AllowAny]

    def post(self, request: Request) -> Response:
        given = RulesetDocumentSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        ruleset = rulesets.parse_custom(given.validated_data["document"], field="document")
        body = {**_brief(ruleset), "ok": True, "document": rulesets.frozen_document(ruleset)}
        return Response(RulesetCheckedSerializer(body).data)


@extend_schema(
    tags=["rulesets"],
    summary="Score a result",
    parameters=[NAME],
    request=ScoreInputSerializer,
    responses={200: ScoreSerializer},
)
class RulesetScore(APIView):
    """The scores per seat of a result line under a built-in ruleset.

    Only the line is checked, not a deal: the notation says the contract, the declarers and the
    tricks, which is all a score needs. A result checked against a board's cards is entered on
    the event (``results``).
    """

    permission_classes = [permissions.AllowAny]

    def post(self, request: Request, name: str) -> Response:
        ruleset = _builtin(name)
        given = ScoreInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        text = given.validated_data["result"]
        try:
            result = parse_result_line(text, game=ruleset.game)
        except ParseError as exc:
            raise UserError(error_message(exc), code="notation", field="result") from exc
        try:
            scores = score(ruleset, result)
        except EngineError as exc:
            raise UserError(error_message(exc), code="invalid_result", field="result") from exc
        body = {
            "ruleset": ruleset.name,
            "notation": format_result_line(result),
            "scores": scores_by_seat(scores),
        }
        return Response(ScoreSerializer(body).data)


@lru_cache(maxsize=64)
def _preview(players: int, rounds: int, tables_of_five: bool, seed: int) -> dict[str, Any]:
    movement = movements.plan_movement(players, rounds, tables_of_five=tables_of_five, seed=seed)
    quality = movements.quality(movement)
    plan = movement.to_json()
    return {
        "players": players,
        "rounds": plan["rounds"],
        "quality": {
            "rounds_without_repeat": quality.rounds_without_repeat,
            "repeats": quality.repeats,
            "most_meetings": quality.most_meetings,
            "seat_spread": quality.seat_spread,
            "bye_spread": quality.bye_spread,
            "fifth_spread": quality.fifth_spread,
        },
    }


@extend_schema(
    tags=["movements"],
    summary="Preview a movement",
    parameters=[MovementQuerySerializer],
    responses=MovementPreviewSerializer,
)
class MovementPreview(APIView):
    """The seating plan the movement generator makes for a field, without saving anything.

    Signed-in users only: planning a large field takes a moment of the server's time.
    """

    permission_classes = [permissions.IsAuthenticated]

    def get(self, request: Request) -> Response:
        query = MovementQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        values = query.validated_data
        try:
            body = _preview(
                values["players"], values["rounds"], values["tables_of_five"], values["seed"]
            )
        except MovementError as exc:
            raise UserError(error_message(exc), code="movement", field="players") from exc
        return Response(MovementPreviewSerializer(body).data)

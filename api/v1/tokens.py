"""API tokens of the signed-in user: list, make (the key is in the answer once), revoke.

Only a user signed in with a password (a session or HTTP Basic) manages tokens: a request made
with a token is refused, so that a read-only token can never make itself a stronger one.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import token_of
from api.v1.pagination import PagePagination
from api.v1.schema import AutoSchema
from tournaments.errors import NotAllowedError, UserError
from tournaments.models import ApiToken, Event
from tournaments.services import tokens

TAG = "tokens"


class TokenSerializer(serializers.ModelSerializer[ApiToken]):
    event: serializers.SlugRelatedField[Event] = serializers.SlugRelatedField(
        slug_field="slug",
        read_only=True,
        allow_null=True,
        help_text="the slug of the one event it works for; null: all the user's events",
    )
    revoked = serializers.SerializerMethodField(help_text="whether it no longer lets anyone in")

    class Meta:
        model = ApiToken
        fields = [
            "id",
            "name",
            "prefix",
            "access",
            "event",
            "created",
            "last_used_at",
            "revoked_at",
            "revoked",
        ]
        read_only_fields = fields

    def get_revoked(self, token: ApiToken) -> bool:
        return token.revoked_at is not None


class NewTokenSerializer(TokenSerializer):
    key = serializers.CharField(
        help_text="the token itself, for `Authorization: Bearer <key>`: shown only in this answer"
    )

    class Meta(TokenSerializer.Meta):
        fields = [*TokenSerializer.Meta.fields, "key"]
        read_only_fields = fields


class TokenInputSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80, help_text="what uses it, e.g. the club's site")
    access = serializers.ChoiceField(
        choices=ApiToken.Access.choices,
        help_text="read: what the public sees; enter: enter and correct results; direct: "
        "everything the user may do",
    )
    event = serializers.SlugField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=80,
        help_text="the slug of the one event it works for (one the user directs or assists in)",
    )


class TokenAPIView(GenericAPIView[ApiToken]):
    permission_classes = [permissions.AllowAny]
    schema = AutoSchema()
    queryset = ApiToken.objects.none()
    serializer_class = TokenSerializer
    pagination_class: type[PagePagination] | None = PagePagination

    def signed_in(self) -> Any:
        """The user, signed in with a password; a token or nobody is refused."""
        user = self.request.user
        if not getattr(user, "is_authenticated", False):
            raise NotAuthenticated()
        if token_of(self.request) is not None:
            raise NotAllowedError(_("Tokens are managed signed in with a password, not a token."))
        return user

    def get_queryset(self) -> QuerySet[ApiToken]:
        if getattr(self, "swagger_fake_view", False):  # the schema's introspection
            return ApiToken.objects.none()
        return ApiToken.objects.filter(user=self.signed_in()).select_related("event")

    def token(self, pk: int) -> ApiToken:
        # Another user's token is "not found", as if it did not exist.
        return get_object_or_404(self.get_queryset(), pk=pk)


class TokenList(TokenAPIView):
    @extend_schema(
        tags=[TAG],
        operation_id="tokens_list",
        summary="The signed-in user's API tokens, revoked ones too",
        responses=TokenSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(TokenSerializer(page, many=True).data)

    @extend_schema(
        tags=[TAG],
        operation_id="tokens_create",
        summary="Make an API token; its key is in this answer and never again",
        request=TokenInputSerializer,
        responses={201: NewTokenSerializer},
    )
    def post(self, request: Request) -> Response:
        user = self.signed_in()
        data = TokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = None
        slug = data.validated_data.get("event")
        if slug:
            event = Event.objects.filter(slug=slug).first()
            if event is None:
                raise UserError(
                    _("There is no event %(slug)s.") % {"slug": slug},
                    code="not_found",
                    field="event",
                )
        token, key = tokens.create_token(
            user, data.validated_data["name"], data.validated_data["access"], event
        )
        body = {**TokenSerializer(token).data, "key": key}
        response = Response(body, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return response


class TokenDetail(TokenAPIView):
    pagination_class = None

    @extend_schema(
        tags=[TAG],
        operation_id="tokens_retrieve",
        summary="One of the signed-in user's API tokens",
        responses=TokenSerializer,
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(TokenSerializer(self.token(pk)).data)

    @extend_schema(
        tags=[TAG],
        operation_id="tokens_destroy",
        summary="Revoke an API token: it lets nobody in from now on, and stays listed",
        responses={204: OpenApiResponse(description="revoked (or revoked already)")},
    )
    def delete(self, request: Request, pk: int) -> Response:
        tokens.revoke_token(request.user, self.token(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRevoke(TokenAPIView):
    pagination_class = None

    @extend_schema(
        tags=[TAG],
        operation_id="tokens_revoke",
        summary="Revoke an API token (for clients that cannot send DELETE)",
        request=None,
        responses={200: TokenSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        token = tokens.revoke_token(request.user, self.token(pk))
        return Response(TokenSerializer(token).data)

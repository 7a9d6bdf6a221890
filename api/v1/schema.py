"""The OpenAPI document's shared parts: the one error body, and the error responses of every
operation, declared once here instead of on each view."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers


@extend_schema_serializer(component_name="Error")
class ErrorSerializer(serializers.Serializer):
    """Every error of the API: ``api.errors`` writes it, whatever went wrong."""

    code = serializers.CharField(
        help_text="what went wrong, for programs: e.g. 'invalid', 'conflict'"
    )
    message = serializers.CharField(help_text="what went wrong, in the user's language")
    field = serializers.CharField(
        allow_null=True, help_text="the request's field or query parameter at fault, if one is"
    )
    params = serializers.DictField(
        help_text="figures a program acts on; after a conflict, the current version and result"
    )


# Every operation may be refused for bad input, missing or insufficient rights, or an object that
# is not there (or not visible to the caller); writes may also meet a newer version.
READ_ERRORS = ("400", "401", "403", "404")
WRITE_ERRORS = (*READ_ERRORS, "409")


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's schema, with the error responses every operation can give."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        codes = READ_ERRORS if self.method in ("GET", "HEAD") else WRITE_ERRORS
        # drf-spectacular leaves this method untyped.
        error_response: Any = self._get_response_for_code
        for code in codes:
            if code not in responses:
                responses[code] = error_response(ErrorSerializer, code, None, direction)
        return responses


def only_v1(endpoints: list[tuple[str, str, str, Any]], **kwargs: Any) -> list[Any]:
    """The document describes API v1 alone: the old ``/api/`` paths only redirect to it."""
    return [endpoint for endpoint in endpoints if endpoint[0].startswith("/api/v1/")]


class TokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]  # registers itself, untyped
    target_class = "api.authentication.TokenAuthentication"
    name = "token"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API token made on the account's tokens page: "
            "`Authorization: Bearer troef_...`",
        }


class BasicScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]  # registers itself, untyped
    target_class = "api.authentication.ThrottledBasicAuthentication"
    name = "basic"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "http", "scheme": "basic"}

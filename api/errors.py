"""Every API error is ``{"code", "message", "field", "params"}`` with the right 4xx status.

This is the one place that maps exceptions to responses: user errors from the services, DRF's own
validation and permission errors, and 404s.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from tournaments.errors import ConflictError, NotAllowedError, UserError


def _body(
    code: str, message: str, field: str | None = None, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The one error shape: ``params`` holds what a program acts on (after a conflict, what is
    there now: ``{"version": 3, "notation": ...}``); ``message`` is in the user's language."""
    return {"code": code, "message": message, "field": field, "params": params or {}}


def handle(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ConflictError):
        return Response(
            _body(exc.code, exc.message, exc.field, exc.params), status=status.HTTP_409_CONFLICT
        )
    if isinstance(exc, NotAllowedError):
        return Response(
            _body(exc.code, exc.message, exc.field, exc.params), status=status.HTTP_403_FORBIDDEN
        )
    if isinstance(exc, UserError):
        return Response(
            _body(exc.code, exc.message, exc.field, exc.params), status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_error(exc.detail)
        return Response(_body("invalid", message, field), status=status.HTTP_400_BAD_REQUEST)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, Http404):
        code = "not_found"
    elif isinstance(exc, exceptions.APIException):
        code = str(exc.get_codes()) if isinstance(exc.get_codes(), str) else exc.default_code
    else:
        code = "error"
    detail = response.data.get("detail", "") if isinstance(response.data, dict) else response.data
    response.data = _body(code, str(detail))
    return response


def _first_error(detail: Any, prefix: str | None = None) -> tuple[str | None, str]:
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = key if prefix is None else f"{prefix}.{key}"
            if key == "non_field_errors":
                name = prefix
            return _first_error(value, name)
    if isinstance(detail, list) and detail:
        return _first_error(detail[0], prefix)
    return prefix, str(detail)

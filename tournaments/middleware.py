"""Errors of the JSON endpoints as JSON, and a database outage as "try again" rather than a crash.

The entry page's script, the standings' self-refresh and API clients read JSON: an HTML error page
is noise to them. A database that is down or restarting is not a defect of the request: it is
answered with 503 and ``Retry-After``, so that a client waits and sends the same request again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.core import signals
from django.core.exceptions import PermissionDenied
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

# Seconds a client waits before trying again: a restarting database is back within this.
RETRY_AFTER = 5

# Addresses (by name) that answer JSON; every address of the API does too.
JSON_VIEWS = frozenset({"standings_json", "report_status", "healthz"})
API_PREFIX = "api-"


def _under_api(request: HttpRequest) -> bool:
    # An address under /api/ that matches no route is still the API's: its 404 is JSON too.
    return request.path_info.startswith("/api/")


def is_json_endpoint(request: HttpRequest) -> bool:
    match = getattr(request, "resolver_match", None)
    name = (match.url_name or "") if match is not None else ""
    return name in JSON_VIEWS or name.startswith(API_PREFIX) or _under_api(request)


def json_error(request: HttpRequest, code: str, message: str, status: int) -> JsonResponse:
    """The one error shape of every JSON answer, the API's (api.errors) and the pages' alike."""
    body: dict[str, Any] = {"code": code, "message": message, "field": None, "params": {}}
    return JsonResponse(body, status=status)


# What a JSON client is told for each error status Django answers by itself.
_STATUS_CODES = {
    400: "bad_request",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
}


class JsonErrorsMiddleware:
    """JSON errors on JSON endpoints; 503 with ``Retry-After`` while the database is down."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code in _STATUS_CODES
            and is_json_endpoint(request)
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            # Django's own 404, 403 and 405 are HTML pages; the status and any Allow header stay.
            replacement = json_error(
                request,
                _STATUS_CODES[response.status_code],
                _("This request cannot be answered (%(status)s).")
                % {"status": response.status_code},
                response.status_code,
            )
            if response.has_header("Allow"):
                replacement["Allow"] = response["Allow"]
            return replacement
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OperationalError | InterfaceError):
            logger.error("database unavailable: %s", exception)
            return _database_down(request)
        if not is_json_endpoint(request) or isinstance(exception, Http404 | PermissionDenied):
            # Django answers these itself (and the response is made JSON above).
            return None
        logger.exception("unexpected error in %s", request.path)
        # Test clients and error reporters learn of it as of any other crash.
        signals.got_request_exception.send(sender=self.__class__, request=request)
        return json_error(
            request,
            "server_error",
            _("Something went wrong on the server. Reload the page to see what was saved."),
            500,
        )


def _database_down(request: HttpRequest) -> HttpResponse:
    message = _("The database is not answering. Try again in a few seconds.")
    if is_json_endpoint(request):
        response: HttpResponse = json_error(request, "unavailable", message, 503)
    else:
        # No template: rendering one may itself reach for the database (the session, the user).
        response = HttpResponse(
            f"<!doctype html><title>503</title><p>{escape(message)}</p>",
            status=503,
            content_type="text/html; charset=utf-8",
        )
    response["Retry-After"] = str(RETRY_AFTER)
    return response

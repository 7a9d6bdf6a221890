"""HTTP Basic authentication that says when the sign-in throttle has locked an account or address.

The lock itself is enforced by the authentication backend (tournaments.throttle), for every way of
signing in; this class only turns it into a 429 with a ``Retry-After`` header and the minutes left,
instead of a 401 that would read as a wrong password.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import (
    BaseAuthentication,
    BasicAuthentication,
    get_authorization_header,
)
from rest_framework.request import Request

from tournaments import throttle
from tournaments.models import ApiToken
from tournaments.services import tokens


class SignInLocked(exceptions.Throttled):
    """429 with ``Retry-After`` (from ``wait``) and the throttle's own message."""

    wait: int

    def __init__(self, seconds: int) -> None:
        # wait is set afterwards: given to the constructor, DRF appends a sentence in seconds.
        super().__init__(detail=throttle.locked_message(seconds))
        self.wait = seconds


class ThrottledBasicAuthentication(BasicAuthentication):
    def authenticate_credentials(
        self, userid: str, password: str, request: Request | None = None
    ) -> tuple[Any, None]:
        address = throttle.client_address(request._request if request is not None else None)
        seconds = throttle.seconds_locked(userid, address)
        if seconds:
            raise SignInLocked(seconds)
        return super().authenticate_credentials(userid, password, request)


class TokenAuthentication(BaseAuthentication):
    """``Authorization: Bearer <key>``: an API token made on the account's tokens page.

    The request's ``auth`` is the ``ApiToken``; ``api.access`` narrows the user's role by it.
    """

    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        header = get_authorization_header(request).split()
        if not header or header[0].decode("latin-1").lower() != self.keyword.lower():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("Give one token after Bearer."))
        try:
            key = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("This token is not valid.")) from None
        token = tokens.authenticate(key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("This token is not valid or was revoked."))
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return self.keyword

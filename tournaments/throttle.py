"""Sign-in throttle: failed password checks counted per account and per client address.

Every password check goes through Django's ``authenticate()``: the sign-in page, the admin's sign-in
page and HTTP Basic authentication of the API. Its failures arrive here through the
``user_login_failed`` signal and are counted in the cache, in a fixed window per account and per
address. Once either count reaches its limit, :class:`ThrottledModelBackend` refuses every password
for that account or from that address until the window ends, even the right one, so guessing cannot
go on. The sign-in form and the API say so, with the minutes left.

The address limit is the higher one: a club hall's players and directors often share one public
address, and one director's typos must not lock out the rest of the hall.

The limits are settings (``SIGNIN_THROTTLE``); the counts live in the default cache, which must be
shared by every web process (Redis on a server, see ``CACHE_URL``) for the limits to hold across
them. When that cache is down the throttle lets sign-ins through and logs an error: a broker
outage during an event must not lock every director out.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils.translation import ngettext
from redis.exceptions import RedisError

from tournaments.failures import FailureCounts

logger = logging.getLogger("troef.security")

DEFAULTS = {
    "ACCOUNT_FAILURES": 5,
    "ADDRESS_FAILURES": 20,
    "WINDOW_SECONDS": 15 * 60,
}


@dataclass(frozen=True)
class Limits:
    account_failures: int
    address_failures: int
    window_seconds: int

    def __post_init__(self) -> None:
        if min(self.account_failures, self.address_failures, self.window_seconds) < 1:
            raise ValueError(f"sign-in throttle limits must be positive: {self}")


def limits() -> Limits:
    values = {**DEFAULTS, **getattr(settings, "SIGNIN_THROTTLE", {})}
    return Limits(
        account_failures=int(values["ACCOUNT_FAILURES"]),
        address_failures=int(values["ADDRESS_FAILURES"]),
        window_seconds=int(values["WINDOW_SECONDS"]),
    )


def client_address(request: HttpRequest | None) -> str | None:
    """The client's address: from the header the proxy sets (``CLIENT_ADDRESS_HEADER``), if any.

    Behind nginx every request comes from nginx's own address, so the proxy's header is the only
    way to tell clients apart; without a proxy that header would be the client's to choose.
    """
    if request is None:
        return None
    header = getattr(settings, "CLIENT_ADDRESS_HEADER", "")
    meta_key = "HTTP_" + header.upper().replace("-", "_") if header else "REMOTE_ADDR"
    value = request.META.get(meta_key) or request.META.get("REMOTE_ADDR") or ""
    # X-Forwarded-For style lists: the last hop is the one our proxy added.
    address = value.split(",")[-1].strip()
    return address or None


def _normalise_account(username: str) -> str:
    # Usernames differ in case only by mistake; counting them apart would multiply the limit.
    return username.strip().casefold()


_COUNTS = FailureCounts("signin")


def _subjects(username: str | None, address: str | None) -> list[tuple[str, str, int]]:
    rules = limits()
    subjects = []
    if username:
        subjects.append(("account", _normalise_account(username), rules.account_failures))
    if address:
        subjects.append(("address", address, rules.address_failures))
    return subjects


def seconds_locked(username: str | None, address: str | None) -> int:
    """Seconds until this account and address may try a password again; 0 when they may now."""
    try:
        return _seconds_locked(username, address)
    except (RedisError, OSError):
        logger.exception("sign-in throttle: cache unavailable, not checking the limits")
        return 0


def _seconds_locked(username: str | None, address: str | None) -> int:
    return _COUNTS.seconds_locked(_subjects(username, address), limits().window_seconds)


def record_failure(username: str | None, address: str | None) -> None:
    try:
        _record_failure(username, address)
    except (RedisError, OSError):
        logger.exception("sign-in throttle: cache unavailable, failure not counted")


def _record_failure(username: str | None, address: str | None) -> None:
    window = limits().window_seconds
    for (kind, value, limit), count in _COUNTS.count(_subjects(username, address), window):
        if count == limit:
            logger.warning(
                "sign-in locked: %d failed sign-ins for %s %s within %d s",
                count,
                kind,
                value if kind == "address" else repr(value),
                window,
            )


def clear_account(username: str) -> None:
    """A right password forgives the account's earlier typos (not the address's)."""
    try:
        _COUNTS.clear("account", _normalise_account(username))
    except (RedisError, OSError):
        logger.exception("sign-in throttle: cache unavailable, account not cleared")


def locked_message(seconds: int) -> str:
    minutes = max(math.ceil(seconds / 60), 1)
    return ngettext(
        "Too many failed sign-ins: try again in %(minutes)d minute.",
        "Too many failed sign-ins: try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


# Connected on import: the backend below is imported by authenticate() before it sends this signal,
# and config/urls.py imports the form.
@receiver(user_login_failed, dispatch_uid="troef.throttle.record_failure")
def _on_login_failed(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    username_field = get_user_model().USERNAME_FIELD
    username = credentials.get(username_field) or credentials.get("username")
    address = client_address(request)
    if seconds_locked(username if isinstance(username, str) else None, address):
        # Refused while locked: already counted to the limit, and the window stays as it is.
        return
    record_failure(username if isinstance(username, str) else None, address)


class ThrottledModelBackend(ModelBackend):
    """Django's own backend that refuses every password while the account or address is locked."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        name = username if username is not None else kwargs.get(get_user_model().USERNAME_FIELD)
        if seconds_locked(name if isinstance(name, str) else None, client_address(request)):
            # PermissionDenied stops authenticate() at once, before any password is checked.
            raise PermissionDenied
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None and isinstance(name, str):
            clear_account(name)
        return user


class ThrottledAuthenticationForm(AuthenticationForm):
    """The sign-in form, which says why a locked account or address cannot sign in."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        seconds = seconds_locked(username, client_address(self.request))
        if seconds:
            raise forms.ValidationError(locked_message(seconds), code="too_many_attempts")
        return super().clean()


class ThrottledAdminAuthenticationForm(ThrottledAuthenticationForm, AdminAuthenticationForm):
    """The admin's sign-in form (staff only), with the same word on a lock."""

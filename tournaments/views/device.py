"""The table device's pages: the link on the table card asks for its PIN, then shows the table.

The page itself only lays out the table; everything it shows and keys goes through the device's
endpoints of the API (``api.v1.device``), which the page's script calls.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import throttle
from tournaments.errors import UserError
from tournaments.models import Event, Round, Table
from tournaments.services import devices
from tournaments.views.common import director_required


def round_devices(request: HttpRequest, round_: Round) -> list[dict[str, Any]]:
    """Each table's device link and PIN, for the round's page; made now for tables without."""
    if round_.status == Round.Status.CLOSED:
        return []
    base = request.build_absolute_uri("/")
    return [
        {"table": table, "url": devices.device_url(table, base), "pin": table.device_pin}
        for table in devices.ensure_device_keys(request.user, round_)
    ]


def _pin_page(
    request: HttpRequest,
    table: Table | None,
    *,
    error: str = "",
    status: int = 200,
    closed: bool = False,
) -> HttpResponse:
    context: dict[str, Any] = {
        "table": table,
        "error": error,
        "closed": closed,
        "missing": table is None,
    }
    if table is not None:
        context.update({"round": table.round, "event": table.round.event})
    return render(request, "tournaments/device_pin.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def device_page(request: HttpRequest, key: str) -> HttpResponse:
    """The table's page on a phone: the PIN first, then the table's boards and results."""
    table = devices.table_for_key(key)
    if table is None:
        return _pin_page(request, None, status=404)
    if request.method == "POST":
        try:
            table = devices.check_pin(
                key, request.POST.get("pin", ""), throttle.client_address(request)
            )
        except devices.PinLockedError as locked:
            response = _pin_page(request, table, error=locked.message, status=429)
            response["Retry-After"] = str(locked.seconds)
            return response
        except UserError as error:
            return _pin_page(request, table, error=error.message, status=400)
        devices.grant(request.session, table)
        return redirect("device", key)
    if table.round.status != Round.Status.OPEN:
        return _pin_page(request, table, closed=True, status=403)
    if not devices.is_granted(request.session, table):
        return _pin_page(request, table)
    event = table.round.event
    return render(
        request,
        "tournaments/device.html",
        {
            "event": event,
            "round": table.round,
            "table": table,
            "state": devices.table_state(table),
            "contracts": json.dumps(devices.tap_contracts(event)),
            "api": reverse("v1_device", args=[key]),
            "storage_key": f"troef-device-{table.pk}",
        },
    )


@director_required
@require_POST
def renew_pins(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """New PINs for every table of the round (a PIN got out): phones give the new one."""
    round_ = get_object_or_404(Round, event=event, number=number)
    devices.renew_pins(request.user, round_)
    messages.success(
        request,
        _("New PINs for the tables of round %(n)s: hand out the new table cards.")
        % {"n": round_.number},
    )
    return redirect(reverse("round_overview", args=[event.slug, number]) + "#devices")

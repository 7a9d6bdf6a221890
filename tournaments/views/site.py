"""Site-wide pages: home and the health check."""

from __future__ import annotations

from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import health, roles
from tournaments.engine_text import contract_name
from tournaments.models import Event


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    database = health.database_status()
    broker = health.broker_status()
    healthy = database == "ok" and broker in ("ok", "eager")
    return JsonResponse(
        {"status": "ok" if healthy else "down", "database": database, "broker": broker},
        status=200 if healthy else 503,
    )


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    public = Event.objects.exclude(status=Event.Status.DRAFT).order_by("-date", "name")[:30]
    # The events the user directs or assists in: an assistant starts from here too.
    mine = (
        Event.objects.filter(Q(directors=request.user) | Q(assistants=request.user))
        .distinct()
        .order_by("-date", "name")
        if request.user.is_authenticated
        else Event.objects.none()
    )
    context = {
        "public_events": public,
        "my_events": mine,
        "may_create": roles.may_create_events(request.user),
    }
    return render(request, "home.html", context)


@require_GET
def notation_help(request: HttpRequest) -> HttpResponse:
    """The result notation on one page, with every word the entry page accepts."""
    from tournaments.game import CANONICAL_WORDS, CONTRACT_ALIASES

    words: dict[str, list[str]] = {}
    for alias, contract in CONTRACT_ALIASES.items():
        words.setdefault(contract.value, []).append(alias)
    rows = [
        {
            "contract": contract_name(contract),
            "short": short,
            "aliases": words.get(contract.value, []),
        }
        for contract, short in CANONICAL_WORDS.items()
    ]
    return render(request, "help/notation.html", {"rows": rows})

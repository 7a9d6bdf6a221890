"""Public pages: standings without login, at stable addresses that clubs link to."""

from __future__ import annotations

import csv
import datetime as dt
import json
from collections import OrderedDict
from typing import Any, NamedTuple

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import formats, timezone, translation
from django.utils.cache import get_conditional_response
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from tournaments.models import Entry, Event, Result, Standings
from tournaments.services import player_results as player_results_service
from tournaments.services import published
from tournaments.services.results import open_sheet_differences

# Player numbers are small integers in the database; a longer number in an address is no player.
LARGEST_NUMBER = 32767


def _event(slug: str) -> Event:
    event = get_object_or_404(Event, slug=slug)
    if event.status == Event.Status.DRAFT:
        raise Http404("the event has not started")
    return event


def _standings(event: Event) -> Standings:
    state = Standings.objects.filter(event=event).first()
    return state or Standings(
        event=event, data={"rows": [], "rounds": [], "method": event.comparison}
    )


def _updated(state: Standings) -> str:
    """When the standings were computed, in the event's time zone and the page's time format.

    Events are held where the club is, the site's time zone (``TIME_ZONE``); the page and its
    self-refresh show this one text, never the time of the reader's device.
    """
    if state.computed_at is None:
        return ""
    local = timezone.localtime(state.computed_at, timezone.get_default_timezone())
    return formats.time_format(local)


def _open_differences_text(count: int) -> str:
    """The warning over the standings while results differ from their sheets ("" when none)."""
    if not count:
        return ""
    return ngettext(
        "%(n)s result still differs from its score sheet and is being checked: the standings may change.",
        "%(n)s results still differ from their score sheets and are being checked: the standings may change.",
        count,
    ) % {"n": count}


def _notices(state: Standings) -> list[dict[str, str]]:
    """The warnings above the public standings, in the reader's language: not current (the last
    computation failed, or records are left out) and publication delayed. The page shows them and
    the JSON carries them, so that the self-refreshing page keeps them true."""
    data = state.data or {}
    notices = []
    failure = data.get("failure")
    updated = _updated(state)
    if isinstance(failure, dict):
        text = (
            _("These standings are not current") + ": " + _(str(failure.get("message", ""))) + "."
        )
        if updated:
            text += " " + _("They show the results as of %(updated)s.") % {"updated": updated}
        notices.append({"id": "not-current", "text": text})
    elif data.get("problems"):
        count = len(data["problems"])
        text = ngettext(
            "%(n)s record is left out of these standings until the tournament director corrects it.",
            "%(n)s records are left out of these standings until the tournament director corrects them.",
            count,
        ) % {"n": count}
        notices.append({"id": "not-current", "text": text})
    if state.publication_delayed and not failure:
        text = _(
            "Standings publication is delayed: the latest results are saved but not yet in the "
            "published standings. They are brought up to date automatically as soon as the "
            "background service is reachable again."
        )
        notices.append({"id": "publication-delayed", "text": text})
    return notices


class _Version(NamedTuple):
    """What one reading of the public standings depends on, read in one query."""

    etag: str
    computed: int
    computed_at: dt.datetime | None
    failed: bool
    probe: Standings  # the stored row without its figures: enough for the notices
    open_differences: int


def _version(slug: str) -> _Version:
    # What the notices depend on is part of the version: a failed computation keeps ``computed``,
    # and publication becomes delayed as time passes, with nothing else changing. Accepting
    # Troef's figure for a sheet difference does not recompute the standings, yet the document's
    # warning changes: the count of open differences is part of it too.
    open_count = (
        Result.objects.filter(
            event=OuterRef("event"), is_current=True, sheet_status=Result.SheetStatus.OPEN
        )
        .order_by()
        .values("event")
        .annotate(count=Count("pk"))
        .values("count")
    )
    row = (
        Standings.objects.filter(event__slug=slug)
        .exclude(event__status=Event.Status.DRAFT)
        .annotate(open_differences=Coalesce(Subquery(open_count), 0))
        .values_list(
            "computed",
            "requested",
            "computed_at",
            "stale_since",
            "data__failure",
            "data__problems",
            "open_differences",
        )
        .first()
    )
    if row is None:
        event = _event(slug)  # no such event (404), or no standings yet
        probe = _standings(event)
        open_differences = open_sheet_differences(event)
        computed, computed_at, failure = 0, None, None
    else:
        computed, requested, computed_at, stale_since, failure, problems, open_differences = row
        data = {"failure": failure} if failure is not None else {}
        if problems:
            data["problems"] = problems
        probe = Standings(
            computed=computed,
            requested=requested,
            computed_at=computed_at,
            stale_since=stale_since,
            data=data,
        )
    failed = failure is not None
    # Whether they are behind, not by how many saves: a busy evening asks for new standings with
    # every save, and the document only says "not up to date" until they follow. The time as
    # well: standings made again from scratch (a restored event) count from 1.
    state = f"{computed}.{computed_at.timestamp():.6f}" if computed_at else computed
    notices = (
        f"{'s' if probe.is_stale else ''}{'d' if probe.publication_delayed else ''}"
        f"{'f' if failed else ''}"
    )
    # The document carries texts in the reader's language: another language is another version.
    language = translation.get_language()
    etag = f'"standings-{slug}-{state or 0}-{notices or "-"}-{open_differences}-{language}"'
    return _Version(etag, computed, computed_at, failed, probe, open_differences)


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    state = _standings(event)
    return render(
        request,
        "tournaments/standings.html",
        {
            "event": event,
            "standings": state,
            "data": state.data,
            "updated": _updated(state),
            "decimal_separator": formats.get_format("DECIMAL_SEPARATOR"),
            "open_differences": _open_differences_text(open_sheet_differences(event)),
            "notices": _notices(state),
        },
    )


@require_GET
def standings_json(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings for the self-refreshing page and for phones: 304 while nothing changed.

    Hundreds of phones ask every few seconds. The figures are encoded once per version for every
    web process (``services.published``); each process also keeps the last documents it sent.
    """
    version = _version(slug)
    unchanged = get_conditional_response(request, etag=version.etag)
    if unchanged is not None:
        return unchanged
    body = _DOCUMENTS.get(version.etag)
    if body is None:
        figures = published.document(slug, version.computed, version.computed_at, version.failed)
        body = _splice(_reader_texts(version), figures)
        _DOCUMENTS[version.etag] = body
        while len(_DOCUMENTS) > DOCUMENTS_KEPT:
            _DOCUMENTS.popitem(last=False)
    else:
        _DOCUMENTS.move_to_end(version.etag)
    response = HttpResponse(body, content_type="application/json")
    response["ETag"] = version.etag
    return response


#: Standings documents kept by version in each web process (a few events at once, a few versions).
DOCUMENTS_KEPT = 64
_DOCUMENTS: OrderedDict[str, bytes] = OrderedDict()


def _reader_texts(version: _Version) -> dict[str, Any]:
    """The part of the document in the reader's language, and what the notices depend on."""
    return {
        "computed_at_display": _updated(version.probe),
        "up_to_date": not version.probe.is_stale,
        "open_differences": version.open_differences,
        "open_differences_display": _open_differences_text(version.open_differences),
        "notices_display": _notices(version.probe),
    }


def _splice(texts: dict[str, Any], figures: bytes) -> bytes:
    """One JSON object from the reader's texts and the encoded figures (both objects, no key shared)."""
    head = json.dumps(texts, cls=DjangoJSONEncoder, separators=(",", ":")).encode()
    if figures == b"{}":
        return head
    return head[:-1] + b"," + figures[1:]


@require_GET
def player_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event(slug)
    if number > LARGEST_NUMBER:
        raise Http404("no such player")
    entry = get_object_or_404(
        Entry.objects.select_related("player__club"), event=event, number=number
    )
    state = _standings(event)
    from tournaments.views import progress

    page = player_results_service.player_results(event, entry, state.data)
    everyone = progress.places_by_round(
        state.data, [line.number for line in page.rounds if line.is_closed]
    )
    places = everyone.get(entry.number, [])
    ranked = max((item.place or 0 for line in everyone.values() for item in line), default=0)
    return render(
        request,
        "tournaments/player_results.html",
        {
            "event": event,
            "page": page,
            "standings": state,
            "updated": _updated(state),
            "places": places,
            "place_chart": progress.place_chart(entry.player.full_name, places, ranked),
            # Ratings are made of the finished events of the club or federation that held them.
            "rated": event.status == Event.Status.FINISHED and event.organisation_id is not None,
        },
    )


def _cell(text: str) -> str:
    """A name as a spreadsheet will not run it: a leading = + - @ would start a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


@require_GET
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    data = _standings(event).data
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{event.slug}-standings.csv"'
    writer = csv.writer(response)
    rounds = [str(r) for r in data.get("rounds", [])]
    # Column names stay in English whatever the page's language: programs read this file.
    writer.writerow(
        ["place", "player", "name", "club", "total", "points", "boards"]
        + [f"round {r}" for r in rounds]
    )
    for row in data.get("rows", []):
        writer.writerow(
            [
                row["place"],
                row["entry"],
                _cell(row["name"]),
                _cell(row["club"]),
                row["total"],
                row.get("raw_total", ""),
                row["boards"],
                *[row["rounds"].get(r, "") for r in rounds],
            ]
        )
    return response


@require_GET
def club_ranking(request: HttpRequest, slug: str) -> HttpResponse:
    from tournaments.services.series import club_ranking as rank_clubs

    event = _event(slug)
    try:
        best_of = max(1, min(20, int(request.GET.get("best", 3))))
    except ValueError:
        best_of = 3
    return render(
        request, "tournaments/clubs.html", {"event": event, "data": rank_clubs(event, best_of)}
    )


@require_GET
def series_standings(request: HttpRequest, slug: str) -> HttpResponse:
    from tournaments.models import Series
    from tournaments.services.series import series_standings as compute_series

    series = get_object_or_404(Series, slug=slug)
    return render(
        request, "tournaments/series.html", {"series": series, "data": compute_series(series)}
    )

"""The ratings' public pages: the clubs and federations rated, each one's ranking, a player's rating.

Ratings are made of finished events only, whose standings are public: these pages need no login.
"""

from __future__ import annotations

from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from ratings import services
from ratings.models import Rating, RatingPoint
from tournaments import charts
from tournaments.models import Organisation, Player

# Ids are 64-bit in the database; a longer number in an address is nothing there.
LARGEST_ID = 2**63 - 1


def _organisation(pk: int) -> Organisation:
    if pk > LARGEST_ID:
        raise Http404("no such club or federation")
    return get_object_or_404(Organisation, pk=pk)


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    organisations = (
        Organisation.objects.filter(ratings__isnull=False)
        .annotate(players=Count("ratings"))
        .order_by("name")
    )
    return render(request, "ratings/index.html", {"organisations": organisations})


def placed(ratings: list[Rating]) -> list[tuple[str, Rating]]:
    """Each rating with its place; equal ratings share a place (``3=``)."""
    out: list[tuple[str, Rating]] = []
    first = 0
    for index, rating in enumerate(ratings):
        if index and ratings[index - 1].rating != rating.rating:
            first = index
        shared = (index > 0 and ratings[index - 1].rating == rating.rating) or (
            index + 1 < len(ratings) and ratings[index + 1].rating == rating.rating
        )
        out.append((f"{first + 1}=" if shared else str(first + 1), rating))
    return out


@require_GET
def ranking(request: HttpRequest, organisation: int) -> HttpResponse:
    held_by = _organisation(organisation)
    min_boards = services.parse_min_boards(request.GET.get("min"))
    rated = Rating.objects.filter(organisation=held_by)
    listed = list(
        rated.filter(boards__gte=min_boards)
        .select_related("player__club")
        .order_by("-rating", "player__last_name", "player__first_name", "player")
    )
    context = {
        "organisation": held_by,
        "rows": placed(listed),
        "min_boards": min_boards,
        "default_min_boards": services.DEFAULT_MIN_BOARDS,
        "not_listed": rated.filter(boards__lt=min_boards).count(),
        "behind": services.behind(held_by),
        "events": RatingPoint.objects.filter(organisation=held_by)
        .values("event")
        .distinct()
        .count(),
    }
    return render(request, "ratings/ranking.html", context)


@require_GET
def player(request: HttpRequest, organisation: int, player: int) -> HttpResponse:
    held_by = _organisation(organisation)
    if player > LARGEST_ID:
        raise Http404("no such player")
    person = get_object_or_404(Player.objects.select_related("club"), pk=player)
    rating = Rating.objects.filter(organisation=held_by, player=person).first()
    points = list(
        RatingPoint.objects.filter(organisation=held_by, player=person)
        .select_related("event")
        .order_by("date", "event_id")
    )
    chart = None
    if points:
        chart = charts.line_chart(
            "rating-chart",
            _("Rating of %(name)s after each event") % {"name": person.full_name},
            ngettext(
                "The rating after %(count)s event: %(last)s; the shaded band is the uncertainty.",
                "The rating after each of %(count)s events, from %(first)s to %(last)s; the "
                "shaded band is the uncertainty.",
                len(points),
            )
            % {
                "count": len(points),
                "first": points[0].rating,
                "last": points[-1].rating,
            },
            [
                charts.Point(
                    formats.date_format(point.date, "SHORT_DATE_FORMAT"),
                    point.rating,
                    _("%(event)s: %(rating)s ± %(uncertainty)s")
                    % {
                        "event": point.event.name,
                        "rating": point.rating,
                        "uncertainty": point.uncertainty,
                    },
                    (point.rating - point.uncertainty, point.rating + point.uncertainty),
                )
                for point in points
            ],
        )
    return render(
        request,
        "ratings/player.html",
        {
            "organisation": held_by,
            "person": person,
            "rating": rating,
            "points": points,
            "chart": chart,
            "min_boards": services.DEFAULT_MIN_BOARDS,
        },
    )

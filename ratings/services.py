"""Ratings: the adapter between an organisation's finished events and the rating maths (``skill``).

``event_contests`` turns an event's compared boards (what its standings stored) into contests:
one per board and seat, among the players who held those cards. ``recompute`` replays every
finished event of the organisation from scratch, by date then id, and replaces the stored
ratings and their history as a whole, so running it twice, or after an old event is corrected,
gives the same figures as the first time. ``schedule_ratings`` asks a worker for it.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from ratings import skill
from ratings.game import SEAT_LETTERS as SEATS
from ratings.models import Rating, RatingPoint, RatingsState
from tournaments.models import AuditAction, Event, Organisation
from tournaments.services import audit, standings
from tournaments.services.jobs import publish

logger = logging.getLogger(__name__)

# The ranking lists players with at least this many boards rated, unless the reader asks
# otherwise: fewer boards than an evening or two say little about a player.
DEFAULT_MIN_BOARDS = 100
LARGEST_MIN_BOARDS = 100_000

COMPUTE_RATINGS = "troef.compute_ratings"


def event_contests(event: Event) -> skill.EventContests:
    """The event's boards as contests between players (by ``Player`` id), in playing order.

    Each group is the board's seat compared among the tables, ranked on its matchpoints; a scored
    bye (no seat) is no contest, and a board played at one table only tells nobody apart.
    """
    players = dict(event.entries.values_list("number", "player_id"))
    groups: dict[tuple[int, int], list[tuple[int, float]]] = defaultdict(list)
    first_round: dict[tuple[int, int], int] = {}
    for number, boards in standings.board_scores(event).items():
        player = players.get(number)
        if player is None:
            continue
        for item in boards:
            if item.seat not in SEATS:
                continue
            key = (item.board, SEATS.index(item.seat))
            groups[key].append((player, float(item.matchpoints)))
            first_round[key] = min(first_round.get(key, item.round), item.round)
    contests = []
    for key in sorted(groups, key=lambda key: (first_round[key], key)):
        members = sorted(groups[key])
        if len(members) < 2:
            continue
        contests.append(
            skill.Contest(
                tuple(player for player, _points in members),
                tuple(points for _player, points in members),
            )
        )
    return skill.EventContests(event.pk, event.date, tuple(contests))


def finished_events(organisation: Organisation) -> list[Event]:
    """The events a rating is made of, in the order they are rated."""
    return list(
        Event.objects.filter(organisation=organisation, status=Event.Status.FINISHED).order_by(
            "date", "pk"
        )
    )


@dataclass(frozen=True)
class Outcome:
    """What a recomputation stored."""

    events: int
    players: int


def lock_organisation(organisation_id: int, *, skip_locked: bool = False) -> Organisation | None:
    """The organisation's row, locked for a computation until the transaction ends (``None`` if
    it is gone, or locked by another computation and ``skip_locked``).

    No-key: rows that point at the organisation (a new event, a finish's request) do not wait.
    """
    organisations = Organisation.objects.select_for_update(no_key=True, skip_locked=skip_locked)
    return organisations.filter(pk=organisation_id).first()


def recompute(organisation_id: int, *, only_if_behind: bool = False) -> Outcome | None:
    """Rate every finished event of the organisation from scratch and store the result.

    ``None`` if the organisation is gone, or, with ``only_if_behind`` (the catch-up), if the
    stored ratings already count every finished event or another computation of the
    organisation is running. Two runs for the same organisation queue on the
    organisation's row lock (a lock that leaves new rows pointing at it free: an event created
    meanwhile does not wait); the second replaces the first's rows with the same figures, or
    newer ones. Finishing an event never waits for a computation: it only bumps ``requested``.
    """
    # Outside the computation's transaction: a first request and this row never wait on it.
    if not Organisation.objects.filter(pk=organisation_id).exists():
        return None
    try:
        RatingsState.objects.get_or_create(organisation_id=organisation_id)
    except IntegrityError:
        return None  # the organisation went meanwhile
    with transaction.atomic():
        organisation = lock_organisation(organisation_id, skip_locked=only_if_behind)
        if organisation is None:
            return None
        # The requests this computation covers. Read after the lock, before the events: a finish
        # commits its event's status and its request together, so every request counted here is
        # among the events read below; a later one leaves ``computed`` behind for the next run.
        covered, computed = RatingsState.objects.values_list("requested", "computed").get(
            organisation=organisation
        )
        if only_if_behind and computed >= covered:
            return None
        events = finished_events(organisation)
        season = skill.rate_events(event_contests(event) for event in events)
        Rating.objects.filter(organisation=organisation).delete()
        RatingPoint.objects.filter(organisation=organisation).delete()
        Rating.objects.bulk_create(
            Rating(
                organisation=organisation,
                player_id=player,
                mu=rated.mu,
                sigma=rated.sigma,
                rating=rated.display,
                events=rated.events,
                boards=rated.boards,
            )
            for player, rated in sorted(season.skills.items())
        )
        RatingPoint.objects.bulk_create(
            RatingPoint(
                organisation=organisation,
                player_id=point.player,
                event_id=point.event,
                date=point.date,
                mu=point.mu,
                sigma=point.sigma,
                rating=skill.display(point.mu, point.sigma),
                boards=point.boards,
            )
            for point in season.history
        )
        RatingsState.objects.filter(organisation=organisation, computed__lt=covered).update(
            computed=covered, computed_at=timezone.now()
        )
        audit.record(
            None,
            AuditAction.RATINGS_COMPUTE,
            "",
            obj=organisation,
            message=gettext_noop(
                "ratings of %(organisation)s computed from %(events)s finished events"
            ),
            params={"organisation": organisation.name, "events": len(events)},
        )
    return Outcome(len(events), len(season.skills))


def schedule_ratings(event: Event) -> None:
    """Recompute the ratings of the event's club or federation once the transaction commits.

    The request is written down in the caller's transaction first, so that a job lost on its way
    (a broker outage, a worker that died) is redone by ``catch_up_ratings``. An event held under
    no organisation counts towards no rating.
    """
    organisation_id = event.organisation_id
    if organisation_id is None:
        return
    RatingsState.objects.get_or_create(organisation_id=organisation_id)
    RatingsState.objects.filter(organisation_id=organisation_id).update(
        requested=F("requested") + 1
    )
    transaction.on_commit(lambda: publish(COMPUTE_RATINGS, organisation_id), robust=True)


def behind(organisation: Organisation) -> bool:
    """Whether an event finished that the stored ratings do not count yet (its job is on its way,
    or was lost and waits for the catch-up)."""
    return RatingsState.objects.filter(
        organisation=organisation, computed__lt=F("requested")
    ).exists()


def organisations_rated() -> list[Organisation]:
    """The clubs and federations with ratings, for the ratings' index page."""
    return list(Organisation.objects.filter(ratings__isnull=False).distinct().order_by("name"))


def parse_min_boards(value: str | None) -> int:
    """The ranking's minimum number of boards from the address; the default for anything odd."""
    text = (value or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        return DEFAULT_MIN_BOARDS
    return min(int(text), LARGEST_MIN_BOARDS)

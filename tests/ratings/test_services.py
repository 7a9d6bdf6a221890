"""Ratings made from finished events: the adapter, the job, its trigger and the command."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection, connections, transaction
from django.test import Client
from django.urls import reverse

from ratings import services
from ratings.models import Rating, RatingPoint, RatingsState
from ratings.tasks import catch_up_ratings, compute_ratings
from tests.ratings.conftest import play_event
from tests.tournaments.conftest import make_settings
from tournaments.models import AuditEntry, Event, Organisation
from tournaments.services import events

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def figures(organisation: Organisation) -> list[tuple[int, float, float, int, int]]:
    return list(
        Rating.objects.filter(organisation=organisation)
        .order_by("player_id")
        .values_list("player_id", "mu", "sigma", "events", "boards")
    )


def test_finishing_an_event_rates_its_players(
    td: User, django_capture_on_commit_callbacks: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The job as a worker runs it, also where the tests have a real broker and no worker.
    sent: list[int] = []

    def run_now(name: str, *args: Any) -> bool:
        assert name == compute_ratings.name
        sent.append(args[0])
        compute_ratings(*args)
        return True

    monkeypatch.setattr(services, "publish", run_now)
    with django_capture_on_commit_callbacks(execute=True):
        event = play_event(td, "one", dt.date(2026, 1, 5))
    assert event.organisation is not None
    assert sent == [event.organisation.pk]
    rated = Rating.objects.filter(organisation=event.organisation)
    assert rated.count() == 8
    assert {r.boards for r in rated} == {4}
    assert RatingPoint.objects.filter(event=event).count() == 8


def test_an_event_of_no_club_or_federation_is_rated_nowhere(
    td: User, django_capture_on_commit_callbacks: Capture
) -> None:
    event = play_event(td, "alone", dt.date(2026, 1, 5), finish=False)
    Event.objects.filter(pk=event.pk).update(organisation=None)
    with django_capture_on_commit_callbacks(execute=True):
        events.finish_event(td, Event.objects.get(pk=event.pk))
    assert not Rating.objects.exists()
    assert not AuditEntry.objects.filter(action="ratings.compute").exists()


def test_the_winner_is_rated_above_the_players_who_lost_to_them(td: User) -> None:
    event = play_event(td, "one", dt.date(2026, 1, 5))
    assert event.organisation_id is not None
    compute_ratings(event.organisation_id)
    ranked = list(Rating.objects.filter(organisation=event.organisation).order_by("-rating"))
    winner = next(r for r in ranked if r.player.first_name == "Player1")
    # Nobody is rated above the winner (their partner at a table may share the rating).
    assert winner.rating == ranked[0].rating
    assert winner.rating > 1000 > ranked[-1].rating


def test_recomputing_gives_the_same_ratings(td: User) -> None:
    event = play_event(td, "one", dt.date(2026, 1, 5))
    play_event(td, "two", dt.date(2026, 1, 12), winner=2)
    assert event.organisation is not None
    compute_ratings(event.organisation.pk)
    first = figures(event.organisation)
    assert compute_ratings(event.organisation.pk) == 2
    assert figures(event.organisation) == first
    assert RatingPoint.objects.filter(organisation=event.organisation).count() == 16


def test_events_not_finished_count_for_nothing(td: User) -> None:
    event = play_event(td, "one", dt.date(2026, 1, 5), finish=False)
    assert event.organisation_id is not None
    assert compute_ratings(event.organisation_id) == 0
    assert not Rating.objects.exists()


def test_the_job_for_an_organisation_that_is_gone_does_nothing(db: None) -> None:
    assert compute_ratings(987654) is None


def test_the_job_writes_an_audit_entry(td: User) -> None:
    event = play_event(td, "one", dt.date(2026, 1, 5))
    assert event.organisation_id is not None
    compute_ratings(event.organisation_id)
    entry = AuditEntry.objects.get(action="ratings.compute")
    assert entry.actor is None
    assert entry.params == {"organisation": "Whistclub De Kroon", "events": 1}


def test_each_board_and_seat_is_one_contest(td: User) -> None:
    event = play_event(td, "one", dt.date(2026, 1, 5))
    contests = services.event_contests(event).contests
    # Two rounds of two boards, four seats, each compared between the two tables.
    assert len(contests) == 16
    assert {len(contest.players) for contest in contests} == {2}


def test_the_command_rates_every_organisation_with_a_finished_event(td: User) -> None:
    play_event(td, "one", dt.date(2026, 1, 5))
    out = call_command_text("compute_ratings")
    assert "Whistclub De Kroon: 8 players rated, finished events: 1" in out
    assert Rating.objects.count() == 8


def test_the_command_rates_one_organisation_when_asked(td: User) -> None:
    event = play_event(td, "one", dt.date(2026, 1, 5))
    other = Organisation.objects.create(name="Federatie")
    call_command_text("compute_ratings", "--organisation", str(other.pk))
    assert not Rating.objects.exists()
    call_command_text("compute_ratings", "--organisation", str(event.organisation_id))
    assert Rating.objects.count() == 8


def test_the_command_refuses_an_unknown_organisation(db: None) -> None:
    with pytest.raises(CommandError, match="no club or federation has the id 4242"):
        call_command("compute_ratings", "--organisation", "4242")


def call_command_text(*args: str) -> str:
    from io import StringIO

    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("text", "wanted"),
    [(None, 100), ("", 100), ("0", 0), ("25", 25), (" 30 ", 30), ("-1", 100), ("abc", 100),
     ("²", 100), ("99999999999", 100), ("100000", 100000)],
)  # fmt: skip
def test_the_minimum_boards_is_read_safely(text: str | None, wanted: int) -> None:
    assert services.parse_min_boards(text) == wanted


def test_a_job_lost_on_its_way_is_redone_by_the_catch_up(
    td: User,
    client: Client,
    django_capture_on_commit_callbacks: Capture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broker_down(name: str, *args: Any) -> bool:
        return False

    monkeypatch.setattr(services, "publish", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        event = play_event(td, "lost", dt.date(2026, 1, 5))
    organisation = event.organisation
    assert organisation is not None
    assert not Rating.objects.filter(organisation=organisation).exists()
    assert RatingsState.objects.get(organisation=organisation).behind
    page = client.get(reverse("ratings", args=[organisation.pk]))
    assert b'id="ratings-behind"' in page.content

    assert catch_up_ratings() == 1

    state = RatingsState.objects.get(organisation=organisation)
    assert (state.requested, state.computed) == (1, 1)
    assert state.computed_at is not None
    assert Rating.objects.filter(organisation=organisation).count() == 8
    page = client.get(reverse("ratings", args=[organisation.pk]))
    assert b'id="ratings-behind"' not in page.content
    assert catch_up_ratings() == 0  # nothing left behind: nothing recomputed


def test_a_computation_covers_only_the_events_finished_before_it(td: User) -> None:
    event = play_event(td, "first", dt.date(2026, 1, 5))
    organisation = event.organisation
    assert organisation is not None
    compute_ratings(organisation.pk)
    # A second event finishes; until its job runs, the ratings are behind it.
    play_event(td, "second", dt.date(2026, 1, 12))
    state = RatingsState.objects.get(organisation=organisation)
    assert state.behind
    compute_ratings(organisation.pk)
    state.refresh_from_db()
    assert not state.behind
    assert {rating.events for rating in Rating.objects.filter(organisation=organisation)} == {2}


def test_the_catch_up_runs_with_celery_beat(settings: Any) -> None:
    tasks_run = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "troef.catch_up_ratings" in tasks_run


@pytest.mark.django_db(transaction=True)
def test_finishing_an_event_does_not_wait_for_a_ratings_computation(td: User) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("real concurrent transactions need PostgreSQL (set DATABASE_URL)")
    event = play_event(td, "waiting", dt.date(2026, 1, 5), finish=False)
    organisation = event.organisation
    assert organisation is not None
    services.recompute(organisation.pk)  # the state row exists, as after a first computation
    held, release = threading.Event(), threading.Event()

    def computation() -> None:
        # The lock a computation holds while it replays the season.
        try:
            with transaction.atomic():
                assert services.lock_organisation(organisation.pk) is not None
                held.set()
                release.wait(30)
        finally:
            connections.close_all()

    thread = threading.Thread(target=computation)
    thread.start()
    try:
        assert held.wait(10)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '3s'")
            events.finish_event(td, event)  # asks for the ratings: bumps ``requested``
            events.create_event(td, make_settings(slug="next", date=dt.date(2026, 1, 12)))
    finally:
        release.set()
        thread.join(30)
    assert RatingsState.objects.get(organisation=organisation).behind

"""The ratings' and charts' pages of events made by the test itself, with nothing rated
beforehand: an empty index, the place chart, boards held back, the movement grid."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.ratings.conftest import play_event
from tests.tournaments.conftest import start_event
from tournaments.models import Event, Round, Standings
from tournaments.services import standings
from tournaments.views import progress

pytestmark = pytest.mark.django_db


def test_the_index_says_when_nothing_is_rated(client: Client, db: None) -> None:
    assert "No ratings yet" in client.get("/ratings/").content.decode()


def places_of(event: Event) -> dict[int, list[progress.RoundPlace]]:
    """The places after each closed round, as the player page reads them."""
    standings.refresh(event.pk)
    data = Standings.objects.get(event=event).data
    closed = event.round_set.filter(status=Round.Status.CLOSED).values_list("number", flat=True)
    return progress.places_by_round(data, closed)


def test_the_place_chart_reads_the_stored_standings_without_a_query(td: User) -> None:
    for event in (
        play_event(td, "short", dt.date(2026, 1, 5), round_count=2),
        play_event(td, "long", dt.date(2026, 1, 12), round_count=3),
    ):
        standings.refresh(event.pk)
        data = Standings.objects.get(event=event).data
        with CaptureQueriesContext(connection) as queries:
            places = progress.places_by_round(data, range(1, event.rounds + 1))
        assert len(queries) == 0
        assert len(places[1]) == event.rounds
        assert all(item.place is not None for item in places[1])


def test_the_last_place_of_the_chart_is_the_standings_place(td: User) -> None:
    event = play_event(td, "one", dt.date(2026, 1, 5))
    places = places_of(event)
    from tournaments.services.standings import evaluate

    final = {int(p.record.player): p.label for p in evaluate(event).placings}
    assert {number: line[-1].label for number, line in places.items()} == final


def test_a_board_is_held_back_until_every_table_has_played_it(client: Client, td: User) -> None:
    event = start_event(td, "running", 8)
    page = client.get(f"/events/{event.slug}/boards/1/").content.decode()
    assert 'id="board-held-back"' in page
    assert "<svg" not in page
    later = event.boards.order_by("-number").first()
    assert later is not None
    page = client.get(f"/events/{event.slug}/boards/{later.number}/").content.decode()
    assert "board-held-back" in page


def test_the_movement_page_shows_the_grid(client: Client, td: User) -> None:
    event = start_event(td, "grid", 8)
    client.force_login(td)
    page = client.get(f"/events/{event.slug}/movement/").content.decode()
    assert '<svg class="chart chart-grid" id="movement-grid" role="img"' in page
    assert page.count('<g class="cell">') == event.rounds * 2
    assert "Round 1, table 1: N " in page


def test_the_home_page_links_to_the_ratings(client: Client, db: None) -> None:
    assert 'href="/ratings/"' in client.get("/").content.decode()


def test_no_place_is_charted_before_a_round_is_closed(client: Client, td: User) -> None:
    event = start_event(td, "closing", 8)
    assert all(line == [] for line in places_of(event).values())
    assert "place-chart" not in client.get(f"/events/{event.slug}/standings/1/").content.decode()

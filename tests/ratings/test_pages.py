"""The ratings' pages and the charts on the event's pages: what a reader sees, and no 500."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from ratings.models import Rating
from ratings.tasks import compute_ratings
from tests.conftest import as_a_test
from tests.ratings.conftest import play_event
from tournaments.models import Event, Organisation, Player
from tournaments.services import events as event_service

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _rated(module_td: User) -> Event:
    """Two finished evenings of the club, rated (made once for the module)."""
    with as_a_test():
        play_event(module_td, "one", dt.date(2026, 1, 5))
        event = play_event(module_td, "two", dt.date(2026, 1, 12))
        assert event.organisation_id is not None
        compute_ratings(event.organisation_id)
    return event


@pytest.fixture
def rated(_rated: Event, db: None) -> Event:
    """Two finished evenings of the club, rated; player 1 won every board they played."""
    return Event.objects.get(pk=_rated.pk)


def player(first_name: str) -> Player:
    return Player.objects.get(first_name=first_name)


def test_the_index_lists_the_clubs_with_ratings(client: Client, rated: Event) -> None:
    Organisation.objects.create(name="Nobody rated here")
    page = client.get("/ratings/").content.decode()
    assert "Whistclub De Kroon" in page
    assert f'href="/ratings/{rated.organisation_id}/"' in page
    assert "Nobody rated here" not in page


def test_the_ranking_lists_only_players_with_enough_boards(client: Client, rated: Event) -> None:
    page = client.get(f"/ratings/{rated.organisation_id}/").content.decode()
    assert "Listed: players with at least 100 boards rated." in page
    assert "8 players with fewer boards are not listed." in page
    assert "Nobody has played enough boards to be listed yet." in page


def test_the_ranking_lists_everyone_from_the_minimum_asked(client: Client, rated: Event) -> None:
    page = client.get(f"/ratings/{rated.organisation_id}/?min=8").content.decode()
    rows = re.findall(r'<a href="/ratings/\d+/players/(\d+)/">([^<]+)</a>', page)
    assert len(rows) == 8
    assert rows[0][1] == "Player1 Number1"
    assert "Back to the usual 100 boards." in page
    assert 'value="8"' in page
    assert "not listed" not in page


def test_players_level_on_rating_share_their_place(client: Client, rated: Event) -> None:
    ratings = list(Rating.objects.order_by("-rating"))
    Rating.objects.filter(pk=ratings[1].pk).update(rating=ratings[0].rating)
    page = client.get(f"/ratings/{rated.organisation_id}/?min=0").content.decode()
    assert page.count('<td class="num">1=</td>') == 2


@pytest.mark.parametrize("query", ["?min=abc", "?min=-5", "?min=1e3", "?min=99999999999", "?min="])
def test_odd_minimums_fall_back_to_the_usual_one(client: Client, rated: Event, query: str) -> None:
    response = client.get(f"/ratings/{rated.organisation_id}/{query}")
    assert response.status_code == 200
    assert "at least 100 boards" in response.content.decode()


def test_unknown_organisations_and_players_are_not_found(client: Client, rated: Event) -> None:
    org = rated.organisation_id
    assert client.get("/ratings/987654/").status_code == 404
    assert client.get("/ratings/99999999999999999999/").status_code == 404
    assert client.get(f"/ratings/{org}/players/987654/").status_code == 404
    assert client.get(f"/ratings/{org}/players/99999999999999999999/").status_code == 404


def test_a_players_page_shows_the_rating_and_its_chart(client: Client, rated: Event) -> None:
    winner = player("Player1")
    rating = Rating.objects.get(player=winner)
    page = client.get(f"/ratings/{rated.organisation_id}/players/{winner.pk}/").content.decode()
    assert f'<dd id="rating-value">{rating.rating}</dd>' in page
    assert f"± {rating.uncertainty}" in page
    assert '<svg class="chart chart-line" id="rating-chart" role="img"' in page
    assert (
        '<title id="rating-chart-title">Rating of Player1 Number1 after each event</title>' in page
    )
    # The numbers as a table too, newest first, each event linked to its standings.
    history = page[page.index('id="rating-history"') :]
    assert history.index("/events/two/standings/") < history.index("/events/one/standings/")
    assert page.count('<circle class="dot"') == 2
    assert " style=" not in page


def test_a_player_of_no_finished_event_has_no_rating_yet(client: Client, rated: Event) -> None:
    newcomer = Player.objects.create(first_name="New", last_name="Comer")
    response = client.get(f"/ratings/{rated.organisation_id}/players/{newcomer.pk}/")
    assert response.status_code == 200
    assert "No rating yet" in response.content.decode()


def test_the_event_player_page_shows_the_place_after_each_round(
    client: Client, rated: Event
) -> None:
    page = client.get(f"/events/{rated.slug}/standings/1/").content.decode()
    assert '<svg class="chart chart-line" id="place-chart" role="img"' in page
    table = page[page.index('id="place-table"') :]
    assert re.search(r'<td class="num">1=?</td>', table)
    # Linked to the player's rating and to each board's page.
    assert f"/ratings/{rated.organisation_id}/players/{player('Player1').pk}/" in page
    assert f'href="/events/{rated.slug}/boards/1/"' in page


def test_a_board_page_shows_every_tables_result_and_its_comparison(
    client: Client, rated: Event
) -> None:
    page = client.get(f"/events/{rated.slug}/boards/1/").content.decode()
    assert page.count('<svg class="chart chart-bars"') == 4
    assert "Board 1, seat N: each table&#x27;s score and percentage" in page
    assert "Player1 Number1" in page
    assert 'href="/events/two/boards/2/" rel="next"' in page
    assert " style=" not in page


def test_a_board_page_of_nothing_is_not_found(client: Client, rated: Event, td: User) -> None:
    assert client.get(f"/events/{rated.slug}/boards/999/").status_code == 404
    assert client.get(f"/events/{rated.slug}/boards/99999999999999/").status_code == 404
    assert client.get("/events/nothing/boards/1/").status_code == 404
    from tests.tournaments.conftest import make_settings

    draft = event_service.create_event(td, make_settings(slug="draft"))
    assert client.get(f"/events/{draft.slug}/boards/1/").status_code == 404

"""The demo's season: the club's previous evenings are finished, so its players have ratings."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from ratings import services
from ratings.models import Rating
from tournaments.demo import demo_club, load_demo_season
from tournaments.models import Event


def test_the_demo_season_rates_the_clubs_players_over_its_finished_evenings(
    db: None, client: Client
) -> None:
    user = User.objects.create_user("td", password="a-password", is_staff=True)
    season = load_demo_season(user)
    assert [event.status for event in season] == [Event.Status.FINISHED] * 3
    dates = [event.date for event in season]
    assert dates == sorted(dates)
    club = demo_club(user)
    assert {event.organisation_id for event in season} == {club.pk}
    # Finishing an evening queues the ratings job (run in-process by `make run`); run it here.
    services.recompute(club.pk)
    ratings = Rating.objects.filter(organisation=club)
    assert ratings.count() == 32
    assert {rating.events for rating in ratings} == {3}
    # Everyone sat every board; a board every table played alike tells nobody apart.
    boards = {rating.boards for rating in ratings}
    assert len(boards) == 1
    assert 40 <= boards.pop() <= 16 * 3
    # Not everyone is rated alike: the boards told the players apart.
    assert len({rating.rating for rating in ratings}) > 10
    page = client.get(f"/ratings/{club.pk}/?min=40").content.decode()
    best = ratings.order_by("-rating").first()
    assert best is not None
    assert best.player.last_name in page
    # Loading it again adds nothing.
    again = load_demo_season(user)
    assert [event.pk for event in again] == [event.pk for event in season]


@pytest.fixture
def client() -> Client:
    return Client(headers={"accept-language": "en"})

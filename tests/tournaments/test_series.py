from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournaments.models import Event, Series, Standings
from tournaments.services import series as series_service

from .conftest import make_settings


def event_with_rows(td: User, slug: str, rows: list[tuple[int, str, str, str]]) -> Event:
    """An event whose stored standings hold ``(number, name, club, total)`` rows."""
    from tournaments.services import events, players

    event = events.create_event(td, make_settings(slug=slug, date=dt.date(2026, 11, 1)))
    for number, name, club, _total in rows:
        first, last = name.split(" ", 1)
        entry = players.register_player(
            td,
            event,
            first_name=first,
            last_name=last,
            club=club,
            federation_number=f"F-{last}",
        )
        assert entry.number == number
    Event.objects.filter(pk=event.pk).update(
        status=Event.Status.RUNNING, ruleset_frozen_at=dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    )
    Standings.objects.create(
        event=event,
        requested=1,
        computed=1,
        data={
            "rows": [
                {"entry": n, "name": name, "club": club, "total": total, "boards": 8, "place": ""}
                for n, name, club, total in rows
            ]
        },
    )
    return event


def test_a_series_counts_each_players_best_results(td: User) -> None:
    one = event_with_rows(
        td, "one", [(1, "An Peeters", "Gent", "60.00"), (2, "Jan Claes", "Aalst", "40.00")]
    )
    two = event_with_rows(
        td, "two", [(1, "An Peeters", "Gent", "45.00"), (2, "Jan Claes", "Aalst", "55.00")]
    )
    three = event_with_rows(td, "three", [(1, "Jan Claes", "Aalst", "70.00")])
    series = Series.objects.create(slug="winter", name="Winter", best_of=2)
    series.events.set([one, two, three])
    rows = series_service.series_standings(series)["rows"]
    assert [(r["name"], r["total"], r["place"]) for r in rows] == [
        ("Jan Claes", "125.00", "1"),
        ("An Peeters", "105.00", "2"),
    ]
    assert rows[0]["played"] == 3
    assert rows[0]["counted"] == 2


def test_clubs_are_ranked_by_their_best_members(td: User) -> None:
    event = event_with_rows(
        td,
        "clubs",
        [
            (1, "An Peeters", "Gent", "60.00"),
            (2, "Jan Claes", "Aalst", "58.00"),
            (3, "Els Maes", "Gent", "30.00"),
            (4, "Bart Mertens", "Aalst", "50.00"),
        ],
    )
    rows = series_service.club_ranking(event, best_of=2)["rows"]
    assert [(r["club"], r["total"], r["place"]) for r in rows] == [
        ("Aalst", "108.00", "1"),
        ("Gent", "90.00", "2"),
    ]
    one = series_service.club_ranking(event, best_of=1)["rows"]
    assert [(r["club"], r["total"]) for r in one] == [("Gent", "60.00"), ("Aalst", "58.00")]


def test_the_series_and_club_pages_are_public(client: Client, td: User) -> None:
    event = event_with_rows(td, "pub", [(1, "Zoë Cools", "Gent", "52.50")])
    series = Series.objects.create(slug="zomer", name="Zomerreeks", best_of=3)
    series.events.add(event)
    page = client.get("/series/zomer/").content.decode()
    assert "Zoë Cools" in page
    assert "52.50" in page
    clubs = client.get("/events/pub/clubs/?best=2").content.decode()
    assert "Gent" in clubs


@pytest.mark.django_db
def test_an_unknown_series_is_not_found(client: Client) -> None:
    assert client.get("/series/nothing/").status_code == 404

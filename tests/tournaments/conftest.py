from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import as_a_test
from tournaments.models import Entry, Event
from tournaments.services import deals, events, players, rounds, seating
from tournaments.services.events import EventSettings

# Tests deal from a fixed key, so every run plays the same cards.
TEST_KEY = "troef-test-key-0001"


def make_settings(**overrides: object) -> EventSettings:
    values: dict[str, object] = {
        "name": "Club evening",
        "date": dt.date(2026, 11, 20),
        "game": "kleurenwiezen",
        "ruleset_name": "whisthub",
        "rounds": 4,
        "boards_per_round": 4,
        "slug": "club-evening",
    }
    values.update(overrides)
    return EventSettings(**values)  # type: ignore[arg-type]


@pytest.fixture
def client() -> Client:
    """A browser that asks for English, the source language: the site's default is Dutch."""
    return Client(headers={"accept-language": "en"})


@pytest.fixture
def event(td: User) -> Event:
    return events.create_event(td, make_settings())


def register(td: User, event: Event, count: int) -> list[Entry]:
    return [
        players.register_player(td, event, first_name=f"Player{n}", last_name=f"Number{n}")
        for n in range(1, count + 1)
    ]


@pytest.fixture
def sixteen(td: User, event: Event) -> list[Entry]:
    return register(td, event, 16)


def start_event(td: User, slug: str, count: int) -> Event:
    """An event of ``count`` players with its movement and deals, round 1 in play."""
    event = events.create_event(td, make_settings(slug=slug))
    register(td, event, count)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    return Event.objects.get(pk=event.pk)


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    """Eight players, round 1 in play, made once for the module (a module may make its own)."""
    with as_a_test():
        return start_event(module_td, "running", 8)


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """Eight players, round 1 in play (made once for the module)."""
    return Event.objects.get(pk=_running.pk)

"""The first API at /api/: its reads now answer with their API v1 address, its result write still
works, and its errors have the one shape ``{"code", "message", "field", "params"}``."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tournaments.models import Event

ERROR_KEYS = {"code", "message", "field", "params"}


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    with as_a_test():
        return start_event(module_td, "api-event", 16)


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """16 players in play, round 1 open (made once for the module)."""
    return Event.objects.get(pk=_running.pk)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/api/events/", "/api/v1/events/"),
        ("/api/events/api-event/", "/api/v1/events/api-event/"),
        ("/api/events/api-event/boards/", "/api/v1/events/api-event/boards/"),
        ("/api/events/api-event/results/", "/api/v1/events/api-event/results/"),
        ("/api/events/api-event/standings/?round=1", "/api/v1/events/api-event/standings/?round=1"),
        ("/api/schema/", "/api/v1/schema/"),
    ],
)
def test_the_old_reads_answer_with_their_v1_address(
    client: Client, running: Event, old: str, new: str
) -> None:
    response = client.get(old)
    assert response.status_code == 301
    assert response["Location"] == f"http://testserver{new}"
    assert set(response.json()) == ERROR_KEYS
    assert response.json()["params"] == {"location": f"http://testserver{new}"}


def test_following_the_old_address_lists_the_events(client: Client, running: Event) -> None:
    response = client.get("/api/events/", follow=True)
    events = response.json()["results"]
    assert [e["slug"] for e in events] == ["api-event"]
    assert events[0]["deal_key"] is None
    assert events[0]["deal_commitment"] == running.deal_commitment


def test_the_old_movement_document_still_answers(client: Client, running: Event) -> None:
    movement = client.get("/api/events/api-event/movement/").json()
    assert movement["players"] == 16
    assert len(movement["rounds"]) == 4


def test_a_director_records_a_result_and_errors_name_the_field(
    client: Client, td: User, running: Event
) -> None:
    client.force_login(td)
    saved = client.post(
        "/api/events/api-event/results/",
        {"round": 1, "table": 1, "board": 1, "text": "pass", "version": 0},
        content_type="application/json",
    )
    assert saved.status_code == 201
    assert saved.json()["scores"] == {"N": 0, "E": 0, "S": 0, "W": 0}
    refused = client.post(
        "/api/events/api-event/results/",
        {"round": 1, "table": 1, "board": 2, "text": "NE 7H 8"},
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert set(refused.json()) == ERROR_KEYS
    conflict = client.post(
        "/api/events/api-event/results/",
        {"round": 1, "table": 1, "board": 1, "text": "N mis 0", "version": 0, "reason": "x"},
        content_type="application/json",
    )
    assert conflict.status_code == 409
    assert conflict.json()["code"] == "conflict"
    assert conflict.json()["params"]["version"] == 1


def test_an_outsider_cannot_write_results(client: Client, outsider: User, running: Event) -> None:
    client.force_login(outsider)
    response = client.post(
        "/api/events/api-event/results/",
        {"round": 1, "table": 1, "board": 1, "text": "pass"},
        content_type="application/json",
    )
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"


def test_an_address_under_api_that_does_not_exist_is_a_json_404(client: Client, db: None) -> None:
    response = client.get("/api/v1/clubs/not-a-number/")
    assert response.status_code == 404
    assert set(response.json()) == ERROR_KEYS


@pytest.mark.django_db
def test_it_publishes_its_openapi_schema(client: Client) -> None:
    response = client.get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json", follow=True
    )
    assert response.status_code == 200
    assert b"/api/v1/events/" in response.content

"""The REST API: public reads, directors' writes, errors as {"code", "message", "field"}."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.conftest import start_event
from tournaments.models import Event


@pytest.fixture
def running(td: User) -> Event:
    return start_event(td, "api-event", 16)


def test_it_lists_events_in_play_and_hides_the_key(client: Client, running: Event) -> None:
    events_list = client.get("/api/events/").json()
    assert [e["slug"] for e in events_list] == ["api-event"]
    assert events_list[0]["deal_key"] is None
    assert events_list[0]["deal_commitment"] == running.deal_commitment


def test_the_deals_are_secret_until_the_event_is_finished(client: Client, running: Event) -> None:
    response = client.get("/api/events/api-event/boards/")
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"


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
    assert set(refused.json()) == {"code", "message", "field"}
    conflict = client.post(
        "/api/events/api-event/results/",
        {"round": 1, "table": 1, "board": 1, "text": "N mis 0", "version": 0, "reason": "x"},
        content_type="application/json",
    )
    assert conflict.status_code == 409
    assert conflict.json()["code"] == "conflict"


def test_an_outsider_cannot_write_results(client: Client, outsider: User, running: Event) -> None:
    client.force_login(outsider)
    response = client.post(
        "/api/events/api-event/results/",
        {"round": 1, "table": 1, "board": 1, "text": "pass"},
        content_type="application/json",
    )
    assert response.status_code == 403


@pytest.mark.django_db
def test_it_publishes_its_openapi_schema(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert b"/api/events/" in response.content

"""Rulings through API v1: artificial and weighted scores, a table's artificial scores, byes'
scores, penalties and fines, and their cancellation; directors and assistants only."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import as_a_test
from tests.tournaments.conftest import TEST_KEY, make_settings, register, start_event
from tournaments.models import AuditEntry, Event, Penalty, Result, Seating, SitOutScore, Table
from tournaments.services import deals, events, results, rounds, seating


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    with as_a_test():
        return start_event(module_td, "api-rulings", 16)


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """16 players in play, round 1 open (made once for the module)."""
    return Event.objects.get(pk=_running.pk)


@pytest.fixture
def td_client(client: Client, td: User) -> Client:
    client.force_login(td)
    return client


def url(event: Event, rest: str) -> str:
    return f"/api/v1/events/{event.slug}/{rest}"


def post(client: Client, address: str, body: Any) -> Any:
    return client.post(address, json.dumps(body), content_type="application/json")


def first_table(event: Event) -> Table:
    return Table.objects.get(round__event=event, round__number=1, number=1)


def first_board(table: Table) -> int:
    return int(table.table_boards.order_by("position")[0].board.number)


def test_an_artificial_score_on_a_board(td_client: Client, running: Event) -> None:
    table = first_table(running)
    body = {
        "kind": "artificial",
        "round": 1,
        "table": 1,
        "board": first_board(table),
        "awards": {"N": "average_plus", "E": "average", "S": "average_minus", "W": "55"},
        "reason": "board fouled",
    }
    response = post(td_client, url(running, "adjustments/"), body)
    assert response.status_code == 201, response.json()
    data = response.json()
    assert [r["kind"] for r in data["results"]] == ["artificial"]
    assert data["bye"] is None
    assert data["message"] == "Artificial score recorded."
    listed = td_client.get(url(running, "adjustments/")).json()
    assert [r["board"] for r in listed["scores"]] == [first_board(table)]
    assert listed["byes"] == []


def test_an_artificial_score_needs_every_seat_and_a_reason(
    td_client: Client, running: Event
) -> None:
    table = first_table(running)
    base = {"kind": "artificial", "round": 1, "table": 1, "board": first_board(table)}
    no_reason = post(td_client, url(running, "adjustments/"), {**base, "awards": {"N": "average"}})
    assert (no_reason.status_code, no_reason.json()["field"]) == (400, "reason")
    missing = post(
        td_client, url(running, "adjustments/"), {**base, "awards": {"N": "average"}, "reason": "r"}
    )
    assert (missing.status_code, missing.json()["field"]) == (400, "awards")
    no_awards = post(td_client, url(running, "adjustments/"), {**base, "reason": "r"})
    assert (no_awards.status_code, no_awards.json()["field"]) == (400, "awards")
    assert not Result.objects.exists()


def test_a_weighted_score(td_client: Client, running: Event) -> None:
    table = first_table(running)
    body = {
        "kind": "weighted",
        "round": 1,
        "table": 1,
        "board": first_board(table),
        "outcomes": [{"weight": "30", "text": "pass"}, {"weight": "70", "text": "N mis 0"}],
        "reason": "hesitation",
    }
    response = post(td_client, url(running, "adjustments/"), body)
    assert response.status_code == 201, response.json()
    assert response.json()["results"][0]["kind"] == "weighted"
    wrong = post(
        td_client,
        url(running, "adjustments/"),
        {**body, "outcomes": [{"weight": "thirty", "text": "pass"}]},
    )
    assert (wrong.status_code, wrong.json()["field"]) == (400, "outcomes")
    short = post(
        td_client,
        url(running, "adjustments/"),
        {**body, "outcomes": [{"weight": "30", "text": "pass"}]},
    )
    assert (short.status_code, short.json()["field"]) == (400, "weights")


def test_a_tables_artificial_scores_leave_played_boards(td_client: Client, running: Event) -> None:
    table = first_table(running)
    played = table.table_boards.order_by("position")[0].board
    results.record_result(None, table, played, "pass")
    body = {
        "kind": "table",
        "round": 1,
        "table": 1,
        "awards": {"N": "average", "E": "average", "S": None, "W": "average"},
        "reason": "a player left",
    }
    response = post(td_client, url(running, "adjustments/"), body)
    assert response.status_code == 201, response.json()
    data = response.json()
    assert played.number not in [r["board"] for r in data["results"]]
    assert len(data["results"]) == table.table_boards.count() - 1
    assert "kept its played result" in data["message"]
    assert AuditEntry.objects.filter(action="result.artificial_table").count() == 1


def test_a_byes_score(client: Client, td: User) -> None:
    event = events.create_event(td, make_settings(slug="api-byes", rounds=2))
    register(td, event, 5)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    bye = Seating.objects.get(round__number=1, round__event=event, seat="BYE").planned
    client.force_login(td)
    body = {
        "kind": "bye",
        "round": 1,
        "entry": bye.number,
        "award": "average_plus",
        "reason": "odd",
    }
    response = post(client, url(event, "adjustments/"), body)
    assert response.status_code == 201, response.json()
    assert response.json()["bye"]["award"] == "average_plus"
    assert SitOutScore.objects.get(entry=bye).reason == "odd"
    seated = Seating.objects.filter(round__number=1, round__event=event).exclude(seat="BYE")[0]
    refused = post(client, url(event, "adjustments/"), {**body, "entry": seated.planned.number})
    assert (refused.status_code, refused.json()["code"]) == (400, "no_bye")
    unknown = post(client, url(event, "adjustments/"), {**body, "award": "average_maximum"})
    assert (unknown.status_code, unknown.json()["field"]) == (400, "award")
    listed = client.get(url(event, "adjustments/")).json()
    assert [b["entry"] for b in listed["byes"]] == [bye.number]


def test_a_penalty_a_fine_and_a_cancellation(td_client: Client, running: Event) -> None:
    table = first_table(running)
    board = first_board(table)
    north = Seating.objects.get(table=table, seat="N").planned
    penalty = post(
        td_client,
        url(running, "penalties/"),
        {
            "kind": "revoke",
            "offender": north.number,
            "round": 1,
            "table": 1,
            "board": board,
            "reason": "revoke in trick 4",
        },
    )
    assert penalty.status_code == 201, penalty.json()
    assert penalty.json()["points"] == {"N": -36, "E": 12, "S": 12, "W": 12}
    fine = post(
        td_client,
        url(running, "penalties/"),
        {"kind": "fine", "offender": north.number, "amount": "2,5", "reason": "late"},
    )
    assert fine.status_code == 201, fine.json()
    assert (fine.json()["amount"], fine.json()["board"]) == ("2.50", None)
    listed = td_client.get(url(running, "penalties/")).json()
    assert [p["kind"] for p in listed["results"]] == ["revoke", "fine"]
    cancel = url(running, f"penalties/{penalty.json()['id']}/cancel/")
    assert post(td_client, cancel, {}).json()["field"] == "reason"
    cancelled = post(td_client, cancel, {"reason": "appeal upheld"})
    assert (cancelled.status_code, cancelled.json()["is_active"]) == (200, False)
    assert AuditEntry.objects.filter(action="penalty.cancel").count() == 1
    gone = post(td_client, url(running, "penalties/99999/cancel/"), {"reason": "x"})
    assert (gone.status_code, gone.json()["code"]) == (404, "not_found")


def test_a_penalty_is_refused_when_it_is_not_understood(td_client: Client, running: Event) -> None:
    table = first_table(running)
    north = Seating.objects.get(table=table, seat="N").planned
    base = {"offender": north.number, "round": 1, "table": 1, "board": first_board(table)}
    unknown = post(td_client, url(running, "penalties/"), {**base, "kind": "sneeze", "reason": "x"})
    assert (unknown.status_code, unknown.json()["field"]) == (400, "kind")
    no_board = post(
        td_client,
        url(running, "penalties/"),
        {"kind": "revoke", "offender": north.number, "reason": "x"},
    )
    assert (no_board.status_code, no_board.json()["field"]) == (400, "round")
    no_amount = post(
        td_client,
        url(running, "penalties/"),
        {"kind": "fine", "offender": north.number, "reason": "x"},
    )
    assert (no_amount.status_code, no_amount.json()["field"]) == (400, "amount")
    bad_amount = post(
        td_client,
        url(running, "penalties/"),
        {"kind": "fine", "offender": north.number, "reason": "x", "amount": [1]},
    )
    assert (bad_amount.status_code, bad_amount.json()["field"]) == (400, "amount")
    nobody = post(
        td_client,
        url(running, "penalties/"),
        {**base, "offender": 999, "kind": "revoke", "reason": "x"},
    )
    assert (nobody.status_code, nobody.json()["field"]) == (400, "offender")
    assert not Penalty.objects.exists()


def test_an_assistant_may_give_rulings(client: Client, assistant: User, running: Event) -> None:
    running.assistants.add(assistant)
    client.force_login(assistant)
    table = first_table(running)
    north = Seating.objects.get(table=table, seat="N").planned
    fine = {"kind": "fine", "offender": north.number, "amount": "5", "reason": "late"}
    assert post(client, url(running, "penalties/"), fine).status_code == 201
    assert client.get(url(running, "adjustments/")).status_code == 200


@pytest.mark.parametrize("rest", ["adjustments/", "penalties/"])
def test_the_public_may_not_see_or_give_rulings(
    client: Client, outsider: User, running: Event, rest: str
) -> None:
    assert client.get(url(running, rest)).status_code == 401
    assert post(client, url(running, rest), {"kind": "fine"}).status_code == 401
    client.force_login(outsider)
    assert client.get(url(running, rest)).status_code == 403
    assert post(client, url(running, rest), {"kind": "fine"}).status_code == 403

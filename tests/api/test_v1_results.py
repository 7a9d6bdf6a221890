"""Results through API v1: record, resend, correct with a version, key twice, keep a keying,
accept a sheet difference, check a line; who may; bad bodies are 400s in the one error shape."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.support import API_SCHEMA
from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tests.tournaments.test_results import a_line_for
from tournaments.models import ApiToken, AuditEntry, Board, Event, Result, Table
from tournaments.services import adjustments, results, tokens

KEY = "0f5c2a9e-5b7d-4a51-9d33"


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    with as_a_test():
        return start_event(module_td, "api-results", 16)


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """16 players in play, round 1 open (made once for the module)."""
    return Event.objects.get(pk=_running.pk)


@pytest.fixture
def spot(running: Event) -> tuple[Table, Board]:
    table = Table.objects.get(round__event=running, round__number=1, number=1)
    return table, table.table_boards.order_by("position")[0].board


@pytest.fixture
def td_client(client: Client, td: User) -> Client:
    client.force_login(td)
    return client


def url(event: Event, rest: str = "results/") -> str:
    return f"/api/v1/events/{event.slug}/{rest}"


def board_url(table: Table, board: Board, rest: str) -> str:
    event = table.round.event
    return url(
        event, f"rounds/{table.round.number}/tables/{table.number}/boards/{board.number}/{rest}"
    )


def post(client: Client, address: str, body: Any, **headers: str) -> Any:
    return client.post(address, json.dumps(body), content_type="application/json", headers=headers)


def line_body(table: Table, board: Board, **extra: Any) -> dict[str, Any]:
    return {
        "round": table.round.number,
        "table": table.number,
        "board": board.number,
        "text": a_line_for(board),
        **extra,
    }


def test_it_records_a_result_with_201(td_client: Client, running: Event, spot: Any) -> None:
    table, board = spot
    response = post(td_client, url(running), line_body(table, board, version=0, sheet={"N": "3"}))
    assert response.status_code == 201, response.json()
    data = response.json()
    assert (data["version"], data["source"], data["round"], data["board"]) == (
        1,
        "paper",
        1,
        board.number,
    )
    assert data["notation"] == a_line_for(board)
    assert data["sheet_mismatch"] == ["N"]
    assert data["warnings"] == []
    assert set(data["scores"]) == {"N", "E", "S", "W"}
    assert AuditEntry.objects.filter(event=running, action="result.record").count() == 1


def test_a_resent_submission_gets_the_stored_version_with_200(
    td_client: Client, running: Event, spot: Any
) -> None:
    table, board = spot
    body = line_body(table, board, version=0, submission=KEY)
    first = post(td_client, url(running), body)
    again = post(td_client, url(running), body)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert Result.objects.filter(table=table, board=board).count() == 1


def test_a_correction_needs_the_version_it_corrects(
    td_client: Client, running: Event, spot: Any
) -> None:
    table, board = spot
    post(td_client, url(running), line_body(table, board, version=0))
    body = line_body(table, board, text="pass", reason="sheet misread", confirmed=True)
    response = post(td_client, url(running), body)
    assert response.status_code == 400
    assert response.json()["code"] == "version_required"
    assert response.json()["field"] == "version"
    assert response.json()["params"]["version"] == 1
    assert post(td_client, url(running), {**body, "version": 1}).status_code == 201
    assert Result.objects.get(table=table, board=board, is_current=True).notation == "pass"


def test_a_correction_based_on_an_old_version_is_a_409_with_the_current_one(
    td_client: Client, running: Event, spot: Any
) -> None:
    table, board = spot
    post(td_client, url(running), line_body(table, board, version=0))
    body = line_body(table, board, text="pass", reason="sheet misread", confirmed=True, version=1)
    assert post(td_client, url(running), body).status_code == 201
    stale = post(td_client, url(running), {**body, "text": a_line_for(board)})
    assert stale.status_code == 409
    error = stale.json()
    assert error["code"] == "conflict"
    assert error["params"] == {"version": 2, "notation": "pass"}
    assert set(error) == {"code", "message", "field", "params"}


def test_a_correction_without_a_reason_is_refused(
    td_client: Client, running: Event, spot: Any
) -> None:
    table, board = spot
    post(td_client, url(running), line_body(table, board, version=0))
    response = post(td_client, url(running), line_body(table, board, text="pass", version=1))
    assert response.status_code == 400
    assert response.json()["code"] == "reason_required"


def test_a_rare_result_needs_a_confirmation_and_then_shows_its_warning(
    td_client: Client, running: Event, spot: Any
) -> None:
    table, board = spot
    body = line_body(table, board, text="N omis 1", version=0)
    refused = post(td_client, url(running), body)
    assert refused.status_code == 400
    assert refused.json()["code"] == "needs_confirmation"
    accepted = post(td_client, url(running), {**body, "confirmed": True})
    assert accepted.status_code == 201
    assert accepted.json()["warnings"]


def test_a_second_keying_confirms_the_first(td_client: Client, running: Event, spot: Any) -> None:
    table, board = spot
    post(td_client, url(running), line_body(table, board, version=0))
    differing = post(td_client, url(running), line_body(table, board, text="pass", second=True))
    assert differing.status_code == 400
    assert differing.json()["code"] == "keying_mismatch"
    same = post(td_client, url(running), line_body(table, board, second=True))
    assert same.status_code == 200
    assert same.json()["status"] == "confirmed"
    assert Result.objects.filter(table=table, board=board).count() == 1


def test_a_differing_table_keying_is_shown_and_the_td_keeps_one(
    td_client: Client, td: User, running: Event, spot: Any
) -> None:
    table, board = spot
    results.record_result(None, table, board, "pass", source="device", seat="N")
    answer = post(td_client, url(running), line_body(table, board, version=1))
    assert answer.status_code == 200
    data = answer.json()
    assert (data["notation"], data["source"], data["other_keying"]) == (
        "pass",
        "device",
        a_line_for(board),
    )
    listed = td_client.get(url(running, "sheet-differences/")).json()
    assert [row["other_keying"] for row in listed["results"]] == [a_line_for(board)]
    stale = post(td_client, board_url(table, board, "keep/"), {"version": 2, "reason": "x"})
    assert stale.status_code == 409
    kept = post(td_client, board_url(table, board, "keep/"), {"version": 1, "reason": "asked"})
    assert kept.status_code == 200
    assert (kept.json()["status"], kept.json()["other_keying"]) == ("confirmed", "")
    assert AuditEntry.objects.filter(event=running, action="result.keep_keying").exists()


def test_the_td_accepts_a_sheet_difference_against_a_version(
    td_client: Client, running: Event, spot: Any
) -> None:
    table, board = spot
    post(td_client, url(running), line_body(table, board, version=0, sheet={"N": "999"}))
    listed = td_client.get(url(running, "sheet-differences/")).json()
    assert [row["sheet_status"] for row in listed["results"]] == ["open"]
    accept = board_url(table, board, "sheet/accept/")
    missing = post(td_client, accept, {"reason": "checked"})
    assert missing.status_code == 400
    assert missing.json()["field"] == "version"
    done = post(td_client, accept, {"reason": "checked", "version": 1})
    assert done.status_code == 200
    assert done.json()["sheet_status"] == "accepted"
    assert td_client.get(url(running, "sheet-differences/")).json()["count"] == 0


def test_it_shows_a_boards_current_result_and_history(
    td_client: Client, running: Event, spot: Any
) -> None:
    table, board = spot
    assert td_client.get(board_url(table, board, "result/")).status_code == 404
    post(td_client, url(running), line_body(table, board, version=0))
    post(td_client, url(running), line_body(table, board, text="pass", version=1, reason="r"))
    current = td_client.get(board_url(table, board, "result/"))
    assert (current.status_code, current.json()["version"]) == (200, 2)
    history = td_client.get(board_url(table, board, "history/")).json()
    assert [(v["version"], v["is_current"]) for v in history] == [(2, True), (1, False)]


def test_the_check_scores_a_line_without_saving_it(td_client: Client, running: Event) -> None:
    checked = post(td_client, url(running, "check/"), {"board": 1, "text": "pass"})
    assert checked.status_code == 200
    assert checked.json() == {
        "notation": "pass",
        "scores": {"N": 0, "E": 0, "S": 0, "W": 0},
        "warnings": [],
    }
    bad = post(td_client, url(running, "check/"), {"board": 1, "text": "NE 15H 3"})
    assert (bad.status_code, bad.json()["field"]) == (400, "notation")
    unknown = post(td_client, url(running, "check/"), {"board": 999, "text": "pass"})
    assert (unknown.status_code, unknown.json()["field"]) == (400, "board")
    assert not Result.objects.exists()


def test_the_list_filters_by_round_table_board_status_source_and_sheet(
    td_client: Client, running: Event
) -> None:
    tables = list(Table.objects.filter(round__event=running, round__number=1).order_by("number"))
    for table in tables[:2]:
        for link in table.table_boards.order_by("position")[:2]:
            post(td_client, url(running), line_body(table, link.board, version=0))
    first = tables[0].table_boards.order_by("position")[0].board
    results.record_result(None, tables[2], first, "pass", source="device", seat="N")
    everything = td_client.get(url(running)).json()
    assert everything["count"] == 5
    assert td_client.get(url(running) + "?table=2").json()["count"] == 2
    only = td_client.get(url(running) + f"?table=1&board={first.number}&round=1").json()
    assert [(r["table"], r["board"]) for r in only["results"]] == [(1, first.number)]
    assert td_client.get(url(running) + "?source=device").json()["count"] == 1
    assert td_client.get(url(running) + "?status=confirmed").json()["count"] == 0
    assert td_client.get(url(running) + "?sheet_status=open").json()["count"] == 0
    assert td_client.get(url(running) + "?round=2").json()["count"] == 0
    bad = td_client.get(url(running) + "?round=two")
    assert (bad.status_code, bad.json()["field"]) == (400, "round")
    page = td_client.get(url(running) + "?page_size=2").json()
    assert (len(page["results"]), page["count"]) == (2, 5)


def test_an_assistant_may_key_results(
    client: Client, assistant: User, running: Event, spot: Any
) -> None:
    table, board = spot
    running.assistants.add(assistant)
    client.force_login(assistant)
    assert post(client, url(running), line_body(table, board, version=0)).status_code == 201
    assert client.get(url(running)).json()["count"] == 1


@pytest.mark.parametrize("method", ["get", "post"])
def test_outsiders_get_403_and_anonymous_callers_401(
    client: Client, outsider: User, running: Event, spot: Any, method: str
) -> None:
    table, board = spot

    def call() -> Any:
        if method == "get":
            return client.get(url(running))
        return post(client, url(running), line_body(table, board, version=0))

    anonymous = call()
    assert anonymous.status_code == 401
    client.force_login(outsider)
    refused = call()
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert not Result.objects.exists()


def test_a_read_token_cannot_write_and_an_entry_token_writes_as_the_api(
    client: Client, td: User, running: Event, spot: Any
) -> None:
    table, board = spot
    _token, read = tokens.create_token(td, "site", ApiToken.Access.READ)
    denied = post(
        client, url(running), line_body(table, board, version=0), Authorization=f"Bearer {read}"
    )
    assert denied.status_code == 403
    _token, enter = tokens.create_token(td, "club app", ApiToken.Access.ENTER, running)
    written = post(
        client, url(running), line_body(table, board, version=0), Authorization=f"Bearer {enter}"
    )
    assert written.status_code == 201
    assert written.json()["source"] == "api"


BAD_BODIES: list[tuple[Any, str | None]] = [
    ({"round": [[[[1]]]], "table": 1, "board": 1, "text": "pass"}, "round"),
    ({"round": "1", "table": 1e300, "board": 1, "text": "pass"}, "table"),
    ({"round": 1, "table": 1, "board": 10**30, "text": "pass"}, "board"),
    ({"round": 1, "table": 1, "board": 1, "text": None}, "text"),
    ({"round": 1, "table": 1, "board": 1, "text": ["pass"]}, "text"),
    ({"round": 1, "table": 1, "board": 1, "text": "x" * 81}, "text"),
    ({"round": 1, "table": 1, "board": 1, "text": "pass", "version": -1}, "version"),
    ({"round": 1, "table": 1, "board": 1, "text": "pass", "version": 1.5}, "version"),
    ({"round": 1, "table": 1, "board": 1, "text": "pass", "sheet": [1, 2]}, "sheet"),
    ({"round": 1, "table": 1, "board": 1, "text": "pass", "sheet": {"X": 1}}, "sheet"),
    ({"round": 1, "table": 1, "board": 1, "text": "pass", "sheet": {"N": {"a": 1}}}, "sheet.N"),
    ({"round": 1, "table": 1, "board": 1, "text": "pass", "submission": "no"}, "submission"),
    ({"round": 1, "table": 1, "board": 1, "text": "pass", "second": "maybe"}, "second"),
    ({"round": 1, "table": 1, "board": 1, "text": "pass", "reason": "r" * 301}, "reason"),
    ({"round": 1, "table": 99, "board": 1, "text": "pass"}, "table"),
    ([1, 2, 3], None),
    ("pass", None),
]


@pytest.mark.parametrize(("body", "field"), BAD_BODIES)
def test_a_bad_body_is_a_400_naming_the_field(
    td_client: Client, running: Event, body: Any, field: str | None
) -> None:
    response = post(td_client, url(running), body)
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field
    assert response.json()["message"]
    assert not Result.objects.exists()


@pytest.mark.parametrize(
    "raw",
    [b"{", b'{"round": NaN}', b"[" * 100_000, b'{"round": 1e999}', b"\xff\xfe", b"9" * 5000],
)
def test_json_it_cannot_read_is_a_400(td_client: Client, running: Event, raw: bytes) -> None:
    response = td_client.post(url(running), raw, content_type="application/json")
    assert response.status_code == 400
    assert set(response.json()) == {"code", "message", "field", "params"}


def test_messages_are_in_the_callers_language(td: User, running: Event) -> None:
    french = Client(headers={"accept-language": "fr"})
    french.force_login(td)
    unknown = post(french, url(running, "check/"), {"board": 999, "text": "pass"})
    assert unknown.json()["message"] == "La donne 999 ne fait pas partie de ce tournoi."
    required = post(french, url(running), {"round": 1})
    assert required.json()["message"] == "Ce champ est obligatoire."


# --- the OpenAPI document and the API agree --------------------------------------------------------

CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
]
writes = API_SCHEMA.include(tag=["results", "rulings"])


@pytest.fixture
def keyed(td: User) -> dict[str, Any]:
    """An event in play with a board keyed twice (with two results), a sheet difference and a
    penalty: the path parameters name them, so that the generated bodies reach the services."""
    event = start_event(td, "api-schema-writes", 8)
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    links = list(table.table_boards.order_by("position").select_related("board"))
    results.record_result(None, table, links[0].board, "pass", source="device", seat="N")
    results.record_result(td, table, links[0].board, a_line_for(links[0].board))
    results.record_result(td, table, links[1].board, "pass", sheet={"N": "5"})
    north = table.seatings.get(seat="N").planned
    penalty = adjustments.record_penalty(td, table, links[1].board, north, "revoke", "revoke")
    _token, key = tokens.create_token(td, "schemathesis", ApiToken.Access.ENTER, event)
    return {
        "values": {
            "slug": event.slug,
            "n": 1,
            "t": 1,
            "b": links[0].board.number,
            "id": penalty.pk,
        },
        "headers": {"Authorization": f"Bearer {key}", "Accept-Language": "en"},
    }


@pytest.mark.django_db
@writes.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_result_operations_keep_to_the_schema(case: Any, keyed: dict[str, Any]) -> None:
    names = [p.name for p in case.operation.path_parameters]
    case.path_parameters = {name: keyed["values"][name] for name in names}
    case.call_and_validate(headers=keyed["headers"], checks=CHECKS)

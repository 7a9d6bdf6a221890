"""Table devices through the API and the device's pages: the PIN, the table, keying, resending,
an opponent's confirmation, what a device may not write, polling with an ETag, the director's
links and PINs, and the printed table card."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from pypdf import PdfReader
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from documents import loaders
from documents import services as reports_service
from documents.models import ReportFile
from documents.renderers.cards import TableCardRenderer
from tests.api.support import API_SCHEMA
from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tests.tournaments.test_results import a_line_for
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Board, Event, Result, Round, Table
from tournaments.services import devices, results, rounds

pytestmark = pytest.mark.django_db

SUBMISSION = "a1b2c3d4-e5f6-4711-8000-000000000001"
SCHEMA_CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
]


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    with as_a_test():
        return start_event(module_td, "device-evening", 8)


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """8 players in play, round 1 open, no table links yet (made once for the module)."""
    return Event.objects.get(pk=_running.pk)


@pytest.fixture
def table(td: User, running: Event) -> Table:
    return devices.ensure_device_keys(td, running.round_set.get(number=1))[0]


def url(table: Table, rest: str = "") -> str:
    return f"/api/v1/device/{table.device_key}/{rest}"


def boards_of(table: Table) -> list[Board]:
    return [link.board for link in table.table_boards.select_related("board").order_by("position")]


def post(client: Client, path: str, body: dict[str, Any], **headers: str) -> Any:
    return client.post(path, body, content_type="application/json", headers=headers)


@pytest.fixture
def phone(client: Client, table: Table) -> Client:
    """A phone at table 1 that gave the table's PIN."""
    response = post(client, url(table, "session/"), {"pin": table.device_pin})
    assert response.status_code == 200, response.content
    return client


def save(phone: Client, table: Table, board: Board, text: str, **extra: Any) -> Any:
    body = {"board": board.number, "text": text, "seat": "N", "submission": SUBMISSION, **extra}
    return post(phone, url(table, "results/"), body)


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"code", "message", "field", "params"}
    assert body["code"] == code
    assert body["message"]
    return dict(body)


# --- the PIN -------------------------------------------------------------------------------------


def test_the_right_pin_opens_the_table(phone: Client, table: Table) -> None:
    response = phone.get(url(table))
    assert response.status_code == 200
    body = response.json()
    assert body["table"]["number"] == table.number
    assert body["round"] == {"number": 1, "status": "open"}
    assert [s["seat"] for s in body["seats"]] == ["N", "E", "S", "W"]
    assert all(s["name"] for s in body["seats"])
    assert [b["board"] for b in body["boards"]] == [b.number for b in boards_of(table)]
    assert all(b["result"] is None for b in body["boards"])
    assert body["totals"] == {"N": 0, "E": 0, "S": 0, "W": 0}


def test_without_the_pin_the_table_is_refused(client: Client, table: Table) -> None:
    assert_error(client.get(url(table)), 403, "permission_denied")
    board = boards_of(table)[0]
    assert_error(save(client, table, board, a_line_for(board)), 403, "permission_denied")
    assert not Result.objects.exists()


def test_an_unknown_link_is_not_found(client: Client, table: Table) -> None:
    assert_error(client.get("/api/v1/device/not-a-table-key/"), 404, "not_found")
    response = post(client, "/api/v1/device/not-a-table-key/session/", {"pin": "12345"})
    assert_error(response, 404, "not_found")


def test_a_wrong_pin_is_refused_naming_the_field(client: Client, table: Table) -> None:
    body = assert_error(post(client, url(table, "session/"), {"pin": "x"}), 400, "wrong_pin")
    assert body["field"] == "pin"
    assert_error(post(client, url(table, "session/"), {}), 400, "invalid")


def test_guessing_pins_is_locked_with_retry_after(client: Client, table: Table) -> None:
    for _attempt in range(4):
        assert_error(post(client, url(table, "session/"), {"pin": "000000"}), 400, "wrong_pin")
    response = post(client, url(table, "session/"), {"pin": "000000"})
    body = assert_error(response, 429, "too_many_attempts")
    assert 0 < int(response["Retry-After"]) <= 600
    assert "minutes" in body["message"]
    # Locked: even the right PIN is refused until the window ends.
    assert_error(
        post(client, url(table, "session/"), {"pin": table.device_pin}), 429, "too_many_attempts"
    )


def test_writes_need_the_csrf_token(table: Table) -> None:
    browser = Client(enforce_csrf_checks=True, headers={"accept-language": "en"})
    response = post(browser, url(table, "session/"), {"pin": table.device_pin})
    assert_error(response, 403, "permission_denied")


# --- keying --------------------------------------------------------------------------------------


def test_it_keys_a_result_at_the_table_with_the_seat(phone: Client, table: Table) -> None:
    board = boards_of(table)[0]
    response = save(phone, table, board, a_line_for(board))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["version"] == 1
    assert body["state"] == "waiting"
    assert body["keyed_at_seat"] == "N"
    assert sum(body["scores"].values()) == 0
    stored = Result.objects.get(table=table, board=board)
    assert (stored.source, stored.keyed_at_seat, stored.entered_by) == ("device", "N", None)
    assert AuditEntry.objects.filter(action="result.record", data__source="device").exists()
    shown = phone.get(url(table)).json()
    assert shown["boards"][0]["result"]["notation"] == stored.notation
    assert shown["totals"] == body["scores"]


def test_a_resent_result_gets_the_stored_one_never_a_second(phone: Client, table: Table) -> None:
    board = boards_of(table)[0]
    first = save(phone, table, board, a_line_for(board))
    again = save(phone, table, board, a_line_for(board))
    assert again.status_code == 200, again.content
    assert again.json()["version"] == first.json()["version"] == 1
    assert Result.objects.filter(table=table, board=board).count() == 1


def test_a_save_without_its_own_key_is_refused(phone: Client, table: Table) -> None:
    board = boards_of(table)[0]
    body = {"board": board.number, "text": a_line_for(board), "seat": "N"}
    assert assert_error(post(phone, url(table, "results/"), body), 400, "invalid")["field"] == (
        "submission"
    )
    body["submission"] = "short"
    assert_error(post(phone, url(table, "results/"), body), 400, "invalid")
    assert not Result.objects.exists()


@pytest.mark.parametrize(
    "change",
    [
        {"board": "one"},
        {"board": 0},
        {"seat": "X"},
        {"text": ""},
        {"text": "NE 8H 8\u0000"},
        {"version": -1},
        {"version": 1.5},
        {"text": "x" * 200},
        {"confirmed": "maybe"},
    ],
)
def test_bad_input_is_a_clear_400(phone: Client, table: Table, change: dict[str, Any]) -> None:
    board = boards_of(table)[0]
    body = {"board": board.number, "text": a_line_for(board), "seat": "N", "submission": SUBMISSION}
    response = post(phone, url(table, "results/"), {**body, **change})
    assert_error(response, 400, response.json()["code"])
    assert not Result.objects.exists()


def test_it_scores_a_line_without_saving_it(phone: Client, table: Table) -> None:
    board = boards_of(table)[0]
    response = post(phone, url(table, "check/"), {"board": board.number, "text": a_line_for(board)})
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body["scores"]) == set("NESW")
    assert "N and E" in body["words"]
    assert not Result.objects.exists()
    wrong = post(phone, url(table, "check/"), {"board": board.number, "text": "NE 8Q 8"})
    assert_error(wrong, 400, "notation")


def test_a_device_writes_only_its_own_tables_boards_of_the_round(
    td: User, running: Event, phone: Client, table: Table
) -> None:
    later = Board.objects.filter(event=running).exclude(table_boards__table=table).first()
    assert later is not None
    assert_error(save(phone, table, later, a_line_for(later)), 403, "permission_denied")
    other_event = start_event(td, "other-evening", 8)
    foreign = Board.objects.filter(event=other_event, number=99).first() or Board(number=99)
    assert_error(save(phone, table, foreign, "pass"), 403, "permission_denied")
    assert not Result.objects.filter(table=table).exists()


def test_a_closed_round_is_not_written_at_the_table(
    td: User, running: Event, phone: Client, table: Table
) -> None:
    rounds.close_round(td, running.round_set.get(number=1), "test", anyway=True)
    board = boards_of(table)[0]
    assert_error(save(phone, table, board, a_line_for(board)), 403, "permission_denied")
    assert_error(phone.get(url(table)), 403, "permission_denied")


# --- corrections and confirmations ---------------------------------------------------------------


def test_a_correction_from_an_old_version_is_a_conflict_with_the_current_one(
    td: User, phone: Client, table: Table
) -> None:
    board = boards_of(table)[0]
    line = a_line_for(board)
    save(phone, table, board, line)
    results.record_result(
        td, table, board, line.replace(" 8", " 9", 1), expected_version=1, reason="x"
    )
    response = save(
        phone,
        table,
        board,
        line,
        version=1,
        reason="keyed wrong",
        submission="second-save-0002",
    )
    body = assert_error(response, 409, "conflict")
    assert body["params"]["version"] == 2


def test_a_correction_without_a_version_is_refused(phone: Client, table: Table) -> None:
    board = boards_of(table)[0]
    line = a_line_for(board)
    save(phone, table, board, line)
    other = line[:-1] + "9"
    response = save(phone, table, board, other, reason="typo", submission="second-save-0002")
    body = assert_error(response, 400, "version_required")
    assert body["params"]["version"] == 1


def test_an_opponent_confirms_but_the_keyer_cannot(phone: Client, table: Table) -> None:
    board = boards_of(table)[0]
    save(phone, table, board, a_line_for(board))
    own = post(phone, url(table, f"boards/{board.number}/confirm/"), {"seat": "N", "version": 1})
    assert_error(own, 400, "own_confirmation")
    other = post(phone, url(table, f"boards/{board.number}/confirm/"), {"seat": "E", "version": 1})
    assert other.status_code == 200, other.content
    assert (other.json()["state"], other.json()["confirmed_by"]) == ("confirmed", "E")
    assert Result.objects.get(table=table, board=board).table_confirmed_by == "E"


def test_confirming_a_board_without_a_result_is_refused(phone: Client, table: Table) -> None:
    board = boards_of(table)[0]
    response = post(
        phone, url(table, f"boards/{board.number}/confirm/"), {"seat": "E", "version": 1}
    )
    assert_error(response, 400, "nothing_to_confirm")


def test_paper_and_table_keyings_that_agree_confirm_and_that_differ_are_flagged(
    td: User, phone: Client, table: Table
) -> None:
    first, second = boards_of(table)[:2]
    results.record_result(td, table, first, a_line_for(first))
    agreed = save(phone, table, first, a_line_for(first))
    assert agreed.json()["state"] == "confirmed"
    results.record_result(td, table, second, a_line_for(second))
    differing = a_line_for(second)[:-1] + "9"
    flagged = save(phone, table, second, differing, submission="second-save-0002")
    assert flagged.json()["state"] == "differs"
    stored = Result.objects.get(table=table, board=second, is_current=True)
    assert stored.other_keying
    assert stored.version == 1


# --- polling -------------------------------------------------------------------------------------


def test_polling_with_the_etag_is_answered_304_until_something_changes(
    phone: Client, table: Table
) -> None:
    first = phone.get(url(table))
    tag = first["ETag"]
    assert phone.get(url(table), headers={"if-none-match": tag}).status_code == 304
    board = boards_of(table)[0]
    save(phone, table, board, a_line_for(board))
    changed = phone.get(url(table), headers={"if-none-match": tag})
    assert changed.status_code == 200
    tag = changed["ETag"]
    post(phone, url(table, f"boards/{board.number}/confirm/"), {"seat": "E", "version": 1})
    assert phone.get(url(table), headers={"if-none-match": tag}).status_code == 200


def test_a_poll_that_has_not_changed_costs_few_queries(
    phone: Client, table: Table, django_assert_max_num_queries: Any
) -> None:
    tag = phone.get(url(table))["ETag"]
    with django_assert_max_num_queries(4):  # the session, the table, the tag
        assert phone.get(url(table), headers={"if-none-match": tag}).status_code == 304


# --- the device's pages --------------------------------------------------------------------------


def test_the_link_asks_for_the_pin_then_shows_the_table(client: Client, table: Table) -> None:
    page = client.get(f"/t/{table.device_key}/")
    assert page.status_code == 200
    assert b'name="pin"' in page.content
    wrong = client.post(f"/t/{table.device_key}/", {"pin": "x"})
    assert wrong.status_code == 400
    assert b"This is not the PIN of table" in wrong.content
    right = client.post(f"/t/{table.device_key}/", {"pin": table.device_pin})
    assert right.status_code == 302
    shown = client.get(f"/t/{table.device_key}/")
    assert shown.status_code == 200
    assert b"Boards of this round" in shown.content
    assert b"device.js" in shown.content
    for board in boards_of(table):
        assert f'data-board="{board.number}"'.encode() in shown.content


def test_an_unknown_link_is_a_404_page(client: Client, table: Table) -> None:
    page = client.get("/t/not-a-table-key/")
    assert page.status_code == 404
    assert b"Unknown table link" in page.content


def test_a_closed_rounds_link_says_so(
    td: User, running: Event, client: Client, table: Table
) -> None:
    rounds.close_round(td, running.round_set.get(number=1), "test", anyway=True)
    page = client.get(f"/t/{table.device_key}/")
    assert page.status_code == 403
    assert b"This round is not in play" in page.content


def test_the_page_locks_pin_guessing_too(client: Client, table: Table) -> None:
    for _attempt in range(4):
        client.post(f"/t/{table.device_key}/", {"pin": "000000"})
    locked = client.post(f"/t/{table.device_key}/", {"pin": "000000"})
    assert locked.status_code == 429
    assert locked["Retry-After"]
    assert b"Too many wrong PINs" in locked.content


# --- the director's side -------------------------------------------------------------------------


def test_the_round_page_lists_each_tables_link_and_pin(
    td: User, running: Event, client: Client
) -> None:
    client.force_login(td)
    page = client.get(f"/events/{running.slug}/rounds/1/")
    assert page.status_code == 200
    assert b"Table devices" in page.content
    for table in Table.objects.filter(round__event=running, round__number=1):
        assert f"/t/{table.device_key}/".encode() in page.content
        assert table.device_pin.encode() in page.content


def test_new_pins_from_the_round_page(
    td: User, running: Event, client: Client, table: Table
) -> None:
    client.force_login(td)
    response = client.post(f"/t/pins/{running.slug}/1/")
    assert response.status_code == 302
    assert Table.objects.get(pk=table.pk).device_pin != table.device_pin


def test_only_directors_make_new_pins(
    outsider: User, running: Event, client: Client, table: Table
) -> None:
    client.force_login(outsider)
    assert client.post(f"/t/pins/{running.slug}/1/").status_code == 403
    assert Table.objects.get(pk=table.pk).device_pin == table.device_pin


def test_the_api_gives_directors_the_links_and_new_pins(
    td: User, outsider: User, running: Event, client: Client, table: Table
) -> None:
    path = f"/api/v1/events/{running.slug}/rounds/1/devices/"
    assert_error(client.get(path), 401, "not_authenticated")
    client.force_login(outsider)
    assert_error(client.get(path), 403, "permission_denied")
    client.force_login(td)
    listed = client.get(path).json()
    assert listed[0]["key"] == table.device_key
    assert listed[0]["pin"] == table.device_pin
    assert listed[0]["url"].endswith(f"/t/{table.device_key}/")
    renewed = client.post(path).json()
    assert renewed[0]["pin"] != table.device_pin
    assert_error(client.get(f"/api/v1/events/{running.slug}/rounds/9/devices/"), 404, "not_found")


# --- the table card ------------------------------------------------------------------------------


def test_the_table_card_of_a_round_in_play_carries_the_link_and_the_pin(
    td: User, running: Event, settings: Any
) -> None:
    settings.TROEF_SITE_URL = "https://troef.example.org"
    # Asking for the cards makes the links (the document is drawn in a read-only transaction).
    assert not Table.objects.filter(round__event=running).exclude(device_key="").exists()
    reports_service.request_report(td, running, ReportFile.Kind.TABLE_CARDS, 1)
    data = loaders.seating_cards(running, 1)
    rendered = TableCardRenderer(data, language="en").render()
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(rendered.content)).pages]
    tables = Table.objects.filter(round__event=running, round__number=1).order_by("number")
    assert len(pages) == len(tables)
    for page, table in zip(pages, tables, strict=True):
        assert table.device_pin in page
        assert f"https://troef.example.org/t/{table.device_key}/" in page
        assert "scan the code" in page
    # Every round's grid has no link: a table's link is the round's.
    grid = TableCardRenderer(loaders.seating_cards(running), language="en").render()
    assert "scan the code" not in PdfReader(io.BytesIO(grid.content)).pages[0].extract_text()


def test_a_closed_rounds_table_card_has_no_link(td: User, running: Event) -> None:
    rounds.close_round(td, Round.objects.get(event=running, number=1), "test", anyway=True)
    rendered = TableCardRenderer(loaders.seating_cards(running, 1), language="en").render()
    assert "scan the code" not in PdfReader(io.BytesIO(rendered.content)).pages[0].extract_text()


# --- the schema ----------------------------------------------------------------------------------

device_schema = API_SCHEMA.include(tag="table devices")


@pytest.fixture
def device_api(db: None) -> Any:
    return device_schema


@pytest.fixture
def granted(client: Client, table: Table) -> dict[str, Any]:
    """A phone's cookies and CSRF token, after it gave table 1's PIN, and the table's key."""
    client.get(f"/t/{table.device_key}/")
    post(client, url(table, "session/"), {"pin": table.device_pin})
    csrf = client.cookies["csrftoken"].value
    return {
        "key": table.device_key,
        "cookies": {"sessionid": client.cookies["sessionid"].value, "csrftoken": csrf},
        "headers": {"X-CSRFToken": csrf, "Accept-Language": "en"},
    }


@pytest.mark.django_db
@device_schema.parametrize()
@hypothesis_settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_device_api_keeps_to_its_schema(case: Any, granted: dict[str, Any]) -> None:
    if "key" in (case.path_parameters or {}):
        case.path_parameters["key"] = granted["key"]
    case.cookies = {**(case.cookies or {}), **granted["cookies"]}
    case.call_and_validate(headers=granted["headers"], checks=SCHEMA_CHECKS)


def _impossible_line(event: Event, board: Board) -> tuple[str, str]:
    """A line the deal makes impossible on ``board``, and what the director is told of it."""
    for suit in "SHDC":
        for tricks in (0, 13):
            line = f"NE 8{suit} {tricks}"
            try:
                results.check(event, board, line)
            except UserError as error:
                if error.code not in ("notation", "invalid_result"):
                    return line, error.message
    raise AssertionError("no line is impossible on this board")


def test_the_checks_never_name_a_card_at_the_table(td: User, phone: Client, table: Table) -> None:
    """A line that the deal makes impossible is refused without saying who holds what."""
    board = boards_of(table)[0]
    line, told = _impossible_line(table.round.event, board)
    assert any(symbol in told for symbol in "♠♥♦♣")  # the director is told the cards
    for path, body in (
        ("check/", {"board": board.number, "text": line}),
        (
            "results/",
            {"board": board.number, "text": line, "seat": "N", "submission": "card-probe-001"},
        ),
    ):
        response = post(phone, url(table, path), body)
        assert response.status_code == 400, response.content
        message = response.json()["message"]
        assert "cannot happen with the cards dealt" in message
        assert not any(symbol in message for symbol in "♠♥♦♣")


def test_a_device_cannot_overwrite_the_directors_ruling(
    td: User, phone: Client, table: Table
) -> None:
    board = boards_of(table)[0]
    line = a_line_for(board)
    results.record_result(td, table, board, line)
    response = save(phone, table, board, line[:-1] + "9", version=1, reason="we disagree")
    assert_error(response, 403, "permission_denied")
    assert Result.objects.filter(table=table, board=board).count() == 1

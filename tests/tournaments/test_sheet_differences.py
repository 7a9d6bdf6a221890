"""Points written on the paper sheet are kept with the result; a difference stays open until resolved."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.conftest import start_event
from tests.tournaments.test_results import a_line_for
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Board, Event, Result, Standings, Table
from tournaments.services import results, standings


@pytest.fixture
def td_client(client: Client, td: User) -> Client:
    client.force_login(td)
    return client


@pytest.fixture
def running(td: User) -> Event:
    return start_event(td, "sheets", 4)


def first_board(event: Event) -> tuple[Table, Board]:
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    return table, table.table_boards.get(position=1).board


def test_it_keeps_the_sheets_points_with_the_result_and_opens_a_difference(
    td: User, running: Event
) -> None:
    table, board = first_board(running)
    line = a_line_for(board)  # scores 8 8 -8 -8
    result = results.record_result(td, table, board, line, sheet={"N": "8", "W": "-9", "E": ""})
    assert result.sheet == {"N": 8, "W": -9}
    assert result.sheet_status == Result.SheetStatus.OPEN
    assert results.open_sheet_differences(running) == 1


def test_a_sheet_that_agrees_opens_nothing(td: User, running: Event) -> None:
    table, board = first_board(running)
    result = results.record_result(td, table, board, a_line_for(board), sheet={"N": 8, "S": -8})
    assert result.sheet_status == ""
    assert results.open_sheet_differences(running) == 0


def test_a_correction_that_now_agrees_with_the_sheet_closes_the_difference(
    td: User, running: Event
) -> None:
    table, board = first_board(running)
    line = a_line_for(board)
    nine = line[:-1] + "9"  # the declarers made 9 tricks, as the sheet's points say
    n, e, s, _w = results.check(running, board, nine).scores
    results.record_result(td, table, board, line, sheet={"N": n, "E": e, "S": s})
    assert results.open_sheet_differences(running) == 1
    corrected = results.record_result(
        td, table, board, nine, expected_version=1, reason="one trick more"
    )
    assert corrected.version == 2
    assert corrected.sheet == {"N": n, "E": e, "S": s}
    assert corrected.sheet_status == ""
    assert results.open_sheet_differences(running) == 0


def test_a_correction_that_still_differs_keeps_the_difference_open(
    td: User, running: Event
) -> None:
    table, board = first_board(running)
    line = a_line_for(board)
    results.record_result(td, table, board, line, sheet={"N": "20"})
    corrected = results.record_result(
        td, table, board, line[:-1] + "9", expected_version=1, reason="one trick more"
    )
    assert corrected.sheet == {"N": 20}
    assert corrected.sheet_status == Result.SheetStatus.OPEN


def test_accepting_troefs_score_closes_the_difference_and_is_logged(
    td: User, running: Event
) -> None:
    table, board = first_board(running)
    result = results.record_result(td, table, board, a_line_for(board), sheet={"N": "80"})
    accepted = results.accept_sheet_difference(td, result, "sheet added up wrong")
    assert accepted.sheet_status == Result.SheetStatus.ACCEPTED
    assert accepted.version == 1  # the result itself is not changed
    entry = AuditEntry.objects.get(action="result.sheet_accept")
    assert entry.reason == "sheet added up wrong"
    assert "board 1 at table 1" in entry.text
    assert results.open_sheet_differences(running) == 0


def test_an_old_version_cannot_be_accepted(td: User, running: Event) -> None:
    table, board = first_board(running)
    line = a_line_for(board)
    old = results.record_result(td, table, board, line, sheet={"N": "80"})
    results.record_result(
        td, table, board, line[:-1] + "9", expected_version=1, reason="one trick more"
    )
    with pytest.raises(UserError) as caught:
        results.accept_sheet_difference(td, old)
    assert caught.value.code == "conflict"


def test_it_refuses_sheet_points_that_are_not_a_whole_number(td: User, running: Event) -> None:
    table, board = first_board(running)
    with pytest.raises(UserError) as caught:
        results.record_result(td, table, board, a_line_for(board), sheet={"E": "8a"})
    assert caught.value.field == "sheet"
    assert "E" in caught.value.message
    assert not Result.objects.exists()


def test_points_typed_after_the_line_are_noted_with_the_same_version(
    td: User, running: Event
) -> None:
    table, board = first_board(running)
    line = a_line_for(board)
    results.record_result(td, table, board, line)
    again = results.record_result(td, table, board, line, sheet={"S": "-7"})
    assert again.version == 1
    assert Result.objects.get().sheet_status == Result.SheetStatus.OPEN
    assert AuditEntry.objects.filter(action="result.sheet").count() == 1


def test_the_difference_shows_after_a_reload_on_every_td_page_until_accepted(
    td_client: Client, running: Event
) -> None:
    _table, board = first_board(running)
    slug = running.slug
    line = {"round": 1, "table": 1, "board": board.number, "text": a_line_for(board)}
    saved = td_client.post(
        f"/api/v1/events/{slug}/results/",
        json.dumps({**line, "sheet": {"W": "-80"}}),
        content_type="application/json",
    ).json()
    assert saved["sheet_status"] == "open"
    assert saved["sheet_mismatch"] == ["W"]
    entry_page = td_client.get(f"/events/{slug}/rounds/1/tables/1/").content.decode()
    assert 'value="-80"' in entry_page
    assert '<span class="message bad">The sheet says otherwise for W' in entry_page
    assert 'class="inline accept"' in entry_page
    overview = td_client.get(f"/events/{slug}/rounds/1/").content.decode()
    assert '<span class="bad">1</span>' in overview
    history = td_client.get(f"/events/{slug}/rounds/1/tables/1/boards/{board.number}/")
    assert "sheet differs" in history.content.decode()
    standings = td_client.get(f"/events/{slug}/standings/").content.decode()
    assert "1 result still differs from its score sheet" in standings
    response = td_client.post(
        f"/events/{slug}/rounds/1/tables/1/boards/{board.number}/sheet/",
        {"back": "history", "reason": "checked with the players"},
    )
    assert response["Location"] == f"/events/{slug}/rounds/1/tables/1/boards/{board.number}/"
    assert Result.objects.get().sheet_status == Result.SheetStatus.ACCEPTED
    assert "still differs" not in td_client.get(f"/events/{slug}/standings/").content.decode()
    entry_page = td_client.get(f"/events/{slug}/rounds/1/tables/1/").content.decode()
    assert 'class="inline accept"' not in entry_page
    assert 'value="-80"' in entry_page  # the sheet's points stay on record


def test_the_public_standings_follow_an_accepted_difference_without_a_recomputation(
    client: Client, td: User, running: Event
) -> None:
    table, board = first_board(running)
    result = results.record_result(td, table, board, a_line_for(board), sheet={"N": "80"})
    standings.refresh(running.pk)
    url = f"/events/{running.slug}/standings.json"
    first = client.get(url)
    assert first.json()["open_differences"] == 1
    assert first.json()["open_differences_display"] == (
        "1 result still differs from its score sheet and is being checked: the standings may change."
    )
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    computed = Standings.objects.get(event=running).computed
    results.accept_sheet_difference(td, result, "sheet added up wrong")
    assert Standings.objects.get(event=running).computed == computed  # not recomputed
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert (again.json()["open_differences"], again.json()["open_differences_display"]) == (0, "")
    page = client.get(f"/events/{running.slug}/standings/").content.decode()
    assert '<p class="warn" id="open-differences" hidden></p>' in page

"""Closing a round: what is missing is listed, and only an explicit "close anyway" gets past it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.conftest import start_event
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Event, Round, Seating, Table
from tournaments.services import adjustments, results, rounds


@pytest.fixture
def td_client(client: Client, td: User) -> Client:
    client.force_login(td)
    return client


def table_one(event: Event) -> Table:
    return Table.objects.get(round__event=event, round__number=1, number=1)


def round_one(event: Event) -> Round:
    return Round.objects.get(event=event, number=1)


def key_every_board(td: User, event: Event, *, skip: int = 0) -> None:
    """``pass`` on every board of round 1 (a result any deal allows), but for the last ``skip``."""
    for table in round_one(event).tables.order_by("number"):
        links = list(table.table_boards.select_related("board").order_by("position"))
        for link in links[: len(links) - skip]:
            results.record_result(td, table, link.board, "pass", confirmed=True)


def test_it_closes_a_complete_round_at_once(td: User) -> None:
    event = start_event(td, "complete", 8)
    key_every_board(td, event)
    assert rounds.gaps(round_one(event)) == []
    closed = rounds.close_round(td, round_one(event))
    assert closed.status == Round.Status.CLOSED
    assert AuditEntry.objects.get(action="round.close").text == "round 1 closed"


def test_it_refuses_a_round_with_boards_without_a_result_and_names_them(td: User) -> None:
    event = start_event(td, "missing", 8)
    key_every_board(td, event, skip=2)
    missing = rounds.gaps(round_one(event))
    assert [(g.kind, g.table, g.boards) for g in missing] == [
        ("no_result", 1, (3, 4)),
        ("no_result", 2, (3, 4)),
    ]
    assert missing[0].text == "Table 1: no result for boards 3, 4"
    with pytest.raises(UserError) as caught:
        rounds.close_round(td, round_one(event))
    assert caught.value.code == "round_incomplete"
    assert "2 things are missing" in caught.value.message
    assert round_one(event).status == Round.Status.OPEN


def test_closing_anyway_needs_a_reason_and_logs_what_was_missing(td: User) -> None:
    event = start_event(td, "anyway", 4)
    key_every_board(td, event, skip=1)
    with pytest.raises(UserError) as caught:
        rounds.close_round(td, round_one(event), "  ", anyway=True)
    assert caught.value.field == "reason"
    rounds.close_round(td, round_one(event), "sheet lost; ruling later", anyway=True)
    assert round_one(event).status == Round.Status.CLOSED
    entry = AuditEntry.objects.get(action="round.close_anyway")
    assert entry.reason == "sheet lost; ruling later"
    assert entry.data["missing"] == [
        {"kind": "no_result", "table": 1, "boards": [4], "seat": "", "player": ""}
    ]


def test_results_await_a_second_keying_once_the_event_uses_it(td: User, assistant: User) -> None:
    event = start_event(td, "second", 4)
    key_every_board(td, event)
    assert rounds.gaps(round_one(event)) == []  # nobody keys twice at this event: nothing awaits
    table = table_one(event)
    board = table.table_boards.get(position=1).board
    results.confirm_result(assistant, table, board, "pass")
    missing = rounds.gaps(round_one(event))
    assert [(g.kind, g.boards) for g in missing] == [("unconfirmed", (2, 3, 4))]
    assert missing[0].text == "Table 1: boards 2, 3, 4 await their second keying"


def test_an_open_sheet_difference_keeps_the_round_from_closing(td: User) -> None:
    event = start_event(td, "sheet-gap", 4)
    table = table_one(event)
    links = list(table.table_boards.select_related("board").order_by("position"))
    results.record_result(td, table, links[0].board, "pass", sheet={"N": "2"}, confirmed=True)
    for link in links[1:]:
        results.record_result(td, table, link.board, "pass", confirmed=True)
    missing = rounds.gaps(round_one(event))
    assert [(g.kind, g.boards) for g in missing] == [("sheet_difference", (1,))]
    current = table.results.get(board=links[0].board, is_current=True)
    results.accept_sheet_difference(td, current)
    assert rounds.gaps(round_one(event)) == []


def test_a_vacant_seat_needs_a_ruling_before_the_round_closes(td: User) -> None:
    event = start_event(td, "vacant", 4)
    table = table_one(event)
    seat = Seating.objects.get(table=table, seat="N")
    absent = seat.entry
    assert absent is not None
    seat.replaces, seat.entry = absent, None
    seat.save()
    missing = rounds.gaps(round_one(event))
    assert [g.kind for g in missing] == ["no_result", "vacant_seat"]
    assert missing[1].text == f"Table 1: seat N ({absent.player}) is empty and has no ruling"
    adjustments.award_table_artificial(
        td,
        table,
        {"N": None, "E": "average", "S": "average", "W": "average"},
        "N did not turn up",
    )
    assert rounds.gaps(round_one(event)) == []


def test_the_round_page_lists_what_is_missing_with_both_buttons(
    td_client: Client, td: User
) -> None:
    event = start_event(td, "page-gaps", 4)
    key_every_board(td, event, skip=1)
    page = td_client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "Table 1: no result for board 4" in page
    assert "Close the round" in page
    assert "Close anyway" in page


def test_the_event_pages_close_button_sends_the_td_to_the_list_of_what_is_missing(
    td_client: Client, td: User
) -> None:
    event = start_event(td, "page-refused", 4)
    key_every_board(td, event, skip=1)
    response = td_client.post(f"/events/{event.slug}/rounds/1/close/")
    assert response.status_code == 302
    assert response["Location"] == f"/events/{event.slug}/rounds/1/"
    assert round_one(event).status == Round.Status.OPEN
    page = td_client.get(response["Location"]).content.decode()
    assert "Round 1 is not complete" in page


def test_closing_anyway_from_the_round_page_needs_a_reason(td_client: Client, td: User) -> None:
    event = start_event(td, "page-anyway", 4)
    url = f"/events/{event.slug}/rounds/1/close/"
    td_client.post(url, {"anyway": "1", "back": "round"})
    assert round_one(event).status == Round.Status.OPEN
    response = td_client.post(url, {"anyway": "1", "back": "round", "reason": "no time left"})
    assert response["Location"] == f"/events/{event.slug}/rounds/1/"
    assert round_one(event).status == Round.Status.CLOSED
    assert AuditEntry.objects.get(action="round.close_anyway").reason == "no time left"


def test_a_complete_round_closes_with_one_click_on_the_round_page(
    td_client: Client, td: User
) -> None:
    event = start_event(td, "page-complete", 4)
    key_every_board(td, event)
    page = td_client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "nothing is missing" in page
    assert "Close anyway" not in page
    response = td_client.post(f"/events/{event.slug}/rounds/1/close/", {"back": "round"})
    assert response["Location"] == f"/events/{event.slug}/rounds/1/"
    assert round_one(event).status == Round.Status.CLOSED

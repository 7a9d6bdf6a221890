"""The event's list of penalties, fines and scores for byes, driven as a TD clicks through it."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import as_a_test
from tests.tournaments.conftest import make_settings, register, start_event
from tournaments.models import (
    AuditEntry,
    Board,
    Entry,
    Event,
    Penalty,
    Seating,
    SitOutScore,
    Standings,
    Table,
)
from tournaments.services import adjustments, events, results, standings


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    """Seventeen players: four tables and one bye a round; round 1 is in play."""
    with as_a_test():
        return start_event(module_td, "odd-evening", 17)


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """Seventeen players: four tables and one bye a round; round 1 is in play (made once for the
    module)."""
    return Event.objects.get(pk=_running.pk)


@pytest.fixture
def td_client(client: Client, td: User) -> Client:
    client.force_login(td)
    return client


@pytest.fixture
def eager() -> Iterator[None]:
    """Standings computed in-process as soon as a change commits (the worker test covers the broker)."""
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


def page_of(event: Event) -> str:
    return f"/events/{event.slug}/penalties/"


def north_of_table_one(event: Event) -> tuple[Table, Board, Entry]:
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    board = table.table_boards.get(position=1).board
    return table, board, Seating.objects.get(table=table, seat="N").planned


def a_revoke(td: User, event: Event) -> Penalty:
    table, board, north = north_of_table_one(event)
    results.record_result(td, table, board, "pass")
    return adjustments.record_penalty(td, table, board, north, "revoke", reason="revoke in trick 4")


def a_fine(td: User, event: Event, number: int = 2) -> Penalty:
    entry = event.entries.get(number=number)
    return adjustments.record_fine(td, event, entry, Fraction(5), reason="arrived late")


def rows_by_entry(event: Event) -> dict[int, dict[str, Any]]:
    return {row["entry"]: row for row in standings.compute(event)["rows"]}


def messages_of(response: Any) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_it_lists_every_penalty_fine_and_score_for_a_bye(
    td_client: Client, td: User, running: Event
) -> None:
    revoke = a_revoke(td, running)
    fine = a_fine(td, running)
    bye = Seating.objects.get(round__event=running, round__number=1, seat="BYE").planned
    adjustments.score_bye(td, bye, 1, "average_plus", reason="sat out for a late player")
    response = td_client.get(page_of(running))
    assert response.status_code == 200
    page = response.content.decode()
    assert "revoke in trick 4" in page
    assert f"{revoke.offender.number}. {revoke.offender.player.full_name}" in page
    _table, board, _north = north_of_table_one(running)
    assert f"board {board.number}, table 1, round 1" in page
    assert f"/events/{running.slug}/rounds/1/tables/1/boards/{board.number}/" in page
    assert "N -36 E 12 S 12 W 12" in page  # in seat order, whatever order the database keeps
    assert "arrived late" in page
    assert f"{fine.offender.number}. {fine.offender.player.full_name}" in page
    assert "5.00 off the total" in page
    assert "sat out for a late player" in page
    assert f"{bye.number}. {bye.player.full_name}" in page
    assert "average-plus (60 %)" in page
    assert "2 active" in page
    assert page.count(f"/events/{running.slug}/penalties/") >= 3  # nav, two cancel forms
    assert f"/penalties/{revoke.pk}/cancel/" in page
    assert f"/penalties/{fine.pk}/cancel/" in page


def test_the_event_navigation_links_the_page(td_client: Client, running: Event) -> None:
    page = td_client.get(f"/events/{running.slug}/").content.decode()
    assert f'href="{page_of(running)}"' in page


def test_an_empty_list_says_so(td_client: Client, running: Event) -> None:
    page = td_client.get(page_of(running)).content.decode()
    assert "No penalties or fines." in page
    assert "No scores for byes." in page


def test_a_td_cancels_a_fine_with_a_reason_and_the_standings_follow(
    td_client: Client,
    td: User,
    running: Event,
    eager: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    table, board, north = north_of_table_one(running)
    with django_capture_on_commit_callbacks(execute=True):
        results.record_result(td, table, board, "pass")
        fine = adjustments.record_fine(td, running, north, Fraction(5), reason="arrived late")
    row = next(
        r for r in Standings.objects.get(event=running).data["rows"] if r["entry"] == north.number
    )
    assert (row["total"], row["fines"]) == ("45.00", "5.00")

    with django_capture_on_commit_callbacks(execute=True):
        response = td_client.post(
            f"{page_of(running)}{fine.pk}/cancel/", {"reason": "appeal upheld: the train was late"}
        )
    assert response.status_code == 302
    assert response["Location"] == page_of(running)
    assert Penalty.objects.get(pk=fine.pk).is_active is False
    state = Standings.objects.get(event=running)
    assert state.computed == state.requested
    row = next(r for r in state.data["rows"] if r["entry"] == north.number)
    assert (row["total"], row["fines"]) == ("50.00", "")
    entry = AuditEntry.objects.get(action="penalty.cancel", object_id=str(fine.pk))
    assert (entry.actor, entry.reason) == (td, "appeal upheld: the train was late")

    followed = td_client.get(page_of(running))
    page = followed.content.decode()
    assert "appeal upheld: the train was late" in page
    assert "by alice" in page
    assert f"/penalties/{fine.pk}/cancel/" not in page
    assert "0 active" in page


def test_a_td_cancels_a_board_penalty_from_the_list(
    td_client: Client, td: User, running: Event
) -> None:
    revoke = a_revoke(td, running)
    assert rows_by_entry(running)[revoke.offender.number]["raw_total"] == "-36"
    response = td_client.post(
        f"{page_of(running)}{revoke.pk}/cancel/", {"reason": "no revoke after all"}, follow=True
    )
    name = revoke.offender.player
    assert f"The revoke of {name} is cancelled; the standings are being updated." in messages_of(
        response
    )
    assert Penalty.objects.get(pk=revoke.pk).is_active is False
    assert rows_by_entry(running)[revoke.offender.number]["raw_total"] == "0"


@pytest.mark.parametrize("reason", ["", "   "])
def test_a_cancel_without_a_reason_is_refused_and_changes_nothing(
    td_client: Client, td: User, running: Event, reason: str
) -> None:
    fine = a_fine(td, running)
    response = td_client.post(
        f"{page_of(running)}{fine.pk}/cancel/", {"reason": reason}, follow=True
    )
    assert response.redirect_chain == [(page_of(running), 302)]
    assert messages_of(response) == [
        f"The fine of {fine.offender.player} was not cancelled: Give the reason."
    ]
    assert Penalty.objects.get(pk=fine.pk).is_active is True
    assert not AuditEntry.objects.filter(action="penalty.cancel").exists()
    assert f"/penalties/{fine.pk}/cancel/" in response.content.decode()


def test_a_second_cancel_says_it_was_already_cancelled(
    td_client: Client, td: User, running: Event
) -> None:
    fine = a_fine(td, running)
    adjustments.cancel_penalty(td, fine, reason="appeal upheld")
    response = td_client.post(
        f"{page_of(running)}{fine.pk}/cancel/", {"reason": "again"}, follow=True
    )
    assert messages_of(response) == [f"The fine of {fine.offender.player} was already cancelled."]
    assert AuditEntry.objects.filter(action="penalty.cancel").count() == 1


def test_a_penalty_of_another_event_is_not_cancelled_through_this_one(
    td_client: Client, td: User, running: Event
) -> None:
    other = events.create_event(td, make_settings(slug="other-evening"))
    register(td, other, 4)
    fine = a_fine(td, running)
    response = td_client.post(f"/events/{other.slug}/penalties/{fine.pk}/cancel/", {"reason": "x"})
    assert response.status_code == 404
    assert Penalty.objects.get(pk=fine.pk).is_active is True


def test_the_board_page_still_cancels_a_penalty(
    td_client: Client, td: User, running: Event
) -> None:
    revoke = a_revoke(td, running)
    assert revoke.board is not None
    url = f"/events/{running.slug}/rounds/1/tables/1/boards/{revoke.board.number}/"
    response = td_client.post(
        url + "ruling/", {"action": "cancel", "penalty": revoke.pk, "reason": "appeal upheld"}
    )
    assert response["Location"] == url
    assert Penalty.objects.get(pk=revoke.pk).is_active is False
    assert AuditEntry.objects.get(action="penalty.cancel").reason == "appeal upheld"


def test_it_asks_for_a_sign_in(client: Client, td: User, running: Event) -> None:
    fine = a_fine(td, running)
    for response in (
        client.get(page_of(running)),
        client.post(f"{page_of(running)}{fine.pk}/cancel/", {"reason": "x"}),
    ):
        assert response.status_code == 302
        assert "/accounts/login/" in response["Location"]
    assert Penalty.objects.get(pk=fine.pk).is_active is True


def test_an_outsider_can_neither_see_nor_change_the_list(
    client: Client, td: User, outsider: User, running: Event
) -> None:
    fine = a_fine(td, running)
    client.force_login(outsider)
    assert client.get(page_of(running)).status_code == 403
    cancel = client.post(f"{page_of(running)}{fine.pk}/cancel/", {"reason": "I say so"})
    assert cancel.status_code == 403
    given = client.post(page_of(running), {"entry": 3, "amount": "10", "reason": "spite"})
    assert given.status_code == 403
    assert Penalty.objects.get(pk=fine.pk).is_active is True
    assert Penalty.objects.count() == 1


def test_an_assistant_works_on_the_list_once_made_a_director(
    client: Client, td: User, assistant: User, running: Event
) -> None:
    fine = a_fine(td, running)
    client.force_login(assistant)
    assert client.get(page_of(running)).status_code == 403
    events.add_director(td, running, assistant)
    assert client.get(page_of(running)).status_code == 200
    client.post(f"{page_of(running)}{fine.pk}/cancel/", {"reason": "appeal upheld"})
    assert Penalty.objects.get(pk=fine.pk).is_active is False
    assert AuditEntry.objects.get(action="penalty.cancel").actor == assistant
    client.post(page_of(running), {"entry": 4, "amount": "3", "reason": "phone rang"})
    given = Penalty.objects.get(is_active=True)
    assert (given.offender.number, given.created_by) == (4, assistant)


def test_a_td_gives_a_fine_from_the_list(td_client: Client, td: User, running: Event) -> None:
    page = td_client.get(page_of(running)).content.decode()
    assert "Percentage points off the player&#x27;s total" in page
    response = td_client.post(
        page_of(running), {"entry": 7, "amount": "2,5", "reason": "phone rang"}, follow=True
    )
    assert response.redirect_chain == [(page_of(running), 302)]
    fine = Penalty.objects.get()
    assert (fine.offender.number, fine.kind, fine.fine) == (7, "fine", Decimal("2.5"))
    assert messages_of(response) == [f"Fine recorded for {fine.offender.player}."]
    assert "2.50 off the total" in response.content.decode()
    assert AuditEntry.objects.filter(action="penalty.fine", reason="phone rang").exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"entry": 7, "amount": "two", "reason": "phone rang"}, "two is not a number."),
        ({"entry": 7, "amount": "1e2", "reason": "phone rang"}, "1e2 is not a number."),
        ({"entry": 7, "amount": "1/4", "reason": "phone rang"}, "1/4 is not a number."),
        ({"entry": 7, "amount": "\u0661\u0662", "reason": "phone rang"}, "is not a number."),
        (
            {"entry": 7, "amount": "99999999999999999999", "reason": "phone rang"},
            "99999999999999999999 is not a number.",
        ),
        (
            {"entry": 7, "amount": "150", "reason": "phone rang"},
            "A fine in a matchpoint event is at most 100 percentage points.",
        ),
        ({"entry": 7, "amount": "", "reason": "phone rang"}, "Give the amount of the fine."),
        ({"entry": 7, "amount": "0", "reason": "phone rang"}, "A fine is a positive amount."),
        ({"entry": 7, "amount": "-3", "reason": "phone rang"}, "A fine is a positive amount."),
        (
            {"entry": 7, "amount": "1.255", "reason": "phone rang"},
            "Give the fine with at most two decimals.",
        ),
        ({"entry": 7, "amount": "5", "reason": "  "}, "Give the reason."),
        (
            {"entry": 99, "amount": "5", "reason": "phone rang"},
            "Choose one of this event&#x27;s players.",
        ),
        ({"amount": "5", "reason": "phone rang"}, "Choose the player to fine."),
        ({"entry": "", "amount": "5", "reason": "phone rang"}, "Choose the player to fine."),
    ],
)
def test_the_fine_form_names_what_is_wrong_and_keeps_what_was_typed(
    td_client: Client, running: Event, data: dict[str, object], message: str
) -> None:
    response = td_client.post(page_of(running), data)
    assert response.status_code == 200
    page = response.content.decode()
    assert message in page
    assert not Penalty.objects.exists()
    if str(data["reason"]).strip():
        assert 'value="phone rang"' in page


def test_a_fine_in_a_raw_event_is_in_whole_points(
    td_client: Client, td: User, running: Event
) -> None:
    Event.objects.filter(pk=running.pk).update(comparison=Event.Comparison.RAW)
    page = td_client.get(page_of(running)).content.decode()
    assert "Points off the player&#x27;s total, a whole number." in page
    response = td_client.post(page_of(running), {"entry": 7, "amount": "2.5", "reason": "late"})
    assert "Give the fine in whole points: this event&#x27;s standings show whole points." in (
        response.content.decode()
    )
    assert not Penalty.objects.exists()
    td_client.post(page_of(running), {"entry": 7, "amount": "10", "reason": "late"})
    assert Penalty.objects.get().fine == Decimal(10)
    assert "10 off the total" in td_client.get(page_of(running)).content.decode()


def test_the_players_page_fine_follows_the_same_rules(td_client: Client, running: Event) -> None:
    response = td_client.post(
        f"/events/{running.slug}/players/7/fine/",
        {"amount": "1.255", "reason": "late"},
        follow=True,
    )
    assert messages_of(response) == ["Give the fine with at most two decimals."]
    assert not Penalty.objects.exists()


def test_a_withdrawn_player_can_still_be_fined(td_client: Client, td: User, running: Event) -> None:
    from tournaments.services import players

    players.withdraw_player(td, running.entries.get(number=9), "went home ill")
    page = td_client.get(page_of(running)).content.decode()
    assert "(withdrawn)" in page
    td_client.post(page_of(running), {"entry": 9, "amount": "1", "reason": "left without notice"})
    assert Penalty.objects.get().offender.number == 9


def test_a_bye_score_lists_its_round_and_a_link_to_change_it(
    td_client: Client, td: User, running: Event
) -> None:
    bye = Seating.objects.get(round__event=running, round__number=1, seat="BYE").planned
    adjustments.score_bye(td, bye, 1, "average_minus", reason="refused to sit out")
    score = SitOutScore.objects.get()
    page = td_client.get(page_of(running)).content.decode()
    assert score.get_award_display() in page
    assert f'href="/events/{running.slug}/rounds/1/"' in page


def test_a_penalty_lists_its_seats_in_seat_order_whatever_the_stored_order(
    td: User, running: Event
) -> None:
    revoke = a_revoke(td, running)
    seats = revoke.points["seats"]
    revoke.points = {"seats": {seat: seats[seat] for seat in ("W", "E", "S", "N")}}
    revoke.save(update_fields=["points"])
    (listed,) = [row for row in adjustments.penalties_of(running) if row.penalty.pk == revoke.pk]
    assert [seat for seat, _points in listed.seats] == ["N", "E", "S", "W"]

"""One write path: the admin only shows tournament data, nothing deletes what results depend on,
and one bad record never freezes the standings."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError, RestrictedError
from django.test import Client
from django.urls import reverse

from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tournaments.models import (
    Board,
    Club,
    Entry,
    Event,
    Penalty,
    Player,
    Result,
    Seating,
    Standings,
    Table,
    TableBoard,
)
from tournaments.services import adjustments, results, seating, standings


@pytest.fixture(scope="module")
def _played(module_td: User) -> Event:
    """Sixteen players, round 1 in play, board 1 played at every table of round 1."""
    with as_a_test():
        running = start_event(module_td, "club-evening", 16)
        board = Board.objects.get(event=running, number=1)
        for table in Table.objects.filter(round__event=running, round__number=1):
            results.record_result(module_td, table, board, "pass")
        return running


@pytest.fixture
def played(_played: Event, db: None) -> Event:
    """Board 1 played at every table of round 1 (made once for the module)."""
    return Event.objects.get(pk=_played.pk)


@pytest.fixture
def root(db: None) -> User:
    return User.objects.create_superuser("root", password="root-password")


def table_one(event: Event) -> Table:
    return Table.objects.get(round__event=event, round__number=1, number=1)


def result_at_table_one(event: Event) -> Result:
    return Result.objects.get(table=table_one(event), board__number=1, is_current=True)


def admin_url(obj: Any, view: str) -> str:
    meta = obj._meta
    if view == "add":
        return reverse(f"admin:{meta.app_label}_{meta.model_name}_add")
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_{view}", args=[obj.pk])


def recompute(event: Event) -> Standings:
    Standings.objects.update_or_create(event=event, defaults={"requested": 1, "computed": 0})
    standings.refresh(event.pk)
    return Standings.objects.get(event=event)


# --- the admin --------------------------------------------------------------------------------


def test_it_refuses_a_superuser_every_change_to_tournament_data_in_the_admin(
    root: User, played: Event
) -> None:
    client = Client()
    client.force_login(root)
    result = result_at_table_one(played)
    seat = Seating.objects.filter(table=result.table).first()
    for obj in (played, played.entries.first(), result.table, seat, result.board, result):
        assert client.get(admin_url(obj, "add")).status_code == 403
        assert client.get(admin_url(obj, "delete")).status_code == 403
        assert client.post(admin_url(obj, "delete"), {"post": "yes"}).status_code == 403
        assert client.post(admin_url(obj, "change"), {}).status_code == 403
        # Shown, without a save button.
        page = client.get(admin_url(obj, "change"))
        assert page.status_code == 200
        assert b'name="_save"' not in page.content
    assert Event.objects.filter(pk=played.pk).exists()
    assert Result.objects.filter(pk=result.pk).exists()


def test_it_lets_the_admin_rename_a_player_but_not_delete_one_with_an_entry(
    root: User, played: Event
) -> None:
    client = Client()
    client.force_login(root)
    player = played.entries.get(number=1).player
    page = client.post(
        admin_url(player, "change"),
        {"first_name": "Renamed", "last_name": player.last_name, "federation_number": ""},
    )
    assert page.status_code == 302
    player.refresh_from_db()
    assert player.first_name == "Renamed"
    assert client.get(admin_url(player, "delete")).status_code == 403
    assert client.post(admin_url(player, "delete"), {"post": "yes"}).status_code == 403
    assert Player.objects.filter(pk=player.pk).exists()
    stranger = Player.objects.create(first_name="Nobody", last_name="Registered")
    assert client.get(admin_url(stranger, "delete")).status_code == 200


def test_it_does_not_let_the_admin_delete_a_club_whose_players_are_registered(
    root: User, played: Event
) -> None:
    club = Club.objects.create(name="De Troevers")
    Player.objects.filter(entries__event=played, entries__number=1).update(club=club)
    client = Client()
    client.force_login(root)
    assert client.get(admin_url(club, "delete")).status_code == 403
    changelist = client.get(reverse("admin:tournaments_club_changelist"))
    assert b"delete_selected" not in changelist.content
    assert Club.objects.filter(pk=club.pk).exists()


# --- deleting what results depend on ----------------------------------------------------------


def test_deleting_a_player_with_results_is_refused(played: Event) -> None:
    player = played.entries.get(number=1).player
    with pytest.raises(ProtectedError):
        player.delete()
    assert Player.objects.filter(pk=player.pk).exists()


def test_deleting_a_table_board_or_entry_that_results_depend_on_is_refused(
    td: User, played: Event
) -> None:
    result = result_at_table_one(played)
    entry = Seating.objects.filter(table=result.table).exclude(entry=None).first()
    assert entry is not None
    assert entry.entry is not None
    adjustments.record_fine(td, played, entry.entry, Fraction(5), reason="late")
    for obj in (result.table, result.board, entry.entry):
        with pytest.raises(RestrictedError):
            obj.delete()
    assert Result.objects.filter(pk=result.pk).exists()
    assert Seating.objects.filter(pk=entry.pk).exists()
    assert Penalty.objects.filter(offender=entry.entry).exists()


def test_deleting_a_whole_event_with_results_takes_everything_of_it(
    td: User, played: Event
) -> None:
    entry = played.entries.get(number=1)
    adjustments.record_fine(td, played, entry, Fraction(5), reason="late")
    recompute(played)
    played.delete()
    assert not Event.objects.filter(pk=played.pk).exists()
    assert not Result.objects.exists()
    assert not Seating.objects.exists()
    assert not Penalty.objects.exists()
    assert not Entry.objects.exists()
    # The players stay, for the club's other events.
    assert Player.objects.count() == 16


def test_re_planning_the_rounds_still_to_play_still_deletes_their_tables(
    td: User, played: Event
) -> None:
    before = set(Table.objects.filter(round__event=played, round__number=1).values_list("pk"))
    seating.replan(td, played, seed=7)
    after = set(Table.objects.filter(round__event=played, round__number=1).values_list("pk"))
    assert before == after
    assert Result.objects.filter(event=played, is_current=True).count() == 4


# --- standings that survive one bad record ----------------------------------------------------


def test_a_result_whose_seat_has_no_player_is_left_out_and_named(played: Event) -> None:
    result = result_at_table_one(played)
    Seating.objects.filter(table=result.table, seat="E").delete()
    data = standings.compute(played)
    assert data["problems"] == [
        {
            "result": result.pk,
            "board": 1,
            "table": 1,
            "round": 1,
            "message": "a seat of the table has nobody in the seating",
        }
    ]
    # The other three tables are still counted.
    assert data["results"] == 3


def test_a_result_for_a_board_the_table_does_not_play_is_left_out_and_named(
    played: Event,
) -> None:
    result = result_at_table_one(played)
    TableBoard.objects.filter(table=result.table, board=result.board).delete()
    data = standings.compute(played)
    assert [(p["result"], p["message"]) for p in data["problems"]] == [
        (result.pk, "the table does not play this board in the seating")
    ]
    assert data["results"] == 3


def test_a_result_with_corrupt_data_is_left_out_and_the_pages_say_so(
    td: User, played: Event
) -> None:
    result = result_at_table_one(played)
    Result.objects.filter(pk=result.pk).update(kind=Result.Kind.WEIGHTED, data={"weighted": "x"})
    state = recompute(played)
    assert [(p["result"], p["board"], p["table"]) for p in state.data["problems"]] == [
        (result.pk, 1, 1)
    ]
    assert state.data["problems"][0]["message"] == "the result's data cannot be read"
    assert not state.is_stale
    page = Client().get(reverse("standings", args=[played.slug]))
    assert "1 record is left out of these standings" in page.content.decode()
    client = Client()
    client.force_login(td)
    page = client.get(reverse("event", args=[played.slug]))
    assert "result of board 1 at table 1, round 1: the result&#x27;s data cannot be read" in (
        page.content.decode()
    )


def test_a_corrupt_penalty_and_bye_score_are_named_not_fatal(td: User, played: Event) -> None:
    table = Table.objects.get(round__event=played, round__number=1, number=1)
    board = Board.objects.get(event=played, number=1)
    north = Seating.objects.get(table=table, seat="N").entry
    assert north is not None
    item = adjustments.record_penalty(td, table, board, north, "revoke", reason="revoke")
    Penalty.objects.filter(pk=item.pk).update(points={"seats": {"N": "eight"}})
    data = standings.compute(played)
    assert data["problems"] == [
        {
            "penalty": item.pk,
            "board": 1,
            "table": 1,
            "message": "the penalty's points cannot be read",
        }
    ]
    assert len(data["rows"]) == 16


def test_a_fine_is_kept_as_the_amount_it_is(td: User, played: Event) -> None:
    entry = played.entries.get(number=1)
    fine = adjustments.record_fine(td, played, entry, Fraction(5, 2), reason="late")
    assert (fine.fine, fine.points) == (Decimal("2.5"), {})
    fine.refresh_from_db()
    assert fine.fine == Decimal("2.50")


def test_a_penalty_is_a_fine_or_on_a_board_never_both_nor_neither(td: User, played: Event) -> None:
    entry = played.entries.get(number=1)
    table = Table.objects.get(round__event=played, round__number=1, number=1)
    board = Board.objects.get(event=played, number=1)
    for where, fine in (({}, None), ({"table": table, "board": board}, Decimal(5))):
        with pytest.raises(IntegrityError), transaction.atomic():
            Penalty.objects.create(
                event=played, kind="fine", offender=entry, reason="x", fine=fine, **where
            )


def test_a_failed_computation_keeps_the_last_standings_marked_not_current(
    td: User, played: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = recompute(played)
    assert good.data["rows"]
    assert "failure" not in good.data

    def broken(event: Event, problems: object = None, **_options: object) -> dict[str, Any]:
        raise KeyError("E")

    monkeypatch.setattr(standings, "evaluate", broken)
    Standings.objects.filter(pk=good.pk).update(requested=good.requested + 1)
    assert standings.refresh(played.pk) is None
    state = Standings.objects.get(pk=good.pk)
    assert state.is_stale
    assert state.data["rows"] == good.data["rows"]
    assert state.data["failure"]["detail"] == "KeyError: 'E'"
    page = Client().get(reverse("standings", args=[played.slug])).content.decode()
    assert "These standings are not current: computing them failed" in page
    # The self-refreshing page learns it too, though the counter of computed standings stayed.
    notices = Client().get(reverse("standings_json", args=[played.slug])).json()["notices_display"]
    assert [n["id"] for n in notices] == ["not-current"]
    assert notices[0]["text"].startswith("These standings are not current: computing them failed")
    client = Client()
    client.force_login(td)
    page = client.get(reverse("event", args=[played.slug])).content.decode()
    assert "The standings are not current" in page
    assert "KeyError: &#x27;E&#x27;" in page

    monkeypatch.undo()
    assert standings.refresh(played.pk) == state.requested
    state.refresh_from_db()
    assert not state.is_stale
    assert "failure" not in state.data

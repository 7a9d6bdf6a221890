"""Withdrawing a player, taking the withdrawal back, editing and removing players (services)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import as_a_test
from tests.tournaments.conftest import make_settings, register, start_event
from tournaments.errors import UserError
from tournaments.models import (
    AuditEntry,
    Entry,
    Event,
    Penalty,
    Player,
    Round,
    Seating,
    SitOutScore,
    Table,
)
from tournaments.services import events, late_arrivals, players, seating, substitutes

Seat = tuple[int, int | None, str, int | None, int | None]


def seats_of(event: Event) -> set[Seat]:
    """Every seat of the event: round, table, seat, who sits there, whose seat it was planned as."""
    return {
        (s.round.number, s.table.number if s.table else None, s.seat, s.entry_id, s.replaces_id)
        for s in Seating.objects.filter(round__event=event).select_related("round", "table")
    }


def with_a_later_bye(event: Event) -> Entry:
    """A player with a bye in a round not yet started (17 players: one bye a round)."""
    bye = (
        Seating.objects.filter(round__event=event, round__number__gt=1, seat="BYE")
        .select_related("entry")
        .order_by("round__number")
        .first()
    )
    assert bye is not None
    assert bye.entry is not None
    return bye.entry


def late_arrival(event: Event, name: str = "Laat") -> Entry:
    """A late arrival as the late-arrival service enters one, before it is given any seat."""
    player = Player.objects.create(first_name=name, last_name="Komer")
    number = event.entries.count() + 1
    return Entry.objects.create(event=event, player=player, number=number, first_round=2)


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    """Seventeen players, round 1 in play: one bye a round."""
    with as_a_test():
        return start_event(module_td, "seventeen", 17)


@pytest.fixture
def event(td: User) -> Event:
    """A club evening in draft, the only event there is (the shared one is gone for the test)."""
    Event.objects.filter(slug="seventeen").delete()
    return events.create_event(td, make_settings())


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """Seventeen players, round 1 in play: one bye a round (made once for the module)."""
    return Event.objects.get(pk=_running.pk)


# --- withdrawing ---------------------------------------------------------------------------------


def test_it_needs_a_reason_to_withdraw_a_player(td: User, running: Event) -> None:
    before = seats_of(running)
    with pytest.raises(UserError) as caught:
        players.withdraw_player(td, running.entries.get(number=3), "  ")
    assert (caught.value.code, caught.value.field) == ("required", "reason")
    assert running.entries.get(number=3).status == Entry.Status.ACTIVE
    assert seats_of(running) == before


def test_it_leaves_the_later_seats_of_a_withdrawn_player_vacant_and_every_other_seat_as_it_was(
    td: User, running: Event
) -> None:
    entry = with_a_later_bye(running)
    before = seats_of(running)
    withdrawn = players.withdraw_player(td, entry, "went home ill")
    assert (withdrawn.status, withdrawn.withdrawn_after_round) == (Entry.Status.WITHDRAWN, 1)
    after = seats_of(running)
    expected = set()
    for round_, table, seat, who, replaces in before:
        if who != entry.pk or round_ == 1:
            expected.add((round_, table, seat, who, replaces))
        elif seat != "BYE":
            expected.add((round_, table, seat, None, entry.pk))
    assert after == expected
    # Round 1 has started: the player's seat there stays theirs.
    assert any(s[0] == 1 and s[3] == entry.pk for s in after)
    assert not any(s[0] > 1 and s[3] == entry.pk for s in after)
    assert sum(1 for s in after if s[3] is None) == running.rounds - 1 - sum(
        1 for s in before if s[0] > 1 and s[3] == entry.pk and s[2] == "BYE"
    )


def test_it_writes_the_withdrawal_to_the_log_with_its_reason(td: User, running: Event) -> None:
    entry = running.entries.get(number=3)
    players.withdraw_player(td, entry, "went home ill")
    logged = AuditEntry.objects.get(action="entry.withdraw")
    assert logged.reason == "went home ill"
    assert logged.actor == td
    assert logged.text == "withdrew Player3 Number3 after round 1"
    assert [seat["round"] for seat in logged.data["vacated"]] + logged.data["byes"] != []


def test_it_does_not_re_plan_on_a_withdrawal(td: User, running: Event) -> None:
    players.withdraw_player(td, running.entries.get(number=3), "ill")
    assert not AuditEntry.objects.filter(action="movement.replan").exists()


def test_it_refuses_a_withdrawal_before_play_and_points_to_remove(td: User, event: Event) -> None:
    register(td, event, 8)
    seating.generate_movement(td, event)
    with pytest.raises(UserError) as caught:
        players.withdraw_player(td, event.entries.get(number=2), "ill")
    assert caught.value.code == "event_not_started"
    assert "remove" in caught.value.message
    assert not players.can_withdraw(event.entries.get(number=2))


def test_it_refuses_to_withdraw_a_player_twice(td: User, running: Event) -> None:
    players.withdraw_player(td, running.entries.get(number=3), "ill")
    with pytest.raises(UserError) as caught:
        players.withdraw_player(td, running.entries.get(number=3), "ill")
    assert caught.value.code == "already_withdrawn"
    assert AuditEntry.objects.filter(action="entry.withdraw").count() == 1


def test_it_refuses_a_withdrawal_once_every_round_has_started(td: User, running: Event) -> None:
    running.round_set.update(status=Round.Status.OPEN)
    with pytest.raises(UserError) as caught:
        players.withdraw_player(td, running.entries.get(number=3), "ill")
    assert caught.value.code == "no_rounds_left"


# --- taking a withdrawal back --------------------------------------------------------------------


def test_it_takes_a_withdrawal_back_with_the_same_seats_and_byes(td: User, running: Event) -> None:
    entry = with_a_later_bye(running)
    before = seats_of(running)
    players.withdraw_player(td, entry, "ill")
    assert players.can_reinstate(Entry.objects.get(pk=entry.pk))
    back = players.reinstate_player(td, entry, "felt better")
    assert (back.status, back.withdrawn_after_round) == (Entry.Status.ACTIVE, None)
    assert seats_of(running) == before
    logged = AuditEntry.objects.get(action="entry.reinstate")
    assert (logged.reason, logged.text) == (
        "felt better",
        f"took back the withdrawal of {entry.player.full_name} after round 1",
    )


def test_it_gives_a_late_arrivals_borrowed_seat_back_to_its_planned_player_on_withdrawal(
    td: User, running: Event
) -> None:
    absent = running.entries.get(number=3)
    players.withdraw_player(td, absent, "did not come back")
    late = late_arrival(running)
    Seating.objects.filter(replaces=absent, entry=None).update(entry=late)
    players.withdraw_player(td, late, "left too")
    vacant = Seating.objects.filter(round__event=running, entry=None)
    assert set(vacant.values_list("replaces", flat=True)) == {absent.pk}
    players.reinstate_player(td, late)
    assert not Seating.objects.filter(round__event=running, entry=None).exists()
    assert set(Seating.objects.filter(entry=late).values_list("replaces", flat=True)) == {absent.pk}


def test_it_refuses_to_undo_a_withdrawal_once_a_later_round_has_started(
    td: User, running: Event
) -> None:
    entry = running.entries.get(number=3)
    players.withdraw_player(td, entry, "ill")
    running.round_set.filter(number=2).update(status=Round.Status.OPEN)
    with pytest.raises(UserError) as caught:
        players.reinstate_player(td, entry)
    assert caught.value.code == "round_started"
    assert "Round 2 has started" in caught.value.message
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.WITHDRAWN


def test_it_refuses_to_undo_a_withdrawal_once_a_seat_has_been_given_to_someone_else(
    td: User, running: Event
) -> None:
    entry = running.entries.get(number=3)
    players.withdraw_player(td, entry, "ill")
    substitute = late_arrival(running, "Invaller")
    taken = Seating.objects.filter(replaces=entry, entry=None).select_related("round", "table")
    seat = taken.order_by("round__number").last()
    assert seat is not None
    assert seat.table is not None
    seat.entry = substitute
    seat.save()
    with pytest.raises(UserError) as caught:
        players.reinstate_player(td, entry)
    assert caught.value.code == "seat_taken"
    assert (
        f"Round {seat.round.number}, table {seat.table.number}, seat {seat.seat}"
        in caught.value.message
    )
    assert not players.can_reinstate(Entry.objects.get(pk=entry.pk))


def test_it_refuses_to_undo_a_withdrawal_after_the_rounds_were_re_planned(
    td: User, running: Event
) -> None:
    entry = running.entries.get(number=3)
    players.withdraw_player(td, entry, "ill")
    seating.replan(td, running)
    with pytest.raises(UserError) as caught:
        players.reinstate_player(td, entry)
    assert caught.value.code == "replanned"


def test_it_refuses_to_undo_what_was_never_withdrawn(td: User, running: Event) -> None:
    with pytest.raises(UserError) as caught:
        players.reinstate_player(td, running.entries.get(number=3))
    assert caught.value.code == "not_withdrawn"


# --- editing -------------------------------------------------------------------------------------


def test_it_edits_a_player_and_logs_the_old_and_new_values(td: User, running: Event) -> None:
    entry = running.entries.get(number=3)
    player = players.edit_player(td, entry, "Anna", "Peeters", "WC Gent", "B77")
    assert (player.full_name, str(player.club), player.federation_number) == (
        "Anna Peeters",
        "WC Gent",
        "B77",
    )
    logged = AuditEntry.objects.get(action="entry.edit")
    assert logged.data == {
        "old": {
            "first_name": "Player3",
            "last_name": "Number3",
            "club": "",
            "federation_number": "",
        },
        "new": {
            "first_name": "Anna",
            "last_name": "Peeters",
            "club": "WC Gent",
            "federation_number": "B77",
        },
    }
    assert logged.text == "changed the details of player 3, Anna Peeters"


def test_an_edit_changes_the_same_person_in_every_event(td: User, running: Event) -> None:
    entry = running.entries.get(number=3)
    other = events.create_event(td, make_settings(slug="next-week"))
    again = players.register_player(td, other, first_name="Player3", last_name="Number3")
    assert again.player_id == entry.player_id
    players.edit_player(td, entry, "Player3", "Nummer-Drie", "", "")
    assert Entry.objects.get(pk=again.pk).player.last_name == "Nummer-Drie"
    # Each event the person plays in has the change in its log, under its own player number.
    logged = AuditEntry.objects.filter(action="entry.edit").order_by("id")
    assert [(e.event_id, e.object_id, e.text) for e in logged] == [
        (running.pk, str(entry.pk), "changed the details of player 3, Player3 Nummer-Drie"),
        (
            other.pk,
            str(again.pk),
            f"changed the details of player {again.number}, Player3 Nummer-Drie",
        ),
    ]


def test_it_refuses_a_federation_number_of_someone_else_on_edit(td: User, event: Event) -> None:
    first, second = register(td, event, 2)
    players.edit_player(td, first, "Player1", "Number1", "", "B1")
    with pytest.raises(UserError) as caught:
        players.edit_player(td, second, "Player2", "Number2", "", " B1 ")
    assert (caught.value.code, caught.value.field) == (
        "federation_number_taken",
        "federation_number",
    )
    assert "Player1 Number1" in caught.value.message
    assert Player.objects.get(pk=second.player_id).federation_number == ""


def test_it_keeps_a_players_own_federation_number_on_edit(td: User, event: Event) -> None:
    (entry,) = register(td, event, 1)
    players.edit_player(td, entry, "Player1", "Number1", "", "B1")
    player = players.edit_player(td, entry, "Pieter", "Number1", "", "B1")
    assert (player.first_name, player.federation_number) == ("Pieter", "B1")


@pytest.mark.parametrize(
    ("first", "last", "club", "number", "field"),
    [
        ("", " ", "", "", "last_name"),
        ("x" * 81, "A", "", "", "last_name"),
        ("A", "B", "c" * 121, "", "club"),
        ("A", "B", "", "9" * 21, "federation_number"),
    ],
)
def test_it_checks_an_edit_as_registration_does(
    td: User, event: Event, first: str, last: str, club: str, number: str, field: str
) -> None:
    (entry,) = register(td, event, 1)
    with pytest.raises(UserError) as caught:
        players.edit_player(td, entry, first, last, club, number)
    assert caught.value.field == field
    assert Player.objects.get(pk=entry.player_id).full_name == "Player1 Number1"


def test_an_edit_that_changes_nothing_is_not_logged(td: User, event: Event) -> None:
    (entry,) = register(td, event, 1)
    players.edit_player(td, entry, " Player1", "Number1 ", "", "")
    assert not AuditEntry.objects.filter(action="entry.edit").exists()


# --- removing ------------------------------------------------------------------------------------


def test_it_removes_a_player_before_play_and_seats_the_others_again(td: User, event: Event) -> None:
    register(td, event, 17)
    seating.generate_movement(td, event)
    gone = event.entries.get(number=5)
    players.remove_entry(td, gone, "registered twice")
    assert not Entry.objects.filter(pk=gone.pk).exists()
    assert event.entries.count() == 16
    for round_ in event.round_set.all():
        seated = Seating.objects.filter(round=round_)
        assert seated.count() == 16
        assert not seated.filter(seat="BYE").exists()  # 16 players: four full tables
        assert 5 not in set(seated.values_list("entry__number", flat=True))
    logged = AuditEntry.objects.get(action="entry.remove")
    assert (logged.reason, logged.text) == ("registered twice", "removed player 5, Player5 Number5")
    assert AuditEntry.objects.filter(action="movement.generate").count() == 2


def test_it_clears_the_movement_when_fewer_than_four_players_are_left(
    td: User, event: Event
) -> None:
    register(td, event, 4)
    seating.generate_movement(td, event)
    players.remove_entry(td, event.entries.get(number=4))
    assert not Table.objects.filter(round__event=event).exists()
    assert not Seating.objects.filter(round__event=event).exists()


def test_it_refuses_to_remove_a_player_who_has_played(td: User, running: Event) -> None:
    entry = running.entries.get(number=3)
    assert not players.can_remove(entry)
    with pytest.raises(UserError) as caught:
        players.remove_entry(td, entry, "mistake")
    assert caught.value.code == "has_played"
    assert "withdraw" in caught.value.message
    assert Entry.objects.filter(pk=entry.pk).exists()


def test_it_removes_a_late_arrival_entered_by_mistake_leaving_their_seats_vacant(
    td: User, running: Event
) -> None:
    absent = with_a_later_bye(running)
    players.withdraw_player(td, absent, "ill")
    vacant = seats_of(running)
    late = late_arrival(running)
    Seating.objects.filter(replaces=absent, entry=None).update(entry=late)
    # In the round where the absent player had a bye, the late arrival gets a bye of their own:
    # it harms nobody when it goes.
    free = running.round_set.filter(number__gt=1).exclude(seatings__entry=late).get()
    Seating.objects.create(round=free, entry=late, seat="BYE")
    assert players.can_remove(late)
    players.remove_entry(td, late, "wrong person")
    assert not Entry.objects.filter(pk=late.pk).exists()
    assert seats_of(running) == vacant
    assert AuditEntry.objects.get(action="entry.remove").data["vacated"] != []


def test_it_refuses_to_remove_a_late_arrival_with_seats_of_their_own(
    td: User, running: Event
) -> None:
    late = late_arrival(running)
    round_3 = running.round_set.get(number=3)
    table = Table.objects.create(round=round_3, number=99)
    Seating.objects.create(round=round_3, table=table, entry=late, seat="N")
    with pytest.raises(UserError) as caught:
        players.remove_entry(td, late)
    assert caught.value.code == "own_seats"
    assert "withdraw the player instead" in caught.value.message


def test_it_refuses_to_remove_a_player_with_a_fine(td: User, running: Event) -> None:
    late = late_arrival(running)
    Penalty.objects.create(
        event=running, kind="fine", offender=late, fine=Decimal(1), reason="late"
    )
    with pytest.raises(UserError) as caught:
        players.remove_entry(td, late)
    assert caught.value.code == "has_penalties"


def test_it_refuses_to_remove_a_withdrawn_player_whose_seats_stay_vacant(
    td: User, running: Event
) -> None:
    late = late_arrival(running)
    round_3 = running.round_set.get(number=3)
    table = Table.objects.create(round=round_3, number=99)
    Seating.objects.create(round=round_3, table=table, entry=late, seat="N")
    players.withdraw_player(td, late, "left")
    with pytest.raises(UserError) as caught:
        players.remove_entry(td, Entry.objects.get(pk=late.pk))
    assert caught.value.code == "own_seats"
    assert Seating.objects.filter(replaces=late, entry=None).count() == 1


# --- pages ---------------------------------------------------------------------------------------


@pytest.fixture
def td_client(client: Client, td: User) -> Client:
    client.force_login(td)
    return client


def url(event: Event, number: int, action: str) -> str:
    return f"/events/{event.slug}/players/{number}/{action}/"


def test_the_withdraw_page_shows_what_will_happen_and_changes_nothing(
    td_client: Client, running: Event
) -> None:
    before = seats_of(running)
    page = td_client.get(url(running, 3, "withdraw")).content.decode()
    assert "These seats become vacant" in page
    assert "round 2, table" in page
    assert "substitute or a late arrival" in page
    assert f'href="/events/{running.slug}/movement/"' in page
    assert 'name="reason"' in page
    assert seats_of(running) == before
    assert running.entries.get(number=3).status == Entry.Status.ACTIVE


def test_withdrawing_without_a_reason_stays_on_the_page_with_the_error(
    td_client: Client, running: Event
) -> None:
    response = td_client.post(url(running, 3, "withdraw"), {"reason": "   "})
    assert response.status_code == 200
    assert "Say why the player withdraws." in response.content.decode()
    assert running.entries.get(number=3).status == Entry.Status.ACTIVE


def test_withdrawing_from_the_page_then_undoing_it(td_client: Client, running: Event) -> None:
    before = seats_of(running)
    response = td_client.post(url(running, 3, "withdraw"), {"reason": "went home ill"})
    assert response.status_code == 302
    page = td_client.get(f"/events/{running.slug}/players/").content.decode()
    row = page.split('id="player-3"')[1].split("</tr>")[0]
    assert "withdrawn after round 1: went home ill" in row
    assert url(running, 3, "reinstate") in row
    assert url(running, 3, "withdraw") not in row
    confirm = td_client.get(url(running, 3, "reinstate")).content.decode()
    assert "takes back these seats" in confirm
    assert td_client.post(url(running, 3, "reinstate"), {"reason": ""}).status_code == 302
    assert seats_of(running) == before
    assert running.entries.get(number=3).status == Entry.Status.ACTIVE


def test_the_undo_page_says_why_a_withdrawal_cannot_be_undone(
    td_client: Client, td: User, running: Event
) -> None:
    players.withdraw_player(td, running.entries.get(number=3), "ill")
    running.round_set.filter(number=2).update(status=Round.Status.OPEN)
    page = td_client.get(url(running, 3, "reinstate")).content.decode()
    assert "can no longer be undone" in page
    response = td_client.post(url(running, 3, "reinstate"), {"reason": "back"}, follow=True)
    assert "can no longer be undone" in response.content.decode()
    assert running.entries.get(number=3).status == Entry.Status.WITHDRAWN
    players_page = td_client.get(f"/events/{running.slug}/players/").content.decode()
    assert url(running, 3, "reinstate") not in players_page


def test_the_withdraw_page_before_play_points_to_remove(td_client: Client, event: Event) -> None:
    register(event.directors.get(), event, 5)
    page = td_client.get(url(event, 2, "withdraw")).content.decode()
    assert "remove Player2 Number2 instead" in page
    assert url(event, 2, "remove") in page
    assert td_client.post(url(event, 2, "withdraw"), {"reason": "ill"}).status_code == 200
    assert event.entries.get(number=2).status == Entry.Status.ACTIVE


def test_the_edit_page_keeps_the_typed_fields_when_the_number_is_taken(
    td_client: Client, td: User, event: Event
) -> None:
    first, second = register(td, event, 2)
    players.edit_player(td, first, "Player1", "Number1", "", "B1")
    response = td_client.post(
        url(event, 2, "edit"),
        {
            "first_name": "Els",
            "last_name": "Wouters",
            "club": "De Troef",
            "federation_number": "B1",
        },
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Federation number B1 belongs to Player1 Number1." in page
    assert 'value="Els"' in page
    assert 'value="Wouters"' in page
    assert 'value="De Troef"' in page
    assert Player.objects.get(pk=second.player_id).last_name == "Number2"


def test_the_edit_page_saves_a_corrected_name(td_client: Client, event: Event) -> None:
    register(event.directors.get(), event, 1)
    form = td_client.get(url(event, 1, "edit")).content.decode()
    assert 'value="Number1"' in form
    response = td_client.post(
        url(event, 1, "edit"),
        {"first_name": "Player1", "last_name": "Nummer Een", "club": "", "federation_number": ""},
    )
    assert response.status_code == 302
    assert event.entries.get(number=1).player.last_name == "Nummer Een"


def test_the_remove_page_removes_a_player_before_play(td_client: Client, event: Event) -> None:
    register(event.directors.get(), event, 5)
    players_page = td_client.get(f"/events/{event.slug}/players/").content.decode()
    assert url(event, 5, "remove") in players_page
    assert url(event, 5, "withdraw") not in players_page
    assert "Removing is for a player registered by mistake" in (
        td_client.get(url(event, 5, "remove")).content.decode()
    )
    assert td_client.post(url(event, 5, "remove"), {"reason": "twice"}).status_code == 302
    assert not event.entries.filter(number=5).exists()
    assert AuditEntry.objects.get(action="entry.remove").reason == "twice"


def test_the_remove_page_after_play_says_to_withdraw_instead(
    td_client: Client, running: Event
) -> None:
    page = td_client.get(url(running, 3, "remove")).content.decode()
    assert "withdraw the player instead" in page
    assert url(running, 3, "withdraw") in page
    response = td_client.post(url(running, 3, "remove"), {"reason": "oops"})
    assert response.status_code == 200
    assert running.entries.filter(number=3).exists()
    players_page = td_client.get(f"/events/{running.slug}/players/").content.decode()
    assert url(running, 3, "remove") not in players_page


def test_the_players_page_marks_a_substitute(td_client: Client, running: Event) -> None:
    substitute = late_arrival(running, "Invaller")
    substitute.role = Entry.Role.SUBSTITUTE
    substitute.save()
    page = td_client.get(f"/events/{running.slug}/players/").content.decode()
    row = page.split(f'id="player-{substitute.number}"')[1].split("</tr>")[0]
    assert "(substitute)" in row
    assert "substitute, not ranked" in row


@pytest.mark.parametrize("action", ["edit", "withdraw", "reinstate", "remove"])
def test_an_outsider_can_neither_see_nor_change_a_player(
    client: Client, outsider: User, running: Event, action: str
) -> None:
    client.force_login(outsider)
    assert client.get(url(running, 3, action)).status_code == 403
    assert (
        client.post(url(running, 3, action), {"reason": "x", "last_name": "X"}).status_code == 403
    )
    assert running.entries.get(number=3).status == Entry.Status.ACTIVE
    assert running.entries.get(number=3).player.last_name == "Number3"


@pytest.mark.parametrize("action", ["edit", "withdraw", "reinstate", "remove"])
def test_an_unknown_player_number_is_not_found(
    td_client: Client, running: Event, action: str
) -> None:
    assert td_client.get(url(running, 99, action)).status_code == 404
    assert td_client.post(url(running, 99, action), {"reason": "x"}).status_code == 404


# Odd and hostile form input: each gives the page back with its error, or does the change.
ODD_INPUT: list[dict[str, object]] = [
    {},
    {"reason": "x" * 5000},
    {"reason": "nul\x00byte"},
    {"first_name": "x" * 500, "last_name": "y" * 500, "club": "z" * 500},
    {"last_name": "\x00", "federation_number": "1" * 100},
    {"last_name": "Peeters", "federation_number": "   "},
    {"reason": ["a", "b"], "last_name": ["A", "B"]},
    {"reason": "🂡 ♠ réden", "last_name": "Ñ ♣"},
]


@pytest.mark.parametrize("action", ["edit", "withdraw", "reinstate", "remove"])
def test_no_input_makes_a_player_page_fail(td_client: Client, running: Event, action: str) -> None:
    for data in ODD_INPUT:
        response = td_client.post(url(running, 3, action), data)
        assert response.status_code in (200, 302), data


# --- the players page's answers, read in a fixed number of queries -------------------------------


def with_every_kind_of_player(td: User, event: Event) -> Event:
    """Withdrawn players (one may come back, one not), late arrivals, a substitute and a player
    with a fine and one with a score for a bye, next to players who simply play."""
    players.withdraw_player(td, event.entries.get(number=4), "went home")
    # The first late arrival takes the seats player 4 left, so that withdrawal stays.
    late_arrivals.add_late_arrival(td, event, first_name="Laat", last_name="Komer")
    players.withdraw_player(td, event.entries.get(number=3), "ill")
    late_arrival(event, "Vergeten")  # entered without a seat: may be removed
    extra = late_arrival(event, "Eigen")
    round_3 = event.round_set.get(number=3)
    Seating.objects.create(
        round=round_3, table=Table.objects.create(round=round_3, number=99), entry=extra, seat="N"
    )
    round_1 = event.round_set.get(number=1)
    absent = event.entries.get(number=5)
    substitutes.mark_absent(td, round_1, absent, reason="did not come")
    substitutes.seat_substitute(
        td, round_1, absent, substitutes.new_player("Reserve", "Speler"), reason="stand-in"
    )
    fined = late_arrival(event, "Boete")
    Penalty.objects.create(event=event, kind="fine", offender=fined, fine=Decimal(1), reason="late")
    bye = late_arrival(event, "Rust")
    SitOutScore.objects.create(
        event=event, entry=bye, round_number=1, award="average", reason="bye", created_by=td
    )
    return Event.objects.get(pk=event.pk)


def answers(rows: list[players.RosterRow]) -> dict[int, tuple[bool, bool, bool]]:
    return {row.entry.number: (row.can_withdraw, row.can_reinstate, row.can_remove) for row in rows}


def one_by_one(event: Event) -> dict[int, tuple[bool, bool, bool]]:
    return {
        entry.number: (
            players.can_withdraw(entry),
            players.can_reinstate(entry),
            players.can_remove(entry),
        )
        for entry in Entry.objects.filter(event=event).select_related("player", "event")
    }


def test_the_roster_answers_as_the_checks_do_for_every_kind_of_player(
    td: User, running: Event
) -> None:
    event = with_every_kind_of_player(td, running)
    roster = answers(players.roster(event))
    assert roster == one_by_one(event)
    # Every answer is given both ways somewhere, so the comparison proves something.
    for column in range(3):
        assert {row[column] for row in roster.values()} == {True, False}
    assert roster[3] == (False, True, False)  # withdrawn, seats still empty: may come back
    assert roster[4] == (False, False, False)  # withdrawn, seats taken by the late arrival
    substitute = event.entries.get(role=Entry.Role.SUBSTITUTE)
    assert roster[substitute.number][2] is False  # played round 1 in someone else's seat


@pytest.mark.parametrize("seated", [False, True])
def test_the_roster_answers_as_the_checks_do_before_play(
    td: User, event: Event, seated: bool
) -> None:
    register(td, event, 6)
    if seated:
        seating.generate_movement(td, event)
    roster = answers(players.roster(event))
    assert roster == one_by_one(event)
    assert set(roster.values()) == {(False, False, True)}


def test_the_roster_answers_as_the_checks_do_once_the_event_is_finished(
    td: User, running: Event
) -> None:
    event = with_every_kind_of_player(td, running)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event = Event.objects.get(pk=event.pk)
    roster = answers(players.roster(event))
    assert roster == one_by_one(event)
    assert not any(withdraw or reinstate for withdraw, reinstate, _ in roster.values())


# The session, the user, the event and the director check, then a fixed handful for the roster:
# 12 today. The margin stays below one query per player, so a per-player read fails at 16 already.
QUERIES_FOR_THE_PLAYERS_PAGE = 20


@pytest.mark.parametrize("count", [16, 40])
def test_the_players_page_reads_the_same_number_of_queries_for_any_number_of_players(
    td_client: Client, td: User, count: int, django_assert_max_num_queries: Any
) -> None:
    event = with_every_kind_of_player(td, start_event(td, f"players-{count}", count))
    with django_assert_max_num_queries(QUERIES_FOR_THE_PLAYERS_PAGE):
        page = td_client.get(f"/events/{event.slug}/players/")
    assert page.status_code == 200
    assert f'id="player-{count}"' in page.content.decode()

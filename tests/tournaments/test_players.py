from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from tests.tournaments.conftest import TEST_KEY, register
from tournaments.errors import UserError
from tournaments.models import Entry, Event, Player, Seating
from tournaments.services import deals, players, rounds, seating


def test_it_numbers_players_in_order_of_registration(td: User, event: Event) -> None:
    first, second = register(td, event, 2)
    assert (first.number, second.number) == (1, 2)


def test_it_refuses_the_same_player_twice(td: User, event: Event) -> None:
    players.register_player(
        td, event, first_name="An", last_name="Peeters", federation_number="B123"
    )
    with pytest.raises(UserError) as caught:
        players.register_player(
            td, event, first_name="An", last_name="Peeters", federation_number="B123"
        )
    assert "already registered" in caught.value.message


def test_it_refuses_a_federation_number_of_someone_else(td: User, event: Event) -> None:
    players.register_player(
        td, event, first_name="An", last_name="Peeters", federation_number="B123"
    )
    with pytest.raises(UserError) as caught:
        players.register_player(
            td, event, first_name="Jan", last_name="Claes", federation_number="B123"
        )
    assert caught.value.field == "federation_number"


def test_it_imports_the_good_rows_of_a_csv_and_reports_the_bad_ones(td: User, event: Event) -> None:
    text = (
        "voornaam;naam;club;lidnummer\n"
        "An;Peeters;WC Gent;B1\n"
        ";;WC Gent;\n"
        "Jan;Claes;;B1\n"
        "Els;Wouters;De Troef;\n"
    )
    report = players.import_players_csv(td, event, text)
    assert [e.player.full_name for e in report.added] == ["An Peeters", "Els Wouters"]
    assert [line for line, _reason in report.errors] == [3, 4]
    assert "name" in report.errors[0][1]
    assert "B1" in report.errors[1][1]
    assert Player.objects.get(last_name="Wouters").club is not None


def test_it_refuses_a_csv_without_a_header(td: User, event: Event) -> None:
    with pytest.raises(UserError) as caught:
        players.import_players_csv(td, event, "An,Peeters\n")
    assert "Line 1" in caught.value.message


def test_a_withdrawal_keeps_the_rounds_already_started_and_replans_nothing(
    td: User, event: Event, sixteen: list[Entry]
) -> None:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))

    def seats() -> list[tuple[int, int | None, str, int | None]]:
        return list(
            Seating.objects.filter(round__event=event)
            .order_by("round__number", "table__number", "seat")
            .values_list("round__number", "table__number", "seat", "entry__number")
        )

    before = seats()
    withdrawn = players.withdraw_player(td, sixteen[0], reason="ill")
    assert withdrawn.withdrawn_after_round == 1
    after = seats()
    # The same seats at the same tables; only player 1's later seats are now empty.
    assert after == [(r, t, s, None if who == 1 and r > 1 else who) for r, t, s, who in before]
    assert after != before


def test_a_late_arrival_plays_from_the_next_round(
    td: User, event: Event, sixteen: list[Entry]
) -> None:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    entry = players.add_late_player(td, event, first_name="Laat", last_name="Komer")
    assert entry.first_round == 2
    # Sixteen players leave no seat free: the late arrival waits for the TD's re-plan.
    assert not entry.seatings.exists()
    seating.replan(td, event, reason="late arrival")
    plan = seating.export_json(event)
    seated_round_1 = [p for t in plan["rounds"][0]["tables"] for s, p in t.items() if s != "table"]
    seated_round_2 = [p for t in plan["rounds"][1]["tables"] for s, p in t.items() if s != "table"]
    assert entry.number not in seated_round_1 + plan["rounds"][0]["byes"]
    assert entry.number in seated_round_2 + plan["rounds"][1]["byes"]


@pytest.mark.django_db
def test_the_database_refuses_two_entries_with_one_number(td: User, event: Event) -> None:
    a = Player.objects.create(first_name="A", last_name="A")
    b = Player.objects.create(first_name="B", last_name="B")
    Entry.objects.create(event=event, player=a, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(event=event, player=b, number=1)


@pytest.mark.django_db
def test_the_database_refuses_a_withdrawal_date_on_an_active_entry(td: User, event: Event) -> None:
    a = Player.objects.create(first_name="A", last_name="A")
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(event=event, player=a, number=1, withdrawn_after_round=2)

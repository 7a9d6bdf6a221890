from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from engine.cards import Seat, Suit
from engine.hands import Deal
from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tournaments.errors import UserError
from tournaments.models import (
    AuditEntry,
    Board,
    Entry,
    Event,
    Player,
    Result,
    Round,
    Seating,
    Table,
)
from tournaments.services import (
    late_arrivals,
    players,
    results,
    rounds,
    seating,
    standings,
    substitutes,
)
from tournaments.services.substitutes import Scope


@pytest.fixture(scope="module")
def _evening(module_td: User) -> Event:
    with as_a_test():
        return start_event(module_td, "evening", 28)


@pytest.fixture
def evening(_evening: Event, db: None) -> Event:
    """28 players, 7 tables, 4 rounds of 4 boards, round 1 in play (made once for the module)."""
    return Event.objects.get(pk=_evening.pk)


def seats(event: Event) -> dict[tuple[int, int, str], tuple[int | None, int | None]]:
    """Every seat of the event: (round, table, seat) -> (entry id, replaces id)."""
    return {
        (r, t or 0, s): (e, p)
        for r, t, s, e, p in Seating.objects.filter(round__event=event).values_list(
            "round__number", "table__number", "seat", "entry_id", "replaces_id"
        )
    }


def seat_of(event: Event, round_number: int, entry: Entry) -> Seating:
    return Seating.objects.select_related("table").get(
        round__event=event, round__number=round_number, entry=entry
    )


def planned_seat(event: Event, round_number: int, entry: Entry) -> Seating:
    return Seating.objects.select_related("table").get(
        round__event=event, round__number=round_number, replaces=entry
    )


def entry(event: Event, number: int) -> Entry:
    return Entry.objects.select_related("player").get(event=event, number=number)


def round_(event: Event, number: int) -> Round:
    return Round.objects.get(event=event, number=number)


def absent_in_round_one(td: User, event: Event, absent: Entry, later_rounds: bool = False) -> Table:
    """Mark ``absent`` a no-show in round 1; the table of the seat left vacant."""
    substitutes.mark_absent(td, round_(event, 1), absent, later_rounds=later_rounds)
    table = planned_seat(event, 1, absent).table
    assert table is not None
    return table


def a_line_for(board: Board) -> str:
    """An accept that the deal allows: N and E accept in a suit both hold, 8 tricks."""
    deal = Deal.from_pbn(board.deal)
    suit = next(s for s in Suit if deal.hand(Seat.N).has_suit(s) and deal.hand(Seat.E).has_suit(s))
    return f"NE 8{suit.name} 8"


def play_table(td: User, table: Table) -> None:
    for link in table.table_boards.select_related("board").order_by("position"):
        results.record_result(td, table, link.board, a_line_for(link.board), confirmed=True)


def row_of(data: dict[str, Any], number: int) -> dict[str, Any] | None:
    return next((row for row in data["rows"] if row["entry"] == number), None)


# --- no-shows ----------------------------------------------------------------------------------


def test_it_leaves_a_no_shows_seat_vacant_and_every_other_seat_as_it_was(
    td: User, evening: Event
) -> None:
    absent = entry(evening, 5)
    before = seats(evening)
    place = seat_of(evening, 1, absent)
    substitutes.mark_absent(td, round_(evening, 1), absent, reason="did not come")
    after = seats(evening)
    key = (1, place.table.number if place.table else 0, place.seat)
    assert after[key] == (None, absent.pk)
    assert {k: v for k, v in after.items() if k != key} == {
        k: v for k, v in before.items() if k != key
    }
    logged = AuditEntry.objects.get(action="seat.absent")
    assert logged.reason == "did not come"
    assert logged.params == {"name": absent.player.full_name, "rounds": "1"}


def test_it_vacates_a_no_shows_later_seats_when_asked(td: User, evening: Event) -> None:
    absent = entry(evening, 5)
    vacated = substitutes.mark_absent(
        td, round_(evening, 1), absent, reason="ill", later_rounds=True
    )
    assert sorted(s.round.number for s in vacated) == [1, 2, 3, 4]
    assert not Seating.objects.filter(round__event=evening, entry=absent).exists()
    assert Seating.objects.filter(round__event=evening, replaces=absent, entry=None).count() == 4


def test_it_refuses_to_mark_absent_a_player_whose_table_has_results(
    td: User, evening: Event
) -> None:
    absent = entry(evening, 5)
    table = seat_of(evening, 1, absent).table
    assert table is not None
    link = table.table_boards.select_related("board").first()
    assert link is not None
    results.record_result(td, table, link.board, a_line_for(link.board), confirmed=True)
    with pytest.raises(UserError) as caught:
        substitutes.mark_absent(td, round_(evening, 1), absent)
    assert caught.value.code == "results_entered"
    assert seat_of(evening, 1, absent).entry_id == absent.pk


def test_a_no_show_who_arrives_after_all_takes_back_every_seat_still_vacant(
    td: User, evening: Event
) -> None:
    absent = entry(evening, 5)
    before = seats(evening)
    table = absent_in_round_one(td, evening, absent, later_rounds=True)
    substitutes.sit_out_table(td, table, reason="three players")
    taken = substitutes.mark_arrived(td, round_(evening, 1), absent, reason="traffic jam")
    assert [s.round.number for s in taken] == [1, 2, 3, 4]
    assert seats(evening) == before
    table.refresh_from_db()
    assert table.ruling == Table.Ruling.NONE  # the table is whole again
    logged = AuditEntry.objects.get(action="seat.arrived")
    assert (logged.reason, logged.data["rounds"]) == ("traffic jam", [1, 2, 3, 4])
    assert sorted(logged.data["seats"]) == sorted(s.pk for s in taken)
    assert (
        logged.text
        == f"{absent.player.full_name} arrived after all: seat taken back in rounds 1, 2, 3, 4"
    )


def test_an_arrival_leaves_a_substitutes_seat_and_a_played_table_as_they_are(
    td: User, evening: Event
) -> None:
    absent = entry(evening, 5)
    substitutes.mark_absent(td, round_(evening, 1), absent, later_rounds=True)
    stand_in = substitutes.new_player("Invaller", "Een")
    substitutes.seat_substitute(td, round_(evening, 1), absent, stand_in, scope=Scope.ROUND)
    round_two = planned_seat(evening, 2, absent).table
    assert round_two is not None
    taken = substitutes.mark_arrived(td, round_(evening, 1), absent)
    assert [s.round.number for s in taken] == [2, 3, 4]
    assert planned_seat(evening, 1, absent).entry != absent  # the substitute plays round 1
    # Marked absent again in round 2, whose table then plays a board: round 2 stays vacant.
    rounds.close_round(td, round_(evening, 1), "not every sheet is keyed here", anyway=True)
    rounds.open_round(td, round_(evening, 2))
    substitutes.mark_absent(td, round_(evening, 2), absent, later_rounds=True)
    substitutes.award_absent_table(
        td, round_two, dict.fromkeys("NESW", "average"), reason="no-show"
    )
    taken = substitutes.mark_arrived(td, round_(evening, 2), absent)
    assert [s.round.number for s in taken] == [3, 4]
    assert planned_seat(evening, 2, absent).entry is None


def test_a_late_arrival_in_a_withdrawn_players_seat_takes_it_back_after_a_no_show(
    td: User, client: Client, evening: Event
) -> None:
    gone = entry(evening, 5)
    players.withdraw_player(td, gone, reason="went home")  # rounds 2-4 left vacant
    rounds.close_round(td, round_(evening, 1), "not every sheet is keyed here", anyway=True)
    late = late_arrivals.add_late_arrival(td, evening, first_name="Laat", last_name="Komer").entry
    taken_over = Seating.objects.filter(round__event=evening, entry=late, replaces=gone)
    assert taken_over.count() == 3  # the withdrawn player's seats, rounds 2-4
    rounds.open_round(td, round_(evening, 2))
    substitutes.mark_absent(td, round_(evening, 2), late, later_rounds=True)
    client.force_login(td)
    page = client.get(f"/events/{evening.slug}/rounds/2/seats/").content.decode()
    assert "Laat Komer arrived after all: give the seat back" in page
    taken = substitutes.mark_arrived(td, round_(evening, 2), late)
    assert [s.round.number for s in taken] == [2, 3, 4]
    assert taken_over.count() == 3  # in the withdrawn player's seats again, as before


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        (lambda td, ev, who: None, "no_vacant_seat"),  # never marked absent
        (lambda td, ev, who: players.withdraw_player(td, who, reason="went home"), "withdrawn"),
    ],
    ids=["present", "withdrawn"],
)
def test_an_arrival_is_refused_with_its_reason(
    td: User, evening: Event, setup: Any, code: str
) -> None:
    who = entry(evening, 5)
    setup(td, evening, who)
    before = seats(evening)
    with pytest.raises(UserError) as caught:
        substitutes.mark_arrived(td, round_(evening, 1), who)
    assert caught.value.code == code
    assert seats(evening) == before


def test_an_arrival_on_a_played_table_is_refused_when_no_later_seat_is_vacant(
    td: User, evening: Event
) -> None:
    absent = entry(evening, 5)
    table = absent_in_round_one(td, evening, absent)
    substitutes.award_absent_table(td, table, dict.fromkeys("NESW", "average"), reason="no-show")
    with pytest.raises(UserError) as caught:
        substitutes.mark_arrived(td, round_(evening, 1), absent)
    assert caught.value.code == "results_entered"


def test_the_seats_page_says_which_seat_of_an_arrival_stays_vacant(
    td: User, client: Client, evening: Event
) -> None:
    absent = entry(evening, 5)
    table = absent_in_round_one(td, evening, absent, later_rounds=True)
    substitutes.award_absent_table(td, table, dict.fromkeys("NESW", "average"), reason="no-show")
    client.force_login(td)
    url = f"/events/{evening.slug}/rounds/1/seats/"
    page = client.post(
        url, {"action": "arrived", "arrived-entry": str(absent.number)}, follow=True
    ).content.decode()
    assert f"{absent.player.full_name} has their seat back in rounds 2, 3, 4." in page
    assert "Their seat in round 1 stays vacant: results have been entered at that table." in page


def test_the_seats_page_gives_a_no_shows_seat_back(
    td: User, client: Client, evening: Event
) -> None:
    absent = entry(evening, 5)
    substitutes.mark_absent(td, round_(evening, 1), absent, later_rounds=True)
    client.force_login(td)
    url = f"/events/{evening.slug}/rounds/1/seats/"
    page = client.get(url).content.decode()
    assert f"{absent.player.full_name} arrived after all: give the seat back" in page
    response = client.post(url, {"action": "arrived", "arrived-entry": str(absent.number)})
    assert response.status_code == 302
    assert seat_of(evening, 4, absent).entry_id == absent.pk
    for bad in ("", "x", "999999", "99", "²", "-1", " 5"):
        answer = client.post(url, {"action": "arrived", "arrived-entry": bad}, follow=True)
        assert answer.status_code == 200
        assert "Choose one of the page" in answer.content.decode()


# --- substitutes -------------------------------------------------------------------------------


def test_it_seats_a_new_player_as_substitute_for_one_round(td: User, evening: Event) -> None:
    absent = entry(evening, 5)
    substitutes.mark_absent(td, round_(evening, 1), absent, later_rounds=True)
    before = seats(evening)
    review_before = seating.review(evening)["repeats"]
    export_before = seating.export_json(evening)
    sub = substitutes.new_player("Reserve", "Speler", "De Troef")
    taken = substitutes.seat_substitute(
        td, round_(evening, 1), absent, sub, scope=Scope.ROUND, reason="stand-in"
    )
    assert [s.round.number for s in taken] == [1]
    sub_entry = Entry.objects.get(event=evening, player=sub)
    assert sub_entry.role == Entry.Role.SUBSTITUTE
    assert sub_entry.number == 29
    after = seats(evening)
    changed = {k for k in after if after[k] != before[k]}
    assert len(changed) == 1
    (key,) = changed
    assert key[0] == 1
    assert after[key] == (sub_entry.pk, absent.pk)
    # The movement as planned stays what it was: the same meetings, boards and guide cards.
    assert seating.export_json(evening) == export_before
    assert seating.review(evening)["repeats"] == review_before
    logged = AuditEntry.objects.get(action="seat.substitute")
    assert logged.params == {
        "sub": "Reserve Speler",
        "name": absent.player.full_name,
        "rounds": "1",
    }
    assert logged.reason == "stand-in"


def test_it_seats_a_substitute_for_the_rest_of_the_event(td: User, evening: Event) -> None:
    absent = entry(evening, 5)
    substitutes.mark_absent(td, round_(evening, 1), absent)  # only round 1's seat is vacant
    before = seats(evening)
    sub = substitutes.new_player("Rest", "Invaller")
    taken = substitutes.seat_substitute(
        td, round_(evening, 1), absent, sub, scope=Scope.REST, reason="stays all evening"
    )
    assert [s.round.number for s in taken] == [1, 2, 3, 4]
    sub_entry = Entry.objects.get(player=sub)
    after = seats(evening)
    changed = {k for k in after if after[k] != before[k]}
    assert len(changed) == 4
    assert all(after[k] == (sub_entry.pk, absent.pk) for k in changed)
    assert not Seating.objects.filter(round__event=evening, entry=absent).exists()


def test_it_seats_a_substitute_from_round_3_on(td: User, evening: Event) -> None:
    absent = entry(evening, 5)
    substitutes.mark_absent(td, round_(evening, 1), absent, later_rounds=True)
    review_before = seating.review(evening)["repeats"]
    sub = Player.objects.create(first_name="Club", last_name="Reserve")
    substitutes.seat_substitute(td, round_(evening, 1), absent, sub, scope=Scope.FROM, from_round=3)
    sub_entry = Entry.objects.get(player=sub)
    assert sub_entry.first_round == 3
    assert planned_seat(evening, 1, absent).entry_id is None
    assert planned_seat(evening, 2, absent).entry_id is None
    assert planned_seat(evening, 3, absent).entry_id == sub_entry.pk
    assert planned_seat(evening, 4, absent).entry_id == sub_entry.pk
    assert seating.review(evening)["repeats"] == review_before


def test_it_seats_a_reserve_from_the_club_list_and_the_td(td: User, evening: Event) -> None:
    reserve = Player.objects.create(first_name="Op", last_name="Reserve")
    assert reserve in substitutes.reserves(evening)
    assert entry(evening, 1).player not in substitutes.reserves(evening)
    first, second = entry(evening, 5), entry(evening, 6)
    for absent in (first, second):
        substitutes.mark_absent(td, round_(evening, 1), absent)
    substitutes.seat_substitute(td, round_(evening, 1), first, reserve)
    td.first_name, td.last_name = "Alice", "Director"
    me = substitutes.td_player(td)
    substitutes.seat_substitute(td, round_(evening, 1), second, me)
    assert me.full_name == "Alice Director"
    assert seat_of(evening, 1, Entry.objects.get(player=me)).replaces_id == second.pk
    assert Entry.objects.filter(event=evening, role=Entry.Role.SUBSTITUTE).count() == 2


def test_it_refuses_a_substitute_who_plays_in_the_event(td: User, evening: Event) -> None:
    absent = entry(evening, 5)
    substitutes.mark_absent(td, round_(evening, 1), absent)
    with pytest.raises(UserError) as caught:
        substitutes.seat_substitute(td, round_(evening, 1), absent, entry(evening, 6).player)
    assert caught.value.code == "already_playing"


def test_it_refuses_a_seat_that_is_not_vacant(td: User, evening: Event) -> None:
    sub = substitutes.new_player("Te", "Vroeg")
    with pytest.raises(UserError) as caught:
        substitutes.seat_substitute(td, round_(evening, 1), entry(evening, 5), sub)
    assert caught.value.code == "not_vacant"
    assert "mark" in caught.value.message
    assert not Entry.objects.filter(player=sub).exists()


def test_it_refuses_an_unknown_seat(td: User, evening: Event) -> None:
    with pytest.raises(UserError) as caught:
        substitutes.find_seat(round_(evening, 1), 99, "N")
    assert caught.value.code == "unknown_seat"
    assert "99" in caught.value.message


def test_it_refuses_a_round_already_played(td: User, evening: Event) -> None:
    absent = entry(evening, 5)
    substitutes.mark_absent(td, round_(evening, 1), absent)
    Round.objects.filter(pk=round_(evening, 1).pk).update(status=Round.Status.CLOSED)
    with pytest.raises(UserError) as caught:
        substitutes.seat_substitute(
            td, round_(evening, 1), absent, substitutes.new_player("A", "B")
        )
    assert caught.value.code == "round_closed"
    with pytest.raises(UserError) as caught:
        substitutes.mark_absent(td, round_(evening, 1), entry(evening, 6))
    assert caught.value.code == "round_closed"


def test_it_refuses_a_substitute_at_a_table_with_results(td: User, evening: Event) -> None:
    absent = entry(evening, 5)
    table = absent_in_round_one(td, evening, absent)
    link = table.table_boards.select_related("board").first()
    assert link is not None
    # Someone typed a result at the table of three before the TD ruled.
    results.write_version(
        td, table, link.board, kind=Result.Kind.PLAYED, notation="pass", data={},
        scores=(0, 0, 0, 0), reason="",
    )  # fmt: skip
    with pytest.raises(UserError) as caught:
        substitutes.seat_substitute(
            td, round_(evening, 1), absent, substitutes.new_player("A", "B")
        )
    assert caught.value.code == "results_entered"


# --- the three rulings and the standings -------------------------------------------------------


def test_a_substitutes_boards_count_but_the_substitute_is_not_ranked(
    td: User, evening: Event
) -> None:
    absent = entry(evening, 5)
    substitutes.mark_absent(td, round_(evening, 1), absent)
    sub = substitutes.new_player("In", "Valler")
    substitutes.seat_substitute(td, round_(evening, 1), absent, sub)
    sub_entry = Entry.objects.get(player=sub)
    for table in Table.objects.filter(round__event=evening, round__number=1):
        play_table(td, table)
    data = standings.compute(evening)
    assert row_of(data, sub_entry.number) is None
    assert len([row for row in data["rows"] if row["place"]]) == 27
    partner = seat_of(evening, 1, sub_entry)
    others = Seating.objects.filter(table=partner.table).exclude(entry=sub_entry)
    for other in others:
        assert other.entry is not None
        row = row_of(data, other.entry.number)
        assert row is not None
        assert row["boards"] == 4
    assert data["results"] == 7 * 4


def test_a_no_show_table_can_get_artificial_scores_with_nothing_for_the_absentee(
    td: User, evening: Event
) -> None:
    absent = entry(evening, 5)
    table = absent_in_round_one(td, evening, absent)
    absent_seat = planned_seat(evening, 1, absent).seat
    awards = dict.fromkeys("NESW", "average_plus")  # the vacant seat's award is ignored
    written = substitutes.award_absent_table(td, table, awards, reason="no-show")
    assert len(written) == 4
    assert all(r.data["awards"][absent_seat] is None for r in written)
    table.refresh_from_db()
    assert table.ruling == Table.Ruling.ARTIFICIAL
    assert substitutes.unruled_vacancies(round_(evening, 1)) == []
    for other in Table.objects.filter(round__event=evening, round__number=1).exclude(pk=table.pk):
        play_table(td, other)
    data = standings.compute(evening)
    absent_row = row_of(data, absent.number)
    assert absent_row is not None
    assert absent_row["boards"] == 0
    assert absent_row["place"] == ""
    present = Seating.objects.filter(table=table).exclude(entry=None)
    assert present.count() == 3
    for seat in present:
        assert seat.entry is not None
        row = row_of(data, seat.entry.number)
        assert row is not None
        assert row["boards"] == 4
        assert row["total"] == "60.00"
    assert AuditEntry.objects.filter(action="result.artificial_table").count() == 1


def test_a_no_show_table_can_sit_out_the_round(td: User, evening: Event) -> None:
    absent = entry(evening, 5)
    table = absent_in_round_one(td, evening, absent)
    substitutes.sit_out_table(td, table, reason="three players")
    table.refresh_from_db()
    assert table.ruling == Table.Ruling.SIT_OUT
    for other in Table.objects.filter(round__event=evening, round__number=1).exclude(pk=table.pk):
        play_table(td, other)
    data = standings.compute(evening)
    for seat in Seating.objects.filter(table=table).exclude(entry=None):
        assert seat.entry is not None
        row = row_of(data, seat.entry.number)
        assert row is not None
        assert row["boards"] == 0
        assert row["sat_out"] == 4
    absent_row = row_of(data, absent.number)
    assert absent_row is not None
    assert absent_row["sat_out"] == 0
    assert absent_row["boards"] == 0
    assert data["results"] == 6 * 4
    # The table expects no results: the round closes without "close anyway".
    rounds.close_round(td, round_(evening, 1))
    assert round_(evening, 1).status == Round.Status.CLOSED
    logged = AuditEntry.objects.get(action="table.sit_out")
    assert logged.params["names"] == absent.player.full_name


def test_it_refuses_a_ruling_for_a_table_without_a_vacant_seat(td: User, evening: Event) -> None:
    table = Table.objects.get(round__event=evening, round__number=1, number=1)
    with pytest.raises(UserError) as caught:
        substitutes.sit_out_table(td, table, reason="x")
    assert caught.value.code == "no_vacant_seat"


# --- opening a round with vacant seats ---------------------------------------------------------


def test_it_refuses_to_open_a_round_with_vacant_seats_naming_each(td: User, evening: Event) -> None:
    absent = entry(evening, 5)
    substitutes.mark_absent(td, round_(evening, 1), absent, later_rounds=True)
    with pytest.raises(UserError) as caught:
        rounds.open_round(td, round_(evening, 2))
    place = planned_seat(evening, 2, absent)
    assert caught.value.code == "vacant_seats"
    assert place.table is not None
    assert f"table {place.table.number} {place.seat} ({absent.player.full_name})" in (
        caught.value.message
    )
    assert round_(evening, 2).status == Round.Status.PLANNED
    substitutes.sit_out_table(td, place.table, reason="nobody to play")
    rounds.open_round(td, round_(evening, 2))
    assert round_(evening, 2).status == Round.Status.OPEN


def test_a_substitute_needs_no_seat_of_their_own_to_open_a_round(td: User, evening: Event) -> None:
    absent = entry(evening, 5)
    substitutes.mark_absent(td, round_(evening, 1), absent)
    substitutes.seat_substitute(td, round_(evening, 1), absent, substitutes.new_player("A", "B"))
    rounds.open_round(td, round_(evening, 2))  # the substitute played round 1 only
    assert round_(evening, 2).status == Round.Status.OPEN


# --- holders -----------------------------------------------------------------------------------


def test_a_table_of_five_with_an_empty_place_plays_as_a_table_of_four() -> None:
    seats_ = {"N": 1, "E": None, "S": 3, "W": 4, "X": 5}
    for position in range(1, 9):
        assert seating.holders(seats_, position, 2) == {"N": 1, "E": 5, "S": 3, "W": 4}
        assert seating.sitting_out(seats_, position, 2) is None
    empty_fifth = {"N": 1, "E": 2, "S": 3, "W": 4, "X": None}
    assert seating.holders(empty_fifth, 3) == {"N": 1, "E": 2, "S": 3, "W": 4}


def test_a_vacant_seat_at_a_table_of_four_holds_nobody() -> None:
    assert seating.holders({"N": 1, "E": None, "S": 3, "W": 4}, 1) == {
        "N": 1,
        "E": None,
        "S": 3,
        "W": 4,
    }


# --- the round's seats page --------------------------------------------------------------------


@pytest.fixture
def td_client(client: Client, td: User) -> Client:
    client.force_login(td)
    return client


def seats_url(event: Event, number: int = 1) -> str:
    return f"/events/{event.slug}/rounds/{number}/seats/"


def test_the_seats_page_lists_every_table_and_marks_vacant_seats(
    td: User, td_client: Client, evening: Event
) -> None:
    absent = entry(evening, 5)
    substitutes.mark_absent(td, round_(evening, 1), absent)
    page = td_client.get(seats_url(evening)).content.decode()
    assert page.count('id="table-') == 7
    assert 'class="vacant"' in page
    assert f"planned: 5. {absent.player.full_name}" in page
    assert "Seat a substitute at table" in page
    assert td_client.get(f"/events/{evening.slug}/seats/")["Location"] == seats_url(evening)


def test_a_td_marks_a_no_show_and_seats_a_substitute_through_the_page(
    td: User, td_client: Client, evening: Event
) -> None:
    absent = entry(evening, 5)
    response = td_client.post(
        seats_url(evening),
        {"action": "absent", "absent-entry": "5", "absent-reason": "not here"},
    )
    assert response.status_code == 302
    place = planned_seat(evening, 1, absent)
    assert place.entry_id is None
    assert place.table is not None
    prefix = f"sub-{place.table.number}-{place.seat}"
    response = td_client.post(
        seats_url(evening),
        {
            "action": "substitute",
            "prefix": prefix,
            f"{prefix}-table": place.table.number,
            f"{prefix}-seat": place.seat,
            f"{prefix}-kind": "new",
            f"{prefix}-first_name": "Sub",
            f"{prefix}-last_name": "Stituut",
            f"{prefix}-scope": "round",
            f"{prefix}-reason": "came to help",
        },
    )
    assert response.status_code == 302
    page = td_client.get(response["Location"]).content.decode()
    assert "Sub Stituut plays as substitute in rounds 1." in page
    assert "Sub Stituut <small" in page
    assert "(sub)" in page
    # The table's own pages still work with a substitute at the table.
    table_page = f"/events/{evening.slug}/rounds/1/tables/{place.table.number}/"
    assert td_client.get(table_page).status_code == 200


def test_a_td_lets_a_table_sit_out_through_the_page(
    td: User, td_client: Client, evening: Event
) -> None:
    absent = entry(evening, 5)
    table = absent_in_round_one(td, evening, absent)
    prefix = f"rule-{table.number}"
    response = td_client.post(
        seats_url(evening),
        {"action": "sit_out", "prefix": prefix, f"{prefix}-table": table.number},
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.ruling == Table.Ruling.SIT_OUT


def test_the_seats_page_explains_bad_input_without_failing(
    td: User, td_client: Client, evening: Event
) -> None:
    bad = [
        {"action": "substitute", "prefix": "sub-99-N", "sub-99-N-table": "99",
         "sub-99-N-seat": "N", "sub-99-N-kind": "new", "sub-99-N-last_name": "X",
         "sub-99-N-scope": "round"},
        {"action": "substitute", "prefix": "sub-1-N", "sub-1-N-table": "1", "sub-1-N-seat": "N",
         "sub-1-N-kind": "new", "sub-1-N-last_name": "X", "sub-1-N-scope": "round"},
        {"action": "sit_out", "prefix": "rule-1", "rule-1-table": "1"},
        {"action": "absent", "absent-entry": "999"},
        {"action": "nonsense"},
        {"action": "substitute", "prefix": "x" * 500},
        {"action": "artificial", "prefix": "rule-\x00", "rule-\x00-table": "\x00"},
    ]  # fmt: skip
    messages = []
    for data in bad:
        response = td_client.post(seats_url(evening), data)
        assert response.status_code == 200, data
        messages.append(response.content.decode())
    assert "Round 1 has no seat N at table 99." in messages[0]
    assert "is not vacant" in messages[1]
    assert "has no vacant seat" in messages[2]
    assert not Entry.objects.filter(role=Entry.Role.SUBSTITUTE).exists()
    assert td_client.get(seats_url(evening, 99)).status_code == 404


def test_only_the_events_directors_see_the_seats_page(
    client: Client, outsider: User, evening: Event
) -> None:
    client.force_login(outsider)
    assert client.get(seats_url(evening)).status_code == 403
    assert (
        client.post(seats_url(evening), {"action": "absent", "absent-entry": "5"}).status_code
        == 403
    )
    assert Seating.objects.filter(round__event=evening, entry=None).count() == 0


def test_pages_with_a_vacant_seat_do_not_fail(td: User, td_client: Client, evening: Event) -> None:
    absent = entry(evening, 5)
    table = absent_in_round_one(td, evening, absent, later_rounds=True)
    for url in (
        f"/events/{evening.slug}/rounds/1/tables/{table.number}/",
        f"/events/{evening.slug}/rounds/1/",
        f"/events/{evening.slug}/movement/",
        f"/events/{evening.slug}/",
        f"/events/{evening.slug}/players/",
        f"/events/{evening.slug}/standings/",
    ):
        assert td_client.get(url).status_code == 200, url


# --- a table that sits out, and the other rulings, seen from elsewhere --------------------------


def test_no_result_can_be_keyed_at_a_table_that_sits_out(
    td: User, td_client: Client, evening: Event
) -> None:
    absent = entry(evening, 5)
    table = absent_in_round_one(td, evening, absent)
    substitutes.sit_out_table(td, table, reason="three players")
    board = table.table_boards.get(position=1).board
    with pytest.raises(UserError) as refused:
        results.record_result(td, table, board, a_line_for(board), confirmed=True)
    assert refused.value.code == "table_sits_out"
    assert not Result.objects.filter(table=table).exists()
    page = td_client.get(f"/events/{evening.slug}/rounds/1/tables/{table.number}/")
    assert f"Table {table.number} sits out round 1: no results are kept for it." in page.text
    # The round's counters leave the table out: 6 tables of 4 boards are expected, not 7.
    overview = td_client.get(f"/events/{evening.slug}/rounds/1/").text
    assert "0 of 24 boards keyed" in overview


def test_taking_a_withdrawal_back_lifts_the_ruling_on_the_emptied_table(
    td: User, evening: Event
) -> None:
    from tournaments.services import players

    rounds.close_round(td, round_(evening, 1), "test", anyway=True)
    leaving = entry(evening, 5)
    players.withdraw_player(td, leaving, "went home")
    table = planned_seat(evening, 2, leaving).table
    assert table is not None
    substitutes.sit_out_table(td, table, reason="three players")
    players.reinstate_player(td, leaving, "came back")
    table.refresh_from_db()
    assert table.ruling == Table.Ruling.NONE
    assert substitutes.unruled_vacancies(round_(evening, 2)) == []


def test_an_empty_place_at_a_table_of_five_does_not_hold_up_the_close(td: User) -> None:
    from tests.tournaments.conftest import TEST_KEY, make_settings, register
    from tournaments.services import deals, events

    event = events.create_event(td, make_settings(slug="fives", seating_mode="five"))
    register(td, event, 9)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    first = round_(event, 1)
    rounds.open_round(td, first)
    fifth = Seating.objects.get(round=first, seat=Seating.Seat.FIFTH)
    north = Seating.objects.get(table=fifth.table, seat="N")
    assert north.entry is not None
    substitutes.mark_absent(td, first, north.entry)
    assert substitutes.unruled_vacancies(first) == []
    for table in Table.objects.filter(round=first):
        play_table(td, table)
    assert rounds.gaps(first) == []
    rounds.close_round(td, first)
    assert round_(event, 1).status == Round.Status.CLOSED


def test_a_percentage_award_is_shown_as_a_number(td: User, evening: Event) -> None:
    from tournaments.services import adjustments

    table = Table.objects.get(round__event=evening, round__number=1, number=1)
    written = adjustments.award_table_artificial(
        td, table, {"N": "55.5", "E": "44.5", "S": "55.5", "W": "44.5"}, "slow play"
    )
    assert results.describe(written[0]) == "Artificial: N 55.5 %, E 44.5 %, S 55.5 %, W 44.5 %"

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import as_a_test
from tests.tournaments.conftest import TEST_KEY, make_settings, register, start_event
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Entry, Event, Round, Seating, Table, TableBoard
from tournaments.services import (
    deals,
    events,
    late_arrivals,
    players,
    rounds,
    seating,
    substitutes,
)
from tournaments.services.late_arrivals import How


def seats(event: Event) -> dict[tuple[int, int, str], int | None]:
    """Every seat of the event: (round, table, seat) -> player number; a bye is (round, 0, "BYE n")."""
    return {
        (r, t or 0, f"BYE {n}" if s == "BYE" else s): n
        for r, t, s, n in Seating.objects.filter(round__event=event).values_list(
            "round__number", "table__number", "seat", "entry__number"
        )
    }


def late(td: User, event: Event, name: str = "Komer") -> late_arrivals.LateArrival:
    return late_arrivals.add_late_arrival(
        td, event, first_name="Laat", last_name=name, reason="traffic"
    )


def round_(event: Event, number: int) -> Round:
    return Round.objects.get(event=event, number=number)


@pytest.fixture(scope="module")
def _evening(module_td: User) -> Event:
    """28 players, 7 tables, 4 rounds of 4 boards, round 1 in play."""
    with as_a_test():
        return start_event(module_td, "evening", 28)


@pytest.fixture
def evening(_evening: Event, db: None) -> Event:
    """28 players, 7 tables, 4 rounds of 4 boards, round 1 in play (made once for the module)."""
    return Event.objects.get(pk=_evening.pk)


def test_a_late_arrival_takes_a_withdrawn_players_seats_and_nobody_else_moves(
    td: User, evening: Event
) -> None:
    gone = evening.entries.get(number=5)
    players.withdraw_player(td, gone, reason="went home")
    before = seats(evening)
    review_before = seating.review(evening)["repeats"]
    outcome = late(td, evening)
    assert outcome.how == How.VACANT
    assert outcome.replaces == (gone.player.full_name,)
    newcomer = outcome.entry
    assert newcomer.first_round == 2
    after = seats(evening)
    changed = {k for k in after if after.get(k) != before.get(k)}
    assert changed == {k for k, n in before.items() if n is None and k[0] >= 2}
    assert all(after[k] == newcomer.number for k in changed)
    assert len(changed) == 3  # rounds 2, 3 and 4
    # The plan is the withdrawn player's: the same meetings, the same boards.
    assert seating.review(evening)["repeats"] == review_before
    rounds.open_round(td, round_(evening, 2))
    logged = AuditEntry.objects.get(action="entry.late")
    assert logged.data["how"] == How.VACANT
    assert logged.reason == "traffic"


def test_add_late_player_keeps_returning_the_entry(td: User, evening: Event) -> None:
    players.withdraw_player(td, evening.entries.get(number=5), reason="went home")
    entry = players.add_late_player(td, evening, first_name="Laat", last_name="Komer")
    assert isinstance(entry, Entry)
    assert Seating.objects.filter(entry=entry).count() == 3


def test_a_late_arrival_makes_an_extra_table_with_the_three_byes(td: User) -> None:
    event = start_event(td, "byes", 27)
    before = seats(event)
    byes = {
        r: sorted(n or 0 for k, n in before.items() if k[0] == r and k[2].startswith("BYE"))
        for r in (2, 3, 4)
    }
    assert all(len(trio) == 3 for trio in byes.values())
    outcome = late(td, event)
    assert outcome.how == How.EXTRA_TABLE
    after = seats(event)
    for number in (2, 3, 4):
        extra = {k: n for k, n in after.items() if k[0] == number and k[1] == 7}
        assert sorted(v or 0 for v in extra.values()) == sorted(
            [*byes[number], outcome.entry.number]
        )
        assert {k[2] for k in extra} == {"N", "E", "S", "W"}
        assert not [k for k in after if k[0] == number and k[2].startswith("BYE")]
        # The extra table plays the round's boards, like every other table.
        boards = {
            table: sorted(
                TableBoard.objects.filter(
                    table__round__event=event, table__round__number=number, table__number=table
                ).values_list("board__number", flat=True)
            )
            for table in (1, 7)
        }
        assert boards[7] == boards[1]
        assert len(boards[7]) == 4
    # Every other seat is where it was.
    kept = {k: n for k, n in before.items() if not k[2].startswith("BYE") or k[0] == 1}
    assert all(after[k] == n for k, n in kept.items())
    rounds.open_round(td, round_(event, 2))


def test_no_extra_table_with_travelling_board_sets(td: User) -> None:
    event = events.create_event(td, make_settings(slug="travel", board_mode="travelling"))
    register(td, event, 27)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, round_(event, 1))
    outcome = late(td, event)
    assert outcome.how == How.UNSEATED
    assert not Table.objects.filter(round__event=event, number=7).exists()


def test_a_late_arrival_joins_a_table_of_four_as_fifth_player(td: User) -> None:
    event = events.create_event(td, make_settings(slug="fives", seating_mode="five"))
    register(td, event, 21)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, round_(event, 1))
    before = seats(event)
    outcome = late(td, event)
    assert outcome.how == How.FIFTH
    after = seats(event)
    assert all(after[k] == n for k, n in before.items())
    added = sorted(k for k in after if k not in before)
    assert [k[0] for k in added] == [2, 3, 4]
    assert all(k[2] == "X" and after[k] == outcome.entry.number for k in added)
    rounds.open_round(td, round_(event, 2))


def test_without_a_free_seat_the_late_arrival_waits_for_a_replan(td: User, evening: Event) -> None:
    before = seats(evening)
    outcome = late(td, evening)
    assert outcome.how == How.UNSEATED
    assert not outcome.seated
    assert seats(evening) == before
    with pytest.raises(UserError) as caught:
        rounds.open_round(td, round_(evening, 2))
    assert caught.value.code == "not_seated"
    logged = AuditEntry.objects.get(action="entry.late")
    assert "without a seat" in logged.summary


def test_the_replan_preview_shows_its_cost_without_writing(td: User, evening: Event) -> None:
    outcome = late(td, evening)
    before = seats(evening)
    cost = seating.preview_replan(evening, seed=3)
    assert seats(evening) == before  # nothing written
    assert cost.first_round == 2
    assert cost.players == 29
    assert cost.unseated == (outcome.entry.number,)
    assert outcome.entry.number in cost.moved
    assert cost.repeats_before == 0
    assert cost.repeats_after >= cost.repeats_before
    assert all(r >= 2 for r, _t in cost.tables)
    # The figures are those of the seating it then writes.
    seating.replan(td, evening, seed=3, reason="late arrival")
    after = seats(evening)
    moved = sorted(
        {n for k, n in after.items() if n is not None and k[0] >= 2 and before.get(k) != n}
        | {n for k, n in before.items() if n is not None and k[0] >= 2 and after.get(k) != n}
    )
    assert tuple(moved) == cost.moved
    assert {
        (k[0], k[1]) for k in set(after) | set(before) if k[1] and after.get(k) != before.get(k)
    } == set(cost.tables)
    logged = AuditEntry.objects.get(action="movement.replan")
    assert logged.data["moved"] == list(cost.moved)
    assert logged.data["repeats_after"] == cost.repeats_after
    rounds.open_round(td, round_(evening, 2))


def test_the_replan_preview_lists_substitutes_who_lose_their_seats(
    td: User, evening: Event
) -> None:
    absent = evening.entries.get(number=5)
    substitutes.mark_absent(td, round_(evening, 1), absent)
    sub = substitutes.new_player("In", "Valler")
    substitutes.seat_substitute(
        td, round_(evening, 1), absent, sub, scope=substitutes.Scope.REST, reason=""
    )
    cost = seating.preview_replan(evening)
    number = Entry.objects.get(player=sub).number
    assert sorted(r for r, _t, _s, n in cost.substitutes if n == number) == [2, 3, 4]
    assert number not in cost.moved  # a substitute has no guide card of their own


def test_a_late_arrival_before_play_reseats_everyone(td: User, event: Event) -> None:
    register(td, event, 16)
    seating.generate_movement(td, event)
    outcome = late(td, event)
    assert outcome.entry.first_round == 1
    assert Seating.objects.filter(entry=outcome.entry).count() == event.rounds


def test_it_refuses_a_late_arrival_once_every_round_has_started(td: User, evening: Event) -> None:
    for number in (2, 3, 4):
        Round.objects.filter(pk=round_(evening, number).pk).update(status=Round.Status.OPEN)
    with pytest.raises(UserError) as caught:
        late(td, evening)
    assert caught.value.code == "no_rounds_left"
    assert not Entry.objects.filter(player__last_name="Komer").exists()


# --- pages -------------------------------------------------------------------------------------


@pytest.fixture
def td_client(client: Client, td: User) -> Client:
    client.force_login(td)
    return client


def test_a_late_arrival_from_the_seats_page_takes_a_vacant_seat(
    td: User, td_client: Client, evening: Event
) -> None:
    players.withdraw_player(td, evening.entries.get(number=5), reason="went home")
    response = td_client.post(
        f"/events/{evening.slug}/rounds/1/seats/",
        {"action": "late", "late-first_name": "Laat", "late-last_name": "Komer"},
    )
    assert response.status_code == 302
    page = td_client.get(response["Location"]).content.decode()
    assert "Laat Komer plays from round 2 in the seats of" in page
    assert Seating.objects.filter(entry__player__last_name="Komer").count() == 3


def test_a_late_arrival_without_a_seat_is_sent_to_the_replan_cost(
    td: User, td_client: Client, evening: Event
) -> None:
    response = td_client.post(
        f"/events/{evening.slug}/players/",
        {"late-first_name": "Laat", "late-last_name": "Komer"},
    )
    assert response.status_code == 302
    assert response["Location"] == f"/events/{evening.slug}/movement/replan/"
    page = td_client.get(response["Location"]).content.decode()
    assert "no seat is free" in page
    assert "Repeated meetings over the whole event: 0 now" in page
    assert "Seated for the first time" in page
    assert "29. Laat Komer" in page
    assert not Seating.objects.filter(entry__player__last_name="Komer").exists()


def test_the_replan_is_written_only_once_the_td_confirms(
    td: User, td_client: Client, evening: Event
) -> None:
    late(td, evening)
    before = seats(evening)
    # The movement page's re-plan button leads to the cost, not to a new seating.
    response = td_client.post(f"/events/{evening.slug}/movement/", {"seed": "4"})
    assert response.status_code == 302
    assert response["Location"] == f"/events/{evening.slug}/movement/replan/?seed=4"
    page = td_client.get(response["Location"]).content.decode()
    cost = seating.preview_replan(evening, seed=4)
    assert f"{len(cost.moved)} players change seats" in page
    assert f"{len(cost.tables)} tables change players" in page
    assert seats(evening) == before
    assert f'name="fingerprint" value="{cost.fingerprint}"' in page
    response = td_client.post(
        f"/events/{evening.slug}/movement/replan/",
        {"seed": "4", "reason": "late arrival", "fingerprint": cost.fingerprint},
    )
    assert response.status_code == 302
    assert seats(evening) != before
    logged = AuditEntry.objects.get(action="movement.replan")
    assert logged.reason == "late arrival"
    assert logged.data["seed"] == 4


def test_the_replan_page_refuses_bad_input_without_failing(
    td: User, td_client: Client, evening: Event
) -> None:
    url = f"/events/{evening.slug}/movement/replan/"
    assert td_client.get(url + "?seed=abc").status_code == 200
    assert td_client.get(url + "?seed=-1").status_code == 200
    before = seats(evening)
    assert td_client.post(url, {"seed": "x"}).status_code == 200
    assert seats(evening) == before


# --- the re-plan confirmed is the one shown ----------------------------------------------------


def fingerprint_on(page: str) -> str:
    return page.split('name="fingerprint" value="')[1].split('"')[0]


def test_the_same_seating_gives_the_same_fingerprint_and_another_seed_another(
    td: User, evening: Event
) -> None:
    late(td, evening)
    shown = seating.preview_replan(evening, seed=3)
    assert seating.preview_replan(evening, seed=3).fingerprint == shown.fingerprint
    assert seating.preview_replan(evening, seed=4).fingerprint != shown.fingerprint
    substitutes.mark_absent(td, round_(evening, 1), evening.entries.get(number=5))
    assert seating.preview_replan(evening, seed=3).fingerprint != shown.fingerprint


def test_it_refuses_a_replan_when_the_seating_changed_since_the_preview(
    td: User, evening: Event
) -> None:
    late(td, evening)
    shown = seating.preview_replan(evening, seed=3)
    # Meanwhile another TD withdraws a player and seats a second late arrival in the seats left.
    players.withdraw_player(td, evening.entries.get(number=5), reason="went home")
    late(td, evening, "Tweede")
    before = seats(evening)
    with pytest.raises(UserError) as caught:
        seating.replan(td, evening, seed=3, reason="late arrival", expected=shown.fingerprint)
    assert caught.value.code == "conflict"
    assert "changed while the re-plan was shown" in caught.value.message
    assert seats(evening) == before
    assert not AuditEntry.objects.filter(action="movement.replan").exists()
    now = seating.preview_replan(evening, seed=3)
    seating.replan(td, evening, seed=3, reason="late arrival", expected=now.fingerprint)
    assert AuditEntry.objects.filter(action="movement.replan").count() == 1


def test_the_replan_page_shows_the_new_cost_when_the_seating_changed_meanwhile(
    td: User, td_client: Client, evening: Event
) -> None:
    url = f"/events/{evening.slug}/movement/replan/"
    late(td, evening)
    shown = fingerprint_on(td_client.get(url).content.decode())
    players.withdraw_player(td, evening.entries.get(number=5), reason="went home")
    late(td, evening, "Tweede")  # takes the seats left: another TD at work
    before = seats(evening)
    response = td_client.post(url, {"seed": "0", "reason": "late", "fingerprint": shown})
    page = response.content.decode()
    assert response.status_code == 200
    assert "changed while the re-plan was shown: nothing was re-planned" in page
    assert seats(evening) == before
    assert not AuditEntry.objects.filter(action="movement.replan").exists()
    # The page now shows the plan as things are, and confirming that one re-plans.
    now = fingerprint_on(page)
    assert now == seating.preview_replan(evening).fingerprint != shown
    assert 'value="late"' in page  # the reason typed is kept
    response = td_client.post(url, {"seed": "0", "reason": "late", "fingerprint": now})
    assert response.status_code == 302
    assert AuditEntry.objects.get(action="movement.replan").reason == "late"


def test_the_replan_page_writes_nothing_without_the_fingerprint_of_what_it_showed(
    td: User, td_client: Client, evening: Event
) -> None:
    late(td, evening)
    before = seats(evening)
    url = f"/events/{evening.slug}/movement/replan/"
    for fingerprint in (None, "", "x" * 5000):
        data = {"seed": "0", "reason": "late"}
        if fingerprint is not None:
            data["fingerprint"] = fingerprint
        response = td_client.post(url, data)
        assert response.status_code == 200
        assert "nothing was re-planned" in response.content.decode()
    assert seats(evening) == before
    assert not AuditEntry.objects.filter(action="movement.replan").exists()

from __future__ import annotations

from fractions import Fraction

import pytest
from django.contrib.auth.models import User

from tests.tournaments.conftest import TEST_KEY
from tournaments.errors import UserError
from tournaments.models import (
    AuditEntry,
    Board,
    Entry,
    Event,
    Penalty,
    Result,
    Seating,
    Standings,
    Table,
)
from tournaments.services import adjustments, deals, results, rounds, seating, standings


@pytest.fixture
def running(td: User, event: Event, sixteen: list[Entry]) -> Event:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    return event


def board_one(event: Event, table_number: int = 1) -> tuple[Table, Board]:
    table = Table.objects.get(round__event=event, round__number=1, number=table_number)
    return table, Board.objects.get(event=event, number=1)


def rows_by_entry(event: Event) -> dict[int, dict[str, object]]:
    return {row["entry"]: row for row in standings.compute(event)["rows"]}


def test_an_artificial_score_needs_a_reason_and_every_seat(td: User, running: Event) -> None:
    table, board = board_one(running)
    with pytest.raises(UserError) as caught:
        adjustments.award_artificial(td, table, board, {"N": "average"}, reason="")
    assert caught.value.field == "reason"
    with pytest.raises(UserError) as caught:
        adjustments.award_artificial(td, table, board, {"N": "average"}, reason="board fouled")
    assert "E, S, W" in caught.value.message


def test_an_artificial_score_counts_its_percentage(td: User, running: Event) -> None:
    table, board = board_one(running)
    for number in (2, 3, 4):
        other, _board = board_one(running, number)
        results.record_result(td, other, board, "pass")
    result = adjustments.award_artificial(
        td,
        table,
        board,
        {"N": "average_plus", "E": "average_minus", "S": "average_plus", "W": "average_minus"},
        reason="board fouled",
    )
    assert result.kind == Result.Kind.ARTIFICIAL
    seats = {s.seat: s.planned.number for s in Seating.objects.filter(table=table)}
    rows = rows_by_entry(running)
    assert rows[seats["N"]]["total"] == "60.00"
    assert rows[seats["E"]]["total"] == "40.00"
    assert AuditEntry.objects.filter(action="result.record", reason="board fouled").exists()


def test_a_weighted_score_mixes_two_results(td: User, running: Event) -> None:
    table, board = board_one(running)
    result = adjustments.award_weighted(
        td,
        table,
        board,
        [(Fraction(1, 2), "pass"), (Fraction(1, 2), "N mis 0")],
        reason="director's ruling after a misbid",
    )
    assert result.kind == Result.Kind.WEIGHTED
    assert result.scores == (18, -6, -6, -6)
    with pytest.raises(UserError):
        adjustments.award_weighted(td, table, board, [(Fraction(1, 3), "pass")], reason="x")


def test_a_revoke_penalty_moves_the_rulesets_points(td: User, running: Event) -> None:
    table, board = board_one(running)
    results.record_result(td, table, board, "pass")
    north = Seating.objects.get(table=table, seat="N").planned
    item = adjustments.record_penalty(td, table, board, north, "revoke", reason="revoke in trick 4")
    assert item.points["seats"] == {"N": -36, "E": 12, "S": 12, "W": 12}
    rows = rows_by_entry(running)
    assert rows[north.number]["raw_total"] == "-36"
    adjustments.cancel_penalty(td, item, reason="appeal upheld")
    assert rows_by_entry(running)[north.number]["raw_total"] == "0"
    assert Penalty.objects.get(pk=item.pk).is_active is False


def test_a_penalty_is_refused_for_a_player_not_at_the_table(td: User, running: Event) -> None:
    table, board = board_one(running)
    stranger = (
        Seating.objects.exclude(table=table).exclude(seat="BYE").filter(round__number=1)[0].planned
    )
    with pytest.raises(UserError) as caught:
        adjustments.record_penalty(td, table, board, stranger, "revoke", reason="x")
    assert caught.value.field == "offender"


def test_a_fine_comes_off_the_total(td: User, running: Event) -> None:
    table, board = board_one(running)
    results.record_result(td, table, board, "pass")
    north = Seating.objects.get(table=table, seat="N").planned
    adjustments.record_fine(td, running, north, Fraction(5), reason="late")
    row = rows_by_entry(running)[north.number]
    assert row["total"] == "45.00"
    assert row["fines"] == "5.00"
    standings.refresh(running.pk)
    assert Standings.objects.get(event=running).computed >= 1


def test_an_artificial_score_counts_as_the_players_own_average_in_a_raw_event(
    td: User, running: Event
) -> None:
    Event.objects.filter(pk=running.pk).update(comparison=Event.Comparison.RAW)
    running.refresh_from_db()
    table = Table.objects.get(round__event=running, round__number=1, number=1)
    links = list(table.table_boards.select_related("board").order_by("position"))
    results.record_result(td, table, links[0].board, "N mis 0")  # N +36
    results.record_result(td, table, links[1].board, "N mis 0")  # N +36
    adjustments.award_artificial(
        td, table, links[2].board, dict.fromkeys("NESW", "average"), reason="board fouled"
    )
    north = Seating.objects.get(table=table, seat="N").planned
    row = rows_by_entry(running)[north.number]
    assert row["raw_total"] == "72"
    assert row["total"] == "108"  # 72 over the 2 boards played, scaled to the 3 boards


def test_a_bye_scores_the_players_own_average_or_the_tds_award(td: User) -> None:
    from tests.tournaments.conftest import make_settings, register
    from tournaments.models import SitOutScore
    from tournaments.services import events

    event = events.create_event(td, make_settings(slug="byes", rounds=2))
    register(td, event, 5)  # four play, one has a bye each round
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    bye = Seating.objects.get(round__number=1, round__event=event, seat="BYE").planned
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    for link in table.table_boards.select_related("board"):
        results.record_result(td, table, link.board, "pass", confirmed=True)
    assert rows_by_entry(event)[bye.number]["boards"] == 0  # own average: nothing counted yet
    with pytest.raises(UserError):
        adjustments.score_bye(td, bye, 1, "average_plus", reason="")
    adjustments.score_bye(td, bye, 1, "average_plus", reason="sat out for the odd number")
    row = rows_by_entry(event)[bye.number]
    assert row["total"] == "60.00"
    assert row["boards"] == 4
    assert SitOutScore.objects.get(entry=bye).reason == "sat out for the odd number"
    assert AuditEntry.objects.filter(action="bye.score").exists()
    seated = Seating.objects.filter(round__number=1, round__event=event).exclude(seat="BYE")[0]
    with pytest.raises(UserError) as caught:
        adjustments.score_bye(td, seated.planned, 1, "average", reason="x")
    assert caught.value.code == "no_bye"

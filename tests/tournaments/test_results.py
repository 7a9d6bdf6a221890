from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections

from engine.hands import Deal
from tests.tournaments.conftest import TEST_KEY
from tournaments.errors import ConflictError, UserError
from tournaments.models import AuditEntry, Board, Entry, Event, Result, Round, Standings, Table
from tournaments.services import deals, results, rounds, seating


@pytest.fixture
def running(td: User, event: Event, sixteen: list[Entry]) -> Event:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    event.refresh_from_db()
    return event


def first_table(event: Event) -> tuple[Table, Board]:
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    return table, table.table_boards.order_by("position")[0].board


def a_line_for(board: Board) -> str:
    """An accept that the deal allows: N and E accept in a suit both hold, 8 tricks."""
    deal = Deal.from_pbn(board.deal)
    from engine.cards import Seat, Suit

    suit = next(s for s in Suit if deal.hand(Seat.N).has_suit(s) and deal.hand(Seat.E).has_suit(s))
    return f"NE 8{suit.name} 8"


def test_it_records_a_result_with_the_engines_scores(td: User, running: Event) -> None:
    table, board = first_table(running)
    result = results.record_result(td, table, board, a_line_for(board))
    assert result.version == 1
    assert result.scores == (8, 8, -8, -8)
    assert AuditEntry.objects.filter(action="result.record", object_id=str(result.pk)).exists()


def test_it_refuses_a_result_the_ruleset_does_not_allow_naming_the_field(
    td: User, running: Event
) -> None:
    table, board = first_table(running)
    with pytest.raises(UserError) as caught:
        results.record_result(td, table, board, "NE 7H 8")
    assert caught.value.field == "notation" or "7" in caught.value.message
    assert not Result.objects.exists()


def test_it_refuses_a_line_it_cannot_read_pointing_at_the_character(
    td: User, running: Event
) -> None:
    table, board = first_table(running)
    with pytest.raises(UserError) as caught:
        results.record_result(td, table, board, "NE 9Q 10")
    assert caught.value.code == "notation"


def test_a_correction_adds_a_version_and_keeps_the_old_one(td: User, running: Event) -> None:
    table, board = first_table(running)
    line = a_line_for(board)
    results.record_result(td, table, board, line)
    other = line.replace(" 8", " 9", 1).replace("8 8", "8 9")
    with pytest.raises(UserError) as caught:
        results.record_result(td, table, board, other)
    assert caught.value.code == "version_required"
    assert caught.value.params == {"version": 1, "notation": line}
    with pytest.raises(UserError) as caught:
        results.record_result(td, table, board, other, expected_version=1)
    assert caught.value.code == "reason_required"
    corrected = results.record_result(
        td, table, board, line[:-1] + "9", expected_version=1, reason="sheet misread"
    )
    assert corrected.version == 2
    history = results.history(table, board)
    assert [r.version for r in history] == [2, 1]
    assert [r.is_current for r in history] == [True, False]
    assert AuditEntry.objects.get(action="result.correct").reason == "sheet misread"


def test_keying_the_same_result_again_changes_nothing(td: User, running: Event) -> None:
    table, board = first_table(running)
    first = results.record_result(td, table, board, a_line_for(board))
    again = results.record_result(td, table, board, a_line_for(board))
    assert again.pk == first.pk
    assert Result.objects.count() == 1


def test_it_tells_a_writer_who_keyed_against_an_old_version(
    td: User, assistant: User, running: Event
) -> None:
    table, board = first_table(running)
    line = a_line_for(board)
    results.record_result(td, table, board, line, expected_version=0)
    with pytest.raises(ConflictError):
        results.record_result(
            assistant, table, board, line[:-1] + "9", expected_version=0, reason="x"
        )
    assert Result.objects.get().notation == line


def test_a_second_keying_confirms_only_a_matching_result(
    td: User, assistant: User, running: Event
) -> None:
    table, board = first_table(running)
    line = a_line_for(board)
    results.record_result(td, table, board, line)
    with pytest.raises(UserError) as caught:
        results.confirm_result(assistant, table, board, line[:-1] + "9")
    assert caught.value.code == "keying_mismatch"
    assert Result.objects.get().status == Result.Status.ENTERED
    assert results.confirm_result(assistant, table, board, line).status == Result.Status.CONFIRMED


def test_it_flags_points_on_the_sheet_that_differ_from_the_engine(td: User, running: Event) -> None:
    table, board = first_table(running)
    result = results.record_result(td, table, board, a_line_for(board))
    assert results.sheet_mismatch(result, {"N": "8", "E": "8", "S": "-8", "W": "-9"}) == ["W"]


def test_it_needs_a_confirmation_for_an_open_misere(td: User, running: Event) -> None:
    table, board = first_table(running)
    with pytest.raises(UserError) as caught:
        results.record_result(td, table, board, "N omis 1")
    assert caught.value.code == "needs_confirmation"
    assert not Result.objects.exists()
    saved = results.record_result(td, table, board, "N omis 1", confirmed=True)
    assert saved.scores == (-72, 24, 24, 24)


def test_it_refuses_results_for_a_round_not_in_play(td: User, running: Event) -> None:
    table = Table.objects.get(round__event=running, round__number=2, number=1)
    board = table.table_boards.order_by("position")[0].board
    with pytest.raises(UserError) as caught:
        results.record_result(td, table, board, "pass")
    assert caught.value.code == "round_not_open"


def test_it_refuses_a_board_the_table_does_not_play(td: User, running: Event) -> None:
    table, _board = first_table(running)
    other = Board.objects.get(event=running, number=running.boards_per_round + 1)
    with pytest.raises(UserError) as caught:
        results.record_result(td, table, other, "pass")
    assert caught.value.field == "board"


def test_standings_follow_each_committed_result(
    td: User, running: Event, django_capture_on_commit_callbacks: object
) -> None:
    from config.celery import app

    # In-process here even when a broker is configured: the worker test covers the broker path.
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    table, board = first_table(running)
    try:
        with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
            results.record_result(td, table, board, a_line_for(board))
    finally:
        app.conf.task_always_eager = previous
    state = Standings.objects.get(event=running)
    assert state.computed == state.requested >= 1
    rows = state.data["rows"]
    assert len(rows) == 16
    played = [row for row in rows if row["boards"]]
    assert len(played) == 4
    assert {row["total"] for row in played} == {"50.00"}


@pytest.mark.django_db(transaction=True)
def test_two_writers_of_the_same_result_one_wins_and_the_other_is_told(
    td: User, assistant: User, running: Event
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("real concurrent writers need PostgreSQL (set DATABASE_URL)")
    table, board = first_table(running)
    line = a_line_for(board)
    lines = {td.pk: line, assistant.pk: line[:-1] + "9"}
    barrier = threading.Barrier(2)
    outcomes: dict[int, str] = {}

    def write(user: User) -> None:
        try:
            barrier.wait(timeout=10)
            results.record_result(user, table, board, lines[user.pk], expected_version=0)
            outcomes[user.pk] = "saved"
        except ConflictError:
            outcomes[user.pk] = "conflict"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(u,)) for u in (td, assistant)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes.values()) == ["conflict", "saved"]
    saved = Result.objects.get(table=table, board=board)
    winner = next(pk for pk, outcome in outcomes.items() if outcome == "saved")
    assert saved.notation == lines[winner]
    assert Round.objects.get(event=running, number=1).status == Round.Status.OPEN


def test_a_wiezen_result_must_use_the_turned_up_trump(td: User) -> None:
    from tests.tournaments.conftest import make_settings, register
    from tournaments.services import events

    event = events.create_event(
        td, make_settings(slug="wiezen", game="wiezen", ruleset_name="iwwa-wiezen")
    )
    register(td, event, 4)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    table, board = first_table(event)
    assert board.trump_card
    turned = board.trump_card[0]
    other = next(s for s in "HDCS" if s != turned)
    with pytest.raises(UserError) as caught:
        results.record_result(td, table, board, f"NE 8{other} 8")
    assert caught.value.code == "trump_not_turned"

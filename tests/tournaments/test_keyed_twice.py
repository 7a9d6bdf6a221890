"""A board keyed at the table and from the paper sheet; an opponent's confirmation at the table."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tests.tournaments.test_results import a_line_for
from tournaments.errors import ConflictError, UserError
from tournaments.models import AuditEntry, Board, Event, Result, Table
from tournaments.services import results

DEVICE = Result.Source.DEVICE
PAPER = Result.Source.PAPER


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    """Sixteen players, round 1 in play."""
    with as_a_test():
        return start_event(module_td, "keyed-twice", 16)


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """Sixteen players, round 1 in play (made once for the module)."""
    return Event.objects.get(pk=_running.pk)


@pytest.fixture
def spot(running: Event) -> tuple[Table, Board]:
    table = Table.objects.get(round__event=running, round__number=1, number=1)
    return table, table.table_boards.order_by("position")[0].board


def other_line(line: str) -> str:
    return line[:-1] + "9"


def test_a_device_result_keeps_its_source_and_seat(td: User, spot: tuple[Table, Board]) -> None:
    table, board = spot
    result = results.record_result(None, table, board, a_line_for(board), source=DEVICE, seat="E")
    assert (result.source, result.keyed_at_seat, result.entered_by) == (DEVICE, "E", None)
    entry = AuditEntry.objects.get(action="result.record")
    assert entry.params["seat"] == "E"
    assert "keyed at the table by E" in entry.summary


def test_a_device_result_needs_the_seat_that_keyed_it(td: User, spot: tuple[Table, Board]) -> None:
    table, board = spot
    with pytest.raises(UserError) as caught:
        results.record_result(None, table, board, "pass", source=DEVICE, confirmed=True)
    assert (caught.value.code, caught.value.field) == ("bad_seat", "seat")
    with pytest.raises(UserError) as caught:
        results.record_result(None, table, board, "pass", source="phone", confirmed=True)
    assert caught.value.field == "source"
    assert not Result.objects.exists()


@pytest.mark.parametrize(("first", "second"), [(DEVICE, PAPER), (PAPER, DEVICE)])
def test_the_same_result_keyed_on_both_sides_is_confirmed(
    td: User, spot: tuple[Table, Board], first: str, second: str
) -> None:
    table, board = spot
    line = a_line_for(board)
    results.record_result(td, table, board, line, source=first, seat="N" if first == DEVICE else "")
    again = results.record_result(
        td, table, board, line, source=second, seat="S" if second == DEVICE else ""
    )
    assert (again.version, again.status, again.other_keying) == (1, "confirmed", "")
    assert Result.objects.count() == 1
    assert AuditEntry.objects.filter(action="result.confirm").count() == 1


def test_a_sheet_that_differs_from_the_table_is_flagged_and_changes_nothing(
    td: User, spot: tuple[Table, Board]
) -> None:
    table, board = spot
    line = a_line_for(board)
    results.record_result(None, table, board, line, source=DEVICE, seat="N")
    # The TD's page was opened before the table keyed the board: version 0 is no conflict here.
    flagged = results.record_result(td, table, board, other_line(line), expected_version=0)
    assert (flagged.version, flagged.notation, flagged.status) == (1, line, "entered")
    assert (flagged.other_keying, flagged.other_keying_source) == (other_line(line), PAPER)
    assert Result.objects.count() == 1
    entry = AuditEntry.objects.get(action="result.keying_differs")
    assert entry.params["other"] == other_line(line)


def test_the_td_keeps_the_tables_result_or_corrects_it(td: User, spot: tuple[Table, Board]) -> None:
    table, board = spot
    line = a_line_for(board)
    results.record_result(None, table, board, line, source=DEVICE, seat="N")
    flagged = results.record_result(td, table, board, other_line(line))
    with pytest.raises(ConflictError) as caught:
        results.keep_keying(td, flagged, "checked with the players", version=2)
    assert caught.value.params == {"version": 1, "notation": line}
    kept = results.keep_keying(td, flagged, "checked with the players", version=1)
    assert (kept.other_keying, kept.status, kept.version) == ("", "confirmed", 1)
    assert AuditEntry.objects.get(action="result.keep_keying").reason == "checked with the players"


def test_a_correction_with_a_reason_is_not_a_second_keying(
    td: User, spot: tuple[Table, Board]
) -> None:
    table, board = spot
    line = a_line_for(board)
    results.record_result(None, table, board, line, source=DEVICE, seat="N")
    corrected = results.record_result(
        td, table, board, other_line(line), expected_version=1, reason="sheet checked"
    )
    assert (corrected.version, corrected.notation, corrected.source) == (2, other_line(line), PAPER)
    assert corrected.other_keying == ""


def test_an_opponent_confirms_at_the_table(td: User, spot: tuple[Table, Board]) -> None:
    table, board = spot
    result = results.record_result(
        None, table, board, a_line_for(board), source=DEVICE, seat="N", submission="key-0001"
    )
    with pytest.raises(UserError) as caught:
        results.confirm_at_table(None, table, board, "N", version=1)
    assert caught.value.code == "own_confirmation"
    with pytest.raises(ConflictError):
        results.confirm_at_table(None, table, board, "E", version=2)
    confirmed = results.confirm_at_table(None, table, board, "E", version=1)
    assert confirmed.pk == result.pk
    assert confirmed.table_confirmed_by == "E"
    assert confirmed.table_confirmed_at is not None
    # Confirming again (a resent tap) changes nothing and logs nothing more.
    assert results.confirm_at_table(None, table, board, "W", version=1).table_confirmed_by == "E"
    assert AuditEntry.objects.filter(action="result.confirm_at_table").count() == 1


def test_nothing_to_confirm_and_bad_seats_are_refused(td: User, spot: tuple[Table, Board]) -> None:
    table, board = spot
    with pytest.raises(UserError) as caught:
        results.confirm_at_table(None, table, board, "E", version=0)
    assert caught.value.code == "nothing_to_confirm"
    results.record_result(None, table, board, a_line_for(board), source=DEVICE, seat="N")
    for seat in ("X", "", "north", None):
        with pytest.raises(UserError) as caught:
            results.confirm_at_table(None, table, board, seat, version=1)  # type: ignore[arg-type]
        assert caught.value.field == "seat"

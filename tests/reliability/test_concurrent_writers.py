"""Fifty people keying at once, each on a connection of their own, through the real service.

The service locks the round's row and the board's current version while it writes, and the
database refuses a second row of the same version (tournaments/services/results.py). These tests
check the outcome on PostgreSQL, whichever of the two stops a race: no lost update, no duplicate
version, and every writer who lost a race is told so.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connections

from tests.reliability.conftest import require_postgresql
from tests.tournaments.conftest import start_event
from tests.tournaments.test_results import a_line_for
from tournaments.errors import ConflictError, UserError
from tournaments.models import AuditEntry, Board, Event, Result, Table, TableBoard
from tournaments.services import results

pytestmark = [pytest.mark.reliability, pytest.mark.django_db(transaction=True)]

WRITERS = 50


def run_together(count: int, write: Callable[[int], str]) -> list[str]:
    """Start ``count`` threads at the same moment; each returns what happened to it."""
    barrier = threading.Barrier(count)
    outcomes = ["not finished"] * count

    def run(n: int) -> None:
        try:
            barrier.wait(timeout=30)
            outcomes[n] = write(n)
        except ConflictError as error:
            outcomes[n] = error.code
        except Exception as error:  # reported in the assertion, with what it was
            outcomes[n] = repr(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def variant(line: str, n: int) -> str:
    """The same accept with 8 or 9 tricks: two different results for the same board."""
    return f"{line[:-1]}{8 + n % 2}"


def a_possible_line(event: Event, board: Board) -> str:
    """A result the deal allows; it may need a confirmation (a troel in hand, say)."""
    pairs = ("NE", "NS", "NW", "ES", "EW", "SW")
    candidates = [f"{seats} 8{suit} 8" for seats in pairs for suit in "HDCS"]
    candidates += [f"{seat} sol6{suit} 6" for seat in "NESW" for suit in "HDCS"]
    for line in candidates:
        try:
            results.check(event, board, line)
        except UserError:
            continue
        return line
    raise AssertionError(f"no possible result found for board {board.number}")


def first_pair(event: Event) -> tuple[Table, Board]:
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    return table, table.table_boards.order_by("position")[0].board


def test_fifty_first_entries_of_one_board_store_one_version_and_tell_the_rest(td: User) -> None:
    require_postgresql()
    event = start_event(td, "fifty-same", 16)
    table, board = first_pair(event)
    line = a_line_for(board)

    def write(n: int) -> str:
        results.record_result(td, table, board, variant(line, n), expected_version=0)
        return "saved"

    outcomes = run_together(WRITERS, write)

    assert sorted(set(outcomes)) == ["conflict", "saved"], outcomes
    assert outcomes.count("saved") == 1
    stored = Result.objects.get(table=table, board=board)
    assert (stored.version, stored.is_current) == (1, True)
    assert stored.notation == variant(line, outcomes.index("saved"))
    assert AuditEntry.objects.filter(action="result.record").count() == 1
    assert not AuditEntry.objects.filter(action="result.correct").exists()


def test_fifty_writers_on_different_boards_all_store_their_result(td: User) -> None:
    require_postgresql()
    # 52 players: 13 tables of 4 boards in round 1, 52 pairs of table and board.
    event = start_event(td, "fifty-apart", 52)
    pairs = [
        (tb.table, tb.board)
        for tb in TableBoard.objects.filter(table__round__event=event, table__round__number=1)
        .select_related("table", "board")
        .order_by("table__number", "position")
    ][:WRITERS]
    assert len(pairs) == WRITERS
    lines = [a_possible_line(event, board) for _, board in pairs]

    def write(n: int) -> str:
        table, board = pairs[n]
        results.record_result(td, table, board, lines[n], expected_version=0, confirmed=True)
        return "saved"

    outcomes = run_together(WRITERS, write)

    assert outcomes == ["saved"] * WRITERS
    stored = Result.objects.filter(event=event)
    assert stored.count() == WRITERS
    assert {(r.table_id, r.board_id, r.version, r.is_current) for r in stored} == {
        (table.pk, board.pk, 1, True) for table, board in pairs
    }
    for (table, board), line in zip(pairs, lines, strict=True):
        assert stored.get(table=table, board=board).notation == line
    assert AuditEntry.objects.filter(action="result.record").count() == WRITERS


def test_racing_corrections_of_one_board_number_the_versions_without_a_gap(td: User) -> None:
    require_postgresql()
    event = start_event(td, "fifty-corrections", 16)
    table, board = first_pair(event)
    line = a_line_for(board)
    results.record_result(td, table, board, variant(line, 0), expected_version=0)

    def write(n: int) -> str:
        # Each keys against the version they last saw; told of a newer one, they look and retry.
        for _ in range(4 * WRITERS):
            current = Result.objects.get(table=table, board=board, is_current=True)
            other = variant(line, 1) if current.notation == variant(line, 0) else variant(line, 0)
            try:
                results.record_result(
                    td,
                    table,
                    board,
                    other,
                    expected_version=current.version,
                    reason=f"sheet re-read by writer {n}",
                )
            except ConflictError:
                continue
            return "saved"
        return "gave up"

    outcomes = run_together(WRITERS, write)

    assert outcomes == ["saved"] * WRITERS
    versions = list(
        Result.objects.filter(table=table, board=board)
        .order_by("version")
        .values_list("version", "is_current", "notation")
    )
    assert [v for v, _, _ in versions] == list(range(1, WRITERS + 2))
    assert [current for _, current, _ in versions] == [False] * WRITERS + [True]
    # Each correction changed the result it saw: no two neighbouring versions are the same.
    notations = [n for _, _, n in versions]
    assert all(a != b for a, b in itertools.pairwise(notations))
    assert AuditEntry.objects.filter(action="result.correct").count() == WRITERS

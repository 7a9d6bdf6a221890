"""A saved result and its request for new standings commit together, in one commit."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from tests.tournaments.conftest import TEST_KEY
from tests.tournaments.test_results import a_line_for, first_table
from tournaments.errors import UserError
from tournaments.models import Entry, Event, Result, Standings
from tournaments.services import deals, jobs, results, rounds, seating


@pytest.fixture
def running(td: User, event: Event, sixteen: list[Entry]) -> Event:
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """The jobs sent, instead of a broker."""
    out: list[tuple[str, Any]] = []

    def publish(name: str, *args: Any) -> bool:
        out.append((name, args))
        return True

    monkeypatch.setattr(jobs, "publish", publish)
    return out


@pytest.fixture
def statements() -> Iterator[list[tuple[str, bool]]]:
    """Each statement run, with whether a transaction was open around it."""
    seen: list[tuple[str, bool]] = []

    def record(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
        seen.append((sql, connection.in_atomic_block))
        return execute(sql, *args)

    with connection.execute_wrapper(record):
        yield seen


def _requests(event: Event) -> int:
    return Standings.objects.filter(event=event).values_list("requested", flat=True).first() or 0


@pytest.mark.django_db(transaction=True)
def test_the_request_for_standings_is_counted_inside_the_saves_transaction(
    td: User,
    running: Event,
    sent: list[tuple[str, Any]],
    statements: list[tuple[str, bool]],
) -> None:
    table, board = first_table(running)
    before = _requests(running)
    results.record_result(td, table, board, a_line_for(board))
    bumps = [inside for sql, inside in statements if "UPDATE" in sql and "standings" in sql]
    assert bumps == [True]  # counted by the result's own commit, not by a second one
    assert _requests(running) == before + 1
    assert (jobs.COMPUTE_STANDINGS, (running.pk,)) in sent  # sent once committed


@pytest.mark.django_db(transaction=True)
def test_a_save_refused_on_the_way_counts_no_request(
    td: User, running: Event, sent: list[tuple[str, Any]]
) -> None:
    table, board = first_table(running)
    before = _requests(running)
    with pytest.raises(UserError):
        results.record_result(td, table, board, "NE 7H 8")
    assert _requests(running) == before
    assert not Result.objects.filter(event=running).exists()
    assert sent == []


@pytest.mark.django_db(transaction=True)
def test_inside_a_callers_transaction_the_request_waits_for_its_commit(
    td: User,
    running: Event,
    sent: list[tuple[str, Any]],
    statements: list[tuple[str, bool]],
) -> None:
    table, board = first_table(running)
    before = _requests(running)
    with transaction.atomic():
        results.record_result(td, table, board, a_line_for(board))
        # The caller may go on writing: the event's standings row is not locked meanwhile.
        assert _requests(running) == before
        assert not [sql for sql, _inside in statements if "UPDATE" in sql and "standings" in sql]
    assert _requests(running) == before + 1
    assert (jobs.COMPUTE_STANDINGS, (running.pk,)) in sent

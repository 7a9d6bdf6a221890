"""Standings under a stream of saves: after each computation the event rests as long as it took,
and the saves in between are covered by one deferred computation."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.cache import cache

from tournaments import tasks
from tournaments.services import jobs, pacing


def test_an_event_rests_as_long_as_its_last_computation_took(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [1000.0]
    monkeypatch.setattr("tournaments.services.pacing.time.time", lambda: now[0])
    assert pacing.rest(7) == 0.0
    pacing.record(7, 0.4)
    assert pacing.rest(7) == pytest.approx(0.4)
    now[0] += 0.3
    assert pacing.rest(7) == pytest.approx(0.1)
    now[0] += 0.2
    assert pacing.rest(7) == 0.0
    # Another event keeps its own pace.
    assert pacing.rest(8) == 0.0


def test_a_larger_share_of_a_processor_makes_the_rest_shorter(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    monkeypatch.setattr("tournaments.services.pacing.time.time", lambda: 1000.0)
    pacing.record(7, 0.4)
    settings.TROEF_STANDINGS_SHARE = 0.8  # a computation of 0.4 s, then a rest of 0.1 s
    assert pacing.rest(7) == pytest.approx(0.1)
    settings.TROEF_STANDINGS_SHARE = 1.0  # the computations may take the whole processor
    assert pacing.rest(7) == 0.0


def test_a_clock_gone_back_never_makes_an_event_rest_longer_than_it_took(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("tournaments.services.pacing.time.time", lambda: 1000.0)
    pacing.record(7, 0.5)
    monkeypatch.setattr("tournaments.services.pacing.time.time", lambda: 900.0)
    assert pacing.rest(7) == pytest.approx(0.5)


def test_only_the_first_save_of_a_rest_queues_the_deferred_computation() -> None:
    assert pacing.defer(7, 0.5)
    assert not pacing.defer(7, 0.5)
    assert pacing.defer(8, 0.5)
    pacing.deferred_run_starts(7)
    assert pacing.defer(7, 0.5)


def test_without_a_cache_nothing_rests_and_nothing_is_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    def down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("the cache is down")

    for name in ("get", "set", "add", "delete"):
        monkeypatch.setattr(cache, name, down)
    pacing.record(7, 0.4)
    assert pacing.rest(7) == 0.0
    assert pacing.defer(7, 0.4)  # queue it: a computation too many, never one too few
    pacing.deferred_run_starts(7)


class Calls:
    def __init__(self) -> None:
        self.refreshed: list[int] = []
        self.later: list[tuple[float, int]] = []


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Calls:
    """The task as a worker runs it (not in-process), with the computation and the broker noted."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    seen = Calls()

    def refresh(event_id: int) -> int:
        seen.refreshed.append(event_id)
        return 1

    def publish_later(name: str, seconds: float, event_id: int) -> bool:
        seen.later.append((seconds, event_id))
        return True

    monkeypatch.setattr("tournaments.services.standings.refresh", refresh)
    monkeypatch.setattr(jobs, "publish_later", publish_later)
    return seen


def test_a_save_during_the_rest_is_left_to_one_computation_at_its_end(calls: Calls) -> None:
    tasks.compute_standings(7)
    assert calls.refreshed == [7]
    pacing.record(7, 0.5)
    for _ in range(5):
        assert tasks.compute_standings(7) is None
    assert calls.refreshed == [7]
    assert len(calls.later) == 1
    seconds, event_id = calls.later[0]
    assert event_id == 7
    assert 0 < seconds <= 0.5
    # The deferred run computes, rest or not, and lets the next save queue the next one.
    tasks.compute_standings(7, deferred=True)
    assert calls.refreshed == [7, 7]
    assert pacing.defer(7, 0.5)


def test_a_deferred_computation_that_cannot_be_queued_is_done_now(
    calls: Calls, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "publish_later", lambda *args: False)
    pacing.record(7, 0.5)
    tasks.compute_standings(7)
    assert calls.refreshed == [7]


def test_the_event_computes_at_once_after_resting(
    calls: Calls, monkeypatch: pytest.MonkeyPatch
) -> None:
    pacing.record(7, 0.01)
    time.sleep(0.02)
    tasks.compute_standings(7)
    assert calls.refreshed == [7]
    assert calls.later == []

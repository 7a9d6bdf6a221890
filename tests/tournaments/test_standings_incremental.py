"""Standings that follow the saves: what a process keeps of an event between two computations.

After a save, ``standings.evaluate`` reads only the results that came and went and compares only
their boards again; anything else that changed makes it read the whole event. Either way its
outcome must be exactly that of a computation from nothing, which every test here compares with.
"""

from __future__ import annotations

import dataclasses
import gc
import itertools
import json
import weakref
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import standings as engine_standings
from tests.tournaments.conftest import start_event
from tournaments.errors import UserError
from tournaments.models import (
    Board,
    BoardScores,
    Event,
    Result,
    Seating,
    Standings,
    Table,
    TableBoard,
)
from tournaments.services import adjustments, events, players, results, rounds, standings
from tournaments.services.events import EventSettings

CANDIDATES = [
    f"{a}{b} {level}{suit} {tricks}"
    for a, b in itertools.permutations("NESW", 2)
    for level, suit, tricks in ((8, "H", 9), (8, "S", 6), (9, "C", 10), (9, "D", 7))
]
slugs = itertools.count(1)


@pytest.fixture(autouse=True)
def _nothing_followed() -> Iterator[None]:
    standings.forget()
    yield
    standings.forget()


def lines_for(event: Event, board: Board, count: int = 3) -> list[str]:
    """The first few candidate lines the board's cards allow."""
    found = ["pass"]
    for text in CANDIDATES:
        try:
            results.check(event, board, text)
        except UserError:
            continue
        found.append(text)
        if len(found) == count:
            break
    return found


def afresh(event: Event) -> tuple[engine_standings.Standings, dict[str, Any]]:
    """The standings computed from nothing this process kept, and their stored document."""
    problems: list[dict[str, Any]] = []
    outcome = engine_standings.standings(standings.gather(event, problems))
    return outcome, standings.serialise(event, outcome, problems)


def following(event: Event) -> tuple[engine_standings.Standings, dict[str, Any]]:
    problems: list[dict[str, Any]] = []
    outcome = standings.evaluate(event, problems, follow=True)
    return outcome, standings.serialise(event, outcome, problems)


def save(td: User, table: Table, board: Board, text: str) -> None:
    """Record or correct the board at the table; the same line again changes nothing."""
    current = Result.objects.filter(table=table, board=board, is_current=True).first()
    results.record_result(
        td, table, board, text, confirmed=True,
        expected_version=current.version if current else None,
        reason="correction" if current else "",
    )  # fmt: skip


@pytest.fixture
def full_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The events whose whole inputs were read, one entry a time."""
    reads: list[int] = []
    whole = standings._inputs

    def counted(event: Event) -> Any:
        reads.append(event.pk)
        return whole(event)

    monkeypatch.setattr(standings, "_inputs", counted)
    return reads


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_after_every_save_the_followed_standings_are_those_computed_afresh(
    td: User, data: st.DataObject
) -> None:
    event = start_event(td, f"followed-{next(slugs)}", 16)
    rounds.open_round(td, event.round_set.get(number=2))
    links = list(
        TableBoard.objects.filter(
            table__round__event=event, table__round__number__lte=2
        ).select_related("table", "board")
    )
    lines = {board.pk: lines_for(event, board) for board in event.boards.all()}
    for _step in range(data.draw(st.integers(3, 12), label="saves")):
        link = data.draw(st.sampled_from(links), label="board")
        if data.draw(st.integers(0, 7), label="kind") == 0:
            adjustments.award_artificial(
                td, link.table, link.board,
                {"N": "average_plus", "E": "average_minus", "S": "average", "W": "50"}, "ruling",
            )  # fmt: skip
        else:
            save(td, link.table, link.board, data.draw(st.sampled_from(lines[link.board_id])))
        assert following(event) == afresh(event)


def test_a_save_reads_only_the_new_result_and_gives_the_standings_of_a_full_computation(
    td: User, full_reads: list[int]
) -> None:
    event = start_event(td, "one-save", 16)
    links = list(TableBoard.objects.filter(table__round__event=event, table__round__number=1))
    for link in links[:6]:
        save(td, link.table, link.board, "pass")
    following(event)
    assert full_reads == [event.pk]
    board = links[0].board
    save(td, links[0].table, board, lines_for(event, board)[1])
    save(td, links[7].table, links[7].board, "pass")
    assert following(event) == afresh(event)
    assert full_reads == [event.pk, event.pk]  # the second read is afresh()'s own


def running_event(td: User, players_count: int = 16) -> Event:
    event = start_event(td, f"changed-{next(slugs)}", players_count)
    for link in TableBoard.objects.filter(table__round__event=event, table__round__number=1):
        save(td, link.table, link.board, "pass")
    first = Table.objects.get(round__event=event, round__number=1, number=1)
    board = first.table_boards.order_by("position")[0].board
    save(td, first, board, lines_for(event, board)[1])
    return event


def fine(td: User, event: Event) -> None:
    adjustments.record_fine(td, event, event.entries.get(number=2), Fraction(5), reason="late")


def board_penalty(td: User, event: Event) -> None:
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    link = table.table_boards.select_related("board").order_by("position")[0]
    entry = table.seatings.get(seat="N").entry
    assert entry is not None
    adjustments.record_penalty(td, table, link.board, entry, "revoke", reason="revoke")


def cancelled_fine(td: User, event: Event) -> None:
    item = adjustments.record_fine(td, event, event.entries.get(number=3), Fraction(2), "late")
    standings.evaluate(event, follow=True)
    adjustments.cancel_penalty(td, item, "a mistake")


def withdrawal(td: User, event: Event) -> None:
    players.withdraw_player(td, event.entries.get(number=5), reason="ill")


def next_round(td: User, event: Event) -> None:
    rounds.open_round(td, event.round_set.get(number=2))


def ranking_settings(td: User, event: Event) -> None:
    changed = EventSettings(
        name=event.name, date=event.date, game=event.game, ruleset_name=event.ruleset_name,
        rounds=event.rounds, boards_per_round=event.boards_per_round, slug=event.slug,
        venue=event.venue, language=event.language, comparison=Event.Comparison.DATUM,
        tie_break=["total", "butler"],
    )  # fmt: skip
    events.update_event(td, event, changed, reason="datum this time")


@pytest.mark.parametrize(
    "change",
    [fine, board_penalty, cancelled_fine, withdrawal, next_round, ranking_settings],
    ids=lambda change: change.__name__,
)
def test_anything_but_a_result_makes_the_next_computation_read_the_whole_event(
    td: User, full_reads: list[int], change: Callable[[User, Event], None]
) -> None:
    event = running_event(td)
    following(event)
    change(td, Event.objects.get(pk=event.pk))
    event = Event.objects.get(pk=event.pk)
    reads = len(full_reads)
    outcome = following(event)
    assert len(full_reads) == reads + 1
    assert outcome == afresh(event)


def test_a_score_for_a_bye_makes_the_next_computation_read_the_whole_event(
    td: User, full_reads: list[int]
) -> None:
    event = running_event(td, 17)
    following(event)
    entry = Seating.objects.get(round__event=event, round__number=1, seat="BYE").planned
    adjustments.score_bye(td, entry, 1, "average_plus", reason="the TD's ruling")
    reads = len(full_reads)
    outcome = following(event)
    assert len(full_reads) == reads + 1
    assert outcome == afresh(event)
    assert outcome[0].players[entry.number].boards[0].award == 60


def test_what_another_event_left_is_never_taken_for_this_one(
    td: User, full_reads: list[int]
) -> None:
    event = running_event(td)
    following(event)
    kept = standings._take_followed(event.pk)
    assert kept is not None
    other = running_event(td)
    # As if this process had followed an event of the same id in another database.
    standings._keep_followed(other.pk, dataclasses.replace(kept))
    reads = len(full_reads)
    assert following(other) == afresh(other)
    assert len(full_reads) == reads + 2  # the stamp did not match: read whole, then afresh()


def test_a_failed_computation_leaves_nothing_to_follow(
    td: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = running_event(td)
    following(event)

    def broken(*_args: object) -> None:
        raise ValueError("broken")

    monkeypatch.setattr(engine_standings, "standings", broken)
    with pytest.raises(ValueError, match="broken"):
        standings.evaluate(event, follow=True)
    assert standings._take_followed(event.pk) is None


def test_refresh_stores_after_a_save_what_a_computation_from_nothing_stores(td: User) -> None:
    event = running_event(td)
    Standings.objects.update_or_create(event=event, defaults={"requested": 1, "computed": 0})
    standings.refresh(event.pk)
    table = Table.objects.get(round__event=event, round__number=1, number=2)
    board = table.table_boards.order_by("position")[0].board
    save(td, table, board, lines_for(event, board)[1])
    Standings.objects.filter(event=event).update(requested=2)
    standings.refresh(event.pk)
    state = Standings.objects.get(event=event)
    stored = BoardScores.objects.get(event=event)
    assert stored.computed_at == state.computed_at
    outcome, document = afresh(event)
    assert state.data == json.loads(json.dumps(document))
    boards = {number: line.boards for number, line in outcome.players.items()}
    assert stored.data == json.dumps(
        engine_standings.board_scores_to_json(boards), separators=(",", ":")
    )
    # What the second computation replaced went once its standings were stored.
    followed = standings._take_followed(event.pk)
    assert followed is not None
    assert followed.memo.retired == []


def test_only_the_workers_computations_follow_an_event(td: User) -> None:
    event = running_event(td)
    standings.forget()
    standings.compute(event)  # a page or a document: nothing kept in this process
    standings.evaluate(event)
    assert standings._take_followed(event.pk) is None
    standings.evaluate(event, follow=True)
    assert standings._take_followed(event.pk) is not None


def test_what_the_worker_keeps_is_kept_out_of_the_collectors_walks(
    td: User, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = running_event(td)
    settings.CELERY_TASK_ALWAYS_EAGER = False  # a worker's computations
    monkeypatch.setattr(standings, "THAW_EVERY", 3)
    monkeypatch.setattr(standings, "_frozen", 0)

    def refresh(request: int) -> None:
        Standings.objects.update_or_create(
            event=event, defaults={"requested": request, "computed": request - 1}
        )
        standings.refresh(event.pk)

    class Node:
        itself: Node | None = None

    thresholds = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(10**6)  # no collection but the ones this test asks for
    try:
        garbage = Node()
        garbage.itself = garbage  # a reference cycle, garbage once the name goes
        left = weakref.ref(garbage)
        del garbage
        refresh(1)
        kept = standings._take_followed(event.pk)
        assert kept is not None
        standings._keep_followed(event.pk, kept)
        # Out of the collector's sight: not walked, and so not collected either.
        assert not any(walked is kept for walked in gc.get_objects())
        gc.collect()
        assert left() is not None
        refresh(2)
        gc.collect()
        assert left() is not None
        # Every THAW_EVERY computations, everything is handed back and collected.
        refresh(3)
        assert gc.get_freeze_count() == 0
        assert left() is None
        assert gc.isenabled()
        # A page's computation, and a job run in a web process, freeze nothing.
        standings.compute(event)
        settings.CELERY_TASK_ALWAYS_EAGER = True
        refresh(4)
        assert gc.get_freeze_count() == 0
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()

"""Double-dummy analysis of the boards: queued with the deals, stored, shown to the players.

The solver takes well over a minute on a board today, so these tests stand a table built from
known JSON (``known_table``) in for ``services.analysis.compute_table``; they test the job around
it and the pages that show what it stored. The solver itself is tested in tests/engine.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from engine.cards import Seat, Suit
from engine.dealfiles import DealFile, write_pbn
from engine.deals import BoardDeal, deals_from_key
from engine.doubledummy import BoardTable
from engine.results import BoardResult, Contract
from tests.tournaments.conftest import TEST_KEY, make_settings, register, start_event
from tournaments import tasks
from tournaments.models import AuditEntry, Board, BoardAnalysis, Event, Result, Round, Table
from tournaments.services import analysis, backup, deals, events, jobs, results, rounds, seating

SLUG = "club-evening"

PAIRS = {"NS": (7, 6, 8, 5, 9), "NE": (6, 6, 6, 6, 6), "NW": (4, 5, 3, 8, 2)}
LEFT = {"N": (5, 4, 3, 2, 1), "E": (3, 3, 3, 3, 3), "S": (6, 5, 4, 3, 2), "W": (2, 2, 2, 2, 2)}
OWN = {"N": (5, 5, 5, 5, 5), "E": (4, 4, 4, 4, 4), "S": (7, 7, 7, 7, 7), "W": (1, 1, 1, 1, 1)}


def known_json(board: int, dealer: Seat) -> dict[str, Any]:
    """A table as ``BoardTable.to_json`` writes it, with made-up tricks (not this deal's)."""

    def strains(row: tuple[int, ...]) -> dict[str, int]:
        return dict(zip(("S", "H", "D", "C", "NT"), row, strict=True))

    left = dealer.left.name
    return {
        "board": board,
        "dealer": dealer.name,
        "pairs": {name: strains(row) for name, row in PAIRS.items()},
        "alone": {
            seat: {
                "first_lead_left": strains(LEFT[seat]),
                # The seat on the dealer's left has one lead: both figures are the same.
                "first_lead_self": strains(LEFT[seat] if seat == left else OWN[seat]),
            }
            for seat in "NESW"
        },
        "misere": {
            seat: {"no_trick": seat == "N", "one_trick": seat in ("N", "E")} for seat in "NESW"
        },
    }


def known_table(deal: BoardDeal) -> BoardTable:
    return BoardTable.from_json(known_json(deal.board, deal.dealer))


@pytest.fixture
def solver(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The solver stood in for by ``known_table``; the list holds the boards it was asked for."""
    asked: list[int] = []

    def compute(deal: BoardDeal) -> BoardTable:
        asked.append(deal.board)
        return known_table(deal)

    monkeypatch.setattr(analysis, "compute_table", compute)
    return asked


@pytest.fixture
def broker(settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """A broker that only writes down what it was sent (task name, arguments)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent: list[tuple[str, tuple[Any, ...]]] = []

    def publish(name: str, *args: Any) -> bool:
        sent.append((name, args))
        return True

    monkeypatch.setattr(jobs, "publish", publish)
    return sent


def board(event: Event, number: int) -> Board:
    return Board.objects.get(event=event, number=number)


def analyse_all(event: Event) -> None:
    for pk in event.boards.values_list("pk", flat=True):
        tasks.analyse_board(pk)


# --- the job ------------------------------------------------------------------------------------


def test_it_queues_one_job_per_board_once_the_deals_are_committed(
    td: User, broker: list[tuple[str, tuple[Any, ...]]], django_capture_on_commit_callbacks: Any
) -> None:
    event = events.create_event(td, make_settings(slug=SLUG))
    register(td, event, 16)
    seating.generate_movement(td, event)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        deals.generate_deals(td, event, key=TEST_KEY)
    assert broker == []  # nothing is sent before the deals are committed
    for callback in callbacks:
        callback()
    ids = sorted(event.boards.values_list("pk", flat=True))
    assert len(ids) == 16
    assert sorted(args[0] for _name, args in broker) == ids
    assert {name for name, _args in broker} == {"troef.analyse_board"}
    entry = AuditEntry.objects.get(event=event, action="analysis.queue")
    assert entry.params == {"boards": 16}


def test_it_queues_the_boards_of_a_deal_file_too(
    td: User, broker: list[tuple[str, tuple[Any, ...]]], django_capture_on_commit_callbacks: Any
) -> None:
    event = events.create_event(td, make_settings(slug=SLUG))
    register(td, event, 16)
    seating.generate_movement(td, event)
    dealt = deals_from_key("another-key", range(1, 17))
    text = write_pbn(DealFile(tuple(dealt), "Club evening", "", "2026.11.20"))
    with django_capture_on_commit_callbacks(execute=True):
        deals.import_deals(td, event, "evening.pbn", text.encode())
    assert sorted(args[0] for _name, args in broker) == sorted(
        event.boards.values_list("pk", flat=True)
    )


def test_it_queues_nothing_without_a_broker_where_the_job_would_hold_up_the_request(
    td: User, solver: list[int], settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # no broker: a task would run in this request
    with django_capture_on_commit_callbacks(execute=True):
        event = start_event(td, SLUG, 16)
    assert solver == []
    assert not BoardAnalysis.objects.exists()
    assert not AuditEntry.objects.filter(event=event, action="analysis.queue").exists()


def test_a_job_sent_while_celery_runs_jobs_in_process_is_left_for_a_worker(
    td: User, solver: list[int]
) -> None:
    """A test or a page that forces in-process jobs must not hold the request for the solver."""
    from config.celery import app

    event = start_event(td, SLUG, 16)
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        outcome = tasks.analyse_board.apply_async((board(event, 2).pk,)).get()
    finally:
        app.conf.task_always_eager = previous
    assert outcome is False
    assert solver == []
    assert not BoardAnalysis.objects.exists()


def test_it_stores_the_boards_table_as_the_engine_writes_it(td: User, solver: list[int]) -> None:
    event = start_event(td, SLUG, 16)
    three = board(event, 3)
    assert tasks.analyse_board(three.pk) is True
    stored = BoardAnalysis.objects.get(board=three)
    assert stored.data == known_json(3, Seat[three.dealer])
    assert stored.deal == three.deal
    assert stored.error == ""
    assert stored.solver in ("compiled", "pure")
    assert solver == [3]


def test_it_does_not_analyse_a_board_twice_for_the_same_deal(
    td: User, solver: list[int], broker: list[tuple[str, tuple[Any, ...]]]
) -> None:
    event = start_event(td, SLUG, 16)
    one = board(event, 1)
    first = analysis.analyse_board(one.pk)
    again = analysis.analyse_board(one.pk)
    assert first is not None
    assert again is not None
    assert first.pk == again.pk
    assert first.computed_at == again.computed_at
    assert solver == [1]
    assert analysis.schedule_analysis(event) == 15  # the analysed board is not queued again


def test_it_analyses_again_when_the_stored_table_is_for_another_deal(
    td: User, solver: list[int]
) -> None:
    event = start_event(td, SLUG, 16)
    one = board(event, 1)
    analysis.analyse_board(one.pk)
    other = deals_from_key("another-key", [1])[0]
    Board.objects.filter(pk=one.pk).update(deal=other.deal.to_pbn())
    analysis.analyse_board(one.pk)
    assert solver == [1, 1]
    assert BoardAnalysis.objects.get(board=one).deal == other.deal.to_pbn()


def test_it_stores_a_failure_instead_of_raising(td: User, monkeypatch: pytest.MonkeyPatch) -> None:
    event = start_event(td, SLUG, 16)

    def broken(deal: BoardDeal) -> BoardTable:
        raise RuntimeError("the solver gave up")

    monkeypatch.setattr(analysis, "compute_table", broken)
    two = board(event, 2)
    assert tasks.analyse_board(two.pk) is True
    stored = BoardAnalysis.objects.get(board=two)
    assert stored.error == "RuntimeError: the solver gave up"
    assert stored.data == {}
    assert analysis.tables(event) == {}


@pytest.mark.parametrize(("setting", "threads"), [(0, None), (1, 1), (3, 3)])
def test_it_searches_a_table_on_as_many_threads_as_the_setting_says(
    settings: Any, monkeypatch: pytest.MonkeyPatch, setting: int, threads: int | None
) -> None:
    settings.TROEF_ANALYSIS_THREADS = setting
    asked: list[int | None] = []

    def table(deal: BoardDeal, *, threads: int | None = None) -> BoardTable:
        asked.append(threads)
        return known_table(deal)

    monkeypatch.setattr(analysis, "table_for_board", table)
    (deal,) = deals_from_key(TEST_KEY, [1])
    assert analysis.compute_table(deal) == known_table(deal)
    assert asked == [threads]


def test_it_answers_false_for_a_board_that_has_gone(td: User, solver: list[int]) -> None:
    assert tasks.analyse_board(999_999) is False
    assert solver == []


def test_it_counts_the_boards_analysed(
    td: User, solver: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    event = start_event(td, SLUG, 16)
    assert analysis.progress(event) == (0, 16)
    analysis.analyse_board(board(event, 1).pk)
    analysis.analyse_board(board(event, 2).pk)
    monkeypatch.setattr(analysis, "compute_table", lambda deal: 1 / 0)
    analysis.analyse_board(board(event, 3).pk)
    assert analysis.progress(event) == (3, 16)  # a failed board is finished too
    assert sorted(analysis.tables(event)) == [1, 2]


# --- results against double dummy ---------------------------------------------------------------


def table_dealt_by(dealer: Seat) -> BoardTable:
    return BoardTable.from_json(known_json(1, dealer))


def test_it_reads_an_accept_with_the_dealers_left_leading() -> None:
    table = table_dealt_by(Seat.W)  # N leads
    accept = BoardResult(Contract.ACCEPT, 8, Suit.H, (Seat.N, Seat.S), tricks=9)
    assert analysis.double_dummy_tricks(table, accept, "kleurenwiezen") == PAIRS["NS"][1]
    against = BoardResult(Contract.ACCEPT, 8, Suit.D, (Seat.E, Seat.S), tricks=9)
    assert analysis.double_dummy_tricks(table, against, "kleurenwiezen") == 13 - PAIRS["NW"][2]


def test_it_reads_an_abondance_with_the_declarers_lead_in_kleurenwiezen_only() -> None:
    table = table_dealt_by(Seat.N)  # E leads, except when the declarer does
    abondance = BoardResult(Contract.ABONDANCE, 9, Suit.S, (Seat.S,), tricks=9)
    assert analysis.double_dummy_tricks(table, abondance, "kleurenwiezen") == OWN["S"][0]
    assert analysis.double_dummy_tricks(table, abondance, "wiezen") == LEFT["S"][0]
    solo = BoardResult(Contract.SOLO, 6, Suit.C, (Seat.S,), tricks=6)
    assert analysis.double_dummy_tricks(table, solo, "kleurenwiezen") == LEFT["S"][3]


def test_it_has_no_figure_for_troel_misere_pass_or_israeli() -> None:
    table = table_dealt_by(Seat.N)
    for result in (
        BoardResult(Contract.TROEL, 8, Suit.H, (Seat.N, Seat.S), tricks=9),
        BoardResult(Contract.MISERE, None, None, (Seat.N,), declarer_tricks=(0,)),
        BoardResult(Contract.PASS),
    ):
        assert analysis.double_dummy_tricks(table, result, "kleurenwiezen") is None
    accept = BoardResult(Contract.ACCEPT, 8, Suit.H, (Seat.E, Seat.W), tricks=9)
    assert analysis.double_dummy_tricks(table, accept, "israeli") is None


def test_it_writes_the_difference_as_players_read_it() -> None:
    assert [analysis.difference_text(n) for n in (1, 0, -2, None)] == ["+1", "=", "\u22122", ""]


# --- the board page -----------------------------------------------------------------------------


def accept_line(board: Board, tricks: int) -> str:
    """N and S accept, in a suit both hold."""
    from engine.hands import Deal

    deal = Deal.from_pbn(board.deal)
    suit = next(s for s in Suit if deal.hand(Seat.N).has_suit(s) and deal.hand(Seat.S).has_suit(s))
    return f"NS 8{suit.name} {tricks}"


def play_round_one(td: User, event: Event, tricks: dict[int, int]) -> None:
    """Each table of round 1 keys an NS accept on every board, with ``tricks[table]``."""
    for table in Table.objects.filter(round__event=event, round__number=1).order_by("number"):
        for link in table.table_boards.select_related("board"):
            line = accept_line(link.board, tricks.get(table.number, 8))
            results.record_result(td, table, link.board, line, confirmed=True)


@pytest.fixture
def played(td: User) -> Event:
    event = start_event(td, SLUG, 16)
    play_round_one(td, event, {1: 9, 2: 8, 3: 6, 4: 10})
    rounds.close_round(td, event.round_set.get(number=1))
    return event


def first_board(event: Event) -> Board:
    link = Table.objects.get(round__event=event, round__number=1, number=1).table_boards.first()
    assert link is not None
    return link.board


def expected_ns(board: Board) -> int:
    """What ``known_json`` gives NS in the accept's strain, N and S accepting."""
    result = Result.objects.filter(board=board, is_current=True).first()
    assert result is not None
    strain = result.data["trump"]
    return PAIRS["NS"][("S", "H", "D", "C").index(strain)]


def test_the_board_page_shows_the_table_and_each_results_difference(
    td: User, played: Event, solver: list[int], client: Client
) -> None:
    shown = first_board(played)
    analysis.analyse_board(shown.pk)
    page = client.get(f"/events/{SLUG}/boards/{shown.number}/").content.decode()
    assert 'id="double-dummy-pairs"' in page
    assert 'id="double-dummy-pending"' not in page
    makeable = expected_ns(shown)
    for taken in (9, 8, 6, 10):
        difference = analysis.difference_text(taken - makeable)
        assert f'<td class="num">{difference}</td></tr>' in page
    # The misère column: N can make sure of no trick, E cannot.
    assert "<tr><th>N</th><td>yes</td><td>yes</td></tr>" in page
    assert "<tr><th>W</th><td>no</td><td>no</td></tr>" in page


def test_the_board_page_says_the_analysis_is_not_ready(
    td: User, played: Event, client: Client, settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False  # a site with a worker
    shown = first_board(played)
    page = client.get(f"/events/{SLUG}/boards/{shown.number}/").content.decode()
    assert 'id="double-dummy-pending"' in page
    assert 'id="double-dummy-pairs"' not in page


def test_without_a_worker_the_board_page_says_boards_are_not_analysed(
    td: User, played: Event, client: Client, settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # a laptop's `make run`: nothing is ever queued
    shown = first_board(played)
    page = client.get(f"/events/{SLUG}/boards/{shown.number}/").content.decode()
    assert 'id="double-dummy-off"' in page
    assert 'id="double-dummy-pending"' not in page


def test_the_board_page_keeps_the_table_back_until_the_round_is_closed(
    td: User, solver: list[int], client: Client
) -> None:
    event = start_event(td, SLUG, 16)
    shown = first_board(event)
    analysis.analyse_board(shown.pk)
    assert Round.objects.get(event=event, number=1).status != Round.Status.CLOSED
    page = client.get(f"/events/{SLUG}/boards/{shown.number}/").content.decode()
    assert 'id="double-dummy"' not in page


def test_the_board_page_says_when_the_analysis_failed(
    td: User, played: Event, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analysis, "compute_table", lambda deal: 1 / 0)
    shown = first_board(played)
    analysis.analyse_board(shown.pk)
    page = client.get(f"/events/{SLUG}/boards/{shown.number}/").content.decode()
    assert 'id="double-dummy-failed"' in page


# --- the declarers' page ------------------------------------------------------------------------


def finish(td: User, event: Event) -> None:
    for round_ in event.round_set.order_by("number"):
        if round_.status == Round.Status.PLANNED:
            rounds.open_round(td, round_)
        if round_.status != Round.Status.CLOSED:
            rounds.close_round(td, round_, "the evening ended early", anyway=True)
    events.finish_event(td, event)


def test_the_declarers_page_waits_for_the_end_of_the_event(
    td: User, played: Event, solver: list[int], client: Client
) -> None:
    analyse_all(played)
    page = client.get(f"/events/{SLUG}/double-dummy/").content.decode()
    assert 'id="double-dummy-waiting"' in page
    assert 'id="double-dummy-ranking"' not in page
    standings = client.get(f"/events/{SLUG}/standings/").content.decode()
    assert 'id="double-dummy-link"' not in standings


def test_the_declarers_page_ranks_who_made_what_was_makeable(
    td: User, played: Event, solver: list[int], client: Client
) -> None:
    analyse_all(played)
    finish(td, played)
    page = client.get(f"/events/{SLUG}/double-dummy/").content.decode()
    assert 'id="double-dummy-ranking"' in page
    assert "16 of 16 boards analysed" in page
    rows = analysis_rows(page)
    # Table 4 took 10 tricks on every board, more than ``known_json`` ever gives NS: its N and
    # S made what was makeable each time. Table 3 took 6: made only where NS can take no more.
    four = Table.objects.get(round__event=played, round__number=1, number=4)
    north = four.seatings.get(seat="N").planned
    assert rows[north.number] == ("4", "4", "100.0")
    three = Table.objects.get(round__event=played, round__number=1, number=3)
    made = sum(expected_ns(link.board) <= 6 for link in three.table_boards.select_related("board"))
    assert made < 4
    for seat in ("N", "S"):
        player = three.seatings.get(seat=seat).planned
        assert rows[player.number][:2] == ("4", str(made))
    assert list(rows).index(north.number) < list(rows).index(player.number)
    assert not any(number in rows for number in range(1, 9))  # E and W never declared
    standings = client.get(f"/events/{SLUG}/standings/").content.decode()
    assert 'id="double-dummy-link"' in standings


def analysis_rows(page: str) -> dict[int, tuple[str, str, str]]:
    """Player number -> (declared, made, percentage) from the ranking's rows, in their order."""
    import re

    out = {}
    for number, declared, made, percentage in re.findall(
        r'<tr><td class="num">\d+</td><td class="num">(\d+)</td><td><a [^>]*>[^<]*</a></td>'
        r'<td class="num">(\d+)</td><td class="num">(\d+)</td><td class="num">([\d.,]+)</td></tr>',
        page,
    ):
        out[int(number)] = (declared, made, percentage.replace(",", "."))
    return out


# --- boards left without a table ----------------------------------------------------------------


def test_a_restored_event_has_its_boards_analysed_again(
    td: User,
    broker: list[tuple[str, tuple[Any, ...]]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = start_event(td, SLUG, 16)
    document = backup.export_event(event)
    broker.clear()
    with django_capture_on_commit_callbacks(execute=True):
        restored = backup.import_event(td, document, slug="restored").event
    assert sorted(args[0] for _name, args in broker) == sorted(
        restored.boards.values_list("pk", flat=True)
    )
    # The import's own entry says so; the log copied from the backup gains no entry of its own.
    entry = AuditEntry.objects.get(event=restored, action="event.import")
    assert entry.data["analysis_queued"] == restored.boards.count()
    assert AuditEntry.objects.filter(event=restored, action="analysis.queue").count() == (
        AuditEntry.objects.filter(event=event, action="analysis.queue").count()
    )


def test_the_command_queues_the_boards_still_without_a_table(
    td: User,
    solver: list[int],
    broker: list[tuple[str, tuple[Any, ...]]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = start_event(td, SLUG, 16)
    tasks.analyse_board(board(event, 1).pk)
    broker.clear()
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("analyse_boards", SLUG, stdout=out)
    queued = sorted(args[0] for _name, args in broker)
    assert queued == sorted(event.boards.exclude(number=1).values_list("pk", flat=True))
    assert f"{SLUG}: {len(queued)} boards queued" in out.getvalue()


def test_the_command_works_the_tables_out_here_when_asked(td: User, solver: list[int]) -> None:
    event = start_event(td, SLUG, 16)
    tasks.analyse_board(board(event, 2).pk)
    out = io.StringIO()
    call_command("analyse_boards", "--here", stdout=out)
    boards = event.boards.count()
    assert sorted(solver) == list(range(1, boards + 1))  # board 2 once, by the job above
    assert BoardAnalysis.objects.filter(board__event=event, error="").count() == boards
    assert f"{SLUG}: {boards - 1} boards analysed." in out.getvalue()
    call_command("analyse_boards", "--here", stdout=io.StringIO())
    assert len(solver) == boards  # nothing left to do


def test_the_command_names_an_event_it_does_not_know(td: User) -> None:
    start_event(td, SLUG, 16)
    with pytest.raises(CommandError, match="'nowhere'"):
        call_command("analyse_boards", SLUG, "nowhere", stdout=io.StringIO())


def test_the_command_tries_a_failed_board_again(
    td: User, monkeypatch: pytest.MonkeyPatch, broker: list[tuple[str, tuple[Any, ...]]]
) -> None:
    event = start_event(td, SLUG, 16)
    monkeypatch.setattr(analysis, "compute_table", lambda deal: 1 / 0)
    tasks.analyse_board(board(event, 3).pk)
    assert BoardAnalysis.objects.get(board__number=3).error
    monkeypatch.setattr(analysis, "compute_table", known_table)
    call_command("analyse_boards", SLUG, "--here", stdout=io.StringIO())
    assert not BoardAnalysis.objects.filter(board__event=event).exclude(error="").exists()
    assert BoardAnalysis.objects.filter(board__event=event).count() == event.boards.count()


# --- the catch-up ---------------------------------------------------------------------------------


@pytest.fixture
def dealt_unsent(td: User, broker: list[tuple[str, tuple[Any, ...]]]) -> Event:
    """16 boards dealt today whose jobs never reached the broker (the commit's callbacks not
    run)."""
    event = events.create_event(td, make_settings(slug=SLUG, date=timezone.localdate()))
    register(td, event, 16)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    assert broker == []
    return event


def sent_boards(broker: list[tuple[str, tuple[Any, ...]]]) -> list[int]:
    return [args[0] for name, args in broker if name == "troef.analyse_board"]


def test_the_catch_up_sends_each_board_left_without_an_analysis_once(
    dealt_unsent: Event, broker: list[tuple[str, tuple[Any, ...]]]
) -> None:
    assert analysis.catch_up() == 16
    assert sorted(sent_boards(broker)) == sorted(dealt_unsent.boards.values_list("pk", flat=True))
    assert analysis.catch_up() == 0  # on their way: not sent again
    assert len(sent_boards(broker)) == 16


def test_the_catch_up_leaves_boards_with_a_table_or_a_failure(
    dealt_unsent: Event, broker: list[tuple[str, tuple[Any, ...]]], solver: list[int]
) -> None:
    analysis.analyse_board(board(dealt_unsent, 1).pk)
    analysis.analyse_board(board(dealt_unsent, 2).pk)
    BoardAnalysis.objects.filter(board=board(dealt_unsent, 2)).update(data={}, error="Timeout")
    analysis.catch_up()
    sent = set(sent_boards(broker))
    assert board(dealt_unsent, 1).pk not in sent
    assert board(dealt_unsent, 2).pk not in sent  # a failure is the director's to retry
    assert len(sent) == 14


def test_the_catch_up_sends_a_board_again_once_its_job_is_no_longer_on_its_way(
    dealt_unsent: Event, broker: list[tuple[str, tuple[Any, ...]]]
) -> None:
    analysis.catch_up()
    first = board(dealt_unsent, 1).pk
    cache.delete(f"troef:analysis-sent:{first}")  # as when ON_ITS_WAY_SECONDS have passed
    broker.clear()
    assert analysis.catch_up() == 1
    assert sent_boards(broker) == [first]


def test_the_catch_up_leaves_events_older_than_two_weeks_to_the_operator(
    dealt_unsent: Event, broker: list[tuple[str, tuple[Any, ...]]]
) -> None:
    Event.objects.filter(pk=dealt_unsent.pk).update(
        date=timezone.localdate() - dt.timedelta(days=analysis.CATCH_UP_DAYS + 1)
    )
    assert analysis.catch_up() == 0
    Event.objects.filter(pk=dealt_unsent.pk).update(
        date=timezone.localdate() - dt.timedelta(days=analysis.CATCH_UP_DAYS)
    )
    assert analysis.catch_up() == 16


def test_the_catch_up_sends_a_backlog_a_part_at_a_time(
    dealt_unsent: Event, broker: list[tuple[str, tuple[Any, ...]]]
) -> None:
    assert analysis.catch_up(limit=5) == 5
    assert analysis.catch_up(limit=5) == 5
    assert len(set(sent_boards(broker))) == 10


def test_a_board_whose_job_the_broker_refused_is_sent_by_the_next_run(
    dealt_unsent: Event, broker: list[tuple[str, tuple[Any, ...]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    up = False
    monkeypatch.setattr(jobs, "publish", lambda name, *args: up)
    assert analysis.catch_up() == 0  # the broker is down
    up = True
    assert analysis.catch_up() == 16


def test_without_the_cache_the_catch_up_sends_nothing_rather_than_everything_each_time(
    dealt_unsent: Event, broker: list[tuple[str, tuple[Any, ...]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(*args: Any, **kwargs: Any) -> bool:
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "add", unreachable)
    assert analysis.catch_up() == 0
    assert broker == []


def test_the_beat_catch_up_sends_the_missing_analyses(
    dealt_unsent: Event, broker: list[tuple[str, tuple[Any, ...]]]
) -> None:
    assert tasks.catch_up_standings()["analysis"] == 16


def test_without_a_broker_the_catch_up_sends_nothing(
    td: User, settings: Any, solver: list[int]
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    start_event(td, SLUG, 16)
    assert analysis.catch_up() == 0
    assert solver == []

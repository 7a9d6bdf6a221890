"""Double-dummy analysis of an event's boards: one background job per board, and what it found.

The solver takes minutes on a board, so each board is its own Celery task on its own queue
(``settings.TROEF_ANALYSIS_QUEUE``), queued once the deals are committed. A task takes no lock that entry
or the standings take, and reads nothing but its board: recording results and publishing the
standings never wait on it. Pages show a board's table once it is stored, and until then say
that it is not ready.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from tournaments.game import (
    COMPILED,
    KLEURENWIEZEN_PLAY,
    WIEZEN_PLAY,
    AnyResult,
    BoardDeal,
    BoardResult,
    BoardTable,
    Card,
    Contract,
    Deal,
    EngineError,
    PlayRules,
    Seat,
    TableError,
    result_from_json,
    table_for_board,
)
from tournaments.models import AuditAction, Board, BoardAnalysis, Event, Result, TableBoard
from tournaments.services import audit, jobs
from tournaments.services.audit import Actor

logger = logging.getLogger(__name__)

SOLVER = "compiled" if COMPILED else "pure"
"""Which search the tables are worked out with: the C one when the engine was built with it."""

PLAY_RULES: Mapping[str, PlayRules] = {
    Event.Game.KLEURENWIEZEN: KLEURENWIEZEN_PLAY,
    Event.Game.WIEZEN: WIEZEN_PLAY,
}
"""Who leads to the first trick, per game; Israeli Whist has no double-dummy comparison here."""


def board_deal(board: Board) -> BoardDeal:
    """The engine's board from a stored one, as the hand records read it."""
    return BoardDeal.of(
        board.number,
        Deal.from_pbn(board.deal),
        Seat[board.dealer],
        Card.parse(board.trump_card) if board.trump_card else None,
    )


def compute_table(deal: BoardDeal) -> BoardTable:
    """The solver's whole table for one board: the long part of the job, on as many threads as
    ``settings.TROEF_ANALYSIS_THREADS`` says (0: every processor the worker may use)."""
    return table_for_board(deal, threads=settings.TROEF_ANALYSIS_THREADS or None)


def analyse_board(board_id: int) -> BoardAnalysis | None:
    """Work out and store one board's double-dummy table; ``None`` if the board has gone.

    A board whose current deal already has its table is left as it is. A failure is stored as
    the analysis's ``error`` (and logged), never raised: the job is not worth a retry storm, and
    the board page says the analysis failed.
    """
    board = Board.objects.filter(pk=board_id).first()
    if board is None:
        return None
    stored = BoardAnalysis.objects.filter(board=board).first()
    if stored is not None and stored.deal == board.deal and stored.is_done:
        return stored
    data: dict[str, Any] = {}
    error = ""
    try:
        data = compute_table(board_deal(board)).to_json()
    # Broad on purpose: whatever stops the solver (a bad stored deal, the task's soft time limit,
    # a bug) is kept with the board for the director to see, and the other boards go on.
    except Exception as exc:
        logger.exception("double-dummy analysis of board %s failed", board_id)
        error = f"{type(exc).__name__}: {exc}"[:1000]
    try:
        with transaction.atomic():
            # The deals may have been dealt again while the solver ran: the board row is then
            # gone, or holds another deal, and this table belongs to nothing.
            if not Board.objects.filter(pk=board.pk, deal=board.deal).exists():
                return None
            analysis, _created = BoardAnalysis.objects.update_or_create(
                board=board,
                defaults={
                    "deal": board.deal,
                    "data": data,
                    "error": error,
                    "solver": SOLVER,
                    "computed_at": timezone.now(),
                },
            )
            if not error:
                _record_stored(board, analysis)
    except IntegrityError:
        # The same job delivered twice stored its table first, or the board went meanwhile.
        return BoardAnalysis.objects.filter(board_id=board_id).first()
    return analysis


def _record_stored(board: Board, analysis: BoardAnalysis) -> None:
    """The audit entry of a stored table, naming the rounds that play the board: the hand
    records printed before it (of those rounds) no longer show what is known of the board."""
    played_in = sorted(
        set(TableBoard.objects.filter(board=board).values_list("table__round__number", flat=True))
    )
    # Dealt before the movement, the board is in no round yet: the entry then names none, and
    # so concerns every round.
    audit.record(
        None,
        AuditAction.ANALYSIS_DONE,
        "",
        event=board.event,
        obj=analysis,
        data={"board": board.number, **({"rounds": played_in} if played_in else {})},
        message=gettext_noop("double-dummy table of board %(board)s stored"),
        params={"board": board.number},
    )


def in_background() -> bool:
    """Whether a worker takes the jobs: without a broker a task would run in the web request
    that dealt the boards, minutes per board, so nothing is queued then."""
    return not settings.CELERY_TASK_ALWAYS_EAGER


def _finished(event: Event, *, failed: bool = True) -> Iterable[int]:
    """Boards of the event whose current deal has been analysed: a table stored, or an error
    (unless ``failed`` is false: then only a table counts)."""
    found = BoardAnalysis.objects.filter(board__event=event, deal=F("board__deal"))
    if not failed:
        found = found.filter(error="")
    return found.values_list("board_id", flat=True)


def schedule_analysis(
    event: Event, *, actor: Actor = None, record: bool = True, retry_failed: bool = False
) -> int:
    """Queue one analysis job per board not analysed yet, once the transaction commits.

    Returns the number of jobs queued; writes one audit entry for the event when there are any,
    unless the caller's own entry says so (``record=False``). With ``retry_failed`` a board whose
    analysis failed is queued again too.
    """
    if not in_background():
        return 0
    done = set(_finished(event, failed=not retry_failed))
    pending = [
        pk for pk in event.boards.order_by("number").values_list("pk", flat=True) if pk not in done
    ]
    if not pending:
        return 0
    if record:
        _record_queued(actor, event, len(pending))
    for board_id in pending:
        transaction.on_commit(partial(_send, board_id), robust=True)
    return len(pending)


def _record_queued(actor: Actor, event: Event, boards: int) -> None:
    audit.record(
        actor,
        AuditAction.ANALYSIS_QUEUE,
        "",
        event=event,
        data={"boards": boards},
        message=gettext_noop("double-dummy analysis queued: %(boards)s boards"),
        params={"boards": boards},
    )


def analyse_missing(event: Event, progress: Callable[[int], None] | None = None) -> int:
    """Work out, in this process, the table of every board of the event that lacks one (a board
    whose analysis failed included).

    Minutes a board: for an operator's command, never for a web request. Returns the number of
    boards analysed; ``progress`` is told each board's number before its search.
    """
    done = set(_finished(event, failed=False))
    count = 0
    for pk, number in event.boards.order_by("number").values_list("pk", "number"):
        if pk in done:
            continue
        if progress is not None:
            progress(number)
        if analyse_board(pk) is not None:
            count += 1
    return count


def _send(board_id: int) -> None:
    # Through the module, so that a test can stand in for the broker.
    if jobs.publish(jobs.ANALYSE_BOARD, board_id):
        try:
            cache.set(_sent_key(board_id), 1, ON_ITS_WAY_SECONDS)
        except Exception:  # the cache is an accelerator here: the catch-up may send it again
            logger.warning("analysis of board %s not marked as sent", board_id, exc_info=True)


#: How long a board's job is taken to be on its way (queued behind others, or running) once sent:
#: the catch-up sends it again only after that. An event's boards take a worker minutes each.
ON_ITS_WAY_SECONDS = 6 * 3600
#: Boards the catch-up sends at most in one run: a large backlog reaches the queue bit by bit.
CATCH_UP_BOARDS = 64
#: Events the catch-up looks after: those of the last two weeks (and to come). Older boards left
#: without a table are the operator's to queue (``manage.py analyse_boards``).
CATCH_UP_DAYS = 14


def _sent_key(board_id: int) -> str:
    return f"troef:analysis-sent:{board_id}"


def catch_up(limit: int = CATCH_UP_BOARDS) -> int:
    """Send the job of every board of a recent event without an analysis of its deal (neither
    a table nor a failure) whose job is not on its way: boards dealt while the broker was down,
    or whose job was lost with a worker. Returns the number of jobs sent.

    Run by the beat's catch-up. What was sent is remembered in the cache; when the cache cannot
    be reached nothing is sent, rather than every missing board again on every run.
    """
    if not in_background():
        return 0
    analysed = BoardAnalysis.objects.filter(deal=F("board__deal")).values("board_id")
    recent = timezone.localdate() - dt.timedelta(days=CATCH_UP_DAYS)
    missing = (
        Board.objects.filter(event__date__gte=recent)
        .exclude(pk__in=analysed)
        .order_by("event_id", "number")
        .values_list("pk", flat=True)
    )
    sent = 0
    for board_id in missing.iterator():
        try:
            new = cache.add(_sent_key(board_id), 1, ON_ITS_WAY_SECONDS)
        except Exception:
            logger.warning("analysis catch-up skipped: the cache cannot be reached", exc_info=True)
            return sent
        if not new:
            continue  # sent already, on its way
        if not jobs.publish(jobs.ANALYSE_BOARD, board_id):
            cache.delete(_sent_key(board_id))  # not sent after all: the next run tries again
            return sent  # no broker now: the next run goes on
        sent += 1
        if sent >= limit:
            break
    return sent


def progress(event: Event) -> tuple[int, int]:
    """(boards analysed, boards) for the event; a failed analysis counts as finished."""
    return len(set(_finished(event))), event.boards.count()


def tables(event: Event, numbers: Iterable[int] | None = None) -> dict[int, BoardTable]:
    """The stored tables of the event's boards (or of board ``numbers``), by board number."""
    found = BoardAnalysis.objects.filter(
        board__event=event, deal=F("board__deal"), error=""
    ).select_related("board")
    if numbers is not None:
        found = found.filter(board__number__in=list(numbers))
    out: dict[int, BoardTable] = {}
    for analysis in found:
        try:
            out[analysis.board.number] = BoardTable.from_json(analysis.data)
        except TableError:
            logger.exception("the stored double-dummy table of board %s is unreadable", analysis.pk)
    return out


def analysis_of(board: Board) -> tuple[BoardTable | None, bool]:
    """The board's stored table, and whether its analysis failed."""
    analysis = BoardAnalysis.objects.filter(board=board, deal=board.deal).first()
    if analysis is None:
        return None, False
    if analysis.error:
        return None, True
    try:
        return BoardTable.from_json(analysis.data), False
    except TableError:
        logger.exception("the stored double-dummy table of board %s is unreadable", board.pk)
        return None, True


# --- results against double dummy -------------------------------------------------------------


def double_dummy_tricks(table: BoardTable, result: AnyResult, game: str) -> int | None:
    """The tricks the result's declaring side takes double dummy in its strain, with the lead
    its contract has; ``None`` where the table has no answer.

    The table answers contracts to win tricks whose first lead is the dealer's left's or the
    lone declarer's: not passes, negative contracts (the table's misère and piccolo columns say
    those), troel (its partner leads) or Israeli Whist and Ronde Pas.
    """
    rules = PLAY_RULES.get(game)
    if rules is None or not isinstance(result, BoardResult) or result.tricks is None:
        return None
    contract = result.contract
    if contract in (Contract.PASS, Contract.TROEL) or contract.is_negative:
        return None
    if not result.declarers:
        return None
    leader = result.declarers[0] if contract in rules.declarer_leads else table.first_leader
    try:
        return table.tricks(result.declarers, result.trump, leader)
    except (TableError, ValueError):
        return None


def difference_text(difference: int | None) -> str:
    """``+1``, ``−2`` or ``=``: tricks taken against double dummy; empty when unknown."""
    if difference is None:
        return ""
    if difference == 0:
        return "="
    return f"+{difference}" if difference > 0 else f"\u2212{-difference}"


@dataclass(frozen=True)
class Declared:
    """One played contract's declaring seats, its tricks and the double-dummy tricks."""

    round: int
    table: int
    board: int
    declarers: tuple[str, ...]
    tricks: int
    makeable: int

    @property
    def made_makeable(self) -> bool:
        return self.tricks >= self.makeable


def declared(event: Event, known: Mapping[int, BoardTable]) -> list[Declared]:
    """Every current played result of the event the double-dummy tables answer."""
    out = []
    results = (
        Result.objects.filter(event=event, is_current=True, kind=Result.Kind.PLAYED)
        .select_related("board", "table__round")
        .order_by("board__number", "table__round__number", "table__number")
    )
    for row in results:
        table = known.get(row.board.number)
        if table is None:
            continue
        result = _result(row)
        if result is None:
            continue
        makeable = double_dummy_tricks(table, result, event.game)
        if makeable is None or not isinstance(result, BoardResult) or result.tricks is None:
            continue
        out.append(
            Declared(
                row.table.round.number,
                row.table.number,
                row.board.number,
                tuple(seat.name for seat in result.declarers),
                result.tricks,
                makeable,
            )
        )
    return out


def _result(row: Result) -> AnyResult | None:
    try:
        return result_from_json(row.data)
    except (EngineError, ValueError):
        return None

"""Standings: the adapter between the event's rows and the engine's standings (``engine.standings``).

``gather`` reads the whole event in a handful of queries into the engine's plain records;
``engine.standings.standings`` compares, adds up and ranks; ``serialise`` writes the outcome once
as the document stored in ``Standings.data``, which pages, the CSV and the API read instead of
recomputing. Every player's compared boards are stored beside it (``BoardScores``) for the score
cards, the player pages and the reports.

A player who sits out boards (a bye, or the fifth chair at a table of five) scores their own
average on them: their percentage is over the boards they played, and raw and datum totals are
scaled up to the full number of boards, so sitting out neither helps nor hurts.

A process follows the events it computed (``evaluate``): it keeps what it read and the engine's
``Memo``, and the next computation reads only the results that came and went (a correction adds a
version and clears the old one's flag) and compares only their boards again. Anything else the
standings read must be as it was (``_stamp``), or the whole event is read again.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import json
import logging
import threading
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from operator import itemgetter
from typing import Any, NamedTuple

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext_noop

from tournaments.game import (
    Artificial,
    ArtificialScores,
    Award,
    BoardScore,
    EngineError,
    Method,
    ScoredBye,
    SeatEntry,
    TableResult,
    Weighted,
    comparison,
)
from tournaments.game import standings as engine_standings
from tournaments.models import (
    AuditAction,
    AuditEntry,
    BoardScores,
    Entry,
    Event,
    Penalty,
    Result,
    Round,
    Seating,
    SitOutScore,
    Standings,
    Table,
    TableBoard,
)
from tournaments.services import pacing, published
from tournaments.services.seating import holders, sitting_out

logger = logging.getLogger(__name__)

SEATS = ("N", "E", "S", "W")
AWARD_NAMES = frozenset(award.value for award in Award)


class BadRecordError(Exception):
    """A record the standings leave out: ``message`` (untranslated) says what is wrong with it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _problem(
    result: int, board: int, table: int, round_number: int, message: str
) -> dict[str, Any]:
    return {
        "result": result,
        "board": board,
        "table": table,
        "round": round_number,
        "message": message,
    }


Four = tuple[Any, Any, Any, Any]


def _seat_values(
    kind: str,
    scores: tuple[int, int, int, int],
    data: Any,
    extra: dict[str, int] | None,
    awards: ArtificialScores,
) -> tuple[Four, Four]:
    """Each seat's compared value and shown score for one result (``None`` for an absentee).

    Raises ``KeyError``, ``TypeError``, ``ValueError`` and the like on data that cannot be read.
    """
    entries: list[SeatEntry] = []
    shown: list[int | None] = []
    for index, seat in enumerate(SEATS):
        if kind == Result.Kind.WEIGHTED:
            outcomes = [
                (
                    Fraction(item["weight"]),
                    Fraction(item["scores"][index]) + (extra[seat] if extra else 0),
                )
                for item in data.get("weighted", [])
            ]
            weighted = Weighted(tuple(outcomes))
            entries.append(weighted)
            shown.append(round(weighted.expected_score))
        elif kind == Result.Kind.ARTIFICIAL:
            award = data.get("awards", {}).get(seat, "average")
            # An absentee's seat (``None``): no score on this board, not counted at all.
            entries.append(
                None
                if award is None
                else awards.artificial(Award(award))
                if award in AWARD_NAMES
                else Artificial(Fraction(award))
            )
            shown.append(None)
        else:
            score = scores[index] + (extra[seat] if extra else 0)
            entries.append(score)
            shown.append(score)
    return (entries[0], entries[1], entries[2], entries[3]), (
        shown[0],
        shown[1],
        shown[2],
        shown[3],
    )


@dataclass
class _Tables:
    """The started rounds' tables: who sits where, which boards each plays, who has a bye."""

    started: list[int]
    seats: dict[int, dict[str, int | None]] = field(default_factory=lambda: defaultdict(dict))
    info: dict[int, tuple[int, int]] = field(default_factory=dict)  # table -> (round, number)
    byes: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    positions: dict[tuple[int, int], int] = field(default_factory=dict)
    expected: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    boards_in_round: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    round_boards: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    _seated: dict[tuple[int, int], tuple[Four, int | None] | str] = field(default_factory=dict)

    def seated(self, table_id: int, place: int, known: set[int]) -> tuple[Four, int | None]:
        """N, E, S, W's players on the ``place``-th board of a table (tables of five rotate), and
        the registered player who sits it out, if any; ``BadRecordError`` when the seating does
        not seat that board. Worked out once for a table of four, once a board at a table of five
        (whose players take turns to sit out)."""
        table_seats = self.seats[table_id]
        key = (table_id, place if len(table_seats) > len(SEATS) else 0)
        found = self._seated.get(key)
        if found is None:
            found = self._seat(table_id, place, known)
            self._seated[key] = found
        if isinstance(found, str):
            raise BadRecordError(found)
        return found

    def _seat(self, table_id: int, place: int, known: set[int]) -> tuple[Four, int | None] | str:
        table_seats = self.seats[table_id]
        if any(seat not in table_seats for seat in SEATS):
            return gettext_noop("a seat of the table has nobody in the seating")
        round_number = self.info[table_id][0]
        at_table = holders(table_seats, place, round_number)
        players = (at_table["N"], at_table["E"], at_table["S"], at_table["W"])
        if any(number is not None and number not in known for number in players):
            return gettext_noop("a player of the table is not registered")
        sitter = sitting_out(table_seats, place, round_number)
        return players, sitter if sitter is not None and sitter in known else None


# The queries below ask for no order, or their own: the models' default orderings join the event
# (and the tables and rounds) only to sort thousands of rows nobody reads in order.
def _started(event: Event) -> list[int]:
    """The numbers of the rounds that have started."""
    started = event.round_set.exclude(status=Round.Status.PLANNED)
    return list(started.values_list("number", flat=True).order_by("number"))


def _entries(event: Event) -> list[tuple[int, str, str]]:
    """Each entry's number, role and status, by number."""
    return list(event.entries.values_list("number", "role", "status").order_by("number"))


def _tables(event: Event) -> _Tables:
    tables = _Tables(_started(event))
    for table_id, round_number, table_number, seat, entry_number, ruling in (
        Seating.objects.filter(round__event=event, round__number__in=tables.started)
        .values_list(
            "table_id", "round__number", "table__number", "seat", "entry__number", "table__ruling"
        )
        .order_by()
    ):
        # A table that sits out (a no-show nobody replaced) plays nothing: the players present
        # have a bye, the absentee (a vacant seat, no entry) nothing.
        if seat == Seating.Seat.BYE or ruling == Table.Ruling.SIT_OUT:
            if entry_number is not None:
                tables.byes[round_number].append(entry_number)
            continue
        tables.seats[table_id][seat] = entry_number  # None: a vacant seat
        tables.info[table_id] = (round_number, table_number)
    for table_id, board_id, board_number, position in (
        TableBoard.objects.filter(table_id__in=list(tables.seats))
        .values_list("table_id", "board_id", "board__number", "position")
        .order_by()
    ):
        tables.positions[table_id, board_id] = position
        tables.expected[board_number] += 1
        round_number = tables.info[table_id][0]
        tables.boards_in_round[round_number] = max(tables.boards_in_round[round_number], position)
        tables.round_boards[round_number].add(board_number)
    return tables


def _byes(
    event: Event,
    tables: _Tables,
    sat_out: dict[int, dict[int, int]],
    awards: ArtificialScores,
    problems: list[dict[str, Any]],
) -> list[ScoredBye]:
    """The scored byes; an unscored bye counts as the player's own average (boards sat out)."""
    bye_awards: dict[tuple[int, int], Award] = {}
    for pk, number, round_number, name in SitOutScore.objects.filter(event=event).values_list(
        "pk", "entry__number", "round_number", "award"
    ):
        if name not in AWARD_NAMES:
            problems.append(
                {
                    "bye_score": pk,
                    "entry": number,
                    "round": round_number,
                    "message": gettext_noop("the score for the bye is not one Troef knows"),
                }
            )
            continue
        bye_awards[number, round_number] = Award(name)
    scored = []
    for round_number, numbers in tables.byes.items():
        for number in numbers:
            award = bye_awards.get((number, round_number))
            if award is None:
                sat_out[number][round_number] = tables.boards_in_round.get(
                    round_number, event.boards_per_round
                )
                continue
            boards = tuple(sorted(tables.round_boards[round_number]))
            scored.append(ScoredBye(number, round_number, boards, awards.percentage(award)))
    return scored


def _board_penalties(
    event: Event, problems: list[dict[str, Any]]
) -> dict[tuple[int, int], dict[str, int]]:
    """Board penalties move points between a table's players before the comparison."""
    penalties: dict[tuple[int, int], dict[str, int]] = defaultdict(lambda: dict.fromkeys(SEATS, 0))
    for pk, table_id, board_id, table_number, board_number, points in Penalty.objects.filter(
        event=event, is_active=True, board__isnull=False
    ).values_list("pk", "table_id", "board_id", "table__number", "board__number", "points"):
        try:
            amounts = {seat: int(amount) for seat, amount in points.get("seats", {}).items()}
        except (TypeError, ValueError, AttributeError, OverflowError):
            problems.append(
                {
                    "penalty": pk,
                    "board": board_number,
                    "table": table_number,
                    "message": gettext_noop("the penalty's points cannot be read"),
                }
            )
            continue
        for seat, amount in amounts.items():
            penalties[table_id, board_id][seat] += amount
    return penalties


def _fines(event: Event) -> dict[int, Fraction]:
    """Fines come off a player's total after the comparison."""
    fines: dict[int, Fraction] = defaultdict(Fraction)
    for number, fine in Penalty.objects.filter(
        event=event, is_active=True, board__isnull=True
    ).values_list("offender__number", "fine"):
        fines[number] += Fraction(fine or 0)  # never empty: a fine has its amount
    return {number: fine for number, fine in fines.items() if fine}


@dataclass
class _Inputs:
    """Everything the standings read but the results: the tables, players, byes and penalties."""

    tables: _Tables
    entries: list[tuple[int, str, str]]
    known: set[int]
    awards: ArtificialScores
    byes: list[ScoredBye]
    sat_out: dict[int, dict[int, int]]  # the unscored byes' boards
    penalties: dict[tuple[int, int], dict[str, int]]
    fines: dict[int, Fraction]
    before: list[dict[str, Any]]  # the byes' and board penalties' problems


def _inputs(event: Event) -> _Inputs:
    tables = _tables(event)
    entries = _entries(event)
    sat_out: dict[int, dict[int, int]] = defaultdict(dict)
    awards = ArtificialScores()
    before: list[dict[str, Any]] = []
    byes = _byes(event, tables, sat_out, awards, before)
    penalties = _board_penalties(event, before)
    return _Inputs(
        tables,
        entries,
        {number for number, _role, _status in entries},
        awards,
        byes,
        sat_out,
        penalties,
        _fines(event),
        before,
    )


class _Row(NamedTuple):
    """One current result as the standings count it: its record, or the problem that leaves it
    out; and who sits out the board at a table of five (player, round)."""

    result: TableResult | None = None
    problem: dict[str, Any] | None = None
    sitter: tuple[int, int] | None = None


_LEFT_OUT = _Row()  # a result of a table that plays no started round: not counted, not a problem

_ROW_FIELDS = ("pk", "table_id", "board_id", "board__number", "kind", "score_n", "score_e",
               "score_s", "score_w")  # fmt: skip


def _rows(event: Event, inputs: _Inputs, only: Iterable[int] | None = None) -> dict[int, _Row]:
    """The event's current results (or the results ``only`` names), each as the standings count it."""
    rows = Result.objects.filter(event=event)
    rows = rows.filter(is_current=True) if only is None else rows.filter(pk__in=list(only))
    # Only adjusted scores need their JSON data; decoding it for 20,000 played boards costs time.
    adjusted_data = dict(rows.exclude(kind=Result.Kind.PLAYED).values_list("pk", "data"))
    out: dict[int, _Row] = {}
    for pk, table_id, board_id, board_number, kind, *scores in rows.values_list(
        *_ROW_FIELDS
    ).order_by():
        if table_id not in inputs.tables.seats:
            out[pk] = _LEFT_OUT
            continue
        out[pk] = _row(
            inputs,
            pk,
            table_id,
            board_id,
            board_number,
            kind,
            (scores[0], scores[1], scores[2], scores[3]),
            adjusted_data.get(pk, {}),
        )
    return out


def _row(
    inputs: _Inputs,
    pk: int,
    table_id: int,
    board_id: int,
    board_number: int,
    kind: str,
    scores: tuple[int, int, int, int],
    data: Any,
) -> _Row:
    tables = inputs.tables
    round_number, table_number = tables.info[table_id]
    place = tables.positions.get((table_id, board_id))
    # One bad row is left out and named; the rest of the event is still ranked.
    try:
        if place is None:
            raise BadRecordError(gettext_noop("the table does not play this board in the seating"))
        players, sitter = tables.seated(table_id, place, inputs.known)
        extra = inputs.penalties.get((table_id, board_id))
        if kind == Result.Kind.PLAYED and extra is None:
            result = TableResult.played(
                pk, round_number, table_number, board_number, players, scores
            )
        else:
            seat_entries, shown = _seat_values(kind, scores, data, extra, inputs.awards)
            result = TableResult(
                pk,
                round_number,
                table_number,
                board_number,
                players,
                seat_entries,
                shown,
                None if kind == Result.Kind.ARTIFICIAL else scores,
            )
    except BadRecordError as bad:
        return _Row(problem=_problem(pk, board_number, table_number, round_number, bad.message))
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError):
        return _Row(
            problem=_problem(
                pk,
                board_number,
                table_number,
                round_number,
                gettext_noop("the result's data cannot be read"),
            )
        )
    return _Row(result) if sitter is None else _Row(result, sitter=(sitter, round_number))


def _field(
    event: Event, inputs: _Inputs, rows: Mapping[int, _Row], problems: list[dict[str, Any]]
) -> engine_standings.Field:
    """The engine's field of the inputs and the counted rows; the problems of both in ``problems``
    (the byes' and penalties', then the results' by result)."""
    sat_out: dict[int, dict[int, int]] = defaultdict(dict)
    for number, rounds in inputs.sat_out.items():
        sat_out[number].update(rounds)
    results = []
    for row in rows.values():
        if row.result is not None:
            results.append(row.result)
        if row.sitter is not None:
            sitter, round_number = row.sitter
            sat_out[sitter][round_number] = sat_out[sitter].get(round_number, 0) + 1
    problems.extend(inputs.before)
    problems.extend(
        sorted(
            (row.problem for row in rows.values() if row.problem is not None),
            key=itemgetter("result"),
        )
    )
    entries = inputs.entries
    return engine_standings.Field(
        method=Method(event.comparison),
        players=tuple(number for number, _role, _status in entries),
        results=tuple(results),
        expected=dict(inputs.tables.expected),
        rounds=tuple(sorted(inputs.tables.started)),
        sat_out=sat_out,
        byes=tuple(inputs.byes),
        fines=inputs.fines,
        tie_break=comparison.check_tie_break_order(event.tie_break or ["total"]),
        unranked=frozenset(
            number for number, role, _status in entries if role == Entry.Role.SUBSTITUTE
        ),
        withdrawn=frozenset(
            number for number, _role, status in entries if status != Entry.Status.ACTIVE
        ),
    )


def gather(event: Event, problems: list[dict[str, Any]] | None = None) -> engine_standings.Field:
    """The event as the engine's standings read it: one query per kind of record.

    Records that cannot be counted are left out and described in ``problems``.
    """
    inputs = _inputs(event)
    return _field(event, inputs, _rows(event, inputs), [] if problems is None else problems)


# -- following the results between computations -------------------------------------------------

# What an audit entry of these actions changes is a result's version (or nothing the standings
# read): any other entry of the event means the standings are computed afresh.
RESULT_ACTIONS = frozenset(
    {
        AuditAction.RESULT_RECORD,
        AuditAction.RESULT_CORRECT,
        AuditAction.RESULT_CONFIRM,
        AuditAction.RESULT_CONFIRM_AT_TABLE,
        AuditAction.RESULT_KEYING_DIFFERS,
        AuditAction.RESULT_KEEP_KEYING,
        AuditAction.RESULT_SHEET,
        AuditAction.RESULT_SHEET_ACCEPT,
        AuditAction.REPORT_REQUEST,
        AuditAction.REPORT_REGENERATE,
        AuditAction.ANALYSIS_QUEUE,
        AuditAction.ROUND_DEVICE_KEYS,
        AuditAction.ROUND_DEVICE_PINS,
    }
)


def _stamp(event: Event) -> tuple[Any, ...]:
    """What the event's standings read besides the results, in a few small queries.

    Equal stamps mean equal inputs: the event's settings, the started rounds, the players, the
    scores for byes and the penalties are read whole; the seating, the tables and the boards they
    play change only through services that write an audit entry (the admin only shows them), so
    the set of the event's audit entries other than results' stands for them, with their counts.
    A set, not the highest id: an entry may commit after one with a higher id.
    """
    structure = [
        model.objects.filter(**{path: event}).aggregate(n=Count("pk"), ids=Sum("pk"))
        for model, path in ((Seating, "round__event"), (Table, "round__event"),
                            (TableBoard, "table__round__event"))
    ]  # fmt: skip
    return (
        event.pk,
        event.created,
        event.comparison,
        event.tie_break,
        event.boards_per_round,
        _started(event),
        _entries(event),
        list(SitOutScore.objects.filter(event=event).values_list("pk", "entry_id", "round_number",
                                                                 "award").order_by("pk")),
        list(Penalty.objects.filter(event=event).values_list("pk", "is_active", "table_id",
                                                             "board_id", "offender_id", "points",
                                                             "fine")),
        frozenset(
            AuditEntry.objects.filter(event=event)
            .exclude(action__in=RESULT_ACTIONS)
            .values_list("pk", flat=True)
            .order_by()
        ),
        structure,
    )  # fmt: skip


@dataclass
class _Followed:
    """An event's standings inputs as one computation in this process read them, with what the
    engine and the stored board scores can reuse; ``stamp`` says what they reflect."""

    stamp: tuple[Any, ...]
    inputs: _Inputs
    rows: dict[int, _Row]
    memo: engine_standings.Memo = field(default_factory=engine_standings.Memo)
    lines: engine_standings.LineMemo = field(default_factory=dict)
    shown: dict[int, tuple[Fraction, str]] = field(default_factory=dict)


_followed: dict[int, _Followed] = {}
_following = threading.Lock()
FOLLOWED_EVENTS = 4  # events whose inputs a worker process keeps between computations
FOLLOWED_NEW_ROWS = 2000  # new results read one by one at most; beyond, the whole event is read


def _take_followed(event_id: int) -> _Followed | None:
    # Taken out while in use: a computation that fails leaves nothing behind to be trusted.
    with _following:
        return _followed.pop(event_id, None)


def _keep_followed(event_id: int, followed: _Followed) -> None:
    with _following:
        _followed[event_id] = followed
        while len(_followed) > FOLLOWED_EVENTS:
            del _followed[next(iter(_followed))]


def forget(event_id: int | None = None) -> None:
    """Drop what this process keeps of an event's inputs (of every event without ``event_id``)."""
    with _following:
        if event_id is None:
            _followed.clear()
        else:
            _followed.pop(event_id, None)


def _follow(event: Event, followed: _Followed) -> bool:
    """Bring ``followed`` up to the event's current results; ``False`` if anything else changed.

    Corrections add a version and clear the old one's flag, so the current results differ from
    the last ones by the ids that came and went: only the new rows are read. The stamp is read
    after them, so that equal stamps vouch for the inputs the new rows were read against.
    """
    current = _current_ids(event)
    rows = followed.rows
    new = current.difference(rows)
    if len(new) > FOLLOWED_NEW_ROWS:
        return False  # as many new results as that are read faster with the whole event
    gone = rows.keys() - current
    fresh = _rows(event, followed.inputs, new) if new else {}
    if _stamp(event) != followed.stamp:
        return False
    for pk in gone:
        del rows[pk]
    rows.update(fresh)
    return len(fresh) == len(new)  # a row gone meanwhile: read afresh


def _current_ids(event: Event) -> set[int]:
    """The ids of the event's current results, read as bare rows: Django's iteration would cost
    more than the query for the 20,000 results of a large event, read at every computation."""
    query = Result.objects.filter(event=event, is_current=True).values_list("pk").order_by()
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {pk for (pk,) in cursor.fetchall()}


def evaluate(
    event: Event, problems: list[dict[str, Any]] | None = None, *, follow: bool = False
) -> engine_standings.Standings:
    """The event's standings as the engine's typed result (nothing stored in the database).

    The same as comparing the whole event afresh (``gather``, then ``engine.standings``). With
    ``follow`` (the worker's computations) this process keeps what it read and compared, and the
    next such call for the event reads only the results that changed and compares only their
    boards again, when nothing else changed. Web processes do not follow events: what a large
    event keeps (about 120 MB for 1,000 players) is for the worker that computes it.
    """
    started = time.monotonic()
    followed = _take_followed(event.pk) if follow else None
    with _no_collection():
        whole = followed is None or not _follow(event, followed)
        if followed is None or whole:
            # The stamp, read before the inputs (a change in between is seen next time), tells
            # the next computation whether it may follow on; one that is not kept needs none.
            stamp = _stamp(event) if follow else ()
            inputs = _inputs(event)
            followed = _Followed(stamp, inputs, _rows(event, inputs))
        field_ = _field(event, followed.inputs, followed.rows, [] if problems is None else problems)
        outcome = engine_standings.standings(field_, followed.memo)
    if follow:
        _keep_followed(event.pk, followed)
    logger.info(
        "standings of event %s compared in %.3f s (%s)",
        event.pk,
        time.monotonic() - started,
        "the whole event read" if whole else "the changed results read",
    )
    return outcome


def _kept(event_id: int) -> _Followed | None:
    """What this process keeps of the event, if it follows it (not taken out)."""
    with _following:
        return _followed.get(event_id)


@contextlib.contextmanager
def _no_collection(*, keep: bool = False) -> Iterator[None]:
    """Python's cycle collector paused: a computation allocates some hundred thousand objects that
    live until it ends, and the collector would walk them again and again (a third of the time).

    With ``keep`` (a worker's computation, whose inputs and board scores the process keeps for the
    next one) what is alive at the end is moved out of the collector's sight (``gc.freeze``)
    instead of being walked three times as it ages: some 60-90 ms a computation for 1,000
    players, spent before the next computation can start. Kept objects are still freed when the
    last reference to them goes. The few reference cycles that become garbage meanwhile (a
    handful of objects a computation) are collected every ``THAW_EVERY`` computations, when
    everything frozen is handed back and the collector walks the whole process once.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if keep and enabled:
            _keep_out_of_collection()
        if enabled:
            gc.enable()


THAW_EVERY = 200
_frozen = 0
_freezing = threading.Lock()


def _keep_out_of_collection() -> None:
    global _frozen
    with _freezing:
        _frozen += 1
        if _frozen < THAW_EVERY:
            gc.freeze()
            return
        _frozen = 0
        gc.unfreeze()
        gc.collect()


def decimals(event: Event) -> int:
    """Decimals the standings show: percentages to two, points whole."""
    return engine_standings.decimals(event.comparison)


def serialise(
    event: Event,
    outcome: engine_standings.Standings,
    problems: list[Any],
    shown: dict[int, tuple[Fraction, str]] | None = None,
) -> dict[str, Any]:
    """The standings as the JSON document pages, the CSV and the API read.

    ``shown`` (the worker's, kept with what it follows) holds the figures shown last time by
    the identity of their values: a round's figure that the engine kept is not formatted again.
    """
    names = {
        number: (f"{first} {last}".strip(), club or "", status)
        for number, first, last, club, status in event.entries.values_list(
            "number", "player__first_name", "player__last_name", "player__club__name", "status"
        )
    }
    places = outcome.places
    display = comparison.display
    before = {} if shown is None else shown
    now: dict[int, tuple[Fraction, str]] = {}

    def show(value: Fraction) -> str:
        found = before.get(id(value))
        # The value is held with its text, so its id is not another value's meanwhile.
        if found is None or found[0] is not value:
            found = (value, display(value, places))
        now[id(value)] = found
        return found[1]

    # Each player's place after each round, for the chart of places on the player's page.
    progress: dict[int, dict[str, str]] = defaultdict(dict)
    for number, placings in outcome.after_round.items():
        for placing in placings:
            progress[int(placing.record.player)][str(number)] = placing.label
    rows = []
    for placing in outcome.placings:
        record = placing.record
        number = int(record.player)
        line = outcome.players[number]
        name, club, status = names[number]
        rows.append(
            {
                "place": placing.label,
                "entry": number,
                "name": name,
                "club": club,
                "withdrawn": status != Entry.Status.ACTIVE,
                "total": display(record.total, places),
                "rounds": {str(r): show(v) for r, v in line.rounds.items()},
                "boards": record.boards,
                "sat_out": line.sat_out,
                "raw_total": display(record.raw_total, 0),
                "fines": display(line.fine, places) if line.fine else "",
                "decided_by": placing.decided_by,
                "places": progress[number],
            }
        )
    for number in outcome.waiting:
        name, club, _status = names[number]
        rows.append(
            {"place": "", "entry": number, "name": name, "club": club, "withdrawn": False,
             "total": "", "rounds": {}, "boards": 0, "sat_out": outcome.players[number].sat_out,
             "raw_total": "", "fines": "", "decided_by": None, "places": progress[number]}
        )  # fmt: skip
    if shown is not None:
        shown.clear()
        shown.update(now)
    return {
        "method": str(outcome.method),
        "rounds": list(outcome.rounds),
        "rows": rows,
        "results": outcome.results,
        # Records left out because they cannot be read; the TD's event page lists them.
        "problems": problems,
    }


def compute(event: Event) -> dict[str, Any]:
    """The standings of an event as a JSON-ready document."""
    problems: list[dict[str, Any]] = []
    # The collector resumes once the engine's outcome is gone (it dies when ``serialise``
    # returns, by reference counting): it then walks the document, not every board score.
    with _no_collection():
        document = serialise(event, evaluate(event, problems), problems)
    return document


def failure(exc: Exception) -> dict[str, str]:
    """Why the stored standings are not current: a message for the pages and the error itself."""
    return {
        "message": gettext_noop("computing them failed; the tournament director has been told"),
        "detail": f"{type(exc).__name__}: {exc}"[:300],
        "at": timezone.now().isoformat(),
    }


def refresh(event_id: int) -> int | None:
    """Recompute and store if the stored standings are older than the latest request.

    Saves never wait for a computation: each save bumps ``requested`` on the standings row, and
    the computation reads that row without locking it, computes, and locks it only to write. Two
    workers do not compute one event at once: the event's board-scores row is the computation's
    own lock, which saves never touch, so a second worker waits there, then finds the standings
    already cover its request and returns. The public figures are committed first; every
    player's board scores follow in a second write, so that they never delay the standings.
    """
    if not Event.objects.filter(pk=event_id).exists():
        return None  # the event is gone
    # Made once per event; asking whether it exists reads no column (the board scores of a large
    # event are megabytes).
    if not BoardScores.objects.filter(event_id=event_id).exists():
        BoardScores.objects.get_or_create(event_id=event_id)
    if not Standings.objects.filter(event_id=event_id).exists():
        Standings.objects.get_or_create(event_id=event_id, defaults={"requested": 1})
    # Python's collector stays paused to the end: a computation leaves some hundred thousand new
    # objects. A worker keeps them out of the collector's walks; a web process (where jobs run
    # in the request when there is no broker) leaves them to the collector, as a freeze there
    # would also keep the garbage of the requests it serves meanwhile.
    with _no_collection(keep=not settings.CELERY_TASK_ALWAYS_EAGER):
        computed = _compute_and_store(event_id)
        if not isinstance(computed, tuple):
            return computed
        event, state, outcome, covered = computed
        # Encoded once for every web process that serves the public standings.
        published.publish(event.slug, state)
        # Under a burst of saves the next run is already asked for: it stores the boards instead,
        # and a reader in between compares afresh, so the standings never wait on this write.
        computed_at = state.computed_at
        if computed_at is not None and not (
            Standings.objects.filter(pk=state.pk, requested__gt=covered).exists()
        ):
            store_board_scores(event, outcome, computed_at)
        # What the computation replaced is freed now that its standings are out: tens of thousands
        # of objects for a large event, whose freeing would otherwise delay the commit.
        if (kept := _kept(event_id)) is not None:
            kept.memo.release()
    return covered


def _compute_and_store(
    event_id: int,
) -> tuple[Event, Standings, engine_standings.Standings, int] | int | None:
    """``refresh``'s computation and its write: what it stored, or what ``refresh`` returns when
    nothing was to be stored (the request covered already, or the computation failed)."""
    # The stored figures are not read: only what says whether they are behind.
    rows = Standings.objects.filter(event_id=event_id).defer("data")
    with transaction.atomic():
        # The lock, without reading the megabytes of board scores the row holds.
        BoardScores.objects.select_for_update().filter(event_id=event_id).values_list(
            "pk", flat=True
        ).first()
        state = rows.get()
        if state.computed >= state.requested and state.computed_at is not None:
            return state.computed
        # Every save counted in ``requested`` has committed its result: the queries below see it.
        covered = state.requested
        event = Event.objects.get(pk=event_id)
        started = time.monotonic()
        problems: list[dict[str, Any]] = []
        try:
            outcome = evaluate(event, problems, follow=True)
            kept = _kept(event_id)
            data = serialise(event, outcome, problems, kept.shown if kept is not None else None)
        except DatabaseError:
            raise  # a lock timeout or a lost connection: the task retries
        except Exception as exc:
            # A fault in the computation never freezes the pages silently: the last good standings
            # stay, marked not current with the reason, and ``computed`` stays behind so that the
            # next request (or the catch-up) tries again.
            logger.exception("standings of event %s could not be computed", event_id)
            state = Standings.objects.select_for_update().get(pk=state.pk)
            state.data = {**state.data, "failure": failure(exc)}
            state.save(update_fields=["data"])
            return None
        # The row is locked from here to the commit: a save that bumps ``requested`` meanwhile
        # waits for this one write, not for the computation.
        state = rows.select_for_update().get()
        state.data = data
        state.computed = covered
        state.computed_at = timezone.now()
        state.save(update_fields=["data", "computed", "computed_at"])
    pacing.record(event_id, time.monotonic() - started)
    return event, state, outcome, covered


def store_board_scores(
    event: Event,
    outcome: engine_standings.Standings,
    computed_at: dt.datetime,
) -> None:
    """Keep every player's compared boards for the standings computed at ``computed_at``.

    Two workers may finish out of order: a write never replaces board scores of later standings.
    The lines of boards encoded for the last write of the event are reused where they hold.
    """
    with _no_collection():
        text = engine_standings.board_scores_text(
            {number: line.boards for number, line in outcome.players.items()},
            kept.lines if (kept := _kept(event.pk)) is not None else None,
        )
    if not BoardScores.objects.filter(event=event).exists():
        BoardScores.objects.get_or_create(event=event)
    BoardScores.objects.filter(event=event).filter(
        Q(computed_at__isnull=True) | Q(computed_at__lt=computed_at)
    ).update(computed_at=computed_at, data=text)


def board_scores(
    event: Event, only: Iterable[int] | None = None
) -> Mapping[int, tuple[BoardScore, ...]]:
    """Every player's compared boards (or ``only`` those players'), by player number.

    Read from what the standings stored when they are current; otherwise compared afresh (and
    nothing is stored), so a page or a document never shows boards the standings do not count.
    """
    state = (
        Standings.objects.filter(event=event)
        .values_list("computed", "requested", "computed_at")
        .first()
    )
    if state is not None and state[0] >= state[1] and state[2] is not None:
        stored = (
            BoardScores.objects.filter(event=event, computed_at=state[2])
            .values_list("data", flat=True)
            .first()
        )
        if stored:
            try:
                return engine_standings.board_scores_from_json(json.loads(stored), only)
            except (ValueError, TypeError, EngineError):
                logger.exception("the stored board scores of event %s cannot be read", event.pk)
    outcome = evaluate(event)
    wanted = None if only is None else set(only)
    return {
        number: line.boards
        for number, line in outcome.players.items()
        if wanted is None or number in wanted
    }

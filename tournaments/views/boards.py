"""The public page of one board: every table's result side by side with its comparison.

What a club pins up as the traveller after the session. A board is shown only once every table
that plays it has played it (its round closed): before that, its results would tell the tables
still to play it how it went elsewhere (the rule of ``services.player_results``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments import charts
from tournaments.game import PAIRING_NAMES, BoardResult, BoardTable, EngineError, comparison
from tournaments.game import SEAT_LETTERS as SEATS
from tournaments.game import SEATS as SEAT_ORDER
from tournaments.models import Board, Event, Result, Round, TableBoard
from tournaments.services import analysis, standings
from tournaments.services.results import describe, stored_result
from tournaments.templatetags.troef import decimal
from tournaments.views.public import LARGEST_NUMBER, _event


@dataclass(frozen=True)
class SeatLine:
    seat: str
    number: int | None
    name: str
    score: int | None
    percentage: Decimal | None


@dataclass
class TableLine:
    round: int
    table: int
    result: str = ""
    seats: dict[str, SeatLine] = field(default_factory=dict)
    double_dummy: str = ""  # tricks taken against double dummy: "+1", "−2", "="

    def seat_lines(self) -> list[SeatLine | None]:
        return [self.seats.get(seat) for seat in SEATS]


@require_GET
def board_results(request: HttpRequest, slug: str, board_number: int) -> HttpResponse:
    event = _event(slug)
    if board_number > LARGEST_NUMBER:
        raise Http404("no such board")
    board = get_object_or_404(Board, event=event, number=board_number)
    rounds = set(
        TableBoard.objects.filter(board=board).values_list("table__round__status", flat=True)
    )
    played = bool(rounds) and rounds <= {Round.Status.CLOSED}
    table, failed = analysis.analysis_of(board) if played else (None, False)
    lines = _lines(event, board, table) if played else []
    numbers = list(event.boards.order_by("number").values_list("number", flat=True))
    at = numbers.index(board.number)
    context = {
        "event": event,
        "board": board,
        "played": played,
        "scheduled": bool(rounds),
        "lines": lines,
        "seats": SEATS,
        "charts": _charts(board, lines) if lines else [],
        "previous": numbers[at - 1] if at > 0 else None,
        "next": numbers[at + 1] if at + 1 < len(numbers) else None,
        "double_dummy": _double_dummy(table) if table is not None else None,
        "analysis_failed": failed,
        # Without a background worker (a laptop's `make run`) no analysis is ever queued.
        "analysis_runs": not settings.CELERY_TASK_ALWAYS_EAGER,
    }
    return render(request, "tournaments/board.html", context)


def _double_dummy(table: BoardTable) -> dict[str, Any]:
    """The board's double-dummy table as the page lays it out, strains in the table's order."""
    return {
        "first_leader": table.first_leader.name,
        "pairs": list(zip(PAIRING_NAMES, table.pairs, strict=True)),
        "alone": [
            (
                seat.name,
                table.first_lead_left[seat.value],
                table.first_lead_self[seat.value],
                seat is table.first_leader,
            )
            for seat in SEAT_ORDER
        ],
        "misere": [(seat.name, table.misere(seat), table.piccolo(seat)) for seat in SEAT_ORDER],
    }


def _lines(event: Event, board: Board, known: BoardTable | None = None) -> list[TableLine]:
    """Each table's current result on the board, its players and each seat's comparison, and
    its tricks against double dummy when the board's table is stored."""
    names = {
        number: f"{first} {last}".strip()
        for number, first, last in event.entries.values_list(
            "number", "player__first_name", "player__last_name"
        )
    }
    tables: dict[tuple[int, int], TableLine] = {}
    for result in Result.objects.filter(event=event, board=board, is_current=True).select_related(
        "table__round"
    ):
        table = result.table
        key = (table.round.number, table.number)
        tables[key] = TableLine(key[0], key[1], describe(result))
        if known is not None:
            tables[key].double_dummy = _against_double_dummy(known, result, event.game)
    for number, boards in standings.board_scores(event).items():
        for item in boards:
            key = (item.round, item.table)
            if item.board != board.number or item.seat not in SEATS or key not in tables:
                continue
            tables[key].seats[item.seat] = SeatLine(
                item.seat,
                number,
                names.get(number, ""),
                item.score,
                Decimal(comparison.display(item.percentage, 2)),
            )
    return [tables[key] for key in sorted(tables)]


def _against_double_dummy(table: BoardTable, row: Result, game: str) -> str:
    """The result's tricks against double dummy for its side, strain and lead ("" if none)."""
    if row.kind != Result.Kind.PLAYED:
        return ""
    try:
        result = stored_result(row)
    except (EngineError, ValueError):
        return ""
    makeable = analysis.double_dummy_tricks(table, result, game)
    if makeable is None or not isinstance(result, BoardResult) or result.tricks is None:
        return ""
    return analysis.difference_text(result.tricks - makeable)


def _charts(board: Board, lines: list[TableLine]) -> list[tuple[str, SafeString]]:
    """One chart per seat: each table's percentage as a bar, its score beside it."""
    several_rounds = len({line.round for line in lines}) > 1
    out = []
    for seat in SEATS:
        bars = []
        for line in lines:
            held = line.seats.get(seat)
            if held is None or held.percentage is None:
                continue
            label = (
                _("R%(round)s T%(table)s") % {"round": line.round, "table": line.table}
                if several_rounds
                else _("Table %(table)s") % {"table": line.table}
            )
            score = "–" if held.score is None else str(held.score)
            bars.append(
                charts.Bar(label, float(held.percentage), f"{score} · {decimal(held.percentage)} %")
            )
        if not bars:
            continue
        out.append(
            (
                seat,
                charts.bar_chart(
                    f"board-{board.number}-{seat}",
                    _("Board %(board)s, seat %(seat)s: each table's score and percentage")
                    % {"board": board.number, "seat": seat},
                    _(
                        "%(count)s tables compared on seat %(seat)s; each bar is a table's "
                        "percentage, with its score beside it."
                    )
                    % {"count": len(bars), "seat": seat},
                    bars,
                ),
            )
        )
    return out


@dataclass
class DeclarerLine:
    """One player's record as declarer against double dummy."""

    number: int
    name: str
    declared: int = 0
    made: int = 0
    place: int = 0

    @property
    def percentage(self) -> Decimal:
        return Decimal(100 * self.made / self.declared).quantize(Decimal("0.1"))


@require_GET
def double_dummy(request: HttpRequest, slug: str) -> HttpResponse:
    """How often each player, as declarer, took at least the tricks double dummy gives: a
    statistic beside the standings, shown once the event is finished (not a score)."""
    event = _event(slug)
    finished = event.status == Event.Status.FINISHED
    done, total = analysis.progress(event)
    context = {
        "event": event,
        "finished": finished,
        "done": done,
        "total": total,
        "rows": _declarer_lines(event) if finished else [],
    }
    return render(request, "tournaments/double_dummy.html", context)


def _declarer_lines(event: Event) -> list[DeclarerLine]:
    known = analysis.tables(event)
    if not known:
        return []
    # Who sat in each seat of each table on each board, as the standings compared them.
    holders: dict[tuple[int, int, int, str], int] = {}
    for number, boards in standings.board_scores(event).items():
        for item in boards:
            holders[item.round, item.table, item.board, item.seat] = number
    names = {
        number: f"{first} {last}".strip()
        for number, first, last in event.entries.values_list(
            "number", "player__first_name", "player__last_name"
        )
    }
    lines: dict[int, DeclarerLine] = {}
    for contract in analysis.declared(event, known):
        for seat in contract.declarers:
            holder = holders.get((contract.round, contract.table, contract.board, seat))
            if holder is None:
                continue
            line = lines.setdefault(holder, DeclarerLine(holder, names.get(holder, "")))
            line.declared += 1
            line.made += contract.made_makeable
    ranked = sorted(
        lines.values(), key=lambda line: (-line.made / line.declared, -line.declared, line.number)
    )
    for at, line in enumerate(ranked):
        before = ranked[at - 1] if at else None
        same = before is not None and (before.made * line.declared, before.declared) == (
            line.made * before.declared,
            line.declared,
        )
        line.place = before.place if same and before is not None else at + 1
    return ranked

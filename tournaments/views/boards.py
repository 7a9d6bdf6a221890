"""The public page of one board: every table's result side by side with its comparison.

What a club pins up as the traveller after the session. A board is shown only once every table
that plays it has played it (its round closed): before that, its results would tell the tables
still to play it how it went elsewhere (the rule of ``services.player_results``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from engine import comparison
from engine.standings import SEATS
from tournaments import charts
from tournaments.models import Board, Event, Result, Round, TableBoard
from tournaments.services import standings
from tournaments.services.results import describe
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
    lines = _lines(event, board) if played else []
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
    }
    return render(request, "tournaments/board.html", context)


def _lines(event: Event, board: Board) -> list[TableLine]:
    """Each table's current result on the board, its players and each seat's comparison."""
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

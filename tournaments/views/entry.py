"""Entering results from paper score sheets: one page per table and round, keyboard only."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.errors import UserError
from tournaments.models import (
    Board,
    Event,
    Result,
    Round,
    Seating,
    SitOutScore,
    Table,
    TableBoard,
)
from tournaments.services import events, results, seating
from tournaments.views.common import director_required


def _table_context(event: Event, table: Table) -> dict[str, Any]:
    seats = {
        s.seat: s.entry for s in Seating.objects.filter(table=table).select_related("entry__player")
    }
    current = {r.board_id: r for r in Result.objects.filter(table=table, is_current=True)}
    rows = []
    for link in table.table_boards.select_related("board").order_by("position"):
        result = current.get(link.board_id)
        at_table = seating.holders(seats, link.position, table.round.number)
        rows.append(
            {
                "position": link.position,
                "board": link.board,
                "holders": [at_table[s] for s in "NESW"],
                "out": seating.sitting_out(seats, link.position, table.round.number),
                "result": result,
                "version": result.version if result else 0,
            }
        )
    return {"seats": seats, "rows": rows}


@director_required
def round_overview(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)
    # Three queries whatever the number of tables: the boards, the current results, the tables.
    boards: dict[int, list[tuple[int, int]]] = {}
    for table_id, board_id, board_number in (
        TableBoard.objects.filter(table__round=round_)
        .order_by("position")
        .values_list("table_id", "board_id", "board__number")
    ):
        boards.setdefault(table_id, []).append((board_id, board_number))
    entered: dict[int, dict[int, str]] = {}
    for table_id, board_id, status in Result.objects.filter(
        table__round=round_, is_current=True
    ).values_list("table_id", "board_id", "status"):
        entered.setdefault(table_id, {})[board_id] = status
    scored = {
        s.entry_id: s for s in SitOutScore.objects.filter(event=event, round_number=round_.number)
    }
    tables = []
    for table in round_.tables.order_by("number"):
        done = entered.get(table.pk, {})
        played = boards.get(table.pk, [])
        tables.append(
            {
                "table": table,
                "expected": len(played),
                "entered": len(done),
                "unconfirmed": sum(1 for s in done.values() if s == Result.Status.ENTERED),
                "missing": [n for board_id, n in played if board_id not in done],
            }
        )
    byes = [
        {"entry": s.entry, "score": scored.get(s.entry_id)}
        for s in Seating.objects.filter(round=round_, seat=Seating.Seat.BYE)
        .select_related("entry__player")
        .order_by("entry__number")
    ]
    return render(
        request,
        "tournaments/round.html",
        {
            "event": event,
            "round": round_,
            "tables": tables,
            "byes": byes,
            "awards": SitOutScore.Award.choices,
        },
    )


@director_required
def table_entry(request: HttpRequest, event: Event, number: int, table_number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)
    table = get_object_or_404(Table, round=round_, number=table_number)
    next_table = round_.tables.filter(number__gt=table_number).order_by("number").first()
    context = {
        "event": event,
        "round": round_,
        "table": table,
        "next_table": next_table,
        "second": request.GET.get("second") == "1",
        **_table_context(event, table),
    }
    return render(request, "tournaments/table_entry.html", context)


def _payload(request: HttpRequest) -> dict[str, Any]:
    try:
        data = json.loads(request.body or b"{}")
    except json.JSONDecodeError:
        raise UserError(_("The request is not valid JSON."), code="bad_request") from None
    if not isinstance(data, dict):
        raise UserError(_("The request is not valid JSON."), code="bad_request")
    return data


def _error(error: UserError) -> JsonResponse:
    status = 409 if error.code == "conflict" else 400
    return JsonResponse({"error": error.as_dict()}, status=status)


def _board(event: Event, data: dict[str, Any]) -> Board:
    try:
        number = int(data.get("board", 0))
    except (TypeError, ValueError):
        number = 0
    board = Board.objects.filter(event=event, number=number).first()
    if board is None:
        raise UserError(
            _("Board %(n)s is not one of this event's boards.") % {"n": data.get("board")},
            code="bad_request",
            field="board",
        )
    return board


def _version(data: dict[str, Any]) -> int | None:
    if "version" not in data:
        return None
    try:
        return int(data["version"])
    except (TypeError, ValueError):
        raise UserError(
            _("The version must be a whole number."), code="bad_request", field="version"
        ) from None


@director_required
@require_POST
def check_line(request: HttpRequest, event: Event) -> JsonResponse:
    """Score a result line as it is typed, without saving anything."""
    try:
        data = _payload(request)
        checked = results.check(event, _board(event, data), str(data.get("text", "")))
    except UserError as error:
        return _error(error)
    return JsonResponse(
        {
            "scores": dict(zip("NESW", checked.scores, strict=True)),
            "notation": checked.notation,
            "warnings": checked.warnings,
        }
    )


@director_required
@require_POST
def save_line(request: HttpRequest, event: Event, number: int, table_number: int) -> JsonResponse:
    """Record, correct or (when keyed a second time) confirm one board's result at a table."""
    round_ = get_object_or_404(Round, event=event, number=number)
    table = get_object_or_404(Table, round=round_, number=table_number)
    try:
        data = _payload(request)
        board = _board(event, data)
        text = str(data.get("text", ""))
        sheet = data.get("sheet") or None
        if data.get("second"):
            result = results.confirm_result(request.user, table, board, text)
        else:
            result = results.record_result(
                request.user,
                table,
                board,
                text,
                expected_version=_version(data),
                confirmed=bool(data.get("confirmed")),
                reason=str(data.get("reason", "")),
            )
    except UserError as error:
        return _error(error)
    mismatch = results.sheet_mismatch(result, sheet) if sheet else []
    return JsonResponse(
        {
            "version": result.version,
            "notation": result.notation,
            "status": result.status,
            "scores": dict(zip("NESW", result.scores, strict=True)),
            "sheet_mismatch": mismatch,
        }
    )


@director_required
def board_history(
    request: HttpRequest, event: Event, number: int, table_number: int, board_number: int
) -> HttpResponse:
    table = get_object_or_404(Table, round__event=event, round__number=number, number=table_number)
    board = get_object_or_404(Board, event=event, number=board_number)
    players = Seating.objects.filter(table=table).select_related("entry__player").order_by("seat")
    context = {
        "event": event,
        "table": table,
        "board": board,
        "versions": results.history(table, board),
        "players": [s.entry for s in players],
        "penalties": board.penalties.filter(table=table).select_related("offender__player"),
        "penalty_kinds": sorted(events.ruleset_of(event).penalty_options),
        "awards": [
            ("average_plus", "A+ (60%)"),
            ("average", "A (50%)"),
            ("average_minus", "A- (40%)"),
        ],
    }
    return render(request, "tournaments/history.html", context)

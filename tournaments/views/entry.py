"""Entering results from paper score sheets, keyboard only: one page per table, or a whole round.

Enter on a table's last board goes on to the next table; nothing needs the mouse. The pages read
without JavaScript; keying needs it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments import roles
from tournaments.errors import UserError
from tournaments.forms import AWARD_CHOICES
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
from tournaments.services import adjustments, events, results, rounds, seating
from tournaments.views import device
from tournaments.views.common import entry_required, posted_text, show_error


def _table_context(event: Event, table: Table, second: bool) -> dict[str, Any]:
    """One table's rows as the entry pages lay them out: the paper sheet's order and seats."""
    seats = {
        s.seat: s.entry for s in Seating.objects.filter(table=table).select_related("entry__player")
    }
    current = {r.board_id: r for r in Result.objects.filter(table=table, is_current=True)}
    rows = []
    # A table ruled to sit out the round keys nothing: the page says so instead.
    links = table.table_boards.select_related("board").order_by("position")
    if table.ruling == Table.Ruling.SIT_OUT:
        links = links.none()
    for link in links:
        result = current.get(link.board_id)
        at_table = seating.holders(seats, link.position, table.round.number)
        played = result is not None and result.kind == Result.Kind.PLAYED
        paper, table_keying = _keyings(result)
        rows.append(
            {
                "position": link.position,
                "board": link.board,
                "holders": [at_table[s] for s in "NESW"],
                "out": seating.sitting_out(seats, link.position, table.round.number),
                "result": result,
                "version": result.version if result else 0,
                # Shown while keying: a played line as typed, an adjusted score in words. The
                # second keying sees neither, so that it is blind.
                "line": paper if played and not second else "",
                "table_keying": table_keying if not second else "",
                "shown": results.describe(result) if result and not played else "",
                "cells": _cells(result, played and not second),
                "open": result is not None and result.sheet_status == Result.SheetStatus.OPEN,
                "done": result is not None
                and (not second or result.status == Result.Status.CONFIRMED or not played),
            }
        )
    done = sum(1 for row in rows if row["done"])
    return {"table": table, "seats": seats, "rows": rows, "done": done, "missing": len(rows) - done}


def _keyings(result: Result | None) -> tuple[str, str]:
    """The line as keyed from the sheet, and the table's own keying when the two differ.

    A board keyed at the table and from the sheet with two results keeps the first as current
    and the other beside it: the entry page shows the sheet's line, with the table's next to it.
    """
    if result is None:
        return "", ""
    if not result.other_keying:
        return result.notation, ""
    if result.source == Result.Source.DEVICE:
        return result.other_keying, result.notation
    return result.notation, result.other_keying


def _cells(result: Result | None, shown: bool) -> list[dict[str, Any]]:
    """Each seat's column: the points typed from the sheet, Troef's score, and whether they differ."""
    differs = results.sheet_mismatch(result, result.sheet) if result and shown else []
    return [
        {
            "seat": seat,
            "sheet": result.sheet.get(seat, "") if result and shown else "",
            "score": score if result and shown else "",
            "differs": seat in differs,
        }
        for seat, score in zip("NESW", result.scores if result else (0, 0, 0, 0), strict=True)
    ]


def _round_count(round_: Round, second: bool) -> tuple[int, int]:
    """Boards keyed in a round and boards it has: for a second keying, the confirmed ones."""
    # A table that sits out (a no-show's ruling) expects nothing: it counts neither way.
    total = (
        TableBoard.objects.filter(table__round=round_)
        .exclude(table__ruling=Table.Ruling.SIT_OUT)
        .count()
    )
    current = Result.objects.filter(table__round=round_, is_current=True).exclude(
        table__ruling=Table.Ruling.SIT_OUT
    )
    if second:
        current = current.exclude(kind=Result.Kind.PLAYED, status=Result.Status.ENTERED)
    return current.count(), total


@entry_required
def round_overview(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)
    # A few queries whatever the number of tables: the boards, the current results, the tables.
    boards: dict[int, list[tuple[int, int]]] = {}
    for table_id, board_id, board_number in (
        TableBoard.objects.filter(table__round=round_)
        .exclude(table__ruling=Table.Ruling.SIT_OUT)
        .order_by("position")
        .values_list("table_id", "board_id", "board__number")
    ):
        boards.setdefault(table_id, []).append((board_id, board_number))
    entered: dict[int, dict[int, tuple[str, str, str]]] = {}
    for table_id, board_id, kind, status, sheet in Result.objects.filter(
        table__round=round_, is_current=True
    ).values_list("table_id", "board_id", "kind", "status", "sheet_status"):
        entered.setdefault(table_id, {})[board_id] = (kind, status, sheet)
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
                # The TD's own rulings (artificial and weighted scores) need no second keying.
                "unconfirmed": sum(
                    1
                    for kind, status, _sheet in done.values()
                    if (kind, status) == (Result.Kind.PLAYED, Result.Status.ENTERED)
                ),
                "differences": sum(
                    1 for *_rest, sheet in done.values() if sheet == Result.SheetStatus.OPEN
                ),
                "missing": [n for board_id, n in played if board_id not in done],
            }
        )
    byes = [
        # A bye always has its player (a constraint); only a vacant seat has none.
        {"entry": s.entry, "score": scored.get(s.entry_id) if s.entry_id else None}
        for s in Seating.objects.filter(round=round_, seat=Seating.Seat.BYE)
        .select_related("entry__player")
        .order_by("entry__number")
    ]
    directs = roles.can_direct(event, request.user)
    return render(
        request,
        "tournaments/round.html",
        {
            "event": event,
            "round": round_,
            "tables": tables,
            "byes": byes,
            "awards": SitOutScore.Award.choices,
            "gaps": rounds.gaps(round_) if round_.status == Round.Status.OPEN else [],
            # Without second keying nothing is "unconfirmed": the column would only confuse.
            "second_keying": rounds.uses_second_keying(event),
            "keyed": sum(t["entered"] for t in tables),
            "expected": sum(t["expected"] for t in tables),
            # The table devices' links and PINs, and closing the round, are the directors'.
            "directs": directs,
            "devices": device.round_devices(request, round_) if directs else [],
        },
    )


def _entry_page(
    request: HttpRequest, event: Event, round_: Round, tables: list[Table], second: bool
) -> dict[str, Any]:
    """What both entry pages share: the tables' rows and the round's counter."""
    sections = [_table_context(event, table, second) for table in tables]
    keyed, total = _round_count(round_, second)
    on_page = sum(len(s["rows"]) for s in sections)
    done_on_page = sum(s["done"] for s in sections)
    return {
        "event": event,
        "round": round_,
        "second": second,
        "sections": sections,
        "round_done": keyed,
        "round_total": total,
        "round_missing": total - keyed,
        # The counter adds what is saved on this page to what was keyed elsewhere.
        "other_done": keyed - done_on_page,
        "other_total": total - on_page,
        "table_awards": TABLE_AWARDS,
    }


# The choices of the whole-table artificial score; "" is no score (an absentee's seat).
TABLE_AWARDS = [*AWARD_CHOICES, ("", gettext_lazy("no score (absent)"))]


@entry_required
def table_entry(request: HttpRequest, event: Event, number: int, table_number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)
    table = get_object_or_404(Table, round=round_, number=table_number)
    second = request.GET.get("second") == "1"
    next_table = round_.tables.filter(number__gt=table_number).order_by("number").first()
    if next_table is not None:
        next_url = reverse("table_entry", args=[event.slug, number, next_table.number])
        next_url += "?second=1" if second else ""
    else:
        next_url = reverse("round_overview", args=[event.slug, number])
    context = {
        **_entry_page(request, event, round_, [table], second),
        "table": table,
        "next_table": next_table,
        "next_url": next_url,
    }
    return render(request, "tournaments/table_entry.html", context)


@entry_required
def round_entry(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """A whole round on one page, table after table in sheet order, for keying without a reload."""
    round_ = get_object_or_404(Round, event=event, number=number)
    second = request.GET.get("second") == "1"
    tables = list(round_.tables.order_by("number"))
    context = {
        **_entry_page(request, event, round_, tables, second),
        "next_url": reverse("round_overview", args=[event.slug, number]),
    }
    return render(request, "tournaments/round_entry.html", context)


@entry_required
@require_POST
def accept_sheet(
    request: HttpRequest, event: Event, number: int, table_number: int, board_number: int
) -> HttpResponse:
    """The TD checked the paper sheet: Troef's score stands and the difference is closed."""
    table = get_object_or_404(Table, round__event=event, round__number=number, number=table_number)
    result = get_object_or_404(
        Result, table=table, board__number=board_number, event=event, is_current=True
    )
    try:
        results.accept_sheet_difference(
            request.user, result, posted_text(request, "reason"), version=_posted_version(request)
        )
    except UserError as error:
        show_error(request, error)
    else:
        messages.success(
            request,
            _("Board %(b)s at table %(t)s: Troef's score accepted over the sheet.")
            % {"b": board_number, "t": table_number},
        )
    return _back(request, event, number, table_number, board_number)


@entry_required
@require_POST
def keep_keying(
    request: HttpRequest, event: Event, number: int, table_number: int, board_number: int
) -> HttpResponse:
    """The TD checked a board keyed twice with two results: the current one stands, confirmed."""
    table = get_object_or_404(Table, round__event=event, round__number=number, number=table_number)
    result = get_object_or_404(
        Result, table=table, board__number=board_number, event=event, is_current=True
    )
    try:
        version = _posted_version(request)
        if version is None:
            raise UserError(
                _("Say which version is kept: reload the page and try again."),
                code="version_required",
                field="version",
            )
        reason = posted_text(request, "reason")
        take_other = request.POST.get("keep") == "other" and bool(result.other_keying)
        if take_other:
            # The other keying was right: a correction to it, with the TD's reason (without one
            # the line would count as one more keying of the sheet, and change nothing).
            if not reason.strip():
                raise UserError(
                    _("Give a reason for taking the other keying."),
                    code="reason_required",
                    field="reason",
                )
            kept = results.record_result(
                request.user,
                table,
                result.board,
                result.other_keying,
                expected_version=version,
                confirmed=True,
                reason=reason,
            )
        else:
            kept = results.keep_keying(request.user, result, reason, version=version)
    except UserError as error:
        show_error(request, error)
    else:
        done = (
            _("Board %(b)s at table %(t)s corrected to %(notation)s.")
            if take_other
            else _("Board %(b)s at table %(t)s: %(notation)s kept and confirmed.")
        )
        messages.success(
            request, done % {"b": board_number, "t": table_number, "notation": kept.notation}
        )
    return _back(request, event, number, table_number, board_number)


def _posted_version(request: HttpRequest) -> int | None:
    """The version the form showed (a hidden field), so that a newer one is a conflict."""
    text = request.POST.get("version", "").strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 5:
        raise UserError(
            _("The version must be a whole number."), code="bad_request", field="version"
        )
    return int(text)


def _back(
    request: HttpRequest, event: Event, number: int, table_number: int, board_number: int
) -> HttpResponse:
    """Back to the page the form was on: the board's history, the round's page or the table."""
    back = request.POST.get("back", "")
    if back == "history":
        return redirect("board_history", event.slug, number, table_number, board_number)
    if back == "round":
        return redirect(reverse("round_entry", args=[event.slug, number]) + f"#t{table_number}")
    return redirect("table_entry", event.slug, number, table_number)


@entry_required
@require_POST
def table_artificial(
    request: HttpRequest, event: Event, number: int, table_number: int
) -> HttpResponse:
    """An artificial score on every board of a table not played, in one action."""
    table = get_object_or_404(Table, round__event=event, round__number=number, number=table_number)
    awards = {seat: request.POST.get(f"award_{seat}", "") or None for seat in "NESW"}
    try:
        written = adjustments.award_table_artificial(
            request.user, table, awards, posted_text(request, "reason")
        )
    except UserError as error:
        show_error(request, error)
    else:
        messages.success(request, adjustments.table_award_message(table, written))
    return _back(request, event, number, table_number, 0)


@entry_required
def board_history(
    request: HttpRequest, event: Event, number: int, table_number: int, board_number: int
) -> HttpResponse:
    table = get_object_or_404(Table, round__event=event, round__number=number, number=table_number)
    board = get_object_or_404(Board, event=event, number=board_number)
    players = Seating.objects.filter(table=table).select_related("entry__player").order_by("seat")
    versions = results.history(table, board)
    context = {
        "event": event,
        "table": table,
        "board": board,
        "versions": [
            {
                "result": r,
                "shown": results.describe(r),
                "sheet": [(s, r.sheet[s]) for s in "NESW" if s in r.sheet],
                "differs": results.sheet_mismatch(r, r.sheet),
            }
            for r in versions
        ],
        "open": next(
            (r for r in versions if r.is_current and r.sheet_status == Result.SheetStatus.OPEN),
            None,
        ),
        # A second keying that differed waits for the TD: keep the current result, or correct it.
        "differs": next((r for r in versions if r.is_current and r.other_keying), None),
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

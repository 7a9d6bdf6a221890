"""Adjusted scores and penalties: each a separate, reasoned entry, never a silent edit of a score.

- ``award_artificial``: a board that could not be played normally gets average-plus, average or
  average-minus (60 / 50 / 40 %) per seat, or a stated percentage.
- ``award_table_artificial``: the same on every board of a table not played (a table that could
  not play, an absentee's table), in one action; an absentee's seat gets no score at all.
- ``award_weighted``: a weighted adjusted score, mixing possible results with weights (e.g. 30 % of
  one result and 70 % of another), compared with the other tables like any result.
- ``record_penalty``: the ruleset's penalty (a revoke, a troel not announced) for a player at a
  table on a board.
- ``record_fine``: a deduction from a player's total (late arrival, misconduct).
- ``cancel_penalty``: withdraw a penalty or fine (an appeal upheld); it stays on record.
- ``penalties_of``: every penalty and fine of an event, for the TD's list.

Artificial and weighted scores are result versions like any other: they replace the current one
and the history keeps everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from tournaments.errors import UserError
from tournaments.game import SEATS, Award, BoardResult, EngineError, Seat, display, result_from_json
from tournaments.game import penalty as ruleset_penalty
from tournaments.models import (
    AuditAction,
    AuditEntry,
    Board,
    Entry,
    Event,
    Penalty,
    Result,
    Seating,
    SitOutScore,
    Table,
)
from tournaments.services import audit, events, jobs, results, seating, standings
from tournaments.services.audit import Actor


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise UserError(_("Give the reason."), code="required", field="reason")
    return results.check_reason(reason)


def _percentage(value: Any) -> str:
    """An award name, or a percentage 0-100 kept as text (an exact fraction)."""
    if isinstance(value, str) and value in {a.value for a in Award}:
        return value
    try:
        number = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise UserError(
            _("%(value)s is neither average-plus, average, average-minus nor a percentage.")
            % {"value": value},
            code="invalid",
            field="awards",
        ) from None
    if not 0 <= number <= 100:
        raise UserError(_("A percentage is from 0 to 100."), code="invalid", field="awards")
    return str(number)


@transaction.atomic
def award_artificial(
    actor: Actor, table: Table, board: Board, awards: dict[str, Any], reason: str
) -> Result:
    """An artificial score for every seat of a table on a board (``{"N": "average_plus", ...}``)."""
    reason = _reason(reason)
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    results.check_board_at_table(table, board)
    _check_every_seat(awards)
    given: dict[str, str | None] = {seat.name: _percentage(awards[seat.name]) for seat in SEATS}
    return _write_artificial(actor, table, board, given, reason)


def _check_every_seat(awards: dict[str, Any]) -> None:
    """An award (or, at a table, ``None`` for no score) is given for each of the four seats."""
    missing = [seat.name for seat in SEATS if seat.name not in awards]
    if missing:
        raise UserError(
            _("Give an award for every seat (missing: %(seats)s).") % {"seats": ", ".join(missing)},
            code="required",
            field="awards",
        )


def _write_artificial(
    actor: Actor,
    table: Table,
    board: Board,
    given: dict[str, str | None],
    reason: str,
    *,
    log: bool = True,
) -> Result:
    """The board's new version: the awards, with no table score (the comparison gives them)."""
    return results.write_version(
        actor,
        table,
        board,
        kind=Result.Kind.ARTIFICIAL,
        notation=_notation(given)[:80],
        data={"awards": given},
        scores=(0, 0, 0, 0),
        reason=reason,
        log=log,
    )


def _notation(awards: dict[str, str | None]) -> str:
    """``art N:average_plus E:average S:- W:40``: the stored form (pages show it in words)."""
    return "art " + " ".join(f"{seat}:{value or '-'}" for seat, value in awards.items())


@transaction.atomic
def award_table_artificial(
    actor: Actor, table: Table, awards: dict[str, Any], reason: str
) -> list[Result]:
    """An artificial score on every board of a table that has no played result, in one action.

    ``awards`` maps each seat to average-plus, average, average-minus or a percentage, or to
    ``None`` for a seat that gets no score (an absentee). Boards with a played result keep it:
    ``table_award_message`` names them. One log entry covers the whole action.
    """
    reason = _reason(reason)
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    event = table.round.event
    _check_every_seat(awards)
    given: dict[str, str | None] = {
        seat.name: None if awards[seat.name] in (None, "") else _percentage(awards[seat.name])
        for seat in SEATS
    }
    if all(value is None for value in given.values()):
        raise UserError(_("Give at least one seat a score."), code="required", field="awards")
    links = list(table.table_boards.select_related("board").order_by("position"))
    written: list[Result] = []
    skipped: list[int] = []
    for link in links:
        board = link.board
        results.check_board_at_table(table, board)
        current = (
            Result.objects.select_for_update(of=("self",))
            .filter(table=table, board=board, is_current=True)
            .first()
        )
        if current is not None and current.kind == Result.Kind.PLAYED:
            skipped.append(board.number)
            continue
        written.append(_write_artificial(actor, table, board, given, reason, log=False))
    if not written:
        raise UserError(
            _("Every board at table %(t)s has a played result: nothing was changed.")
            % {"t": table.number},
            code="all_played",
        )
    audit.record(
        actor,
        AuditAction.RESULT_ARTIFICIAL_TABLE,
        "",
        event=event,
        obj=table,
        reason=reason,
        data={
            "awards": given,
            "boards": [r.board.number for r in written],
            "skipped": skipped,
            "results": [r.pk for r in written],
        },
        message=gettext_noop(
            "artificial scores for table %(table)s, round %(round)s, on boards %(boards)s"
        ),
        params={
            "table": table.number,
            "round": table.round.number,
            "boards": ", ".join(str(r.board.number) for r in written),
        },
    )
    return written


def table_award_message(table: Table, written: list[Result]) -> str:
    """What ``award_table_artificial`` did, naming the boards it left alone."""
    done = {r.board_id for r in written}
    skipped = [
        link.board.number
        for link in table.table_boards.select_related("board").order_by("position")
        if link.board_id not in done
    ]
    message = ngettext(
        "Artificial score recorded on %(count)s board.",
        "Artificial scores recorded on %(count)s boards.",
        len(written),
    ) % {"count": len(written)}
    if skipped:
        message += " " + ngettext(
            "Board %(boards)s kept its played result.",
            "Boards %(boards)s kept their played results.",
            len(skipped),
        ) % {"boards": ", ".join(str(n) for n in skipped)}
    return message


@transaction.atomic
def award_weighted(
    actor: Actor, table: Table, board: Board, outcomes: list[tuple[Fraction, str]], reason: str
) -> Result:
    """A weighted adjusted score: each outcome a result line with its weight; weights add to 1."""
    reason = _reason(reason)
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    event = table.round.event
    results.check_board_at_table(table, board)
    if sum((weight for weight, _line in outcomes), Fraction(0)) != 1 or any(
        weight <= 0 for weight, _line in outcomes
    ):
        raise UserError(
            _("The weights must be positive and add up to 100 %."), code="invalid", field="weights"
        )
    checked = [(weight, results.check(event, board, line)) for weight, line in outcomes]
    expected = [sum((weight * c.scores[i] for weight, c in checked), Fraction(0)) for i in range(4)]
    data = {
        "weighted": [
            {"weight": str(weight), "notation": c.notation, "scores": list(c.scores)}
            for weight, c in checked
        ]
    }
    notation = " + ".join(f"{float(w) * 100:g}% {c.notation}" for w, c in checked)
    rounded = tuple(round(value) for value in expected)
    return results.write_version(
        actor,
        table,
        board,
        kind=Result.Kind.WEIGHTED,
        notation=notation[:80],
        data=data,
        scores=(rounded[0], rounded[1], rounded[2], rounded[3]),
        reason=reason,
    )


def _seat_of(table: Table, board: Board, entry: Entry) -> Seat:
    seats = {s.seat: s.entry_id for s in Seating.objects.filter(table=table)}
    position = table.table_boards.get(board=board).position
    holders = seating.holders(seats, position, table.round.number)
    for seat in SEATS:
        if holders[seat.name] == entry.pk:
            return seat
    raise UserError(
        _("%(name)s did not play board %(b)s at table %(t)s.")
        % {"name": entry.player, "b": board.number, "t": table.number},
        code="not_at_table",
        field="offender",
    )


@transaction.atomic
def record_penalty(
    actor: Actor, table: Table, board: Board, offender: Entry, kind: str, reason: str
) -> Penalty:
    """The ruleset's penalty ``kind`` (``revoke``, ``troel_not_announced`` ...) on one board."""
    reason = _reason(reason)
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    event = table.round.event
    results.check_board_at_table(table, board)
    seat = _seat_of(table, board, offender)
    current = Result.objects.filter(table=table, board=board, is_current=True).first()
    contract = None
    if current is not None and current.kind == Result.Kind.PLAYED:
        played = result_from_json(current.data)
        contract = played if isinstance(played, BoardResult) else None
    try:
        amounts = ruleset_penalty(events.ruleset_of(event), kind, seat, contract)
    except EngineError as exc:
        raise UserError(str(exc), code="unknown_penalty", field="kind") from exc
    entries = seating.holders(
        {s.seat: s.entry_id for s in Seating.objects.filter(table=table)},
        table.table_boards.get(board=board).position,
        table.round.number,
    )
    points = {s.name: amounts[s.value] for s in SEATS}
    item = Penalty.objects.create(
        event=event,
        kind=kind,
        table=table,
        board=board,
        offender=offender,
        points={
            "seats": points,
            "entries": {str(entries[s.name]): amounts[s.value] for s in SEATS},
        },
        reason=reason,
        created_by=audit.user_of(actor),
    )
    audit.record(
        actor,
        AuditAction.PENALTY_RECORD,
        "",
        event=event,
        obj=item,
        reason=reason,
        message=gettext_noop(
            "%(penalty)s by %(name)s on board %(board)s, table %(table)s: %(points)s"
        ),
        params={
            "penalty": kind,
            "name": offender.player.full_name,
            "board": board.number,
            "table": table.number,
            "points": ", ".join(f"{seat} {amount:+d}" for seat, amount in points.items()),
        },
    )
    jobs.standings_changed(event)
    return item


def exact_decimal(amount: Fraction) -> Decimal:
    """A fine of at most two decimals (``record_fine`` checks) as the decimal it is."""
    return Decimal(amount.numerator) / Decimal(amount.denominator)


@transaction.atomic
def record_fine(
    actor: Actor, event: Event, offender: Entry, amount: Fraction, reason: str
) -> Penalty:
    """Take ``amount`` off a player's total (percentage points in a matchpoint event)."""
    reason = _reason(reason)
    if amount <= 0:
        raise UserError(_("A fine is a positive amount."), code="invalid", field="amount")
    if event.comparison == Event.Comparison.MATCHPOINTS and amount > 100:
        raise UserError(
            _("A fine in a matchpoint event is at most 100 percentage points."),
            code="invalid",
            field="amount",
        )
    # The standings show percentages to two decimals and points as whole numbers: a fine they
    # would round is refused rather than shown as something else than was given.
    if (amount * 10 ** standings.decimals(event)).denominator != 1:
        raise UserError(
            _("Give the fine with at most two decimals.")
            if standings.decimals(event)
            else _("Give the fine in whole points: this event's standings show whole points."),
            code="invalid",
            field="amount",
        )
    item = Penalty.objects.create(
        event=event,
        kind="fine",
        offender=offender,
        fine=exact_decimal(amount),
        reason=reason,
        created_by=audit.user_of(actor),
    )
    audit.record(
        actor,
        AuditAction.PENALTY_FINE,
        "",
        event=event,
        obj=item,
        reason=reason,
        message=gettext_noop("fine of %(amount)s for %(name)s"),
        params={
            "amount": display(amount, standings.decimals(event)),
            "name": offender.player.full_name,
        },
    )
    jobs.standings_changed(event)
    return item


@transaction.atomic
def cancel_penalty(actor: Actor, item: Penalty, reason: str) -> Penalty:
    """Withdraw a penalty (an appeal upheld); it stays on record, inactive."""
    reason = _reason(reason)
    item = Penalty.objects.select_for_update().get(pk=item.pk)
    if not item.is_active:
        return item
    item.is_active = False
    item.save(update_fields=["is_active"])
    audit.record(
        actor,
        AuditAction.PENALTY_CANCEL,
        "",
        event=item.event,
        obj=item,
        reason=reason,
        message=gettext_noop("cancelled %(penalty)s of %(name)s"),
        params={"penalty": item.kind, "name": item.offender.player.full_name},
    )
    jobs.standings_changed(item.event)
    return item


@dataclass(frozen=True)
class Listed:
    """A penalty or fine as the TD's list shows it, with the log entry of its withdrawal."""

    penalty: Penalty
    seats: list[tuple[str, int]]  # a board penalty: each seat's points on that board
    amount: str  # a fine: what comes off the total, as the standings show it
    cancellation: AuditEntry | None


def _seats(points: dict[str, Any]) -> list[tuple[str, int]]:
    """A penalty's points per seat in seat order (a JSON column need not keep the order)."""
    return [(seat.name, int(points[seat.name])) for seat in SEATS if seat.name in points]


def penalties_of(event: Event) -> list[Listed]:
    """Every penalty and fine of the event, the cancelled ones too, in the order they were given."""
    cancellations = {
        entry.object_id: entry
        for entry in AuditEntry.objects.filter(
            event=event, action=AuditAction.PENALTY_CANCEL, object_type="penalty"
        )
        .select_related("actor")
        .order_by("at", "id")
    }
    items = Penalty.objects.filter(event=event).select_related(
        "offender__player", "table__round", "board", "created_by"
    )
    return [
        Listed(
            penalty=item,
            seats=_seats(item.points.get("seats", {})),
            amount=""
            if item.fine is None
            else display(Fraction(item.fine), standings.decimals(event)),
            cancellation=cancellations.get(str(item.pk)) if not item.is_active else None,
        )
        for item in items.order_by("created_at", "id")
    ]


@transaction.atomic
def score_bye(
    actor: Actor, entry: Entry, round_number: int, award: str, reason: str
) -> SitOutScore:
    """Give a player's bye in a round an artificial score (instead of their own average)."""
    reason = _reason(reason)
    if award not in SitOutScore.Award.values:
        raise UserError(
            _("Choose average-plus, average or average-minus."), code="invalid", field="award"
        )
    if not Seating.objects.filter(
        entry=entry, round__number=round_number, seat=Seating.Seat.BYE
    ).exists():
        raise UserError(
            _("%(name)s has no bye in round %(r)s.") % {"name": entry.player, "r": round_number},
            code="no_bye",
            field="entry",
        )
    item, _created = SitOutScore.objects.update_or_create(
        entry=entry,
        round_number=round_number,
        defaults={
            "event": entry.event,
            "award": award,
            "reason": reason,
            "created_by": audit.user_of(actor),
        },
    )
    audit.record(
        actor, AuditAction.BYE_SCORE, "",
        event=entry.event, obj=item, reason=reason,
        message=gettext_noop("bye of %(name)s in round %(round)s scored %(award)s"),
        params={"name": entry.player.full_name, "round": round_number, "award": award},
    )  # fmt: skip
    jobs.standings_changed(entry.event)
    return item

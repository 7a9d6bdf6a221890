from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from tournaments.errors import UserError
from tournaments.models import AuditAction, Entry, Event, Result, Round, Seating, Table, TableBoard
from tournaments.services import audit, events, substitutes
from tournaments.services.audit import Actor


@transaction.atomic
def open_round(actor: Actor, round_: Round) -> Round:
    """Start a round: its seating is final and results can be entered. Starts the event if needed."""
    # The event's row first, as re-planning does: a round cannot open while it is being re-seated.
    event = Event.objects.select_for_update().get(pk=round_.event_id)
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    if event.status == Event.Status.FINISHED:
        raise UserError(_("The event is finished."), code="event_finished")
    if round_.status != Round.Status.PLANNED:
        return round_
    if not round_.tables.exists():
        raise UserError(
            _("Round %(n)s has no seating yet.") % {"n": round_.number}, code="not_ready"
        )
    # A player marked absent has a place: their vacant (or substitute's) seat.
    unseated = (
        event.entries.filter(
            status=Entry.Status.ACTIVE, role=Entry.Role.PLAYER, first_round__lte=round_.number
        )
        .exclude(seatings__round=round_)
        .exclude(replaced_seatings__round=round_)
    )
    if unseated.exists():
        raise UserError(
            _("Player %(n)s has no place in round %(r)s: re-plan the movement first.")
            % {"n": unseated.order_by("number")[0].number, "r": round_.number},
            code="not_seated",
        )
    # Three players at a table cannot play: the TD decides what they do before they sit down.
    vacant = substitutes.unruled_vacancies(round_)
    if vacant:
        raise UserError(
            _(
                "Round %(r)s has vacant seats: %(seats)s. Seat a substitute or a late arrival, "
                "or let the table sit out, on the page Absentees and substitutes; or re-plan the "
                "movement."
            )
            % {
                "r": round_.number,
                "seats": ", ".join(
                    _("table %(t)s %(seat)s (%(name)s)")
                    % {
                        "t": seat.table.number if seat.table else "",
                        "seat": seat.seat,
                        "name": seat.planned.player.full_name,
                    }
                    for seat in vacant
                ),
            },
            code="vacant_seats",
            field="seats",
        )
    earlier = event.round_set.filter(number__lt=round_.number, status=Round.Status.PLANNED)
    if earlier.exists():
        raise UserError(
            _("Start round %(n)s first.") % {"n": earlier.order_by("number")[0].number},
            code="out_of_order",
        )
    if event.status == Event.Status.DRAFT:
        events.start_event(actor, event)
    round_.status = Round.Status.OPEN
    round_.opened_at = timezone.now()
    round_.save(update_fields=["status", "opened_at"])
    audit.record(
        actor,
        AuditAction.ROUND_OPEN,
        "",
        event=event,
        obj=round_,
        message=gettext_noop("round %(n)s started"),
        params={"n": round_.number},
    )
    return round_


@transaction.atomic
def close_round(actor: Actor, round_: Round, reason: str = "", *, anyway: bool = False) -> Round:
    """Close a round once every sheet is in; ``anyway`` closes an incomplete one, with a reason.

    What is still missing (``gaps``) is refused with a ``UserError`` (code ``round_incomplete``)
    unless the TD closes anyway; the list then goes into the log with the reason.
    """
    # The round's row is locked first, as recording a result does: no result slips in between the
    # check below and the closing.
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    if round_.status == Round.Status.CLOSED:
        return round_
    if round_.status != Round.Status.OPEN:
        raise UserError(
            _("Round %(n)s has not started.") % {"n": round_.number}, code="not_started"
        )
    missing = gaps(round_)
    reason = reason.strip()
    if missing and not anyway:
        raise UserError(
            ngettext(
                "Round %(n)s is not complete (%(count)s thing is missing): complete it, or close "
                "it anyway with a reason.",
                "Round %(n)s is not complete (%(count)s things are missing): complete them, or "
                "close it anyway with a reason.",
                len(missing),
            )
            % {"n": round_.number, "count": len(missing)},
            code="round_incomplete",
        )
    if missing and not reason:
        raise UserError(
            _("Say why round %(n)s is closed although it is not complete.") % {"n": round_.number},
            code="required",
            field="reason",
        )
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    if missing:
        audit.record(
            actor,
            AuditAction.ROUND_CLOSE_ANYWAY,
            "",
            event=round_.event,
            obj=round_,
            reason=reason,
            data={"missing": [gap.as_data() for gap in missing]},
            message=gettext_noop("round %(round)s closed with %(count)s things missing"),
            params={"round": round_.number, "count": len(missing)},
        )
    else:
        audit.record(
            actor,
            AuditAction.ROUND_CLOSE,
            "",
            event=round_.event,
            obj=round_,
            reason=reason,
            message=gettext_noop("round %(round)s closed"),
            params={"round": round_.number},
        )
    return round_


@dataclass(frozen=True)
class Gap:
    """Something that keeps a round from being complete, at one table.

    ``kind`` is ``no_result`` (boards without a result), ``unconfirmed`` (results awaiting their
    second keying), ``sheet_difference`` (points on the sheet that differ from Troef's and are
    not resolved) or ``vacant_seat`` (an empty seat whose boards have no ruling).
    """

    kind: str
    table: int
    boards: tuple[int, ...] = ()
    seat: str = ""
    player: str = ""

    @property
    def text(self) -> str:
        """What is missing, in the reader's language."""
        names = {"t": self.table, "boards": ", ".join(str(b) for b in self.boards)}
        count = len(self.boards)
        if self.kind == "no_result":
            return (
                ngettext(
                    "Table %(t)s: no result for board %(boards)s",
                    "Table %(t)s: no result for boards %(boards)s",
                    count,
                )
                % names
            )
        if self.kind == "unconfirmed":
            return (
                ngettext(
                    "Table %(t)s: board %(boards)s awaits its second keying",
                    "Table %(t)s: boards %(boards)s await their second keying",
                    count,
                )
                % names
            )
        if self.kind == "sheet_difference":
            return (
                ngettext(
                    "Table %(t)s: the sheet differs from Troef on board %(boards)s",
                    "Table %(t)s: the sheet differs from Troef on boards %(boards)s",
                    count,
                )
                % names
            )
        return _("Table %(t)s: seat %(seat)s (%(player)s) is empty and has no ruling") % {
            **names,
            "seat": self.seat,
            "player": self.player,
        }

    def as_data(self) -> dict[str, Any]:
        """Plain data for the log."""
        return {
            "kind": self.kind,
            "table": self.table,
            "boards": list(self.boards),
            "seat": self.seat,
            "player": self.player,
        }


def uses_second_keying(event: Event) -> bool:
    """An event uses second keying once any of its results has been confirmed by one.

    There is no setting for it: a TD who has second keying done does so from the first sheet,
    and from then on every played result awaits its second keying.
    """
    return Result.objects.filter(event=event, status=Result.Status.CONFIRMED).exists()


def gaps(round_: Round) -> list[Gap]:
    """Everything still missing in a round, table by table, in the order a TD works through it.

    A few queries whatever the number of tables. Artificial and weighted scores are the TD's own
    rulings: they need no second keying.
    """
    played: dict[int, list[tuple[int, int]]] = {}
    numbers: dict[int, int] = {}
    for table_id, table_number, board_id, board_number in (
        TableBoard.objects.filter(table__round=round_)
        # A table that sits out (a no-show's ruling) expects no results.
        .exclude(table__ruling=Table.Ruling.SIT_OUT)
        .order_by("table__number", "position")
        .values_list("table_id", "table__number", "board_id", "board__number")
    ):
        played.setdefault(table_id, []).append((board_id, board_number))
        numbers[table_id] = table_number
    current: dict[tuple[int, int], tuple[str, str, str]] = {
        (table_id, board_id): (kind, status, sheet)
        for table_id, board_id, kind, status, sheet in Result.objects.filter(
            table__round=round_, is_current=True
        ).values_list("table_id", "board_id", "kind", "status", "sheet_status")
    }
    second = uses_second_keying(round_.event)
    # Vacant seats that need the TD: one rule for opening, the seats page and closing.
    vacant: dict[int, list[Seating]] = {}
    for seat in substitutes.unruled_vacancies(round_):
        assert seat.table_id is not None
        vacant.setdefault(seat.table_id, []).append(seat)
    out: list[Gap] = []
    for table_id in sorted(played, key=numbers.__getitem__):
        boards = played[table_id]
        number = numbers[table_id]
        missing = tuple(n for b, n in boards if (table_id, b) not in current)
        waiting = tuple(
            n
            for b, n in boards
            if current.get((table_id, b), ("", "", ""))[:2]
            == (Result.Kind.PLAYED, Result.Status.ENTERED)
        )
        differing = tuple(
            n
            for b, n in boards
            if current.get((table_id, b), ("", "", ""))[2] == Result.SheetStatus.OPEN
        )
        if missing:
            out.append(Gap("no_result", number, missing))
        if second and waiting:
            out.append(Gap("unconfirmed", number, waiting))
        if differing:
            out.append(Gap("sheet_difference", number, differing))
        # A vacant seat is ruled on when every board of its table has an adjusted score (the
        # no-show ruling gives the table's other seats theirs): a played result cannot be.
        unruled = any(
            current.get((table_id, b), (Result.Kind.PLAYED,))[0] == Result.Kind.PLAYED
            for b, _n in boards
        )
        if unruled:
            for seat in vacant.get(table_id, []):
                out.append(
                    Gap("vacant_seat", number, seat=seat.seat, player=str(seat.planned.player))
                )
    return out


@transaction.atomic
def reopen_round(actor: Actor, round_: Round, reason: str) -> Round:
    """Reopen a closed round for late corrections; the reason goes into the audit log."""
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    if round_.event.status == Event.Status.FINISHED:
        raise UserError(_("The event is finished."), code="event_finished")
    if round_.status != Round.Status.CLOSED:
        return round_
    if not reason.strip():
        raise UserError(_("Say why the round is reopened."), code="required", field="reason")
    round_.status = Round.Status.OPEN
    round_.closed_at = None
    round_.save(update_fields=["status", "closed_at"])
    audit.record(
        actor,
        AuditAction.ROUND_REOPEN,
        "",
        message=gettext_noop("round %(round)s reopened"),
        params={"round": round_.number},
        event=round_.event,
        obj=round_,
        reason=reason,
    )
    return round_

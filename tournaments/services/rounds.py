from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.models import Entry, Event, Round
from tournaments.services import audit, events


@transaction.atomic
def open_round(actor: Any, round_: Round) -> Round:
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
    unseated = event.entries.filter(
        status=Entry.Status.ACTIVE, first_round__lte=round_.number
    ).exclude(seatings__round=round_)
    if unseated.exists():
        raise UserError(
            _("Player %(n)s has no place in round %(r)s: re-plan the movement first.")
            % {"n": unseated.order_by("number")[0].number, "r": round_.number},
            code="not_seated",
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
    audit.record(actor, "round.open", f"round {round_.number} started", event=event, obj=round_)
    return round_


@transaction.atomic
def close_round(actor: Any, round_: Round, reason: str = "") -> Round:
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    if round_.status == Round.Status.CLOSED:
        return round_
    if round_.status != Round.Status.OPEN:
        raise UserError(
            _("Round %(n)s has not started.") % {"n": round_.number}, code="not_started"
        )
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    audit.record(
        actor,
        "round.close",
        f"round {round_.number} closed",
        event=round_.event,
        obj=round_,
        reason=reason,
    )
    return round_


@transaction.atomic
def reopen_round(actor: Any, round_: Round, reason: str) -> Round:
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
        "round.reopen",
        f"round {round_.number} reopened",
        event=round_.event,
        obj=round_,
        reason=reason,
    )
    return round_

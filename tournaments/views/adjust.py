"""Director's rulings on a board: artificial and weighted scores, penalties; fines per player."""

from __future__ import annotations

from fractions import Fraction

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.errors import UserError
from tournaments.models import Board, Entry, Event, Penalty, Table
from tournaments.services import adjustments
from tournaments.views.common import director_required, show_error


def _fraction(text: str, field: str) -> Fraction:
    try:
        return Fraction(text.strip().replace(",", ".").rstrip("%"))
    except (ValueError, ZeroDivisionError):
        raise UserError(
            _("%(value)s is not a number.") % {"value": text}, code="invalid", field=field
        ) from None


@director_required
@require_POST
def board_ruling(
    request: HttpRequest, event: Event, number: int, table_number: int, board_number: int
) -> HttpResponse:
    table = get_object_or_404(Table, round__event=event, round__number=number, number=table_number)
    board = get_object_or_404(Board, event=event, number=board_number)
    post = request.POST
    reason = post.get("reason", "")
    try:
        action = post.get("action")
        if action == "artificial":
            awards = {seat: post.get(f"award_{seat}", "") for seat in "NESW"}
            adjustments.award_artificial(request.user, table, board, awards, reason)
            messages.success(request, _("Artificial score recorded."))
        elif action == "weighted":
            outcomes = []
            for i in range(1, 4):
                line = post.get(f"line_{i}", "").strip()
                if line:
                    weight = _fraction(post.get(f"weight_{i}", ""), "weights") / 100
                    outcomes.append((weight, line))
            adjustments.award_weighted(request.user, table, board, outcomes, reason)
            messages.success(request, _("Weighted score recorded."))
        elif action == "penalty":
            offender = get_object_or_404(Entry, event=event, number=int(post.get("offender", 0)))
            adjustments.record_penalty(
                request.user, table, board, offender, post.get("kind", ""), reason
            )
            messages.success(request, _("Penalty recorded."))
        elif action == "cancel":
            item = get_object_or_404(Penalty, event=event, pk=int(post.get("penalty", 0)))
            adjustments.cancel_penalty(request.user, item, reason)
            messages.success(request, _("Penalty cancelled."))
    except UserError as error:
        show_error(request, error)
    except ValueError:
        messages.error(request, _("The form is incomplete."))
    return redirect(
        "board_history",
        slug=event.slug,
        number=number,
        table_number=table_number,
        board_number=board_number,
    )


@director_required
@require_POST
def player_fine(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    entry = get_object_or_404(Entry, event=event, number=number)
    try:
        amount = _fraction(request.POST.get("amount", ""), "amount")
        adjustments.record_fine(request.user, event, entry, amount, request.POST.get("reason", ""))
    except UserError as error:
        show_error(request, error)
    else:
        messages.success(request, _("Fine recorded for %(name)s.") % {"name": entry.player})
    return redirect("players", slug=event.slug)


@director_required
@require_POST
def bye_score(request: HttpRequest, event: Event, number: int, entry_number: int) -> HttpResponse:
    entry = get_object_or_404(Entry, event=event, number=entry_number)
    try:
        adjustments.score_bye(
            request.user,
            entry,
            number,
            request.POST.get("award", ""),
            request.POST.get("reason", ""),
        )
    except UserError as error:
        show_error(request, error)
    else:
        messages.success(
            request, _("Score for the bye of %(name)s recorded.") % {"name": entry.player}
        )
    return redirect("round_overview", slug=event.slug, number=number)

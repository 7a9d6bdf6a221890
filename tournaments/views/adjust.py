"""Director's rulings on a board: artificial and weighted scores, penalties; fines per player.

The event's list of penalties, fines and scores for byes is where a TD checks them at the end of
an evening, cancels one when an appeal is upheld, and gives a fine.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.engine_text import penalty_name
from tournaments.errors import UserError
from tournaments.forms import FineForm
from tournaments.models import Board, Entry, Event, Penalty, SitOutScore, Table
from tournaments.services import adjustments
from tournaments.typed_input import number_from_text
from tournaments.views.common import entry_required, posted_text, show_error


@entry_required
@require_POST
def board_ruling(
    request: HttpRequest, event: Event, number: int, table_number: int, board_number: int
) -> HttpResponse:
    table = get_object_or_404(Table, round__event=event, round__number=number, number=table_number)
    board = get_object_or_404(Board, event=event, number=board_number)
    post = request.POST
    try:
        reason = posted_text(request, "reason")
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
                    weight = number_from_text(post.get(f"weight_{i}", ""), "weights") / 100
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


@entry_required
@require_POST
def player_fine(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    entry = get_object_or_404(Entry, event=event, number=number)
    try:
        amount = number_from_text(request.POST.get("amount", ""), "amount")
        adjustments.record_fine(request.user, event, entry, amount, posted_text(request, "reason"))
    except UserError as error:
        show_error(request, error)
    else:
        messages.success(request, _("Fine recorded for %(name)s.") % {"name": entry.player})
    return redirect("players", slug=event.slug)


@entry_required
@require_POST
def bye_score(request: HttpRequest, event: Event, number: int, entry_number: int) -> HttpResponse:
    entry = get_object_or_404(Entry, event=event, number=entry_number)
    try:
        adjustments.score_bye(
            request.user,
            entry,
            number,
            posted_text(request, "award"),
            posted_text(request, "reason"),
        )
    except UserError as error:
        show_error(request, error)
    else:
        messages.success(
            request, _("Score for the bye of %(name)s recorded.") % {"name": entry.player}
        )
    return redirect("round_overview", slug=event.slug, number=number)


def _kind(item: Penalty) -> str:
    """A fine, or the name of the ruleset's penalty (such as "troel not announced")."""
    return penalty_name("fine" if item.board_id is None else item.kind)


@entry_required
def adjustment_list(request: HttpRequest, event: Event) -> HttpResponse:
    """Every penalty, fine and score for a bye of the event; a fine is given from here too."""
    form = FineForm(event, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        entry = form.entries[form.cleaned_data["entry"]]
        try:
            amount = number_from_text(form.cleaned_data["amount"], "amount")
            adjustments.record_fine(request.user, event, entry, amount, form.cleaned_data["reason"])
        except UserError as error:
            show_error(request, error, form)
        else:
            messages.success(request, _("Fine recorded for %(name)s.") % {"name": entry.player})
            return redirect("adjustments", slug=event.slug)
    listed = adjustments.penalties_of(event)
    context = {
        "event": event,
        "form": form,
        "penalties": [{"kind": _kind(row.penalty), "row": row} for row in listed],
        "active": sum(1 for row in listed if row.penalty.is_active),
        "byes": SitOutScore.objects.filter(event=event).select_related(
            "entry__player", "created_by"
        ),
    }
    return render(request, "tournaments/adjustments.html", context)


@entry_required
@require_POST
def penalty_cancel(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    """Withdraw a penalty or fine from the event's list, with the reason."""
    item = get_object_or_404(Penalty.objects.select_related("offender__player"), event=event, pk=pk)
    names = {"kind": _kind(item), "name": item.offender.player}
    if not item.is_active:
        messages.info(request, _("The %(kind)s of %(name)s was already cancelled.") % names)
        return redirect("adjustments", slug=event.slug)
    try:
        adjustments.cancel_penalty(request.user, item, posted_text(request, "reason"))
    except UserError as error:
        messages.error(
            request,
            _("The %(kind)s of %(name)s was not cancelled: %(error)s")
            % {**names, "error": error.message},
        )
    else:
        messages.success(
            request,
            _("The %(kind)s of %(name)s is cancelled; the standings are being updated.") % names,
        )
    return redirect("adjustments", slug=event.slug)

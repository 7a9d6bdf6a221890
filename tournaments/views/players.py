from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.errors import UserError
from tournaments.forms import CsvImportForm, LatePlayerForm, PlayerForm, ReasonForm
from tournaments.models import Entry, Event
from tournaments.services import late_arrivals, players
from tournaments.views.common import director_required, show_error


@director_required
def player_list(request: HttpRequest, event: Event) -> HttpResponse:
    form = PlayerForm(prefix="add")
    late_form = LatePlayerForm(prefix="late")
    import_form = CsvImportForm(prefix="csv")
    import_errors: list[tuple[int, str]] = []
    if request.method == "POST" and "add-last_name" in request.POST:
        form = PlayerForm(request.POST, prefix="add")
        if form.is_valid():
            try:
                entry = players.register_player(request.user, event, **form.cleaned_data)
            except UserError as error:
                show_error(request, error, form)
            else:
                messages.success(
                    request,
                    _("%(name)s is player %(n)s.") % {"name": entry.player, "n": entry.number},
                )
                return redirect("players", slug=event.slug)
    elif request.method == "POST" and "late-last_name" in request.POST:
        late_form = LatePlayerForm(request.POST, prefix="late")
        if late_form.is_valid():
            try:
                late = late_arrivals.add_late_arrival(request.user, event, **late_form.cleaned_data)
            except UserError as error:
                show_error(request, error, late_form)
            else:
                if not late.seated:  # no free seat: the re-plan's cost comes first
                    messages.warning(request, late_arrivals.outcome_message(late))
                    return redirect("replan", slug=event.slug)
                messages.success(request, late_arrivals.outcome_message(late))
                return redirect("players", slug=event.slug)
    elif request.method == "POST":
        import_form = CsvImportForm(request.POST, request.FILES, prefix="csv")
        if import_form.is_valid():
            try:
                report = players.import_players_csv(
                    request.user, event, import_form.cleaned_data["file"]
                )
            except UserError as error:
                show_error(request, error, import_form)
            else:
                import_errors = report.errors
                added = len(report.added)
                messages.success(
                    request,
                    ngettext("%(n)s player registered.", "%(n)s players registered.", added)
                    % {"n": added},
                )
                if import_errors:
                    messages.error(
                        request,
                        ngettext(
                            "%(n)s line was refused; see the list below.",
                            "%(n)s lines were refused; see the list below.",
                            len(import_errors),
                        )
                        % {"n": len(import_errors)},
                    )
    context = {
        "event": event,
        "rows": players.roster(event),
        "form": form,
        "late_form": late_form,
        "import_form": import_form,
        "import_errors": import_errors,
        "draft": event.status == Event.Status.DRAFT,
    }
    return render(request, "tournaments/players.html", context)


def _entry(event: Event, number: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player", "player__club", "event"), event=event, number=number
    )


def _reason_form(request: HttpRequest) -> ReasonForm:
    return ReasonForm(request.POST) if request.method == "POST" else ReasonForm()


@director_required
def player_edit(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    entry = _entry(event, number)
    player = entry.player
    form = PlayerForm(
        request.POST if request.method == "POST" else None,
        initial={
            "first_name": player.first_name,
            "last_name": player.last_name,
            "club": player.club.name if player.club else "",
            "federation_number": player.federation_number,
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            players.edit_player(request.user, entry, **form.cleaned_data)
        except UserError as error:
            show_error(request, error, form)
        else:
            messages.success(request, _("Player %(n)s saved.") % {"n": entry.number})
            return redirect("players", slug=event.slug)
    return render(
        request, "tournaments/player_edit.html", {"event": event, "entry": entry, "form": form}
    )


@director_required
def player_withdraw(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """GET shows what a withdrawal would do and asks for the reason; POST withdraws."""
    entry = _entry(event, number)
    form = _reason_form(request)
    if request.method == "POST" and form.is_valid():
        try:
            players.withdraw_player(request.user, entry, form.cleaned_data["reason"])
        except UserError as error:
            show_error(request, error, form)
        else:
            messages.success(
                request,
                _("%(name)s withdrawn; their seats in the rounds still to play are vacant.")
                % {"name": entry.player},
            )
            return redirect("players", slug=event.slug)
    return _confirm(
        request,
        "tournaments/player_withdraw.html",
        entry,
        form,
        players.verify_withdraw,
        players.withdrawal_preview,
    )


@director_required
def player_reinstate(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """GET shows the seats a withdrawal's undo gives back; POST gives them back."""
    entry = _entry(event, number)
    form = _reason_form(request)
    if request.method == "POST" and form.is_valid():
        try:
            players.reinstate_player(request.user, entry, form.cleaned_data["reason"])
        except UserError as error:
            show_error(request, error, form)
        else:
            messages.success(request, _("%(name)s plays again.") % {"name": entry.player})
            return redirect("players", slug=event.slug)
    return _confirm(
        request,
        "tournaments/player_reinstate.html",
        entry,
        form,
        players.verify_reinstate,
        players.reinstatement_preview,
    )


@director_required
def player_remove(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """GET shows what removing a player registered by mistake would do; POST removes."""
    entry = _entry(event, number)
    form = _reason_form(request)
    if request.method == "POST" and form.is_valid():
        try:
            players.remove_entry(request.user, entry, form.cleaned_data["reason"])
        except UserError as error:
            show_error(request, error, form)
        else:
            messages.success(
                request,
                _("Player %(n)s, %(name)s, removed.") % {"n": number, "name": entry.player},
            )
            return redirect("players", slug=event.slug)
    return _confirm(
        request,
        "tournaments/player_remove.html",
        entry,
        form,
        players.verify_remove,
        players.removal_preview,
    )


def _confirm(
    request: HttpRequest,
    template: str,
    entry: Entry,
    form: ReasonForm,
    verify: Callable[[Entry], object],
    preview: Callable[[Entry], players.Preview],
) -> HttpResponse:
    # The page says at once when the change is not possible, rather than after the TD typed a reason.
    try:
        verify(entry)
    except UserError as error:
        problem = error.message
    else:
        problem = ""
    context = {
        "event": entry.event,
        "entry": entry,
        "form": form,
        "problem": problem,
        "preview": None if problem else preview(entry),
    }
    return render(request, template, context)

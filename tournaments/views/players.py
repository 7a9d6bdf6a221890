from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.errors import UserError
from tournaments.forms import CsvImportForm, LatePlayerForm, PlayerForm, ReasonForm
from tournaments.models import Entry, Event
from tournaments.services import players
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
                entry = players.add_late_player(request.user, event, **late_form.cleaned_data)
            except UserError as error:
                show_error(request, error, late_form)
            else:
                messages.success(
                    request,
                    _("%(name)s plays from round %(round)s; the later rounds were re-planned.")
                    % {"name": entry.player, "round": entry.first_round},
                )
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
        "entries": event.entries.select_related("player", "player__club"),
        "form": form,
        "late_form": late_form,
        "import_form": import_form,
        "import_errors": import_errors,
        "draft": event.status == Event.Status.DRAFT,
    }
    return render(request, "tournaments/players.html", context)


@director_required
@require_POST
def player_withdraw(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    entry = get_object_or_404(Entry, event=event, number=number)
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        players.withdraw_player(request.user, entry, reason)
    except UserError as error:
        show_error(request, error)
    else:
        messages.success(request, _("%(name)s withdrawn.") % {"name": entry.player})
    return redirect("players", slug=event.slug)

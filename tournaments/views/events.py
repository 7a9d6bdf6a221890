from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import charts, roles, rulesets
from tournaments.errors import UserError
from tournaments.forms import EventForm, MovementForm, ReasonForm
from tournaments.models import AuditEntry, Entry, Event, Organisation, Round
from tournaments.services import access, deals, events, rounds, seating
from tournaments.views.common import director_required, entry_required, show_error


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    if not roles.may_create_events(request.user):
        # Signed in, but for no club or federation: say so, and who can change it.
        return render(request, "accounts/no_organisation.html", status=403)
    form = EventForm(
        request.POST or None,
        initial={
            "game": "kleurenwiezen",
            "ruleset_name": "whisthub",
            "rounds": 7,
            "boards_per_round": 8,
        },
    )
    mine = access.organisations_of(request.user)
    if len(mine) > 1:
        form.fields["organisation"] = forms.ModelChoiceField(
            label=_("Club or federation"),
            queryset=Organisation.objects.filter(pk__in=[o.pk for o in mine]),
        )
    if request.method == "POST" and form.is_valid():
        try:
            event = events.create_event(
                request.user, form.to_settings(), form.cleaned_data.get("organisation")
            )
        except UserError as error:
            show_error(request, error, form)
        else:
            messages.success(request, _("Event created. Register the players next."))
            return redirect("event", slug=event.slug)
    return render(
        request, "tournaments/event_form.html", {"form": form, "tables": _ruleset_tables()}
    )


@director_required
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        try:
            events.update_event(request.user, event, form.to_settings())
        except UserError as error:
            show_error(request, error, form)
        else:
            messages.success(request, _("Event saved."))
            return redirect("event", slug=event.slug)
    return render(
        request,
        "tournaments/event_form.html",
        {"form": form, "event": event, "tables": _ruleset_tables()},
    )


def _ruleset_tables() -> list[dict[str, Any]]:
    """Each built-in ruleset with its ladder, for the score-table preview on the event form."""
    from tournaments.game import load_builtin

    out = []
    for name, title in rulesets.builtin_choices():
        ruleset = load_builtin(name)
        out.append(
            {
                "name": name,
                "title": title,
                "game": Event.Game(ruleset.game).label,
                "summary": rulesets.summary(ruleset),
            }
        )
    return out


@entry_required
def event_detail(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's overview; an assistant sees it without what only directors may do."""
    entries = event.entries.select_related("player", "player__club")
    round_list = list(event.round_set.all())
    has_seating = event.round_set.filter(tables__isnull=False).exists()
    context = {
        "event": event,
        "entries": entries,
        "active_count": entries.filter(status=Entry.Status.ACTIVE).count(),
        "rounds": round_list,
        "has_seating": has_seating,
        "board_count": event.boards.count(),
        "ruleset": events.ruleset_of(event),
        "club_table": _club_table_label(event),
        "audit": event.audit_entries.select_related("actor")[:15],
        "directs": roles.can_direct(event, request.user),
    }
    return render(request, "tournaments/event_detail.html", context)


def _club_table_label(event: Event) -> str:
    """``Club: table (version n)`` when the event's ruleset is a copy of a club's scoring table."""
    from tournaments.services.scoring_tables import version_label

    version = event.scoring_table_version
    return version_label(version) if version is not None else ""


@director_required
@require_POST
def event_finish(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        events.finish_event(request.user, event)
    except UserError as error:
        show_error(request, error)
    else:
        event.refresh_from_db(fields=["deal_key"])
        if event.deal_key:
            messages.success(request, _("Event finished. The deal key is now public."))
        else:
            messages.success(request, _("Event finished."))
    return redirect("event", slug=event.slug)


@director_required
def movement(request: HttpRequest, event: Event) -> HttpResponse:
    form = MovementForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if seating.rounds_played(event):
            # Re-planning moves players who hold printed guide cards: its cost is shown first.
            return redirect(
                f"{reverse('replan', kwargs={'slug': event.slug})}?seed={form.cleaned_data['seed']}"
            )
        try:
            seating.generate_movement(request.user, event, seed=form.cleaned_data["seed"])
        except UserError as error:
            show_error(request, error, form)
        else:
            messages.success(request, _("Movement generated."))
            return redirect("movement", slug=event.slug)
    plan = seating.export_json(event)
    names = {e.number: e.player.full_name for e in event.entries.select_related("player")}
    context = {
        "event": event,
        "form": form,
        "plan": plan,
        "names": names,
        "review": seating.review(event) if plan["rounds"] else None,
        "grid": charts.movement_grid(plan, names),
        "played": seating.rounds_played(event),
    }
    return render(request, "tournaments/movement.html", context)


@director_required
def deal_list(request: HttpRequest, event: Event) -> HttpResponse:
    if request.method == "POST":
        try:
            deals.generate_deals(request.user, event)
        except UserError as error:
            show_error(request, error)
        else:
            messages.success(request, _("Deals generated. Publish the commitment before play."))
        return redirect("deals", slug=event.slug)
    return render(request, "tournaments/deals.html", {"event": event, "boards": event.boards.all()})


@director_required
@require_POST
def round_action(request: HttpRequest, event: Event, number: int, action: str) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        # Nothing is done with a reason that cannot be kept (too long, a control character).
        for error in form.errors.get("reason", []):
            messages.error(request, _("Reason: %(error)s") % {"error": error})
        if request.POST.get("back") == "round":
            return redirect("round_overview", slug=event.slug, number=number)
        return redirect("event", slug=event.slug)
    reason = form.cleaned_data["reason"]
    try:
        if action == "open":
            rounds.open_round(request.user, round_)
            messages.success(request, _("Round %(n)s started.") % {"n": number})
        elif action == "close":
            # Whatever page the form is on, an incomplete round is refused unless the TD closes
            # it anyway on the round's page, where the list of what is missing is shown.
            try:
                rounds.close_round(
                    request.user, round_, reason, anyway=request.POST.get("anyway") == "1"
                )
            except UserError as error:
                show_error(request, error)
                return redirect("round_overview", slug=event.slug, number=number)
            messages.success(request, _("Round %(n)s closed.") % {"n": number})
            if request.POST.get("back") == "round":
                return redirect("round_overview", slug=event.slug, number=number)
        elif action == "reopen":
            rounds.reopen_round(request.user, round_, reason)
            messages.success(request, _("Round %(n)s reopened.") % {"n": number})
    except UserError as error:
        show_error(request, error)
    return redirect("event", slug=event.slug)


@entry_required
def audit_log(request: HttpRequest, event: Event) -> HttpResponse:
    entries = event.audit_entries.select_related("actor")
    action = request.GET.get("action", "").strip()
    longest = AuditEntry._meta.get_field("action").max_length or 0
    if "\x00" in action or len(action) > longest:
        # No action is written so: nothing matches (PostgreSQL refuses a NUL in a query).
        entries = entries.none()
    elif action:
        entries = entries.filter(action__startswith=action)
    actions = event.audit_entries.order_by("action").values_list("action", flat=True).distinct()
    return render(
        request,
        "tournaments/audit.html",
        {
            "event": event,
            "entries": entries[:500],
            "action": action.replace("\x00", ""),
            "actions": list(actions),
        },
    )

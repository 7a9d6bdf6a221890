"""The round's seats: no-shows, substitutes, rulings for a table with an empty seat, late arrivals;
and the re-plan with its cost shown before anything is written."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.forms import (
    AbsentForm,
    LatePlayerForm,
    MovementForm,
    ReplanForm,
    SubstituteForm,
    TableRulingForm,
)
from tournaments.models import Entry, Event, Result, Round, Seating, Table
from tournaments.services import late_arrivals, seating, substitutes
from tournaments.views.common import director_required, show_error


def _who(seat: Seating, arrivals: dict[int, Entry]) -> dict[str, Any]:
    occupant, planned = seat.entry, seat.planned
    return {
        "seat": seat.seat,
        "occupant": occupant,
        "planned": planned,
        "vacant": occupant is None,
        "substitute": occupant is not None and occupant.role == Entry.Role.SUBSTITUTE,
        "replaces": seat.replaces,
        # A player marked absent (not withdrawn) may still turn up and take the seat back.
        "arriving": arrivals.get(seat.pk),
    }


def _tables(round_: Round, bound: dict[str, Any]) -> list[dict[str, Any]]:
    seats: dict[int, list[Seating]] = {}
    for seat in Seating.objects.filter(round=round_, table__isnull=False).select_related(
        "entry__player", "replaces__player"
    ):
        assert seat.table_id is not None
        seats.setdefault(seat.table_id, []).append(seat)
    with_results = set(
        Result.objects.filter(table__round=round_, is_current=True).values_list(
            "table_id", flat=True
        )
    )
    arrivals = substitutes.arrivals(round_)
    out = []
    for table in round_.tables.order_by("number"):
        here = sorted(seats.get(table.pk, []), key=lambda s: "NESWX".index(s.seat))
        vacant = [s for s in here if s.entry_id is None]
        number = table.number
        out.append(
            {
                "table": table,
                "seats": [_who(s, arrivals) for s in here],
                "vacant": bool(vacant),
                "ruled": substitutes.is_ruled(table, here),
                "results": table.pk in with_results,
                "fill": [
                    (
                        s.seat,
                        bound.get(f"sub-{number}-{s.seat}")
                        or SubstituteForm(
                            bound["reserves"],
                            prefix=f"sub-{number}-{s.seat}",
                            initial={"table": number, "seat": s.seat},
                        ),
                    )
                    for s in vacant
                ],
                "ruling": bound.get(f"rule-{number}")
                or TableRulingForm(prefix=f"rule-{number}", initial={"table": number}),
                "vacant_seats": {s.seat for s in vacant},
            }
        )
    return out


def _absent_choices(round_: Round) -> list[tuple[int, str]]:
    return [
        (s.entry.number, f"{s.entry.number}. {s.entry.player.full_name}")
        for s in Seating.objects.filter(round=round_, table__isnull=False, entry__isnull=False)
        .select_related("entry__player")
        .order_by("entry__number")
        if s.entry is not None
    ]


def _reserve_choices(event: Event) -> list[tuple[int, str]]:
    return [
        (p.pk, f"{p.full_name} ({p.club})" if p.club else p.full_name)
        for p in substitutes.reserves(event)
    ]


@director_required
def round_seats(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)
    reserves = _reserve_choices(event)
    bound: dict[str, Any] = {"reserves": reserves}
    absent_form = AbsentForm(_absent_choices(round_), prefix="absent")
    late_form = LatePlayerForm(prefix="late")
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "absent":
                absent_form = AbsentForm(_absent_choices(round_), request.POST, prefix="absent")
                if absent_form.is_valid():
                    return _absent(request, event, round_, absent_form)
            elif action == "arrived":
                return _arrived(request, event, round_)
            elif action == "late":
                late_form = LatePlayerForm(request.POST, prefix="late")
                if late_form.is_valid():
                    return _late(request, event, round_, late_form)
            elif action == "substitute":
                form = _bound_substitute(request, reserves)
                if form is not None:
                    bound[form.prefix or ""] = form
                    if form.is_valid():
                        return _substitute(request, event, round_, form)
            elif action in ("artificial", "sit_out"):
                ruling = _bound_ruling(request)
                if ruling is not None:
                    bound[ruling.prefix or ""] = ruling
                    if ruling.is_valid():
                        return _rule(request, event, round_, ruling, action)
            else:
                messages.error(request, _("Choose one of the page's actions."))
        except UserError as error:
            forms = [f for key, f in bound.items() if key != "reserves"]
            target = {"absent": absent_form, "late": late_form}.get(action)
            # A seat's or a table's form is shown only under a vacant seat: an error about the
            # seat itself (unknown, not vacant) goes to the top of the page.
            if target is None and forms and error.field not in ("seat", "table", "round"):
                target = forms[0]
            show_error(request, error, target)
    context = {
        "event": event,
        "round": round_,
        "editable": round_.status != Round.Status.CLOSED,
        "tables": _tables(round_, bound),
        "byes": Seating.objects.filter(round=round_, seat=Seating.Seat.BYE)
        .select_related("entry__player")
        .order_by("entry__number"),
        "absent_form": absent_form,
        "late_form": late_form,
        "unruled": substitutes.unruled_vacancies(round_),
        "rounds": event.round_set.order_by("number"),
    }
    return render(request, "tournaments/round_seats.html", context)


def _bound_substitute(request: HttpRequest, reserves: list[tuple[int, str]]) -> Any:
    prefix = _prefix(request, "sub-")
    return None if prefix is None else SubstituteForm(reserves, request.POST, prefix=prefix)


def _bound_ruling(request: HttpRequest) -> Any:
    prefix = _prefix(request, "rule-")
    return None if prefix is None else TableRulingForm(request.POST, prefix=prefix)


def _prefix(request: HttpRequest, start: str) -> str | None:
    """The form's prefix, as the page wrote it: ``sub-<table>-<seat>`` or ``rule-<table>``."""
    prefix = request.POST.get("prefix", "")
    if not prefix.startswith(start) or len(prefix) > 20:
        messages.error(request, _("Choose one of the page's actions."))
        return None
    return prefix


def _back(event: Event, round_: Round) -> HttpResponse:
    return redirect("round_seats", slug=event.slug, number=round_.number)


def _absent(request: HttpRequest, event: Event, round_: Round, form: AbsentForm) -> HttpResponse:
    entry = get_object_or_404(Entry, event=event, number=form.cleaned_data["entry"])
    substitutes.mark_absent(
        request.user,
        round_,
        entry,
        form.cleaned_data["reason"],
        later_rounds=form.cleaned_data["later_rounds"],
    )
    messages.success(
        request,
        _(
            "The seat of %(name)s is vacant. Seat a substitute or rule the table below; or "
            "withdraw %(name)s from the players page."
        )
        % {"name": entry.player.full_name},
    )
    return _back(event, round_)


def _arrived(request: HttpRequest, event: Event, round_: Round) -> HttpResponse:
    number = request.POST.get("arrived-entry", "")
    entry = Entry.objects.filter(
        event=event,
        number=int(number) if number.isascii() and number.isdigit() and len(number) < 6 else 0,
    ).first()
    if entry is None:
        messages.error(request, _("Choose one of the page's actions."))
        return _back(event, round_)
    taken = substitutes.mark_arrived(request.user, round_, entry)
    messages.success(
        request,
        _("%(name)s has their seat back in rounds %(rounds)s.")
        % {"name": entry.player.full_name, "rounds": ", ".join(str(s.round.number) for s in taken)},
    )
    if Seating.objects.filter(round=round_, replaces=entry, entry__isnull=True).exists():
        messages.warning(
            request,
            _("Their seat in round %(r)s stays vacant: results have been entered at that table.")
            % {"r": round_.number},
        )
    return _back(event, round_)


def _substitute(
    request: HttpRequest, event: Event, round_: Round, form: SubstituteForm
) -> HttpResponse:
    data = form.cleaned_data
    taken = substitutes.fill_seat(
        request.user,
        round_,
        data["table"],
        data["seat"],
        kind=data["kind"],
        first_name=data["first_name"],
        last_name=data["last_name"],
        club=data["club"],
        reserve=data["reserve"],
        scope=data["scope"],
        from_round=data["from_round"],
        reason=data["reason"],
    )
    sub = taken[0].entry if taken else None
    messages.success(
        request,
        _("%(name)s plays as substitute in rounds %(rounds)s.")
        % {
            "name": sub.player.full_name if sub else "",
            "rounds": ", ".join(str(s.round.number) for s in taken),
        },
    )
    return _back(event, round_)


def _rule(
    request: HttpRequest, event: Event, round_: Round, form: TableRulingForm, action: str
) -> HttpResponse:
    table: Table = substitutes.find_table(round_, form.cleaned_data["table"])
    reason = form.cleaned_data["reason"]
    if action == "sit_out":
        substitutes.sit_out_table(request.user, table, reason)
        messages.success(
            request,
            _("Table %(t)s sits out round %(r)s: the players present have a bye.")
            % {"t": table.number, "r": round_.number},
        )
    else:
        awards = {seat: form.cleaned_data[seat] for seat in "NESW"}
        written = substitutes.award_absent_table(request.user, table, awards, reason)
        messages.success(
            request,
            _("Artificial scores given on %(n)s boards of table %(t)s.")
            % {"n": len(written), "t": table.number},
        )
    return _back(event, round_)


def _late(request: HttpRequest, event: Event, round_: Round, form: LatePlayerForm) -> HttpResponse:
    outcome = late_arrivals.add_late_arrival(request.user, event, **form.cleaned_data)
    if outcome.seated:
        messages.success(request, late_arrivals.outcome_message(outcome))
        return _back(event, round_)
    messages.warning(request, late_arrivals.outcome_message(outcome))
    return redirect("replan", slug=event.slug)


@director_required
def replan(request: HttpRequest, event: Event) -> HttpResponse:
    """The cost of re-planning the rounds not yet started, shown before the TD confirms."""
    if not seating.rounds_played(event):
        return redirect("movement", slug=event.slug)
    seed_form = MovementForm(request.GET or None)
    seed = seed_form.cleaned_data["seed"] if seed_form.is_valid() else 0
    form = ReplanForm(request.POST or None, initial={"seed": seed})
    if request.method == "POST" and form.is_valid():
        try:
            seating.replan(
                request.user,
                event,
                seed=form.cleaned_data["seed"],
                reason=form.cleaned_data["reason"] or _("re-planned by the TD"),
                # The plan the page showed: a page without it (or an old one) matches nothing,
                # so the TD sees the cost again rather than confirming a plan they never saw.
                expected=request.POST.get("fingerprint", "")[:64],
            )
        except UserError as error:
            show_error(request, error, form)
        else:
            messages.success(request, _("The rounds not yet started were re-planned."))
            return redirect("movement", slug=event.slug)
        seed = form.cleaned_data["seed"]
    try:
        cost = seating.preview_replan(event, seed=seed)
    except UserError as error:
        show_error(request, error)
        return redirect("movement", slug=event.slug)
    names = {e.number: e.player.full_name for e in event.entries.select_related("player")}
    context = {
        "event": event,
        "cost": cost,
        "form": form,
        "moved": [(n, names.get(n, "")) for n in cost.moved],
        "unseated": [(n, names.get(n, "")) for n in cost.unseated],
        "substitutes": [(r, t, s, n, names.get(n, "")) for r, t, s, n in cost.substitutes],
        "other_seed": reverse("replan", kwargs={"slug": event.slug}),
    }
    return render(request, "tournaments/replan.html", context)


@director_required
def current_round_seats(request: HttpRequest, event: Event) -> HttpResponse:
    """The seats page of the round in play, else of the next round to start, else the last."""
    round_ = (
        event.round_set.filter(status=Round.Status.OPEN).order_by("-number").first()
        or event.round_set.filter(status=Round.Status.PLANNED).order_by("number").first()
        or event.round_set.order_by("-number").first()
    )
    if round_ is None:
        return redirect("event", slug=event.slug)
    return redirect("round_seats", slug=event.slug, number=round_.number)

"""The reports page: request a round's documents, watch them being made, download them.

A finished file that no longer matches the event (re-dealt, re-planned, results corrected since)
is shown as out of date, with what changed since, as the audit log tells (``documents.freshness``).

Directors and assistants both use it: printing the round's sheets and the standings is part of
running the evening, and nothing here changes the event or deletes a document. The documents that
print the cards before play, or the table devices' PINs (``ReportFile.SECRET_KINDS``), are the
directors' alone.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from documents import freshness
from documents import services as reports
from documents.freshness import Freshness
from documents.models import ReportFile
from tournaments import roles
from tournaments.errors import UserError
from tournaments.models import Event, Round
from tournaments.views.common import entry_required, show_error


class ReportForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Document"), choices=ReportFile.Kind.choices)
    round_number = forms.TypedChoiceField(
        label=gettext_lazy("Round"), coerce=int, empty_value=None, required=False
    )
    page_size = forms.ChoiceField(
        label=gettext_lazy("Paper"),
        choices=ReportFile.PageSize.choices,
        initial=ReportFile.PageSize.A4,
    )

    def __init__(self, *args: Any, event: Event, directs: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not directs:
            kind = self.fields["kind"]
            assert isinstance(kind, forms.ChoiceField)
            kind.choices = [
                (value, label)
                for value, label in ReportFile.Kind.choices
                if value not in ReportFile.SECRET_KINDS
            ]
        rounds = [(str(n), str(n)) for n in range(1, event.rounds + 1)]
        field = self.fields["round_number"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", _("whole event")), *rounds]


def _status(event: Event, report: ReportFile) -> dict[str, Any]:
    done = report.status == ReportFile.Status.DONE
    state = freshness.check(event, [report]).get(report.pk)
    stalled = reports.is_stalled(report)
    return {
        "id": report.pk,
        "status": report.status,
        "label": _("stalled") if stalled else str(report.get_status_display()),
        "stalled": stalled,
        "progress": report.progress,
        "error": report.error,
        "filename": report.filename,
        "download_url": reverse("report_download", args=[event.slug, report.pk]) if done else None,
        # Only for a finished file: whether it still matches the event, and what changed since.
        "freshness": state.as_json() if state is not None else None,
    }


def _rows(event: Event, files: list[ReportFile]) -> list[tuple[ReportFile, Freshness | None]]:
    """Each file with whether it still matches the event: a few queries for the whole list."""
    states = freshness.check(event, files)
    return [(report, states.get(report.pk)) for report in files]


def _directs(request: HttpRequest, event: Event) -> bool:
    # The role the page's decorator found, when it is there: no second query.
    seen = getattr(event, "viewer_role", None)
    if seen is not None and seen[0] == request.user.pk:
        return bool(seen[1] >= roles.Role.DIRECTOR)
    return roles.can_direct(event, request.user)


def _report(request: HttpRequest, event: Event, pk: int) -> ReportFile:
    """The event's document ``pk``; a secret one only for the event's directors."""
    report = get_object_or_404(ReportFile, event=event, pk=pk)
    if report.kind in ReportFile.SECRET_KINDS and not _directs(request, event):
        raise PermissionDenied("this document is for the event's directors")
    return report


def _stalled(rows: list[tuple[ReportFile, Freshness | None]]) -> set[int]:
    """The listed jobs that lost their worker: shown as stalled, with "Make again" to restart."""
    return {report.pk for report, _freshness in rows if reports.is_stalled(report)}


@entry_required
def report_list(request: HttpRequest, event: Event) -> HttpResponse:
    current = event.round_set.exclude(status=Round.Status.PLANNED).order_by("-number").first()
    directs = _directs(request, event)
    form = ReportForm(
        request.POST or None,
        event=event,
        directs=directs,
        initial={
            "kind": ReportFile.Kind.ROUND_PACK if directs else ReportFile.Kind.SCORE_SHEETS,
            "round_number": current.number if current else 1,
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            report = reports.request_report(
                request.user,
                event,
                form.cleaned_data["kind"],
                round_number=form.cleaned_data["round_number"],
                page_size=form.cleaned_data["page_size"],
            )
        except UserError as error:
            show_error(request, error, form)
        else:
            messages.success(request, _("The document is being made."))
            return redirect(f"{reverse('reports', args=[event.slug])}#report-{report.pk}")
    files = reports.listed_files(event)
    if not directs:
        files = [f for f in files if f.kind not in ReportFile.SECRET_KINDS]
    rows = _rows(event, files)
    context = {"event": event, "form": form, "rows": rows, "stalled": _stalled(rows)}
    return render(request, "documents/reports.html", context)


@entry_required
@require_GET
def report_detail(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    report = _report(request, event, pk)
    rows = _rows(event, [report])
    return render(
        request,
        "documents/reports.html",
        {"event": event, "rows": rows, "single": report, "stalled": _stalled(rows)},
    )


@entry_required
@require_GET
def report_status(request: HttpRequest, event: Event, pk: int) -> JsonResponse:
    report = _report(request, event, pk)
    return JsonResponse(_status(event, report))


@entry_required
@require_GET
def report_download(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    report = _report(request, event, pk)
    if report.status != ReportFile.Status.DONE or not report.file:
        raise Http404("the document is not ready")
    try:
        with report.file.open("rb") as stored:  # a few megabytes at most: read in one go
            content = stored.read()
    except FileNotFoundError:
        raise Http404("the stored file is missing: make the document again") from None
    response = HttpResponse(content, content_type=report.content_type)
    response["Content-Disposition"] = content_disposition_header(True, report.filename)
    return response


@entry_required
@require_POST
def report_regenerate(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    report = _report(request, event, pk)
    try:
        reports.regenerate(request.user, report)
    except UserError as error:
        show_error(request, error)
    else:
        messages.success(request, _("The document is being made again."))
    return redirect(f"{reverse('reports', args=[event.slug])}#report-{report.pk}")

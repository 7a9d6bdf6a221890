"""The clubs' own scoring tables: list, create and edit (with a live payout preview), import and
export of the TOML, and each table's versions. For staff: a table is shared by the club's TDs."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import rulesets
from tournaments.errors import UserError
from tournaments.forms import ScoringTableForm
from tournaments.models import Club, Event, ScoringTable, ScoringTableVersion
from tournaments.services import scoring_tables
from tournaments.views.common import show_error

View = Callable[..., HttpResponse]


def staff_required(view: View) -> View:
    """Signed-in staff only (the TDs); anyone else signed in is refused."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not getattr(request.user, "is_staff", False):
            raise PermissionDenied("only tournament directors may see the clubs' scoring tables")
        return view(request, *args, **kwargs)

    return wrapper


def preview(document: str) -> dict[str, Any]:
    """The payouts of a text as the engine scores them, or the engine's error naming the key."""
    try:
        ruleset = scoring_tables.check_document(document)
    except UserError as error:
        return {"ok": False, **error.as_dict()}
    try:
        game = str(Event.Game(ruleset.game).label)
    except ValueError:
        game = ruleset.game
    return {
        "ok": True,
        "title": rulesets.title(ruleset),
        "game": game,
        **rulesets.payout_table(ruleset),
    }


@staff_required
def table_list(request: HttpRequest) -> HttpResponse:
    tables = (
        ScoringTable.objects.select_related("club")
        .annotate(latest=Max("versions__number"), saved_at=Max("versions__created_at"))
        .order_by("club__name", "name")
    )
    return render(request, "tournaments/scoring_tables.html", {"tables": tables})


def _form_page(request: HttpRequest, table: ScoringTable | None) -> HttpResponse:
    latest = table.latest_version() if table is not None else None
    initial = (
        {"club": table.club.name, "name": table.name, "toml": latest.toml if latest else ""}
        if table is not None
        else {}
    )
    editing = table is not None
    form = ScoringTableForm(
        request.POST or None, request.FILES or None, initial=initial, editing=editing
    )
    if request.method == "POST" and form.is_valid():
        imported = form.cleaned_data["file"]
        if imported is None and request.POST.get("action") == "import":
            form.add_error("file", _("Choose a .toml file to import."))
        elif imported is not None:
            # Read into the text only: the TD looks at the payouts and saves when satisfied.
            data = request.POST.copy()
            data["toml"] = imported
            form = ScoringTableForm(data, initial=initial, editing=editing)
            messages.info(
                request, _("The file is in the text below. Check the payouts, then save.")
            )
        else:
            saved = _save(request, form, table)
            if saved is not None:
                return redirect("scoring_table_edit", pk=saved.pk)
    text = form["toml"].value() or ""
    context = {
        "form": form,
        "table": table,
        "latest": latest,
        "clubs": Club.objects.values_list("name", flat=True),
        "preview": preview(text) if text.strip() else None,
    }
    return render(request, "tournaments/scoring_table_form.html", context)


def _save(
    request: HttpRequest, form: ScoringTableForm, table: ScoringTable | None
) -> ScoringTable | None:
    data = form.cleaned_data
    try:
        if table is None:
            table = scoring_tables.create_table(
                request.user, data["club"], data["name"], data["toml"]
            )
            messages.success(request, _("Scoring table saved as version 1."))
            return table
        with transaction.atomic():  # a new name and a new text together, or neither
            version = scoring_tables.save_version(request.user, table, data["toml"])
            table = scoring_tables.rename_table(request.user, table, data["name"])
    except UserError as error:
        show_error(request, error, form)
        return None
    if version is None:
        messages.info(request, _("The text is the latest version's: no new version was made."))
    else:
        messages.success(
            request, _("Scoring table saved as version %(n)s.") % {"n": version.number}
        )
    return table


@staff_required
def table_create(request: HttpRequest) -> HttpResponse:
    return _form_page(request, None)


@staff_required
def table_edit(request: HttpRequest, pk: int) -> HttpResponse:
    return _form_page(
        request, get_object_or_404(ScoringTable.objects.select_related("club"), pk=pk)
    )


@staff_required
def table_history(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(ScoringTable.objects.select_related("club"), pk=pk)
    versions = table.versions.select_related("created_by").order_by("-number")
    return render(
        request, "tournaments/scoring_table_history.html", {"table": table, "versions": versions}
    )


@staff_required
def version_export(request: HttpRequest, pk: int) -> HttpResponse:
    version = get_object_or_404(ScoringTableVersion.objects.select_related("table__club"), pk=pk)
    name = slugify(f"{version.table.club.name}-{version.table.name}") or "scoring-table"
    response = HttpResponse(version.toml, content_type="application/toml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}-v{version.number}.toml"'
    return response


@staff_required
@require_POST
def preview_json(request: HttpRequest) -> JsonResponse:
    """The payouts of the posted text (``toml``), or the engine's error with status 400."""
    result = preview(request.POST.get("toml", ""))
    return JsonResponse(result, status=200 if result["ok"] else 400)

"""Loading an event's deals from a file made by a dealing machine or another program."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy, ngettext

from tournaments.errors import UserError
from tournaments.models import Event
from tournaments.services import deals
from tournaments.views.common import director_required, show_error


class DealFileForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Deal file"),
        help_text=gettext_lazy(
            "A PBN file (.pbn) or a Duplimate dealing machine file (.dlm) holding boards 1 to "
            "%(n)s."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".pbn,.dlm,text/plain"}),
    )

    def __init__(self, *args: object, boards: int, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]  # Form's own signature
        field = self.fields["file"]
        field.help_text = str(field.help_text) % {"n": boards}


@director_required
def deals_import(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        boards = len(deals.board_numbers(event))
    except UserError as error:  # travelling board sets without a movement yet
        show_error(request, error)
        return redirect("deals", slug=event.slug)
    form = DealFileForm(request.POST or None, request.FILES or None, boards=boards)
    tried = ""  # the refused file's name: a file field cannot keep the file itself
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        # One byte past the cap is enough for the service to refuse a file that is too large,
        # without reading all of it.
        data = upload.read(deals.MAX_DEAL_FILE_BYTES + 1)
        try:
            loaded = deals.import_deals(request.user, event, upload.name or "", data)
        except UserError as error:
            show_error(request, error, form)
            tried = deals.deal_file_name(upload.name or "")
        else:
            messages.success(
                request,
                ngettext(
                    "%(n)s board loaded from %(file)s.",
                    "%(n)s boards loaded from %(file)s.",
                    len(loaded),
                )
                % {"n": len(loaded), "file": deals.deal_file_name(upload.name or "")},
            )
            return redirect("deals", slug=event.slug)
    context = {
        "event": event,
        "form": form,
        "tried": tried,
        "boards": boards,
        "dealt": event.boards.exists(),
        "started": event.status != Event.Status.DRAFT,
    }
    return render(request, "tournaments/deals_import.html", context)

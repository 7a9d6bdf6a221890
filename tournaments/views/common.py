"""What every TD view shares: loading an event and checking that the user directs it."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournaments.errors import UserError
from tournaments.models import Event

P = ParamSpec("P")
EventView = Callable[Concatenate[HttpRequest, Event, P], HttpResponse]


def director_required(view: EventView[P]) -> Callable[..., HttpResponse]:
    """Load the event named by ``slug``; only its directors (and superusers) get through."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        event = get_object_or_404(Event, slug=slug)
        if not event.is_directed_by(request.user):
            raise PermissionDenied("only this event's directors may change it")
        return view(request, event, *args, **kwargs)

    return wrapper


def show_error(request: HttpRequest, error: UserError, form: Any = None) -> None:
    """Attach a user error to the form field it names, or show it as a message."""
    if form is not None and error.field and error.field in form.fields:
        form.add_error(error.field, error.message)
    else:
        messages.error(request, error.message)

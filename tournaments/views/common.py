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

from tournaments import roles
from tournaments.errors import UserError
from tournaments.models import Event
from tournaments.typed_input import clean_text

P = ParamSpec("P")
EventView = Callable[Concatenate[HttpRequest, Event, P], HttpResponse]


def director_required(view: EventView[P]) -> Callable[..., HttpResponse]:
    """Load the event named by ``slug``; only its directors (and superusers) get through."""
    return _role_required(view, roles.Role.DIRECTOR)


def entry_required(view: EventView[P]) -> Callable[..., HttpResponse]:
    """Load the event named by ``slug``; its directors and its assistants get through.

    For what an assistant does: enter and correct results, record rulings, fines and penalties.
    """
    return _role_required(view, roles.Role.ASSISTANT)


def _role_required(view: EventView[P], role: roles.Role) -> Callable[..., HttpResponse]:
    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        event = get_object_or_404(Event, slug=slug)
        held = roles.role_of(event, request.user)
        if held < role:
            raise PermissionDenied("this event's role does not allow this")
        # The page's tabs show what this role may do (the ``role_in`` filter) without asking again.
        event.viewer_role = (request.user.pk, held)  # type: ignore[attr-defined]
        return view(request, event, *args, **kwargs)

    return wrapper


def show_error(request: HttpRequest, error: UserError, form: Any = None) -> None:
    """Attach a user error to the form field it names, or show it as a message."""
    if form is not None and error.field and error.field in form.fields:
        form.add_error(error.field, error.message)
    else:
        messages.error(request, error.message)


def posted_text(request: HttpRequest, field: str, *, max_length: int = 300) -> str:
    """A posted field read without a form, checked as ``clean_text`` does."""
    return clean_text(request.POST.get(field, ""), field, max_length=max_length)

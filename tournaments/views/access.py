"""Access pages: an event's directors and assistants, and a user's API tokens.

A new password or a new token key is shown on the page that made it, once, and never stored in
clear: the answer carries ``Cache-Control: no-store`` so that no browser or proxy keeps it either.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.errors import UserError
from tournaments.forms import LineField
from tournaments.models import ApiToken, Event
from tournaments.services import access, tokens
from tournaments.views.common import director_required, show_error


class WhoForm(forms.Form):
    who = LineField(label=gettext_lazy("User name or e-mail address"), max_length=254)


class NewAccountForm(forms.Form):
    username = LineField(label=gettext_lazy("User name"), max_length=150)
    email = forms.EmailField(label=gettext_lazy("E-mail address"), required=False)


class TokenForm(forms.Form):
    name = LineField(label=gettext_lazy("Name"), max_length=80)
    access = forms.ChoiceField(label=gettext_lazy("May"), choices=ApiToken.Access.choices)
    event = forms.ModelChoiceField(
        label=gettext_lazy("Only for event"),
        queryset=Event.objects.none(),
        required=False,
        empty_label=gettext_lazy("every event of mine"),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["event"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = workable_events(user)


def workable_events(user: Any) -> Any:
    """The events ``user`` directs or assists in, newest first."""
    return (
        Event.objects.filter(Q(directors=user) | Q(assistants=user))
        .distinct()
        .order_by("-date", "name")
    )


def _shown_once(response: HttpResponse) -> HttpResponse:
    add_never_cache_headers(response)
    patch_cache_control(response, no_store=True, private=True)
    return response


def _access_page(
    request: HttpRequest, event: Event, bound: dict[str, forms.Form] | None = None, **extra: Any
) -> HttpResponse:
    form_set = {
        "assistant_form": WhoForm(prefix="assistant"),
        "account_form": NewAccountForm(prefix="account"),
        "director_form": WhoForm(prefix="director"),
    }
    form_set.update(bound or {})
    context = {
        "event": event,
        "directors": event.directors.order_by("username"),
        "assistants": event.assistants.order_by("username"),
        **form_set,
        **extra,
    }
    return render(request, "tournaments/event_access.html", context)


@director_required
def event_access(request: HttpRequest, event: Event) -> HttpResponse:
    """Who directs the event and who assists; add an assistant or a director."""
    if request.method != "POST":
        return _access_page(request, event)
    action = request.POST.get("action", "")
    if action == "create_assistant":
        account = NewAccountForm(request.POST, prefix="account")
        if account.is_valid():
            try:
                user, password = access.create_assistant(
                    request.user,
                    event,
                    account.cleaned_data["username"],
                    account.cleaned_data["email"],
                )
            except UserError as error:
                show_error(request, error, account)
            else:
                response = _access_page(request, event, new_user=user, new_password=password)
                return _shown_once(response)
        return _access_page(request, event, {"account_form": account})
    if action in ("add_assistant", "add_director"):
        prefix = "assistant" if action == "add_assistant" else "director"
        form = WhoForm(request.POST, prefix=prefix)
        if form.is_valid():
            try:
                user = access.find_account(form.cleaned_data["who"])
                if action == "add_assistant":
                    access.add_assistant(request.user, event, user)
                    messages.success(
                        request,
                        _("%(user)s may now enter results.") % {"user": user.get_username()},
                    )
                else:
                    access.add_director(request.user, event, user)
                    messages.success(
                        request,
                        _("%(user)s now directs this event.") % {"user": user.get_username()},
                    )
            except UserError as error:
                show_error(request, error, form)
            else:
                return redirect("event_access", slug=event.slug)
        return _access_page(request, event, {f"{prefix}_form": form})
    messages.error(request, _("Choose what to do: add an assistant, an account or a director."))
    return redirect("event_access", slug=event.slug)


@director_required
@require_POST
def event_access_remove(
    request: HttpRequest, event: Event, role: str, user_id: int
) -> HttpResponse:
    """Take an assistant or a director off the event."""
    if role not in ("assistant", "director"):
        raise Http404("no such role")
    user = get_object_or_404(get_user_model(), pk=user_id)
    name = user.get_username()
    try:
        if role == "assistant":
            access.remove_assistant(request.user, event, user)
            messages.success(request, _("%(user)s no longer assists.") % {"user": name})
        else:
            access.remove_director(request.user, event, user)
            messages.success(request, _("%(user)s no longer directs.") % {"user": name})
    except UserError as error:
        show_error(request, error)
    else:
        if role == "director" and user.pk == request.user.pk:
            # A director who stepped down has no access page to go back to.
            return redirect("home")
    return redirect("event_access", slug=event.slug)


@login_required
def account_tokens(request: HttpRequest) -> HttpResponse:
    """The user's API tokens: list, make one (its key shown once), revoke."""
    form = TokenForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            token, key = tokens.create_token(
                request.user,
                form.cleaned_data["name"],
                form.cleaned_data["access"],
                form.cleaned_data["event"],
            )
        except UserError as error:
            show_error(request, error, form)
        else:
            response = _tokens_page(
                request, TokenForm(user=request.user), new_token=token, new_key=key
            )
            return _shown_once(response)
    return _tokens_page(request, form)


def _tokens_page(request: HttpRequest, form: TokenForm, **extra: Any) -> HttpResponse:
    owner: Any = request.user  # signed in: the views that render this are login_required
    mine = ApiToken.objects.filter(user=owner).select_related("event")
    return render(request, "accounts/tokens.html", {"form": form, "tokens": mine, **extra})


@login_required
@require_POST
def account_token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    # Only the user's own tokens: another user's is "not found", as if it did not exist.
    owner: Any = request.user
    token = get_object_or_404(ApiToken, pk=pk, user=owner)
    tokens.revoke_token(request.user, token)
    messages.success(request, _("The token %(name)s is revoked.") % {"name": token.name})
    return redirect("account_tokens")

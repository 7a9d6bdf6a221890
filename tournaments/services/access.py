"""Who works on an event: its directors and assistants; and the accounts that create events.

Only an event's directors change who else may work on it. An assistant enters and corrects results
and records rulings (``tournaments.roles``); a director does everything, including this.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments import roles
from tournaments.errors import NotAllowedError, UserError
from tournaments.models import AuditAction, Event, Organisation
from tournaments.services import audit
from tournaments.services.audit import Actor

# Long enough not to be guessed, short enough to read out or copy by hand once.
PASSWORD_BYTES = 12


def _check_director(actor: Actor, event: Event) -> None:
    if not roles.can_direct(event, actor):
        raise NotAllowedError(_("Only this event's directors may do this."))


def find_account(who: str, field: str = "who") -> Any:
    """The active account whose user name or e-mail address is ``who``."""
    who = who.strip()
    if not who:
        raise UserError(_("Give a user name or an e-mail address."), field=field)
    users = get_user_model().objects.filter(is_active=True)
    user = users.filter(username__iexact=who).first()
    if user is not None:
        return user
    by_email = list(users.filter(email__iexact=who)[:2]) if "@" in who else []
    if len(by_email) > 1:
        raise UserError(
            _("Several accounts have the e-mail address %(email)s: give the user name.")
            % {"email": who},
            code="ambiguous",
            field=field,
        )
    if not by_email:
        raise UserError(
            _("No account has the user name or e-mail address %(who)s.") % {"who": who},
            code="not_found",
            field=field,
        )
    return by_email[0]


@transaction.atomic
def add_assistant(actor: Actor, event: Event, user: Any) -> None:
    """``user`` may enter and correct results of ``event`` from now on."""
    _check_director(actor, event)
    if event.directors.filter(pk=user.pk).exists():
        raise UserError(
            _("%(user)s already directs this event.") % {"user": user.get_username()},
            code="duplicate",
            field="who",
        )
    if event.assistants.filter(pk=user.pk).exists():
        raise UserError(
            _("%(user)s already assists in this event.") % {"user": user.get_username()},
            code="duplicate",
            field="who",
        )
    event.assistants.add(user)
    audit.record(
        actor,
        AuditAction.ACCESS_ASSISTANT_ADD,
        "",
        event=event,
        obj=event,
        message=gettext_noop("%(user)s became an assistant"),
        params={"user": user.get_username()},
    )


@transaction.atomic
def create_assistant(actor: Actor, event: Event, username: str, email: str = "") -> tuple[Any, str]:
    """A new account that assists in ``event``, and its password, which is shown only once."""
    _check_director(actor, event)
    user_model = get_user_model()
    username = username.strip()
    email = email.strip()
    if not username:
        raise UserError(_("Give the new account a user name."), field="username")
    # The same rules as the admin's user form: letters, digits and @.+-_ only, 150 at most.
    try:
        user_model.username_validator(username)
    except ValidationError:  # its message is Django's, in English: ours names the characters
        raise UserError(
            _("A user name has letters, digits and @ . + - _ only."),
            field="username",
        ) from None
    if len(username) > 150:
        raise UserError(_("Keep the user name under 150 characters."), field="username")
    if user_model.objects.filter(username__iexact=username).exists():
        raise UserError(
            _("The user name %(user)s is taken: add that account, or choose another name.")
            % {"user": username},
            code="duplicate",
            field="username",
        )
    if email and ("@" not in email or len(email) > 254 or any(c.isspace() for c in email)):
        raise UserError(_("This is not an e-mail address."), field="email")
    password = secrets.token_urlsafe(PASSWORD_BYTES)
    user = user_model.objects.create_user(username, email=email, password=password)
    audit.record(
        actor,
        AuditAction.ACCESS_ACCOUNT_CREATE,
        "",
        event=event,
        obj=event,
        message=gettext_noop("account %(user)s created"),
        params={"user": username},
    )
    add_assistant(actor, event, user)
    return user, password


@transaction.atomic
def remove_assistant(actor: Actor, event: Event, user: Any) -> None:
    """``user`` no longer works on ``event``; what they entered stays, under their name."""
    _check_director(actor, event)
    if not event.assistants.filter(pk=user.pk).exists():
        raise UserError(
            _("%(user)s does not assist in this event.") % {"user": user.get_username()},
            code="not_found",
        )
    event.assistants.remove(user)
    audit.record(
        actor,
        AuditAction.ACCESS_ASSISTANT_REMOVE,
        "",
        event=event,
        obj=event,
        message=gettext_noop("%(user)s no longer assists"),
        params={"user": user.get_username()},
    )


@transaction.atomic
def add_director(actor: Actor, event: Event, user: Any) -> None:
    """``user`` directs ``event`` from now on (an assistant becomes a director)."""
    _check_director(actor, event)
    if event.directors.filter(pk=user.pk).exists():
        raise UserError(
            _("%(user)s already directs this event.") % {"user": user.get_username()},
            code="duplicate",
            field="who",
        )
    event.assistants.remove(user)
    event.directors.add(user)
    audit.record(
        actor,
        AuditAction.ACCESS_DIRECTOR_ADD,
        "",
        event=event,
        obj=event,
        message=gettext_noop("%(user)s became a director"),
        params={"user": user.get_username()},
    )


@transaction.atomic
def remove_director(actor: Actor, event: Event, user: Any) -> None:
    """``user`` no longer directs ``event``; an event always keeps one director."""
    _check_director(actor, event)
    # The event's row is locked so that two directors removing each other at the same moment
    # cannot both succeed and leave the event without one.
    Event.objects.select_for_update().filter(pk=event.pk).first()
    if not event.directors.filter(pk=user.pk).exists():
        raise UserError(
            _("%(user)s does not direct this event.") % {"user": user.get_username()},
            code="not_found",
        )
    if event.directors.count() <= 1:
        raise UserError(
            _("An event needs a director: add another director before removing this one."),
            code="last_director",
        )
    event.directors.remove(user)
    audit.record(
        actor,
        AuditAction.ACCESS_DIRECTOR_REMOVE,
        "",
        event=event,
        obj=event,
        message=gettext_noop("%(user)s no longer directs"),
        params={"user": user.get_username()},
    )


def organisations_of(user: Any) -> list[Organisation]:
    """The club and federation accounts ``user`` creates events for."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(Organisation.objects.filter(members=user).order_by("name"))


def organisation_for_event(
    user: Any, chosen: Organisation | int | str | None
) -> Organisation | None:
    """The organisation a new event of ``user``'s belongs to.

    The one chosen (``user`` must be a member, unless staff), else the user's only one; a user in
    several must choose; staff in none create events of no organisation.
    """
    mine = organisations_of(user)
    if chosen not in (None, ""):
        pk = chosen.pk if isinstance(chosen, Organisation) else chosen
        try:
            pk = int(pk)  # a posted value or an id
        except (TypeError, ValueError):
            pk = 0
        found = next((o for o in mine if o.pk == pk), None)
        if found is None and getattr(user, "is_staff", False):
            found = Organisation.objects.filter(pk=pk).first()
        if found is None:
            raise UserError(
                _("Choose one of your clubs or federations."),
                code="invalid",
                field="organisation",
            )
        return found
    if len(mine) > 1:
        raise UserError(
            _("You create events for several clubs or federations: choose one."),
            code="required",
            field="organisation",
        )
    return mine[0] if mine else None


def join_organisation(actor: Actor, organisation: Organisation, user: Any) -> None:
    """``user`` creates events for ``organisation`` from now on."""
    organisation.members.add(user)
    audit.record(
        actor,
        AuditAction.ACCESS_MEMBER_ADD,
        "",
        obj=organisation,
        message=gettext_noop("%(user)s joined %(organisation)s"),
        params={"user": user.get_username(), "organisation": organisation.name},
    )

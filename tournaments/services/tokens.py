"""API tokens: made for a user, shown once, kept as a hash, revocable."""

from __future__ import annotations

import hashlib
import secrets
import unicodedata

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments import roles
from tournaments.errors import NotAllowedError, UserError
from tournaments.models import ApiToken, AuditAction, Event
from tournaments.services import audit
from tournaments.services.audit import Actor

# "troef_" and 40 URL-safe characters; the first 12 characters find the token, the rest proves it.
KEY_START = "troef_"
PREFIX_LENGTH = 12


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def authenticate(key: str) -> ApiToken | None:
    """The live token this key belongs to, or ``None``; notes when it was last used."""
    if not key.startswith(KEY_START) or len(key) > 100:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(prefix=key[:PREFIX_LENGTH], revoked_at=None)
        .first()
    )
    if token is None or not secrets.compare_digest(token.key_hash, _hash(key)):
        return None
    if not token.user.is_active:
        return None
    now = timezone.now()
    # Once a minute is enough to tell a TD which tokens are in use; no write per request.
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


@transaction.atomic
def create_token(
    actor: Actor, name: str, access: str, event: Event | None = None
) -> tuple[ApiToken, str]:
    """A new token for ``actor`` and its key, which is never shown again."""
    user = audit.user_of(actor)
    if user is None:
        raise NotAllowedError(_("Sign in to make an API token."))
    name = name.strip() if isinstance(name, str) else ""
    if not name:
        raise UserError(
            _("Give the token a name, such as the site that will use it."), field="name"
        )
    if len(name) > 80 or any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise UserError(
            _("Keep the token's name to one line of at most 80 characters."), field="name"
        )
    if access not in ApiToken.Access.values:
        raise UserError(_("Choose what the token may do."), field="access")
    # A token for an event the user has no part in would only ever read what is public: refused,
    # so that nobody believes it does more.
    if event is not None and roles.role_of(event, user) < roles.Role.ASSISTANT:
        raise UserError(
            _("Choose an event you direct or assist in, or none for all of yours."),
            field="event",
        )
    while True:
        key = KEY_START + secrets.token_urlsafe(30)
        if not ApiToken.objects.filter(prefix=key[:PREFIX_LENGTH]).exists():
            break
    token = ApiToken.objects.create(
        user=user,
        name=name,
        prefix=key[:PREFIX_LENGTH],
        key_hash=_hash(key),
        access=access,
        event=event,
    )
    audit.record(
        actor,
        AuditAction.TOKEN_CREATE,
        "",
        event=event,
        obj=token,
        message=gettext_noop("API token %(name)s made (%(access)s)"),
        params={"name": token.name, "access": access},
    )
    return token, key


@transaction.atomic
def revoke_token(actor: Actor, token: ApiToken) -> ApiToken:
    """The token lets nobody in from now on; it stays listed."""
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        audit.record(
            actor,
            AuditAction.TOKEN_REVOKE,
            "",
            event=token.event,
            obj=token,
            message=gettext_noop("API token %(name)s revoked"),
            params={"name": token.name},
        )
    return token

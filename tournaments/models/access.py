"""Who may do what: organisations (clubs and federations) that create events, and API tokens.

An event's own roles, its directors and its assistants, live on the event (``Event.directors``,
``Event.assistants``); ``tournaments.roles`` reads them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class Organisation(models.Model):
    """A club or a federation whose members create events under its name."""

    class Kind(models.TextChoices):
        CLUB = "club", _("club")
        FEDERATION = "federation", _("federation")

    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.CLUB)
    # The club's own record among the players' clubs, for a club account.
    club = models.ForeignKey(
        "tournaments.Club",
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organisations",
    )
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("members"),
        related_name="organisations",
        blank=True,
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")
        constraints = [
            models.UniqueConstraint(Lower("name"), name="organisation_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name


class ApiToken(models.Model):
    """A key for an API client, acting for its user within what ``access`` and ``event`` allow.

    Only a hash of the key is kept: the key itself is shown once, when it is made. A revoked token
    stays listed (who made it, when it was last used) but lets nobody in.
    """

    class Access(models.TextChoices):
        READ = "read", _("read only")
        ENTER = "enter", _("enter and correct results")
        DIRECT = "direct", _("everything the user may do")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=80)
    # The key's first characters, shown to tell tokens apart and used to find one quickly.
    prefix = models.CharField(max_length=12, unique=True)
    key_hash = models.CharField(max_length=64)
    access = models.CharField(
        _("access"), max_length=10, choices=Access.choices, default=Access.READ
    )
    event = models.ForeignKey(
        "tournaments.Event",
        verbose_name=_("only for event"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    created = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditEntry(models.Model):
    """Who did what, when and why: one row for every change a service makes."""

    event = models.ForeignKey(
        "tournaments.Event",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="audit_entries",
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    action = models.CharField(_("action"), max_length=60)
    object_type = models.CharField(max_length=40, blank=True)
    object_id = models.CharField(max_length=40, blank=True)
    summary = models.CharField(_("summary"), max_length=300)
    # The message in the source language (marked with gettext_noop) and its parameters: pages show
    # it in the reader's language. ``summary`` is the English text, kept for entries without one.
    message = models.CharField(max_length=300, blank=True)
    params = models.JSONField(default=dict, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    data = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        indexes = [models.Index(fields=["event", "-at"], name="audit_event_at_idx")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}: {self.summary}"

    @property
    def text(self) -> str:
        """What happened, in the active language (the English summary for an entry without a
        message, or one whose translation does not fit its parameters)."""
        from django.utils.translation import gettext

        from tournaments.audit_text import readable, readable_params

        if self.message and isinstance(self.params, dict):
            try:
                return gettext(self.message) % readable_params(self.params)
            except (KeyError, TypeError, ValueError):
                pass
        return readable(self.summary)

    @property
    def action_label(self) -> str:
        """The action in the active language (its code when it has no label)."""
        from tournaments.audit_text import action_label

        return action_label(self.action)

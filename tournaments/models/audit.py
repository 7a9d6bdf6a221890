from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditAction(models.TextChoices):
    """What a service did, as the stable code an audit entry keeps (``round.close``) and its label
    in the reader's language.

    ``AuditEntry.action`` is a plain code rather than a field with these choices: entries restored
    from a backup may carry a code this version no longer writes, and such an entry is shown as its
    code (``tournaments.audit_text.action_label``).
    """

    EVENT_CREATE = "event.create", _("event created")
    EVENT_UPDATE = "event.update", _("settings changed")
    EVENT_START = "event.start", _("play started")
    EVENT_FINISH = "event.finish", _("event finished")
    EVENT_ADD_DIRECTOR = "event.add_director", _("director added")
    EVENT_IMPORT = "event.import", _("event restored from a backup")
    ENTRY_REGISTER = "entry.register", _("player registered")
    ENTRY_IMPORT = "entry.import", _("players imported")
    ENTRY_LATE = "entry.late", _("late entry")
    ENTRY_WITHDRAW = "entry.withdraw", _("player withdrawn")
    ENTRY_REINSTATE = "entry.reinstate", _("withdrawal taken back")
    ENTRY_EDIT = "entry.edit", _("player details changed")
    ENTRY_REMOVE = "entry.remove", _("player removed")
    SEAT_ABSENT = "seat.absent", _("player absent")
    SEAT_SUBSTITUTE = "seat.substitute", _("substitute")
    SEAT_ARRIVED = "seat.arrived", _("absent player arrived after all")
    TABLE_SIT_OUT = "table.sit_out", _("table sits out")
    TABLE_ARTIFICIAL = "table.artificial", _("artificial scores for a table")
    MOVEMENT_GENERATE = "movement.generate", _("movement generated")
    MOVEMENT_REPLAN = "movement.replan", _("movement re-planned")
    DEALS_GENERATE = "deals.generate", _("deals generated")
    DEALS_IMPORT = "deals.import", _("deals loaded from a file")
    ROUND_OPEN = "round.open", _("round started")
    ROUND_CLOSE = "round.close", _("round closed")
    ROUND_CLOSE_ANYWAY = "round.close_anyway", _("round closed with results missing")
    ROUND_REOPEN = "round.reopen", _("round reopened")
    ROUND_DEVICE_KEYS = "round.device_keys", _("table device links made")
    ROUND_DEVICE_PINS = "round.device_pins", _("new table device PINs")
    RESULT_RECORD = "result.record", _("result entered")
    RESULT_CORRECT = "result.correct", _("result corrected")
    RESULT_CONFIRM = "result.confirm", _("result confirmed")
    RESULT_CONFIRM_AT_TABLE = "result.confirm_at_table", _("result confirmed at the table")
    RESULT_KEYING_DIFFERS = "result.keying_differs", _("second keying differs")
    RESULT_KEEP_KEYING = "result.keep_keying", _("keying kept over the other")
    TOKEN_CREATE = "token.create", _("API token made")
    TOKEN_REVOKE = "token.revoke", _("API token revoked")
    ACCESS_ASSISTANT_ADD = "access.assistant_add", _("assistant added")
    ACCESS_ASSISTANT_REMOVE = "access.assistant_remove", _("assistant removed")
    ACCESS_ACCOUNT_CREATE = "access.account_create", _("account created")
    ACCESS_DIRECTOR_ADD = "access.director_add", _("director added")
    ACCESS_DIRECTOR_REMOVE = "access.director_remove", _("director removed")
    ACCESS_MEMBER_ADD = "access.member_add", _("member of a club or federation account")
    RATINGS_COMPUTE = "ratings.compute", _("ratings computed")
    ANALYSIS_QUEUE = "analysis.queue", _("double-dummy analysis queued")
    ANALYSIS_DONE = "analysis.done", _("double-dummy table stored")
    RESULT_SHEET = "result.sheet", _("sheet differs")
    RESULT_SHEET_ACCEPT = "result.sheet_accept", _("score accepted over the sheet")
    RESULT_ARTIFICIAL_TABLE = "result.artificial_table", _("artificial scores for a table")
    PENALTY_RECORD = "penalty.record", _("penalty")
    PENALTY_FINE = "penalty.fine", _("fine")
    PENALTY_CANCEL = "penalty.cancel", _("penalty cancelled")
    BYE_SCORE = "bye.score", _("score for a bye")
    REPORT_REQUEST = "report.request", _("document requested")
    REPORT_REGENERATE = "report.regenerate", _("document made again")
    SCORING_TABLE_CREATE = "scoring_table.create", _("scoring table created")
    SCORING_TABLE_SAVE_VERSION = "scoring_table.save_version", _("scoring table version saved")
    SCORING_TABLE_RENAME = "scoring_table.rename", _("scoring table renamed")


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

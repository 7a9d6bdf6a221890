"""The stored documents: one row per requested file, from its request to its download."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ReportFile(models.Model):
    """A generated PDF (or dealing-machine file): queued, built by a Celery job, stored, listed."""

    class Kind(models.TextChoices):
        SCORE_SHEETS = "score_sheets", _("score sheets")
        HAND_RECORDS = "hand_records", _("hand records")
        DEALING_SLIPS = "dealing_slips", _("dealing slips")
        GUIDE_CARDS = "guide_cards", _("guide cards")
        TABLE_CARDS = "table_cards", _("table cards")
        ROUND_PACK = "round_pack", _("all documents of a round")
        STANDINGS = "standings", _("standings")
        SCORE_CARDS = "score_cards", _("personal score cards")
        SUMMARY = "summary", _("event summary")
        DEALING_MACHINE = "dlm", _("dealing machine file (.dlm)")
        PBN = "pbn", _("hand records as PBN")

    # Documents that print the cards before play (or the table devices' PINs): for the event's
    # directors only; its assistants print the sheets, cards and standings.
    SECRET_KINDS = frozenset(
        {
            Kind.HAND_RECORDS,
            Kind.DEALING_SLIPS,
            Kind.TABLE_CARDS,
            Kind.ROUND_PACK,
            Kind.DEALING_MACHINE,
            Kind.PBN,
        }
    )

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("being made")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    class PageSize(models.TextChoices):
        A4 = "A4", "A4"
        LETTER = "letter", "Letter"

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="reports")
    kind = models.CharField(_("document"), max_length=20, choices=Kind.choices)
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    page_size = models.CharField(
        _("paper"), max_length=8, choices=PageSize.choices, default=PageSize.A4
    )
    language = models.CharField(
        _("language"), max_length=2, choices=settings.LANGUAGES, default="nl"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    filename = models.CharField(max_length=200, blank=True)
    content_type = models.CharField(max_length=80, blank=True)
    file = models.FileField(upload_to="reports/%Y/%m/", blank=True)
    error = models.TextField(blank=True)
    # What the stored file was made after (documents.freshness): the newest audit entry of the
    # event in the snapshot it was drawn from, and how many entries that can change a document it
    # saw up to there; what the log says happened since tells whether it is out of date. Empty
    # for files made before the mark was kept: they are shown as not checked.
    audit_mark = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    audit_count = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # Whether the file printed results of its round: a blank score sheet stays up to date when
    # the first results come in.
    printed_results = models.BooleanField(default=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The job's last sign of life: queued, claimed by a worker, progress made. A job that stays
    # queued or running without one for too long has lost its worker (documents.services).
    heartbeat_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        # The table kept its name when the model moved here from the tournaments app.
        db_table = "tournaments_reportfile"
        ordering = ["-created_at", "-id"]
        verbose_name = _("report file")
        verbose_name_plural = _("report files")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(progress__lte=100), name="report_progress_max_100"
            ),
        ]

    def __str__(self) -> str:
        return self.filename or f"{self.get_kind_display()} ({self.get_status_display()})"

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

PUBLICATION_DELAYED_AFTER = dt.timedelta(seconds=30)
"""Standings stale for longer than this are reported as delayed (a computation takes far less)."""


class Result(models.Model):
    """One version of a table's result on a board. Corrections add a version; none is overwritten.

    The scores are stored per seat as the engine computed them under the event's frozen ruleset.
    """

    class Kind(models.TextChoices):
        PLAYED = "played", _("played")
        ARTIFICIAL = "artificial", _("artificial score")
        WEIGHTED = "weighted", _("weighted adjusted score")

    class Status(models.TextChoices):
        ENTERED = "entered", _("entered")
        CONFIRMED = "confirmed", _("confirmed")

    class Source(models.TextChoices):
        PAPER = "paper", _("keyed from the paper sheet")
        DEVICE = "device", _("keyed at the table")
        API = "api", _("sent by an API client")

    class SheetStatus(models.TextChoices):
        NONE = "", _("no difference")
        OPEN = "open", _("sheet differs")
        ACCEPTED = "accepted", _("Troef's figure accepted")

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="results")
    # RESTRICT, not CASCADE: deleting a table or board that has results raises instead of taking
    # the results with it; deleting the whole event still takes everything (docs/deploy.md).
    table = models.ForeignKey(
        "tournaments.Table", on_delete=models.RESTRICT, related_name="results"
    )
    board = models.ForeignKey(
        "tournaments.Board", on_delete=models.RESTRICT, related_name="results"
    )
    version = models.PositiveSmallIntegerField(default=1)
    is_current = models.BooleanField(default=True)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.PLAYED)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ENTERED)
    notation = models.CharField(_("result"), max_length=80, blank=True)
    data = models.JSONField(_("result data"), default=dict)
    score_n = models.IntegerField()
    score_e = models.IntegerField()
    score_s = models.IntegerField()
    score_w = models.IntegerField()
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    # The points written on the paper sheet, per seat, when the keyer typed them; a difference from
    # Troef's scores stays open until the TD accepts Troef's figure or corrects the line.
    sheet = models.JSONField(_("points on the sheet"), default=dict, blank=True)
    sheet_status = models.CharField(
        _("sheet"), max_length=10, choices=SheetStatus.choices, default="", blank=True
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    # The key the keying device sent with this version: the same submission sent again (a retry
    # after a lost answer) is answered with this version instead of being stored twice.
    submission = models.CharField(max_length=64, blank=True, db_index=True)
    source = models.CharField(
        _("keyed"), max_length=8, choices=Source.choices, default=Source.PAPER
    )
    # At the table: the seat of the player who keyed it on the table's device, and the seat of the
    # opponent who confirmed the result on the table's device.
    keyed_at_seat = models.CharField(max_length=1, blank=True, default="")
    table_confirmed_by = models.CharField(max_length=1, blank=True, default="")
    table_confirmed_at = models.DateTimeField(null=True, blank=True)
    # A second keying (the paper sheet after the device, or the device after the paper) that did
    # not agree: what it said, until the TD corrects the result or keeps it.
    other_keying = models.CharField(_("other keying"), max_length=80, blank=True, default="")
    other_keying_source = models.CharField(
        max_length=8, choices=Source.choices, blank=True, default=""
    )

    class Meta:
        # No default order: most reads are counts, sums or lookups by table and board, and an
        # order joining the board and the table would cost every one of them. Lists say theirs.
        constraints = [
            models.UniqueConstraint(
                fields=["table", "board"],
                condition=models.Q(is_current=True),
                name="result_one_current_per_table_board",
            ),
            models.UniqueConstraint(
                fields=["table", "board", "version"], name="result_version_once"
            ),
        ]
        indexes = [
            models.Index(fields=["event", "is_current"], name="result_event_current_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.board} {self.table} v{self.version}: {self.notation}"

    @property
    def scores(self) -> tuple[int, int, int, int]:
        return (self.score_n, self.score_e, self.score_s, self.score_w)


class Standings(models.Model):
    """The event's standings as last computed, stored so that pages read instead of recomputing.

    ``requested`` counts the changes that asked for a recomputation and ``computed`` the one the
    stored ``data`` reflects: a burst of changes is coalesced into one computation.
    """

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="standings"
    )
    requested = models.PositiveIntegerField(default=0)
    computed = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)
    # When the stored standings last fell behind the requests (set by the first request they do not
    # cover): how long publication has been owed, which a broker outage can stretch.
    stale_since = models.DateTimeField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("standings")
        verbose_name_plural = _("standings")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(computed__lte=models.F("requested")),
                name="standings_computed_not_ahead",
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} standings ({self.computed}/{self.requested})"

    @property
    def is_stale(self) -> bool:
        return self.computed < self.requested

    @property
    def publication_delayed(self) -> bool:
        """Stale for longer than a computation takes: the TD is told that publication is delayed."""
        since = self.stale_since or self.computed_at
        if not self.is_stale or since is None:
            return False
        return timezone.now() - since > PUBLICATION_DELAYED_AFTER


class BoardScores(models.Model):
    """Every player's compared boards as the standings computed at ``computed_at`` found them.

    Kept apart from ``Standings`` so that the public standings never load them; the score cards,
    the player pages and the reports read them instead of comparing every board again. The text
    is compact JSON (``engine.standings.board_scores_to_json``).
    """

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="board_scores"
    )
    computed_at = models.DateTimeField(null=True, blank=True)
    data = models.TextField(blank=True)

    class Meta:
        verbose_name = _("board scores")
        verbose_name_plural = _("board scores")

    def __str__(self) -> str:
        return f"{self.event} board scores ({self.computed_at})"

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Penalty(models.Model):
    """A penalty or fine, kept apart from the board's score and always with its reason.

    With a ``table`` and ``board`` (a revoke, a troel not announced), ``points`` holds what each
    seat of that table gets on that board (the ruleset's penalty: ``{"seats": {"N": -8, ...},
    "entries": {entry id: points}}``), added to the table's scores before the comparison. Without
    a board (a fine), ``fine`` holds the entry's deduction from its total: points in raw and datum
    events, percentage points in matchpoint events (two decimals at most).
    """

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="penalties"
    )
    kind = models.CharField(_("kind"), max_length=40)
    table = models.ForeignKey(
        "tournaments.Table",
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="penalties",
    )
    board = models.ForeignKey(
        "tournaments.Board",
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="penalties",
    )
    # RESTRICT here and below: a penalty or a bye score is never lost with a table, board or
    # entry deleted on its own; deleting the whole event still takes them.
    offender = models.ForeignKey(
        "tournaments.Entry", on_delete=models.RESTRICT, related_name="penalties"
    )
    points = models.JSONField(_("points"), default=dict, blank=True)
    fine = models.DecimalField(_("fine"), max_digits=9, decimal_places=2, null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300)
    is_active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(table=None) & models.Q(board=None))
                | (~models.Q(table=None) & ~models.Q(board=None)),
                name="penalty_table_and_board_together",
            ),
            models.CheckConstraint(condition=~models.Q(reason=""), name="penalty_has_a_reason"),
            # A fine is off the total, a penalty on a board: never both, never neither.
            models.CheckConstraint(
                condition=(models.Q(board=None) & ~models.Q(fine=None))
                | (~models.Q(board=None) & models.Q(fine=None)),
                name="penalty_fine_or_board",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind}: {self.offender} ({self.reason})"


class SitOutScore(models.Model):
    """The TD's artificial score for a player who has a bye in a round, with the reason.

    Without one, a bye counts as the player's own average (docs/user-guide.md).
    """

    class Award(models.TextChoices):
        AVERAGE_PLUS = "average_plus", _("average-plus (60 %)")
        AVERAGE = "average", _("average (50 %)")
        AVERAGE_MINUS = "average_minus", _("average-minus (40 %)")

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="sit_out_scores"
    )
    entry = models.ForeignKey(
        "tournaments.Entry", on_delete=models.RESTRICT, related_name="sit_out_scores"
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    award = models.CharField(_("score"), max_length=16, choices=Award.choices)
    reason = models.CharField(_("reason"), max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_number", "entry__number"]
        verbose_name = _("score for a bye")
        verbose_name_plural = _("scores for byes")
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "round_number"], name="sitoutscore_once_per_round"
            ),
            models.CheckConstraint(condition=~models.Q(reason=""), name="sitoutscore_has_a_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} round {self.round_number}: {self.award}"

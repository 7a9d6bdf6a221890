"""Stored ratings: each player's current rating per organisation, and its history event by event.

Both are derived data: ``ratings.services.recompute`` replaces an organisation's rows as a whole
from its finished events, so nothing here is ever edited by hand.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings import skill


class Rating(models.Model):
    """A player's rating over the finished events of one club or federation."""

    organisation = models.ForeignKey(
        "tournaments.Organisation", on_delete=models.CASCADE, related_name="ratings"
    )
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="ratings"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    # The figure shown and ranked on (``skill.display``): kept so that the ranking is one query.
    rating = models.IntegerField(_("rating"))
    events = models.PositiveIntegerField(_("events"))
    boards = models.PositiveIntegerField(_("boards"))
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("organisation", "-rating", "player")
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        # Tuples: Meta options are class attributes, never changed.
        constraints = (
            models.UniqueConstraint(fields=["organisation", "player"], name="rating_once"),
        )
        indexes = (models.Index(fields=["organisation", "-rating"], name="rating_rank_idx"),)

    def __str__(self) -> str:
        return f"{self.player}: {self.rating}"

    @property
    def uncertainty(self) -> int:
        return skill.Skill(self.mu, self.sigma).uncertainty


class RatingPoint(models.Model):
    """A player's rating just after one event: a point of the chart on their rating page."""

    organisation = models.ForeignKey(
        "tournaments.Organisation", on_delete=models.CASCADE, related_name="rating_points"
    )
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="rating_points"
    )
    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="rating_points"
    )
    date = models.DateField(_("date"))
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField(_("rating"))
    # Boards rated so far, this event's included.
    boards = models.PositiveIntegerField(_("boards"))

    class Meta:
        ordering = ("organisation", "player", "date", "event")
        verbose_name = _("rating after an event")
        verbose_name_plural = _("ratings after each event")
        constraints = (
            models.UniqueConstraint(
                fields=["organisation", "player", "event"], name="rating_point_once"
            ),
        )

    def __str__(self) -> str:
        return f"{self.player} {self.date}: {self.rating}"

    @property
    def uncertainty(self) -> int:
        return skill.Skill(self.mu, self.sigma).uncertainty


class RatingsState(models.Model):
    """How far an organisation's stored ratings are behind its finished events.

    Finishing an event bumps ``requested`` in the same transaction; a computation stores the
    ``requested`` it started from in ``computed``. A job lost to a broker outage or a dead worker
    leaves ``computed`` behind, and Celery beat's catch-up (``troef.catch_up_ratings``) redoes it.
    """

    organisation = models.OneToOneField(
        "tournaments.Organisation",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="ratings_state",
    )
    requested = models.PositiveIntegerField(default=0)
    computed = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("ratings state")
        verbose_name_plural = _("ratings states")

    def __str__(self) -> str:
        return f"{self.organisation_id}: {self.computed}/{self.requested}"

    @property
    def behind(self) -> bool:
        return self.computed < self.requested

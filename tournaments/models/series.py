from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class Series(models.Model):
    """A competition over several events: each player's best K event results count."""

    slug = models.SlugField(_("short name for addresses"), max_length=60, unique=True)
    name = models.CharField(_("name"), max_length=150)
    best_of = models.PositiveSmallIntegerField(
        _("results that count"),
        default=5,
        validators=[MinValueValidator(1)],
        help_text=_("Each player's best results count, this many at most."),
    )
    events = models.ManyToManyField("tournaments.Event", related_name="series", blank=True)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="+", blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(best_of__gte=1), name="series_best_of_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

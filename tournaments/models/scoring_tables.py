"""A club's own scoring tables: one named table per club, kept as numbered versions.

A version is written once and never changed: an event that picked it copies its TOML, and a later
version is a new row, so neither the event nor the history can change under anyone's feet.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class ScoringTable(models.Model):
    club = models.ForeignKey(
        "tournaments.Club",
        verbose_name=_("club"),
        on_delete=models.PROTECT,
        related_name="scoring_tables",
    )
    name = models.CharField(_("name"), max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club__name", "name"]
        verbose_name = _("scoring table")
        verbose_name_plural = _("scoring tables")
        constraints = [
            models.UniqueConstraint("club", Lower("name"), name="scoring_table_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return f"{self.club.name}: {self.name}"

    def latest_version(self) -> ScoringTableVersion | None:
        return self.versions.order_by("-number").first()


class ScoringTableVersion(models.Model):
    """One text of a club's table. Immutable: saving an existing row is refused."""

    table = models.ForeignKey(
        ScoringTable,
        verbose_name=_("scoring table"),
        on_delete=models.PROTECT,
        related_name="versions",
    )
    number = models.PositiveIntegerField(_("version"))
    toml = models.TextField(_("ruleset document"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("saved by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("saved at"), auto_now_add=True)

    class Meta:
        ordering = ["table", "-number"]
        verbose_name = _("scoring table version")
        verbose_name_plural = _("scoring table versions")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="scoring_table_version_once"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="scoring_table_version_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} ({_('version')} {self.number})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            # Events and the history refer to this text: a change is a new version.
            raise ValueError("a scoring table version cannot be changed; save a new version")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("a scoring table version cannot be deleted")

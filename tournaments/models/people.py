from __future__ import annotations

from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    city = models.CharField(_("city"), max_length=80, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.UniqueConstraint(Lower("name"), name="club_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80)
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    federation_number = models.CharField(
        _("federation number"), max_length=20, blank=True, default=""
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            # A federation number identifies one player; players without one are told apart by name.
            models.UniqueConstraint(
                fields=["federation_number"],
                condition=~models.Q(federation_number=""),
                name="player_federation_number_unique",
            ),
            models.CheckConstraint(
                condition=~models.Q(first_name="") | ~models.Q(last_name=""),
                name="player_has_a_name",
            ),
        ]
        indexes = [models.Index(Lower("last_name"), Lower("first_name"), name="player_name_idx")]

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

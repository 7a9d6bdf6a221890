"""A board's double-dummy table as the background job stored it (``services.analysis``)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class BoardAnalysis(models.Model):
    """The double-dummy table of one board (``engine.doubledummy.BoardTable.to_json``).

    ``deal`` is the deal that was analysed: the board row lives as long as its deal, but a table
    kept for a deal that has since changed must never be shown. A failed analysis keeps its
    ``error`` and an empty ``data``.
    """

    board = models.OneToOneField(
        "tournaments.Board", on_delete=models.CASCADE, related_name="analysis"
    )
    deal = models.CharField(_("deal (PBN)"), max_length=80)
    data = models.JSONField(_("double-dummy table"), default=dict, blank=True)
    computed_at = models.DateTimeField(_("computed at"))
    solver = models.CharField(_("solver"), max_length=20, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        verbose_name = _("board analysis")
        verbose_name_plural = _("board analyses")

    def __str__(self) -> str:
        return f"{self.board_id}: {self.solver or '-'} {'error' if self.error else 'ok'}"

    @property
    def is_done(self) -> bool:
        """A table stored for the board's current deal."""
        return not self.error and bool(self.data)

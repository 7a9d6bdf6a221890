"""The ratings app: each player's rating over a club's or federation's finished events."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # Registered at start, like the tournaments app's tasks (tournaments.apps).
        from ratings import tasks  # noqa: F401

"""The tournaments app: events, players, rounds, results and standings (their printed documents
are the documents app)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # The Celery tasks are registered when the process starts, before a web process starts
        # threads: services send jobs by name (services.jobs) and find them registered.
        from tournaments import tasks  # noqa: F401

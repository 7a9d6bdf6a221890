"""The documents app: every printed document of an event, made on request and kept."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DocumentsConfig(AppConfig):
    name = "documents"
    verbose_name = _("Documents")

    def ready(self) -> None:
        # The Celery task is registered when the process starts, before a web process starts
        # threads: services send jobs by name (tournaments.services.jobs) and find it registered.
        from documents import tasks  # noqa: F401

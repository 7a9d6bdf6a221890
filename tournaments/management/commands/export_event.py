"""``python manage.py export_event SLUG FILE``: one event as one JSON document (``-`` for stdout).

See tournaments/services/backup.py for what the document holds, docs/deploy.md for its use.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Event
from tournaments.services import backup


class Command(BaseCommand):
    help = "Write one event, with everything it is made of, to a JSON file (- for stdout)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the event's short name")
        parser.add_argument("file", help="where to write the document (- for stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["slug"]).first()
        if event is None:
            raise CommandError(f"There is no event with the short name {options['slug']!r}.")
        text = json.dumps(backup.export_event(event), ensure_ascii=False, indent=1) + "\n"
        if options["file"] == "-":
            sys.stdout.write(text)
            return
        path = Path(options["file"])
        try:
            # Written beside the target and renamed: an interrupted export leaves no half file.
            partial = path.with_name(path.name + ".partial")
            partial.write_text(text, encoding="utf-8")
            partial.replace(path)
        except OSError as error:
            raise CommandError(f"Cannot write {path}: {error.strerror}") from error
        self.stdout.write(self.style.SUCCESS(f"Event {event.slug!r} written to {path}."))

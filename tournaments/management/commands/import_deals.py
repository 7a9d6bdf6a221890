"""``python manage.py import_deals SLUG FILE``: load an event's deals from a PBN or ``.dlm`` file.

The same checks as the deals page (every board of the event, once; 52 different cards, 13 to
each hand; a turned-up card for each Wiezen board), all or nothing. ``-`` reads the file from
stdin.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.errors import UserError
from tournaments.models import Event
from tournaments.services import deals


class Command(BaseCommand):
    help = "Load an event's deals from a PBN or Duplimate .dlm file (- for stdin)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the event's short name")
        parser.add_argument("file", help="the .pbn or .dlm file (- for stdin)")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["slug"]).first()
        if event is None:
            raise CommandError(f"There is no event with the short name {options['slug']!r}.")
        name = options["file"]
        limit = deals.MAX_DEAL_FILE_BYTES + 1  # one byte more lets the service refuse it
        try:
            if name == "-":
                data = sys.stdin.buffer.read(limit)
            else:
                with Path(name).open("rb") as file:
                    data = file.read(limit)
        except OSError as error:
            raise CommandError(f"Cannot read {name}: {error.strerror}") from error
        try:
            boards = deals.import_deals(None, event, "stdin" if name == "-" else name, data)
        except UserError as error:
            raise CommandError(error.message) from error
        self.stdout.write(
            self.style.SUCCESS(f"{len(boards)} boards of {event.slug!r} loaded from {name}.")
        )

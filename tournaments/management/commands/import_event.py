"""``python manage.py import_event FILE [--slug NEW]``: restore an event from ``export_event``.

All or nothing, in one transaction. Players and clubs that exist already are reused (by
federation number, else by name); users missing from this database are left empty and listed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.errors import UserError
from tournaments.services import backup


class Command(BaseCommand):
    help = "Restore an event from a file written by export_event (- for stdin)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the exported document (- for stdin)")
        parser.add_argument(
            "--slug", help="a new short name for the event (when the file's is taken here)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
            document = json.loads(text)
        except OSError as error:
            raise CommandError(f"Cannot read {name}: {error.strerror}") from error
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CommandError(f"{name} is not a JSON document: {error}") from error
        try:
            done = backup.import_event(None, document, slug=options["slug"])
        except UserError as error:
            raise CommandError(error.message) from error
        self.stdout.write(
            f"Players: {done.players_linked} already here, {done.players_created} added. "
            f"Clubs: {done.clubs_linked} already here, {done.clubs_created} added."
        )
        if done.missing_users:
            self.stdout.write(
                self.style.WARNING(
                    "Users not in this database, left empty (directors, keyers, the log's "
                    "actors): " + ", ".join(done.missing_users)
                )
            )
        self.stdout.write(self.style.SUCCESS(f"Event {done.event.slug!r} imported."))

"""``python manage.py analyse_boards [SLUG ...]``: work out the double-dummy tables still missing.

Boards dealt while no analysis worker ran, or events restored from a backup before the workers
were started, have no table, and a board whose analysis failed has none either. With a background worker the command queues one job per board that
lacks one (``--here`` or no broker: it works them out in this process instead, minutes a board).
Without a name it takes every event that has deals.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Event
from tournaments.services import analysis


class Command(BaseCommand):
    help = "Queue (or, with --here, work out) the double-dummy tables that boards still lack."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slugs", nargs="*", metavar="SLUG", help="events' short names")
        parser.add_argument(
            "--here",
            action="store_true",
            help="work the tables out in this process rather than queue them for a worker",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slugs: list[str] = options["slugs"]
        events = Event.objects.filter(boards__isnull=False).distinct().order_by("date", "pk")
        if slugs:
            found = set(events.filter(slug__in=slugs).values_list("slug", flat=True))
            missing = [slug for slug in slugs if slug not in found]
            if missing:
                raise CommandError(
                    "No event with deals has the short name " + ", ".join(map(repr, missing)) + "."
                )
            events = events.filter(slug__in=slugs)
        here = options["here"] or not analysis.in_background()
        for event in events:
            if here:
                done = analysis.analyse_missing(event, progress=self._progress)
                self.stdout.write(f"{event.slug}: {done} boards analysed.")
            else:
                queued = analysis.schedule_analysis(event, retry_failed=True)
                self.stdout.write(f"{event.slug}: {queued} boards queued for the analysis worker.")

    def _progress(self, number: int) -> None:
        self.stdout.write(f"  board {number}", ending="\n")
        self.stdout.flush()

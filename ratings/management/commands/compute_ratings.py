"""``python manage.py compute_ratings [--organisation ID]``: recompute ratings from scratch.

Every club and federation with a finished event, or the one given. Safe to run at any time: the
ratings are replaced as a whole, with the same figures for the same events.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.services import recompute
from tournaments.models import Event, Organisation


class Command(BaseCommand):
    help = "Recompute the players' ratings of every club and federation (or of one) from scratch."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--organisation",
            type=int,
            help="the id of the club or federation (default: every one with a finished event)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        chosen = options.get("organisation")
        if chosen is not None:
            if not Organisation.objects.filter(pk=chosen).exists():
                raise CommandError(f"no club or federation has the id {chosen}")
            ids = [chosen]
        else:
            ids = sorted(
                set(
                    Event.objects.filter(
                        status=Event.Status.FINISHED, organisation__isnull=False
                    ).values_list("organisation_id", flat=True)
                )
            )
        for organisation_id in ids:
            outcome = recompute(organisation_id)
            if outcome is None:
                continue
            name = Organisation.objects.get(pk=organisation_id).name
            self.stdout.write(
                f"{name}: {outcome.players} players rated, finished events: {outcome.events}"
            )

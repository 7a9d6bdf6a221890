"""``python manage.py demo``: a demo TD account (and, once events exist, a demo tournament).

Idempotent: running it again keeps what is there and prints the same login.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from tournaments.services import jobs

DEMO_USERNAME = "td"


def demo_password(name: str = "demo_td_password") -> str:
    """A demo account's password, generated once and kept under ``var/`` for this installation."""
    path = Path(settings.VAR_DIR) / name
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    password = secrets.token_urlsafe(9)
    path.write_text(password)
    path.chmod(0o600)
    return password


class Command(BaseCommand):
    help = "Create the demo tournament director account and the demo event (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--username", default=DEMO_USERNAME, help="the demo TD's user name (default: td)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # One standings computation per event when the demo is in, not one per result keyed.
        with jobs.standings_held(), transaction.atomic():
            self._load(options["username"])

    def _load(self, username: str) -> None:
        password = demo_password()
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=username, defaults={"is_staff": True, "first_name": "Demo", "last_name": "TD"}
        )
        if created or not user.check_password(password):
            user.set_password(password)
            user.is_staff = True
            user.save()
        from tournaments.demo import demo_assistant, load_demo_event, load_demo_season

        event = load_demo_event(user)
        if event is not None:
            self.stdout.write(f"Demo event: http://127.0.0.1:8000/events/{event.slug}/")
            # The club's previous evenings, finished: the players' ratings come from them.
            season = load_demo_season(user)
            if season and season[0].organisation_id is not None:
                # Three evenings are fewer boards than a ranking lists by default.
                self.stdout.write(
                    "Demo ratings: http://127.0.0.1:8000/ratings/"
                    f"{season[0].organisation_id}/?min=40"
                )
        self.stdout.write(
            self.style.SUCCESS(f"Demo TD login: user {username!r}, password {password!r}")
        )
        if event is not None:
            # Enters and corrects the demo's results; cannot change the event or its players.
            helper_name = f"{username}-assistant"
            helper_password = demo_password("demo_assistant_password")
            demo_assistant(event, helper_name, helper_password)
            self.stdout.write(
                self.style.SUCCESS(
                    f"Demo assistant login: user {helper_name!r}, password {helper_password!r}"
                )
            )

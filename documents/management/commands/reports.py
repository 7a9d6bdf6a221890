"""``python manage.py reports``: an event's printed documents as files, without a browser.

    python manage.py reports --event demo --round 3 --out prints/
    python manage.py reports --event demo --standings --score-cards --out prints/ --paper letter

``--round`` writes that round's score sheets, table cards, hand records and dealing slips, one PDF
each. Nothing in the event changes, so the command can be run as often as needed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from documents.kinds import LANGUAGES, ROUND_DOCUMENTS, renderer_for
from documents.models import ReportFile
from tournaments.errors import UserError
from tournaments.models import Event

PAPERS = {"a4": "A4", "letter": "letter"}
EVENT_DOCUMENTS = (
    ("guide_cards", ReportFile.Kind.GUIDE_CARDS),
    ("standings", ReportFile.Kind.STANDINGS),
    ("score_cards", ReportFile.Kind.SCORE_CARDS),
    ("summary", ReportFile.Kind.SUMMARY),
)


class Command(BaseCommand):
    help = "Write an event's documents as PDF files: a round's sheets and cards, the standings..."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--event", required=True, help="the event's short name (slug)")
        parser.add_argument("--out", required=True, type=Path, help="the directory to write to")
        parser.add_argument(
            "--round",
            type=int,
            dest="round_number",
            help="write this round's score sheets, table cards, hand records and dealing slips",
        )
        parser.add_argument("--guide-cards", action="store_true", help="every player's guide card")
        parser.add_argument("--standings", action="store_true", help="the standings")
        parser.add_argument(
            "--score-cards", action="store_true", help="every player's personal score card"
        )
        parser.add_argument("--summary", action="store_true", help="the event summary")
        parser.add_argument(
            "--paper",
            default="A4",
            type=str.lower,
            choices=sorted(PAPERS),
            help="A4 (the default) or letter",
        )
        parser.add_argument(
            "--language", choices=LANGUAGES, help="nl, fr or en (default: the event's language)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["event"]).first()
        if event is None:
            raise CommandError(f"There is no event {options['event']!r}.")
        kinds: list[tuple[str, int | None]] = []
        round_number: int | None = options["round_number"]
        if round_number is not None:
            if not 1 <= round_number <= event.rounds:
                raise CommandError(
                    f"Round {round_number} is out of range: {event.slug} has rounds 1 to {event.rounds}."
                )
            kinds += [(kind, round_number) for kind in ROUND_DOCUMENTS]
        kinds += [(kind, None) for option, kind in EVENT_DOCUMENTS if options[option]]
        if not kinds:
            raise CommandError(
                "Nothing to write: give --round N and/or --guide-cards, --standings, "
                "--score-cards, --summary."
            )
        out = self.directory(options["out"])
        for kind, number in kinds:
            try:
                renderer = renderer_for(
                    event,
                    kind,
                    round_number=number,
                    paper=PAPERS[options["paper"]],
                    language=options["language"],
                )
                rendered = renderer.render()
            except UserError as error:
                raise CommandError(error.message) from error
            path = out / rendered.filename
            try:
                path.write_bytes(rendered.content)
            except OSError as error:
                raise CommandError(f"Cannot write {path}: {error.strerror or error}.") from error
            self.stdout.write(str(path))

    def directory(self, out: Path) -> Path:
        """``out``, created when missing; a clear error when it cannot be written to."""
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(
                f"Cannot create the directory {out}: {error.strerror or error}."
            ) from error
        probe = out / ".troef-write-test"
        try:
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as error:
            raise CommandError(f"Cannot write to {out}: {error.strerror or error}.") from error
        return out

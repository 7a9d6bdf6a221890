from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.models import Club, Entry, Event, Player
from tournaments.services import audit

# Column names accepted in a CSV header, in English, Dutch and French.
CSV_COLUMNS = {
    "first_name": {"first_name", "first name", "firstname", "voornaam", "prénom", "prenom"},
    "last_name": {"last_name", "last name", "lastname", "surname", "naam", "achternaam", "nom"},
    "club": {"club", "vereniging", "cercle"},
    "federation_number": {
        "federation_number",
        "federation number",
        "number",
        "lidnummer",
        "licentie",
        "numéro",
        "numero",
        "licence",
    },
}


@dataclass
class ImportReport:
    added: list[Entry] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)


def _club(name: str) -> Club | None:
    name = name.strip()
    if not name:
        return None
    if len(name) > 120:
        raise UserError(
            _("A club name may have at most 120 characters."), code="too_long", field="club"
        )
    club = Club.objects.filter(name__iexact=name).first()
    return club or Club.objects.create(name=name)


def _player(first_name: str, last_name: str, club_name: str, federation_number: str) -> Player:
    first_name, last_name = first_name.strip(), last_name.strip()
    federation_number = federation_number.strip()
    if not first_name and not last_name:
        raise UserError(_("A player needs a name."), code="required", field="last_name")
    if len(first_name) > 80 or len(last_name) > 80:
        raise UserError(
            _("A name may have at most 80 characters."), code="too_long", field="last_name"
        )
    if len(federation_number) > 20:
        raise UserError(
            _("A federation number may have at most 20 characters."),
            code="too_long",
            field="federation_number",
        )
    club = _club(club_name)
    if federation_number:
        player = Player.objects.filter(federation_number=federation_number).first()
        if player is not None:
            if (player.first_name.lower(), player.last_name.lower()) != (
                first_name.lower(),
                last_name.lower(),
            ):
                raise UserError(
                    _("Federation number %(number)s belongs to %(name)s.")
                    % {"number": federation_number, "name": player.full_name},
                    code="federation_number_taken",
                    field="federation_number",
                )
            return player
        return Player.objects.create(
            first_name=first_name,
            last_name=last_name,
            club=club,
            federation_number=federation_number,
        )
    player = Player.objects.filter(
        first_name__iexact=first_name, last_name__iexact=last_name, club=club, federation_number=""
    ).first()
    return player or Player.objects.create(first_name=first_name, last_name=last_name, club=club)


def _enter(event: Event, player: Player, first_round: int = 1) -> Entry:
    if event.entries.filter(player=player).exists():
        raise UserError(
            _("%(name)s is already registered for this event.") % {"name": player.full_name},
            code="duplicate",
            field="last_name",
        )
    number = (event.entries.aggregate(top=Max("number"))["top"] or 0) + 1
    return Entry.objects.create(event=event, player=player, number=number, first_round=first_round)


@transaction.atomic
def register_player(
    actor: Any,
    event: Event,
    *,
    first_name: str,
    last_name: str,
    club: str = "",
    federation_number: str = "",
) -> Entry:
    """Register a player before play starts (late arrivals go through ``add_late_player``)."""
    event = _lock(event)
    if event.status != Event.Status.DRAFT:
        raise UserError(_("Play has started: add a late arrival instead."), code="event_started")
    player = _player(first_name, last_name, club, federation_number)
    entry = _enter(event, player)
    audit.record(
        actor,
        "entry.register",
        f"registered {player.full_name} as player {entry.number}",
        event=event,
        obj=entry,
    )
    _seat_again(actor, event)
    return entry


def _lock(event: Event) -> Event:
    # Player numbers are "the highest so far plus one": two registrations at the same moment
    # would take the same number without this lock.
    return Event.objects.select_for_update().get(pk=event.pk)


def _seat_again(actor: Any, event: Event) -> None:
    """Before play, a movement made for other players is made again for the players now here."""
    from tournaments.services import seating

    if event.round_set.filter(tables__isnull=False).exists():
        seating.generate_movement(actor, event)


def _header_map(header: list[str]) -> dict[str, int]:
    columns: dict[str, int] = {}
    for index, name in enumerate(header):
        key = name.strip().lower()
        for column, aliases in CSV_COLUMNS.items():
            if key in aliases and column not in columns:
                columns[column] = index
    return columns


@transaction.atomic
def import_players_csv(actor: Any, event: Event, text: str) -> ImportReport:
    """Register every good row of a CSV file; a bad row is reported with its line number and reason.

    The first line is a header naming the columns (first name, last name, club, federation number, in
    English, Dutch or French); commas and semicolons both work as separators.
    """
    event = _lock(event)
    if event.status != Event.Status.DRAFT:
        raise UserError(_("Play has started: add a late arrival instead."), code="event_started")
    report = ImportReport()
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise UserError(_("The file is empty."), code="empty", field="file")
    try:
        dialect: Any = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        return _import_rows(actor, event, csv.reader(io.StringIO(text), dialect), report)
    except csv.Error as exc:
        raise UserError(
            _("The file is not a CSV file Troef can read: %(problem)s") % {"problem": exc},
            code="bad_file",
            field="file",
        ) from exc


def _import_rows(actor: Any, event: Event, rows: Any, report: ImportReport) -> ImportReport:
    header = next(rows)
    columns = _header_map(header)
    if "last_name" not in columns:
        raise UserError(
            _(
                "Line 1 must name the columns, with at least a last name column (e.g. first_name,last_name,club,federation_number)."
            ),
            code="bad_header",
            field="file",
        )

    def cell(row: list[str], column: str) -> str:
        index = columns.get(column)
        return row[index] if index is not None and index < len(row) else ""

    for row in rows:
        line = rows.line_num
        if not any(value.strip() for value in row):
            continue
        try:
            with transaction.atomic():
                player = _player(
                    cell(row, "first_name"),
                    cell(row, "last_name"),
                    cell(row, "club"),
                    cell(row, "federation_number"),
                )
                entry = _enter(event, player)
        except UserError as exc:
            report.errors.append((line, exc.message))
            continue
        report.added.append(entry)
    audit.record(
        actor,
        "entry.import",
        f"imported {len(report.added)} players, {len(report.errors)} rows refused",
        event=event,
        data={"errors": report.errors},
    )
    if report.added:
        _seat_again(actor, event)
    return report


@transaction.atomic
def withdraw_player(actor: Any, entry: Entry, reason: str = "") -> Entry:
    """Withdraw a player from the rounds not yet played; the rounds already played keep their scores."""
    from tournaments.services import seating

    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        return entry
    event = entry.event
    played = seating.rounds_played(event)
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_after_round = played
    entry.save(update_fields=["status", "withdrawn_after_round"])
    audit.record(
        actor,
        "entry.withdraw",
        f"withdrew {entry.player.full_name} after round {played}",
        event=event,
        obj=entry,
        reason=reason,
    )
    if event.round_set.filter(tables__isnull=False).exists():
        seating.replan(actor, event, reason=_("withdrawal of %(name)s") % {"name": entry.player})
    return entry


@transaction.atomic
def add_late_player(
    actor: Any,
    event: Event,
    *,
    first_name: str,
    last_name: str,
    club: str = "",
    federation_number: str = "",
    reason: str = "",
) -> Entry:
    """Add a player who plays from the next round not yet started, re-planning those rounds."""
    from tournaments.services import seating

    event = _lock(event)
    player = _player(first_name, last_name, club, federation_number)
    first_round = seating.rounds_played(event) + 1
    if first_round > event.rounds:
        raise UserError(_("Every round has been played."), code="no_rounds_left")
    entry = _enter(event, player, first_round=first_round)
    audit.record(
        actor,
        "entry.late",
        f"added {player.full_name} from round {first_round}",
        event=event,
        obj=entry,
        reason=reason,
    )
    if event.round_set.filter(tables__isnull=False).exists():
        seating.replan(actor, event, reason=_("late arrival of %(name)s") % {"name": player})
    return entry

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.errors import UserError
from tournaments.models import (
    AuditAction,
    AuditEntry,
    Entry,
    Event,
    Penalty,
    Player,
    Result,
    Round,
    Seating,
    SitOutScore,
    Table,
)
from tournaments.services import audit, jobs, late_arrivals, registration, seating, substitutes
from tournaments.services.audit import Actor

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


@transaction.atomic
def register_player(
    actor: Actor,
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
    player = registration.player_named(first_name, last_name, club, federation_number)
    entry = registration.enter(event, player)
    audit.record(
        actor,
        AuditAction.ENTRY_REGISTER,
        "",
        message=gettext_noop("registered %(name)s as player %(number)s"),
        params={"name": player.full_name, "number": entry.number},
        event=event,
        obj=entry,
    )
    _seat_again(actor, event)
    return entry


def _lock(event: Event) -> Event:
    # Player numbers are "the highest so far plus one": two registrations at the same moment
    # would take the same number without this lock.
    return Event.objects.select_for_update().get(pk=event.pk)


def _seat_again(actor: Actor, event: Event) -> None:
    """Before play, a movement made for other players is made again for the players now here."""
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
def import_players_csv(actor: Actor, event: Event, text: str) -> ImportReport:
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


def _import_rows(actor: Actor, event: Event, rows: Any, report: ImportReport) -> ImportReport:
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
                player = registration.player_named(
                    cell(row, "first_name"),
                    cell(row, "last_name"),
                    cell(row, "club"),
                    cell(row, "federation_number"),
                )
                entry = registration.enter(event, player)
        except UserError as exc:
            report.errors.append((line, exc.message))
            continue
        report.added.append(entry)
    audit.record(
        actor,
        AuditAction.ENTRY_IMPORT,
        "",
        message=gettext_noop("imported %(added)s players, %(refused)s rows refused"),
        params={"added": len(report.added), "refused": len(report.errors)},
        event=event,
        data={"errors": report.errors},
    )
    if report.added:
        _seat_again(actor, event)
    return report


@transaction.atomic
def add_late_player(
    actor: Actor,
    event: Event,
    *,
    first_name: str,
    last_name: str,
    club: str = "",
    federation_number: str = "",
    reason: str = "",
) -> Entry:
    """Add a player who plays from the next round not yet started.

    They take a vacant seat, or a sit-out seat of the movement, without moving anyone else
    (``late_arrivals.add_late_arrival``, which also says where they went); when there is none
    they have no seat until the TD re-plans.
    """
    return late_arrivals.add_late_arrival(
        actor,
        event,
        first_name=first_name,
        last_name=last_name,
        club=club,
        federation_number=federation_number,
        reason=reason,
    ).entry


# --- withdrawing, taking a withdrawal back, editing and removing -------------------------------
#
# Each change comes as ``verify_x`` (raises the UserError saying why not), ``can_x`` (for the pages)
# and ``x`` (does it, in a transaction, with an audit entry).


def _later_seatings(event: Event, played: int) -> Any:
    """Seats in the rounds not yet started: the only ones a change of players may touch."""
    return Seating.objects.filter(round__event=event, round__number__gt=played)


def verify_withdraw(entry: Entry) -> None:
    event = entry.event
    name = entry.player.full_name
    if event.status == Event.Status.DRAFT:
        raise UserError(
            _("Play has not started: remove %(name)s instead of withdrawing.") % {"name": name},
            code="event_not_started",
        )
    if event.status == Event.Status.FINISHED:
        raise UserError(_("The event is finished."), code="event_finished")
    if entry.status == Entry.Status.WITHDRAWN:
        raise UserError(
            _("%(name)s has already withdrawn.") % {"name": name}, code="already_withdrawn"
        )
    if seating.rounds_played(event) >= event.rounds:
        raise UserError(
            _("Every round has started: there is no later seat to leave."),
            code="no_rounds_left",
        )


def can_withdraw(entry: Entry) -> bool:
    return _allowed(verify_withdraw, entry)


def _allowed(verify: Any, entry: Entry) -> bool:
    try:
        verify(entry)
    except UserError:
        return False
    return True


@transaction.atomic
def withdraw_player(actor: Actor, entry: Entry, reason: str) -> Entry:
    """Withdraw a player from the rounds not yet started, leaving every other seat as it is.

    The player's seats in those rounds become vacant (for a substitute or a late arrival; a re-plan
    is the TD's separate choice) and their byes there go, as a bye cannot be vacant. The rounds
    already started keep their seats and scores. What was changed is kept in the audit entry's
    ``data``, so that ``reinstate_player`` can put it back.
    """
    # The event's row first, as opening a round and re-planning do: no round starts meanwhile.
    event = _lock(entry.event)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    entry.event = event
    verify_withdraw(entry)
    reason = reason.strip()
    if not reason:
        raise UserError(_("Say why the player withdraws."), code="required", field="reason")
    played = seating.rounds_played(event)
    later = _later_seatings(event, played).filter(entry=entry).select_related("round", "table")
    vacated: list[dict[str, Any]] = []
    byes: list[int] = []
    for seat in later.order_by("round__number"):
        if seat.seat == Seating.Seat.BYE:
            byes.append(seat.round.number)
            continue
        assert seat.table is not None
        vacated.append(
            {
                "seating": seat.pk,
                "round": seat.round.number,
                "table": seat.table.number,
                "seat": seat.seat,
                # A seat the player had taken from someone else stays that person's seat.
                "replaces": seat.replaces_id,
            }
        )
        seat.entry = None
        seat.replaces_id = seat.replaces_id or entry.pk
        seat.save(update_fields=["entry", "replaces"])
    later.filter(seat=Seating.Seat.BYE).delete()
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_after_round = played
    entry.save(update_fields=["status", "withdrawn_after_round"])
    audit.record(
        actor,
        AuditAction.ENTRY_WITHDRAW,
        "",
        event=event,
        obj=entry,
        reason=reason,
        data={"vacated": vacated, "byes": byes},
        message=gettext_noop("withdrew %(name)s after round %(round)s"),
        params={"name": entry.player.full_name, "round": played},
    )
    jobs.standings_changed(event)
    return entry


def withdrawal_of(entry: Entry) -> AuditEntry | None:
    """The audit entry of the entry's latest withdrawal (its reason, and what it changed)."""
    return (
        AuditEntry.objects.filter(
            event_id=entry.event_id,
            action=AuditAction.ENTRY_WITHDRAW,
            object_type="entry",
            object_id=str(entry.pk),
        )
        .order_by("-at", "-id")
        .first()
    )


def verify_reinstate(entry: Entry) -> AuditEntry:
    """Refuse to take back a withdrawal once anything has been built on it; else its audit entry."""
    name = entry.player.full_name
    if entry.status != Entry.Status.WITHDRAWN or entry.withdrawn_after_round is None:
        raise UserError(_("%(name)s has not withdrawn.") % {"name": name}, code="not_withdrawn")
    event = entry.event
    if event.status == Event.Status.FINISHED:
        raise UserError(_("The event is finished."), code="event_finished")
    played = seating.rounds_played(event)
    if played > entry.withdrawn_after_round:
        raise UserError(
            _(
                "Round %(round)s has started since %(name)s withdrew: the withdrawal can no longer be undone."
            )
            % {"round": played, "name": name},
            code="round_started",
        )
    withdrawal = withdrawal_of(entry)
    if withdrawal is None or "vacated" not in withdrawal.data:
        raise UserError(
            _("Troef has no record of the seats %(name)s left: the withdrawal cannot be undone.")
            % {"name": name},
            code="no_record",
        )
    vacated = withdrawal.data["vacated"]
    seats = Seating.objects.in_bulk([seat["seating"] for seat in vacated])
    for seat in vacated:
        now = seats.get(seat["seating"])
        if now is None:
            raise UserError(
                _(
                    "The rounds after round %(round)s have been re-planned since %(name)s withdrew: the withdrawal can no longer be undone."
                )
                % {"round": entry.withdrawn_after_round, "name": name},
                code="replanned",
            )
        if now.entry_id is not None:
            raise UserError(
                _(
                    "Round %(round)s, table %(table)s, seat %(seat)s has been given to someone else since %(name)s withdrew: the withdrawal can no longer be undone."
                )
                % {
                    "round": seat["round"],
                    "table": seat["table"],
                    "seat": seat["seat"],
                    "name": name,
                },
                code="seat_taken",
            )
    return withdrawal


def can_reinstate(entry: Entry) -> bool:
    return _allowed(verify_reinstate, entry)


@transaction.atomic
def reinstate_player(actor: Actor, entry: Entry, reason: str = "") -> Entry:
    """Undo a withdrawal: the player gets back the seats and byes the withdrawal took away."""
    event = _lock(entry.event)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    entry.event = event
    withdrawal = verify_reinstate(entry)
    after_round = entry.withdrawn_after_round

    for seat in withdrawal.data["vacated"]:
        Seating.objects.filter(pk=seat["seating"], entry=None).update(
            entry=entry, replaces_id=seat["replaces"]
        )
    # A table ruled on for the empty seat (it sits out, say) plays again once the seat is filled.
    for table in Table.objects.filter(
        seatings__pk__in=[s["seating"] for s in withdrawal.data["vacated"]]
    ):
        substitutes.tidy_ruling(table)
    rounds = event.round_set.filter(number__in=withdrawal.data["byes"]).exclude(
        seatings__entry=entry
    )
    Seating.objects.bulk_create(
        Seating(round=round_, table=None, entry=entry, seat=Seating.Seat.BYE) for round_ in rounds
    )
    entry.status = Entry.Status.ACTIVE
    entry.withdrawn_after_round = None
    entry.save(update_fields=["status", "withdrawn_after_round"])
    audit.record(
        actor,
        AuditAction.ENTRY_REINSTATE,
        "",
        event=event,
        obj=entry,
        reason=reason.strip(),
        data={"withdrawal": withdrawal.pk},
        message=gettext_noop("took back the withdrawal of %(name)s after round %(round)s"),
        params={"name": entry.player.full_name, "round": after_round},
    )
    jobs.standings_changed(event)
    return entry


@transaction.atomic
def edit_player(
    actor: Actor,
    entry: Entry,
    first_name: str,
    last_name: str,
    club: str = "",
    federation_number: str = "",
) -> Player:
    """Correct a player's name, club or federation number: the same person in every event."""
    event = _lock(entry.event)
    player = Player.objects.select_for_update().get(pk=entry.player_id)
    first_name, last_name, federation_number = registration.checked_person(
        first_name, last_name, federation_number
    )
    if federation_number:
        holder = (
            Player.objects.filter(federation_number=federation_number).exclude(pk=player.pk).first()
        )
        if holder is not None:
            raise UserError(
                _("Federation number %(number)s belongs to %(name)s.")
                % {"number": federation_number, "name": holder.full_name},
                code="federation_number_taken",
                field="federation_number",
            )
    before = _details(player)
    player.first_name, player.last_name = first_name, last_name
    player.federation_number = federation_number
    player.club = registration.club_named(club)
    after = _details(player)
    if after == before:
        return player
    player.save()
    # The same person in every event: each event the player is entered in records the change
    # (its printed documents and its standings show the name and club), the event it was made
    # through first.
    others = Entry.objects.filter(player=player).exclude(pk=entry.pk).select_related("event")
    entry.event = event
    for each in [entry, *others.order_by("event_id")]:
        audit.record(
            actor,
            AuditAction.ENTRY_EDIT,
            "",
            event=each.event,
            obj=each,
            data={"old": before, "new": after},
            message=gettext_noop("changed the details of player %(number)s, %(name)s"),
            params={"number": each.number, "name": player.full_name},
        )
        if each.event.status != Event.Status.DRAFT:
            jobs.standings_changed(each.event)  # the standings show the name and club
    return player


def _details(player: Player) -> dict[str, str]:
    return {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club.name if player.club else "",
        "federation_number": player.federation_number,
    }


def verify_remove(entry: Entry) -> None:
    """Only a player who has not played, and on whom nothing is recorded, can be removed."""
    name = entry.player.full_name
    event = entry.event
    started = Seating.objects.filter(round__event=event).exclude(round__status=Round.Status.PLANNED)
    first = started.filter(Q(entry=entry) | Q(replaces=entry)).order_by("round__number").first()
    if first is not None:
        raise UserError(
            _(
                "%(name)s has a place in round %(round)s, which has started: withdraw the player instead."
            )
            % {"name": name, "round": first.round.number},
            code="has_played",
        )
    if Result.objects.filter(table__seatings__entry=entry).exists():
        raise UserError(
            _("Results have been entered at a table of %(name)s: withdraw the player instead.")
            % {"name": name},
            code="has_results",
        )
    if Penalty.objects.filter(offender=entry).exists():
        raise UserError(
            _("%(name)s has penalties or fines on record: withdraw the player instead.")
            % {"name": name},
            code="has_penalties",
        )
    if SitOutScore.objects.filter(entry=entry).exists():
        raise UserError(
            _("%(name)s has scores for byes on record: withdraw the player instead.")
            % {"name": name},
            code="has_bye_scores",
        )
    if event.status == Event.Status.DRAFT:
        return
    own = (
        Seating.objects.filter(round__event=event)
        .filter(Q(entry=entry, replaces=None) | Q(replaces=entry))
        .exclude(seat=Seating.Seat.BYE)
    )
    if own.exists() and entry.status == Entry.Status.WITHDRAWN:
        raise UserError(
            _(
                "The seats %(name)s left stay vacant under their name: a withdrawn player cannot be removed."
            )
            % {"name": name},
            code="own_seats",
        )
    if own.exists():
        raise UserError(
            _(
                "%(name)s has seats of their own in the rounds still to play: withdraw the player instead, which leaves those seats vacant."
            )
            % {"name": name},
            code="own_seats",
        )


def can_remove(entry: Entry) -> bool:
    return _allowed(verify_remove, entry)


@transaction.atomic
def remove_entry(actor: Actor, entry: Entry, reason: str = "") -> None:
    """Remove a player registered by mistake, who has not played.

    Before play, the movement is made again for the players left. After play has started (a late
    arrival or substitute entered by mistake) the seats they took from someone else become vacant
    again; their byes simply go; any other seat stays as it is.
    """
    event = _lock(entry.event)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    entry.event = event
    verify_remove(entry)
    name, number = entry.player.full_name, entry.number
    seats = Seating.objects.filter(round__event=event)
    vacated = list(
        seats.filter(entry=entry)
        .exclude(replaces=None)
        .values_list("round__number", "table__number", "seat")
    )
    if event.status == Event.Status.DRAFT:
        seats.filter(Q(entry=entry) | Q(replaces=entry)).delete()
    else:
        seats.filter(entry=entry).exclude(replaces=None).update(entry=None)
        seats.filter(entry=entry, seat=Seating.Seat.BYE).delete()
    audit.record(
        actor,
        AuditAction.ENTRY_REMOVE,
        "",
        event=event,
        obj=entry,
        reason=reason.strip(),
        data={
            "number": number,
            "player": entry.player_id,
            "vacated": [list(seat) for seat in vacated],
        },
        message=gettext_noop("removed player %(number)s, %(name)s"),
        params={"number": number, "name": name},
    )
    entry.delete()
    if event.status == Event.Status.DRAFT:
        if event.entries.filter(status=Entry.Status.ACTIVE).count() < 4:
            # Too few players left for any movement: the old one goes rather than staying wrong.
            Table.objects.filter(round__event=event).delete()
            Seating.objects.filter(round__event=event).delete()
        else:
            _seat_again(actor, event)
    else:
        jobs.standings_changed(event)


# --- what the players page and the confirm pages show --------------------------------------------


@dataclass(frozen=True)
class RosterRow:
    """A line of the players page: the entry, why it withdrew, and what the TD may do with it."""

    entry: Entry
    withdrawal_reason: str
    can_withdraw: bool
    can_reinstate: bool
    can_remove: bool


def roster(event: Event) -> list[RosterRow]:
    """The players page's lines, in a fixed number of queries however many players there are.

    The three "can" answers are those of ``can_withdraw``, ``can_reinstate`` and ``can_remove``,
    decided from a few sets read once for the whole event rather than from queries per player.
    """
    entries = list(event.entries.select_related("player", "player__club", "event"))
    played = seating.rounds_played(event)
    withdrawals = _latest_withdrawals(event)
    blocked = _removal_blockers(event)
    taken = _vacated_seats_taken(list(withdrawals.values()))
    return [
        RosterRow(
            entry=entry,
            withdrawal_reason=withdrawals[str(entry.pk)].reason
            if entry.status == Entry.Status.WITHDRAWN and str(entry.pk) in withdrawals
            else "",
            can_withdraw=_roster_can_withdraw(entry, played),
            can_reinstate=_roster_can_reinstate(entry, played, withdrawals, taken),
            can_remove=_roster_can_remove(entry, blocked),
        )
        for entry in entries
    ]


def _latest_withdrawals(event: Event) -> dict[str, AuditEntry]:
    """Each entry's latest withdrawal audit entry (``withdrawal_of`` for all of them), by entry id."""
    latest: dict[str, AuditEntry] = {}
    # Oldest first, so that a later withdrawal wins.
    for withdrawal in AuditEntry.objects.filter(
        event=event, action=AuditAction.ENTRY_WITHDRAW, object_type="entry"
    ).order_by("at", "id"):
        latest[withdrawal.object_id] = withdrawal
    return latest


def _vacated_seats_taken(withdrawals: list[AuditEntry]) -> dict[int, bool]:
    """For every seat a withdrawal left vacant: whether someone sits there now (gone: absent)."""
    ids = [
        seat["seating"]
        for withdrawal in withdrawals
        if isinstance(withdrawal.data, dict)
        for seat in withdrawal.data.get("vacated", [])
    ]
    if not ids:
        return {}
    return {
        pk: entry_id is not None
        for pk, entry_id in Seating.objects.filter(pk__in=ids).values_list("pk", "entry_id")
    }


@dataclass(frozen=True)
class _RemovalBlockers:
    """The entries ``verify_remove`` refuses, by reason, for a whole event at once."""

    started: set[int]  # a place (own or taken over) in a round that has started
    results: set[int]  # results entered at one of their tables
    penalties: set[int]
    bye_scores: set[int]
    own_seats: set[int]  # a seat of their own (not a bye) in the movement


def _removal_blockers(event: Event) -> _RemovalBlockers:
    started: set[int] = set()
    own_seats: set[int] = set()
    # One read of the event's seats gives both the started places and the own seats.
    for entry_id, replaces_id, seat, status in Seating.objects.filter(
        round__event=event
    ).values_list("entry_id", "replaces_id", "seat", "round__status"):
        if status != Round.Status.PLANNED:
            started.update(pk for pk in (entry_id, replaces_id) if pk is not None)
        if seat != Seating.Seat.BYE:
            if replaces_id is not None:
                own_seats.add(replaces_id)
            elif entry_id is not None:
                own_seats.add(entry_id)
    return _RemovalBlockers(
        started=started,
        results=set(
            Seating.objects.filter(entry__event=event, table__results__isnull=False).values_list(
                "entry_id", flat=True
            )
        ),
        penalties=set(
            Penalty.objects.filter(offender__event=event).values_list("offender_id", flat=True)
        ),
        bye_scores=set(
            SitOutScore.objects.filter(entry__event=event).values_list("entry_id", flat=True)
        ),
        own_seats=own_seats,
    )


def _roster_can_withdraw(entry: Entry, played: int) -> bool:
    """``can_withdraw`` with the rounds played already known."""
    event = entry.event
    return (
        event.status not in (Event.Status.DRAFT, Event.Status.FINISHED)
        and entry.status != Entry.Status.WITHDRAWN
        and played < event.rounds
    )


def _roster_can_reinstate(
    entry: Entry, played: int, withdrawals: dict[str, AuditEntry], taken: dict[int, bool]
) -> bool:
    """``can_reinstate`` from the latest withdrawals and whether their seats are still empty."""
    if entry.status != Entry.Status.WITHDRAWN or entry.withdrawn_after_round is None:
        return False
    if entry.event.status == Event.Status.FINISHED or played > entry.withdrawn_after_round:
        return False
    withdrawal = withdrawals.get(str(entry.pk))
    if withdrawal is None or "vacated" not in withdrawal.data:
        return False
    # A seat that is gone (re-planned) or given to someone else: the withdrawal stays.
    return all(taken.get(seat["seating"], True) is False for seat in withdrawal.data["vacated"])


def _roster_can_remove(entry: Entry, blocked: _RemovalBlockers) -> bool:
    """``can_remove`` from the event's sets of entries with something recorded on them."""
    pk = entry.pk
    if (
        pk in blocked.started
        or pk in blocked.results
        or pk in blocked.penalties
        or pk in blocked.bye_scores
    ):
        return False
    return entry.event.status == Event.Status.DRAFT or pk not in blocked.own_seats


@dataclass(frozen=True)
class PlannedSeat:
    round: int
    table: int | None
    seat: str
    planned: str = ""  # whose seat it was in the movement, when not the player's own


@dataclass(frozen=True)
class Preview:
    """What a withdrawal, its undo or a removal would change, for the confirm page."""

    after_round: int
    seats: list[PlannedSeat]
    byes: list[int]
    # Before play: how many players the movement would be made again for (None: not made again).
    reseat: int | None = None


def withdrawal_preview(entry: Entry) -> Preview:
    played = seating.rounds_played(entry.event)
    later = (
        _later_seatings(entry.event, played)
        .filter(entry=entry)
        .select_related("round", "table")
        .order_by("round__number")
    )
    return Preview(
        after_round=played,
        seats=[
            PlannedSeat(s.round.number, s.table.number, s.seat)
            for s in later
            if s.table is not None
        ],
        byes=[s.round.number for s in later if s.seat == Seating.Seat.BYE],
    )


def reinstatement_preview(entry: Entry) -> Preview:
    withdrawal = withdrawal_of(entry)
    data = withdrawal.data if withdrawal is not None else {}
    return Preview(
        after_round=entry.withdrawn_after_round or 0,
        seats=[
            PlannedSeat(seat["round"], seat["table"], seat["seat"])
            for seat in data.get("vacated", [])
        ],
        byes=list(data.get("byes", [])),
    )


def removal_preview(entry: Entry) -> Preview:
    event = entry.event
    mine = (
        Seating.objects.filter(round__event=event, entry=entry)
        .select_related("round", "table", "replaces__player")
        .order_by("round__number")
    )
    reseat = None
    if event.status == Event.Status.DRAFT and event.round_set.filter(tables__isnull=False).exists():
        left = event.entries.filter(status=Entry.Status.ACTIVE).exclude(pk=entry.pk).count()
        reseat = left
    return Preview(
        after_round=seating.rounds_played(event),
        seats=[
            PlannedSeat(s.round.number, s.table.number, s.seat, s.replaces.player.full_name)
            for s in mine
            if s.table is not None and s.replaces is not None
        ],
        byes=[s.round.number for s in mine if s.seat == Seating.Seat.BYE],
        reseat=reseat,
    )

"""Vacant seats, no-shows and substitutes: every other seat of the movement stays as it is.

A seat is vacant when nobody sits in it (``Seating.entry`` empty, ``Seating.replaces`` = the
player the movement planned there): a withdrawal leaves its player's later seats vacant, and
``mark_absent`` does the same for a player who does not turn up. A vacant seat is then

- filled by a substitute (``seat_substitute``): a new player, a reserve from the club list or the
  TD, for one round, the rest of the event or from a given round on. A substitute is not ranked;
  their boards count for everyone else;
- or ruled for its whole table: artificial scores for the players present and nothing for the
  absentee (``award_absent_table``), or the table sits out and the players present have a bye
  (``sit_out_table``).

At a table of five one empty place needs no ruling: the four present play every board
(``seating.holders``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.errors import UserError
from tournaments.models import (
    AuditAction,
    AuditEntry,
    Entry,
    Event,
    Player,
    Result,
    Round,
    Seating,
    Table,
)
from tournaments.services import adjustments, audit, jobs, registration, results, seating
from tournaments.services.audit import Actor

AWARDS = ("average_plus", "average", "average_minus")


class Scope:
    """Which rounds a substitute plays: this round, this round and every later one, or from a
    given round to the end."""

    ROUND = "round"
    REST = "rest"
    FROM = "from"
    ALL = (ROUND, REST, FROM)


def _name(entry: Entry | None) -> str:
    return entry.player.full_name if entry is not None else ""


def _started(round_: Round) -> bool:
    return round_.status != Round.Status.PLANNED


def _check_not_closed(round_: Round) -> None:
    if round_.status == Round.Status.CLOSED:
        raise UserError(
            _("Round %(n)s has been played and closed: its seats can no longer change.")
            % {"n": round_.number},
            code="round_closed",
            field="round",
        )


def _check_no_results(table: Table) -> None:
    # Played boards were played by the people who sat there: changing a seat now would put
    # their scores under someone else's name.
    if Result.objects.filter(table=table, is_current=True).exists():
        raise UserError(
            _(
                "Results have been entered at table %(t)s in round %(r)s: its seats can no longer "
                "change. Correct or rule those boards instead."
            )
            % {"t": table.number, "r": table.round.number},
            code="results_entered",
            field="seat",
        )


def _reason(reason: str) -> str:
    return results.check_reason(reason)


def _planned_for(entry: Entry) -> Q:
    """Seatings the movement planned for ``entry`` (held by them, by a substitute or by nobody)."""
    return Q(entry=entry, replaces=None) | Q(replaces=entry)


def find_seat(round_: Round, table_number: int, seat: str) -> Seating:
    """The seat ``seat`` (N, E, S, W or X) at table ``table_number`` in a round."""
    found = (
        Seating.objects.filter(round=round_, table__number=table_number, seat=seat)
        .select_related("table", "entry__player", "replaces__player")
        .first()
    )
    if found is None:
        raise UserError(
            _("Round %(r)s has no seat %(seat)s at table %(t)s.")
            % {"r": round_.number, "seat": seat, "t": table_number},
            code="unknown_seat",
            field="seat",
        )
    return found


def is_ruled(table: Table, seats: Iterable[Seating]) -> bool:
    """Whether a table's vacant seats need nothing more from the TD."""
    seats = list(seats)
    if table.ruling:
        return True
    empty = [s for s in seats if s.entry_id is None]
    # A table of five with one empty place plays as a table of four (``seating.holders``).
    return len(empty) == 1 and any(s.seat == Seating.Seat.FIFTH for s in seats)


def unruled_vacancies(round_: Round) -> list[Seating]:
    """Vacant seats of a round that are neither filled nor ruled, in table and seat order."""
    by_table: dict[int, list[Seating]] = {}
    for seat in Seating.objects.filter(round=round_, table__isnull=False).select_related(
        "table", "replaces__player"
    ):
        assert seat.table_id is not None
        by_table.setdefault(seat.table_id, []).append(seat)
    out: list[Seating] = []
    for seats in by_table.values():
        table = seats[0].table
        assert table is not None
        if not is_ruled(table, seats):
            out.extend(s for s in seats if s.entry_id is None)
    return sorted(out, key=lambda s: (s.table.number if s.table else 0, "NESWX".index(s.seat)))


def tidy_ruling(table: Table) -> None:
    """A ruling is for empty seats: once every seat of the table is filled it lapses."""
    if table.ruling and not table.seatings.filter(entry=None).exists():
        table.ruling = Table.Ruling.NONE
        table.save(update_fields=["ruling"])


# --- no-shows ----------------------------------------------------------------------------------


@transaction.atomic
def mark_absent(
    actor: Actor, round_: Round, entry: Entry, reason: str = "", *, later_rounds: bool = False
) -> list[Seating]:
    """A player who did not turn up: their seat in the round becomes vacant.

    With ``later_rounds`` their seats in the rounds not yet started become vacant too (their byes
    stay: a bye cannot be vacant). Returns the seats vacated.
    """
    reason = _reason(reason)
    event = Event.objects.select_for_update().get(pk=round_.event_id)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    _check_not_closed(round_)
    seat = (
        # Only the seating rows are locked: PostgreSQL cannot lock the outer-joined table's row.
        Seating.objects.select_for_update(of=("self",))
        .filter(round=round_, entry=entry)
        .select_related("table")
        .first()
    )
    if seat is None or seat.table is None:
        raise UserError(
            _("%(name)s has no seat at a table in round %(r)s.")
            % {"name": _name(entry), "r": round_.number},
            code="not_seated",
            field="entry",
        )
    if _started(round_):
        _check_no_results(seat.table)
    seats = [seat]
    if later_rounds:
        seats += list(
            Seating.objects.select_for_update().filter(
                round__event=event,
                round__number__gt=round_.number,
                round__status=Round.Status.PLANNED,
                table__isnull=False,
                entry=entry,
            )
        )
    for place in seats:
        place.replaces = place.replaces or entry
        place.entry = None
        place.save(update_fields=["entry", "replaces"])
    _seats_changed(
        actor,
        AuditAction.SEAT_ABSENT,
        round_,
        entry,
        seats,
        reason,
        gettext_noop("%(name)s did not turn up: seat vacant in rounds %(rounds)s"),
    )
    return seats


def _absentees(event_id: int) -> dict[int, int]:
    """Each seat a player was marked absent from, with that player's entry id (the latest marking
    of the seat). A seat of another player's, such as a late arrival's in a withdrawn player's
    place, is known by this, not by its ``replaces``."""
    named: dict[int, int] = {}
    for object_id, data in (
        AuditEntry.objects.filter(
            event_id=event_id, action=AuditAction.SEAT_ABSENT, object_type="entry"
        )
        .order_by("id")
        .values_list("object_id", "data")
    ):
        seats = data.get("seats") if isinstance(data, dict) else None
        if object_id.isdigit() and isinstance(seats, list):
            named.update((pk, int(object_id)) for pk in seats if isinstance(pk, int))
    return named


def _absentee_of(seat: Seating, named: dict[int, int]) -> int | None:
    """The entry id of the player who may take a vacant seat back: the one marked absent from it,
    else (a marking that named no seats) the player it was planned for."""
    return named.get(seat.pk, seat.replaces_id)


def arrivals(round_: Round) -> dict[int, Entry]:
    """The round's vacant seats that a player marked absent may still take back: seat id, player."""
    named = _absentees(round_.event_id)
    vacant = Seating.objects.filter(round=round_, table__isnull=False, entry__isnull=True)
    who = {seat.pk: _absentee_of(seat, named) for seat in vacant}
    entries = Entry.objects.select_related("player").in_bulk({pk for pk in who.values() if pk})
    return {
        seat: entries[pk]
        for seat, pk in who.items()
        if pk in entries and entries[pk].status == Entry.Status.ACTIVE
    }


def _seats_changed(
    actor: Actor,
    action: AuditAction,
    round_: Round,
    entry: Entry,
    seats: list[Seating],
    reason: str,
    message: str,
) -> None:
    """The audit entry of a player's seats vacated or taken back, naming their rounds and the
    seats; and the standings asked for once the round has started."""
    rounds = sorted({s.round.number for s in seats})
    audit.record(
        actor,
        action,
        "",
        event=round_.event,
        obj=entry,
        reason=reason,
        data={"rounds": rounds, "seats": sorted(s.pk for s in seats)},
        message=message,
        params={"name": _name(entry), "rounds": ", ".join(str(r) for r in rounds)},
    )
    if _started(round_):
        jobs.standings_changed(round_.event)


@transaction.atomic
def mark_arrived(actor: Actor, round_: Round, entry: Entry, reason: str = "") -> list[Seating]:
    """A player marked absent who turns up after all takes back the seats still vacant in their
    name, in this round (unless its table has played boards) and in the rounds not yet started. A
    seat a substitute has taken stays the substitute's; a ruling on a table that is whole again
    lapses. Returns the seats taken back.
    """
    reason = _reason(reason)
    event = Event.objects.select_for_update().get(pk=round_.event_id)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    _check_not_closed(round_)
    if Entry.objects.get(pk=entry.pk).status != Entry.Status.ACTIVE:
        raise UserError(
            _("%(name)s is withdrawn: take the withdrawal back on the players page first.")
            % {"name": _name(entry)},
            code="withdrawn",
            field="entry",
        )
    named = _absentees(event.pk)
    seats = list(
        # Only the seating rows are locked: PostgreSQL cannot lock the outer-joined table's row.
        Seating.objects.select_for_update(of=("self",))
        .filter(round__event=event, entry__isnull=True, table__isnull=False)
        .filter(Q(replaces=entry) | Q(pk__in=[pk for pk, who in named.items() if who == entry.pk]))
        .filter(
            Q(round=round_) | Q(round__number__gt=round_.number, round__status=Round.Status.PLANNED)
        )
        .select_related("table", "round")
        .order_by("round__number")
    )
    # The very seats the page offers this player (``arrivals``): not one another was absent from.
    seats = [place for place in seats if _absentee_of(place, named) == entry.pk]
    if not seats:
        raise UserError(
            _("%(name)s has no vacant seat to take back from round %(r)s on.")
            % {"name": _name(entry), "r": round_.number},
            code="no_vacant_seat",
            field="entry",
        )
    # A table of this round that has played boards keeps its seats; later rounds are taken back.
    played = [
        place
        for place in seats
        if place.round_id == round_.pk
        and _started(round_)
        and Result.objects.filter(table=place.table, is_current=True).exists()
    ]
    seats = [place for place in seats if place not in played]
    if not seats:
        assert played[0].table is not None
        _check_no_results(played[0].table)
    for place in seats:
        # A seat of another player's (a late arrival in a withdrawn player's place) stays theirs.
        place.entry = entry
        if place.replaces_id == entry.pk:
            place.replaces = None
        place.save(update_fields=["entry", "replaces"])
        assert place.table is not None
        tidy_ruling(place.table)
    _seats_changed(
        actor,
        AuditAction.SEAT_ARRIVED,
        round_,
        entry,
        seats,
        reason,
        gettext_noop("%(name)s arrived after all: seat taken back in rounds %(rounds)s"),
    )
    return seats


# --- substitutes -------------------------------------------------------------------------------


def reserves(event: Event) -> list[Player]:
    """The club list: players in the database not playing in this event (substitutes may be)."""
    playing = Entry.objects.filter(event=event, role=Entry.Role.PLAYER).values("player_id")
    return list(Player.objects.exclude(pk__in=playing).select_related("club"))


def new_player(first_name: str, last_name: str, club: str = "") -> Player:
    """A substitute nobody registered before (found again by name and club if they were)."""
    return registration.player_named(first_name, last_name, club, "")


def td_player(user: Any) -> Player:
    """The signed-in TD as a player, named after the user, to sit in an empty seat."""
    first = (getattr(user, "first_name", "") or "").strip()
    last = (getattr(user, "last_name", "") or "").strip()
    if not first and not last:
        last = str(getattr(user, "username", "") or "").strip()
    if not last and not first:
        raise UserError(_("Sign in to play as the TD."), code="not_signed_in", field="kind")
    return registration.player_named(first, last, "", "")


def _substitute_entry(event: Event, player: Player, first_round: int) -> Entry:
    entry = Entry.objects.filter(event=event, player=player).first()
    if entry is not None:
        if entry.role != Entry.Role.SUBSTITUTE:
            raise UserError(
                _("%(name)s plays in this event and cannot also be a substitute.")
                % {"name": player.full_name},
                code="already_playing",
                field="player",
            )
        return entry
    number = (event.entries.aggregate(top=Max("number"))["top"] or 0) + 1
    return Entry.objects.create(
        event=event,
        player=player,
        number=number,
        first_round=first_round,
        role=Entry.Role.SUBSTITUTE,
    )


def scope_rounds(event: Event, round_: Round, scope: str, from_round: int | None) -> list[int]:
    """The round numbers a substitute plays for ``scope``."""
    if scope == Scope.ROUND:
        return [round_.number]
    if scope == Scope.REST:
        return list(range(round_.number, event.rounds + 1))
    if scope == Scope.FROM:
        if from_round is None or not 1 <= from_round <= event.rounds:
            raise UserError(
                _("Give a round from 1 to %(n)s.") % {"n": event.rounds},
                code="invalid",
                field="from_round",
            )
        return list(range(from_round, event.rounds + 1))
    raise UserError(
        _("Choose this round, the rest of the event or from a given round on."),
        code="invalid",
        field="scope",
    )


@transaction.atomic
def seat_substitute(
    actor: Actor,
    round_: Round,
    planned: Entry,
    substitute: Player,
    *,
    scope: str = Scope.ROUND,
    from_round: int | None = None,
    reason: str = "",
) -> list[Seating]:
    """A substitute takes ``planned``'s seats in the rounds of ``scope``; no other seat changes.

    The seat in the first of those rounds must be vacant (mark the player absent first). In the
    later rounds the substitute takes the planned player's seat whoever holds it, unless a round
    has started and someone sits there, or another ranked player took it. Byes are not taken: a
    substitute only ever plays.
    """
    reason = _reason(reason)
    event = Event.objects.select_for_update().get(pk=round_.event_id)
    numbers = scope_rounds(event, round_, scope, from_round)
    rounds = {
        r.number: r
        for r in Round.objects.select_for_update().filter(event=event, number__in=numbers)
    }
    seats = {
        s.round.number: s
        for s in Seating.objects.select_for_update(of=("self",))
        .filter(_planned_for(planned), round__number__in=numbers, table__isnull=False)
        .select_related("round", "table", "entry__player")
    }
    first = numbers[0]
    if first not in seats:
        raise UserError(
            _("%(name)s has no seat at a table in round %(r)s.")
            % {"name": _name(planned), "r": first},
            code="not_seated",
            field="seat",
        )
    if seats[first].entry_id is not None:
        raise UserError(
            _(
                "The seat of %(name)s in round %(r)s is not vacant: mark %(name)s absent first, "
                "or withdraw them."
            )
            % {"name": _name(planned), "r": first},
            code="not_vacant",
            field="seat",
        )
    entry = _substitute_entry(event, substitute, first)
    taken: list[Seating] = []
    for number in numbers:
        seat = seats.get(number)
        if seat is None:
            continue  # a bye, or no seat planned for them in that round
        round_here = rounds[number]
        _check_not_closed(round_here)
        holder = seat.entry
        if holder is not None and holder.role == Entry.Role.PLAYER and holder.pk != planned.pk:
            raise UserError(
                _("%(other)s already plays in the seat of %(name)s in round %(r)s.")
                % {"other": _name(holder), "name": _name(planned), "r": number},
                code="seat_taken",
                field="seat",
            )
        assert seat.table is not None
        if _started(round_here):
            _check_no_results(seat.table)
            if holder is not None and holder.pk != entry.pk:
                raise UserError(
                    _(
                        "Round %(r)s has started with %(other)s in that seat: mark them absent first."
                    )
                    % {"r": number, "other": _name(holder)},
                    code="not_vacant",
                    field="seat",
                )
        if Seating.objects.filter(round=round_here, entry=entry).exclude(pk=seat.pk).exists():
            raise UserError(
                _("%(name)s already has a seat in round %(r)s.")
                % {"name": _name(entry), "r": number},
                code="seated_twice",
                field="player",
            )
        seat.entry = entry
        seat.replaces = planned
        seat.save(update_fields=["entry", "replaces"])
        tidy_ruling(seat.table)
        taken.append(seat)
    played = [s.round.number for s in taken]
    audit.record(
        actor,
        AuditAction.SEAT_SUBSTITUTE,
        "",
        event=event,
        obj=entry,
        reason=reason,
        data={"rounds": played, "planned": planned.number, "substitute": entry.number},
        message=gettext_noop("%(sub)s plays for %(name)s in rounds %(rounds)s"),
        params={
            "sub": _name(entry),
            "name": _name(planned),
            "rounds": ", ".join(str(r) for r in played),
        },
    )
    if any(_started(rounds[r]) for r in played):
        jobs.standings_changed(event)
    return taken


# --- rulings for a table with an empty seat ----------------------------------------------------


def _table_for_ruling(table: Table) -> tuple[Table, list[Seating]]:
    # The round's row first, as recording a result does: a result cannot be keyed at the table
    # between the check for results below and the ruling.
    Round.objects.select_for_update().values_list("pk", flat=True).get(pk=table.round_id)
    table = Table.objects.select_for_update().select_related("round__event").get(pk=table.pk)
    _check_not_closed(table.round)
    seats = list(table.seatings.select_related("entry__player", "replaces__player"))
    if not any(s.entry_id is None for s in seats):
        raise UserError(
            _("Table %(t)s in round %(r)s has no vacant seat.")
            % {"t": table.number, "r": table.round.number},
            code="no_vacant_seat",
            field="table",
        )
    return table, seats


@transaction.atomic
def sit_out_table(actor: Actor, table: Table, reason: str = "") -> Table:
    """The table with an empty seat does not play: the players present have a bye in the round
    (their own average), the absentee gets nothing, and no results are expected there."""
    reason = _reason(reason)
    table, seats = _table_for_ruling(table)
    if _started(table.round):
        _check_no_results(table)
    table.ruling = Table.Ruling.SIT_OUT
    table.save(update_fields=["ruling"])
    audit.record(
        actor,
        AuditAction.TABLE_SIT_OUT,
        "",
        event=table.round.event,
        obj=table,
        reason=reason,
        data={"absent": [s.planned.number for s in seats if s.entry_id is None]},
        message=gettext_noop("table %(t)s sits out round %(r)s (absent: %(names)s)"),
        params={
            "t": table.number,
            "r": table.round.number,
            "names": ", ".join(_name(s.replaces) for s in seats if s.entry_id is None),
        },
    )
    if _started(table.round):
        jobs.standings_changed(table.round.event)
    return table


@transaction.atomic
def award_absent_table(
    actor: Actor, table: Table, awards: dict[str, str], reason: str = ""
) -> list[Result]:
    """Artificial scores for the players present on every board of the table; nothing for the
    absentee. ``awards`` maps the seats of the players present (N, E, S, W) to average-plus,
    average, average-minus or a percentage; the vacant seats get nothing, whatever is given."""
    reason = _reason(reason)
    if not reason:
        raise UserError(_("Give the reason."), code="required", field="reason")
    table, seats = _table_for_ruling(table)
    if table.round.status != Round.Status.OPEN:
        raise UserError(
            _("Round %(n)s is not in play: artificial scores are given once it has started.")
            % {"n": table.round.number},
            code="round_not_open",
            field="round",
        )
    by_seat = {s.seat: s.entry_id for s in seats}
    # Who holds N, E, S, W on the table's boards; at a table of five this is the same for every
    # board once a place is empty, else the fifth player's turn decides and the TD rules board by
    # board on the table entry page.
    held = seating.holders(by_seat, 1, table.round.number)
    given: dict[str, str | None] = {}
    for seat in "NESW":
        if held[seat] is None:
            given[seat] = None
            continue
        value = str(awards.get(seat, "") or "").strip()
        if not value:
            raise UserError(
                _("Give an award for seat %(seat)s.") % {"seat": seat},
                code="required",
                field="awards",
            )
        given[seat] = value
    # ``award_table_artificial`` writes the log entry for the whole action.
    written = adjustments.award_table_artificial(actor, table, given, reason)
    table.ruling = Table.Ruling.ARTIFICIAL
    table.save(update_fields=["ruling"])
    return written


def find_table(round_: Round, number: int) -> Table:
    table = Table.objects.filter(round=round_, number=number).first()
    if table is None:
        raise UserError(
            _("Round %(r)s has no table %(t)s.") % {"r": round_.number, "t": number},
            code="unknown_table",
            field="table",
        )
    return table


@transaction.atomic
def fill_seat(
    actor: Actor,
    round_: Round,
    table_number: int,
    seat: str,
    *,
    kind: str,
    first_name: str = "",
    last_name: str = "",
    club: str = "",
    reserve: int | None = None,
    scope: str = Scope.ROUND,
    from_round: int | None = None,
    reason: str = "",
) -> list[Seating]:
    """``seat_substitute`` for the seat at a table, with the substitute given as the page gives
    it: a new player (``first_name``, ``last_name``, ``club``), a reserve (a ``Player`` id from
    ``reserves``) or the TD (``kind="td"``). Nothing is created when the seat cannot be filled."""
    place = find_seat(round_, table_number, seat)
    if kind == "new":
        player = new_player(first_name, last_name, club)
    elif kind == "reserve":
        found = next((p for p in reserves(round_.event) if p.pk == reserve), None)
        if found is None:
            raise UserError(
                _("Choose a reserve from the club list."), code="unknown_player", field="reserve"
            )
        player = found
    elif kind == "td":
        player = td_player(actor)
    else:
        raise UserError(
            _("Choose a new player, a reserve or the TD."), code="invalid", field="kind"
        )
    return seat_substitute(
        actor,
        round_,
        place.planned,
        player,
        scope=scope,
        from_round=from_round,
        reason=reason,
    )

"""A player who arrives once play has started is seated without moving anyone else, if possible.

From the next round not yet started, in this order:

1. **a vacant seat**: the seats a withdrawn (or absent) player left, round by round; in a round
   where that player had a bye, the late arrival has one;
2. **an extra table**: with rotating byes and every table playing the same boards, when each
   remaining round has exactly three byes, the late arrival and those three make one more table;
3. **a fifth chair**: with tables of five, the late arrival joins a table of four as its fifth
   player in each remaining round;
4. otherwise the late arrival has no place yet: re-planning the remaining rounds
   (``seating.preview_replan`` shows what it costs, ``seating.replan`` does it) is the TD's choice.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.errors import UserError
from tournaments.models import AuditAction, Entry, Event, Round, Seating, Table
from tournaments.services import audit, jobs, registration, results, seating, substitutes
from tournaments.services.audit import Actor


class How:
    VACANT = "vacant"
    EXTRA_TABLE = "extra_table"
    FIFTH = "fifth"
    UNSEATED = "unseated"


@dataclass(frozen=True)
class LateArrival:
    """Where a late arrival was seated, and what it cost (repeated meetings it adds)."""

    entry: Entry
    how: str
    first_round: int
    replaces: tuple[str, ...] = ()  # whose planned seats they took
    byes: tuple[int, ...] = ()  # rounds in which they sit out
    repeats_added: int = 0

    @property
    def seated(self) -> bool:
        return self.how != How.UNSEATED


@transaction.atomic
def add_late_arrival(
    actor: Actor,
    event: Event,
    *,
    first_name: str,
    last_name: str,
    club: str = "",
    federation_number: str = "",
    reason: str = "",
) -> LateArrival:
    """Register a player who plays from the next round not yet started, and seat them if a seat
    is free (see the module's docstring); no other player's seat changes."""
    # The event's row first, as registration does: player numbers are "the highest plus one".
    event = Event.objects.select_for_update().get(pk=event.pk)
    reason = results.check_reason(reason)
    player = registration.player_named(first_name, last_name, club, federation_number)
    first_round = seating.rounds_played(event) + 1
    if first_round > event.rounds:
        raise UserError(_("Every round has been played."), code="no_rounds_left")
    entry = registration.enter(event, player, first_round=first_round)
    has_seating = event.round_set.filter(tables__isnull=False).exists()
    if not has_seating:
        outcome = LateArrival(entry, How.UNSEATED, first_round)
    elif first_round == 1:
        # Nothing has been played: the movement is simply made again for everyone, as when
        # registering.
        seating.generate_movement(actor, event)
        outcome = LateArrival(entry, How.VACANT, first_round)
    else:
        outcome = _seat(event, entry, first_round)
    audit.record(
        actor,
        AuditAction.ENTRY_LATE,
        "",
        event=event,
        obj=entry,
        reason=reason,
        data={
            "how": outcome.how,
            "replaces": list(outcome.replaces),
            "byes": list(outcome.byes),
            "repeats_added": outcome.repeats_added,
        },
        message=_MESSAGES[outcome.how],
        params={
            "name": player.full_name,
            "round": first_round,
            "replaces": ", ".join(outcome.replaces),
        },
    )
    if event.status != Event.Status.DRAFT:
        jobs.standings_changed(event)
    return outcome


_MESSAGES = {
    How.VACANT: gettext_noop("added %(name)s from round %(round)s in the seats of %(replaces)s"),
    How.EXTRA_TABLE: gettext_noop(
        "added %(name)s from round %(round)s at an extra table with the players who had a bye"
    ),
    How.FIFTH: gettext_noop("added %(name)s from round %(round)s as fifth player at a table"),
    How.UNSEATED: gettext_noop(
        "added %(name)s from round %(round)s without a seat: the rounds need re-planning"
    ),
}


def outcome_message(outcome: LateArrival) -> str:
    """What the TD is told once a late arrival is registered."""
    name, first = outcome.entry.player.full_name, outcome.first_round
    if outcome.how == How.VACANT and outcome.replaces:
        text = _("%(name)s plays from round %(round)s in the seats of %(replaces)s.") % {
            "name": name,
            "round": first,
            "replaces": ", ".join(outcome.replaces),
        }
    elif outcome.how == How.VACANT:
        text = _("%(name)s plays from round %(round)s; the movement was made again.") % {
            "name": name,
            "round": first,
        }
    elif outcome.how == How.EXTRA_TABLE:
        text = _(
            "%(name)s plays from round %(round)s at an extra table with the players who had a bye."
        ) % {"name": name, "round": first}
    elif outcome.how == How.FIFTH:
        text = _("%(name)s plays from round %(round)s as fifth player at a table of four.") % {
            "name": name,
            "round": first,
        }
    else:
        return _(
            "%(name)s is registered from round %(round)s but no seat is free: re-plan the rounds "
            "not yet started (the movement page shows what it changes first)."
        ) % {"name": name, "round": first}
    if outcome.byes:
        text += " " + _("Byes in rounds %(rounds)s.") % {
            "rounds": ", ".join(str(r) for r in outcome.byes)
        }
    if outcome.repeats_added:
        text += " " + _("Repeated meetings added: %(n)s.") % {"n": outcome.repeats_added}
    return text


def _seat(event: Event, entry: Entry, first_round: int) -> LateArrival:
    before = _repeats(event)
    for attempt in (_take_vacant_seats, _extra_table, _fifth_chair):
        outcome = attempt(event, entry, first_round)
        if outcome is not None:
            return LateArrival(
                outcome.entry,
                outcome.how,
                first_round,
                outcome.replaces,
                outcome.byes,
                repeats_added=_repeats(event) - before,
            )
    return LateArrival(entry, How.UNSEATED, first_round)


def _repeats(event: Event) -> int:
    places, _subs = seating._places_now(event)
    return seating._repeats(places)


def _met(event: Event, entry_number: int) -> dict[int, int]:
    """How often each player shares a table with ``entry_number`` in the seating as it stands."""
    tables = seating._tables_of(seating._places_now(event)[0])
    met: dict[int, int] = {}
    for members in tables.values():
        numbers = {n for _seat, n in members}
        if entry_number in numbers:
            for other in numbers - {entry_number}:
                met[other] = met.get(other, 0) + 1
    return met


def _rounds(event: Event, first_round: int) -> list[Round]:
    return list(event.round_set.filter(number__gte=first_round).order_by("number"))


# --- 1. vacant seats ---------------------------------------------------------------------------


def _take_vacant_seats(event: Event, entry: Entry, first_round: int) -> LateArrival | None:
    rounds = _rounds(event, first_round)
    vacant: dict[int, list[Seating]] = {}
    for seat in (
        Seating.objects.filter(round__in=rounds, entry=None, table__isnull=False)
        .select_related("round", "table", "replaces__player")
        .order_by("table__number", "seat")
    ):
        vacant.setdefault(seat.round.number, []).append(seat)
    if not vacant:
        return None
    counts: dict[int, int] = {}
    for seats in vacant.values():
        for seat in seats:
            assert seat.replaces_id is not None
            counts[seat.replaces_id] = counts.get(seat.replaces_id, 0) + 1
    # Follow one player's seats where possible: the late arrival then plays the movement that
    # player would have played, with the same guide card.
    followed = min(counts, key=lambda pk: (-counts[pk], pk))
    at_a_table = set(
        Seating.objects.filter(
            round__in=rounds, table__isnull=False, entry_id=followed, replaces=None
        ).values_list("round__number", flat=True)
    )
    met = _met(event, entry.number)
    chosen: list[Seating] = []
    byes: list[Round] = []
    for round_ in rounds:
        seats = vacant.get(round_.number, [])
        own = [s for s in seats if s.replaces_id == followed]
        if own:
            chosen.append(own[0])
        elif seats:
            chosen.append(min(seats, key=lambda s: _cost(s, met)))
        elif round_.number not in at_a_table:
            byes.append(round_)  # the followed player had a bye (or no seat) in this round
        else:
            return None
        if chosen and chosen[-1].round_id == round_.pk:
            for number in _table_numbers(chosen[-1]):
                met[number] = met.get(number, 0) + 1
    for seat in chosen:
        seat.entry = entry
        seat.save(update_fields=["entry"])
        assert seat.table is not None
        substitutes.tidy_ruling(seat.table)
    Seating.objects.bulk_create(
        Seating(round=round_, table=None, entry=entry, seat=Seating.Seat.BYE) for round_ in byes
    )
    names = sorted(
        {s.replaces.player.full_name for s in chosen if s.replaces is not None},
    )
    return LateArrival(entry, How.VACANT, first_round, tuple(names), tuple(r.number for r in byes))


def _table_numbers(seat: Seating) -> list[int]:
    return list(
        Seating.objects.filter(table=seat.table, entry__isnull=False).values_list(
            "entry__number", flat=True
        )
    )


def _cost(seat: Seating, met: dict[int, int]) -> tuple[int, int, str]:
    """Fewest repeated meetings first, then the lowest table."""
    assert seat.table is not None
    return (sum(met.get(n, 0) for n in _table_numbers(seat)), seat.table.number, seat.seat)


# --- 2. an extra table of the late arrival and the three players who have a bye ----------------


def _extra_table(event: Event, entry: Entry, first_round: int) -> LateArrival | None:
    if event.seating_mode != Event.SeatingMode.BYES or event.board_mode != Event.BoardMode.SAME:
        return None  # travelling sets: a new table would need boards no other table plays
    rounds = _rounds(event, first_round)
    byes: dict[int, list[Seating]] = {}
    for seat in Seating.objects.filter(round__in=rounds, seat=Seating.Seat.BYE).select_related(
        "entry"
    ):
        byes.setdefault(seat.round_id, []).append(seat)
    if not rounds or any(len(byes.get(r.pk, [])) != 3 for r in rounds):
        return None
    counts = _seat_counts(event)
    for round_ in rounds:
        trio = byes[round_.pk]
        four = [entry.number, *(s.entry.number for s in trio if s.entry is not None)]
        entries = {entry.number: entry, **{s.entry.number: s.entry for s in trio if s.entry}}
        order = _balanced(four, counts)
        number = (round_.tables.order_by("-number").values_list("number", flat=True).first()) or 0
        table = Table.objects.create(round=round_, number=number + 1)
        Seating.objects.filter(pk__in=[s.pk for s in trio]).delete()
        Seating.objects.bulk_create(
            Seating(round=round_, table=table, entry=entries[n], seat=place)
            for place, n in zip("NESW", order, strict=True)
        )
        for place, n in zip("NESW", order, strict=True):
            counts.setdefault(n, dict.fromkeys("NESW", 0))[place] += 1
    seating.assign_boards(event, first_round=first_round)
    return LateArrival(entry, How.EXTRA_TABLE, first_round)


def _seat_counts(event: Event) -> dict[int, dict[str, int]]:
    counts: dict[int, dict[str, int]] = {}
    for number, seat in Seating.objects.filter(
        round__event=event, seat__in=["N", "E", "S", "W"], entry__isnull=False
    ).values_list("entry__number", "seat"):
        counts.setdefault(number, dict.fromkeys("NESW", 0))[seat] += 1
    return counts


def _balanced(four: list[int], counts: dict[int, dict[str, int]]) -> tuple[int, ...]:
    """The four players in seat order N, E, S, W, each in a seat they have held least."""

    def cost(order: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        return (
            sum(counts.get(n, {}).get(seat, 0) ** 2 for seat, n in zip("NESW", order, strict=True)),
            order,
        )

    return min(itertools.permutations(four), key=cost)


# --- 3. the fifth chair at a table of four -----------------------------------------------------


def _fifth_chair(event: Event, entry: Entry, first_round: int) -> LateArrival | None:
    if event.seating_mode != Event.SeatingMode.TABLES_OF_FIVE:
        return None
    rounds = _rounds(event, first_round)
    met = _met(event, entry.number)
    chosen: list[Table] = []
    for round_ in rounds:
        fours = [
            table
            for table in round_.tables.order_by("number")
            if not table.ruling
            and not table.seatings.filter(seat=Seating.Seat.FIFTH).exists()
            and not table.seatings.filter(entry=None).exists()
        ]
        if not fours:
            return None
        table = min(fours, key=lambda t: (_meetings_at(t, met), t.number))
        chosen.append(table)
        for number in _players_at(table):
            met[number] = met.get(number, 0) + 1
    Seating.objects.bulk_create(
        Seating(round=table.round, table=table, entry=entry, seat=Seating.Seat.FIFTH)
        for table in chosen
    )
    return LateArrival(entry, How.FIFTH, first_round)


def _players_at(table: Table) -> list[int]:
    return list(table.seatings.filter(entry__isnull=False).values_list("entry__number", flat=True))


def _meetings_at(table: Table, met: dict[int, int]) -> int:
    return sum(met.get(n, 0) for n in _players_at(table))

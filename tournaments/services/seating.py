from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.engine_text import error_message
from tournaments.errors import ConflictError, UserError
from tournaments.game import SEATS, MovementError, boardsets, movements
from tournaments.game import holders as holders
from tournaments.game import sitting_out as sitting_out
from tournaments.models import AuditAction, Board, Entry, Event, Round, Seating, Table, TableBoard
from tournaments.services import audit, jobs
from tournaments.services.audit import Actor

# ``holders`` and ``sitting_out`` (the table of five's rule, in the engine) are reached by the
# other services through this module.


def rounds_played(event: Event) -> int:
    """How many rounds have started (open or closed): their seating can no longer change."""
    started = event.round_set.exclude(status=Round.Status.PLANNED).order_by("-number").first()
    return started.number if started else 0


def active_numbers(event: Event, round_number: int) -> list[int]:
    """Player numbers of the entries that play in round ``round_number``."""
    # Substitutes only ever sit in someone else's planned seats: the movement never seats them.
    return sorted(
        event.entries.filter(
            status=Entry.Status.ACTIVE, role=Entry.Role.PLAYER, first_round__lte=round_number
        ).values_list("number", flat=True)
    )


def played_movement(event: Event, upto: int) -> movements.Movement | None:
    """The rounds 1..upto as they were seated, in the engine's terms (player numbers)."""
    if upto == 0:
        return None
    return movements.Movement.from_json(export_json(event, upto, as_played=True))


def export_json(
    event: Event, upto: int | None = None, *, as_played: bool = False
) -> dict[str, Any]:
    """The seating in the engine's JSON form (``python -m engine movement``).

    A vacant seat and a substitute's seat show the player the movement planned there, so the
    movement and the boards each table plays stay as they were. With ``as_played``, a ranked
    player sitting in someone else's planned seat (a late arrival who took a withdrawn player's
    seats) shows as themselves: re-planning then knows whom they really met.
    """
    rounds: list[dict[str, Any]] = []
    seatings = (
        Seating.objects.filter(round__event=event)
        .select_related("round", "table", "entry", "replaces")
        .order_by("round__number", "table__number")
    )
    if upto is not None:
        seatings = seatings.filter(round__number__lte=upto)
    by_round: dict[int, dict[str, Any]] = {}
    for seating in seatings:
        plan = by_round.setdefault(
            seating.round.number, {"round": seating.round.number, "tables": {}, "byes": []}
        )
        number = seating.planned.number
        if as_played and seating.entry is not None and seating.entry.role == Entry.Role.PLAYER:
            number = seating.entry.number
        if seating.seat == Seating.Seat.BYE:
            plan["byes"].append(number)
            continue
        assert seating.table is not None
        table = plan["tables"].setdefault(seating.table.number, {"table": seating.table.number})
        table[seating.seat] = number
    for number in sorted(by_round):
        plan = by_round[number]
        rounds.append(
            {
                "round": number,
                "tables": [plan["tables"][t] for t in sorted(plan["tables"])],
                "byes": sorted(plan["byes"]),
            }
        )
    players = event.entries.filter(role=Entry.Role.PLAYER).count()
    return {"players": players, "rounds": rounds}


@transaction.atomic
def generate_movement(actor: Actor, event: Event, *, seed: int = 0) -> movements.Movement:
    """Seat every round from scratch. Only before play starts."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if rounds_played(event):
        raise UserError(
            _("Rounds have been played: use re-planning, which keeps them."), code="event_started"
        )
    players = active_numbers(event, 1)
    movement = _plan(event, players, None, seed)
    _write(event, movement, first_round=1)
    quality = movements.quality(movement)
    audit.record(
        actor,
        AuditAction.MOVEMENT_GENERATE,
        "",
        event=event,
        data={"seed": seed, "repeats": quality.repeats},
        message=gettext_noop(
            "seated %(players)s players over %(rounds)s rounds (%(repeats)s repeated meetings)"
        ),
        params={"players": len(players), "rounds": event.rounds, "repeats": quality.repeats},
    )
    return movement


@dataclass(frozen=True)
class ReplanPreview:
    """What re-planning the rounds not yet started would change, worked out without writing.

    ``repeats_before`` and ``repeats_after`` count meetings beyond the first over the whole event
    (rounds played included); ``moved`` are the players whose seat changes in some remaining round
    (their guide cards must be printed again), ``tables`` the (round, table) whose players change
    (score sheets and table cards to print again). ``unseated`` are players with no place today
    (a late arrival) and ``substitutes`` the (round, table, seat, player) places of substitutes
    that re-planning removes. ``fingerprint`` names the state it was worked out from: the
    same fingerprint gives the same plan, so a TD confirms the plan they saw (``replan``'s
    ``expected``).
    """

    seed: int
    first_round: int
    players: int
    repeats_before: int
    repeats_after: int
    moved: tuple[int, ...]
    tables: tuple[tuple[int, int], ...]
    unseated: tuple[int, ...]
    substitutes: tuple[tuple[int, int, str, int], ...]
    fingerprint: str
    movement: movements.Movement = field(repr=False, compare=False)

    @property
    def new_repeats(self) -> int:
        return self.repeats_after - self.repeats_before


def _replan_movement(event: Event, seed: int) -> tuple[int, list[int], movements.Movement]:
    played = rounds_played(event)
    if played >= event.rounds:
        raise UserError(_("Every round has been played."), code="no_rounds_left")
    players = active_numbers(event, played + 1)
    return played, players, _plan(event, players, played_movement(event, played), seed)


Places = dict[int, dict[int, tuple[int, str]]]  # player -> round -> (table or 0 for a bye, seat)


def _places_now(
    event: Event, first_round: int = 1
) -> tuple[Places, list[tuple[int, int, str, int]]]:
    """Where each ranked player actually sits from ``first_round`` on, and the substitutes' places."""
    places: Places = {}
    substitutes: list[tuple[int, int, str, int]] = []
    for round_number, table_number, seat, number, role in Seating.objects.filter(
        round__event=event, round__number__gte=first_round, entry__isnull=False
    ).values_list("round__number", "table__number", "seat", "entry__number", "entry__role"):
        if role == Entry.Role.SUBSTITUTE:
            substitutes.append((round_number, table_number or 0, seat, number))
        else:
            places.setdefault(number, {})[round_number] = (table_number or 0, seat)
    return places, sorted(substitutes)


def _repeats(places: Places) -> int:
    """Meetings beyond the first, over every pair of players who share a table."""
    met: dict[tuple[int, int], int] = {}
    for members in _tables_of(places).values():
        numbers = sorted(n for _seat, n in members)
        for i, a in enumerate(numbers):
            for b in numbers[i + 1 :]:
                met[a, b] = met.get((a, b), 0) + 1
    return sum(n - 1 for n in met.values())


def _places_planned(movement: movements.Movement, first_round: int) -> Places:
    places: Places = {}
    for plan in movement.rounds[first_round - 1 :]:
        for table in plan.tables:
            for seat, number in table.seats.items():
                places.setdefault(number, {})[plan.round] = (table.table, seat.name)
            if table.fifth is not None:
                places.setdefault(table.fifth, {})[plan.round] = (table.table, "X")
        for number in plan.byes:
            places.setdefault(number, {})[plan.round] = (0, "BYE")
    return places


def _tables_of(places: Places) -> dict[tuple[int, int], set[tuple[str, int]]]:
    tables: dict[tuple[int, int], set[tuple[str, int]]] = {}
    for number, rounds in places.items():
        for round_number, (table, seat) in rounds.items():
            if table:
                tables.setdefault((round_number, table), set()).add((seat, number))
    return tables


def _fingerprint(event: Event, played: int, seed: int) -> str:
    """A short hash of everything a re-plan's preview is worked out from.

    The seats (who sits where, whose seat it was planned as), the entries (number, role, status,
    first round), the rounds started, the event's shape and the seed: when none of them changed,
    the re-plan is the one the TD was shown.
    """
    seats = sorted(
        json.dumps(row)
        for row in Seating.objects.filter(round__event=event).values_list(
            "round__number", "table__number", "seat", "entry__number", "replaces__number"
        )
    )
    entries = sorted(
        event.entries.values_list("number", "role", "status", "first_round").order_by()
    )
    state = {
        "rounds": event.rounds,
        "mode": event.seating_mode,
        "played": played,
        "seed": seed,
        "entries": entries,
        "seats": seats,
    }
    digest = hashlib.sha256(json.dumps(state, sort_keys=True).encode())
    return digest.hexdigest()[:16]


def preview_replan(event: Event, *, seed: int = 0) -> ReplanPreview:
    """The cost of re-planning the rounds not yet started, before anything is written."""
    played, players, movement = _replan_movement(event, seed)
    first_round = played + 1
    everything, _subs = _places_now(event)
    now, substitutes = _places_now(event, first_round)
    after = _places_planned(movement, first_round)
    moved = sorted(n for n in set(now) | set(after) if now.get(n) != after.get(n))
    tables_now, tables_after = _tables_of(now), _tables_of(after)
    tables = sorted(
        key
        for key in set(tables_now) | set(tables_after)
        if tables_now.get(key) != tables_after.get(key)
    )
    # The rounds played count in both figures: a new plan avoids what already happened.
    history = {
        number: {r: place for r, place in rounds.items() if r < first_round}
        for number, rounds in everything.items()
    }
    planned_after = {
        n: {**history.get(n, {}), **after.get(n, {})} for n in set(history) | set(after)
    }
    return ReplanPreview(
        seed=seed,
        first_round=first_round,
        players=len(players),
        repeats_before=_repeats(everything),
        repeats_after=_repeats(planned_after),
        moved=tuple(moved),
        tables=tuple(tables),
        unseated=tuple(n for n in players if n not in now),
        substitutes=tuple(substitutes),
        fingerprint=_fingerprint(event, played, seed),
        movement=movement,
    )


@transaction.atomic
def replan(
    actor: Actor, event: Event, *, reason: str = "", seed: int = 0, expected: str | None = None
) -> movements.Movement:
    """Re-seat the rounds not yet played for the players now in the event; played rounds stay.

    Every seat of those rounds may change: ``preview_replan`` shows the TD what it costs first.
    With ``expected`` (the preview's fingerprint) nothing is written unless the seating and the
    players are still those the preview was worked out from.
    """
    # The event's row first: seating a late arrival, a substitute or a withdrawal lock it too, so
    # nobody changes the seating between the check below and the writing.
    event = Event.objects.select_for_update().get(pk=event.pk)
    cost = preview_replan(event, seed=seed)
    if expected is not None and expected != cost.fingerprint:
        raise ConflictError(
            _(
                "The seating or the players changed while the re-plan was shown: nothing was re-planned. Below is the cost of re-planning as things are now."
            ),
            current={"fingerprint": cost.fingerprint},
        )
    movement = cost.movement
    _write(event, movement, first_round=cost.first_round)
    audit.record(
        actor,
        AuditAction.MOVEMENT_REPLAN,
        "",
        event=event,
        reason=reason,
        data={
            "seed": seed,
            "players": cost.players,
            "repeats_before": cost.repeats_before,
            "repeats_after": cost.repeats_after,
            "moved": list(cost.moved),
            "tables": [list(t) for t in cost.tables],
        },
        message=gettext_noop(
            "re-planned rounds %(first)s-%(last)s: %(moved)s players change seats, "
            "%(repeats)s repeated meetings"
        ),
        params={
            "first": cost.first_round,
            "last": event.rounds,
            "moved": len(cost.moved),
            "repeats": cost.repeats_after,
        },
    )
    if event.status != Event.Status.DRAFT:
        jobs.standings_changed(event)  # withdrawn and late players show in the standings at once
    return movement


def _plan(
    event: Event, players: list[int], played: movements.Movement | None, seed: int
) -> movements.Movement:
    five = event.seating_mode == Event.SeatingMode.TABLES_OF_FIVE
    if len(players) < 4:
        raise UserError(
            _("At least four players are needed; the event has %(count)s.")
            % {"count": len(players)},
            code="too_few_players",
            field="players",
        )
    try:
        if played is None:
            return movements.plan_movement(players, event.rounds, tables_of_five=five, seed=seed)
        return movements.replan(
            played, len(played.rounds), players, rounds=event.rounds, tables_of_five=five, seed=seed
        )
    except MovementError as exc:
        raise UserError(error_message(exc), code="movement", field="players") from exc


def _write(event: Event, movement: movements.Movement, *, first_round: int) -> None:
    rounds = {r.number: r for r in event.round_set.all()}
    entries = {e.number: e for e in event.entries.all()}
    Table.objects.filter(round__event=event, round__number__gte=first_round).delete()
    Seating.objects.filter(round__event=event, round__number__gte=first_round).delete()
    seatings: list[Seating] = []
    for plan in movement.rounds:
        if plan.round < first_round:
            continue
        round_ = rounds[plan.round]
        for table_plan in plan.tables:
            table = Table.objects.create(round=round_, number=table_plan.table)
            for seat in SEATS:
                seatings.append(
                    Seating(
                        round=round_,
                        table=table,
                        entry=entries[table_plan.seats[seat]],
                        seat=seat.name,
                    )
                )
            if table_plan.fifth is not None:
                seatings.append(
                    Seating(round=round_, table=table, entry=entries[table_plan.fifth], seat="X")
                )
        for number in plan.byes:
            seatings.append(Seating(round=round_, table=None, entry=entries[number], seat="BYE"))
    Seating.objects.bulk_create(seatings)
    assign_boards(event, first_round=first_round)


def board_plan(event: Event) -> boardsets.BoardPlan | None:
    """Which boards each table plays in each round, for the seating as it stands."""
    data = export_json(event)
    if not data["rounds"]:
        return None
    movement = movements.Movement.from_json(data)
    try:
        if event.board_mode == Event.BoardMode.TRAVELLING:
            sets = boardsets.fewest_sets(movement)
            return boardsets.travelling_sets(movement, sets, event.boards_per_round)
        return boardsets.same_boards(movement, event.boards_per_round)
    except MovementError as exc:
        raise UserError(error_message(exc), code="board_plan", field="board_mode") from exc


def assign_boards(event: Event, *, first_round: int = 1) -> None:
    """Which boards each table plays, once both the seating and the boards exist.

    Rounds before ``first_round`` keep their boards: they have been played.
    """
    boards = {b.number: b for b in Board.objects.filter(event=event)}
    if not boards:
        return
    plan = board_plan(event)
    if plan is None:
        return
    TableBoard.objects.filter(
        table__round__event=event, table__round__number__gte=first_round
    ).delete()
    tables = Table.objects.filter(
        round__event=event, round__number__gte=first_round
    ).select_related("round")
    links: list[TableBoard] = []
    for table in tables:
        for position, number in enumerate(
            plan.boards_at(table.round.number, table.number), start=1
        ):
            if number not in boards:
                raise UserError(
                    _("The seating now needs board %(n)s, which was not dealt: deal again.")
                    % {"n": number},
                    code="board_missing",
                    field="deals",
                )
            links.append(TableBoard(table=table, board=boards[number], position=position))
    TableBoard.objects.bulk_create(links)


def board_total(event: Event) -> int:
    """How many distinct boards the event needs."""
    if event.board_mode == Event.BoardMode.TRAVELLING:
        plan = board_plan(event)
        if plan is None:
            raise UserError(
                _("With travelling board sets, generate the movement before the deals."),
                code="not_ready",
                field="movement",
            )
        return plan.boards_per_round * (plan.sets or 1)
    return event.rounds * event.boards_per_round


def review(event: Event) -> dict[str, Any]:
    """Figures a TD checks before play: repeated meetings, seat balance and byes per player."""
    data = export_json(event)
    meetings: dict[tuple[int, int], list[int]] = {}
    seats: dict[int, dict[str, int]] = {}
    byes: dict[int, int] = {}
    for plan in data["rounds"]:
        for table in plan["tables"]:
            players = [table[s] for s in ("N", "E", "S", "W", "X") if s in table]
            for seat in ("N", "E", "S", "W", "X"):
                if seat in table:
                    counts = seats.setdefault(table[seat], {})
                    counts[seat] = counts.get(seat, 0) + 1
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    meetings.setdefault((min(a, b), max(a, b)), []).append(plan["round"])
        for number in plan["byes"]:
            byes[number] = byes.get(number, 0) + 1
    repeats = sorted(
        ((pair, rounds) for pair, rounds in meetings.items() if len(rounds) > 1),
        key=lambda item: (item[1][1], item[0]),
    )
    numbers = sorted(set(seats) | set(byes))
    balance = {
        n: max((seats.get(n, {}).get(s, 0) for s in "NESW"), default=0)
        - min((seats.get(n, {}).get(s, 0) for s in "NESW"), default=0)
        for n in numbers
    }
    first_repeat = min((rounds[1] for _pair, rounds in repeats), default=None)
    return {
        "repeats": repeats,
        "first_repeat_round": first_repeat,
        "seats": seats,
        "byes": byes,
        "balance": balance,
        "worst_balance": max(balance.values(), default=0),
        "bye_spread": (
            max(byes.values(), default=0) - min((byes.get(n, 0) for n in numbers), default=0)
        ),
    }

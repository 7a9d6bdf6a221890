from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from engine import boardsets, movements
from engine.cards import SEATS
from engine.errors import MovementError
from tournaments.engine_text import error_message
from tournaments.errors import UserError
from tournaments.models import Board, Entry, Event, Round, Seating, Table, TableBoard
from tournaments.services import audit


def rounds_played(event: Event) -> int:
    """How many rounds have started (open or closed): their seating can no longer change."""
    started = event.round_set.exclude(status=Round.Status.PLANNED).order_by("-number").first()
    return started.number if started else 0


def active_numbers(event: Event, round_number: int) -> list[int]:
    """Player numbers of the entries that play in round ``round_number``."""
    return sorted(
        event.entries.filter(status=Entry.Status.ACTIVE, first_round__lte=round_number).values_list(
            "number", flat=True
        )
    )


def played_movement(event: Event, upto: int) -> movements.Movement | None:
    """The rounds 1..upto as they were seated, in the engine's terms (player numbers)."""
    if upto == 0:
        return None
    return movements.Movement.from_json(export_json(event, upto))


def export_json(event: Event, upto: int | None = None) -> dict[str, Any]:
    """The seating in the engine's JSON form (``python -m engine movement``)."""
    rounds: list[dict[str, Any]] = []
    seatings = (
        Seating.objects.filter(round__event=event)
        .select_related("round", "table", "entry")
        .order_by("round__number", "table__number")
    )
    if upto is not None:
        seatings = seatings.filter(round__number__lte=upto)
    by_round: dict[int, dict[str, Any]] = {}
    for seating in seatings:
        plan = by_round.setdefault(
            seating.round.number, {"round": seating.round.number, "tables": {}, "byes": []}
        )
        if seating.seat == Seating.Seat.BYE:
            plan["byes"].append(seating.entry.number)
            continue
        assert seating.table is not None
        table = plan["tables"].setdefault(seating.table.number, {"table": seating.table.number})
        table[seating.seat] = seating.entry.number
    for number in sorted(by_round):
        plan = by_round[number]
        rounds.append(
            {
                "round": number,
                "tables": [plan["tables"][t] for t in sorted(plan["tables"])],
                "byes": sorted(plan["byes"]),
            }
        )
    players = event.entries.count()
    return {"players": players, "rounds": rounds}


@transaction.atomic
def generate_movement(actor: Any, event: Event, *, seed: int = 0) -> movements.Movement:
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
        "movement.generate",
        f"seated {len(players)} players over {event.rounds} rounds ({quality.repeats} repeated meetings)",
        event=event,
        data={"seed": seed, "repeats": quality.repeats},
    )
    return movement


@transaction.atomic
def replan(actor: Any, event: Event, *, reason: str = "", seed: int = 0) -> movements.Movement:
    """Re-seat the rounds not yet played for the players now in the event; played rounds stay."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    played = rounds_played(event)
    if played >= event.rounds:
        raise UserError(_("Every round has been played."), code="no_rounds_left")
    players = active_numbers(event, played + 1)
    movement = _plan(event, players, played_movement(event, played), seed)
    _write(event, movement, first_round=played + 1)
    audit.record(
        actor,
        "movement.replan",
        f"re-planned rounds {played + 1}-{event.rounds}",
        event=event,
        reason=reason,
        data={"seed": seed, "players": len(players)},
    )
    if event.status != Event.Status.DRAFT:
        from tournaments.services.results import standings_changed

        standings_changed(event)  # withdrawn and late players show in the standings at once
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


# The order in which the players of a table of five take turns to sit out, deal by deal.
FIVE_ROTATION = ("N", "E", "S", "W", "X")


def _sitter(position: int, round_number: int) -> str:
    # The turn moves on from round to round too, so that with any number of boards per round
    # everyone at a table of five sits out about equally often over the event.
    return FIVE_ROTATION[(position - 1 + round_number - 1) % 5]


def holders(seats: dict[str, Any], position: int, round_number: int = 1) -> dict[str, Any]:
    """Who holds N, E, S, W on the ``position``-th board (1-based) a table plays in a round.

    ``seats`` maps N, E, S, W and, at a table of five, X to the players. At a table of five one
    player sits out each board, in the order N, E, S, W, X, starting one place further each round;
    the fifth player takes the seat of the one sitting out (when X sits out, the four others keep
    their seats).
    """
    if "X" not in seats:
        return {s: seats[s] for s in "NESW"}
    out = {s: seats[s] for s in "NESW"}
    sitter = _sitter(position, round_number)
    if sitter != "X":
        out[sitter] = seats["X"]
    return out


def sitting_out(seats: dict[str, Any], position: int, round_number: int = 1) -> Any | None:
    """The player of a table of five who sits out the ``position``-th board of a round, if any."""
    if "X" not in seats:
        return None
    return seats[_sitter(position, round_number)]

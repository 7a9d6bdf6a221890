"""One player's results for the public player page: round by round, board by board.

The place, the total and each round's figure are read from the stored standings, so the page
agrees with the standings page. Each board's comparison is the one the standings stored
(``standings.board_scores``, which the printed score cards read too), in a number of queries that
does not grow with the number of boards.

What the public sees: only the boards of closed rounds. While a round is in play, a board's
result tells the tables still playing it how it went elsewhere; with travelling sets a board of a
closed round may even come back in a later round, so such a board is held back until every table
has played it. A club posts its travellers after the session for the same reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.game import BoardScore, comparison
from tournaments.models import Entry, Event, Result, Round, Seating, SitOutScore, TableBoard
from tournaments.result_words import award_in_words, stored_result_in_words
from tournaments.services import standings
from tournaments.services.seating import holders, sitting_out


class BoardState:
    """What a board line shows."""

    PLAYED = "played"
    SAT_OUT = "sat_out"  # the fifth player's turn to sit out at a table of five
    BYE = "bye"  # a bye the director gave a score
    NO_RESULT = "no_result"
    HELD_BACK = "held_back"  # still to be played at a table of a later round


@dataclass(frozen=True)
class Person:
    """Someone at the player's table: ``number`` and ``name`` empty for a vacant seat."""

    seat: str
    number: int | None
    name: str
    is_player: bool  # the player the page is about


@dataclass(frozen=True)
class BoardLine:
    board: int
    state: str
    seat: str = ""
    words: str = ""
    score: int | None = None
    percentage: Decimal | None = None
    datum: Decimal | None = None
    butler: Decimal | None = None


@dataclass(frozen=True)
class RoundLine:
    number: int
    status: str
    table: int | None = None
    seat: str = ""
    bye: bool = False
    bye_words: str = ""
    replaced_by: str = ""  # who sat in the player's seat instead (a substitute)
    vacant: bool = False  # the player's seat stayed empty
    players: tuple[Person, ...] = ()
    figure: str = ""  # the round's figure in the standings
    boards: tuple[BoardLine, ...] = ()

    @property
    def is_closed(self) -> bool:
        return self.status == Round.Status.CLOSED

    @property
    def sat_in(self) -> bool:
        return self.table is not None


@dataclass(frozen=True)
class PlayerResults:
    entry: Entry
    method: str
    row: dict[str, Any] | None  # the player's row in the stored standings
    rounds: tuple[RoundLine, ...]

    @property
    def is_ranked(self) -> bool:
        return bool(self.row and self.row.get("place"))


def _number(value: Fraction | None, places: int) -> Decimal | None:
    """A figure with ``places`` decimals, or none at all when it is whole (datums often are)."""
    if value is None:
        return None
    return Decimal(comparison.display(value, 0 if value.denominator == 1 else places))


def _board_line(played: BoardScore, state: str, words: str) -> BoardLine:
    return BoardLine(
        board=played.board,
        state=state,
        seat=played.seat,
        words=words,
        score=played.score,
        percentage=Decimal(comparison.display(played.percentage, 2)),
        datum=_number(played.datum, 1),
        butler=_number(played.butler, 1),
    )


def player_results(event: Event, entry: Entry, data: dict[str, Any]) -> PlayerResults:
    """The page of ``entry``; ``data`` is the event's stored standings document."""
    row = next((r for r in data.get("rows", []) if r.get("entry") == entry.number), None)
    statuses = dict(event.round_set.values_list("number", "status"))
    closed = {number for number, status in statuses.items() if status == Round.Status.CLOSED}
    mine: dict[int, Seating] = {}
    seatings = (
        Seating.objects.filter(round__event=event)
        .filter(Q(entry=entry) | Q(replaces=entry))
        .select_related("round", "table", "entry__player")
    )
    # The player's own seat wins over a seat planned for them that someone else took.
    for seating in sorted(seatings, key=lambda s: s.entry_id == entry.pk):
        mine[seating.round.number] = seating
    tables = {
        seating.table_id: number
        for number, seating in mine.items()
        if seating.table_id is not None
        and seating.entry_id == entry.pk
        and statuses.get(number) != Round.Status.PLANNED
    }
    mates: dict[int, list[Seating]] = {}
    for seating in Seating.objects.filter(table_id__in=list(tables)).select_related(
        "entry__player"
    ):
        mates.setdefault(seating.table_id or 0, []).append(seating)
    shown = [table_id for table_id, number in tables.items() if number in closed]
    positions: dict[int, list[tuple[int, int]]] = {}
    for table_id, board, position in TableBoard.objects.filter(table_id__in=shown).values_list(
        "table_id", "board__number", "position"
    ):
        positions.setdefault(table_id, []).append((position, board))
    stored = {
        (table_id, board): (kind, result_data)
        for table_id, board, kind, result_data in Result.objects.filter(
            event=event, is_current=True, table_id__in=shown
        ).values_list("table_id", "board__number", "kind", "data")
    }
    still_to_play = set(
        TableBoard.objects.filter(table__round__event=event)
        .exclude(table__round__status=Round.Status.CLOSED)
        .values_list("board__number", flat=True)
    )
    bye_awards = dict(
        SitOutScore.objects.filter(event=event, entry=entry).values_list("round_number", "award")
    )
    played = _compared(event, entry.number, closed) if closed & set(mine) else {}

    lines = []
    for number in sorted(statuses):
        status = statuses[number]
        if status == Round.Status.PLANNED:
            continue
        figure = str(row["rounds"].get(str(number), "")) if row else ""
        sitting = mine.get(number)
        if sitting is None:
            lines.append(RoundLine(number, status, figure=figure))
            continue
        if sitting.entry_id != entry.pk:
            lines.append(
                RoundLine(
                    number,
                    status,
                    replaced_by=sitting.entry.player.full_name if sitting.entry else "",
                    vacant=sitting.entry is None,
                    figure=figure,
                )
            )
            continue
        if sitting.seat == Seating.Seat.BYE:
            lines.append(_bye_line(number, status, figure, bye_awards.get(number), played))
            continue
        table = sitting.table
        assert table is not None  # only a bye has no table
        at_table = mates.get(table.pk, [])
        boards: tuple[BoardLine, ...] = ()
        if number in closed:
            seats = {s.seat: (s.entry.number if s.entry else None) for s in at_table}
            boards = tuple(
                _line(
                    number,
                    board,
                    position,
                    seats,
                    entry.number,
                    played,
                    stored.get((table.pk, board)),
                    still_to_play,
                    event.game,
                )
                for position, board in sorted(positions.get(table.pk, []))
            )
        lines.append(
            RoundLine(
                number,
                status,
                table=table.number,
                seat=sitting.seat,
                players=_people(at_table, entry),
                figure=figure,
                boards=boards,
            )
        )
    return PlayerResults(entry, str(data.get("method", event.comparison)), row, tuple(lines))


def _compared(event: Event, number: int, closed: set[int]) -> dict[tuple[int, int], BoardScore]:
    """The player's boards of closed rounds, each compared with its group, by (round, board)."""
    line = standings.board_scores(event, only=[number]).get(number, ())
    return {(item.round, item.board): item for item in line if item.round in closed}


def _bye_line(
    number: int,
    status: str,
    figure: str,
    award: str | None,
    played: dict[tuple[int, int], BoardScore],
) -> RoundLine:
    """A bye: the player's own average, or the score the director gave, board by board."""
    awarded = sorted(
        (item for (round_number, _board), item in played.items() if round_number == number),
        key=lambda item: item.board,
    )
    if award is None or not awarded:
        return RoundLine(number, status, bye=True, figure=figure)
    words = _("bye: %(award)s") % {"award": award_in_words(award)}
    return RoundLine(
        number,
        status,
        bye=True,
        bye_words=words,
        figure=figure,
        boards=tuple(_board_line(item, BoardState.BYE, words) for item in awarded),
    )


def _line(
    round_number: int,
    board: int,
    position: int,
    seats: dict[str, int | None],
    number: int,
    played: dict[tuple[int, int], BoardScore],
    stored: tuple[str, dict[str, Any]] | None,
    still_to_play: set[int],
    game: str,
) -> BoardLine:
    if board in still_to_play:
        return BoardLine(board, BoardState.HELD_BACK)
    if sitting_out(seats, position, round_number) == number:
        return BoardLine(board, BoardState.SAT_OUT)
    item = played.get((round_number, board))
    if item is None or stored is None:
        seat = next(
            (s for s, n in holders(seats, position, round_number).items() if n == number), ""
        )
        return BoardLine(board, BoardState.NO_RESULT, seat=seat)
    kind, data = stored
    return _board_line(item, BoardState.PLAYED, stored_result_in_words(kind, data, item.seat, game))


def _people(at_table: list[Seating], entry: Entry) -> tuple[Person, ...]:
    order = {seat: index for index, seat in enumerate("NESWX")}
    return tuple(
        Person(
            seat=seating.seat,
            number=seating.entry.number if seating.entry else None,
            name=seating.entry.player.full_name if seating.entry else "",
            is_player=seating.entry_id == entry.pk,
        )
        for seating in sorted(at_table, key=lambda s: order.get(s.seat, 9))
    )

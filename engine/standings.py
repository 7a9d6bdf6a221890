"""Standings from plain records: every board compared seat by seat, then per round, cumulative and ranked.

The input is a ``Field``: the current table results (who held each seat and what each scored),
the boards each player sat out, the byes the director scored, the fines, the comparison method and
the tie-break order. ``standings(field)`` returns a frozen ``Standings``: every player's boards
with their comparison, each round's figure, the total and the ranking. Nothing here knows of a
database; the Django side adapts its rows to a ``Field`` and serialises the result once.

Arithmetic is exact without ``Fraction`` on the hot path. A comparison group of whole scores, as
large as the board expects, is matchpointed in integers on the 2/1 scale (``BoardScore.matchpoints``
is then an ``int``); only a group that needs Neuberg scaling, a weighted score or an artificial one
goes through ``engine.comparison.compare``. Totals add integers and keep the few fractional
parts apart, one ``Fraction`` per denominator, so that a player's figure is one exact division.

A player who sits out boards (a bye without a score, or the fifth chair at a table of five)
scores their own average on them: the percentage is over the boards played, and raw and datum
totals are scaled up to every board. Substitutes count for everyone else but are not ranked; a
player with no board yet is listed as waiting, not placed at 50 %.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Final, NamedTuple

from engine import comparison
from engine.comparison import Artificial, Placing, Record, Weighted
from engine.errors import EngineError

SEATS: Final = ("N", "E", "S", "W")
HUNDRED: Final = Fraction(100)


class Method(StrEnum):
    """What a board's comparison adds up to."""

    MATCHPOINTS = "matchpoints"  # percentages of the top
    RAW = "raw"  # table scores
    DATUM = "datum"  # score minus the group's mean (Butler)


Holder = int | None
"""A seat's player: ``None`` for a vacant seat (nobody to score)."""

SeatEntry = int | Weighted | Artificial | None
"""What a seat is compared with: a whole score, a weighted or an artificial score; ``None`` for an
absentee's seat, which takes no part in the comparison at all."""


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table's current result on one board.

    ``players``, ``entries`` and ``scores`` are in seat order N, E, S, W. ``entries`` are what
    each seat is compared with; ``scores`` the table scores as shown (a weighted score's rounded
    mean, ``None`` for an artificial one), which make the raw total. ``head_to_head`` holds the
    scores that count between the players who met at the table, ``None`` when none do (an
    artificial result).
    """

    result: int
    round: int
    table: int
    board: int
    players: tuple[Holder, Holder, Holder, Holder]
    entries: tuple[SeatEntry, SeatEntry, SeatEntry, SeatEntry]
    scores: tuple[int | None, int | None, int | None, int | None]
    head_to_head: tuple[int, int, int, int] | None = None

    @classmethod
    def played(
        cls,
        result: int,
        round_number: int,
        table: int,
        board: int,
        players: tuple[Holder, Holder, Holder, Holder],
        scores: tuple[int, int, int, int],
    ) -> TableResult:
        """A board played normally: each seat compared on its table score."""
        return cls(result, round_number, table, board, players, scores, scores, scores)


@dataclass(frozen=True, slots=True)
class ScoredBye:
    """A bye the director scored: the award's percentage on each board the round's tables played."""

    player: int
    round: int
    boards: tuple[int, ...]
    percentage: Fraction


@dataclass(frozen=True)
class Field:
    """Everything the standings of an event are made of.

    ``expected`` maps each board to the number of tables that play it; ``sat_out`` maps a player
    to the boards they sat out in each round; ``unranked`` are the substitutes; ``withdrawn``
    players keep their line but are never listed as waiting for a first board.
    """

    method: Method
    players: tuple[int, ...]
    results: tuple[TableResult, ...]
    expected: Mapping[int, int]
    rounds: tuple[int, ...] = ()
    sat_out: Mapping[int, Mapping[int, int]] = field(default_factory=dict)
    byes: tuple[ScoredBye, ...] = ()
    fines: Mapping[int, Fraction] = field(default_factory=dict)
    tie_break: tuple[str, ...] = ("total",)
    unranked: frozenset[int] = frozenset()
    withdrawn: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        comparison.check_tie_break_order(self.tie_break)
        known = set(self.players)
        if len(known) != len(self.players):
            raise EngineError("a player is listed twice in the field")
        for result in self.results:
            for player in result.players:
                if player is not None and player not in known:
                    raise EngineError(
                        f"player {player} of result {result.result} is not in the field"
                    )


class BoardScore(NamedTuple):
    """One player's board, compared with everyone who held the same seat's cards on it.

    ``matchpoints`` are on the 2/1 scale out of ``top``: an ``int`` for a whole group of whole
    scores, else exact. ``score`` is the table score as shown and ``value`` the one compared (a
    weighted score's exact mean), both ``None`` for an artificial score; ``datum`` is the group's
    mean (``None`` when nobody in it has a real score). ``award`` is an artificial score's
    percentage, which it keeps even on a board of one table (where the top is 0). A scored bye has
    seat ``""`` and result ``None``.
    """

    player: int
    round: int
    table: int
    board: int
    seat: str
    result: int | None
    score: int | None
    value: int | Fraction | None
    matchpoints: int | Fraction
    top: int
    datum: Fraction | None
    award: Fraction | None = None

    @property
    def percentage(self) -> Fraction:
        """Matchpoints as a percentage of the top; a lone result scores 50."""
        if self.award is not None:
            return self.award
        return comparison.percentage(self.matchpoints, self.top)

    @property
    def butler(self) -> Fraction | None:
        """Score minus datum, for a real score."""
        if self.value is None or self.datum is None:
            return None
        return self.value - self.datum

    @property
    def is_artificial(self) -> bool:
        return self.score is None


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """One player's standings: the boards, each round's figure, the total after fines."""

    player: int
    boards: tuple[BoardScore, ...]
    rounds: Mapping[int, Fraction]
    record: Record
    sat_out: int
    fine: Fraction


@dataclass(frozen=True)
class Standings:
    """The outcome: every player by number, the ranking, and who has no board yet.

    ``after_round`` holds the cumulative ranking after each round (the standings as they were
    when that round's results were in, fines included); its last round's is ``placings``.
    """

    method: Method
    rounds: tuple[int, ...]
    players: Mapping[int, PlayerStanding]
    placings: tuple[Placing, ...]
    waiting: tuple[int, ...]
    results: int
    after_round: Mapping[int, tuple[Placing, ...]] = field(default_factory=dict)

    @property
    def places(self) -> int:
        """Decimals a figure shows: percentages to two, points whole."""
        return decimals(self.method)


def decimals(method: Method | str) -> int:
    """Decimals the standings show for a method: percentages to two, points whole."""
    return 2 if method == Method.MATCHPOINTS else 0


# -- comparing every group ----------------------------------------------------------------------


def compare_boards(field: Field) -> list[BoardScore]:
    """Every seat of every result and every scored bye, compared with its group."""
    groups: dict[tuple[int, int], list[TableResult]] = defaultdict(list)
    for result in field.results:
        for index in range(4):
            if result.entries[index] is not None:
                groups[result.board, index].append(result)
    scored: list[BoardScore] = []
    for (board, index), members in groups.items():
        expected = max(field.expected.get(board, 0), len(members))
        scored.extend(_compare_group(board, index, members, expected))
    for bye in field.byes:
        for board in bye.boards:
            # At least the top of two results, so that a lone table still weighs the award.
            group_top = comparison.top(max(field.expected.get(board, 0), 2))
            scored.append(
                BoardScore(
                    bye.player,
                    bye.round,
                    0,
                    board,
                    "",
                    None,
                    None,
                    None,
                    bye.percentage * group_top / HUNDRED,
                    group_top,
                    None,
                    bye.percentage,
                )
            )
    return scored


def _compare_group(
    board: int, index: int, members: list[TableResult], expected: int
) -> Iterable[BoardScore]:
    seat = SEATS[index]
    entries = [member.entries[index] for member in members]
    if len(members) == expected and all(type(entry) is int for entry in entries):
        # The hot path: a whole group of whole scores, matchpointed in integers.
        ints: list[int] = entries  # type: ignore[assignment]  # every entry checked to be an int
        ordered = sorted(ints)
        middle = Fraction(sum(ints), len(ints))
        group_top = 2 * (expected - 1)
        for member, score in zip(members, ints, strict=True):
            player = member.players[index]
            if player is None:
                continue
            yield BoardScore(
                player,
                member.round,
                member.table,
                board,
                seat,
                member.result,
                score,
                score,
                bisect_left(ordered, score) + bisect_right(ordered, score) - 1,
                group_top,
                middle,
            )
        return
    compared = comparison.compare([e for e in entries if e is not None], expected=expected)
    for member, outcome in zip(members, compared, strict=True):
        player = member.players[index]
        if player is None:
            continue
        mp = outcome.matchpoints
        yield BoardScore(
            player,
            member.round,
            member.table,
            board,
            seat,
            member.result,
            member.scores[index],
            None if outcome.score is None else _whole(outcome.score),
            _whole(mp),
            outcome.top,
            outcome.datum,
            outcome.percentage if outcome.score is None else None,
        )


def _whole(value: Fraction) -> int | Fraction:
    return value.numerator if value.denominator == 1 else value


# -- adding up ----------------------------------------------------------------------------------


class _Sum:
    """An exact sum kept as an integer part and one integer numerator per other denominator."""

    __slots__ = ("parts", "whole")

    def __init__(self) -> None:
        self.whole = 0
        self.parts: dict[int, int] = {}

    def add(self, value: int | Fraction) -> None:
        if type(value) is int:
            self.whole += value
        elif value.denominator == 1:
            self.whole += value.numerator
        else:
            self.parts[value.denominator] = self.parts.get(value.denominator, 0) + value.numerator

    def subtract(self, value: Fraction) -> None:
        if value.denominator == 1:
            self.whole -= value.numerator
        else:
            self.parts[value.denominator] = self.parts.get(value.denominator, 0) - value.numerator

    def plus(self, other: _Sum) -> _Sum:
        both = _Sum()
        both.whole = self.whole + other.whole
        both.parts = dict(self.parts)
        for denominator, numerator in other.parts.items():
            both.parts[denominator] = both.parts.get(denominator, 0) + numerator
        return both

    def value(self) -> Fraction:
        return sum(
            (Fraction(numerator, denominator) for denominator, numerator in self.parts.items()),
            Fraction(self.whole),
        )


class _Tally:
    """What a player's boards of one round, or of several, add up to."""

    __slots__ = ("boards", "butler", "matchpoints", "raw", "real", "top", "tops", "value", "won")

    def __init__(self) -> None:
        self.boards = 0
        self.real = 0  # boards with a table score (not artificial)
        self.matchpoints = _Sum()
        self.top = 0
        self.value = _Sum()
        self.butler = _Sum()
        self.raw = 0
        self.won = 0
        self.tops = 0

    def add(self, item: BoardScore) -> None:
        self.boards += 1
        self.matchpoints.add(item.matchpoints)
        self.top += item.top
        if item.score is not None:
            self.raw += item.score
        if item.value is None:
            return
        self.real += 1
        self.value.add(item.value)
        self.butler.add(item.value)
        if item.datum is not None:
            self.butler.subtract(item.datum)
        if 2 * item.matchpoints > item.top:
            self.won += 1
        if item.top > 0 and item.matchpoints == item.top:
            self.tops += 1

    def plus(self, other: _Tally) -> _Tally:
        both = _Tally()
        both.boards = self.boards + other.boards
        both.real = self.real + other.real
        both.matchpoints = self.matchpoints.plus(other.matchpoints)
        both.top = self.top + other.top
        both.value = self.value.plus(other.value)
        both.butler = self.butler.plus(other.butler)
        both.raw = self.raw + other.raw
        both.won = self.won + other.won
        both.tops = self.tops + other.tops
        return both

    def figure(self, method: Method) -> Fraction:
        """Event percentage, raw total or datum total of these boards (not scaled)."""
        if method == Method.MATCHPOINTS:
            return HUNDRED / 2 if self.top == 0 else self.matchpoints.value() * 100 / self.top
        return (self.value if method == Method.RAW else self.butler).value()

    def record(
        self,
        method: Method,
        player: int,
        sat_out: int,
        meetings: Mapping[int, int],
        fine: Fraction,
        needs_butler: bool,
    ) -> Record:
        total = self.figure(method)
        if method != Method.MATCHPOINTS and (sat_out or self.real < self.boards) and self.real:
            # Boards sat out and artificial scores count as the player's own average: raw and
            # datum totals are scaled up to every board of the event.
            total = total * (self.boards + sat_out) / self.real
        return Record(
            player=player,
            total=total - fine,
            boards=self.boards,
            boards_won=self.won,
            tops=self.tops,
            raw_total=Fraction(self.raw),
            butler=self.butler.value() if needs_butler else Fraction(0),
            meetings={other: Fraction(value) for other, value in meetings.items()},
        )


Meetings = dict[int, dict[int, dict[int, int]]]
"""player -> round -> opponent -> the player's score minus the opponent's."""


def _meetings(results: Iterable[TableResult]) -> Meetings:
    """Each player's score minus each opponent's, per round, over the boards they played together."""
    out: Meetings = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    for result in results:
        scores = result.head_to_head
        if scores is None:
            continue
        players = result.players
        for index, player in enumerate(players):
            if player is None:
                continue
            line = out[player][result.round]
            mine = scores[index]
            for other_index, other in enumerate(players):
                if other_index != index and other is not None:
                    line[other] += mine - scores[other_index]
    return out


def _merged(rounds: Mapping[int, Mapping[int, int]], last: int | None = None) -> dict[int, int]:
    """A player's meetings over every round, or over the rounds up to ``last``."""
    out: dict[int, int] = defaultdict(int)
    for number, opponents in rounds.items():
        if last is None or number <= last:
            for other, value in opponents.items():
                out[other] += value
    return out


def standings(field: Field) -> Standings:
    """Compare every board, add up each player's rounds and total, and rank after each round."""
    by_player: dict[int, list[BoardScore]] = defaultdict(list)
    for item in compare_boards(field):
        by_player[item.player].append(item)
    meetings = _meetings(field.results)
    needs_butler = field.method == Method.DATUM or "butler" in field.tie_break
    by_head = "head_to_head" in field.tie_break
    rounds = sorted(set(field.rounds) | {item.round for b in by_player.values() for item in b})
    players: dict[int, PlayerStanding] = {}
    cumulative: dict[int, list[Record]] = {number: [] for number in rounds}
    for player in field.players:
        boards = sorted(by_player.get(player, ()), key=lambda item: (item.round, item.board))
        tallies: dict[int, _Tally] = defaultdict(_Tally)
        for item in boards:
            tallies[item.round].add(item)
        sat_out = field.sat_out.get(player, {})
        fine = field.fines.get(player, Fraction(0))
        met = meetings.get(player, {})
        running = _Tally()
        for number in rounds:
            if number in tallies:
                running = running.plus(tallies[number])
            if running.boards and player not in field.unranked:
                cumulative[number].append(
                    running.record(
                        field.method,
                        player,
                        sum(count for r, count in sat_out.items() if r <= number),
                        _merged(met, number) if by_head else {},
                        fine,
                        needs_butler,
                    )
                )
        players[player] = PlayerStanding(
            player,
            tuple(boards),
            {number: tally.figure(field.method) for number, tally in sorted(tallies.items())},
            running.record(
                field.method,
                player,
                sum(sat_out.values()),
                _merged(met),
                fine,
                needs_butler,
            ),
            sum(sat_out.values()),
            fine,
        )
    after_round = {
        number: tuple(comparison.rank(records, field.tie_break))
        for number, records in cumulative.items()
    }
    placings = after_round[rounds[-1]] if rounds else ()
    waiting = tuple(
        sorted(
            number
            for number, line in players.items()
            if not line.boards and number not in field.unranked and number not in field.withdrawn
        )
    )
    return Standings(
        field.method,
        tuple(sorted(field.rounds)),
        players,
        placings,
        waiting,
        len(field.results),
        after_round,
    )


# -- stored board scores ------------------------------------------------------------------------

BOARD_SCORES_VERSION: Final = 1


def _exact_to_json(value: int | Fraction | None) -> int | str | None:
    if value is None or type(value) is int:
        return value
    return str(value) if value.denominator != 1 else value.numerator


def _exact_from_json(value: object) -> int | Fraction | None:
    if value is None or type(value) is int:
        return value
    if isinstance(value, str):
        exact = Fraction(value)
        return exact.numerator if exact.denominator == 1 else exact
    raise EngineError(f"a stored figure is a whole number or a fraction as text, not {value!r}")


def board_scores_to_json(players: Mapping[int, Sequence[BoardScore]]) -> dict[str, object]:
    """Every player's compared boards as compact JSON: one list of eleven figures a board."""
    return {
        "version": BOARD_SCORES_VERSION,
        "players": {
            str(player): [
                [
                    item.round,
                    item.table,
                    item.board,
                    item.seat,
                    item.result,
                    item.score,
                    _exact_to_json(item.value),
                    _exact_to_json(item.matchpoints),
                    item.top,
                    _exact_to_json(item.datum),
                    _exact_to_json(item.award),
                ]
                for item in boards
            ]
            for player, boards in players.items()
        },
    }


def board_scores_from_json(
    data: Mapping[str, object], only: Iterable[int] | None = None
) -> dict[int, tuple[BoardScore, ...]]:
    """Read ``board_scores_to_json`` back, for every player or ``only`` those given."""
    if data.get("version") != BOARD_SCORES_VERSION:
        raise EngineError(f"stored board scores of version {data.get('version')!r} are not known")
    players = data.get("players")
    if not isinstance(players, dict):
        raise EngineError("stored board scores have no players")
    keys = list(players) if only is None else [str(number) for number in only]
    out: dict[int, tuple[BoardScore, ...]] = {}
    for key in keys:
        boards = players.get(key)
        if boards is None:
            continue
        player = int(key)
        out[player] = tuple(_board_score(player, line) for line in boards)
    return out


def _board_score(player: int, line: Sequence[object]) -> BoardScore:
    try:
        round_number, table, board, seat, result, score, value, mp, top, datum, award = line
    except (TypeError, ValueError) as exc:
        raise EngineError(f"a stored board score has eleven figures, not {line!r}") from exc
    if not (
        type(round_number) is int
        and type(table) is int
        and type(board) is int
        and type(top) is int
        and type(seat) is str
        and (result is None or type(result) is int)
        and (score is None or type(score) is int)
    ):
        raise EngineError(f"a stored board score's figures are not whole numbers: {line!r}")
    matchpoints = mp if type(mp) is int else _exact_from_json(mp)
    if matchpoints is None:
        raise EngineError(f"a stored board score has no matchpoints: {line!r}")
    return BoardScore(
        player,
        round_number,
        table,
        board,
        seat,
        result,
        score,
        value if type(value) is int else _exact_from_json(value),
        matchpoints,
        top,
        _datum_from_json(datum),
        _datum_from_json(award),
    )


@lru_cache(maxsize=4096)
def _datum_from_json(value: object) -> Fraction | None:
    # A group's datum is stored once per board and seat but read for each of its members.
    exact = _exact_from_json(value)
    return None if exact is None else Fraction(exact)

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

After one saved result only one board's groups and the rounds from that board's on change: a
``Memo`` passed from one computation of an event to the next keeps each round's comparisons, each
player's round tallies, running records and each round's ranking, and the next computation redoes
only what no longer holds. What it keeps is recognised by identity (the caller keeps unchanged
records as the very same objects), so the outcome is always that of a computation from nothing.
"""

from __future__ import annotations

import dataclasses
import json
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from operator import attrgetter, is_
from typing import Final, NamedTuple

from engine import comparison
from engine.comparison import Artificial, Placing, PlayerKey, Record, Weighted
from engine.errors import EngineError

SEATS: Final = ("N", "E", "S", "W")
HUNDRED: Final = Fraction(100)
_ZERO: Final = Fraction(0)


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

GroupKey = tuple[int, int]
"""A comparison group: the board and the seat's index (0 for N … 3 for W)."""


@dataclass(slots=True)
class _Compared:
    """One group as it was compared: its members, its expected size and the seats' scores."""

    members: list[TableResult]
    expected: int
    scores: list[BoardScore]


@dataclass
class Memo:
    """What one computation of the standings lends the next one of the same event.

    Every reuse is decided by identity: a group whose members are the very same (immutable)
    ``TableResult`` objects, expected as many times, is not compared again; a player's round whose
    boards are the very same ``BoardScore`` objects is not added up again; a round whose records
    are equal is not ranked again. So ``standings(field, memo)`` always equals ``standings(field)``:
    a caller that rebuilds only the records that changed and keeps the others' objects makes the
    next computation cost what changed. A memo is changed by each call and serves one sequence of
    fields at a time.
    """

    groups: dict[GroupKey, _Compared] = field(default_factory=dict)
    parts: dict[int | None, _Part] = field(default_factory=dict)
    rounds: dict[tuple[int, int], tuple[list[BoardScore], tuple[BoardScore, ...], _Tally]] = field(
        default_factory=dict
    )
    lines: dict[int, _Line] = field(default_factory=dict)
    rankings: dict[int, tuple[list[Record], tuple[Placing, ...]]] = field(default_factory=dict)
    settings: tuple[Method, tuple[str, ...]] | None = None

    def fit(self, field: Field) -> None:
        """Forget everything computed under another method or tie-break order."""
        settings = (field.method, field.tie_break)
        if settings != self.settings:
            self.groups, self.parts, self.rounds, self.lines, self.rankings = {}, {}, {}, {}, {}
            self.settings = settings


def _same(old: Sequence[object], new: Sequence[object]) -> bool:
    return len(old) == len(new) and all(map(is_, old, new))


def _groups(results: Iterable[TableResult]) -> dict[GroupKey, list[TableResult]]:
    groups: dict[GroupKey, list[TableResult]] = defaultdict(list)
    for result in results:
        entries = result.entries
        for index in range(4):
            if entries[index] is not None:
                groups[result.board, index].append(result)
    return groups


def _compared_group(
    field: Field, key: GroupKey, members: list[TableResult], before: _Compared | None
) -> _Compared:
    """A group's comparison: ``before`` when it compared the very same records, else anew."""
    board, index = key
    expected = max(field.expected.get(board, 0), len(members))
    if before is not None and before.expected == expected and _same(before.members, members):
        return before
    return _Compared(members, expected, list(_compare_group(board, index, members, expected)))


def compare_boards(field: Field, memo: Memo | None = None) -> list[BoardScore]:
    """Every seat of every result and every scored bye, compared with its group.

    With a ``memo`` (``Memo``), a group of the very same records as last time is not compared
    again.
    """
    previous = memo.groups if memo is not None else {}
    kept: dict[GroupKey, _Compared] = {}
    scored: list[BoardScore] = []
    for key, members in _groups(field.results).items():
        compared = _compared_group(field, key, members, previous.get(key))
        kept[key] = compared
        scored.extend(compared.scores)
    if memo is not None:
        memo.groups = kept
    scored.extend(_bye_scores(field))
    return scored


def _bye_scores(field: Field) -> Iterable[BoardScore]:
    for bye in field.byes:
        for board in bye.boards:
            # At least the top of two results, so that a lone table still weighs the award.
            group_top = comparison.top(max(field.expected.get(board, 0), 2))
            yield BoardScore(
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
        if not other.parts:
            both.parts = self.parts.copy()
            return both
        both.parts = dict(self.parts)
        for denominator, numerator in other.parts.items():
            both.parts[denominator] = both.parts.get(denominator, 0) + numerator
        return both

    def same(self, other: _Sum) -> bool:
        """Whether both are kept alike (and so are equal)."""
        return self.whole == other.whole and self.parts == other.parts

    def value(self) -> Fraction:
        if not self.parts:
            return Fraction(self.whole)
        return sum(
            (Fraction(numerator, denominator) for denominator, numerator in self.parts.items()),
            Fraction(self.whole),
        )

    def percentage_of(self, top: int) -> Fraction:
        """The sum times 100 over ``top`` (not 0)."""
        if not self.parts:
            return Fraction(self.whole * 100, top)
        return self.value() * 100 / top


class _Tally:
    """What a player's boards of one round, or of several, add up to.

    The sums of compared values and of differences from the datum cost exact fractions; they are
    kept only by a tally that needs them (``exact``: raw totals, datum totals or the Butler
    tie-break).
    """

    __slots__ = (
        "boards",
        "butler",
        "exact",
        "figured",
        "matchpoints",
        "raw",
        "real",
        "top",
        "tops",
        "value",
        "won",
    )

    def __init__(self, exact: bool = True) -> None:
        self.exact = exact
        self.figured: tuple[Method, Fraction] | None = None
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
        matchpoints = item.matchpoints
        self.matchpoints.add(matchpoints)
        top = item.top
        self.top += top
        if item.score is not None:
            self.raw += item.score
        value = item.value
        if value is None:
            return
        self.real += 1
        if self.exact:
            self.value.add(value)
            self.butler.add(value)
            if item.datum is not None:
                self.butler.subtract(item.datum)
        if 2 * matchpoints > top:
            self.won += 1
        if top > 0 and matchpoints == top:
            self.tops += 1

    def plus(self, other: _Tally) -> _Tally:
        both = _Tally(self.exact)
        both.boards = self.boards + other.boards
        both.real = self.real + other.real
        both.matchpoints = self.matchpoints.plus(other.matchpoints)
        both.top = self.top + other.top
        if self.exact:
            both.value = self.value.plus(other.value)
            both.butler = self.butler.plus(other.butler)
        both.raw = self.raw + other.raw
        both.won = self.won + other.won
        both.tops = self.tops + other.tops
        return both

    def same(self, other: _Tally) -> bool:
        """Whether both add up alike: either serves wherever the other would."""
        return (
            self.exact == other.exact
            and self.boards == other.boards
            and self.real == other.real
            and self.top == other.top
            and self.raw == other.raw
            and self.won == other.won
            and self.tops == other.tops
            and self.matchpoints.same(other.matchpoints)
            and self.value.same(other.value)
            and self.butler.same(other.butler)
        )

    def figure(self, method: Method) -> Fraction:
        """Event percentage, raw total or datum total of these boards (not scaled)."""
        if self.figured is not None and self.figured[0] == method:
            return self.figured[1]
        if method == Method.MATCHPOINTS:
            figure = HUNDRED / 2 if self.top == 0 else self.matchpoints.percentage_of(self.top)
        else:
            figure = (self.value if method == Method.RAW else self.butler).value()
        self.figured = (method, figure)
        return figure

    def record(
        self,
        method: Method,
        player: int,
        sat_out: int,
        meetings: Mapping[PlayerKey, Fraction],
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
            total=total - fine if fine else total,
            boards=self.boards,
            boards_won=self.won,
            tops=self.tops,
            raw_total=Fraction(self.raw),
            butler=self.butler.value() if needs_butler else _ZERO,
            meetings=meetings,
        )


Meetings = dict[int, dict[int, dict[int, int]]]
"""player -> round -> opponent -> the player's score minus the opponent's."""


def _meetings(results: Iterable[TableResult]) -> Meetings:
    """Each player's score minus each opponent's, per round, over the boards they played together."""
    out: Meetings = defaultdict(dict)
    for result in results:
        scores = result.head_to_head
        if scores is None:
            continue
        players = result.players
        for index, player in enumerate(players):
            if player is None:
                continue
            line = out[player].setdefault(result.round, {})
            mine = scores[index]
            for other_index, other in enumerate(players):
                if other_index != index and other is not None:
                    line[other] = line.get(other, 0) + mine - scores[other_index]
    return out


def _merged(
    rounds: Mapping[int, Mapping[int, int]], last: int | None = None
) -> dict[PlayerKey, Fraction]:
    """A player's meetings over every round, or over the rounds up to ``last``."""
    out: dict[int, int] = defaultdict(int)
    for number, opponents in rounds.items():
        if last is None or number <= last:
            for other, value in opponents.items():
                out[other] += value
    return {other: Fraction(value) for other, value in out.items()}


def _ranked(
    cumulative: Mapping[int, list[Record]], tie_break: tuple[str, ...], memo: Memo | None
) -> dict[int, tuple[Placing, ...]]:
    """Each round's ranking; a memo's round of the very same records keeps its ranking."""
    kept: dict[int, tuple[list[Record], tuple[Placing, ...]]] = {}
    for number, records in cumulative.items():
        found = memo.rankings.get(number) if memo is not None else None
        if found is not None and _same(found[0], records):
            kept[number] = found
        else:
            kept[number] = (records, _rank(records, tie_break, found[1] if found else ()))
    if memo is not None:
        memo.rankings = kept
    return {number: placings for number, (_records, placings) in kept.items()}


def _rank(
    records: list[Record], tie_break: tuple[str, ...], hint: Sequence[Placing]
) -> tuple[Placing, ...]:
    """``comparison.rank`` of the records, handed to it best first when the total ranks first.

    The ranking lists level players in the order it was given them, so records sorted by total
    (highest first) and, among equal totals, in their own order give the very same ranking, and
    spare it most of its comparisons of fractions. Laid out in the order of ``hint`` (the last
    ranking of the round, nearly right already) first, they spare the sort most of its own.
    """
    if tie_break[0] != "total":
        return tuple(comparison.rank(records, tie_break))
    given = {record.player: position for position, record in enumerate(records)}
    ahead = {placing.record.player: position for position, placing in enumerate(hint)}
    laid_out = sorted(records, key=lambda record: ahead.get(record.player, len(ahead)))
    # A float never orders two totals the wrong way round (it may tie them): the exact total
    # decides only where the floats are equal.
    laid_out.sort(
        key=lambda record: (float(record.total), record.total, -given[record.player]),
        reverse=True,
    )
    return tuple(comparison.rank(laid_out, tie_break))


@dataclass(slots=True)
class _Line:
    """One player's figures as a computation left them, for the next one to start from.

    The lists run over the event's rounds: the round's own tally (``None`` without a board), the
    running tally after it, and the record ranked after it (``None`` while the player has no
    board, and always for a substitute).
    """

    rounds: list[int]
    own: list[_Tally | None]
    running: list[_Tally]
    records: list[Record | None]
    met: Mapping[int, dict[int, int]]
    sat_out: Mapping[int, int]
    fine: Fraction
    ranked: bool
    standing: PlayerStanding


@dataclass(frozen=True, slots=True)
class _Rules:
    method: Method
    needs_butler: bool
    exact: bool
    by_head: bool

    @classmethod
    def of(cls, field: Field) -> _Rules:
        needs_butler = field.method == Method.DATUM or "butler" in field.tie_break
        return cls(
            field.method,
            needs_butler,
            needs_butler or field.method == Method.RAW,
            "head_to_head" in field.tie_break,
        )


def _unchanged_rounds(
    previous: _Line | None,
    rounds: list[int],
    own: list[_Tally | None],
    met: Mapping[int, dict[int, int]],
    sat_out: Mapping[int, int],
    fine: Fraction,
    ranked: bool,
    by_head: bool,
) -> tuple[int, bool]:
    """How many first rounds of ``previous`` still hold, and whether its meetings do."""
    if previous is None or previous.rounds != rounds:
        return 0, False
    same_met = previous.met.keys() == met.keys() and all(
        previous.met[number] is line for number, line in met.items()
    )
    if previous.sat_out != sat_out or previous.fine != fine or previous.ranked != ranked:
        return 0, same_met
    if by_head and not same_met:
        return 0, False
    start = 0
    while start < len(rounds) and previous.own[start] is own[start]:
        start += 1
    return start, same_met


def _line(
    player: int,
    boards: tuple[BoardScore, ...],
    tallies: Mapping[int, _Tally],
    met: Mapping[int, dict[int, int]],
    rounds: list[int],
    field: Field,
    rules: _Rules,
    previous: _Line | None,
) -> _Line:
    """A player's round figures, running records and total; from ``previous`` where it holds."""
    own = [tallies.get(number) for number in rounds]
    sat_out = field.sat_out.get(player, {})
    fine = field.fines.get(player, Fraction(0))
    ranked = player not in field.unranked
    start, same_met = _unchanged_rounds(
        previous, rounds, own, met, sat_out, fine, ranked, rules.by_head
    )
    if (
        previous is not None
        and start == len(rounds)
        and same_met
        and _same(previous.standing.boards, boards)
    ):
        return previous
    running = previous.running[:start] if previous is not None else []
    records = previous.records[:start] if previous is not None else []
    tally = running[-1] if running else _Tally(rules.exact)
    for index in range(start, len(rounds)):
        number = rounds[index]
        mine = own[index]
        if mine is not None:
            tally = tally.plus(mine)
        running.append(tally)
        records.append(
            tally.record(
                rules.method,
                player,
                sum(count for r, count in sat_out.items() if r <= number),
                _merged(met, number) if rules.by_head else {},
                fine,
                rules.needs_butler,
            )
            if tally.boards and ranked
            else None
        )
    if previous is not None and start == len(rounds) and same_met and previous.running:
        # Every round adds up as last time: only the boards are new.
        standing = dataclasses.replace(previous.standing, boards=boards)
        return _Line(rounds, own, running, records, met, sat_out, fine, ranked, standing)
    # The meetings over every round, when they are those of the last computation, are its own.
    met_over_all = previous.standing.record.meetings if same_met and previous else _merged(met)
    standing = PlayerStanding(
        player,
        boards,
        {number: tallies[number].figure(rules.method) for number in sorted(tallies)},
        tally.record(
            rules.method, player, sum(sat_out.values()), met_over_all, fine, rules.needs_butler
        ),
        sum(sat_out.values()),
        fine,
    )
    return _Line(rounds, own, running, records, met, sat_out, fine, ranked, standing)


@dataclass(slots=True)
class _Part:
    """The results of one round (or of every round, when a board is played in several) as
    compared: each player's boards and meetings per round, by (player, round)."""

    results: list[TableResult]
    expected: dict[int, int]  # how often each of its boards was expected to be played
    groups: dict[GroupKey, _Compared]
    items: dict[tuple[int, int], list[BoardScore]]  # in the order of comparison
    met: dict[tuple[int, int], dict[int, int]]
    rounds: set[int]  # the rounds of its compared boards


def _split(results: Sequence[TableResult]) -> dict[int | None, list[TableResult]]:
    """The results by round; all under ``None`` when a board is played in several rounds (its
    comparison spans them)."""
    by_round: dict[int | None, list[TableResult]] = defaultdict(list)
    played_in: dict[int, int] = {}
    for result in results:
        by_round[result.round].append(result)
        if played_in.setdefault(result.board, result.round) != result.round:
            return {None: list(results)}
    return by_round


def _parts(field: Field, memo: Memo | None) -> dict[int | None, _Part]:
    """Every part of the results compared; a part of the very same records as last time, its
    boards expected as often, is taken as it was."""
    previous = memo.parts if memo is not None else {}
    parts: dict[int | None, _Part] = {}
    for key, results in _split(field.results).items():
        found = previous.get(key)
        if (
            found is not None
            and _same(found.results, results)
            and all(field.expected.get(board, 0) == n for board, n in found.expected.items())
        ):
            parts[key] = found
        else:
            parts[key] = _compare_part(field, results, found)
    if memo is not None:
        memo.parts = parts
    return parts


def _compare_part(field: Field, results: list[TableResult], previous: _Part | None) -> _Part:
    """Compare a part's groups (a group of the very same records as in ``previous`` is kept)."""
    old = previous.groups if previous is not None else {}
    groups: dict[GroupKey, _Compared] = {}
    items: dict[tuple[int, int], list[BoardScore]] = defaultdict(list)
    for key, members in _groups(results).items():
        compared = _compared_group(field, key, members, old.get(key))
        groups[key] = compared
        for item in compared.scores:
            items[item.player, item.round].append(item)
    met = _part_meetings(results, previous)
    return _Part(
        results,
        {board: field.expected.get(board, 0) for board, _index in groups},
        groups,
        items,
        met,
        {number for _player, number in items},
    )


def _part_meetings(
    results: list[TableResult], previous: _Part | None
) -> dict[tuple[int, int], dict[int, int]]:
    """A part's meetings by (player, round). Those of the players whose results are the very
    same as in ``previous`` are its own; the others are added up again, and kept as the very
    same object when they come out alike, so that what follows from them is known to hold."""
    if previous is None:
        return {
            (player, number): line
            for player, lines in _meetings(results).items()
            for number, line in lines.items()
        }
    before = {id(result) for result in previous.results}
    now = {id(result) for result in results}
    changed = [result for result in results if id(result) not in before]
    changed += [result for result in previous.results if id(result) not in now]
    touched = {
        (player, result.round)
        for result in changed
        for player in result.players
        if player is not None
    }
    met = {key: line for key, line in previous.met.items() if key not in touched}
    again = _meetings(
        result
        for result in results
        if any((player, result.round) in touched for player in result.players)
    )
    for player, lines in again.items():
        for number, line in lines.items():
            if (player, number) in touched:
                old = previous.met.get((player, number))
                met[player, number] = old if old == line else line
    return met


def _round_boards(
    key: tuple[int, int],
    listed: list[BoardScore],
    byes: list[BoardScore],
    exact: bool,
    memo: Memo | None,
    kept: Memo,
) -> tuple[tuple[BoardScore, ...], _Tally]:
    """A player's boards of a round, by board, and what they add up to. The very same list of a
    part kept from last time gives what it gave; new boards that add up alike keep the tally."""
    found = memo.rounds.get(key) if memo is not None else None
    if found is not None and not byes and found[0] is listed:
        kept.rounds[key] = found
        return found[1], found[2]
    these = (
        tuple(sorted([*listed, *byes], key=_BOARD)) if byes else tuple(sorted(listed, key=_BOARD))
    )
    if found is not None and _same(found[1], these):
        tally = found[2]
    else:
        tally = _Tally(exact)
        for item in these:
            tally.add(item)
        if found is not None and tally.same(found[2]):
            tally = found[2]
    kept.rounds[key] = (listed, these, tally)
    return these, tally


_BOARD = attrgetter("board")


def _player_boards(
    player: int,
    rounds: list[int],
    of_round: Mapping[int, _Part],
    byes: Mapping[tuple[int, int], list[BoardScore]],
    exact: bool,
    memo: Memo | None,
    kept: Memo,
) -> tuple[tuple[BoardScore, ...], dict[int, _Tally]]:
    """A player's boards in round and board order, and each round's tally."""
    boards: list[BoardScore] = []
    tallies: dict[int, _Tally] = {}
    for number in rounds:
        part = of_round.get(number)
        listed = part.items.get((player, number), _NOTHING) if part is not None else _NOTHING
        extra = byes.get((player, number), _NOTHING)
        if not listed and not extra:
            continue
        these, tallies[number] = _round_boards((player, number), listed, extra, exact, memo, kept)
        boards.extend(these)
    return tuple(boards), tallies


_NOTHING: Final[list[BoardScore]] = []


def standings(field: Field, memo: Memo | None = None) -> Standings:
    """Compare every board, add up each player's rounds and total, and rank after each round.

    ``memo`` (``Memo``) carries what the last computation of the same event can lend this one;
    the outcome is the same with it or without.
    """
    if memo is not None:
        memo.fit(field)
    kept = Memo()
    parts = _parts(field, memo)
    byes: dict[tuple[int, int], list[BoardScore]] = defaultdict(list)
    for item in _bye_scores(field):
        byes[item.player, item.round].append(item)
    meetings: dict[int, dict[int, dict[int, int]]] = defaultdict(dict)
    of_round: dict[int, _Part] = {}
    for part in parts.values():
        for (player, number), opponents in part.met.items():
            meetings[player][number] = opponents
        for number in part.rounds:
            of_round[number] = part
    rules = _Rules.of(field)
    rounds = sorted(set(field.rounds) | set(of_round) | {number for _player, number in byes})
    players: dict[int, PlayerStanding] = {}
    cumulative: dict[int, list[Record]] = {number: [] for number in rounds}
    for player in field.players:
        boards, tallies = _player_boards(player, rounds, of_round, byes, rules.exact, memo, kept)
        line = _line(
            player,
            boards,
            tallies,
            meetings.get(player, {}),
            rounds,
            field,
            rules,
            memo.lines.get(player) if memo is not None else None,
        )
        kept.lines[player] = line
        for number, record in zip(rounds, line.records, strict=True):
            if record is not None:
                cumulative[number].append(record)
        players[player] = line.standing
    if memo is not None:
        memo.rounds, memo.lines = kept.rounds, kept.lines
    after_round = _ranked(cumulative, field.tie_break, memo)
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
            str(player): [_line_json(item) for item in boards] for player, boards in players.items()
        },
    }


LineMemo = dict[int, tuple[BoardScore, str]]
"""Board scores already encoded as JSON text, by the identity of their ``BoardScore``."""


def board_scores_text(
    players: Mapping[int, Sequence[BoardScore]], memo: LineMemo | None = None
) -> str:
    """``board_scores_to_json`` as compact JSON text, the very text ``json.dumps`` makes of it.

    With a ``memo`` of the last call, a board score that is the very same object is not encoded
    again: after one result changed, most of an event's 80,000 lines are.
    """
    previous = memo if memo is not None else {}
    kept: LineMemo = {}
    encode = json.JSONEncoder(separators=(",", ":")).encode
    parts = []
    for player, boards in players.items():
        lines = []
        for item in boards:
            found = previous.get(id(item))
            if found is None or found[0] is not item:
                found = (item, encode(_line_json(item)))
            kept[id(item)] = found
            lines.append(found[1])
        parts.append(f"{encode(str(player))}:[{','.join(lines)}]")
    if memo is not None:
        memo.clear()
        memo.update(kept)
    return f'{{"version":{BOARD_SCORES_VERSION},"players":{{{",".join(parts)}}}}}'


def _line_json(item: BoardScore) -> list[object]:
    return [
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

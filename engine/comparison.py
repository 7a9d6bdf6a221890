"""Duplicate comparison: matchpoints, Neuberg, datum (Butler), artificial scores and ranking.

In duplicate play a player's score on a board is compared with the scores of everyone who held
the same seat's cards on that board: the *comparison group*. Everything here is a pure function
over plain numbers (``int`` or ``fractions.Fraction``; convert a ``Decimal`` with ``Fraction(d)``)
and computes exactly. Round only what is displayed, with ``display``.

Comparing one group (shared/reference/duplicate-scoring.md):

- ``matchpoints(scores) -> list[Fraction]``: 2 for each result beaten, 1 for each tie (the
  international 2/1 scale; halve for the ACBL 1/½ scale). ``top(n) == 2 * (n - 1)`` and the
  matchpoints of a group of n add up to ``n * (n - 1)``. A ``Weighted`` entry (a weighted
  adjusted score) takes part with each of its outcomes in proportion to its weight.
- ``percentage(mp, top)``: ``mp / top * 100``; a lone result scores 50.
- ``neuberg(mp, actual, expected)`` and ``neuberg_percentage(pct, actual, expected)``: scale a
  board played ``actual`` times to weigh like one played ``expected`` times:
  ``M' = (M + 1) * E / A - 1`` and ``P' = (P - 50) * (A - 1) / A * E / (E - 1) + 50``. With
  ``A <= E`` the result stays between 0 and the top of E results.
- ``datum(scores, drop_extremes=False)``: the mean of the group, optionally without its highest
  and lowest score; ``butler(scores, ...)`` gives each score minus the datum.
- ``compare(entries, expected=None, drop_extremes=False) -> list[Comparison]`` does all of it
  for a group that may hold ``Weighted`` and ``Artificial`` entries: the real results are
  matchpointed among themselves and Neuberg-scaled to the expected number of results (by default
  the size of the group), and each artificial entry gets its percentage of the top.

Artificial scores: ``ArtificialScores`` holds the event's average-plus / average / average-minus
percentages (60 / 50 / 40 by default) and gives an ``Artificial`` entry for an ``Award``; the
non-offender's own session percentage replaces average-plus when it is higher.

Totals: ``event_percentage(matchpoints, tops)`` (sum of MP over sum of tops on the boards
played), ``raw_total(scores)`` and ``raw_average(scores)`` (per board, for players who played
different numbers of boards).

Ranking: ``rank_labels(values, higher_is_better=True)`` labels places with ties shown as ``"3="``.
``rank(records, order)`` ranks ``Record``s by a tie-break order given as data, a sequence of the
criteria named in ``TIE_BREAKS`` (``"total"``, ``"boards_won"``, ``"tops"``, ``"raw_total"``,
``"butler"``, ``"head_to_head"``). Players still level after the last criterion share their
place; nothing is decided by chance or by input order. Each ``Placing`` says which criterion
separated it from the place above, so a ranking can be explained to the players.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Final, NamedTuple

from engine.errors import EngineError

Rational = int | Fraction
"""A score or weight: a whole number or an exact fraction (never a float)."""

PlayerKey = int | str

HUNDRED: Final = Fraction(100)
HALF: Final = Fraction(50)


# -- one comparison group ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Weighted:
    """A weighted adjusted score: the board's possible outcomes, each score with its weight.

    Weights are positive and add up to 1, e.g. ``Weighted.of((Fraction(3, 10), 120),
    (Fraction(7, 10), -50))`` for "30 % of 120 and 70 % of -50".
    """

    outcomes: tuple[tuple[Fraction, Fraction], ...]

    def __post_init__(self) -> None:
        if not self.outcomes:
            raise EngineError("a weighted score needs at least one outcome")
        for weight, _ in self.outcomes:
            if weight <= 0:
                raise EngineError(
                    f"every weight of a weighted score must be positive, got {weight}"
                )
        total = sum((weight for weight, _ in self.outcomes), Fraction(0))
        if total != 1:
            raise EngineError(f"the weights of a weighted score must add up to 1, not {total}")

    @classmethod
    def of(cls, *outcomes: tuple[Rational, Rational]) -> Weighted:
        """Build from ``(weight, score)`` pairs of whole numbers or fractions."""
        return cls(tuple((Fraction(weight), Fraction(score)) for weight, score in outcomes))

    @property
    def expected_score(self) -> Fraction:
        """The weighted mean score, used for the datum and raw totals."""
        return sum((weight * score for weight, score in self.outcomes), Fraction(0))


@dataclass(frozen=True, slots=True)
class Artificial:
    """An artificial score for a board that could not be played normally, in percent of the top."""

    percentage: Fraction

    def __post_init__(self) -> None:
        if not 0 <= self.percentage <= HUNDRED:
            raise EngineError(
                f"an artificial score must be 0 to 100 percent, got {self.percentage}"
            )


class Award(Enum):
    """The three standard artificial scores."""

    AVERAGE_PLUS = "average_plus"
    AVERAGE = "average"
    AVERAGE_MINUS = "average_minus"


@dataclass(frozen=True, slots=True)
class ArtificialScores:
    """An event's percentages for average-plus, average and average-minus."""

    average_plus: Fraction = Fraction(60)
    average: Fraction = Fraction(50)
    average_minus: Fraction = Fraction(40)

    def __post_init__(self) -> None:
        for name in ("average_plus", "average", "average_minus"):
            value = getattr(self, name)
            if not 0 <= value <= HUNDRED:
                raise EngineError(f"{name} must be 0 to 100 percent, got {value}")
        if not self.average_minus <= self.average <= self.average_plus:
            raise EngineError("average_minus, average and average_plus must not decrease")

    def percentage(self, award: Award, session_percentage: Rational | None = None) -> Fraction:
        """The percentage of an award; a non-offender's better session percentage replaces A+."""
        if award is Award.AVERAGE_PLUS:
            if session_percentage is not None and session_percentage > self.average_plus:
                return Fraction(session_percentage)
            return self.average_plus
        return self.average if award is Award.AVERAGE else self.average_minus

    def artificial(self, award: Award, session_percentage: Rational | None = None) -> Artificial:
        return Artificial(self.percentage(award, session_percentage))


Entry = int | Fraction | Weighted | Artificial
"""One member of a comparison group: a table score, a weighted adjusted score or an artificial one."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """One entry's standing in its comparison group.

    ``score`` is the table score (a weighted score's weighted mean), ``None`` for an artificial
    score. ``top`` is the top of the group after Neuberg; ``datum`` is the group's datum, ``None``
    when nobody in the group has a real score.
    """

    score: Fraction | None
    matchpoints: Fraction
    top: int
    percentage: Fraction
    datum: Fraction | None

    @property
    def is_artificial(self) -> bool:
        return self.score is None

    @property
    def butler(self) -> Fraction | None:
        """Score minus datum, for a real score."""
        if self.score is None or self.datum is None:
            return None
        return self.score - self.datum


def top(count: int) -> int:
    """The top of a group of ``count`` results on the 2/1 scale."""
    if count < 1:
        raise EngineError(f"a comparison group has at least one result, got {count}")
    return 2 * (count - 1)


def percentage(matchpoints: Rational, top: int) -> Fraction:
    """Matchpoints as a percentage of the top; a lone result (top 0) scores 50."""
    if top == 0:
        return HALF
    if type(matchpoints) is int:
        return Fraction(matchpoints * 100, top)
    if matchpoints.denominator == 1:
        return Fraction(matchpoints.numerator * 100, top)
    return Fraction(matchpoints) * HUNDRED / top


def matchpoints(scores: Sequence[Rational | Weighted]) -> list[Fraction]:
    """Each entry's matchpoints against the others: 2 per result beaten, 1 per tie."""
    ints = [score for score in scores if type(score) is int]
    if len(ints) == len(scores):
        # The common case (whole table scores): compare ints, which is many times faster.
        ordered_ints = sorted(ints)
        return [
            Fraction(bisect_left(ordered_ints, s) + bisect_right(ordered_ints, s) - 1) for s in ints
        ]
    if all(not isinstance(score, Weighted) for score in scores):
        plain = [Fraction(score) for score in scores if not isinstance(score, Weighted)]
        ordered = sorted(plain)
        return [Fraction(bisect_left(ordered, s) + bisect_right(ordered, s) - 1) for s in plain]
    # A weighted entry meets every other entry once per pair of outcomes, in proportion.
    spreads = [_outcomes(score) for score in scores]
    result = []
    for index, mine in enumerate(spreads):
        total = Fraction(0)
        for other, theirs in enumerate(spreads):
            if other == index:
                continue
            for weight, score in mine:
                for their_weight, their_score in theirs:
                    if score > their_score:
                        total += 2 * weight * their_weight
                    elif score == their_score:
                        total += weight * their_weight
        result.append(total)
    return result


def _outcomes(score: Rational | Weighted) -> tuple[tuple[Fraction, Fraction], ...]:
    if isinstance(score, Weighted):
        return score.outcomes
    return ((Fraction(1), Fraction(score)),)


def _check_counts(actual: int, expected: int) -> None:
    if actual < 1:
        raise EngineError(f"a board needs at least one actual result, got {actual}")
    if expected < actual:
        raise EngineError(
            f"the board has {actual} results but only {expected} were expected; "
            "the expected number must be at least the actual number"
        )


def neuberg(matchpoints: Rational, actual: int, expected: int) -> Fraction:
    """Matchpoints on a board with ``actual`` results scaled to ``expected`` results (2/1 scale)."""
    _check_counts(actual, expected)
    if not 0 <= matchpoints <= top(actual):
        raise EngineError(
            f"matchpoints must be 0 to {top(actual)} for {actual} results, got {matchpoints}"
        )
    return (Fraction(matchpoints) + 1) * expected / actual - 1


def neuberg_percentage(percentage: Rational, actual: int, expected: int) -> Fraction:
    """A board percentage with ``actual`` results scaled to ``expected`` results."""
    _check_counts(actual, expected)
    if not 0 <= percentage <= HUNDRED:
        raise EngineError(f"a percentage must be 0 to 100, got {percentage}")
    if expected == 1:
        return HALF
    return (Fraction(percentage) - HALF) * Fraction(actual - 1, actual) * Fraction(
        expected, expected - 1
    ) + HALF


def datum(scores: Sequence[Rational], drop_extremes: bool = False) -> Fraction:
    """The mean score of a group; with ``drop_extremes`` one highest and one lowest are left out
    first (only when at least three scores remain to drop from)."""
    if not scores:
        raise EngineError("the datum of an empty group is undefined")
    if all(type(score) is int for score in scores):
        ints = sorted(int(score) for score in scores)
        if drop_extremes and len(ints) >= 3:
            ints = ints[1:-1]
        return Fraction(sum(ints), len(ints))
    values = sorted(Fraction(score) for score in scores)
    if drop_extremes and len(values) >= 3:
        values = values[1:-1]
    return sum(values, Fraction(0)) / len(values)


def butler(scores: Sequence[Rational], drop_extremes: bool = False) -> list[Fraction]:
    """Each score minus the group's datum."""
    middle = datum(scores, drop_extremes)
    return [Fraction(score) - middle for score in scores]


def compare(
    entries: Sequence[Entry], expected: int | None = None, drop_extremes: bool = False
) -> list[Comparison]:
    """Compare one group; ``expected`` is the number of results the board should have had.

    The real results (scores and weighted scores) are matchpointed among themselves; when there
    are fewer of them than expected (the board was played fewer times, or some entries are
    artificial) their matchpoints are Neuberg-scaled. The top is that of ``expected`` results,
    and each artificial entry gets its percentage of it.
    """
    if not entries:
        return []
    wanted = len(entries) if expected is None else expected
    if wanted < len(entries):
        raise EngineError(
            f"the group has {len(entries)} entries but only {wanted} results were expected"
        )
    real = [entry for entry in entries if not isinstance(entry, Artificial)]
    group_top = top(wanted)
    points = matchpoints(real)
    if real and len(real) < wanted:
        points = [neuberg(mp, len(real), wanted) for mp in points]
    raw: list[Rational] = [entry if type(entry) is int else _score(entry) for entry in real]
    middle = datum(raw, drop_extremes) if real else None
    scores = [Fraction(value) for value in raw]
    result = []
    real_results = iter(zip(scores, points, strict=True))
    for entry in entries:
        if isinstance(entry, Artificial):
            mp = entry.percentage * group_top / HUNDRED
            result.append(Comparison(None, mp, group_top, entry.percentage, middle))
        else:
            score, mp = next(real_results)
            result.append(Comparison(score, mp, group_top, percentage(mp, group_top), middle))
    return result


def _score(entry: Rational | Weighted) -> Fraction:
    return entry.expected_score if isinstance(entry, Weighted) else Fraction(entry)


# -- totals ------------------------------------------------------------------------------------


def event_percentage(matchpoints: Iterable[Rational], tops: Iterable[int]) -> Fraction:
    """Sum of matchpoints over sum of tops of the boards played, in percent.

    Boards with a top of 0 (lone results) weigh nothing; a player with only such boards
    stands at 50.
    """
    # Whole matchpoints are summed as ints: Fraction additions are the slow part of a standings run.
    whole = 0
    parts = Fraction(0)
    for mp in matchpoints:
        if type(mp) is int:
            whole += mp
        elif mp.denominator == 1:
            whole += mp.numerator
        else:
            parts += mp
    earned = parts + whole
    possible = sum(tops)
    if possible == 0:
        return HALF
    return earned * HUNDRED / possible


def raw_total(scores: Iterable[Rational]) -> Fraction:
    """The sum of a player's table scores."""
    return sum((Fraction(score) for score in scores), Fraction(0))


def raw_average(scores: Sequence[Rational]) -> Fraction:
    """The average table score per board, fair when players played different numbers of boards."""
    if not scores:
        raise EngineError("a player with no boards has no average")
    return raw_total(scores) / len(scores)


def display(value: Rational, places: int = 2) -> str:
    """A value rounded for display, halves away from zero: ``display(Fraction(199, 2), 0) == "100"``."""
    if places < 0:
        raise EngineError(f"places must be 0 or more, got {places}")
    # floor(|n/d| * 10**places + 1/2) in integers: standings display thousands of figures.
    exact = value if isinstance(value, Fraction) else Fraction(value)
    numerator, denominator = exact.numerator, exact.denominator
    whole = (2 * abs(numerator) * 10**places + denominator) // (2 * denominator)
    sign = "-" if numerator < 0 and whole else ""
    digits = str(whole).rjust(places + 1, "0")
    if places == 0:
        return sign + digits
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


# -- ranking -----------------------------------------------------------------------------------


def rank_labels(values: Sequence[Rational], higher_is_better: bool = True) -> list[str]:
    """Each value's place, in input order: ``[30, 10, 30, 20]`` gives ``["1=", "4", "1=", "3"]``."""
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=higher_is_better)
    counts = Counter(values)
    labels = [""] * len(values)
    place = 0
    for position, index in enumerate(order):
        if position == 0 or values[index] != values[order[position - 1]]:
            place = position + 1
        labels[index] = f"{place}=" if counts[values[index]] > 1 else str(place)
    return labels


_NO_MEETINGS: Final[Mapping[PlayerKey, Fraction]] = MappingProxyType({})


class Record(NamedTuple):
    """What a ranking knows of one player (or pair).

    ``total`` is the ranking figure (event percentage, matchpoints or raw total: whatever the
    event ranks by). ``meetings`` maps each player this one met at a table to this player's
    score minus theirs, summed over the boards they played together.

    A named tuple: standings make one for every player after every round, tens of thousands
    for a large event, and a tuple is made several times faster than a frozen dataclass.
    """

    player: PlayerKey
    total: Fraction
    boards: int = 0
    boards_won: int = 0
    tops: int = 0
    raw_total: Fraction = Fraction(0)
    butler: Fraction = Fraction(0)
    meetings: Mapping[PlayerKey, Fraction] = _NO_MEETINGS

    @classmethod
    def from_comparisons(
        cls,
        player: PlayerKey,
        comparisons: Sequence[Comparison],
        meetings: Mapping[PlayerKey, Rational] | None = None,
    ) -> Record:
        """A matchpointed player's record: total = event percentage over the boards played."""
        real = [c for c in comparisons if c.score is not None]
        return cls(
            player=player,
            total=event_percentage(
                (c.matchpoints for c in comparisons), (c.top for c in comparisons)
            ),
            boards=len(comparisons),
            boards_won=sum(1 for c in real if c.percentage > HALF),
            tops=sum(1 for c in real if c.top > 0 and c.matchpoints == c.top),
            raw_total=raw_total(c.score for c in real if c.score is not None),
            butler=raw_total(c.butler for c in real if c.butler is not None),
            meetings={key: Fraction(value) for key, value in (meetings or {}).items()},
        )


def _head_to_head(group: Sequence[Record]) -> list[Fraction]:
    # Only fair when every pair of the tied players met; otherwise the criterion is skipped.
    for record in group:
        for other in group:
            if other is not record and other.player not in record.meetings:
                return [Fraction(0)] * len(group)
    return [sum((r.meetings[o.player] for o in group if o is not r), Fraction(0)) for r in group]


TIE_BREAKS: Final[dict[str, str]] = {
    "total": "the ranking figure: event percentage, matchpoints or raw total, as the event ranks",
    "boards_won": "more boards scored above average (more than 50 % of the top)",
    "tops": "more boards with the top (nobody in the comparison group scored more)",
    "raw_total": "a higher sum of table scores",
    "butler": "a higher sum of differences from each board's datum",
    "head_to_head": (
        "a better score against the other tied players on the boards played at the same table "
        "(used only when every two of them met)"
    ),
}
"""The tie-break criteria a TD can order, each: higher is better."""

_KEYS: Final[dict[str, Callable[[Sequence[Record]], list[Fraction]]]] = {
    "total": lambda group: [r.total for r in group],
    "boards_won": lambda group: [Fraction(r.boards_won) for r in group],
    "tops": lambda group: [Fraction(r.tops) for r in group],
    "raw_total": lambda group: [r.raw_total for r in group],
    "butler": lambda group: [r.butler for r in group],
    "head_to_head": _head_to_head,
}


def check_tie_break_order(order: Sequence[str]) -> tuple[str, ...]:
    """Validate a tie-break order: known criteria, each at most once, at least one."""
    if isinstance(order, str) or not order:
        raise EngineError("a tie-break order is a list of criteria, e.g. ['total', 'boards_won']")
    seen: set[str] = set()
    for name in order:
        if name not in TIE_BREAKS:
            raise EngineError(
                f"unknown tie-break criterion {name!r}; criteria are {', '.join(TIE_BREAKS)}"
            )
        if name in seen:
            raise EngineError(f"tie-break criterion {name!r} is given twice")
        seen.add(name)
    return tuple(order)


class Placing(NamedTuple):
    """One line of a ranking.

    ``label`` is the place as shown (``"3"`` or ``"3="`` for a shared place). ``decided_by`` names
    the criterion that put this place below the one above it (``None`` for the first place).
    A named tuple: a large event's standings make a thousand of them after every round.
    """

    record: Record
    place: int
    label: str
    decided_by: str | None


def rank(records: Sequence[Record], order: Sequence[str] = ("total",)) -> list[Placing]:
    """Rank records by the criteria of ``order`` in turn; players level on all of them share."""
    criteria = check_tie_break_order(order)
    players = [r.player for r in records]
    if len(set(players)) != len(players):
        raise EngineError("a player appears twice in the ranking")
    placings: list[Placing] = []
    for block, decided_by in level_blocks(list(records), criteria, None):
        add_block(placings, block, decided_by)
    return placings


def add_block(placings: list[Placing], block: Sequence[Record], decided_by: str | None) -> None:
    """Place a block of level players after ``placings``: they share the next place."""
    place = len(placings) + 1
    label = f"{place}=" if len(block) > 1 else str(place)
    placings.extend(Placing(record, place, label, decided_by) for record in block)


def level_blocks(
    group: list[Record], criteria: tuple[str, ...], decided_by: str | None
) -> list[tuple[list[Record], str | None]]:
    """Blocks of level players, best first, each with the criterion that separated it;
    ``decided_by`` is the first block's (what put the group below the players above it)."""
    if len(group) == 1 or not criteria:
        return [(group, decided_by)]
    name, rest = criteria[0], criteria[1:]
    keys = _KEYS[name](group)
    by_level: dict[Fraction, list[Record]] = {}
    for record, key in zip(group, keys, strict=True):
        by_level.setdefault(key, []).append(record)
    if len(by_level) == 1:
        return level_blocks(group, rest, decided_by)
    blocks: list[tuple[list[Record], str | None]] = []
    for position, level in enumerate(sorted(by_level, reverse=True)):
        blocks.extend(level_blocks(by_level[level], rest, decided_by if position == 0 else name))
    return blocks

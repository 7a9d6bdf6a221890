"""Comparison groups: each seat of a board compared with everyone who held the same cards.

A group of whole scores, as large as the board expects, is matchpointed in integers on the 2/1
scale (``BoardScore.matchpoints`` is then an ``int``); only a group that needs Neuberg scaling, a
weighted score or an artificial one goes through ``engine.comparison.compare``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import is_

from engine import comparison
from engine.standings.inputs import SEATS, Field, TableResult
from engine.standings.outcome import HUNDRED, BoardScore

GroupKey = tuple[int, int]
"""A comparison group: the board and the seat's index (0 for N … 3 for W)."""


@dataclass(slots=True)
class Compared:
    """One group as it was compared: its members, its expected size and the seats' scores."""

    members: list[TableResult]
    expected: int
    scores: list[BoardScore]


def same(old: Sequence[object], new: Sequence[object]) -> bool:
    """Whether both hold the very same objects in the same order."""
    return len(old) == len(new) and all(map(is_, old, new))


def groups_of(results: Iterable[TableResult]) -> dict[GroupKey, list[TableResult]]:
    """The results by comparison group; an absentee's seat is in none."""
    groups: dict[GroupKey, list[TableResult]] = defaultdict(list)
    for result in results:
        entries = result.entries
        for index in range(4):
            if entries[index] is not None:
                groups[result.board, index].append(result)
    return groups


def compared_group(
    field: Field, key: GroupKey, members: list[TableResult], before: Compared | None
) -> Compared:
    """A group's comparison: ``before`` when it compared the very same records, else anew."""
    board, index = key
    expected = max(field.expected.get(board, 0), len(members))
    if before is not None and before.expected == expected and same(before.members, members):
        return before
    return Compared(members, expected, _compare_group(board, index, members, expected))


def bye_scores(field: Field) -> Iterable[BoardScore]:
    """Each scored bye's award on each of its boards."""
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
) -> list[BoardScore]:
    seat = SEATS[index]
    entries = [member.entries[index] for member in members]
    if len(members) == expected and all(type(entry) is int for entry in entries):
        # The hot path: a whole group of whole scores, matchpointed in integers (2 for each
        # score beaten, 1 for each other score equalled), each distinct score once.
        ints: list[int] = entries  # type: ignore[assignment]  # every entry checked to be an int
        ordered = sorted(ints)
        middle = Fraction(sum(ints), len(ints))
        group_top = 2 * (expected - 1)
        won = {
            score: bisect_left(ordered, score) + bisect_right(ordered, score) - 1
            for score in set(ints)
        }
        return [
            BoardScore(
                player,
                member.round,
                member.table,
                board,
                seat,
                member.result,
                score,
                score,
                won[score],
                group_top,
                middle,
            )
            for member, score in zip(members, ints, strict=True)
            if (player := member.players[index]) is not None
        ]
    compared = comparison.compare([e for e in entries if e is not None], expected=expected)
    scores = []
    for member, outcome in zip(members, compared, strict=True):
        player = member.players[index]
        if player is None:
            continue
        mp = outcome.matchpoints
        scores.append(
            BoardScore(
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
        )
    return scores


def _whole(value: Fraction) -> int | Fraction:
    return value.numerator if value.denominator == 1 else value

"""The results in parts, one a round, each compared once and kept while its records stay the same.

A board played in several rounds is compared across them, so then the whole event is one part.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from engine.standings.groups import Compared, GroupKey, compared_group, groups_of, same
from engine.standings.inputs import Field, TableResult
from engine.standings.meetings import meetings_of
from engine.standings.memo import ComparedPart, Memo
from engine.standings.outcome import BoardScore


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


def compared_parts(
    field: Field, memo: Memo | None, by_head: bool
) -> dict[int | None, ComparedPart]:
    """Every part of the results compared; a part of the very same records as last time, its
    boards expected as often, is taken as it was. Meetings are added up only ``by_head`` (when
    the tie-break order asks for head to head: nothing else reads them)."""
    previous = memo.parts if memo is not None else {}
    parts: dict[int | None, ComparedPart] = {}
    for key, results in _split(field.results).items():
        found = previous.get(key)
        if (
            found is not None
            and same(found.results, results)
            and all(field.expected.get(board, 0) == n for board, n in found.expected.items())
        ):
            parts[key] = found
        else:
            parts[key] = _compare_part(field, results, found, by_head)
    if memo is not None:
        memo.retire(memo.parts)
        memo.parts = parts
    return parts


def _compare_part(
    field: Field, results: list[TableResult], previous: ComparedPart | None, by_head: bool
) -> ComparedPart:
    """Compare a part's groups (a group of the very same records as in ``previous`` is kept)."""
    old = previous.groups if previous is not None else {}
    groups: dict[GroupKey, Compared] = {}
    items: dict[tuple[int, int], list[BoardScore]] = defaultdict(list)
    # Groups in board order, so that each player's boards of a round come out in board order.
    for key, members in sorted(groups_of(results).items()):
        compared = compared_group(field, key, members, old.get(key))
        groups[key] = compared
        for item in compared.scores:
            items[item.player, item.round].append(item)
    met = _part_meetings(results, previous) if by_head else {}
    return ComparedPart(
        results,
        {board: field.expected.get(board, 0) for board, _index in groups},
        groups,
        items,
        met,
        {number for _player, number in items},
    )


def _part_meetings(
    results: list[TableResult], previous: ComparedPart | None
) -> dict[tuple[int, int], dict[int, int]]:
    """A part's meetings by (player, round). Those of the players whose results are the very
    same as in ``previous`` are its own; the others are added up again, and kept as the very
    same object when they come out alike, so that what follows from them is known to hold."""
    if previous is None:
        return {
            (player, number): line
            for player, lines in meetings_of(results).items()
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
    again = meetings_of(
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

"""Head to head: each player's score minus each opponent's, over the boards they played together."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from fractions import Fraction

from engine.comparison import PlayerKey
from engine.standings.inputs import TableResult

Meetings = dict[int, dict[int, dict[int, int]]]
"""player -> round -> opponent -> the player's score minus the opponent's."""


def meetings_of(results: Iterable[TableResult]) -> Meetings:
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


def merged_meetings(
    rounds: Mapping[int, Mapping[int, int]], last: int | None = None
) -> dict[PlayerKey, Fraction]:
    """A player's meetings over every round, or over the rounds up to ``last``."""
    out: dict[int, int] = defaultdict(int)
    for number, opponents in rounds.items():
        if last is None or number <= last:
            for other, value in opponents.items():
                out[other] += value
    return {other: Fraction(value) for other, value in out.items()}

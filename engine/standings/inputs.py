"""The records the standings are made of: each table's result, the scored byes and the ``Field``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Final

from engine import comparison
from engine.comparison import Artificial, Weighted
from engine.errors import EngineError

SEATS: Final = ("N", "E", "S", "W")


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

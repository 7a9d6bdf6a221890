"""What the standings come out as: each player's compared boards, figures, record and ranking."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final, NamedTuple

from engine import comparison
from engine.comparison import Placing, Record
from engine.standings.inputs import Method

HUNDRED: Final = Fraction(100)


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
    """One player's standings: the boards, each round's figure, the total after fines.

    The record's ``meetings`` are filled only when the tie-break order uses head to head, the
    one criterion that reads them.
    """

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

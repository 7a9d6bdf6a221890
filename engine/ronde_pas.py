"""Wiezen's Ronde Pas ("Totale Miserie"): the no-trump game played when everyone passes.

shared/rules/wiezen-pagat.txt: the first time everyone passes the first game of the list is
played, the next time the second, then the third, then the first again:

1. ``last_trick``: the player who wins the last trick pays the unit to every other player;
2. ``queens``: the player with the most queens in the tricks they won pays every other player
   the unit; players tied for the most each pay (two with two queens: each -2 units, the others
   +2; all four with one queen: nobody pays);
3. ``fewest_tricks``: the player who takes the fewest tricks receives the unit from every other
   player; players tied for the fewest each receive it.

Every board sums to zero. The unit (4 in the text) is ruleset data: ``[contracts.ronde_pas]``
``unit``; whether an all-pass plays Ronde Pas at all is the ``[auction]`` option ``ronde_pas``
(docs/auction.md, docs/rulesets.md).
Which all-pass is the first, second or third (per table or per board) is the caller's business:
``game_for_all_pass`` only applies the rotation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.cards import SEATS, Seat
from engine.errors import RulesetError
from engine.results import RondePasGame, RondePasResult

__all__ = [
    "GAME_ORDER",
    "RondePasRules",
    "game_for_all_pass",
    "ronde_pas_scores",
    "settled_seats",
]

GAME_ORDER: Final[tuple[RondePasGame, ...]] = (
    RondePasGame.LAST_TRICK,
    RondePasGame.QUEENS,
    RondePasGame.FEWEST_TRICKS,
)
"""The games in the order they are played, one for each all-passed deal."""


def game_for_all_pass(number: int) -> RondePasGame:
    """The game of the ``number``-th all-passed deal (1 is the first): 1, 2, 3, then 1 again."""
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValueError(f"the all-passed deals are counted from 1, not {number!r}")
    return GAME_ORDER[(number - 1) % len(GAME_ORDER)]


@dataclass(frozen=True, slots=True)
class RondePasRules:
    """The ``[contracts.ronde_pas]`` table: ``unit`` is what one player pays one other player."""

    unit: int

    def __post_init__(self) -> None:
        if isinstance(self.unit, bool) or not isinstance(self.unit, int) or self.unit < 1:
            raise RulesetError(
                f"must be a whole number, at least 1, not {self.unit!r}", "contracts.ronde_pas.unit"
            )


def settled_seats(result: RondePasResult) -> tuple[frozenset[Seat], bool]:
    """The seats the game settles and whether they pay (``True``) or receive (``False``).

    ``result`` must be valid (``engine.validation``): the decisive field of its game is set.
    """
    if result.game is RondePasGame.LAST_TRICK:
        assert result.last_trick is not None, "validate requires the last trick's winner"
        return frozenset({result.last_trick}), True
    if result.game is RondePasGame.QUEENS:
        assert result.queens is not None, "validate requires the queens"
        most = max(result.queens)
        return frozenset(seat for seat in SEATS if result.queens[seat.value] == most), True
    assert result.tricks is not None, "validate requires the tricks"
    fewest = min(result.tricks)
    return frozenset(seat for seat in SEATS if result.tricks[seat.value] == fewest), False


def ronde_pas_scores(unit: int, result: RondePasResult) -> tuple[int, int, int, int]:
    """The scores of N, E, S and W: each settled seat pays (or receives) ``unit`` from each other.

    A settled seat also meets the other settled seats, so with ``k`` of them each pays
    ``(4 - k) * unit`` net and every other seat receives ``k * unit``: zero-sum, and nothing
    at all when all four are settled.
    """
    seats, pay = settled_seats(result)
    sign = -1 if pay else 1
    scores = [0, 0, 0, 0]
    for settled in seats:
        for other in SEATS:
            if other is not settled:
                scores[settled.value] += sign * unit
                scores[other.value] -= sign * unit
    return (scores[0], scores[1], scores[2], scores[3])

"""The table of five: who sits out each deal, and who then holds N, E, S and W.

At a table of five the players hold N, E, S, W and X (the fifth). One of them sits out each deal,
in the order N, E, S, W, X from the first board of the round, the turn starting one place further
each round so that with any number of boards a round everyone sits out about equally often over
an event. The fifth player takes the seat of the one sitting out; when X sits out the four others
keep their seats. A table of five with one place empty plays as a table of four: the fifth player
takes the empty seat for every deal of the round.

Seats map to whatever identifies a player (an entry number, a database id); an empty place holds
``None``. A table without X is a table of four: nobody sits out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, TypeVar

FIFTH: Final = "X"
ROTATION: Final = ("N", "E", "S", "W", FIFTH)
"""The order in which the players of a table of five take turns to sit out."""

P = TypeVar("P")


def sitter_seat(position: int, round_number: int) -> str:
    """The seat whose player sits out the ``position``-th deal (1-based) of round ``round_number``
    at a full table of five."""
    return ROTATION[(position - 1 + round_number - 1) % len(ROTATION)]


def vacant_place(seats: Mapping[str, P | None]) -> str | None:
    """At a table of five with exactly one place empty, that place: the four present then play
    every deal, the fifth in the empty seat."""
    if FIFTH not in seats:
        return None
    empty = [seat for seat in ROTATION if seats.get(seat) is None]
    return empty[0] if len(empty) == 1 else None


def holders(
    seats: Mapping[str, P | None], position: int, round_number: int = 1
) -> dict[str, P | None]:
    """Who holds N, E, S and W on the ``position``-th deal (1-based) a table plays in a round."""
    out = {seat: seats.get(seat) for seat in "NESW"}
    if FIFTH not in seats:
        return out
    empty = vacant_place(seats)
    sitter = empty if empty is not None else sitter_seat(position, round_number)
    if sitter != FIFTH:
        out[sitter] = seats.get(FIFTH)
    return out


def sitting_out(seats: Mapping[str, P | None], position: int, round_number: int = 1) -> P | None:
    """The player who sits out the ``position``-th deal of a round, if anyone does."""
    if FIFTH not in seats or vacant_place(seats) is not None:
        return None
    return seats.get(sitter_seat(position, round_number))

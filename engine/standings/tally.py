"""Adding up a player's boards: exact sums kept in integers, and what a round or an event totals.

Totals add integers and keep the few fractional parts apart, one numerator per denominator, so
that a player's figure is one exact division and no ``Fraction`` is on the hot path.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Final

from engine.comparison import PlayerKey, Record
from engine.standings.inputs import Method
from engine.standings.outcome import HUNDRED, BoardScore

_ZERO: Final = Fraction(0)


_NO_PARTS: Final[dict[int, int]] = {}
"""The parts of every sum that has none: shared, and never written (a sum takes a dict of its own
for its first fraction). Most sums are whole: a large event adds up tens of thousands."""


class ExactSum:
    """An exact sum kept as an integer part and one integer numerator per other denominator."""

    __slots__ = ("parts", "whole")

    def __init__(self) -> None:
        self.whole = 0
        self.parts = _NO_PARTS

    def _own_parts(self) -> dict[int, int]:
        if not self.parts:  # _NO_PARTS, or a copy of it: never written
            self.parts = {}
        return self.parts

    def add(self, value: int | Fraction) -> None:
        if type(value) is int:
            self.whole += value
        elif value.denominator == 1:
            self.whole += value.numerator
        else:
            parts = self._own_parts()
            parts[value.denominator] = parts.get(value.denominator, 0) + value.numerator

    def subtract(self, value: Fraction) -> None:
        if value.denominator == 1:
            self.whole -= value.numerator
        else:
            parts = self._own_parts()
            parts[value.denominator] = parts.get(value.denominator, 0) - value.numerator

    def plus(self, other: ExactSum) -> ExactSum:
        both = ExactSum.__new__(ExactSum)
        both.whole = self.whole + other.whole
        if not other.parts:
            both.parts = self.parts.copy() if self.parts else _NO_PARTS
            return both
        both.parts = dict(self.parts)
        for denominator, numerator in other.parts.items():
            both.parts[denominator] = both.parts.get(denominator, 0) + numerator
        return both

    def same(self, other: ExactSum) -> bool:
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


@functools.lru_cache(maxsize=4096)
def _fraction(whole: int) -> Fraction:
    """A whole number as a ``Fraction``, made once for the raw totals every record carries."""
    return Fraction(whole)


_UNUSED: Final = ExactSum()
"""The sums of values of a tally that is not exact: never added to."""


class Tally:
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
        self.matchpoints = ExactSum()
        self.top = 0
        if exact:
            self.value = ExactSum()
            self.butler = ExactSum()
        else:
            # Never added to: a tally that is not exact keeps no sums of values.
            self.value = self.butler = _UNUSED
        self.raw = 0
        self.won = 0
        self.tops = 0

    @classmethod
    def of(cls, items: Iterable[BoardScore], exact: bool) -> Tally:
        """What ``items`` add up to: one pass, the counts kept in locals (a large event adds up
        tens of thousands of boards)."""
        tally = cls(exact)
        boards = real = top_sum = raw = won = tops = whole = 0
        matchpoints_sum, value_sum, butler_sum = tally.matchpoints, tally.value, tally.butler
        for _p, _r, _t, _b, _s, _res, score, value, matchpoints, top, datum, _a in items:
            boards += 1
            top_sum += top
            if type(matchpoints) is int:
                whole += matchpoints
            else:
                matchpoints_sum.add(matchpoints)
            if score is not None:
                raw += score
            if value is None:
                continue
            real += 1
            if exact:
                value_sum.add(value)
                butler_sum.add(value)
                if datum is not None:
                    butler_sum.subtract(datum)
            if 2 * matchpoints > top:
                won += 1
            if top > 0 and matchpoints == top:
                tops += 1
        matchpoints_sum.whole += whole
        tally.boards, tally.real, tally.top, tally.raw = boards, real, top_sum, raw
        tally.won, tally.tops = won, tops
        return tally

    def plus(self, other: Tally) -> Tally:
        # Made without __init__: every field is set here (a player's line adds up every round).
        both = Tally.__new__(Tally)
        both.exact = self.exact
        both.figured = None
        both.boards = self.boards + other.boards
        both.real = self.real + other.real
        both.matchpoints = self.matchpoints.plus(other.matchpoints)
        both.top = self.top + other.top
        if self.exact:
            both.value = self.value.plus(other.value)
            both.butler = self.butler.plus(other.butler)
        else:
            both.value = both.butler = _UNUSED
        both.raw = self.raw + other.raw
        both.won = self.won + other.won
        both.tops = self.tops + other.tops
        return both

    def same(self, other: Tally) -> bool:
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
        # Positional, in Record's order: made for every player after every round.
        return Record(
            player,
            total - fine if fine else total,
            self.boards,
            self.won,
            self.tops,
            _fraction(self.raw),
            self.butler.value() if needs_butler else _ZERO,
            meetings,
        )

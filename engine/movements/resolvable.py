"""Resolvable designs for 3q + 1 players, q ≡ 1 (mod 4): everyone meets everyone exactly once.

The players are three rows of q (point ``i·q + x`` is element x of row i, x in the field of q
elements or, for a stored base round, in the integers modulo q) and one fixed player ∞ (point
``3q``). The first round has the table {∞, 0 of each row} and, for each row i, (q − 1) / 4
tables {x and −x of row i, y and −y of row i + 1 (mod 3)}. Round a adds a to every element (∞
stays put), for each of the q elements a: (players − 1) / 3 rounds.

Field of q = 4t + 1 elements: write ω for a primitive element, ε = ω^t (so ε² = −1) and S for
ω^0 .. ω^(t−1); row i's tables take x in S and y = εx. Why no pair meets twice: in row i the
elements ±S and ±εS of the first round are each nonzero element once; the differences inside a
row, ±2x and ±2εx, are each nonzero element once; the differences between rows i and i + 1,
x·(±1 ± ε), are (1 − ε)·(±S) and (1 + ε)·(±S) = (1 − ε)·(±εS) (as (1 + ε) / (1 − ε) = ε), each
nonzero element once, and 0 comes from ∞'s table. So every difference, hence every pair, appears
in exactly one round. (16, 28, 40, 52, 76, 88, 112, ...)

Where q is not a prime power there is no such ε, and ``STORED_BASES`` holds a first round found
by search instead (100 players: q = 33).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from engine.movements.layout import Grouping, Table
from engine.movements.rings import FiniteRing, prime_power_factors

BaseTable = tuple[tuple[int, int], ...]
"""A table of the first round without ∞: ``(element, row)`` for each of its players."""

STORED_BASES: Mapping[int, tuple[tuple[int, int, int], ...]] = {
    33: (
        (0, 4, 16), (0, 5, 2), (0, 6, 4), (0, 7, 8), (0, 8, 14), (0, 10, 15), (0, 14, 10),
        (0, 15, 1), (1, 3, 14), (1, 5, 9), (1, 6, 1), (1, 7, 16), (1, 9, 11), (1, 11, 10),
        (1, 12, 15), (1, 13, 5), (2, 2, 9), (2, 3, 1), (2, 4, 16), (2, 6, 12), (2, 7, 2),
        (2, 8, 11), (2, 12, 13), (2, 13, 3),
    ),
}  # fmt: skip
"""First rounds over the integers modulo q, by q, for q that is not a prime power.

Each ``(i, x, y)`` is the table {x and −x of row i, y and −y of row i + 1 (mod 3)}; with
{∞, 0 of each row} they are the first round of 100 players (q = 33), a 1-rotational resolvable
design found by a randomised local search. Why it has no repeated meeting, each checked by the
tests: in each row the x of its own tables and the y of the previous row's tables are 1 .. 16
once each, so ±x, ±y are every nonzero element once (every player sits once a round) and their
differences ±2x, ±2y are every nonzero element once (2 is a unit modulo 33); between rows i and
i + 1 the differences ±(y − x) and ±(y + x) of row i's eight tables are every nonzero element
once, and 0 comes from ∞'s table. So every pair of players meets in exactly one of the q rounds.
"""


@cache
def resolvable(players: int) -> tuple[Grouping, ...]:
    """The ``(players − 1) / 3`` rounds of the design, or none when it does not apply."""
    if players % 3 != 1:
        return ()
    q = (players - 1) // 3
    if q in STORED_BASES:
        add = tuple(tuple((x + a) % q for a in range(q)) for x in range(q))
        stored = [
            ((x, i), (-x % q, i), (y, (i + 1) % 3), (-y % q, (i + 1) % 3))
            for i, x, y in STORED_BASES[q]
        ]
        return _develop(q, add, stored)
    if q % 4 != 1 or len(prime_power_factors(q)) != 1:
        return ()
    field = FiniteRing.of_order(q)
    if field is None:
        return ()
    add, mul = field.add, field.mul
    one = next(e for e in range(q) if all(mul[e][x] == x for x in range(q)))
    negative = [next(y for y in range(q) if add[x][y] == 0) for x in range(q)]
    omega = next(g for g in range(1, q) if _generates(mul, g, one, q))
    t = (q - 1) // 4
    powers = [one]
    for _ in range(q - 2):
        powers.append(mul[powers[-1]][omega])
    epsilon = powers[t]
    base: list[BaseTable] = []
    for i in range(3):
        for x in powers[:t]:
            ex = mul[epsilon][x]
            row = (i + 1) % 3
            base.append(((x, i), (negative[x], i), (ex, row), (negative[ex], row)))
    return _develop(q, add, base)


def _develop(
    q: int, add: tuple[tuple[int, ...], ...], base: Sequence[BaseTable]
) -> tuple[Grouping, ...]:
    """The q rounds: the first round {∞, 0 of each row} + ``base``, each element plus a."""
    infinity = 3 * q
    rounds = []
    for a in range(q):
        tables: list[Table] = [(infinity, add[0][a], q + add[0][a], 2 * q + add[0][a])]
        for block in base:
            tables.append(tuple(row * q + add[x][a] for x, row in block))
        rounds.append(Grouping(tuple(tables)))
    return tuple(rounds)


def _generates(mul: tuple[tuple[int, ...], ...], g: int, one: int, q: int) -> bool:
    """Whether ``g`` is a primitive element (its powers are every nonzero element)."""
    power, steps = g, 1
    while power != one:
        power = mul[power][g]
        steps += 1
    return steps == q - 1

"""Resolvable designs for 3q + 1 players, q ≡ 1 (mod 4) a prime power: everyone meets everyone once.

The players are three rows of q (point ``i·q + x`` is element x of the field of q elements in row
i) and one fixed player ∞ (point ``3q``). Write q = 4t + 1, ω for a primitive element, ε = ω^t (so
ε² = −1) and S for ω^0 .. ω^(t−1). The first round has the table {∞, 0 of each row} and, for each
row i and each x in S, the table {x and −x of row i, εx and −εx of row i + 1 (mod 3)}. Round a
adds a to every element (∞ stays put), for each of the q elements a: (players − 1) / 3 rounds.

Why no pair meets twice: in row i the elements ±S and ±εS of the first round are each nonzero
element once; the differences inside a row, ±2x and ±2εx, are each nonzero element once; the
differences between rows i and i + 1, x·(±1 ± ε), are (1 − ε)·(±S) and (1 + ε)·(±S) = (1 − ε)·(±εS)
(as (1 + ε) / (1 − ε) = ε), each nonzero element once, and 0 comes from ∞'s table. So every
difference, hence every pair, appears in exactly one round. (16, 28, 40, 52, 76, 88, 112, ...)
"""

from __future__ import annotations

from functools import cache

from engine.movements.layout import Grouping, Table
from engine.movements.rings import FiniteRing, prime_power_factors


@cache
def resolvable(players: int) -> tuple[Grouping, ...]:
    """The ``(players − 1) / 3`` rounds of the design, or none when it does not apply."""
    if players % 3 != 1:
        return ()
    q = (players - 1) // 3
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
    infinity = 3 * q
    base: list[tuple[tuple[int, int], ...]] = [((0, 0), (0, 1), (0, 2))]
    for i in range(3):
        for x in powers[:t]:
            ex = mul[epsilon][x]
            row = (i + 1) % 3
            base.append(((x, i), (negative[x], i), (ex, row), (negative[ex], row)))
    rounds = []
    for a in range(q):
        tables: list[Table] = []
        for number, block in enumerate(base):
            points = tuple(row * q + add[x][a] for x, row in block)
            tables.append((infinity, *points) if number == 0 else points)
        rounds.append(Grouping(tuple(tables)))
    return tuple(rounds)


def _generates(mul: tuple[tuple[int, ...], ...], g: int, one: int, q: int) -> bool:
    """Whether ``g`` is a primitive element (its powers are every nonzero element)."""
    power, steps = g, 1
    while power != one:
        power = mul[power][g]
        steps += 1
    return steps == q - 1

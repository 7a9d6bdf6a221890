"""Finite fields and their products, the arithmetic behind the Rainbow construction.

The Rainbow movement needs, for an order q, four "multipliers" whose pairwise differences can be
divided by: then two players of different lines meet exactly once in q rounds. A finite field of q
elements has that whenever q ≥ 4; so does a product of such fields (component by component), which
extends the construction to orders like 20 = 4 · 5 or 40 = 8 · 5.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product


def prime_power_factors(n: int) -> list[tuple[int, int]]:
    """``n`` as a list of ``(prime, exponent)``, smallest prime first."""
    factors = []
    p = 2
    while p * p <= n:
        if n % p == 0:
            e = 0
            while n % p == 0:
                n //= p
                e += 1
            factors.append((p, e))
        p += 1
    if n > 1:
        factors.append((n, 1))
    return factors


def _poly_mulmod(a: list[int], b: list[int], modulus: list[int], p: int) -> list[int]:
    """Multiply two polynomials over GF(p) (lowest coefficient first) modulo a monic ``modulus``."""
    k = len(modulus) - 1
    out = [0] * (2 * k)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] = (out[i + j] + x * y) % p
    for i in range(len(out) - 1, k - 1, -1):
        c = out[i]
        if c:
            for j in range(k + 1):
                out[i - k + j] = (out[i - k + j] - c * modulus[j]) % p
    return out[:k]


def _is_irreducible(poly: list[int], p: int) -> bool:
    """Whether a monic polynomial over GF(p) has no monic factor of degree 1 .. degree/2."""
    k = len(poly) - 1
    for d in range(1, k // 2 + 1):
        for tail in product(range(p), repeat=d):
            divisor = [*tail, 1]
            remainder = list(poly)
            for i in range(k, d - 1, -1):
                c = remainder[i]
                if c:
                    for j in range(d + 1):
                        remainder[i - d + j] = (remainder[i - d + j] - c * divisor[j]) % p
            if not any(remainder[:d]):
                return False
    return True


def _field_tables(p: int, k: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of GF(p^k); element i has base-p digits as coefficients."""
    q = p**k
    digits = [[(i // p**j) % p for j in range(k)] for i in range(q)]

    def number(coefficients: list[int]) -> int:
        return sum(c * p**j for j, c in enumerate(coefficients))

    add = [
        [number([(x + y) % p for x, y in zip(da, db, strict=True)]) for db in digits]
        for da in digits
    ]
    if k == 1:
        mul = [[(a * b) % p for b in range(q)] for a in range(q)]
        return add, mul
    modulus = next(
        [*tail, 1] for tail in product(range(p), repeat=k) if _is_irreducible([*tail, 1], p)
    )
    mul = [[number(_poly_mulmod(da, db, modulus, p)) for db in digits] for da in digits]
    return add, mul


@dataclass(frozen=True)
class FiniteRing:
    """A finite field, or a product of finite fields, with elements numbered ``0 .. order - 1``.

    Element 0 is zero. ``unit_spread(j)`` for ``j`` in ``0 .. 3`` are four elements whose pairwise
    differences are invertible (every component differs), which is all the Rainbow construction needs.
    """

    order: int
    add: tuple[tuple[int, ...], ...]
    mul: tuple[tuple[int, ...], ...]
    radices: tuple[int, ...]

    @classmethod
    def of_order(cls, order: int) -> FiniteRing | None:
        """The product of fields of ``order`` elements, or None unless every prime power factor is ≥ 4."""
        if order < 4:
            return None
        factors = prime_power_factors(order)
        if any(p**e < 4 for p, e in factors):
            return None
        radices = tuple(p**e for p, e in factors)
        tables = [_field_tables(p, e) for p, e in factors]
        elements = list(product(*(range(r) for r in radices)))
        index = {e: i for i, e in enumerate(elements)}
        add = tuple(
            tuple(
                index[tuple(t[0][x][y] for t, x, y in zip(tables, a, b, strict=True))]
                for b in elements
            )
            for a in elements
        )
        mul = tuple(
            tuple(
                index[tuple(t[1][x][y] for t, x, y in zip(tables, a, b, strict=True))]
                for b in elements
            )
            for a in elements
        )
        return cls(order, add, mul, radices)

    def unit_spread(self, j: int) -> int:
        """The element whose every component is the field element numbered ``j`` (``0 ≤ j < 4``)."""
        index = 0
        for radix in self.radices:
            index = index * radix + j
        return index

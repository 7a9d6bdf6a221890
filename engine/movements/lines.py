"""Four lines moved along by arithmetic modulo the number of tables: a design for any large field.

With q tables, the players are four lines of q (point ``j·q + x`` is player x of line j) and up to
three extra players (points ``4q + i``). In round r, table t holds player ``t + r·c_j`` of line j
(mod q), for four multipliers ``c_0 .. c_3``. Two players of lines j and k meet in round r when
``r·(c_k − c_j)`` is the difference of their places, so in rounds r and r' only if q divides
``(r − r')·(c_k − c_j)``: no meeting repeats for ``q / gcd(q, c_k − c_j)`` rounds, whatever q is.

Extra player i behaves as a player of a fifth line, multiplier ``c_4``: in round r they go to table
``i − r·c_4`` and take the seat of that table's player of line i, who sits out (byes) or is the
table's fifth player (tables of five). The same argument bounds their meetings, and the players
they replace differ from round to round, so byes and fifth places go round.

The multipliers are the small numbers that keep every ``q / gcd(q, c_k − c_j)`` largest: at least
q / 3 rounds (q / 4 with extra players), and q rounds when q has no factor 2 or 3.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from math import gcd

from engine.movements.layout import Grouping, Layout, Table

#: Multipliers are chosen among 0 .. _CANDIDATES - 1: enough to keep their differences free of
#: every factor of q but the 2s and 3s that four or five numbers cannot all avoid.
_CANDIDATES = 12


@cache
def multipliers(tables: int, lines: int) -> tuple[tuple[int, ...], int]:
    """The best ``lines`` multipliers for ``tables`` tables, and the rounds they keep apart."""
    best: tuple[int, ...] = tuple(range(lines))
    most = 0
    for rest in combinations(range(1, _CANDIDATES), lines - 1):
        chosen = (0, *rest)
        rounds = min(
            tables // gcd(tables, b - a) if (b - a) % tables else 1
            for a, b in combinations(chosen, 2)
        )
        if rounds > most:
            best, most = chosen, rounds
    return best, most


def line_rounds(layout: Layout) -> int:
    """How many rounds without a repeat the construction gives for this layout."""
    extra = layout.byes + layout.fives
    return multipliers(layout.tables, 5 if extra else 4)[1]


def lines(layout: Layout, most: int | None = None) -> tuple[Grouping, ...]:
    """The construction's rounds for the layout (points ``0 .. players - 1``), ``most`` at most."""
    q = layout.tables
    extra = layout.byes + layout.fives
    count = line_rounds(layout) if most is None else min(most, line_rounds(layout))
    if count < 2:
        return ()
    steps, _ = multipliers(q, 5 if extra else 4)
    rounds = []
    for r in range(count):
        tables: list[list[int]] = [
            [j * q + (t + r * steps[j]) % q for j in range(4)] for t in range(q)
        ]
        fifths: dict[int, int] = {}
        byes: list[int] = []
        for i in range(extra):
            t = (i - r * steps[4]) % q
            replaced = tables[t][i]
            tables[t][i] = 4 * q + i
            if layout.fives:
                fifths[t] = replaced
            else:
                byes.append(replaced)
        # Tables of five come first, their fifth player last (the layout's order).
        order = sorted(range(q), key=lambda t: t not in fifths)
        ordered: list[Table] = [
            (*tables[t], fifths[t]) if t in fifths else tuple(tables[t]) for t in order
        ]
        rounds.append(Grouping(tuple(ordered), tuple(sorted(byes))))
    return tuple(rounds)

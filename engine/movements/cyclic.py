"""Search for a cyclic design: one base round whose shifts never repeat a meeting.

The points are ``levels`` rows of ``m`` (the rounds) plus ``fixed`` points that never move. Two
moving points of one row at distance d meet, over the m shifts, exactly the pairs of that row at
distance d; two points of rows a < b meet the pairs of those rows whose offset is the same; a fixed
point meets one player of a row per round. Each such class of pairs (an "orbit") may be used by the
base round at most once, and a row distance of exactly m / 2 not at all (it would meet twice). The
search is a tabu local search over swaps of two points between tables, seeded and bounded, so the
same arguments always give the same answer.
"""

from __future__ import annotations

import random
from itertools import product

from engine.movements.designs import CyclicDesign
from engine.movements.layout import Layout, Table

_FORBIDDEN = 0


def _orbit_table(players: int, m: int, levels: int) -> tuple[list[list[int]], int]:
    """Orbit number of every pair of points; orbit 0 is the forbidden one."""
    moving = m * levels
    numbers: dict[tuple[int, ...], int] = {(): _FORBIDDEN}
    table = [[_FORBIDDEN] * players for _ in range(players)]
    for i in range(players):
        for j in range(i + 1, players):
            key: tuple[int, ...]
            if i >= moving:
                key = ()  # two fixed points would meet every round
            elif j >= moving:
                key = (0, j, i // m)
            elif i // m == j // m:
                d = (j - i) % m
                d = min(d, m - d)
                key = () if 2 * d == m else (1, i // m, d)
            else:
                key = (2, i // m, j // m, (j % m - i % m) % m)
            number = numbers.setdefault(key, len(numbers))
            table[i][j] = table[j][i] = number
    return table, len(numbers)


def _choose_fifths(tables: list[list[int]], fives: int, m: int, moving: int) -> list[int] | None:
    """A fifth player for each table of five, from different rows (so each sits out evenly)."""
    if fives == 0:
        return []
    options = [[p for p in tables[t] if p < moving] for t in range(fives)]
    for choice in product(*options):
        rows = {p // m for p in choice}
        if len(rows) == fives:
            return list(choice)
    return None


def find_cyclic(
    layout: Layout, rounds: int, rng: random.Random, max_steps: int = 20_000
) -> CyclicDesign | None:
    """A cyclic design of ``rounds`` rounds for the layout, or None if none was found in time."""
    n, m = layout.players, rounds
    levels = n // m
    fixed = n - levels * m
    moving = levels * m
    seat_tables = layout.tables
    # Each fixed point needs a table of its own, meeting players of different rows; byes and fifth
    # players come from different rows so that each of them sits out at most once in m rounds.
    if m < 2 or fixed > seat_tables or layout.byes > levels or layout.fives > levels:
        return None
    if fixed and levels < (4 if seat_tables == layout.fives else 3):
        return None
    orbit, orbit_count = _orbit_table(n, m, levels)
    groups, sizes, bye_group, loose = _first_groups(layout, m, moving, rng)
    use, where = _greedy_start(groups, sizes, bye_group, loose, orbit, orbit_count, n)
    cost = _total_cost(use, groups[bye_group] if layout.byes else [], m, moving)
    best = cost
    tabu = [0] * n
    stalled = 0
    for step in range(1, max_steps + 1):
        if cost == 0:
            fifths = _choose_fifths(groups, layout.fives, m, moving)
            if fifths is not None:
                return _design(layout, m, levels, fixed, groups, fifths, bye_group)
            # No fifth players from different rows: move someone from a table of five and go on.
            p = rng.choice(groups[rng.randrange(layout.fives)])
            q = rng.choice([x for x in range(n) if where[x] not in (where[p], bye_group)])
            _apply_swap(p, q, groups, where, bye_group, orbit, use)
            cost = _total_cost(use, groups[bye_group] if layout.byes else [], m, moving)
            continue
        conflicted = _conflicted(groups, bye_group, orbit, use, moving, m)
        if not conflicted:
            conflicted = [p for p in range(n) if where[p] < layout.fives]
        p = rng.choice(conflicted)
        best_delta, moves = _best_swaps(
            p, cost, best, step, tabu, groups, where, bye_group, orbit, use, m, moving
        )
        if not moves:
            continue
        q = rng.choice(moves)
        _apply_swap(p, q, groups, where, bye_group, orbit, use)
        cost += best_delta
        tabu[p] = step + rng.randint(3, 12)
        tabu[q] = step + rng.randint(3, 12)
        if cost < best:
            best, stalled = cost, 0
        else:
            stalled += 1
            if stalled > 50 * len(groups):
                best, stalled = cost, 0  # let the tabu search wander from here
    return None


def _first_groups(
    layout: Layout, m: int, moving: int, rng: random.Random
) -> tuple[list[list[int]], list[int], int, list[int]]:
    """Empty tables (and byes) with their fixed points and byes placed; the rest, shuffled."""
    seat_tables = layout.tables
    sizes = [5 if t < layout.fives else 4 for t in range(seat_tables)]
    groups: list[list[int]] = [[] for _ in sizes]
    bye_group = len(groups) if layout.byes else -1
    if layout.byes:
        groups.append([])
        sizes.append(layout.byes)
    # Fixed points go to tables of four first (they must not be a fifth player or sit out).
    order = list(range(seat_tables - 1, -1, -1))
    for k, point in enumerate(range(moving, layout.players)):
        groups[order[k]].append(point)
    loose = list(range(moving))
    rng.shuffle(loose)
    if layout.byes:
        for row in range(layout.byes):
            point = next(p for p in loose if p // m == row)
            loose.remove(point)
            groups[bye_group].append(point)
    return groups, sizes, bye_group, loose


def _greedy_start(
    groups: list[list[int]],
    sizes: list[int],
    bye_group: int,
    loose: list[int],
    orbit: list[list[int]],
    orbit_count: int,
    n: int,
) -> tuple[list[int], list[int]]:
    """Each loose point joins the open group where it adds the fewest conflicts: use, where."""
    use = [0] * orbit_count
    where = [0] * n
    for g, members in enumerate(groups):
        for p in members:
            where[p] = g
    for p in loose:
        best_g, best_cost = -1, 0
        for g, members in enumerate(groups):
            if len(members) >= sizes[g] or g == bye_group:
                continue
            cost = sum(use[orbit[p][q]] + (orbit[p][q] == _FORBIDDEN) for q in members)
            if best_g < 0 or cost < best_cost:
                best_g, best_cost = g, cost
        for q in groups[best_g]:
            use[orbit[p][q]] += 1
        groups[best_g].append(p)
        where[p] = best_g
    return use, where


def _best_swaps(
    p: int,
    cost: int,
    best: int,
    step: int,
    tabu: list[int],
    groups: list[list[int]],
    where: list[int],
    bye_group: int,
    orbit: list[list[int]],
    use: list[int],
    m: int,
    moving: int,
) -> tuple[int, list[int]]:
    """The lowest change of cost a swap of p can make and the points to swap with for it."""
    a = where[p]
    best_delta, moves = 0, list[int]()
    for q in range(len(where)):
        b = where[q]
        if b == a:
            continue
        delta = _swap_delta(p, q, groups[a], groups[b], a, b, bye_group, orbit, use)
        if bye_group in (a, b):
            members = groups[bye_group]
            swapped = [q if x == p else p if x == q else x for x in members]
            delta += _bye_penalty(swapped, m, moving) - _bye_penalty(members, m, moving)
        if tabu[q] > step and cost + delta >= best:
            continue
        if not moves or delta < best_delta:
            best_delta, moves = delta, [q]
        elif delta == best_delta:
            moves.append(q)
    return best_delta, moves


def _bye_penalty(members: list[int], m: int, moving: int) -> int:
    """Byes must be moving points of different rows."""
    rows = [p // m for p in members if p < moving]
    return (len(members) - len(rows)) + (len(rows) - len(set(rows)))


def _total_cost(use: list[int], byes: list[int], m: int, moving: int) -> int:
    cost = use[_FORBIDDEN] + sum(u - 1 for u in use[1:] if u > 1)
    return cost + _bye_penalty(byes, m, moving)


def _apply_swap(
    p: int,
    q: int,
    groups: list[list[int]],
    where: list[int],
    bye_group: int,
    orbit: list[list[int]],
    use: list[int],
) -> None:
    """Swap two points between their groups; keep the orbit use counts up to date."""
    a, b = where[p], where[q]
    for g, old, new in ((a, p, q), (b, q, p)):
        members = groups[g]
        if g != bye_group:
            for x in members:
                if x != old:
                    use[orbit[old][x]] -= 1
        members[members.index(old)] = new
        where[new] = g
        if g != bye_group:
            for x in members:
                if x != new:
                    use[orbit[new][x]] += 1


def _conflicted(
    groups: list[list[int]],
    bye_group: int,
    orbit: list[list[int]],
    use: list[int],
    moving: int,
    m: int,
) -> list[int]:
    points = []
    for g, members in enumerate(groups):
        if g == bye_group:
            rows = [p // m if p < moving else -1 - p for p in members]
            if len(set(rows)) < len(rows) or any(p >= moving for p in members):
                points.extend(members)
            continue
        for i, x in enumerate(members):
            for y in members[i + 1 :]:
                o = orbit[x][y]
                if o == _FORBIDDEN or use[o] > 1:
                    points.append(x)
                    points.append(y)
    return points


def _swap_delta(
    p: int,
    q: int,
    group_a: list[int],
    group_b: list[int],
    a: int,
    b: int,
    bye_group: int,
    orbit: list[list[int]],
    use: list[int],
) -> int:
    changes: dict[int, int] = {}
    if a != bye_group:
        for x in group_a:
            if x != p:
                o = orbit[p][x]
                changes[o] = changes.get(o, 0) - 1
                o = orbit[q][x]
                changes[o] = changes.get(o, 0) + 1
    if b != bye_group:
        for x in group_b:
            if x != q:
                o = orbit[q][x]
                changes[o] = changes.get(o, 0) - 1
                o = orbit[p][x]
                changes[o] = changes.get(o, 0) + 1
    delta = 0
    for o, c in changes.items():
        if c:
            u = use[o]
            if o == _FORBIDDEN:
                delta += c
            else:
                delta += max(0, u + c - 1) - max(0, u - 1)
    return delta


def _design(
    layout: Layout,
    m: int,
    levels: int,
    fixed: int,
    groups: list[list[int]],
    fifths: list[int],
    bye_group: int,
) -> CyclicDesign:
    tables: list[Table] = []
    for t in range(layout.tables):
        members = sorted(groups[t])
        if t < layout.fives:
            members.remove(fifths[t])
            members.append(fifths[t])
        tables.append(tuple(members))
    byes = tuple(sorted(groups[bye_group])) if bye_group >= 0 else ()
    return CyclicDesign(layout.players, layout.key, m, levels, fixed, tuple(tables), byes)

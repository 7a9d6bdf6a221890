"""Give seats at each table so that every player holds N, E, S and W as evenly as possible.

Think of a graph with a node per player and per table-round, and an edge for each player seated at
a table in a round (fifth players take no seat). Giving seats is colouring the edges with four
colours so that the four edges of a table get different colours. Splitting the edges of a bipartite
graph along Euler circuits, alternating two colours, leaves every node with as many edges of one
colour as of the other, give or take one; splitting each half again gives four colours, and every
player then holds each seat ⌊k/4⌋ or ⌈k/4⌉ times out of k rounds played (de Werra's theorem).

When a movement is re-planned, the seats already held count too: a short local search then turns
the tables of the new rounds until no table can be turned to even the totals out further.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations

from engine.cards import SEATS, Seat
from engine.movements.layout import Grouping


def _split_evenly(edges: Sequence[tuple[int, int]], left: int, right: int) -> list[int]:
    """Colour each edge 0 or 1 so that every node's edges split as evenly as possible.

    ``edges`` join left nodes ``0 .. left - 1`` to right nodes ``0 .. right - 1``.
    """
    # Nodes: left i -> i, right j -> left + j, plus one spare node per side for odd degrees.
    spare_left, spare_right = left + right, left + right + 1
    adjacency: list[list[tuple[int, int]]] = [[] for _ in range(left + right + 2)]
    ends: list[tuple[int, int]] = []

    def join(u: int, v: int) -> None:
        adjacency[u].append((v, len(ends)))
        adjacency[v].append((u, len(ends)))
        ends.append((u, v))

    for a, b in edges:
        join(a, left + b)
    real = len(ends)
    for node in range(left + right):
        if len(adjacency[node]) % 2:
            join(node, spare_right if node < left else spare_left)
    if len(adjacency[spare_left]) % 2:
        join(spare_left, spare_right)
    used = [False] * len(ends)
    colour = [0] * len(ends)
    position = [0] * len(adjacency)
    for start in range(len(adjacency)):
        if position[start] == len(adjacency[start]):
            continue
        # Hierholzer: the circuit's edges in order; in a bipartite graph its length is even.
        circuit: list[int] = []
        stack: list[tuple[int, int]] = [(start, -1)]
        while stack:
            node, via = stack[-1]
            moved = False
            while position[node] < len(adjacency[node]):
                nxt, edge = adjacency[node][position[node]]
                position[node] += 1
                if not used[edge]:
                    used[edge] = True
                    stack.append((nxt, edge))
                    moved = True
                    break
            if not moved:
                stack.pop()
                if via >= 0:
                    circuit.append(via)
        for k, edge in enumerate(circuit):
            colour[edge] = k % 2
    return colour[:real]


def balanced_seats(
    rounds: Sequence[Grouping], roster: Sequence[int]
) -> list[list[tuple[int, ...]]]:
    """For each round and table, its four seated players in seat order N, E, S, W.

    The fifth player of a table of five keeps the last place and takes no seat.
    """
    index = {player: i for i, player in enumerate(roster)}
    slots: list[tuple[int, int]] = []
    edges: list[tuple[int, int]] = []
    for r, grouping in enumerate(rounds):
        for t, table in enumerate(grouping.tables):
            slot = len(slots)
            slots.append((r, t))
            for player in table[:4]:
                edges.append((index[player], slot))
    colours = [0] * len(edges)
    halves = _split_evenly(edges, len(roster), len(slots))
    for half in (0, 1):
        chosen = [e for e in range(len(edges)) if halves[e] == half]
        quarters = _split_evenly([edges[e] for e in chosen], len(roster), len(slots))
        for e, quarter in zip(chosen, quarters, strict=True):
            colours[e] = 2 * half + quarter
    seated: list[list[list[int]]] = [[[0, 0, 0, 0] for _ in grouping.tables] for grouping in rounds]
    for (player, slot), c in zip(edges, colours, strict=True):
        r, t = slots[slot]
        seated[r][t][c] = roster[player]
    result = []
    for r, grouping in enumerate(rounds):
        result.append([(*seated[r][t], *table[4:]) for t, table in enumerate(grouping.tables)])
    return result


def even_out(
    tables: list[list[tuple[int, ...]]],
    earlier: Mapping[int, Sequence[int]],
    passes: int = 20,
) -> None:
    """Turn tables (in place) so that seat counts including ``earlier`` ones are as even as can be.

    ``earlier`` gives, per player, how often they already held N, E, S, W.
    """
    counts: dict[int, list[int]] = {p: list(c) for p, c in earlier.items()}
    for round_tables in tables:
        for table in round_tables:
            for seat, player in enumerate(table[:4]):
                counts.setdefault(player, [0, 0, 0, 0])[seat] += 1
    orders = list(permutations(range(4)))
    for _ in range(passes):
        changed = False
        for round_tables in tables:
            for t, table in enumerate(round_tables):
                players = table[:4]
                for seat, player in enumerate(players):
                    counts[player][seat] -= 1

                def spread(order: tuple[int, ...], players: tuple[int, ...] = players) -> int:
                    total = 0
                    for seat, k in enumerate(order):
                        c = counts[players[k]]
                        total += 2 * c[seat] + 1  # growth of the sum of squared seat counts
                    return total

                best = min(orders, key=spread)
                if spread(best) < spread((0, 1, 2, 3)):
                    players = tuple(players[k] for k in best)
                    round_tables[t] = (*players, *table[4:])
                    changed = True
                for seat, player in enumerate(players):
                    counts[player][seat] += 1
        if not changed:
            break


def seat_counts(tables: Sequence[Sequence[tuple[int, ...]]]) -> dict[int, list[int]]:
    """How often each player held N, E, S, W in these seated tables."""
    counts: dict[int, list[int]] = {}
    for round_tables in tables:
        for table in round_tables:
            for seat, player in enumerate(table[:4]):
                counts.setdefault(player, [0, 0, 0, 0])[seat] += 1
    return counts


def seat_map(table: tuple[int, ...]) -> dict[Seat, int]:
    """The seats of a seated table (players in N, E, S, W order)."""
    return {seat: table[k] for k, seat in enumerate(SEATS)}

"""Round-by-round search: seat the next round so that as few players as possible meet again.

Used past the rounds a design gives, for fields without a stored design, and when a movement is
re-planned after late arrivals or withdrawals. Each round: the players who sat out least sit out
(never twice before everyone has sat out once), the players who were fifth player least become
fifth players, and the tables are formed by a tabu local search that swaps two players between
tables to lower the sum, over every pair at a table, of how often the pair met before.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from engine.movements.layout import Grouping, Layout, Table


class MeetingState:
    """What has happened so far for a roster: who met whom, who sat out, who was fifth player."""

    def __init__(self, roster: Sequence[int]) -> None:
        self.roster = list(roster)
        self.index = {player: i for i, player in enumerate(self.roster)}
        size = len(self.roster)
        self.meets = [[0] * size for _ in range(size)]
        self.sat_out = [0] * size
        self.last_sat_out = [-1] * size
        self.fifth = [0] * size
        self.rounds = 0

    def add_round(self, grouping: Grouping) -> None:
        """Record a round; roster players absent from it count as having sat out."""
        index = self.index
        seated = set()
        for table in grouping.tables:
            ids = [index[p] for p in table if p in index]
            seated.update(ids)
            for k, a in enumerate(ids):
                row = self.meets[a]
                for b in ids[k + 1 :]:
                    row[b] += 1
                    self.meets[b][a] += 1
            if len(table) == 5 and table[4] in index:
                self.fifth[index[table[4]]] += 1
        for i in range(len(self.roster)):
            if i not in seated:
                self.sat_out[i] += 1
                self.last_sat_out[i] = self.rounds
        self.rounds += 1

    def add_rounds(self, groupings: Iterable[Grouping]) -> None:
        for grouping in groupings:
            self.add_round(grouping)


def repair(
    state: MeetingState,
    groupings: list[Grouping],
    first: int,
    rng: random.Random,
    effort: int = 20,
) -> list[Grouping]:
    """Swap players between tables of the rounds from ``first`` on to remove repeated meetings.

    ``state`` must hold every round of ``groupings``. Planning round by round cannot see later
    rounds; this tabu search works on all the new rounds together (who sits out and who is fifth
    player stay as they are). The cost is the sum over pairs of ``c · (c - 1) / 2`` for a pair
    meeting c times, which is 0 exactly when nobody meets twice.
    """
    index, roster, meets = state.index, state.roster, state.meets
    rounds = [
        [[index[p] for p in table] for table in grouping.tables] for grouping in groupings[first:]
    ]
    if not rounds:
        return list(groupings)
    steps = min(effort * len(roster) + 200, _REPAIR_STEPS)
    best_rounds = _repair_search(meets, rounds, rng, steps)
    # Bring the meeting counts back in line with the best rounds found.
    for tables in rounds:
        for table in tables:
            _count(meets, table, -1)
    for tables in best_rounds:
        for table in tables:
            _count(meets, table, 1)
    result = list(groupings[:first])
    for tables, grouping in zip(best_rounds, groupings[first:], strict=True):
        result.append(
            Grouping(tuple(tuple(roster[i] for i in table) for table in tables), grouping.byes)
        )
    return result


#: Most swaps the repair of a whole schedule tries.
_REPAIR_STEPS = 2000


def _repair_search(
    meets: list[list[int]], rounds: list[list[list[int]]], rng: random.Random, steps: int
) -> list[list[list[int]]]:
    """Tabu search over swaps in ``rounds`` (changed in place, with ``meets``): the best found."""
    where: list[dict[int, int]] = [
        {p: t for t, table in enumerate(tables) for p in table} for tables in rounds
    ]
    best_cost = _repeat_cost(meets)
    best_rounds = [[list(t) for t in tables] for tables in rounds]
    current = best_cost
    tabu: dict[tuple[int, int], int] = {}
    spots: list[tuple[int, int]] = []
    for step in range(1, steps + 1):
        if best_cost == 0:
            break
        if step % 25 == 1:
            # Refreshed now and then: scanning every round is the slow part.
            spots = _repeated(rounds, meets)
            if not spots:
                break
        r, i = rng.choice(spots)
        tables = rounds[r]
        a = where[r][i]
        home = tables[a]
        fifth_i = len(home) == 5 and home[4] == i
        moves: list[tuple[int, int]] = []
        best_delta = 0
        for b, other in enumerate(tables):
            if b == a:
                continue
            # A fifth player changes places with another fifth player, a seated one with a seated one.
            candidates = other[4:] if fifth_i else other[:4]
            for j in candidates:
                delta = sum(meets[j][x] - meets[i][x] + 1 for x in home if x != i)
                delta += sum(meets[i][y] - meets[j][y] + 1 for y in other if y != j)
                if tabu.get((r, j), 0) > step and current + delta >= best_cost:
                    continue
                if not moves or delta < best_delta:
                    best_delta, moves = delta, [(b, j)]
                elif delta == best_delta:
                    moves.append((b, j))
        if not moves:
            continue
        b, j = rng.choice(moves)
        _swap_players(meets, home, tables[b], i, j)
        where[r][i], where[r][j] = b, a
        current += best_delta
        tabu[r, i] = step + rng.randint(3, 10)
        tabu[r, j] = step + rng.randint(3, 10)
        if current < best_cost:
            best_cost = current
            best_rounds = [[list(t) for t in tables] for tables in rounds]
    return best_rounds


def _repeated(rounds: list[list[list[int]]], meets: list[list[int]]) -> list[tuple[int, int]]:
    """(round, player) for each player of a pair at a table that has met more than once."""
    spots = []
    for r, tables in enumerate(rounds):
        for table in tables:
            for k, a in enumerate(table):
                for b in table[k + 1 :]:
                    if meets[a][b] > 1:
                        spots.append((r, a))
                        spots.append((r, b))
    return spots


def _repeat_cost(meets: list[list[int]]) -> int:
    """The sum over pairs of ``c · (c - 1) / 2`` for a pair meeting c times."""
    size = len(meets)
    return sum(c * (c - 1) // 2 for a in range(size) for c in meets[a][a + 1 :] if c > 1)


def _swap_players(
    meets: list[list[int]], home: list[int], other: list[int], i: int, j: int
) -> None:
    """Player i of table ``home`` and j of table ``other`` change places; ``meets`` follows."""
    for x in home:
        if x != i:
            meets[i][x] -= 1
            meets[x][i] -= 1
            meets[j][x] += 1
            meets[x][j] += 1
    for y in other:
        if y != j:
            meets[j][y] -= 1
            meets[y][j] -= 1
            meets[i][y] += 1
            meets[y][i] += 1
    home[home.index(i)] = j
    other[other.index(j)] = i


def _count(meets: list[list[int]], table: list[int], change: int) -> None:
    for k, a in enumerate(table):
        for b in table[k + 1 :]:
            meets[a][b] += change
            meets[b][a] += change


def next_round(
    state: MeetingState,
    layout: Layout,
    rng: random.Random,
    effort: int = 6,
    template: Grouping | None = None,
) -> Grouping:
    """Plan one more round for the whole roster with the given layout.

    Sitting out goes by turn: a player who has sat out fewer times than someone else sits out
    first, so nobody sits out twice before everyone has sat out once; which of the players tied
    for the last places sits out is left to the table search, and likewise for the fifth places.
    A ``template`` (the round as planned before a change of players) is where the table search
    starts: players keep their planned tables where they can.
    """
    everyone = list(range(len(state.roster)))
    pressure = [sum(row) for row in state.meets]
    ties = [rng.random() for _ in everyone]
    if layout.byes:
        count, special = layout.byes, state.sat_out
        order = sorted(
            everyone, key=lambda i: (special[i], state.last_sat_out[i], -pressure[i], ties[i])
        )
    else:
        count, special = layout.fives, state.fifth
        order = sorted(everyone, key=lambda i: (special[i], -pressure[i], ties[i]))
    first = order[:count]
    pool = set(first)
    pinned: set[int] = set()
    if count:
        boundary = special[first[-1]]
        pool = {i for i in everyone if special[i] <= boundary}
        pinned = {i for i in everyone if special[i] < boundary}
    planned: dict[int, int] = {}
    if template is not None:
        planned = {
            state.index[p]: t
            for t, table in enumerate(template.tables)
            for p in table
            if p in state.index
        }
    rounds_search = _RoundSearch(layout, state.meets, pool, pinned, rng)
    tables, byes = rounds_search.run(first, planned, effort)
    roster = state.roster
    return Grouping(
        tuple(tuple(roster[i] for i in table) for table in tables),
        tuple(sorted(roster[i] for i in byes)),
    )


#: Fresh starts of the table search when a round cannot be made free of repeats at once.
_RESTARTS = 2


class _RoundSearch:
    """Tabu search over one round: players in slots (seats, fifth places, byes), swapped in pairs.

    Fifth places and byes ("special" slots) take only players from ``pool``; players in
    ``pinned`` must take one. The cost is the sum over pairs at a table of the square of their
    earlier meetings; byes meet nobody.
    """

    def __init__(
        self,
        layout: Layout,
        meets: list[list[int]],
        pool: set[int],
        pinned: set[int],
        rng: random.Random,
    ) -> None:
        self.layout = layout
        self.size = len(meets)
        self.weight = [[c * c for c in row] for row in meets]
        self.pool = pool
        self.pinned = pinned
        self.rng = rng
        self.tables = layout.tables
        # Slot kinds: seats of every table, one fifth place per table of five, then byes.
        self.slot_table: list[int] = []
        self.slot_special: list[bool] = []
        for t in range(layout.tables):
            for _ in range(4):
                self.slot_table.append(t)
                self.slot_special.append(False)
            if t < layout.fives:
                self.slot_table.append(t)
                self.slot_special.append(True)
        for _ in range(layout.byes):
            self.slot_table.append(layout.tables)
            self.slot_special.append(True)

    def run(
        self, first: list[int], planned: dict[int, int], effort: int
    ) -> tuple[list[Table], list[int]]:
        best_cost, best_slots = -1, list[int]()
        for attempt in range(_RESTARTS):
            slot_of = self._start(first, planned if attempt == 0 else {})
            cost, slot_of = self._tabu(slot_of, effort)
            if best_cost < 0 or cost < best_cost:
                best_cost, best_slots = cost, slot_of
            if best_cost == 0:
                break
        seats: list[list[int]] = [[] for _ in range(self.tables)]
        fifths: list[list[int]] = [[] for _ in range(self.tables)]
        byes = []
        for person, slot in enumerate(best_slots):
            t = self.slot_table[slot]
            if t == self.tables:
                byes.append(person)
            elif self.slot_special[slot]:
                fifths[t].append(person)
            else:
                seats[t].append(person)
        return [tuple(seats[t] + fifths[t]) for t in range(self.tables)], byes

    def _start(self, first: list[int], planned: dict[int, int]) -> list[int]:
        """Special slots to ``first``; planned seats where free; others where they add least."""
        slot_of = [-1] * self.size
        free = set(range(len(self.slot_table)))
        special = [s for s in range(len(self.slot_table)) if self.slot_special[s]]
        for person, slot in zip(first, special, strict=True):
            slot_of[person] = slot
            free.discard(slot)
        members: list[list[int]] = [[] for _ in range(self.tables + 1)]
        for person, slot in enumerate(slot_of):
            if slot >= 0:
                members[self.slot_table[slot]].append(person)
        seats_free: list[list[int]] = [[] for _ in range(self.tables)]
        for slot in sorted(free):
            seats_free[self.slot_table[slot]].append(slot)
        waiting = []
        for person in range(self.size):
            if slot_of[person] >= 0:
                continue
            t = planned.get(person, -1)
            if 0 <= t < self.tables and seats_free[t]:
                slot_of[person] = seats_free[t].pop()
                members[t].append(person)
            else:
                waiting.append(person)
        ties = [self.rng.random() for _ in range(self.size)]
        table_ties = [self.rng.random() for _ in range(self.tables)]
        weight = self.weight
        for person in sorted(waiting, key=lambda i: (-sum(weight[i]), ties[i])):
            open_tables = [t for t in range(self.tables) if seats_free[t]]
            t = min(
                open_tables,
                key=lambda t: (sum(weight[person][j] for j in members[t]), table_ties[t]),
            )
            slot_of[person] = seats_free[t].pop()
            members[t].append(person)
        return slot_of

    def _costs_to(self, table_of: list[int]) -> list[list[int]]:
        """What each person adds at each table, the players being at ``table_of``."""
        size, tables, weight = self.size, self.tables, self.weight
        # cost_to[i][t]: what person i adds at table t (the byes, index ``tables``, cost nothing).
        cost_to = [[0] * (tables + 1) for _ in range(size)]
        for i in range(size):
            row, out = weight[i], cost_to[i]
            for j in range(size):
                if table_of[j] < tables:
                    out[table_of[j]] += row[j]
            out[tables] = 0
        return cost_to

    def _tabu(self, slot_of: list[int], effort: int) -> tuple[int, list[int]]:
        """Tabu search from ``slot_of`` (changed in place): the best cost found and its slots."""
        size, tables, weight, rng = self.size, self.tables, self.weight, self.rng
        slot_table = self.slot_table
        table_of = [slot_table[s] for s in slot_of]
        cost_to = self._costs_to(table_of)
        cost = sum(cost_to[i][table_of[i]] for i in range(size)) // 2
        best_cost, best_slots = cost, list(slot_of)
        tabu = [0] * size
        patience = size // 2 + 20
        since_best = 0
        slot_special = self.slot_special
        in_pool = [i in self.pool for i in range(size)]
        free_seat = [i not in self.pinned for i in range(size)]
        for step in range(1, effort * size + 51):
            if best_cost == 0 or since_best > patience:
                break
            conflicted = [i for i in range(size) if cost_to[i][table_of[i]] > 0]
            i = rng.choice(conflicted)
            a, slot_i = table_of[i], slot_of[i]
            row_i, own_i = cost_to[i], cost_to[i][a]
            # Who may take i's slot, and whose slot i may take.
            takes_i = in_pool if slot_special[slot_i] else free_seat
            i_special_ok, i_seat_ok = in_pool[i], free_seat[i]
            best_delta, moves = 0, list[int]()
            for j in range(size):
                b = table_of[j]
                if b == a or not takes_i[j]:
                    continue
                if not (i_special_ok if slot_special[slot_of[j]] else i_seat_ok):
                    continue
                row_j = cost_to[j]
                w = weight[i][j]
                gain_i = row_i[b] - (w if b < tables else 0)
                gain_j = row_j[a] - (w if a < tables else 0)
                delta = gain_i + gain_j - own_i - row_j[b]
                if tabu[j] > step and cost + delta >= best_cost:
                    continue
                if not moves or delta < best_delta:
                    best_delta, moves = delta, [j]
                elif delta == best_delta:
                    moves.append(j)
            if not moves:
                continue
            j = rng.choice(moves)
            b = table_of[j]
            weight_i, weight_j = weight[i], weight[j]
            for x in range(size):
                row = cost_to[x]
                change = weight_j[x] - weight_i[x]
                if a < tables:
                    row[a] += change
                if b < tables:
                    row[b] -= change
            table_of[i], table_of[j] = b, a
            slot_of[i], slot_of[j] = slot_of[j], slot_i
            cost += best_delta
            tabu[i] = step + rng.randint(2, 8)
            tabu[j] = step + rng.randint(2, 8)
            if cost < best_cost:
                best_cost, best_slots, since_best = cost, list(slot_of), 0
            else:
                since_best += 1
        return best_cost, best_slots

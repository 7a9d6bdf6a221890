"""How the players of one round divide into tables of four, tables of five and byes.

A ``Grouping`` is one round before seats are given: who shares which table, who sits out. Players
are plain integers here (design points or player numbers); seats come later (``seating``).
A field that cannot be laid out raises ``MovementError`` with a code of ``MESSAGES``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import MovementError

MESSAGES: Mapping[str, str] = {
    "too_few_players": "players: a movement needs at least 4 players, not {players}",
    "too_many_players": "players: at most {most} players can be planned at once, not {players}",
    "tables_of_five_impossible": (
        "players: {players} players cannot sit at tables of four and five ({fives} tables of "
        "five needed, only {tables} tables); use byes instead"
    ),
}
"""Every code of a layout's errors and its English message, parameters named in braces."""

#: The largest field the planner accepts: more than any federation seats in one event. Planning
#: stays quick far beyond it (from 1,600 players every round comes from a construction), but
#: re-planning after late arrivals searches with a table of every pair's meetings, players² in
#: size: 16 million entries here, and several seconds a round.
MAX_PLAYERS = 4_000
#: The most rounds the planner accepts in one movement.
MAX_ROUNDS = 100

#: One table: four players, or five with the fifth player (who sits out each deal in turn) last.
Table = tuple[int, ...]


@dataclass(frozen=True)
class Layout:
    """The shape of every round for a number of players.

    ``tables`` counts every table; ``fives`` of them seat a fifth player; ``byes`` players sit out.
    """

    players: int
    tables: int
    fives: int
    byes: int

    @classmethod
    def of(cls, players: int, tables_of_five: bool = False) -> Layout:
        """The layout for ``players``: byes for the players left over, or tables of five."""
        if players < 4:
            raise _error("too_few_players", players=players)
        if players > MAX_PLAYERS:
            raise _error("too_many_players", most=MAX_PLAYERS, players=players)
        tables, extra = divmod(players, 4)
        if not tables_of_five:
            return cls(players, tables, 0, extra)
        if extra > tables:
            raise _error("tables_of_five_impossible", players=players, fives=extra, tables=tables)
        return cls(players, tables, extra, 0)

    @property
    def seated(self) -> int:
        """Players at a table in each round (fifth players included)."""
        return self.players - self.byes

    @property
    def key(self) -> str:
        """``"byes"`` or ``"fives"``: how players beyond a multiple of four are placed."""
        return "fives" if self.fives else "byes"


def _error(code: str, **params: str | int) -> MovementError:
    return MovementError(MESSAGES[code].format(**params), code=code, params=params)


@dataclass(frozen=True)
class Grouping:
    """One round before seating: the tables (fives first, fifth player last) and the byes."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    def relabel(self, labels: list[int] | tuple[int, ...]) -> Grouping:
        """The same round with point ``i`` replaced by ``labels[i]``."""
        return Grouping(
            tuple(tuple(labels[p] for p in table) for table in self.tables),
            tuple(labels[p] for p in self.byes),
        )


def pairs_of(table: Table) -> list[tuple[int, int]]:
    """Every pair of players sharing the table (the fifth player meets the other four)."""
    return [(a, b) for i, a in enumerate(table) for b in table[i + 1 :]]


def counting_bound(layout: Layout) -> int:
    """An upper bound on rounds without a repeated meeting, from counting alone.

    Each round a player meets three new players (four at a table of five), and no more pairs can
    meet than exist; with byes, the player who sits out least still plays in most rounds.
    """
    n = layout.players
    # A second round seats each player of a first-round table at a different table; with too few
    # tables the seats can only be filled from the players who sat out.
    sizes = [5] * layout.fives + [4] * (layout.tables - layout.fives)
    if sum(max(0, size - layout.tables) for size in sizes) > layout.byes:
        return 1
    pairs_per_round = 6 * (layout.tables - layout.fives) + 10 * layout.fives
    rounds = 0
    while True:
        r = rounds + 1
        if r * pairs_per_round > n * (n - 1) // 2:
            break
        # Byes spread evenly: the luckiest player sits out floor(r * byes / n) times.
        played = r - (r * layout.byes) // n
        if 3 * played > n - 1:
            break
        rounds = r
    return max(rounds, 1)

"""How good a movement is: repeated meetings, seat balance, byes and fifth places."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.cards import SEATS
from engine.movements.model import Movement


@dataclass(frozen=True)
class MovementQuality:
    """The figures a tournament director looks at before using a movement.

    * ``rounds_without_repeat``: rounds played before any two players share a table a second time.
    * ``repeats``: meetings beyond the first, summed over all pairs (0 when nobody meets twice);
      ``repeated_pairs`` lists ``(player, player, times)`` for each pair meeting more than once, and
      ``meetings`` counts pairs by how often they meet (``{1: 120, 2: 4}``).
    * ``seat_spread``: over all players, the largest difference between the seat a player held
      most and the seat held least (1 is the best possible when rounds are not a multiple of 4).
    * ``bye_spread`` and ``fifth_spread``: most minus fewest byes (places as fifth player) among the
      players present in every round.
    """

    rounds: int
    rounds_without_repeat: int
    repeats: int
    repeated_pairs: tuple[tuple[int, int, int], ...]
    meetings: Mapping[int, int] = field(hash=False)
    seat_spread: int
    bye_spread: int
    fifth_spread: int

    @property
    def most_meetings(self) -> int:
        """The most times any pair shares a table."""
        return max(self.meetings, default=0)


def quality(movement: Movement) -> MovementQuality:
    """Measure a movement."""
    met: Counter[tuple[int, int]] = Counter()
    first_repeat = None
    seats: dict[int, list[int]] = {p: [0, 0, 0, 0] for p in movement.players}
    byes: Counter[int] = Counter()
    fifths: Counter[int] = Counter()
    always = set(movement.players)
    for plan in movement.rounds:
        always &= set(plan.players)
        for table in plan.tables:
            players = table.players
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    pair = (min(a, b), max(a, b))
                    met[pair] += 1
                    if met[pair] == 2 and first_repeat is None:
                        first_repeat = plan.round
            for k, seat in enumerate(SEATS):
                seats[table.seats[seat]][k] += 1
            if table.fifth is not None:
                fifths[table.fifth] += 1
        byes.update(plan.byes)
    repeated = tuple(sorted((a, b, n) for (a, b), n in met.items() if n > 1))
    rounds = len(movement.rounds)
    return MovementQuality(
        rounds=rounds,
        rounds_without_repeat=rounds if first_repeat is None else first_repeat - 1,
        repeats=sum(n - 1 for n in met.values()),
        repeated_pairs=repeated,
        meetings=MappingProxyType(dict(sorted(Counter(met.values()).items()))),
        seat_spread=max((max(c) - min(c) for c in seats.values()), default=0),
        bye_spread=_spread(byes, always),
        fifth_spread=_spread(fifths, always) if movement.tables_of_five else 0,
    )


def _spread(counts: Counter[int], players: set[int]) -> int:
    if not players:
        return 0
    values = [counts[p] for p in players]
    return max(values) - min(values)

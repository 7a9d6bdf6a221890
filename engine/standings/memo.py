"""What one computation of an event's standings keeps for the next: the incremental ``Memo``.

After one saved result only one board's groups and the rounds from that board's on change: a
``Memo`` passed from one computation of an event to the next keeps each round's comparisons, each
player's round tallies, running records and each round's ranking, and the next computation redoes
only what no longer holds. What it keeps is recognised by identity (the caller keeps unchanged
records as the very same objects), so the outcome is always that of a computation from nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from engine.comparison import Placing, Record
from engine.standings.groups import Compared, GroupKey
from engine.standings.inputs import Field, Method, TableResult
from engine.standings.outcome import BoardScore, PlayerStanding
from engine.standings.tally import Tally


@dataclass
class Memo:
    """What one computation of the standings lends the next one of the same event.

    Every reuse is decided by identity: a group whose members are the very same (immutable)
    ``TableResult`` objects, expected as many times, is not compared again; a player's round whose
    boards are the very same ``BoardScore`` objects is not added up again; a round whose records
    are equal is not ranked again. So ``standings(field, memo)`` always equals ``standings(field)``:
    a caller that rebuilds only the records that changed and keeps the others' objects makes the
    next computation cost what changed. A memo is changed by each call and serves one sequence of
    fields at a time.
    """

    groups: dict[GroupKey, Compared] = field(default_factory=dict)
    parts: dict[int | None, ComparedPart] = field(default_factory=dict)
    rounds: dict[tuple[int, int], tuple[list[BoardScore], tuple[BoardScore, ...], Tally]] = field(
        default_factory=dict
    )
    lines: dict[int, PlayerLine] = field(default_factory=dict)
    rankings: dict[int, tuple[list[Record], tuple[Placing, ...]]] = field(default_factory=dict)
    settings: tuple[Method, tuple[str, ...]] | None = None
    retired: list[object] = field(default_factory=list)

    def retire(self, *replaced: object) -> None:
        """Keep what a computation replaced until ``release``: freeing the tens of thousands of
        objects one computation of a large event leaves behind takes time, which a caller may
        rather spend once its result is out (a worker, after committing the standings)."""
        self.retired.extend(replaced)

    def release(self) -> None:
        """Let go of what the computations since the last call replaced."""
        self.retired = []

    def fit(self, field: Field) -> None:
        """Forget everything computed under another method or tie-break order."""
        settings = (field.method, field.tie_break)
        # What the one before last replaced goes now, if the caller did not release it: a memo
        # holds one computation's leftovers at most.
        self.release()
        if settings != self.settings:
            self.groups, self.parts, self.rounds, self.lines, self.rankings = {}, {}, {}, {}, {}
            self.settings = settings


@dataclass(slots=True)
class ComparedPart:
    """The results of one round (or of every round, when a board is played in several) as
    compared: each player's boards and meetings per round, by (player, round)."""

    results: list[TableResult]
    expected: dict[int, int]  # how often each of its boards was expected to be played
    groups: dict[GroupKey, Compared]
    items: dict[tuple[int, int], list[BoardScore]]  # in board order
    met: dict[tuple[int, int], dict[int, int]]
    rounds: set[int]  # the rounds of its compared boards


@dataclass(slots=True)
class PlayerLine:
    """One player's figures as a computation left them, for the next one to start from.

    The lists run over the event's rounds: the round's own tally (``None`` without a board), the
    running tally after it, and the record ranked after it (``None`` while the player has no
    board, and always for a substitute).
    """

    rounds: list[int]
    own: list[Tally | None]
    running: list[Tally]
    records: list[Record | None]
    met: Mapping[int, dict[int, int]]
    sat_out: Mapping[int, int]
    fine: Fraction
    ranked: bool
    standing: PlayerStanding

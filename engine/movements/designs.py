"""Schedules without repeated meetings that are built, not searched: constructions and stored designs.

* **Rainbow** (``rainbow``): for ``4q`` players with q a prime power ≥ 4 (or a product of such), four
  lines of q players; in round r, table t holds player ``t + r·m_j`` of line j. Players of different
  lines meet exactly once in q rounds; players of one line never meet, so a schedule for q players,
  played inside each line at once, adds its rounds (16 → 4 + 1, 64 → 16 + 5, 128 → 32 + 10).
* **Resolvable designs** (``resolvable``): for 3q + 1 players, q ≡ 1 (mod 4) a prime power, q
  rounds in which everyone meets everyone exactly once (52 → 17, 76 → 25, 88 → 29; 100 → 33
  from a stored first round).
* **Lines** (``lines``): for any field with enough tables, byes or tables of five included, four
  lines moved along modulo the number of tables; at least a third of the tables in rounds (a
  quarter with players beyond a multiple of four): 1,000 players → 125 rounds, 2,000 → 250.
* **Cyclic designs** (``CyclicDesign``): the players are ``levels`` rows of ``rounds`` players plus a
  few fixed players; one base round is stored and round r shifts every row by r. A base round that
  uses each "difference" at most once gives ``rounds`` rounds without a repeat. The stored ones
  (``engine/designs/cyclic.json``) were found by search once and are checked by the tests.
* **Listed designs** (``ListedDesign``): every round written out, for fields where neither a
  construction nor a cyclic design reaches the known maximum (``engine/designs/listed.json``:
  32 players in 10 rounds). Each says how it was made and is checked by the tests.

Every design works on points ``0 .. players - 1``; the planner maps points to player numbers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.errors import MovementError
from engine.movements.layout import MAX_ROUNDS, Grouping, Layout, Table
from engine.movements.lines import line_rounds, lines, multipliers
from engine.movements.resolvable import STORED_BASES, resolvable
from engine.movements.rings import FiniteRing

#: Rounds without a repeated meeting that are known to be the most possible (4 players a table).
#: Beyond these, fields of 16, 28, 40, 52 ... players (12k + 4) can meet everyone exactly once.
KNOWN_MAXIMA: dict[int, int] = {4: 1, 8: 1, 12: 1, 16: 5, 20: 5, 24: 7, 28: 9, 32: 10, 40: 13}


@dataclass(frozen=True)
class Design:
    """Rounds without a repeated meeting for a layout, and where they come from."""

    source: str
    rounds: tuple[Grouping, ...]


@dataclass(frozen=True)
class CyclicDesign:
    """A base round whose shifts give ``rounds`` rounds without a repeated meeting.

    Point ``i < levels · rounds`` is player ``i % rounds`` of row ``i // rounds``; the ``fixed``
    points above them never move. Round r adds r (mod ``rounds``) to every moving point. Tables of
    five list their fifth player last; ``byes`` are the points that sit out in the base round.
    """

    players: int
    layout: str
    rounds: int
    levels: int
    fixed: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        points = sorted([p for table in self.tables for p in table] + list(self.byes))
        if points != list(range(self.players)):
            raise MovementError(
                f"cyclic design for {self.players} players: the base round must hold every point once"
            )
        if self.levels * self.rounds + self.fixed != self.players:
            raise MovementError(
                f"cyclic design for {self.players} players: levels × rounds + fixed must be the players"
            )

    def shift(self, point: int, r: int) -> int:
        """Where ``point`` of the base round is in round ``r`` (0-based)."""
        m = self.rounds
        if point >= self.levels * m:
            return point
        return point - point % m + (point % m + r) % m

    def develop(self, count: int | None = None) -> tuple[Grouping, ...]:
        """The first ``count`` rounds (all of them by default)."""
        count = self.rounds if count is None else min(count, self.rounds)
        return tuple(
            Grouping(
                tuple(tuple(self.shift(p, r) for p in table) for table in self.tables),
                tuple(self.shift(p, r) for p in self.byes),
            )
            for r in range(count)
        )

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "layout": self.layout,
            "rounds": self.rounds,
            "levels": self.levels,
            "fixed": self.fixed,
            "tables": [list(t) for t in self.tables],
            "byes": list(self.byes),
        }

    @classmethod
    def from_json(cls, obj: dict[str, object]) -> CyclicDesign:
        tables = obj["tables"]
        byes = obj.get("byes", [])
        if not isinstance(tables, list) or not isinstance(byes, list):
            raise MovementError("cyclic design: tables and byes must be lists")
        return cls(
            players=_int(obj, "players"),
            layout=str(obj["layout"]),
            rounds=_int(obj, "rounds"),
            levels=_int(obj, "levels"),
            fixed=_int(obj, "fixed"),
            tables=tuple(tuple(int(p) for p in t) for t in tables),
            byes=tuple(int(p) for p in byes),
        )


@dataclass(frozen=True)
class ListedDesign:
    """Rounds without a repeated meeting, every round written out (tables of four, no byes)."""

    players: int
    layout: str
    source: str
    rounds: tuple[Grouping, ...]

    def __post_init__(self) -> None:
        for number, grouping in enumerate(self.rounds, start=1):
            points = sorted([p for table in grouping.tables for p in table] + list(grouping.byes))
            if points != list(range(self.players)):
                raise MovementError(
                    f"listed design for {self.players} players: round {number} must hold every "
                    "point once"
                )

    def develop(self, count: int | None = None) -> tuple[Grouping, ...]:
        """The first ``count`` rounds (all of them by default)."""
        return self.rounds if count is None else self.rounds[:count]

    @classmethod
    def from_json(cls, obj: dict[str, object]) -> ListedDesign:
        rounds = obj["rounds"]
        if not isinstance(rounds, list) or not all(isinstance(r, list) for r in rounds):
            raise MovementError("listed design: rounds must be a list of lists of tables")
        return cls(
            players=_int(obj, "players", "listed"),
            layout=str(obj["layout"]),
            source=str(obj["source"]),
            rounds=tuple(
                Grouping(tuple(tuple(int(p) for p in table) for table in grouping))
                for grouping in rounds
            ),
        )


def _int(obj: dict[str, object], key: str, kind: str = "cyclic") -> int:
    value = obj[key]
    if not isinstance(value, int):
        raise MovementError(f"{kind} design: {key} must be an integer")
    return value


def _design_file(name: str) -> dict[str, list[dict[str, object]]]:
    text = resources.files("engine").joinpath(f"designs/{name}").read_text(encoding="utf-8")
    data: dict[str, list[dict[str, object]]] = json.loads(text)
    return data


@cache
def stored_designs() -> dict[tuple[int, str], CyclicDesign]:
    """The stored cyclic designs by ``(players, layout key)``."""
    designs = {}
    for obj in _design_file("cyclic.json")["designs"]:
        design = CyclicDesign.from_json(obj)
        designs[design.players, design.layout] = design
    return designs


@cache
def listed_designs() -> dict[tuple[int, str], ListedDesign]:
    """The designs written out round by round, by ``(players, layout key)``."""
    designs = {}
    for obj in _design_file("listed.json")["designs"]:
        design = ListedDesign.from_json(obj)
        designs[design.players, design.layout] = design
    return designs


def stored_design(layout: Layout) -> CyclicDesign | None:
    """The stored cyclic design for this layout, if there is one."""
    return stored_designs().get((layout.players, layout.key))


def one_round(layout: Layout) -> Design:
    """The trivial design: a single round, tables filled in player order (fives first)."""
    tables: list[Table] = []
    point = 0
    for t in range(layout.tables):
        size = 5 if t < layout.fives else 4
        tables.append(tuple(range(point, point + size)))
        point += size
    return Design("one round", (Grouping(tuple(tables), tuple(range(point, layout.players))),))


@cache
def rainbow(players: int) -> Design | None:
    """The Rainbow construction for ``players = 4q`` (None when q has no suitable field)."""
    if players % 4:
        return None
    q = players // 4
    ring = FiniteRing.of_order(q)
    if ring is None:
        return None
    multipliers = [ring.unit_spread(j) for j in range(4)]
    rounds = []
    for r in range(q):
        steps = [ring.mul[r][m] for m in multipliers]
        tables = tuple(
            tuple(j * q + ring.add[t][step] for j, step in enumerate(steps)) for t in range(q)
        )
        rounds.append(Grouping(tables))
    source = f"Rainbow, 4 lines of {q}"
    if q % 4 == 0:
        inner = best_design(Layout.of(q))
        source += f" + {len(inner.rounds)} round(s) within the lines ({inner.source})"
        for grouping in inner.rounds:
            rounds.append(
                Grouping(
                    tuple(tuple(j * q + p for p in t) for j in range(4) for t in grouping.tables)
                )
            )
    return Design(source, tuple(rounds))


def best_design(layout: Layout, rounds: int = MAX_ROUNDS) -> Design:
    """The longest schedule without a repeated meeting that is built or stored for this layout.

    The lines construction, which can give far more rounds than any movement has, is cut at
    ``rounds`` (the rounds wanted).
    """
    candidates = [one_round(layout)]
    stored = stored_design(layout)
    if stored is not None:
        candidates.append(Design(f"cyclic design of {stored.rounds} rounds", stored.develop()))
    listed = listed_designs().get((layout.players, layout.key))
    if listed is not None:
        candidates.append(Design(f"{listed.source}, {len(listed.rounds)} rounds", listed.rounds))
    most = min(line_rounds(layout), rounds)
    if layout.fives == 0 and layout.byes == 0:
        # When the lines give every round wanted, the Rainbow construction cannot do better, and
        # its field tables take long to build for large fields.
        built = rainbow(layout.players) if most < rounds else None
        if built is not None:
            candidates.append(built)
        complete = resolvable(layout.players)
        if complete:
            q = len(complete)
            over = f"the integers modulo {q}" if q in STORED_BASES else f"the field of {q} elements"
            candidates.append(Design(f"resolvable design over {over}", complete))
    if most > max(len(d.rounds) for d in candidates):
        steps, _ = multipliers(layout.tables, 5 if layout.byes + layout.fives else 4)
        source = f"4 lines of {layout.tables}, multipliers {', '.join(map(str, steps))}"
        candidates.append(Design(source, lines(layout, most)))
    return max(candidates, key=lambda d: len(d.rounds))

"""A movement: who sits where in every round. Immutable values, with the command line's JSON form.

JSON (``python -m engine movement``)::

    {"players": 17, "rounds": [{"round": 1, "tables": [{"table": 1, "N": 1, "E": 9, "S": 17,
      "W": 25}, ...], "byes": [4]}, ...]}

A table of five carries its fifth player, who sits out each deal in turn, under ``"X"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeGuard

from engine.cards import SEATS, Seat
from engine.errors import MovementError


@dataclass(frozen=True)
class TablePlan:
    """One table in one round: a player in each seat, and perhaps a fifth player."""

    table: int
    seats: Mapping[Seat, int] = field(hash=False)
    fifth: int | None = None

    def __post_init__(self) -> None:
        if set(self.seats) != set(SEATS):
            raise MovementError(f"table {self.table}: seats must be exactly N, E, S and W")
        ordered = {seat: int(self.seats[seat]) for seat in SEATS}
        object.__setattr__(self, "seats", MappingProxyType(ordered))
        if len(set(self.players)) != len(self.players):
            raise MovementError(f"table {self.table}: a player holds two places")

    @property
    def players(self) -> tuple[int, ...]:
        """The players in seat order N, E, S, W, then the fifth player if any."""
        seated = tuple(self.seats[seat] for seat in SEATS)
        return seated if self.fifth is None else (*seated, self.fifth)

    def seat_of(self, player: int) -> Seat | None:
        """The seat ``player`` holds here (None for the fifth player or a player not here)."""
        for seat, holder in self.seats.items():
            if holder == player:
                return seat
        return None

    def to_json(self) -> dict[str, int]:
        out = {"table": self.table}
        out.update({seat.name: self.seats[seat] for seat in SEATS})
        if self.fifth is not None:
            out["X"] = self.fifth
        return out


@dataclass(frozen=True)
class RoundPlan:
    """One round: its tables (numbered from 1) and the players who sit out."""

    round: int
    tables: tuple[TablePlan, ...]
    byes: tuple[int, ...] = ()

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone in this round, seated or sitting out."""
        return tuple(p for table in self.tables for p in table.players) + self.byes

    def table_of(self, player: int) -> TablePlan | None:
        """The table ``player`` sits at this round (None when sitting out or absent)."""
        for table in self.tables:
            if player in table.players:
                return table
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "tables": [table.to_json() for table in self.tables],
            "byes": list(self.byes),
        }


@dataclass(frozen=True)
class Movement:
    """A seating schedule: every player present in a round appears exactly once in it."""

    players: tuple[int, ...]
    rounds: tuple[RoundPlan, ...]
    tables_of_five: bool = False

    def __post_init__(self) -> None:
        known = set(self.players)
        for number, plan in enumerate(self.rounds, start=1):
            if plan.round != number:
                raise MovementError(
                    f"rounds[{number - 1}].round: expected {number}, got {plan.round}"
                )
            present = plan.players
            if len(set(present)) != len(present):
                twice = sorted({p for p in present if present.count(p) > 1})
                raise MovementError(f"round {number}: player(s) {twice} appear more than once")
            strangers = sorted(set(present) - known)
            if strangers:
                raise MovementError(
                    f"round {number}: player(s) {strangers} are not in the movement"
                )
            for t, table in enumerate(plan.tables, start=1):
                if table.table != t:
                    raise MovementError(
                        f"round {number}: tables must be numbered 1, 2, ... (found {table.table} "
                        f"in place {t})"
                    )

    def to_json(self) -> dict[str, Any]:
        """The command line's JSON document."""
        return {"players": len(self.players), "rounds": [plan.to_json() for plan in self.rounds]}

    @classmethod
    def from_json(cls, obj: Any) -> Movement:
        """Read a movement in the command line's form (players are those that appear in it)."""
        if not isinstance(obj, dict) or not isinstance(obj.get("rounds"), list):
            raise MovementError("movement: expected an object with a list under 'rounds'")
        rounds = []
        everyone: set[int] = set()
        fives = False
        for r, plan in enumerate(obj["rounds"]):
            where = f"rounds[{r}]"
            if not isinstance(plan, dict) or not isinstance(plan.get("tables"), list):
                raise MovementError(f"{where}: expected an object with a list under 'tables'")
            tables = []
            for t, table in enumerate(plan["tables"]):
                if not isinstance(table, dict):
                    raise MovementError(f"{where}.tables[{t}]: expected an object")
                seats = {seat: _player(table, seat.name, f"{where}.tables[{t}]") for seat in SEATS}
                fifth = _player(table, "X", f"{where}.tables[{t}]") if "X" in table else None
                fives = fives or fifth is not None
                tables.append(
                    TablePlan(_number(table, "table", f"{where}.tables[{t}]"), seats, fifth)
                )
            byes = plan.get("byes", [])
            if not isinstance(byes, list) or not all(_is_player(p) for p in byes):
                raise MovementError(f"{where}.byes: expected a list of player numbers")
            result = RoundPlan(_number(plan, "round", where), tuple(tables), tuple(byes))
            everyone.update(result.players)
            rounds.append(result)
        # A player who sits out every round still belongs to a field numbered 1 .. players.
        count = obj.get("players")
        if _is_player(count) and everyone <= set(range(1, count + 1)):
            everyone = set(range(1, count + 1))
        return cls(tuple(sorted(everyone)), tuple(rounds), fives)


def _is_player(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _player(obj: Mapping[str, Any], key: str, where: str) -> int:
    value = obj.get(key)
    if not _is_player(value):
        raise MovementError(f"{where}.{key}: expected a player number (1 or more), got {value!r}")
    return value


def _number(obj: Mapping[str, Any], key: str, where: str) -> int:
    value = obj.get(key)
    if not _is_player(value):
        raise MovementError(f"{where}.{key}: expected a number (1 or more), got {value!r}")
    return value

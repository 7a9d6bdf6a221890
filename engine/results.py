"""Board results: what happened at a table on one board, as the scorer and the notations see it.

A result here is only checked for shape (types, field names, seats); whether a ruleset allows it
and whether the cards make it possible is for ``engine.validation`` and ``engine.adjudication``.
The JSON form is the one of docs/engine-cli.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from engine.cards import SEATS, Seat, Suit
from engine.errors import InvalidResultError


class Contract(Enum):
    """Canonical contract tokens (shared/rules/scoring-tables.md)."""

    PASS = "pass"
    ACCEPT = "accept"
    SOLO = "solo"
    ABONDANCE = "abondance"
    SOLO_SLIM = "solo_slim"
    SMALL_SOLO_SLIM = "small_solo_slim"
    GRAND_SOLO = "grand_solo"
    TROEL = "troel"
    SMALL_MISERE = "small_misere"
    PICCOLO = "piccolo"
    MISERE = "misere"
    OPEN_MISERE = "open_misere"
    ISRAELI = "israeli"
    RONDE_PAS = "ronde_pas"

    @property
    def is_negative(self) -> bool:
        """A contract to lose tricks, where every declarer plays and is settled on its own."""
        return self in NEGATIVE_CONTRACTS

    @property
    def has_trump(self) -> bool:
        return self not in NEGATIVE_CONTRACTS and self not in (Contract.PASS, Contract.RONDE_PAS)

    @classmethod
    def parse(cls, token: str) -> Contract:
        try:
            return cls(token)
        except ValueError:
            known = ", ".join(c.value for c in cls)
            raise InvalidResultError(
                f"unknown contract {token!r}; contracts are {known}", "contract"
            ) from None


NEGATIVE_CONTRACTS = frozenset(
    {Contract.SMALL_MISERE, Contract.PICCOLO, Contract.MISERE, Contract.OPEN_MISERE}
)
PAIR_CONTRACTS = frozenset({Contract.ACCEPT, Contract.TROEL})
LONE_CONTRACTS = frozenset(
    {
        Contract.SOLO,
        Contract.ABONDANCE,
        Contract.SOLO_SLIM,
        Contract.SMALL_SOLO_SLIM,
        Contract.GRAND_SOLO,
    }
)


@dataclass(frozen=True, slots=True)
class BoardResult:
    """A Kleurenwiezen or Wiezen board: contract, declarers and tricks.

    ``tricks`` is the declaring side's trick count for contracts to win tricks; for negative
    contracts ``declarer_tricks`` gives each declarer's own tricks, in the order of ``declarers``.
    Both are absent for a contract that has not been played yet (an auction's outcome) and for
    ``pass``.
    """

    contract: Contract
    level: int | None = None
    trump: Suit | None = None
    declarers: tuple[Seat, ...] = ()
    tricks: int | None = None
    declarer_tricks: tuple[int, ...] = ()
    doubled: bool = False
    after_all_pass: bool = False

    @property
    def is_played(self) -> bool:
        """True when the trick counts are known (or nothing was played: all passed)."""
        if self.contract is Contract.PASS:
            return True
        if self.contract.is_negative:
            return len(self.declarer_tricks) == len(self.declarers) > 0
        return self.tricks is not None

    def tricks_of(self, seat: Seat) -> int:
        """A negative-contract declarer's own tricks."""
        return self.declarer_tricks[self.declarers.index(seat)]

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> BoardResult:
        """Read the JSON form; a wrong type or an unknown field raises ``InvalidResultError``."""
        if not isinstance(obj, Mapping):
            raise InvalidResultError("a board result must be a JSON object", None)
        allowed = {"contract", "level", "trump", "declarers", "tricks", "doubled", "after_all_pass"}
        for key in obj:
            if key not in allowed:
                raise InvalidResultError(f"unknown field {key!r}", str(key))
        contract = _board_contract(obj)
        level = _optional_int(obj, "level")
        trump = _optional_suit(obj, "trump")
        declarers = _seats(obj.get("declarers", []), "declarers")
        tricks: int | None = None
        declarer_tricks: tuple[int, ...] = ()
        raw_tricks = obj.get("tricks")
        if raw_tricks is not None:
            if contract.is_negative:
                declarer_tricks = _declarer_tricks(raw_tricks, declarers)
            else:
                if isinstance(raw_tricks, bool) or not isinstance(raw_tricks, int):
                    raise InvalidResultError("tricks must be a whole number", "tricks")
                tricks = raw_tricks
        return cls(
            contract=contract,
            level=level,
            trump=trump,
            declarers=declarers,
            tricks=tricks,
            declarer_tricks=declarer_tricks,
            doubled=_optional_bool(obj, "doubled"),
            after_all_pass=_optional_bool(obj, "after_all_pass"),
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON form, with only the fields that apply (``parse(format(x)) == x``)."""
        out: dict[str, Any] = {"contract": self.contract.value}
        if self.level is not None:
            out["level"] = self.level
        if self.trump is not None:
            out["trump"] = self.trump.letter
        if self.declarers:
            out["declarers"] = [seat.name for seat in self.declarers]
        if self.contract.is_negative and self.declarer_tricks:
            out["tricks"] = {
                seat.name: count
                for seat, count in zip(self.declarers, self.declarer_tricks, strict=True)
            }
        elif self.tricks is not None:
            out["tricks"] = self.tricks
        if self.doubled:
            out["doubled"] = True
        if self.after_all_pass:
            out["after_all_pass"] = True
        return out


@dataclass(frozen=True, slots=True)
class IsraeliResult:
    """An Israeli Whist board: the declarer's contract, every player's trick bid and tricks.

    ``trump`` is ``None`` for no trump. ``bids`` and ``tricks`` are indexed by ``Seat.value``.
    """

    declarer: Seat
    level: int
    trump: Suit | None
    bids: tuple[int, int, int, int]
    tricks: tuple[int, int, int, int] | None = None

    contract = Contract.ISRAELI

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> IsraeliResult:
        if not isinstance(obj, Mapping):
            raise InvalidResultError("a board result must be a JSON object", None)
        allowed = {"contract", "declarer", "level", "trump", "bids", "tricks"}
        for key in obj:
            if key not in allowed:
                raise InvalidResultError(f"unknown field {key!r}", str(key))
        if obj.get("contract", "israeli") != "israeli":
            raise InvalidResultError("an Israeli Whist result has contract 'israeli'", "contract")
        if "declarer" not in obj:
            raise InvalidResultError("the declarer is missing", "declarer")
        declarer = _seat(obj["declarer"], "declarer")
        level = _optional_int(obj, "level")
        if level is None:
            raise InvalidResultError("the level is missing", "level")
        raw_trump = obj.get("trump")
        if raw_trump is None:
            raise InvalidResultError("the trump is missing (C, D, H, S or NT)", "trump")
        trump = None if raw_trump == "NT" else _optional_suit(obj, "trump")
        if "bids" not in obj:
            raise InvalidResultError("the bids are missing", "bids")
        bids = _four(obj["bids"], "bids")
        tricks = _four(obj["tricks"], "tricks") if obj.get("tricks") is not None else None
        return cls(declarer, level, trump, bids, tricks)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "contract": "israeli",
            "declarer": self.declarer.name,
            "level": self.level,
            "trump": "NT" if self.trump is None else self.trump.letter,
            "bids": {seat.name: self.bids[seat.value] for seat in SEATS},
        }
        if self.tricks is not None:
            out["tricks"] = {seat.name: self.tricks[seat.value] for seat in SEATS}
        return out


class RondePasGame(Enum):
    """The three no-trump games of Wiezen's Ronde Pas, in the order they rotate."""

    LAST_TRICK = "last_trick"
    QUEENS = "queens"
    FEWEST_TRICKS = "fewest_tricks"


RONDE_PAS_FIELDS: dict[RondePasGame, str] = {
    RondePasGame.LAST_TRICK: "last_trick",
    RondePasGame.QUEENS: "queens",
    RondePasGame.FEWEST_TRICKS: "tricks",
}
"""The result field that decides each game."""


@dataclass(frozen=True, slots=True)
class RondePasResult:
    """A Wiezen deal that everyone passed, played as Ronde Pas ("Totale Miserie").

    ``game`` is the game played; what decides it is ``last_trick`` (the seat that won the last
    trick), ``queens`` (the queens each seat took) or ``tricks`` (the tricks each seat took),
    the last two indexed by ``Seat.value``. Only the decisive field of ``game`` is set in a
    valid result (``engine.validation`` says which).
    """

    game: RondePasGame
    last_trick: Seat | None = None
    queens: tuple[int, int, int, int] | None = None
    tricks: tuple[int, int, int, int] | None = None

    contract = Contract.RONDE_PAS

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> RondePasResult:
        if not isinstance(obj, Mapping):
            raise InvalidResultError("a board result must be a JSON object", None)
        allowed = {"contract", "game", "last_trick", "queens", "tricks"}
        for key in obj:
            if key not in allowed:
                raise InvalidResultError(f"unknown field {key!r}", str(key))
        if obj.get("contract", "ronde_pas") != "ronde_pas":
            raise InvalidResultError("a Ronde Pas result has contract 'ronde_pas'", "contract")
        raw_game = obj.get("game")
        if raw_game is None:
            raise InvalidResultError(
                "the game is missing (last_trick, queens or fewest_tricks)", "game"
            )
        try:
            game = RondePasGame(raw_game)
        except ValueError:
            raise InvalidResultError(
                f"game must be last_trick, queens or fewest_tricks (got {raw_game!r})", "game"
            ) from None
        last_trick = None
        if obj.get("last_trick") is not None:
            last_trick = _seat(obj["last_trick"], "last_trick")
        queens = _four(obj["queens"], "queens") if obj.get("queens") is not None else None
        tricks = _four(obj["tricks"], "tricks") if obj.get("tricks") is not None else None
        return cls(game, last_trick, queens, tricks)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"contract": "ronde_pas", "game": self.game.value}
        if self.last_trick is not None:
            out["last_trick"] = self.last_trick.name
        for field, counts in (("queens", self.queens), ("tricks", self.tricks)):
            if counts is not None:
                out[field] = {seat.name: counts[seat.value] for seat in SEATS}
        return out


AnyResult = BoardResult | IsraeliResult | RondePasResult


def result_from_json(obj: Mapping[str, Any]) -> AnyResult:
    """Read any form, by its contract."""
    if isinstance(obj, Mapping) and obj.get("contract") == "israeli":
        return IsraeliResult.from_json(obj)
    if isinstance(obj, Mapping) and obj.get("contract") == "ronde_pas":
        return RondePasResult.from_json(obj)
    return BoardResult.from_json(obj)


def _board_contract(obj: Mapping[str, Any]) -> Contract:
    """The contract of a board result's JSON form: a known token, and not Israeli or Ronde Pas."""
    if "contract" not in obj:
        raise InvalidResultError("the contract is missing", "contract")
    if not isinstance(obj["contract"], str):
        raise InvalidResultError("contract must be a string", "contract")
    contract = Contract.parse(obj["contract"])
    if contract is Contract.ISRAELI:
        raise InvalidResultError(
            "an Israeli Whist result has its own form (declarer, bids, tricks)", "contract"
        )
    if contract is Contract.RONDE_PAS:
        raise InvalidResultError(
            "a Ronde Pas result has its own form (game, and last_trick, queens or tricks)",
            "contract",
        )
    return contract


def _declarer_tricks(raw_tricks: object, declarers: tuple[Seat, ...]) -> tuple[int, ...]:
    """Each declarer's own tricks of a negative contract, in the order of ``declarers``."""
    if not isinstance(raw_tricks, Mapping):
        raise InvalidResultError(
            "for a negative contract, tricks must give each declarer's own tricks, "
            'e.g. {"N": 0, "S": 1}',
            "tricks",
        )
    per_seat = _seat_ints(raw_tricks, "tricks")
    for seat in per_seat:
        if seat not in declarers:
            raise InvalidResultError(
                f"tricks names {seat.name}, who is not a declarer",
                f"tricks.{seat.name}",
            )
    for seat in declarers:
        if seat not in per_seat:
            raise InvalidResultError(
                f"tricks is missing declarer {seat.name}", f"tricks.{seat.name}"
            )
    return tuple(per_seat[seat] for seat in declarers)


def _optional_int(obj: Mapping[str, Any], key: str) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidResultError(f"{key} must be a whole number", key)
    return value


def _optional_bool(obj: Mapping[str, Any], key: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise InvalidResultError(f"{key} must be true or false", key)
    return value


def _optional_suit(obj: Mapping[str, Any], key: str) -> Suit | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or value not in ("H", "D", "C", "S"):
        raise InvalidResultError(f"{key} must be one of H, D, C, S (got {value!r})", key)
    return Suit[value]


def _seat(value: object, field: str) -> Seat:
    if not isinstance(value, str) or value not in ("N", "E", "S", "W"):
        raise InvalidResultError(f"{field} must be a seat N, E, S or W (got {value!r})", field)
    return Seat[value]


def _seats(value: object, field: str) -> tuple[Seat, ...]:
    if not isinstance(value, list):
        raise InvalidResultError(f"{field} must be a list of seats", field)
    seats = tuple(_seat(item, field) for item in value)
    if len(set(seats)) != len(seats):
        raise InvalidResultError(f"{field} names a seat twice", field)
    return seats


def _seat_ints(value: Mapping[str, Any], field: str) -> dict[Seat, int]:
    out: dict[Seat, int] = {}
    for key, count in value.items():
        seat = _seat(key, field)
        if isinstance(count, bool) or not isinstance(count, int):
            raise InvalidResultError(f"{field}.{key} must be a whole number", f"{field}.{key}")
        out[seat] = count
    return out


def _four(value: object, field: str) -> tuple[int, int, int, int]:
    if not isinstance(value, Mapping):
        raise InvalidResultError(
            f'{field} must give every seat, e.g. {{"N": 7, "E": 2, ...}}', field
        )
    per_seat = _seat_ints(value, field)
    for seat in SEATS:
        if seat not in per_seat:
            raise InvalidResultError(f"{field} is missing seat {seat.name}", f"{field}.{seat.name}")
    return (per_seat[Seat.N], per_seat[Seat.E], per_seat[Seat.S], per_seat[Seat.W])

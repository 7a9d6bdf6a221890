"""The parts a ruleset is built from: contract shapes, bids, variant options, a contract's rules.

``engine.ruleset`` puts them together and re-exports them; import them from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.cards import Suit
from engine.errors import ParseError, RulesetError
from engine.results import Contract
from engine.schedule import ALL_TRICKS, MULTIPLIERS, Payout, join

AFTER_ALL_PASS = ("none", "double")
NO_TRUMP = "NT"


@dataclass(frozen=True, slots=True)
class ContractShape:
    """What the game fixes about a contract, whatever the ruleset: declarers, levels, target.

    ``level_range`` is set for contracts bid at a level (accept, solo, abondance, troel, israeli);
    the others have a fixed ``target``: the tricks needed (slims), or a negative contract's exact
    own tricks (0 for the misères, 1 for piccolo). ``tricks_in_play`` is 12 for small misère,
    where every player discards a card first.
    """

    declarers: tuple[int, int]
    level_range: tuple[int, int] | None = None
    target: int = 0
    negative: bool = False
    tricks_in_play: int = ALL_TRICKS

    @property
    def lone(self) -> bool:
        """Settled one declarer against three (each negative declarer is settled on its own)."""
        return self.negative or self.declarers == (1, 1)

    def made(self, level: int | None, tricks: int) -> bool:
        """Whether ``tricks`` (the side's, or a negative declarer's own) make the contract."""
        if self.negative:
            return tricks == self.target
        return tricks >= (self.target if level is None else level)


SHAPES: Mapping[Contract, ContractShape] = {
    Contract.PASS: ContractShape((0, 0)),
    Contract.ACCEPT: ContractShape((2, 2), (8, 13)),
    Contract.SOLO: ContractShape((1, 1), (5, 8)),
    Contract.ABONDANCE: ContractShape((1, 1), (9, 12)),
    Contract.TROEL: ContractShape((2, 2), (8, 9)),
    Contract.SOLO_SLIM: ContractShape((1, 1), target=13),
    Contract.SMALL_SOLO_SLIM: ContractShape((1, 1), target=12),
    Contract.GRAND_SOLO: ContractShape((1, 1), target=13),
    Contract.SMALL_MISERE: ContractShape((1, 4), target=0, negative=True, tricks_in_play=12),
    Contract.PICCOLO: ContractShape((1, 4), target=1, negative=True),
    Contract.MISERE: ContractShape((1, 4), target=0, negative=True),
    Contract.OPEN_MISERE: ContractShape((1, 4), target=0, negative=True),
    Contract.ISRAELI: ContractShape((1, 1), (5, 13)),
    # Not a bid: the game after an all-pass, with its own table (engine.ronde_pas).
    Contract.RONDE_PAS: ContractShape((0, 0)),
}


@dataclass(frozen=True, slots=True)
class Bid:
    """A place on the ladder: a contract, and its level where it is bid at levels."""

    contract: Contract
    level: int | None = None

    def __str__(self) -> str:
        return self.contract.value if self.level is None else f"{self.contract.value} {self.level}"

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read ``"accept 8"`` or ``"misere"``."""
        parts = text.split()
        if not 1 <= len(parts) <= 2:
            raise ParseError(
                f"{text!r} is not a bid: write a contract and a level, e.g. 'accept 8'", text
            )
        try:
            contract = Contract(parts[0])
        except ValueError:
            raise ParseError(
                f"{parts[0]!r} is not a contract; contracts are {contract_list()}", text, 0
            ) from None
        if len(parts) == 1:
            return cls(contract)
        if not parts[1].isdigit():
            raise ParseError(f"the level in {text!r} must be a number", text, text.index(parts[1]))
        return cls(contract, int(parts[1]))


@dataclass(frozen=True, slots=True)
class Options:
    """Variant options (the ``[options]`` table).

    ``trump_order``: suits from lowest to highest for breaking ties between bids of equal rank
    (``None`` is no trump); empty when suits never break ties. ``after_all_pass``: ``"double"``
    when the deal after an all-pass counts one double. ``announced_double``: an opponent may
    announce "double" (input ``doubled``). ``multiplier``: ``"additive"`` (x2, x3, x4 for 1, 2, 3
    doubles) or ``"power"`` (x2, x4, x8). ``troel_tricks``: what troel needs with the called suit
    as trumps; ``troel_switch_tricks``: what it needs after the partner switched trumps (``None``:
    no switch); ``troel_four_aces_tricks``: what it needs when one player holds all four aces.
    """

    trump_order: tuple[Suit | None, ...] = (Suit.S, Suit.C, Suit.D, Suit.H)
    after_all_pass: str = "none"
    announced_double: bool = False
    multiplier: str = "additive"
    troel_tricks: int | None = None
    troel_switch_tricks: int | None = None
    troel_four_aces_tricks: int | None = None

    def __post_init__(self) -> None:
        if len(set(self.trump_order)) != len(self.trump_order):
            raise RulesetError("names a suit twice", "options.trump_order")
        if self.after_all_pass not in AFTER_ALL_PASS:
            raise RulesetError(
                f"must be one of {', '.join(AFTER_ALL_PASS)}, not {self.after_all_pass!r}",
                "options.after_all_pass",
            )
        if self.multiplier not in MULTIPLIERS:
            raise RulesetError(
                f"must be one of {', '.join(MULTIPLIERS)}, not {self.multiplier!r}",
                "options.multiplier",
            )

    @property
    def all_pass_doubles(self) -> bool:
        return self.after_all_pass == "double"

    @property
    def troel_options(self) -> dict[str, int | None]:
        return {
            "troel_tricks": self.troel_tricks,
            "troel_switch_tricks": self.troel_switch_tricks,
            "troel_four_aces_tricks": self.troel_four_aces_tricks,
        }


@dataclass(frozen=True, slots=True)
class ContractRules:
    """One allowed contract: its levels, its payouts and the doubles it counts by itself."""

    contract: Contract
    levels: tuple[int, ...] = ()
    made: Payout | None = None
    failed: Payout | None = None
    doubles: int = 0

    def __post_init__(self) -> None:
        key = f"contracts.{self.contract.value}"
        if self.contract is Contract.PASS:
            raise RulesetError("pass is always allowed and scores 0; remove this table", key)
        if self.contract is Contract.RONDE_PAS:
            raise RulesetError("Ronde Pas has its own table: unit, not made and failed", key)
        shape = SHAPES[self.contract]
        if shape.level_range is None:
            if self.levels:
                raise RulesetError(f"{self.contract.value} has no levels", join(key, "levels"))
        else:
            low, high = shape.level_range
            if not self.levels:
                raise RulesetError(
                    f"give the levels allowed, from {low} to {high}", join(key, "levels")
                )
            if list(self.levels) != sorted(set(self.levels)):
                raise RulesetError("levels must be distinct and increasing", join(key, "levels"))
            for level in self.levels:
                if level < low:
                    raise RulesetError(f"level {level} is below {low}", join(key, "levels"))
                if level > high:
                    raise RulesetError(f"level {level} is above {high}", join(key, "levels"))
        if self.doubles < 0:
            raise RulesetError("cannot be negative", join(key, "doubles"))
        if self.contract is not Contract.ISRAELI:
            for name in ("made", "failed"):
                if getattr(self, name) is None:
                    raise RulesetError(f"the {name} payout is missing", join(key, name))


@dataclass(frozen=True, slots=True)
class TableEntry:
    """Precomputed scoring of one bid: ``amounts[extra_doubles][tricks]`` is
    ``(each declarer, each other player)``, for 0, 1 or 2 doubles from the board's flags.

    ``kind`` is ``"pass"``, ``"positive"`` or ``"negative"`` (amounts by a declarer's own tricks).
    """

    kind: str
    declarers: tuple[int, int]
    tricks_in_play: int
    amounts: tuple[tuple[tuple[int, int], ...], ...]
    doubled_ok: bool
    all_pass_doubles: bool


def contract_list() -> str:
    return ", ".join(c.value for c in Contract if c is not Contract.PASS)

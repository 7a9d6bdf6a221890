"""The ``Ruleset`` value: the questions a game asks of its rules, and the checks it makes when built.

Building a ruleset checks its ladder, payouts and options against its game and works out every
amount it can score into ``Ruleset.table``. Import these names from ``engine.ruleset``, which
re-exports them and describes rulesets as a whole.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.cards import Suit
from engine.errors import InvalidResultError, RulesetError
from engine.results import Contract
from engine.ronde_pas import RondePasRules
from engine.ruleset_parts import (
    NO_TRUMP,
    SHAPES,
    Bid,
    ContractRules,
    ContractShape,
    Options,
    TableEntry,
)
from engine.schedule import ALL_TRICKS, IsraeliSchedule, Payout, settle
from engine.tomldoc import FrozenTable

GAMES = ("kleurenwiezen", "wiezen", "israeli")
MESSAGES: Mapping[str, str] = {
    "contract_not_allowed": (
        "the {ruleset} ruleset does not allow {contract}; it allows pass, {contracts}"
    ),
}
"""The English message of a result's contract that the ruleset does not have."""
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A complete ruleset. Build it with ``load_ruleset`` or ``load_builtin``.

    ``steps`` is the ladder, lowest first, each step a tuple of bids of equal rank. ``table``
    (built here, not compared) maps ``(contract token, level)`` to its ``TableEntry``.
    ``ronde_pas`` is the ``[contracts.ronde_pas]`` table of a Wiezen ruleset (not a bid, so not
    on the ladder); ``[auction] ronde_pas`` says whether an all-pass plays it.
    """

    name: str
    game: str
    title: str
    balancing: bool
    steps: tuple[tuple[Bid, ...], ...]
    contracts: tuple[ContractRules, ...]
    options: Options = field(default_factory=Options)
    israeli: IsraeliSchedule | None = None
    ronde_pas: RondePasRules | None = None
    auction_options: FrozenTable = field(default_factory=FrozenTable)
    penalty_options: FrozenTable = field(default_factory=FrozenTable)
    source: str = field(default="", compare=False)
    table: Mapping[tuple[str, int | None], TableEntry] = field(
        init=False, compare=False, repr=False
    )
    _rules: Mapping[Contract, ContractRules] = field(init=False, compare=False, repr=False)
    _positions: Mapping[tuple[Contract, int | None], int] = field(
        init=False, compare=False, repr=False
    )
    _trump_rank: Mapping[Suit | None, int] = field(init=False, compare=False, repr=False)
    _ladder: tuple[Bid, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not _NAME.fullmatch(self.name):
            raise RulesetError(
                f"{self.name!r} is not a name: use lower-case letters, digits, - and _", "name"
            )
        if self.game not in GAMES:
            raise RulesetError(f"must be one of {', '.join(GAMES)}, not {self.game!r}", "game")
        if not self.title.strip():
            raise RulesetError("the title is empty", "title")
        for name in ("auction_options", "penalty_options"):
            if not isinstance(getattr(self, name), FrozenTable):
                object.__setattr__(self, name, FrozenTable(getattr(self, name)))
        rules: dict[Contract, ContractRules] = {}
        for item in self.contracts:
            if item.contract in rules:
                raise RulesetError("appears twice", f"contracts.{item.contract.value}")
            rules[item.contract] = item
        object.__setattr__(self, "_rules", rules)
        object.__setattr__(self, "_ladder", tuple(bid for step in self.steps for bid in step))
        self._check_game(rules)
        self._check_payouts()
        object.__setattr__(self, "_positions", self._check_ladder(rules))
        self._check_options(rules)
        object.__setattr__(
            self, "_trump_rank", {suit: rank for rank, suit in enumerate(self.options.trump_order)}
        )
        object.__setattr__(self, "table", self._build_table())

    # --- the public questions -----------------------------------------------------------------

    @property
    def ladder(self) -> tuple[Bid, ...]:
        """Every bid from lowest to highest (bids of one step are adjacent; see ``steps``)."""
        return self._ladder

    @property
    def plays_ronde_pas(self) -> bool:
        """Whether a deal everyone passed is played as Ronde Pas (else it is dealt again)."""
        return self.game == "wiezen" and self.auction_options.get("ronde_pas") is True

    @property
    def allowed_contracts(self) -> tuple[Contract, ...]:
        """The contracts the ruleset allows (``pass`` aside), in ladder order."""
        seen: dict[Contract, None] = {}
        for bid in self.ladder:
            seen.setdefault(bid.contract)
        return tuple(seen)

    def allows(self, contract: Contract, level: int | None = None) -> bool:
        """Whether the contract (at ``level``, when given) is allowed; ``pass`` always is."""
        if contract is Contract.PASS:
            return level is None
        if contract is Contract.RONDE_PAS:
            return level is None and self.plays_ronde_pas
        rules = self._rules.get(contract)
        if rules is None:
            return False
        return level is None or level in rules.levels

    def levels(self, contract: Contract) -> tuple[int, ...]:
        """The levels a contract may be bid at; empty for contracts without levels."""
        rules = self._rules.get(contract)
        return () if rules is None else rules.levels

    def rules(self, contract: Contract) -> ContractRules:
        rules = self._rules.get(contract)
        if rules is None:
            raise self._not_allowed(contract)
        return rules

    def bid_key(
        self, contract: Contract, level: int | None = None, trump: Suit | None = None
    ) -> tuple[int, int]:
        """A comparable key: a bid outranks another iff its key is greater.

        First the ladder position, then the trump's place in ``options.trump_order`` (0 for
        contracts without trumps, and for every bid when suits do not break ties). For Israeli
        Whist ``trump=None`` is no trump.
        """
        if not self.allows(contract, level):
            if self.allows(contract):
                allowed = ", ".join(map(str, self.levels(contract)))
                raise InvalidResultError(
                    f"{contract.value} {level} is not a bid of the {self.name} ruleset "
                    f"(levels {allowed})",
                    "level",
                )
            raise self._not_allowed(contract)
        position = self._positions.get((contract, level))
        if position is None:
            position = self._positions.get((contract, None))
        if position is None:
            raise InvalidResultError(
                f"{contract.value} needs a level in the {self.name} ruleset", "level"
            )
        if not contract.has_trump:
            return (position, 0)
        return (position, self._trump_rank.get(trump, 0))

    def _not_allowed(self, contract: Contract) -> InvalidResultError:
        params = {
            "ruleset": self.name,
            "contract": contract.value,
            "contracts": ", ".join(c.value for c in self.allowed_contracts),
        }
        code = "contract_not_allowed"
        return InvalidResultError(
            MESSAGES[code].format(**params), "contract", code=code, params=params
        )

    # --- checks -------------------------------------------------------------------------------

    def _check_game(self, rules: Mapping[Contract, ContractRules]) -> None:
        if not rules:
            raise RulesetError("the ruleset allows no contract", "contracts")
        if self.game == "israeli":
            if set(rules) != {Contract.ISRAELI}:
                raise RulesetError(
                    "an Israeli Whist ruleset has only the israeli contract", "contracts"
                )
            if self.israeli is None:
                raise RulesetError("the [israeli] score table is missing", "israeli")
            if self.balancing:
                raise RulesetError("Israeli Whist scores do not balance; set false", "balancing")
        else:
            if Contract.ISRAELI in rules:
                raise RulesetError(
                    f'israeli is only for game = "israeli", not {self.game}', "contracts.israeli"
                )
            if self.israeli is not None:
                raise RulesetError("only an Israeli Whist ruleset has this table", "israeli")
        if self.game != "wiezen":
            if self.ronde_pas is not None:
                raise RulesetError(
                    f'Ronde Pas is a Wiezen game: only for game = "wiezen", not {self.game}',
                    "contracts.ronde_pas",
                )
        elif self.plays_ronde_pas and self.ronde_pas is None:
            raise RulesetError(
                "an all-pass plays Ronde Pas ([auction] ronde_pas): give its figures in "
                "[contracts.ronde_pas] (unit)",
                "contracts.ronde_pas",
            )

    def _check_payouts(self) -> None:
        for rules in self.contracts:
            for name in ("made", "failed"):
                payout: Payout | None = getattr(rules, name)
                if payout is None:
                    continue
                key = f"contracts.{rules.contract.value}.{name}"
                if self.balancing and payout.opponents is not None:
                    raise RulesetError(
                        "a balancing ruleset gives one formula, not bidders and opponents", key
                    )
                if not self.balancing and payout.opponents is None:
                    raise RulesetError(
                        "a per-side ruleset (balancing = false) gives bidders and opponents", key
                    )

    def _check_ladder(
        self, rules: Mapping[Contract, ContractRules]
    ) -> dict[tuple[Contract, int | None], int]:
        positions: dict[tuple[Contract, int | None], int] = {}
        for index, step in enumerate(self.steps):
            key = f"ladder[{index}]"
            if not step:
                raise RulesetError("an empty step", key)
            for bid in step:
                if bid.contract is Contract.RONDE_PAS:
                    raise RulesetError(
                        "ronde_pas is not a bid: it is played after an all-pass "
                        "([auction] ronde_pas); remove it from the ladder",
                        key,
                    )
                contract_rules = rules.get(bid.contract)
                if contract_rules is None:
                    raise RulesetError(
                        f"{bid} is not an allowed contract; add [contracts.{bid.contract.value}] "
                        "or remove it from the ladder",
                        key,
                    )
                if bid.level is not None and bid.level not in contract_rules.levels:
                    raise RulesetError(
                        f"{bid}: level {bid.level} is not in contracts.{bid.contract.value}.levels",
                        key,
                    )
                if (bid.contract, bid.level) in positions:
                    raise RulesetError(f"{bid} is on the ladder twice", key)
                positions[bid.contract, bid.level] = index
        for contract, contract_rules in rules.items():
            whole = (contract, None) in positions
            by_level = [level for level in contract_rules.levels if (contract, level) in positions]
            if whole and by_level:
                raise RulesetError(
                    f"{contract.value} is on the ladder both with and without a level", "ladder"
                )
            if whole:
                continue
            missing = [lvl for lvl in contract_rules.levels if (contract, lvl) not in positions]
            if not contract_rules.levels or missing:
                bid = Bid(contract, missing[0] if missing else None)
                raise RulesetError(f"{bid} is allowed but missing from the ladder", "ladder")
        return positions

    def _check_options(self, rules: Mapping[Contract, ContractRules]) -> None:
        options = self.options
        if self.game != "israeli" and None in options.trump_order:
            raise RulesetError(f"{NO_TRUMP} is for Israeli Whist only", "options.trump_order")
        if self.game == "israeli" and (options.announced_double or options.all_pass_doubles):
            raise RulesetError("Israeli Whist has no doubles", "options")
        troel = rules.get(Contract.TROEL)
        if troel is None:
            for name, value in options.troel_options.items():
                if value is not None:
                    raise RulesetError("the ruleset has no troel", f"options.{name}")
            return
        if options.troel_tricks is None:
            raise RulesetError("say how many tricks troel needs (8 or 9)", "options.troel_tricks")
        for name, value in options.troel_options.items():
            if value is not None and value not in troel.levels:
                raise RulesetError(f"{value} is not in contracts.troel.levels", f"options.{name}")
        played = set(options.troel_options.values())
        for level in troel.levels:
            if level not in played:
                raise RulesetError(
                    f"troel {level} never happens: set troel_tricks, troel_switch_tricks or "
                    f"troel_four_aces_tricks to {level}, or drop the level",
                    "contracts.troel.levels",
                )

    def _build_table(self) -> dict[tuple[str, int | None], TableEntry]:
        options = self.options
        zero_row = tuple((0, 0) for _ in range(ALL_TRICKS + 1))
        table: dict[tuple[str, int | None], TableEntry] = {
            (Contract.PASS.value, None): TableEntry(
                "pass", (0, 0), ALL_TRICKS, (zero_row,) * 3, False, options.all_pass_doubles
            )
        }
        for rules in self.contracts:
            if rules.contract is Contract.ISRAELI:
                continue
            shape = SHAPES[rules.contract]
            for level in rules.levels or (None,):
                self._check_formulas(rules, shape, level)
                amounts = tuple(self._amounts(rules, shape, level, extra) for extra in range(3))
                table[rules.contract.value, level] = TableEntry(
                    "negative" if shape.negative else "positive",
                    shape.declarers,
                    shape.tricks_in_play,
                    amounts,
                    options.announced_double,
                    options.all_pass_doubles,
                )
        return table

    def _amounts(
        self, rules: ContractRules, shape: ContractShape, level: int | None, extra: int
    ) -> tuple[tuple[int, int], ...]:
        """``(each declarer, each other player)`` by tricks, with ``extra`` doubles."""
        made, failed = rules.made, rules.failed
        assert made is not None, "checked in ContractRules"
        assert failed is not None, "checked in ContractRules"
        row = []
        for tricks in range(ALL_TRICKS + 1):
            if tricks > shape.tricks_in_play:
                row.append((0, 0))
                continue
            row.append(
                settle(
                    made if shape.made(level, tricks) else failed,
                    level,
                    tricks,
                    lone=shape.lone,
                    doubles=rules.doubles + extra,
                    mode=self.options.multiplier,
                )
            )
        return tuple(row)

    @staticmethod
    def _check_formulas(rules: ContractRules, shape: ContractShape, level: int | None) -> None:
        """Evaluate every formula for every outcome, so a missing figure fails at load time."""
        for tricks in range(shape.tricks_in_play + 1):
            outcome = "made" if shape.made(level, tricks) else "failed"
            payout: Payout = getattr(rules, outcome)
            sides = [("", payout.bidders)]
            if payout.opponents is not None:
                sides = [("bidders.", payout.bidders), ("opponents.", payout.opponents)]
            for side, formula in sides:
                try:
                    formula.amount(level, tricks)
                except RulesetError as exc:
                    bid = Bid(rules.contract, level)
                    raise RulesetError(
                        f"{exc.problem} (needed for {bid} with {tricks} tricks)",
                        f"contracts.{rules.contract.value}.{outcome}.{side}{exc.key}",
                    ) from None

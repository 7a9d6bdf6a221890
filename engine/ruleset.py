"""Rulesets: which contracts a game allows, how they outrank each other and what they score.

A ruleset is a TOML document (docs/rulesets.md explains every key; the built-in ones are in
``engine/rulesets/``), read into frozen dataclasses that check themselves when built:

    ruleset = load_builtin("whisthub")
    ruleset.bid_key(Contract.SOLO, 6, Suit.H) > ruleset.bid_key(Contract.ACCEPT, 9, Suit.H)

The ladder lists the bids from lowest to highest. A step may hold several bids of equal rank
(written ``"accept 8 = solo 5"``); between equal bids the trump suit decides, by
``options.trump_order`` (lowest first). Israeli Whist uses the same mechanism: one step per level
5-13 and ``trump_order = ["C", "D", "H", "S", "NT"]``, so 7 NT < 8 C.

Every possible outcome of every bid is evaluated when the ruleset is built, so a table with a
missing figure is refused at load time, and ``score`` only looks amounts up (``Ruleset.table``).

A contract the ruleset lacks raises ``InvalidResultError`` with the code ``contract_not_allowed``
of ``MESSAGES`` (params: the ruleset's name, the contract's token and the allowed tokens).
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from engine.cards import Suit
from engine.errors import InvalidResultError, ParseError, RulesetError, UnknownRulesetError
from engine.results import Contract
from engine.ronde_pas import RondePasRules
from engine.ruleset_parts import (
    AFTER_ALL_PASS,
    NO_TRUMP,
    SHAPES,
    Bid,
    ContractRules,
    ContractShape,
    Options,
    TableEntry,
    contract_list,
)
from engine.schedule import (
    ALL_TRICKS,
    IsraeliSchedule,
    Payout,
    check_keys,
    israeli_from_mapping,
    israeli_to_mapping,
    join,
    payout_from_mapping,
    payout_to_mapping,
    read_bool,
    read_int,
    read_table,
    settle,
)
from engine.tomldoc import FrozenTable, dumps

__all__ = [
    "AFTER_ALL_PASS",
    "BUILTIN_NAMES",
    "GAMES",
    "MESSAGES",
    "NO_TRUMP",
    "SHAPES",
    "Bid",
    "ContractRules",
    "ContractShape",
    "Options",
    "RondePasRules",
    "Ruleset",
    "TableEntry",
    "builtin_names",
    "load_builtin",
    "load_ruleset",
    "ruleset_to_mapping",
    "ruleset_to_toml",
]

GAMES = ("kleurenwiezen", "wiezen", "israeli")
MESSAGES: Mapping[str, str] = {
    "contract_not_allowed": (
        "the {ruleset} ruleset does not allow {contract}; it allows pass, {contracts}"
    ),
}
"""The English message of a result's contract that the ruleset does not have."""
BUILTIN_NAMES = (
    "whisthub",
    "whisthub-piccolo",
    "pagat",
    "flemish",
    "iwwa",
    "iwwa-wiezen",
    "israeli",
    "israeli-alt",
)
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
_TOP_KEYS = (
    "name",
    "game",
    "title",
    "balancing",
    "ladder",
    "options",
    "contracts",
    "israeli",
    "auction",
    "penalties",
)


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


# --- loading and writing ---------------------------------------------------------------------


def load_ruleset(document: str | Mapping[str, Any], source: str = "<ruleset>") -> Ruleset:
    """Read a ruleset from TOML text or an already parsed mapping.

    A broken document raises ``RulesetError`` naming the dotted key and the problem, e.g.
    ``contracts.solo.levels: level 4 is below 5``.
    """
    if isinstance(document, str):
        try:
            raw: Mapping[str, Any] = tomllib.loads(document)
        except tomllib.TOMLDecodeError as exc:
            raise RulesetError(f"{source} is not valid TOML: {exc}") from None
    else:
        raw = read_table(document, source)
    check_keys(raw, _TOP_KEYS, "")
    game = _read_str(raw, "game")
    if game not in GAMES:
        raise RulesetError(f"must be one of {', '.join(GAMES)}, not {game!r}", "game")
    balancing = read_bool(raw, "balancing", "", game != "israeli")
    contracts = read_table(raw.get("contracts", {}), "contracts")
    troel_levels: tuple[int, ...] = ()
    rules = []
    ronde_pas = None
    for token, body in contracts.items():
        if token == Contract.RONDE_PAS.value:
            ronde_pas = _read_ronde_pas(body)
            continue
        item = _read_contract(token, body, balancing)
        rules.append(item)
        if item.contract is Contract.TROEL:
            troel_levels = item.levels
    israeli = None
    if "israeli" in raw:
        if game != "israeli":
            raise RulesetError("only an Israeli Whist ruleset has this table", "israeli")
        israeli = israeli_from_mapping(raw["israeli"], "israeli")
    ruleset = Ruleset(
        name=_read_str(raw, "name"),
        game=game,
        title=_read_str(raw, "title"),
        balancing=balancing,
        steps=_read_ladder(raw.get("ladder")),
        contracts=tuple(rules),
        options=_read_options(read_table(raw.get("options", {}), "options"), game, troel_levels),
        israeli=israeli,
        ronde_pas=ronde_pas,
        auction_options=FrozenTable(read_table(raw.get("auction", {}), "auction")),
        penalty_options=FrozenTable(read_table(raw.get("penalties", {}), "penalties")),
        source=source,
    )
    _check_tables_of_other_modules(ruleset)
    return ruleset


def _check_tables_of_other_modules(ruleset: Ruleset) -> None:
    """Validate the ``[auction]`` and ``[penalties]`` tables on load, with their own modules.

    Imported here, not at the top, because those modules import this one.
    """
    from engine.adjudication import penalties
    from engine.auction.options import AuctionOptions

    AuctionOptions.from_mapping(ruleset.auction_options, "auction", game=ruleset.game)
    penalties(ruleset)


def ruleset_to_mapping(ruleset: Ruleset) -> dict[str, Any]:
    """The document form of a ruleset (what ``ruleset_to_toml`` writes)."""
    options = ruleset.options
    out: dict[str, Any] = {
        "name": ruleset.name,
        "game": ruleset.game,
        "title": ruleset.title,
        "balancing": ruleset.balancing,
        "ladder": [" = ".join(str(bid) for bid in step) for step in ruleset.steps],
        "options": {
            "trump_order": [
                NO_TRUMP if suit is None else suit.letter for suit in options.trump_order
            ],
            "after_all_pass": options.after_all_pass,
            "announced_double": options.announced_double,
            "multiplier": options.multiplier,
        }
        | {name: value for name, value in options.troel_options.items() if value is not None},
        "contracts": {},
    }
    for rules in ruleset.contracts:
        body: dict[str, Any] = {}
        if rules.levels:
            body["levels"] = list(rules.levels)
        if rules.doubles:
            body["doubles"] = rules.doubles
        if rules.made is not None:
            body["made"] = payout_to_mapping(rules.made)
        if rules.failed is not None:
            body["failed"] = payout_to_mapping(rules.failed)
        out["contracts"][rules.contract.value] = body
    if ruleset.ronde_pas is not None:
        out["contracts"][Contract.RONDE_PAS.value] = {"unit": ruleset.ronde_pas.unit}
    if ruleset.israeli is not None:
        out["israeli"] = israeli_to_mapping(ruleset.israeli)
    out["auction"] = ruleset.auction_options.to_dict()
    out["penalties"] = ruleset.penalty_options.to_dict()
    return out


def ruleset_to_toml(ruleset: Ruleset) -> str:
    """The ruleset as a TOML document: ``load_ruleset(ruleset_to_toml(r)) == r``."""
    return dumps(ruleset_to_mapping(ruleset))


def builtin_names() -> tuple[str, ...]:
    """The names of the built-in rulesets, in the order ``python -m engine rulesets`` lists them."""
    return BUILTIN_NAMES


@functools.cache
def load_builtin(name: str) -> Ruleset:
    """A built-in ruleset by name (read once, then cached); ``UnknownRulesetError`` otherwise."""
    if name not in BUILTIN_NAMES:
        raise UnknownRulesetError(
            f"unknown ruleset {name!r}; the built-in rulesets are {', '.join(BUILTIN_NAMES)}"
        )
    path = f"engine/rulesets/{name}.toml"
    text = resources.files("engine").joinpath("rulesets", f"{name}.toml").read_text("utf-8")
    ruleset = load_ruleset(text, source=path)
    if ruleset.name != name:
        raise RulesetError(f"{path} names itself {ruleset.name!r}", "name")
    return ruleset


def _read_str(raw: Mapping[str, Any], key: str) -> str:
    value = raw.get(key)
    if value is None:
        raise RulesetError(f"{key} is missing", key)
    if not isinstance(value, str):
        raise RulesetError(f"must be text, not {value!r}", key)
    return value


def _read_contract(token: str, body: object, balancing: bool) -> ContractRules:
    path = f"contracts.{token}"
    try:
        contract = Contract(token)
    except ValueError:
        raise RulesetError(f"unknown contract; contracts are {contract_list()}", path) from None
    if contract is Contract.PASS:
        raise RulesetError("pass is always allowed and scores 0; remove this table", path)
    table = read_table(body, path)
    shape = SHAPES[contract]
    allowed = {"doubles"}
    if shape.level_range is not None:
        allowed.add("levels")
    if contract is not Contract.ISRAELI:
        allowed |= {"made", "failed"}
    check_keys(table, allowed, path)
    levels: list[int] = []
    raw_levels = table.get("levels", [])
    if not isinstance(raw_levels, list):
        raise RulesetError("must be a list of levels, e.g. [8, 9]", join(path, "levels"))
    for index, level in enumerate(raw_levels):
        if isinstance(level, bool) or not isinstance(level, int):
            raise RulesetError(f"must be a whole number, not {level!r}", f"{path}.levels[{index}]")
        levels.append(level)
    payouts: dict[str, Payout | None] = {"made": None, "failed": None}
    if contract is not Contract.ISRAELI:
        for name in payouts:
            if name not in table:
                raise RulesetError(f"the {name} payout is missing", join(path, name))
            payouts[name] = payout_from_mapping(table[name], join(path, name), balancing)
    return ContractRules(
        contract,
        tuple(levels),
        payouts["made"],
        payouts["failed"],
        read_int(table, "doubles", path, 0),
    )


def _read_ronde_pas(body: object) -> RondePasRules:
    path = f"contracts.{Contract.RONDE_PAS.value}"
    table = read_table(body, path)
    check_keys(table, ("unit",), path)
    return RondePasRules(read_int(table, "unit", path))


def _read_ladder(raw: object) -> tuple[tuple[Bid, ...], ...]:
    if not isinstance(raw, list) or not raw:
        raise RulesetError(
            'give the bids from lowest to highest, e.g. ["accept 8", "solo 5", ...]', "ladder"
        )
    steps = []
    for index, item in enumerate(raw):
        key = f"ladder[{index}]"
        if not isinstance(item, str):
            raise RulesetError(f"must be text such as 'accept 8', not {item!r}", key)
        try:
            steps.append(tuple(Bid.parse(part) for part in item.split("=")))
        except ParseError as exc:
            raise RulesetError(str(exc), key) from None
    return tuple(steps)


def _read_options(raw: Mapping[str, Any], game: str, troel_levels: tuple[int, ...]) -> Options:
    check_keys(raw, tuple(Options.__dataclass_fields__), "options")
    default_order = ["C", "D", "H", "S", NO_TRUMP] if game == "israeli" else ["S", "C", "D", "H"]
    raw_order = raw.get("trump_order", default_order)
    if not isinstance(raw_order, list):
        raise RulesetError(
            'must be a list of suits, lowest first, e.g. ["S", "C", "D", "H"]',
            "options.trump_order",
        )
    order: list[Suit | None] = []
    for item in raw_order:
        if item == NO_TRUMP:
            order.append(None)
        elif isinstance(item, str) and item in Suit.__members__:
            order.append(Suit[item])
        else:
            raise RulesetError(f"{item!r} is not a suit (S, H, D, C or NT)", "options.trump_order")
    troel: dict[str, int | None] = {}
    for name in ("troel_tricks", "troel_switch_tricks", "troel_four_aces_tricks"):
        troel[name] = read_int(raw, name, "options") if name in raw else None
    if troel_levels and troel["troel_tricks"] is None and "troel_tricks" not in raw:
        troel["troel_tricks"] = troel_levels[0]
    if troel["troel_four_aces_tricks"] is None and "troel_four_aces_tricks" not in raw:
        troel["troel_four_aces_tricks"] = troel["troel_tricks"]
    after_all_pass = raw.get("after_all_pass", "none")
    multiplier = raw.get("multiplier", "additive")
    for key, value in (
        ("after_all_pass", after_all_pass),
        ("multiplier", multiplier),
    ):
        if not isinstance(value, str):
            raise RulesetError(f"must be text, not {value!r}", f"options.{key}")
    return Options(
        trump_order=tuple(order),
        after_all_pass=after_all_pass,
        announced_double=read_bool(raw, "announced_double", "options", False),
        multiplier=multiplier,
        **troel,
    )

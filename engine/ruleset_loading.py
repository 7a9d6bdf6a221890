"""Reading and writing rulesets: a TOML document in, a checked ``Ruleset`` out, and back again.

A broken document raises ``RulesetError`` naming the dotted key and the problem. The built-in
rulesets are the TOML files of ``engine/rulesets/``. Import these names from ``engine.ruleset``,
which re-exports them.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any

from engine.cards import Suit
from engine.errors import ParseError, RulesetError, UnknownRulesetError
from engine.results import Contract
from engine.ronde_pas import RondePasRules
from engine.ruleset_model import GAMES, Ruleset
from engine.ruleset_parts import NO_TRUMP, SHAPES, Bid, ContractRules, Options, contract_list
from engine.schedule import (
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
)
from engine.tomldoc import FrozenTable, dumps

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

    Imported here, not at the top, because those modules import ``engine.ruleset``, which imports
    this one.
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

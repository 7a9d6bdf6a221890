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

This module puts the pieces together: ``engine.ruleset_parts`` (bids, contract rules, options),
``engine.ruleset_model`` (the ``Ruleset`` and its checks) and ``engine.ruleset_loading`` (TOML in
and out, the built-in rulesets). Import from here.
"""

from __future__ import annotations

from engine.ronde_pas import RondePasRules
from engine.ruleset_loading import (
    BUILTIN_NAMES,
    builtin_names,
    load_builtin,
    load_ruleset,
    ruleset_to_mapping,
    ruleset_to_toml,
)
from engine.ruleset_model import GAMES, MESSAGES, Ruleset
from engine.ruleset_parts import (
    AFTER_ALL_PASS,
    NO_TRUMP,
    SHAPES,
    Bid,
    ContractRules,
    ContractShape,
    Options,
    TableEntry,
)

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

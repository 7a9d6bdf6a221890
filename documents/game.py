"""The game as the printed documents see it: the one module of the app that imports the engine.

Every rule of the game lives in ``engine`` (standard library only); the Django side reaches it
through here alone, so that what it depends on is listed in one place (an import-linter
contract keeps it so).
"""

from __future__ import annotations

from engine import comparison
from engine.cards import SUITS, Card, Rank, Seat, Suit
from engine.dealfiles import DealFile, DlmFile, write_dlm, write_pbn
from engine.deals import BoardDeal
from engine.doubledummy import PAIRING_NAMES, STRAINS, BoardTable
from engine.errors import EngineError
from engine.hands import Deal, Hand
from engine.notation import CANONICAL_WORDS, LEVELS, format_result_line, parse_result_line
from engine.results import (
    AnyResult,
    BoardResult,
    Contract,
    IsraeliResult,
    RondePasResult,
    result_from_json,
)
from engine.ruleset import ruleset_to_toml

__all__ = [
    "CANONICAL_WORDS",
    "LEVELS",
    "PAIRING_NAMES",
    "STRAINS",
    "SUITS",
    "AnyResult",
    "BoardDeal",
    "BoardResult",
    "BoardTable",
    "Card",
    "Contract",
    "Deal",
    "DealFile",
    "DlmFile",
    "EngineError",
    "Hand",
    "IsraeliResult",
    "Rank",
    "RondePasResult",
    "Seat",
    "Suit",
    "comparison",
    "format_result_line",
    "parse_result_line",
    "result_from_json",
    "ruleset_to_toml",
    "write_dlm",
    "write_pbn",
]

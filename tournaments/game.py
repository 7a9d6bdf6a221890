"""The game as the tournaments app sees it: the one module of the app that imports the engine.

Every rule of the game lives in ``engine`` (standard library only); the Django side reaches it
through here alone, so that what it depends on is listed in one place (an import-linter
contract keeps it so).
"""

from __future__ import annotations

from engine import adjudication, boardsets, comparison, dealfiles, deals, movements, standings
from engine.adjudication import Problem, penalty
from engine.cards import SEATS, Card, Seat, Suit
from engine.comparison import (
    Artificial,
    ArtificialScores,
    Award,
    Weighted,
    check_tie_break_order,
    display,
    rank_labels,
)
from engine.deals import BoardDeal
from engine.doubledummy import COMPILED, PAIRING_NAMES, BoardTable, TableError, table_for_board
from engine.errors import (
    EngineError,
    InvalidResultError,
    MovementError,
    ParseError,
    RulesetError,
    UnknownRulesetError,
)
from engine.hands import Deal, Hand
from engine.movements import MAX_PLAYERS
from engine.movements.fifth import holders, sitting_out
from engine.notation import CANONICAL_WORDS, CONTRACT_ALIASES, format_result_line, parse_result_line
from engine.play import KLEURENWIEZEN_PLAY, WIEZEN_PLAY, PlayRules, new_play
from engine.results import (
    LONE_CONTRACTS,
    PAIR_CONTRACTS,
    AnyResult,
    BoardResult,
    Contract,
    IsraeliResult,
    RondePasGame,
    RondePasResult,
    result_from_json,
)
from engine.ronde_pas import game_for_all_pass
from engine.ruleset import (
    SHAPES,
    Bid,
    Ruleset,
    builtin_names,
    load_builtin,
    load_ruleset,
    ruleset_to_toml,
)
from engine.scoring import score, scores_by_seat
from engine.standings import SEATS as SEAT_LETTERS
from engine.standings import BoardScore, Method, ScoredBye, SeatEntry, TableResult

__all__ = [
    "CANONICAL_WORDS",
    "COMPILED",
    "CONTRACT_ALIASES",
    "KLEURENWIEZEN_PLAY",
    "LONE_CONTRACTS",
    "MAX_PLAYERS",
    "PAIRING_NAMES",
    "PAIR_CONTRACTS",
    "SEATS",
    "SEAT_LETTERS",
    "SHAPES",
    "WIEZEN_PLAY",
    "AnyResult",
    "Artificial",
    "ArtificialScores",
    "Award",
    "Bid",
    "BoardDeal",
    "BoardResult",
    "BoardScore",
    "BoardTable",
    "Card",
    "Contract",
    "Deal",
    "EngineError",
    "Hand",
    "InvalidResultError",
    "IsraeliResult",
    "Method",
    "MovementError",
    "ParseError",
    "PlayRules",
    "Problem",
    "RondePasGame",
    "RondePasResult",
    "Ruleset",
    "RulesetError",
    "ScoredBye",
    "Seat",
    "SeatEntry",
    "Suit",
    "TableError",
    "TableResult",
    "UnknownRulesetError",
    "Weighted",
    "adjudication",
    "boardsets",
    "builtin_names",
    "check_tie_break_order",
    "comparison",
    "dealfiles",
    "deals",
    "display",
    "format_result_line",
    "game_for_all_pass",
    "holders",
    "load_builtin",
    "load_ruleset",
    "movements",
    "new_play",
    "parse_result_line",
    "penalty",
    "rank_labels",
    "result_from_json",
    "ruleset_to_toml",
    "score",
    "scores_by_seat",
    "sitting_out",
    "standings",
    "table_for_board",
]

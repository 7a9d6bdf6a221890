"""Individual movements: who sits at which table and seat in each round.

Four players a table (or five, the fifth sitting out each deal in turn), players meeting as few
times as possible, seats N, E, S and W shared out evenly, byes in turn, and re-planning after late
arrivals and withdrawals. See docs/movements.md.
"""

from engine.movements.designs import KNOWN_MAXIMA
from engine.movements.layout import MAX_PLAYERS, MAX_ROUNDS, Layout
from engine.movements.model import Movement, RoundPlan, TablePlan
from engine.movements.planner import (
    is_known_maximum,
    max_rounds_without_repeat,
    plan_movement,
    replan,
    to_json,
)
from engine.movements.quality import MovementQuality, quality

__all__ = [
    "KNOWN_MAXIMA",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "Layout",
    "Movement",
    "MovementQuality",
    "RoundPlan",
    "TablePlan",
    "is_known_maximum",
    "max_rounds_without_repeat",
    "plan_movement",
    "quality",
    "replan",
    "to_json",
]

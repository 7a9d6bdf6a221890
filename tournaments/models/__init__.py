"""The tournaments app's data: clubs and players, events and their rounds, seating, boards,
results (versioned) and the audit log."""

from tournaments.models.access import ApiToken, Organisation
from tournaments.models.adjustments import Penalty, SitOutScore
from tournaments.models.analysis import BoardAnalysis
from tournaments.models.audit import AuditAction, AuditEntry
from tournaments.models.events import (
    Board,
    Entry,
    Event,
    Round,
    Seating,
    Table,
    TableBoard,
)
from tournaments.models.people import Club, Player
from tournaments.models.results import BoardScores, Result, Standings
from tournaments.models.scoring_tables import ScoringTable, ScoringTableVersion
from tournaments.models.series import Series

__all__ = [
    "ApiToken",
    "AuditAction",
    "AuditEntry",
    "Board",
    "BoardAnalysis",
    "BoardScores",
    "Club",
    "Entry",
    "Event",
    "Organisation",
    "Penalty",
    "Player",
    "Result",
    "Round",
    "ScoringTable",
    "ScoringTableVersion",
    "Seating",
    "Series",
    "SitOutScore",
    "Standings",
    "Table",
    "TableBoard",
]

"""Standings from plain records: every board compared seat by seat, then per round, cumulative and ranked.

The input is a ``Field``: the current table results (who held each seat and what each scored),
the boards each player sat out, the byes the director scored, the fines, the comparison method and
the tie-break order. ``standings(field)`` returns a frozen ``Standings``: every player's boards
with their comparison, each round's figure, the total and the ranking. Nothing here knows of a
database; the Django side adapts its rows to a ``Field`` and serialises the result once.

Arithmetic is exact without ``Fraction`` on the hot path: whole groups are matchpointed in
integers (``groups``) and totals keep their fractional parts apart (``tally``). A player who sits
out boards scores their own average on them (``lines``); a player with no board yet is listed as
waiting, not placed at 50 %. A ``Memo`` passed from one computation of an event to the next makes
the next one redo only what a saved result changed (``memo``), with the very same outcome.

The modules, each of which imports only those above it: ``inputs`` (the records), ``outcome``
(the result), ``groups`` (comparing), ``tally`` (adding up), ``meetings`` (head to head),
``memo``, ``ranking``, ``lines`` (a player's rounds), ``parts`` (a round's results), ``compute``
(``standings`` itself) and ``stored`` (board scores as JSON).
"""

from engine.standings.compute import compare_boards, standings
from engine.standings.groups import GroupKey
from engine.standings.inputs import SEATS, Field, Holder, Method, ScoredBye, SeatEntry, TableResult
from engine.standings.meetings import Meetings
from engine.standings.memo import Memo
from engine.standings.outcome import HUNDRED, BoardScore, PlayerStanding, Standings, decimals
from engine.standings.stored import (
    BOARD_SCORES_VERSION,
    LineMemo,
    board_scores_from_json,
    board_scores_text,
    board_scores_to_json,
)

__all__ = [
    "BOARD_SCORES_VERSION",
    "HUNDRED",
    "SEATS",
    "BoardScore",
    "Field",
    "GroupKey",
    "Holder",
    "LineMemo",
    "Meetings",
    "Memo",
    "Method",
    "PlayerStanding",
    "ScoredBye",
    "SeatEntry",
    "Standings",
    "TableResult",
    "board_scores_from_json",
    "board_scores_text",
    "board_scores_to_json",
    "compare_boards",
    "decimals",
    "standings",
]

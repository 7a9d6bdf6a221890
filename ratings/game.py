"""The game as the ratings app sees it: the one module of the app that imports the engine.

Every rule of the game lives in ``engine`` (standard library only); the Django side reaches it
through here alone, so that what it depends on is listed in one place (an import-linter
contract keeps it so).
"""

from __future__ import annotations

from engine.standings import SEATS as SEAT_LETTERS

__all__ = [
    "SEAT_LETTERS",
]

"""The errors of double-dummy analysis: positions that cannot be solved as given."""

from __future__ import annotations

from engine.errors import DealError, EngineError


class PositionError(DealError):
    """Hands, trumps, leader or declarers that do not make a position to solve."""


class TableError(EngineError):
    """A board's double-dummy table that is malformed, or a question it does not answer."""

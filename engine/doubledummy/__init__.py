"""Double-dummy analysis of whist deals: with all four hands in view, what each side can make.

``solver`` answers one position (one side or seat against the rest, a trump suit, a leader);
``table`` works out a board's whole table as Colour Whist's contracts lead. The search is compiled
(``_solver.c``) when the package is built with a C compiler; ``COMPILED`` says whether it was, and
``reference`` is the pure-Python search the compiled one is checked against.
"""

from __future__ import annotations

from engine.doubledummy.errors import PositionError, TableError
from engine.doubledummy.solver import (
    COMPILED,
    Position,
    can_take,
    nodes_searched,
    takes_exactly_one,
    takes_no_trick,
    tricks,
)
from engine.doubledummy.table import (
    PAIRING_NAMES,
    PAIRINGS,
    STRAIN_NAMES,
    STRAINS,
    BoardTable,
    board_table,
    table_for_board,
)

__all__ = [
    "COMPILED",
    "PAIRINGS",
    "PAIRING_NAMES",
    "STRAINS",
    "STRAIN_NAMES",
    "BoardTable",
    "Position",
    "PositionError",
    "TableError",
    "board_table",
    "can_take",
    "nodes_searched",
    "table_for_board",
    "takes_exactly_one",
    "takes_no_trick",
    "tricks",
]

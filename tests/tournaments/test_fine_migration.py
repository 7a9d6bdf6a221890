"""Migration 0017 moves each fine's amount from its points to a field of its own."""

from __future__ import annotations

import importlib
from decimal import Decimal
from typing import Any

import pytest

migration = importlib.import_module("tournaments.migrations.0017_penalty_fine")


@pytest.mark.parametrize(
    ("points", "amount"),
    [
        ({"total": "5"}, Decimal("5.00")),
        ({"total": "5/2"}, Decimal("2.50")),
        ({"total": "1/4"}, Decimal("0.25")),
        ({"total": "12.5"}, Decimal("12.50")),
        # What the standings left out as unreadable stays worth nothing.
        ({"total": "five"}, Decimal("0")),
        ({"total": "1/0"}, Decimal("0")),
        ({}, Decimal("0")),
        (["not", "a", "dict"], Decimal("0")),
    ],
)
def test_each_fine_keeps_its_amount(points: Any, amount: Decimal) -> None:
    assert migration._amount(points) == amount

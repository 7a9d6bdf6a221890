"""Fault tests: what PostgreSQL does under many writers, and what the site does when it goes away."""

from __future__ import annotations

import os

import pytest
from django.db import connection


def require_postgresql() -> None:
    """Skip without PostgreSQL; fail instead where the run demands it (CI's TROEF_REQUIRE_POSTGRES)."""
    if connection.vendor == "postgresql":
        return
    if os.environ.get("TROEF_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"this fault test needs PostgreSQL, and the run is on {connection.vendor}")
    pytest.skip("real concurrent writers need PostgreSQL (set DATABASE_URL)")

"""Fault tests: what PostgreSQL does under many writers, and what the site does when it goes away."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from tests.reliability.services import RedisServer, redis_server_binary


def require_postgresql() -> None:
    """Skip without PostgreSQL; fail instead where the run demands it (CI's TROEF_REQUIRE_POSTGRES)."""
    if connection.vendor == "postgresql":
        return
    if os.environ.get("TROEF_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"this fault test needs PostgreSQL, and the run is on {connection.vendor}")
    pytest.skip("fault tests against real services need PostgreSQL (set DATABASE_URL)")


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis of the test's own (the site's processes also need the test's PostgreSQL database)."""
    require_postgresql()
    server = RedisServer(redis_server_binary(), tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()

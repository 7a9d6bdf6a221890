"""What the API tests share."""

from __future__ import annotations

import pytest
from django.db.backends.base.base import BaseDatabaseWrapper


@pytest.fixture(autouse=True)
def connections_kept_across_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """schemathesis calls the WSGI application itself, not through Django's test client, which
    keeps the test's database connection open around each request: without this, the end of a
    request closes the connection that holds the test's transaction (on PostgreSQL)."""
    monkeypatch.setattr(BaseDatabaseWrapper, "close_if_unusable_or_obsolete", lambda self: None)

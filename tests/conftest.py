"""Shared fixtures: a fixed cast of users."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User


@pytest.fixture
def td(db: None) -> User:
    """The tournament director who runs the events under test."""
    return User.objects.create_user("alice", password="alice-password", is_staff=True)


@pytest.fixture
def outsider(db: None) -> User:
    """A signed-in user who directs none of the events under test."""
    return User.objects.create_user("oscar", password="oscar-password")

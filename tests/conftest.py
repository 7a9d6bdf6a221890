"""Shared fixtures: a fixed cast of users."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@pytest.fixture(autouse=True)
def _english(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tests read English messages; the translations have tests of their own.

    Engine tests need no Django at all: under ``-p no:django`` this does nothing.
    """
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.utils import translation

    settings: Any = request.getfixturevalue("settings")
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _empty_cache(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each test starts with an empty cache: one test's failed sign-ins must not lock another's."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def td(db: None) -> User:
    """The tournament director who runs the events under test, a member of a club's account."""
    from django.contrib.auth.models import User

    from tournaments.models import Organisation

    user = User.objects.create_user("alice", password="alice-password", is_staff=True)
    Organisation.objects.create(name="Whistclub De Kroon").members.add(user)
    return user


@pytest.fixture
def assistant(db: None) -> User:
    """A second director of the same events: the other person at the scoring table."""
    from django.contrib.auth.models import User

    return User.objects.create_user("bob", password="bob-password", is_staff=True)


@pytest.fixture
def outsider(db: None) -> User:
    """A signed-in user who directs none of the events under test."""
    from django.contrib.auth.models import User

    return User.objects.create_user("oscar", password="oscar-password")

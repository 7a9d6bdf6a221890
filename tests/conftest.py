"""Shared fixtures: a fixed cast of users, and a transaction around a module for what its tests share."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# Property tests: no time limit per example and no health check on generation speed, which only
# measure how busy the machine is. CI replays the same examples on every run (``derandomize``);
# a developer's run explores new ones each time. HYPOTHESIS_PROFILE chooses another.
hypothesis_settings.register_profile(
    "dev", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    print_blob=True,
)
hypothesis_settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


@pytest.fixture(autouse=True, scope="session")
def _fast_passwords(request: pytest.FixtureRequest) -> Iterator[None]:
    """Passwords hashed with a fast hasher: the site's (PBKDF2, a million rounds) costs a good
    part of a second for each user a test makes and each sign-in, and no test is about its
    strength."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """On SQLite, a test database in a file of the worker's own rather than in memory.

    The live server of the browser tests answers each request in a thread of its own; a database
    in memory is one connection shared by all of them, where one request's statement can find a
    table locked by another's and fail at once. A file gives each thread its own connection, and
    one that finds the database busy waits its turn, as on the site. A transaction takes the write
    lock as it begins (``IMMEDIATE``): two that had both read could not otherwise both go on to
    write, and one would fail at once instead of waiting. No test needs the file to survive a
    crash of the machine, so writes are not synced to disk.
    """
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        return
    database.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.getbasetemp() / "test.sqlite3")
    options = database.setdefault("OPTIONS", {})
    given = options.get("init_command", "").strip().rstrip(";")
    options["init_command"] = "; ".join(filter(None, [given, "PRAGMA synchronous=OFF"]))
    options.setdefault("transaction_mode", "IMMEDIATE")
    options.setdefault("timeout", 20)


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
    """Each test starts with an empty cache, and nothing of another test's standings kept in the
    process: one test's failed sign-ins must not lock another's."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.core.cache import cache

    from tournaments.services import standings
    from tournaments.views import public

    cache.clear()
    # What a process keeps of an event between requests, by event id or by version: a module's
    # shared event has the same id and version in each of its tests.
    standings.forget()
    public._DOCUMENTS.clear()
    yield
    # A worker's standings computation freezes what the process holds (gc.freeze): handed back,
    # so that no test leaves the next one garbage the collector cannot see.
    gc.unfreeze()


def make_td() -> User:
    """Alice, a tournament director and a member of a club's account."""
    from django.contrib.auth.models import User

    from tournaments.models import Organisation

    user = User.objects.create_user("alice", password="alice-password", is_staff=True)
    Organisation.objects.create(name="Whistclub De Kroon").members.add(user)
    return user


_MODULE_TDS: dict[str, int] = {}
"""The director made for a module's shared fixtures (``module_td``), by module name."""


@pytest.fixture
def td(request: pytest.FixtureRequest, db: None) -> User:
    """The tournament director who runs the events under test, a member of a club's account: the
    module's own (``module_td``) once the module has one, so that both are the same person."""
    from django.contrib.auth.models import User

    shared = _MODULE_TDS.get(request.module.__name__)
    return User.objects.get(pk=shared) if shared is not None else make_td()


@pytest.fixture(scope="module")
def module_db(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """One transaction around the whole module, rolled back after its last test.

    What a module-scoped fixture writes inside it (an event in play, say, which takes a good part
    of a second to make) is made once and is there for each of the module's tests; each test runs
    in a savepoint of its own (``db``), so what one test changes is gone before the next.
    """
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture(scope="module")
def module_td(module_db: None, request: pytest.FixtureRequest) -> Iterator[User]:
    """The director of the module's shared events; ``td`` is the same person in that module."""
    user = make_td()
    _MODULE_TDS[request.module.__name__] = user.pk
    yield user
    del _MODULE_TDS[request.module.__name__]


@contextmanager
def as_a_test() -> Iterator[None]:
    """What a module-scoped fixture builds is built as a test would build it: in English."""
    from django.utils import translation

    with translation.override("en"):
        yield


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

"""The settings as the environment makes them: each case imports config.settings in a fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def start(
    tmp_path: Path, script: str, variables: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    # Only what the case sets: the test run's own DATABASE_URL, CACHE_URL... must not leak in.
    env = {
        "PATH": os.environ["PATH"],
        "TROEF_VAR_DIR": str(tmp_path / "var"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        **variables,
    }
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )


def settings_with(tmp_path: Path, *names: str, **variables: str) -> dict[str, Any]:
    script = (
        "import json; from django.conf import settings;"
        f"print(json.dumps({{n: getattr(settings, n) for n in {list(names)!r}}}, default=str))"
    )
    out = start(tmp_path, script, variables)
    assert out.returncode == 0, out.stderr
    values: dict[str, Any] = json.loads(out.stdout)
    return values


def refusal(tmp_path: Path, **variables: str) -> str:
    """The last line of the error with which the settings refuse to load."""
    out = start(tmp_path, "from django.conf import settings; settings.DEBUG", variables)
    assert out.returncode != 0, out.stdout
    return out.stderr.strip().splitlines()[-1]


def test_it_reads_a_postgres_url_into_the_database_entry(tmp_path: Path) -> None:
    database = settings_with(
        tmp_path,
        "DATABASES",
        DATABASE_URL="postgres://troef:p%40ss@db.example:5433/troef?connect_timeout=5",
        CONN_MAX_AGE="30",
    )["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == ("troef", "troef", "p@ss")
    assert (database["HOST"], str(database["PORT"])) == ("db.example", "5433")
    assert database["OPTIONS"] == {"connect_timeout": 5}
    assert database["CONN_MAX_AGE"] == 30
    assert database["CONN_HEALTH_CHECKS"] is True


def test_a_postgres_connection_is_kept_a_minute_by_default(tmp_path: Path) -> None:
    database = settings_with(
        tmp_path, "DATABASES", DATABASE_URL="postgresql://postgres@127.0.0.1:5432/test"
    )["DATABASES"]["default"]
    assert (database["ENGINE"], database["NAME"]) == ("django.db.backends.postgresql", "test")
    assert database["CONN_MAX_AGE"] == 60


def test_without_a_database_url_it_uses_sqlite_under_the_var_directory(tmp_path: Path) -> None:
    database = settings_with(tmp_path, "DATABASES")["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == str(tmp_path / "var" / "troef.sqlite3")
    assert (tmp_path / "var").is_dir()


def test_the_sqlite_path_keeps_spaces_plus_and_percent_signs(tmp_path: Path) -> None:
    var = tmp_path / "club 100+ %41"
    database = settings_with(tmp_path, "DATABASES", TROEF_VAR_DIR=str(var))["DATABASES"]["default"]
    assert database["NAME"] == str(var / "troef.sqlite3")


@pytest.mark.parametrize(
    ("url", "name"),
    [("sqlite:////srv/troef/troef.sqlite3", "/srv/troef/troef.sqlite3"), ("sqlite://", ":memory:")],
)
def test_it_reads_a_sqlite_url(tmp_path: Path, url: str, name: str) -> None:
    database = settings_with(tmp_path, "DATABASES", DATABASE_URL=url)["DATABASES"]["default"]
    assert (database["ENGINE"], database["NAME"]) == ("django.db.backends.sqlite3", name)


@pytest.mark.parametrize("url", ["mysql://troef@db/troef", "postgis://troef@db/troef", "troef"])
def test_it_refuses_a_database_it_does_not_support(tmp_path: Path, url: str) -> None:
    scheme = url.partition("://")[0] if "://" in url else ""
    assert refusal(tmp_path, DATABASE_URL=url) == (
        "django.core.exceptions.ImproperlyConfigured: DATABASE_URL scheme "
        f"{scheme!r} is not supported; use postgres:// or sqlite:///"
    )


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off(tmp_path: Path) -> None:
    assert refusal(tmp_path, DEBUG="false").endswith(
        "ImproperlyConfigured: SECRET_KEY must be set when DEBUG is off"
    )
    assert refusal(tmp_path, DEBUG="false", SECRET_KEY="").endswith(
        "SECRET_KEY must be set when DEBUG is off"
    )


def test_with_debug_on_it_keeps_a_generated_secret_key_under_var(tmp_path: Path) -> None:
    first = settings_with(tmp_path, "SECRET_KEY")["SECRET_KEY"]
    assert len(first) > 50
    assert (tmp_path / "var" / "secret_key").read_text() == first
    assert settings_with(tmp_path, "SECRET_KEY")["SECRET_KEY"] == first


def test_a_secret_key_that_starts_with_a_dollar_is_taken_as_written(tmp_path: Path) -> None:
    # django-environ would read "$PATH..." as a reference to the variable PATH.
    key = r"$PATH-and-$more\$"
    assert settings_with(tmp_path, "SECRET_KEY", DEBUG="false", SECRET_KEY=key) == {
        "SECRET_KEY": key
    }


@pytest.mark.parametrize(
    ("variable", "value"), [("DEBUG", "maybe"), ("DEBUG", "2"), ("SECURE_COOKIES", "sometimes")]
)
def test_it_refuses_a_boolean_that_is_neither_true_nor_false(
    tmp_path: Path, variable: str, value: str
) -> None:
    variables = {"DEBUG": "false", "SECRET_KEY": "k", variable: value}
    assert refusal(tmp_path, **variables) == (
        "django.core.exceptions.ImproperlyConfigured: "
        f"{variable} must be true or false, not {value!r}"
    )


@pytest.mark.parametrize(
    ("value", "debug"), [("1", True), ("YES", True), ("On", True), ("0", False), ("off", False)]
)
def test_it_reads_the_words_for_true_and_false(tmp_path: Path, value: str, debug: bool) -> None:
    assert settings_with(tmp_path, "DEBUG", DEBUG=value, SECRET_KEY="k") == {"DEBUG": debug}


@pytest.mark.parametrize(
    ("variable", "value", "kind"),
    [
        ("SIGNIN_ACCOUNT_FAILURES", "five", "a whole number"),
        ("CONN_MAX_AGE", "1.5", "a whole number"),
        ("TROEF_CATCH_UP_SECONDS", "15s", "a number"),
    ],
)
def test_it_refuses_a_number_that_is_not_one(
    tmp_path: Path, variable: str, value: str, kind: str
) -> None:
    variables = {"DATABASE_URL": "postgres://troef@db/troef", variable: value}
    assert refusal(tmp_path, **variables) == (
        f"django.core.exceptions.ImproperlyConfigured: {variable} must be {kind}, not {value!r}"
    )


@pytest.mark.parametrize("value", ["0", "-0.5", "1.5", "nan"])
def test_it_refuses_a_standings_share_that_is_not_a_share_of_a_processor(
    tmp_path: Path, value: str
) -> None:
    variables = {"DATABASE_URL": "postgres://troef@db/troef", "TROEF_STANDINGS_SHARE": value}
    assert refusal(tmp_path, **variables) == (
        "django.core.exceptions.ImproperlyConfigured: TROEF_STANDINGS_SHARE must be a share of a "
        f"processor above 0 and at most 1, not {value!r}"
    )


def test_numbers_are_read(tmp_path: Path) -> None:
    values = settings_with(
        tmp_path,
        "SIGNIN_THROTTLE",
        "DEVICE_PIN_THROTTLE",
        "TROEF_CATCH_UP_SECONDS",
        "TROEF_STALLED_SECONDS",
        "TROEF_STANDINGS_SHARE",
        SIGNIN_ACCOUNT_FAILURES="7",
        SIGNIN_WINDOW_MINUTES="2",
        DEVICE_PIN_ADDRESS_FAILURES=" 90 ",
        TROEF_CATCH_UP_SECONDS="2.5",
        TROEF_STALLED_SECONDS="0",
        TROEF_STANDINGS_SHARE="0.75",
    )
    assert values["SIGNIN_THROTTLE"] == {
        "ACCOUNT_FAILURES": 7,
        "ADDRESS_FAILURES": 20,
        "WINDOW_SECONDS": 120,
    }
    assert values["DEVICE_PIN_THROTTLE"]["ADDRESS_FAILURES"] == 90
    assert (values["TROEF_CATCH_UP_SECONDS"], values["TROEF_STALLED_SECONDS"]) == (2.5, 0.0)
    assert values["TROEF_STANDINGS_SHARE"] == 0.75


def test_an_empty_variable_keeps_the_default_except_for_text(tmp_path: Path) -> None:
    values = settings_with(
        tmp_path,
        "DEBUG",
        "ALLOWED_HOSTS",
        "SIGNIN_THROTTLE",
        "TROEF_CATCH_UP_SECONDS",
        "CACHES",
        "CELERY_RESULT_BACKEND",
        DEBUG="",
        ALLOWED_HOSTS="",
        SIGNIN_ACCOUNT_FAILURES="",
        TROEF_CATCH_UP_SECONDS="",
        CACHE_URL="",
        CELERY_BROKER_URL="redis://redis:6379/0",
        CELERY_RESULT_BACKEND="",
    )
    assert values["DEBUG"] is True
    assert values["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost", "[::1]", "testserver"]
    assert values["SIGNIN_THROTTLE"]["ACCOUNT_FAILURES"] == 5
    assert values["TROEF_CATCH_UP_SECONDS"] == 15.0
    assert values["CACHES"]["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    # An empty result backend is a choice: no result store, rather than the broker.
    assert values["CELERY_RESULT_BACKEND"] is None


def test_a_list_is_comma_separated_with_spaces_and_empty_items_dropped(tmp_path: Path) -> None:
    values = settings_with(
        tmp_path,
        "ALLOWED_HOSTS",
        "CSRF_TRUSTED_ORIGINS",
        ALLOWED_HOSTS=" troef.example.be , ,.club.example,",
        CSRF_TRUSTED_ORIGINS="https://troef.example.be",
    )
    assert values == {
        "ALLOWED_HOSTS": ["troef.example.be", ".club.example"],
        "CSRF_TRUSTED_ORIGINS": ["https://troef.example.be"],
    }


def test_a_redis_cache_url_gives_the_shared_cache_with_short_timeouts(tmp_path: Path) -> None:
    cache = settings_with(tmp_path, "CACHES", CACHE_URL="rediss://:secret@redis:6380/1")["CACHES"]
    assert cache["default"] == {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "rediss://:secret@redis:6380/1",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }


@pytest.mark.parametrize("url", ["memcache://cache:11211", "locmem://"])
def test_it_refuses_a_cache_that_is_not_redis(tmp_path: Path, url: str) -> None:
    assert refusal(tmp_path, CACHE_URL=url) == (
        f"django.core.exceptions.ImproperlyConfigured: CACHE_URL must be a redis:// URL, not {url!r}"
    )


def test_hsts_can_be_turned_off_with_zero(tmp_path: Path) -> None:
    values = settings_with(
        tmp_path, "SECURE_HSTS_SECONDS", DEBUG="false", SECRET_KEY="k", SECURE_HSTS_SECONDS="0"
    )
    assert values == {"SECURE_HSTS_SECONDS": 0}
    assert settings_with(tmp_path, "SECURE_HSTS_SECONDS", DEBUG="false", SECRET_KEY="k") == {
        "SECURE_HSTS_SECONDS": 31536000
    }


def test_the_analysis_takes_every_processor_unless_told(tmp_path: Path) -> None:
    assert settings_with(tmp_path, "TROEF_ANALYSIS_THREADS") == {"TROEF_ANALYSIS_THREADS": 0}
    told = settings_with(tmp_path, "TROEF_ANALYSIS_THREADS", TROEF_ANALYSIS_THREADS="3")
    assert told == {"TROEF_ANALYSIS_THREADS": 3}


@pytest.mark.parametrize("value", ["-1", "two", "1.5"])
def test_it_refuses_a_number_of_analysis_threads_that_is_not_a_whole_number(
    tmp_path: Path, value: str
) -> None:
    assert refusal(tmp_path, TROEF_ANALYSIS_THREADS=value) == (
        "django.core.exceptions.ImproperlyConfigured: TROEF_ANALYSIS_THREADS is a number of "
        f"threads (0 for every processor), not {value!r}"
    )

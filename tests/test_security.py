"""Sign-in throttle, production settings that pass `check --deploy`, and nginx's security headers."""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from redis.exceptions import ConnectionError as RedisConnectionError

from tournaments import throttle

ROOT = Path(__file__).resolve().parent.parent
LOCKED = "Too many failed sign-ins: try again in"


@pytest.fixture(autouse=True)
def _empty_cache(settings: Any) -> Iterator[None]:
    # A fast hasher: these tests check hundreds of passwords.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


def sign_in(client: Client, username: str, password: str, address: str = "192.0.2.10") -> bool:
    client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )
    return "_auth_user_id" in client.session


def basic(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def fail(client: Client, username: str, times: int, address: str = "192.0.2.10") -> None:
    for _ in range(times):
        assert not sign_in(client, username, "not-the-password", address)


@pytest.mark.django_db
def test_it_signs_in_with_the_right_password(client: Client, td: User) -> None:
    assert sign_in(client, "alice", "alice-password")


@pytest.mark.django_db
def test_it_locks_an_account_after_five_failed_sign_ins(client: Client, td: User) -> None:
    fail(client, "alice", 4)
    assert sign_in(client, "alice", "alice-password")
    client.logout()
    # The right password forgave the four; five more lock the account, from any address.
    fail(client, "alice", 5)
    response = client.post(
        "/accounts/login/",
        {"username": "alice", "password": "alice-password"},
        REMOTE_ADDR="198.51.100.7",
    )
    assert "_auth_user_id" not in client.session
    assert f"{LOCKED} 15 minutes." in response.content.decode()


@pytest.mark.django_db
def test_the_account_lock_ignores_the_case_of_the_username(client: Client, td: User) -> None:
    fail(client, "Alice", 3)
    fail(client, "ALICE", 2)
    assert not sign_in(client, "alice", "alice-password")


@pytest.mark.django_db
def test_a_locked_account_does_not_lock_the_others(client: Client, td: User) -> None:
    User.objects.create_user("carol", password="carol-password")
    fail(client, "alice", 5)
    assert sign_in(client, "carol", "carol-password")


@pytest.mark.django_db
def test_it_locks_an_address_after_twenty_failed_sign_ins(client: Client, td: User) -> None:
    for attempt in range(20):
        fail(client, f"guess{attempt}", 1, address="203.0.113.5")
    assert not sign_in(client, "alice", "alice-password", address="203.0.113.5")
    assert sign_in(client, "alice", "alice-password", address="203.0.113.6")


@pytest.mark.django_db
def test_nineteen_failures_from_a_club_hall_leave_it_open(client: Client, td: User) -> None:
    for attempt in range(19):
        fail(client, f"player{attempt}", 1, address="203.0.113.5")
    assert sign_in(client, "alice", "alice-password", address="203.0.113.5")


@pytest.mark.django_db
def test_the_lock_ends_with_its_window(
    client: Client, td: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    fail(client, "alice", 5)
    later = time.time() + 15 * 60 + 1
    # The cache's own expiry reads time.time too, so this moves the whole clock.
    monkeypatch.setattr(time, "time", lambda: later)
    assert sign_in(client, "alice", "alice-password")


@pytest.mark.django_db
def test_it_says_how_many_minutes_are_left(
    client: Client, td: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    fail(client, "alice", 5)
    later = time.time() + 14 * 60 + 30
    monkeypatch.setattr(time, "time", lambda: later)
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "x"}, REMOTE_ADDR="192.0.2.10"
    )
    assert f"{LOCKED} 1 minute." in response.content.decode()


@pytest.mark.django_db
def test_it_logs_the_lock_once(client: Client, td: User, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="troef.security"):
        fail(client, "alice", 7)
    locks = [r.getMessage() for r in caplog.records if r.name == "troef.security"]
    assert len(locks) == 1
    assert "5 failed sign-ins for account 'alice'" in locks[0]


@pytest.mark.django_db
def test_the_admin_sign_in_is_locked_as_well(client: Client, td: User) -> None:
    fail(client, "alice", 5)
    response = client.post(
        "/admin/login/",
        {"username": "alice", "password": "alice-password", "next": "/admin/"},
        REMOTE_ADDR="198.51.100.7",
    )
    assert "_auth_user_id" not in client.session
    assert f"{LOCKED} 15 minutes." in response.content.decode()
    assert "Troef administration" in response.content.decode()


@pytest.mark.django_db
def test_the_api_answers_429_with_a_retry_hint_once_locked(client: Client, td: User) -> None:
    for _ in range(5):
        response = client.get(
            "/api/events/", HTTP_AUTHORIZATION=basic("alice", "nope"), REMOTE_ADDR="192.0.2.10"
        )
        # 401 with a challenge: API tokens come first among the API's authentication classes.
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == "Bearer"
        assert response.json()["code"] == "authentication_failed"
    response = client.get(
        "/api/events/",
        HTTP_AUTHORIZATION=basic("alice", "alice-password"),
        REMOTE_ADDR="192.0.2.10",
    )
    assert response.status_code == 429
    assert 899 <= int(response["Retry-After"]) <= 900
    body = response.json()
    assert body["code"] == "throttled"
    assert body["message"] == f"{LOCKED} 15 minutes."


@pytest.mark.django_db
def test_api_failures_count_towards_the_sign_in_page_lock(client: Client, td: User) -> None:
    for _ in range(5):
        client.get("/api/events/", HTTP_AUTHORIZATION=basic("alice", "nope"))
    assert not sign_in(client, "alice", "alice-password")


@pytest.mark.django_db
def test_behind_the_proxy_it_counts_the_address_nginx_passes(
    client: Client, td: User, settings: Any
) -> None:
    settings.CLIENT_ADDRESS_HEADER = "X-Real-IP"
    for attempt in range(20):
        client.post(
            "/accounts/login/",
            {"username": f"guess{attempt}", "password": "x"},
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_REAL_IP="203.0.113.5",
        )
    # nginx's own address is shared by everyone: only the client's address is locked.
    client.post(
        "/accounts/login/",
        {"username": "alice", "password": "alice-password"},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_REAL_IP="203.0.113.6",
    )
    assert "_auth_user_id" in client.session


@pytest.mark.django_db
def test_a_stopped_cache_lets_directors_sign_in(
    client: Client, td: User, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def down(*args: object, **kwargs: object) -> None:
        raise RedisConnectionError("Connection refused")

    for method in ("get", "add", "incr", "set", "delete_many"):
        monkeypatch.setattr(cache, method, down)
    assert not sign_in(client, "alice", "wrong")
    assert sign_in(client, "alice", "alice-password")
    assert "cache unavailable" in caplog.text


def test_the_limits_must_be_positive(settings: Any) -> None:
    settings.SIGNIN_THROTTLE = {"ACCOUNT_FAILURES": 0}
    with pytest.raises(ValueError, match="must be positive"):
        throttle.limits()


# --- Production settings ----------------------------------------------------------------------


def documented_environment(tmp_path: Path) -> dict[str, str]:
    """deploy/troef.env.example as an operator fills it in: with a real secret key."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECURE_"))}
    for key in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "DEBUG"):
        env.pop(key, None)
    for line in (ROOT / "deploy" / "troef.env.example").read_text().splitlines():
        if re.match(r"^[A-Z_]+=", line):
            key, _, value = line.partition("=")
            env[key] = value
    env["SECRET_KEY"] = "k" + base64.b64encode(os.urandom(48)).decode()
    env["TROEF_VAR_DIR"] = str(tmp_path)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return env


def test_check_deploy_is_clean_with_the_documented_production_environment(
    tmp_path: Path,
) -> None:
    env = documented_environment(tmp_path)
    assert env["DEBUG"] == "false"
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "System check identified no issues (0 silenced)." in out.stdout


def test_check_deploy_warns_on_a_plain_http_site(tmp_path: Path) -> None:
    # The test above is worth something only if the check sees weaker settings: SECURE_COOKIES=false
    # turns off secure cookies, the HTTPS redirect and HSTS together.
    env = {**documented_environment(tmp_path), "SECURE_COOKIES": "false"}
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in out.stderr + out.stdout


def settings_in(env: dict[str, str], *names: str) -> list[str]:
    script = (
        "import django; django.setup(); from django.conf import settings;"
        f"print(*[repr(getattr(settings, n)) for n in {list(names)!r}], sep='\\n')"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.splitlines()


def test_production_redirects_to_https_except_the_health_check(tmp_path: Path) -> None:
    env = documented_environment(tmp_path)
    redirect, exempt, proxy = settings_in(
        env, "SECURE_SSL_REDIRECT", "SECURE_REDIRECT_EXEMPT", "SECURE_PROXY_SSL_HEADER"
    )
    assert redirect == "True"
    assert exempt == "['^healthz$']"
    assert proxy == "('HTTP_X_FORWARDED_PROTO', 'https')"


def test_make_run_stays_on_plain_http(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECURE_"))}
    for key in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "CACHE_URL"):
        env.pop(key, None)
    env.update(TROEF_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings")
    assert settings_in(
        env, "DEBUG", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SESSION_COOKIE_SECURE"
    ) == ["True", "False", "0", "False"]
    assert settings_in(env, "CACHES")[0].startswith(
        "{'default': {'BACKEND': 'django.core.cache.backends.locmem.LocMemCache'"
    )


# --- nginx ------------------------------------------------------------------------------------


def nginx_headers() -> dict[str, str]:
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    return {
        name.lower(): value
        for name, value in re.findall(r'^\s*add_header\s+(\S+)\s+"([^"]*)"\s+always;', text, re.M)
    }


def test_nginx_sends_the_security_headers() -> None:
    headers = nginx_headers()
    assert headers["strict-transport-security"].startswith("max-age=31536000")
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["x-frame-options"] == "DENY"
    csp = headers["content-security-policy"]
    assert "default-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert "script-src 'self'" in csp
    assert "'unsafe-inline'" not in csp.replace("style-src $troef_style_src", "")
    # Inline styles on the API's browsable pages only.
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    style_map = re.search(r"map \$uri \$troef_style_src \{([^}]*)\}", text)
    assert style_map is not None
    assert re.search(r"default\s+\"'self'\";", style_map.group(1))


def test_nginx_adds_headers_only_at_server_level() -> None:
    # An add_header inside a location drops every add_header of the server block there.
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    for block in re.findall(r"location [^{]*\{([^}]*)\}", text):
        assert "add_header" not in block


def test_the_site_pages_satisfy_the_content_security_policy() -> None:
    csp = nginx_headers()["content-security-policy"]
    script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
    templates = [*(ROOT / "templates").rglob("*.html"), *(ROOT / "tournaments").rglob("*.html")]
    for path in templates:
        text = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag, f"inline script in {path}"
        assert not re.search(r"\sstyle\s*=", text), f"style attribute in {path}"
        assert "<style" not in text, f"inline style sheet in {path}"
        # An event-handler attribute runs only if the policy lists its hash.
        for handler in re.findall(r'\son[a-z]+="([^"]*)"', text):
            digest = base64.b64encode(hashlib.sha256(handler.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in script_src, f"{handler!r} in {path}"


@pytest.mark.django_db
def test_an_operator_can_unlock_an_account(client: Client, td: User) -> None:
    fail(client, "alice", 5)
    throttle.clear_account("Alice")
    assert sign_in(client, "alice", "alice-password")


@pytest.mark.django_db
@hypothesis_settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(username=st.text(max_size=300), password=st.text(max_size=300))
def test_no_credentials_break_the_throttle(client: Client, username: str, password: str) -> None:
    response = client.post("/accounts/login/", {"username": username, "password": password})
    assert response.status_code == 200
    header = basic(username.replace(":", ""), password)
    response = client.get("/api/v1/events/", HTTP_AUTHORIZATION=header)
    assert response.status_code in (200, 401, 429)

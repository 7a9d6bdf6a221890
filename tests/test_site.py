from __future__ import annotations

from unittest import mock

import pytest
from django.db.utils import OperationalError
from django.test import Client, override_settings


@pytest.mark.django_db
def test_it_serves_the_home_page(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"Troef" in response.content


@pytest.mark.django_db
def test_it_reports_health_as_json(client: Client) -> None:
    response = client.get("/healthz")
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"] in ("ok", "eager")
    assert response.status_code == 200
    assert body["status"] == "ok"


@pytest.mark.django_db
def test_it_answers_503_when_the_database_is_down(client: Client) -> None:
    with mock.patch(
        "django.db.backends.utils.CursorWrapper.execute", side_effect=OperationalError("gone")
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"].startswith("down")


@pytest.mark.django_db
@override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0", CELERY_TASK_ALWAYS_EAGER=False)
def test_it_answers_503_when_the_broker_is_down(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"].startswith("down")


@pytest.mark.django_db
def test_it_shows_the_sign_in_page(client: Client) -> None:
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    assert b'name="password"' in response.content

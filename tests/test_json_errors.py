"""JSON endpoints answer JSON whatever goes wrong; a database that is down answers 503, try again."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import InterfaceError, OperationalError
from django.test import Client

from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tournaments.models import Event, Result


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    with as_a_test():
        return start_event(module_td, "evening", 16)


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """16 players in play, round 1 open (made once for the module)."""
    return Event.objects.get(pk=_running.pk)


@pytest.fixture
def td_client(td: User) -> Client:
    """The TD's browser; a crash comes back as the response the user would see."""
    client = Client(headers={"accept-language": "en"}, raise_request_exception=False)
    client.force_login(td)
    return client


def _save(client: Client, event: Event, **body: Any) -> Any:
    """The entry page's save: API v1's results endpoint."""
    return client.post(
        f"/api/v1/events/{event.slug}/results/",
        {"round": 1, "table": 1, "board": 1, "text": "NE 9H 10", **body},
        content_type="application/json",
    )


def test_it_answers_a_crash_in_a_save_with_a_json_500(td_client: Client, running: Event) -> None:
    with mock.patch("tournaments.services.results.record_result", side_effect=RuntimeError("bug")):
        response = _save(td_client, running)
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "server_error"


def test_it_answers_a_crash_in_the_line_check_with_a_json_500(
    td_client: Client, running: Event
) -> None:
    with mock.patch("tournaments.services.results.check", side_effect=KeyError("E")):
        response = td_client.post(
            f"/api/v1/events/{running.slug}/check/",
            {"board": 1, "text": "NE 9H 10"},
            content_type="application/json",
        )
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"


def test_it_answers_a_crash_in_the_api_with_its_own_json_shape(
    td_client: Client, running: Event
) -> None:
    with mock.patch("tournaments.services.results.record_result", side_effect=RuntimeError("bug")):
        response = td_client.post(
            f"/api/events/{running.slug}/results/",
            {"round": 1, "table": 1, "board": 1, "text": "NE 9H 10"},
            content_type="application/json",
        )
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"


def test_it_answers_a_crash_in_the_standings_document_with_json(
    td_client: Client, running: Event
) -> None:
    with mock.patch("tournaments.views.public.open_sheet_differences", side_effect=ValueError):
        response = td_client.get(f"/events/{running.slug}/standings.json")
    assert response.status_code == 500
    assert response.json() == {
        "code": "server_error",
        "message": response.json()["message"],
        "field": None,
        "params": {},
    }


def test_it_still_reports_the_crash_to_the_test_client(td: User, running: Event) -> None:
    client = Client()
    client.force_login(td)
    with (
        mock.patch("tournaments.services.results.record_result", side_effect=RuntimeError("bug")),
        pytest.raises(RuntimeError),
    ):
        _save(client, running)


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_it_answers_503_with_a_retry_hint_while_the_database_is_down(
    td_client: Client, running: Event, error: type[Exception]
) -> None:
    with mock.patch(
        "tournaments.services.results.record_result", side_effect=error("server closed")
    ):
        response = _save(td_client, running)
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json()["code"] == "unavailable"
    assert not Result.objects.filter(event=running).exists()


def test_it_answers_503_json_on_the_api_while_the_database_is_down(
    td_client: Client, running: Event
) -> None:
    with mock.patch(
        "tournaments.services.results.record_result", side_effect=OperationalError("gone")
    ):
        response = td_client.post(
            f"/api/events/{running.slug}/results/",
            {"round": 1, "table": 1, "board": 1, "text": "NE 9H 10"},
            content_type="application/json",
        )
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json()["code"] == "unavailable"


def test_it_shows_a_try_again_page_on_other_pages_while_the_database_is_down(
    td_client: Client, running: Event
) -> None:
    with mock.patch("tournaments.views.entry.rounds.gaps", side_effect=OperationalError("gone")):
        response = td_client.get(f"/events/{running.slug}/rounds/1/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"].startswith("text/html")
    assert b"Try again" in response.content


def test_it_leaves_a_crash_on_an_html_page_to_django(td_client: Client, running: Event) -> None:
    with mock.patch("tournaments.views.entry.rounds.gaps", side_effect=RuntimeError("bug")):
        response = td_client.get(f"/events/{running.slug}/rounds/1/")
    assert response.status_code == 500
    assert not response["Content-Type"].startswith("application/json")


def test_it_answers_an_unknown_table_with_a_json_404(td_client: Client, running: Event) -> None:
    response = td_client.get(f"/api/v1/events/{running.slug}/rounds/1/tables/99/boards/1/result/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    named = _save(td_client, running, table=99)
    assert (named.status_code, named.json()["field"]) == (400, "table")


def test_it_answers_a_wrong_method_with_a_json_405(td_client: Client, running: Event) -> None:
    response = td_client.get(f"/api/v1/events/{running.slug}/check/")
    assert response.status_code == 405
    assert "POST" in response["Allow"]
    assert response.json()["code"] == "method_not_allowed"


def test_it_answers_an_outsider_with_a_json_403(outsider: User, running: Event) -> None:
    client = Client(headers={"accept-language": "en"})
    client.force_login(outsider)
    response = _save(client, running)
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"

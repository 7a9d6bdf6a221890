"""A save sent again after its answer was lost: answered with what it stored, never stored twice.

The keying page gives each save a key of its own and sends it again with the same key when the
connection fails; the server answers a known key with the version that key stored, instead of a
second version or a conflict with itself.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.conftest import as_a_test
from tests.tournaments.conftest import start_event
from tests.tournaments.test_results import a_line_for, first_table
from tournaments.errors import ConflictError, UserError
from tournaments.models import AuditEntry, Event, Result
from tournaments.services import results

pytestmark = pytest.mark.django_db

KEY = "0f5c2a9e-5b7d-4a51-9d33-1c2b3a4d5e6f"


@pytest.fixture(scope="module")
def _running(module_td: User) -> Event:
    """Sixteen players, round 1 in play."""
    with as_a_test():
        return start_event(module_td, "club-evening", 16)


@pytest.fixture
def running(_running: Event, db: None) -> Event:
    """Sixteen players, round 1 in play (made once for the module)."""
    return Event.objects.get(pk=_running.pk)


def test_a_resent_save_gets_its_stored_version_and_writes_nothing(
    td: User,
    running: Event,
) -> None:
    table, board = first_table(running)
    line = a_line_for(board)
    first = results.record_result(td, table, board, line, expected_version=0, submission=KEY)
    # The answer was lost; the device sends the very same request again, still "based on" v0.
    again = results.record_result(td, table, board, line, expected_version=0, submission=KEY)
    assert again.pk == first.pk
    assert Result.objects.filter(table=table, board=board).count() == 1
    assert AuditEntry.objects.filter(event=running, action="result.record").count() == 1


def test_another_save_based_on_an_old_version_is_still_a_conflict(
    td: User,
    running: Event,
) -> None:
    table, board = first_table(running)
    line = a_line_for(board)
    results.record_result(td, table, board, line, expected_version=0, submission=KEY)
    with pytest.raises(ConflictError):
        results.record_result(
            td, table, board, "pass", expected_version=0, submission="another-key-1234"
        )


@pytest.mark.parametrize("key", ["short", "x" * 65, "has space in it", 12345678, ["a" * 8]])
def test_a_malformed_submission_key_is_refused(
    td: User,
    running: Event,
    key: object,
) -> None:
    table, board = first_table(running)
    with pytest.raises(UserError) as refused:
        results.record_result(td, table, board, a_line_for(board), submission=key)
    assert (refused.value.code, refused.value.field) == ("bad_submission", "submission")
    assert not Result.objects.filter(table=table, board=board).exists()


def test_the_entry_endpoint_answers_a_resent_save_with_the_same_version(
    client: Client,
    td: User,
    running: Event,
) -> None:
    table, board = first_table(running)
    client.force_login(td)
    url = reverse("api-v1-results", args=[running.slug])
    body = {
        "round": 1,
        "table": table.number,
        "board": board.number,
        "text": a_line_for(board),
        "version": 0,
        "submission": KEY,
    }
    answers = [client.post(url, body, content_type="application/json") for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 200]
    assert answers[0].json() == answers[1].json()
    assert answers[1].json()["version"] == 1
    assert Result.objects.filter(table=table, board=board).count() == 1
    bad = client.post(url, {**body, "submission": "no"}, content_type="application/json")
    assert bad.status_code == 400
    assert bad.json()["field"] == "submission"
